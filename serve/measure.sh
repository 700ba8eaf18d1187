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
# depth of a book built into the cache, 1 (0: none, a fresh cache, only
# the built-in book answers); CAP a solve's time limit (Go duration,
# default none). MAX_SEEDS=20 PLIES=0 is a fresh install: the default
# database and the built-in book.
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
if [ "$plies" -gt 0 ]; then
	echo "== book: $work/cache-$rule (Kalah(6,4) within $plies plies)"
	"$work/kalah" book build --pits 6 --seeds 4 --rule "$rule" --plies "$plies" --egdb "$work/egdb-$rule" --cache "$work/cache-$rule" -q $tflag
else
	echo "== a fresh cache: $work/cache-$rule"
	rm -rf "$work/cache-$rule"
fi
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
# byply: the answer times by ply (median, 99th percentile, largest; the
# nearest rank) and the answers a CAP stopped.
byply() {
	awk -F'\t' 'NR > 1 {
		g = $2 <= 12 ? $2 : $2 <= 16 ? 13 : $2 <= 20 ? 14 : $2 <= 30 ? 15 : 16
		print g "\t" $4 "\t" ($8 != "true")
	}' "$1" | sort -k1,1n -k2,2g | awk -F'\t' '
	function row() {
		if (!m) return
		r50 = int(0.5 * m + 0.5); r99 = int(0.99 * m + 0.5)
		printf "%-6s %9d %9.4f %9.4f %9.4f %7d\n", name[g], m, v[r50 < 1 ? 1 : r50], v[r99 < 1 ? 1 : r99], v[m], capped
	}
	BEGIN {
		for (i = 0; i <= 12; i++) name[i] = i
		g = -1
		name[13] = "13-16"; name[14] = "17-20"; name[15] = "21-30"; name[16] = "31-"
		printf "%-6s %9s %9s %9s %9s %7s\n", "ply", "positions", "median s", "p99 s", "max s", "capped"
	}
	$1 != g { row(); g = $1; m = 0; capped = 0 }
	{ v[++m] = $2; capped += $3 }
	END { row() }'
}
byply "$work/games-$rule.tsv"
