//go:build unix

package serve

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

// BenchmarkRandomGames is the explorer's latency measurement
// (docs/explorer.md, "How fast it answers"): it plays random games from
// the start of Kalah(6,4) and asks the server, through HTTP, for every
// move's value (/api/solve, what the page asks) of each position along
// them, as a page that follows the games would. It reports the median,
// 99th percentile and largest wall time of an answer, and the largest
// CPU time (the process's, so the solve's over all its threads). It is a
// measurement, not a test: it runs only when $KALAH_GAMES_CACHE names the
// cache to use (which a 'kalah book build' has filled beforehand), once
// (-benchtime 1x); serve/measure.sh sets it up. The variables:
//
//	KALAH_GAMES_CACHE    the cache (required); the answers found are added to it
//	KALAH_GAMES_EGDB     the endgame databases ("" for none)
//	KALAH_GAMES_RULE     no-empty-capture (default) or empty-capture
//	KALAH_GAMES_PITS     pits a side (default 6), and KALAH_GAMES_SEEDS seeds a pit (default 4)
//	KALAH_GAMES_N        games (default 200)
//	KALAH_GAMES_SEED     the random moves' seed (default 1)
//	KALAH_GAMES_THREADS  search threads (default all cores)
//	KALAH_GAMES_TT_MIB   the sessions' table in MiB (default the server's)
//	KALAH_GAMES_CAP      a solve's time limit, e.g. 30s (default none): a longer one
//	                     stops, answers with its bounds and counts as taking the limit
//	KALAH_GAMES_NO_WARM  set: do not warm the session before the games (Server.Warm)
//	KALAH_GAMES_THINK    a pause after each answer, e.g. 2s, as a person reading it
//	                     (default none): the server's look-ahead runs meanwhile
//	KALAH_GAMES_NO_PONDER set: the server does not look ahead (Options.NoPonder)
//	KALAH_GAMES_OUT      a file for one line per position (game, ply, seeds on the
//	                     board, wall s, CPU s, nodes, from the cache, solved, the
//	                     position and the side to move, for 'kalah solve --position')
func BenchmarkRandomGames(b *testing.B) {
	cache := os.Getenv("KALAH_GAMES_CACHE")
	if cache == "" {
		b.Skip("set KALAH_GAMES_CACHE (and KALAH_GAMES_EGDB) to run the latency measurement; see serve/measure.sh")
	}
	opts, rule := gamesOptions(b, cache)
	games, seed := envInt(b, "KALAH_GAMES_N", 200), uint64(envInt(b, "KALAH_GAMES_SEED", 1))
	think := envDuration(b, "KALAH_GAMES_THINK", "0s")
	opts.SolveTimeout = envDuration(b, "KALAH_GAMES_CAP", "0s")
	out := gamesOut(b, "game\tply\tseeds\twall_s\tcpu_s\tnodes\tfrom_cache\tsolved\tposition\tto_move")
	r, err := engine.NewVariant(envInt(b, "KALAH_GAMES_PITS", 6), rule)
	if err != nil {
		b.Fatal(err)
	}
	start, err := r.StartPosition(envInt(b, "KALAH_GAMES_SEEDS", 4))
	if err != nil {
		b.Fatal(err)
	}
	s, hs := startServer(b, opts)
	// As 'kalah serve' does at start (KALAH_GAMES_NO_WARM=1 does not).
	if os.Getenv("KALAH_GAMES_NO_WARM") == "" {
		w, err := s.Warm(context.Background(), r.Pits, envInt(b, "KALAH_GAMES_SEEDS", 4), rule)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("warmed in %v: %d-byte table, %d-seed database", w.Took, w.TableSize, w.EGDBSeeds)
	}
	var wall, cpu []float64
	b.ResetTimer()
	for range b.N {
		wall, cpu = wall[:0], cpu[:0]
		capped := 0
		for g := range games {
			rng := rand.New(rand.NewPCG(seed, uint64(g)))
			p := start
			for ply := 0; !p.Board.Over(); ply++ {
				c0, t0 := cpuSeconds(b), time.Now()
				var rep solveReply
				path := fmt.Sprintf("/api/solve?%s&seeds=%d", query(rule, p), envInt(b, "KALAH_GAMES_SEEDS", 4))
				if code := fetchJSON(b, hs, path, &rep); code != 200 {
					b.Fatalf("%s: status %d", path, code)
				}
				w, c := time.Since(t0).Seconds(), cpuSeconds(b)-c0
				wall, cpu = append(wall, w), append(cpu, c)
				if !rep.Solved {
					capped++
				}
				if out != nil {
					fmt.Fprintf(out, "%d\t%d\t%d\t%.3f\t%.3f\t%d\t%v\t%v\t%s\t%s\n", g, ply, p.Board.Seeds(), w, c, rep.Nodes, rep.FromCache, rep.Solved, p, p.ToMove)
					out.Flush()
				}
				moves := p.Board.MoveList()
				p, _ = r.PlayPosition(p, moves[rng.IntN(len(moves))])
				time.Sleep(think)
			}
		}
		slices.Sort(wall)
		slices.Sort(cpu)
		b.ReportMetric(float64(len(wall)), "positions")
		b.ReportMetric(float64(capped), "capped")
		b.ReportMetric(quantile(wall, 0.5), "median-s")
		b.ReportMetric(quantile(wall, 0.99), "p99-s")
		b.ReportMetric(wall[len(wall)-1], "max-s")
		b.ReportMetric(cpu[len(cpu)-1], "max-cpu-s")
	}
}

