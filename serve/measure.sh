#!/bin/sh
# measure.sh: the explorer's latency measurement (docs/explorer.md, "How
# fast it answers"). It builds the six-pit endgame databases and an opening
# book into a work directory, then runs BenchmarkRandomGames: random games
# from the start of Kalah(6,4), every position's every-move value asked of
# the server through HTTP, one line per position in $WORK/games-RULE.tsv,
# and the median, 99th percentile and largest answer time in the
# benchmark's line. Every step resumes: run it again to go on.
#
#	serve/measure.sh [RULE [GAMES [PLIES [CAP]]]]
#
# RULE no-empty-capture (default) or empty-capture; GAMES 200; PLIES the
# book's depth, 1; CAP a solve's time limit (Go duration, default none).
# WORK (default /tmp/kalah-measure), MAX_SEEDS (the databases' largest
# seed count, 18) and THREADS (default all cores) come from the
# environment, and so do the benchmark's own variables (serve/games_test.go),
# such as KALAH_GAMES_THINK=2s (a pause after each answer, during which the
# server looks ahead) and KALAH_GAMES_NO_PONDER=1.
set -eu
rule=${1:-no-empty-capture}
games=${2:-200}
plies=${3:-1}
cap=${4:-}
work=${WORK:-/tmp/kalah-measure}
maxseeds=${MAX_SEEDS:-18}
threads=${THREADS:-0}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
cd "$root"
go build -o "$work/kalah" ./cmd/kalah
go test -c -o "$work/serve.test" ./serve
tflag=
[ "$threads" -gt 0 ] && tflag="--threads $threads"
echo "== databases: $work/egdb-$rule (up to $maxseeds seeds)"
"$work/kalah" egdb build --pits 6 --rule "$rule" --max-seeds "$maxseeds" --egdb "$work/egdb-$rule" -q $tflag
echo "== book: $work/cache-$rule (Kalah(6,4) within $plies plies)"
"$work/kalah" book build --pits 6 --seeds 4 --rule "$rule" --plies "$plies" --egdb "$work/egdb-$rule" --cache "$work/cache-$rule" -q $tflag
echo "== $games random games (load before: $(uptime))"
cd "$work"
KALAH_GAMES_CACHE="$work/cache-$rule" KALAH_GAMES_EGDB="$work/egdb-$rule" KALAH_GAMES_RULE="$rule" \
	KALAH_GAMES_N="$games" KALAH_GAMES_CAP="$cap" KALAH_GAMES_THREADS="$threads" \
	KALAH_GAMES_OUT="$work/games-$rule.tsv" \
	./serve.test -test.run '^$' -test.bench RandomGames -test.benchtime 1x
echo "== load after: $(uptime)"
summary() {
	awk -F'\t' 'NR > 1 {
		b = $3 >= 40 ? "40-48" : $3 >= 30 ? "30-39" : $3 >= 19 ? "19-29" : "0-18"
		n[b]++; if ($4 > w[b]) w[b] = $4; if ($5 > c[b]) c[b] = $5; if ($4 > 1) slow[b]++; if ($8 != "true") capped[b]++
	} END {
		printf "%-8s %9s %10s %10s %8s %7s\n", "seeds", "positions", "max wall s", "max CPU s", "over 1 s", "capped"
		split("40-48 30-39 19-29 0-18", order, " ")
		for (i = 1; i <= 4; i++) { b = order[i]; if (n[b]) printf "%-8s %9d %10.3f %10.3f %8d %7d\n", b, n[b], w[b], c[b], slow[b], capped[b] }
	}' "$1"
}
summary "$work/games-$rule.tsv"
