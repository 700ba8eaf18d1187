package bench

// pageHead opens docs/benchmarks.md: how the figures are taken.
const pageHead = "# Benchmarks\n\n" +
	"<!-- Generated from the records in bench/data by `" + PageCommand + "`; do not edit. -->\n\n" +
	`Measured figures: for each topic, the newest record of each configuration,
with the build, date and machine it was taken on; the record at the end of
the page gives the exact command, the load and every run. Rerun the command
before comparing: only figures taken side by side compare. How to add a
record: [formats.md](formats.md#benchmark-records).

## Method

- **Machine.** The machines are named at the end of the page. Their speed
  drifts by 10-25 % within minutes and by up to half between hours.
- **One process at a time**, at ` + "`nice -n -10`" + `, autogroup off (` + "`echo 0 >\n  /proc/sys/kernel/sched_autogroup_enabled`" + ` as root): with autogroup on,
  ` + "`nice`" + ` ranks processes only within one terminal's group.
- **Comparisons only side by side**, alternating A B A B, so that the drift
  falls on both. Paired runs: one warm-up run of each command, then A B A B
  ..., each run timed as a whole process (` + "`/usr/bin/time -v`" + `); a ratio
  is taken pair by pair.
- **Whole-process time**: CPU seconds (user + system) or wall seconds of
  ` + "`/usr/bin/time`" + `; "search s" is the ` + "`seconds`" + ` of ` + "`--json`" + `, which
  leaves out opening the database and the table.
- **Node counts** of one thread are deterministic: they depend on the build
  and the table size, not on the machine or its load. Two threads' counts
  vary from run to run.
- **Builds** are clean clones; the **peers** (girving/kalah, CMancala) are
  built outside this repository, and none of their code is committed here.
  A figure "a-b" is the range of the runs, "m (a-b)" their median and range.

`