// gamesOptions are the benchmarks' server options and rule from the
// environment (BenchmarkRandomGames lists the variables): the cache,
// database, threads, table and look-ahead; no request waits in line.
func gamesOptions(b *testing.B, cache string) (Options, engine.Rule) {
	rule, err := engine.ParseRule(get(os.Getenv("KALAH_GAMES_RULE"), "no-empty-capture"))
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{CacheDir: cache, EGDBDir: os.Getenv("KALAH_GAMES_EGDB"), Threads: envInt(b, "KALAH_GAMES_THREADS", 0),
		TableSize: int64(envInt(b, "KALAH_GAMES_TT_MIB", 0)) << 20, MaxQueue: -1,
		NoPonder: os.Getenv("KALAH_GAMES_NO_PONDER") != ""}
	opts.NoEGDB = opts.EGDBDir == ""
	return opts, rule
}

// envInt is the whole number in $name, def when it is unset.
func envInt(b *testing.B, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	return n
}

// envDuration is the duration in $name, def when it is unset.
func envDuration(b *testing.B, name, def string) time.Duration {
	d, err := time.ParseDuration(get(os.Getenv(name), def))
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	return d
}

// gamesOut opens the file $KALAH_GAMES_OUT names, with the header line,
// flushed and closed when the benchmark ends; nil when it names none.
func gamesOut(b *testing.B, header string) *bufio.Writer {
	path := os.Getenv("KALAH_GAMES_OUT")
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	out := bufio.NewWriter(f)
	b.Cleanup(func() {
		out.Flush()
		f.Close()
	})
	fmt.Fprintln(out, header)
	return out
}

// quantile is the q-quantile of sorted xs (the nearest rank).
func quantile(xs []float64, q float64) float64 {
	i := int(q*float64(len(xs))+0.5) - 1
	return xs[max(0, min(i, len(xs)-1))]
}

// cpuSeconds is the process's CPU time so far, user and system.
func cpuSeconds(tb testing.TB) float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()).Seconds()
}