// Topics are the page's sections, in order.
var Topics = []Topic{
	{ID: "engine", Title: "Engine", Intro: `
Sowing and perft, one thread. Perft's nodes per second count the positions
of the last ply from their parent's move list without playing them, so they
run ahead of the sowing rate; ` + "`BenchmarkSow`" + ` is the cost of one move.`},
	{ID: "peers", Title: "Against the peers", Intro: `
The value of Kalah(6,4) (and every move's, and Kalah(6,5)), one thread, each
program at the same database depth; whole-process seconds, the programs
alternating. Each peer plays one rule: girving/kalah (commit 0a0c007)
empty-capture, CMancala (1c8dbda) no-empty-capture. How each is built and
run is in each record's peer command; both were built with Debian gcc 12.2,
girving/kalah by ` + "`make serial CFLAGS='-O3 -funroll-loops -Winline -Wall -fgnu89-inline'`" + `
and CMancala by ` + "`cmake -DCMAKE_BUILD_TYPE=Release`" + ` (its CMakeLists adds
` + "`-O3 -march=native -flto=auto`" + `). girving/kalah's nodes are the calls of
its search after its peeks, as kalah's are; CMancala prints no count, and a
scratch copy counted the boards whose moves it generated ("expanded").`},
	{ID: "starts", Title: "Start positions, one thread", Intro: `
Without a database or cache: ` + "`kalah solve --pits 6 --seeds N --rule R --threads 1 --no-egdb --no-cache -q --json [--value-only]`" + `.
The value alone is what the peers compute; every move's exact value costs
two to four times as much.`},
	{ID: "main-job", Title: "The main job", Intro: `
The README's first command, ` + "`kalah solve`" + `: the start of Kalah(6,4) under
` + "`no-empty-capture`" + ` with every move's value. On a new data directory the
opening book built into the binary answers it; ` + "`--force`" + ` searches on two
threads, building the 20-seed database first. A built binary,
` + "`XDG_DATA_HOME`" + ` an empty directory, under ` + "`time`" + `.`},
	{ID: "main-job-depth", Title: "Database depth for the main job", Intro: `
` + "`kalah egdb build --pits 6 --max-seeds S --rule no-empty-capture --egdb DIR -q`" + `,
then ` + "`kalah solve --force --no-cache -q --egdb DIR`" + `: the build and the
solve together are least near the default 20 seeds.`},
	{ID: "egdb-build", Title: "Database build", Intro: `
` + "`kalah egdb build --pits M --rule R --max-seeds S --threads 2 --egdb DIR -q --json`" + `
under ` + "`/usr/bin/time`" + `, packed format, each step on top of the depth before
it unless "from nothing"; per-slice figures in [egdb.md](egdb.md).`},
	{ID: "egdb-depth", Title: "Solve cost by database depth", Intro: `
Every move's value of the Kalah(6,4) start (` + "`kalah solve --pits 6 --seeds 4 --egdb DIR --no-cache --threads T --json -q`" + `),
and the value of Kalah(6,5) (` + "`--seeds 5 --value-only`" + `), each depth's
default table unless named.`},
	{ID: "threads", Title: "Threads", Intro: `
Two threads against one, interleaved.`},
	{ID: "growth", Title: "Growth from Kalah(6,3) to (8,4)", Intro: `
The start positions by cell: the value alone and every opening move's value.
` + "`kalah solve --pits M --seeds N --rule R --value-only --threads 2 --egdb DIR`" + `;
the open cells ` + "`kalah sweep --pits M --seeds N --rule R --threads 2 --egdb DIR --cache DIR --max-time T`" + `,
whose bounds are in [results.md](results.md#open-cells).`},
	{ID: "explorer", Title: "Explorer latency", Intro: `
Answers of ` + "`kalah serve`" + ` over HTTP: from the cache under load
(` + "`BenchmarkCachedAnswer`" + `), from the built-in book while the database
builds, and every position of random Kalah(6,4) games as the page asks it
(` + "`serve/measure.sh`" + `, [explorer.md](explorer.md#how-fast-it-answers)).`},
	{ID: "analysis", Title: "Game analysis", Intro: `
` + "`kalah analyze --json GAMES`" + ` ([analysis.md](analysis.md)) of Kalah(6,4)
games, all of a row's in one process with a fresh cache (` + "`bench/analysis.sh`" + `):
random games (every move drawn uniformly among the legal ones), in which
most moves lose and need searches of their own, and games between the play
levels (easy, medium, perfect), on the default 20-seed database or the
28-seed database that ` + "`kalah analyze`" + ` and ` + "`kalah serve`" + ` deepen to. Seconds a
game and a move, by ply (the value of the position the move leads to and,
where it loses, a best move). Node counts, unlike seconds, do not grow with
the machine's load (two threads' counts vary a little from run to run).`},
	{ID: "campaign", Title: "Campaigns", Intro: `
A campaign with local workers or through the cluster test's three-node
cluster against one solve on two threads, and the cross-checks' catch
([distributed.md](distributed.md)).`},
	{ID: "campaign-scale", Title: "Campaign scaling", Intro: `
` + "`kalah campaign simulate`" + ` ([distributed.md](distributed.md#simulate))
against measured campaigns: the same campaign on a fresh three-node
cluster (campaign/clustertest, ` + "`make scale-test`" + `) with 1, 2 and 4 workers of
one thread, each run's wall time beside the simulation of the one-worker
run's unit tree, at that run's unit seconds, on the machine's cores
shared by the workers (` + "`--cores`" + `), at the measured run's node
rate a worker, and at that rate with the measured run's nodes. The
machine has two cores for the workers, the three NATS servers and the
coordinator: four workers cannot run faster than two there. The
predictions are ` + "`kalah campaign simulate --estimate`" + `: a one-worker run's tree
with the unit costs of an estimate's sample, on 64 and 512 workers.`},
	{ID: "campaign-design", Title: "Campaign design", Intro: `
The measurements behind [distributed.md](distributed.md#design-notes): the
first guesses, the coordinator's tests, the workers' sharing, and the
estimates of campaigns not run.`},
	{ID: "cache", Title: "Cache", Intro: `
The cache's cost and gain on every move's value of Kalah(6,4), one thread,
1 GiB table; and a solve killed (SIGKILL) past half its nodes, then run
again from the table's last checkpoint.`},
	{ID: "bench", Title: "kalah bench", Intro: `
` + "`kalah bench`" + ` (package ` + "`bench`" + `, [cli.md](cli.md#kalah-bench)) solves a fixed
suite, each position with a fresh solver, as ` + "`kalah solve`" + ` does. With one
thread and no database the node count of its last line, ` + "`Bench: <nodes> nodes <nps> nps`" + `,
is the search's signature: the same on every machine for a build. ` + "`bench/signature.go`" + `
holds the quick suite's count and ` + "`go test ./bench/`" + ` checks it; a commit
that changes the search updates it and says so. ` + "`make bench`" + ` runs the Go
benchmarks. The go tool builds ` + "`cmd/kalah`" + ` with ` + "`cmd/kalah/default.pgo`" + `
(` + "`make pgo`" + ` makes it again). Plots of a full-suite run
(` + "`kalah bench --suite full --plot docs/img`" + `):

![seconds per position, 1 and 2 threads](img/bench-time.png)
![nodes per position, 1 and 2 threads](img/bench-nodes.png)
![speed-up by threads](img/bench-speedup.png)
![seconds of the Kalah(6,n) start positions by n](img/bench-growth-time.png)
![nodes of the Kalah(6,n) start positions by n](img/bench-growth-nodes.png)`},
	{ID: "search-design", Title: "Search design", Intro: `
The measurements behind [algorithms.md](algorithms.md#design-notes): each
row an idea kept or dropped, against the build before it.`},
	{ID: "egdb-design", Title: "Database design", Intro: `
The measurements behind [egdb.md](egdb.md)'s design notes.`},
}