// BenchmarkLookAhead measures the look-ahead at a person's pace on the
// slow positions of an earlier BenchmarkRandomGames run: for every
// position of $KALAH_GAMES_FROM (a KALAH_GAMES_OUT file) whose answer took
// longer than $KALAH_GAMES_SLOWER (default 1s), it asks the server for the
// position before it in its game, waits $KALAH_GAMES_THINK (default 2s,
// the server looking ahead meanwhile unless KALAH_GAMES_NO_PONDER is set),
// then asks for the slow position and times that answer. It reports the
// median and largest of those answers and how many took over a second.
// KALAH_GAMES_CACHE, _EGDB, _RULE, _SEEDS, _THREADS, _TT_MIB and _OUT are
// as for BenchmarkRandomGames; run it on a copy of the cache of that run's
// start (the slow positions must not be in it already).
func BenchmarkLookAhead(b *testing.B) {
	from, cache := os.Getenv("KALAH_GAMES_FROM"), os.Getenv("KALAH_GAMES_CACHE")
	if from == "" || cache == "" {
		b.Skip("set KALAH_GAMES_FROM (a games file of BenchmarkRandomGames) and KALAH_GAMES_CACHE; see serve/measure.sh")
	}
	think, slower := envDuration(b, "KALAH_GAMES_THINK", "2s"), envDuration(b, "KALAH_GAMES_SLOWER", "1s")
	opts, rule := gamesOptions(b, cache)
	seeds := envInt(b, "KALAH_GAMES_SEEDS", 4)
	pairs := slowPairs(b, from, slower)
	if len(pairs) == 0 {
		b.Skipf("no position of %s took over %v", from, slower)
	}
	s, hs := startServer(b, opts)
	if _, err := s.Warm(context.Background(), 6, seeds, rule); err != nil {
		b.Fatal(err)
	}
	out := gamesOut(b, "game\tply\tbefore_s\twall_s\tnodes\tfrom_cache\tposition\tto_move")
	ask := func(p [2]string) (float64, solveReply) {
		var rep solveReply
		t0 := time.Now()
		path := fmt.Sprintf("/api/solve?rule=%s&position=%s&to_move=%s", rule, p[0], p[1])
		if code := fetchJSON(b, hs, path, &rep); code != 200 || !rep.Solved {
			b.Fatalf("%s: status %d, solved %v", path, code, rep.Solved)
		}
		return time.Since(t0).Seconds(), rep
	}
	b.ResetTimer()
	for range b.N {
		var wall []float64
		over := 0
		for _, pr := range pairs {
			ask(pr.parent)
			time.Sleep(think)
			w, rep := ask(pr.slow)
			wall = append(wall, w)
			if w > 1 {
				over++
			}
			if out != nil {
				fmt.Fprintf(out, "%s\t%s\t%s\t%.3f\t%d\t%v\t%s\t%s\n", pr.game, pr.ply, pr.before, w, rep.Nodes, rep.FromCache, pr.slow[0], pr.slow[1])
				out.Flush()
			}
		}
		slices.Sort(wall)
		b.ReportMetric(float64(len(wall)), "positions")
		b.ReportMetric(quantile(wall, 0.5), "median-s")
		b.ReportMetric(wall[len(wall)-1], "max-s")
		b.ReportMetric(float64(over), "over-1s")
	}
}

// slowPair is a slow position of a games file and the one before it.
type slowPair struct {
	game, ply, before string    // where it was, and its answer's time then
	parent, slow      [2]string // position and side to move
}

// slowPairs reads a KALAH_GAMES_OUT file and returns its positions that
// took longer than slower, each with the position before it in its game.
func slowPairs(b *testing.B, path string, slower time.Duration) []slowPair {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var pairs []slowPair
	var prev []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		row := strings.Split(sc.Text(), "\t")
		if len(row) != 10 || row[0] == "game" {
			prev = nil
			continue
		}
		w, err := strconv.ParseFloat(row[3], 64)
		if err != nil {
			b.Fatalf("%s: %q: %v", path, sc.Text(), err)
		}
		if prev != nil && prev[0] == row[0] && w > slower.Seconds() {
			pairs = append(pairs, slowPair{game: row[0], ply: row[1], before: row[3],
				parent: [2]string{prev[8], prev[9]}, slow: [2]string{row[8], row[9]}})
		}
		prev = row
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	return pairs
}
