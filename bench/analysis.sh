#!/bin/sh
# analysis.sh: the game-analysis measurement (docs/benchmarks.md, "Game
# analysis"). It builds kalah and writes the games with
# bench/analysisgames.go (random games, or games between the play levels
# solved with the database EGDB), then analyses them all in one
# 'kalah analyze --json' process on the database EGDB with a fresh cache,
# and prints the load before and after and the metrics of a bench.Record.
# The games and the analyses are kept under WORK.
#
#	bench/analysis.sh EGDB RULE random|levels GAMES SEED
#
# EGDB is a database directory ('kalah egdb path'); for levels games it
# also solves the games' every move. WORK (default /tmp/kalah-analysis)
# and THREADS (default all cores) come from the environment.
set -eu
[ $# -eq 5 ] || { echo "usage: bench/analysis.sh EGDB RULE random|levels GAMES SEED" >&2; exit 2; }
egdb=$1 rule=$2 kind=$3 games=$4 seed=$5
work=${WORK:-/tmp/kalah-analysis}
threads=${THREADS:-0}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
cd "$root"
go build -o "$work/kalah" ./cmd/kalah
go build -o "$work/analysisgames" bench/analysisgames.go
file="$work/$kind-$rule-$games-$seed.txt"
if [ ! -s "$file" ]; then
	echo "== writing $file" >&2
	if [ "$kind" = levels ]; then
		"$work/analysisgames" levels "$rule" "$games" "$seed" "$egdb" > "$file.tmp"
	else
		"$work/analysisgames" "$kind" "$rule" "$games" "$seed" > "$file.tmp"
	fi
	mv "$file.tmp" "$file"
fi
out="$work/$kind-$rule-$games-$seed$(echo "$egdb" | tr / _).jsonl"
rm -rf "$work/cache"
tflag=
[ "$threads" -gt 0 ] && tflag="--threads $threads"
echo "load before: $(uptime)"
"$work/kalah" analyze --json --quiet --egdb-target 0 --egdb "$egdb" --cache "$work/cache" $tflag "$file" > "$out"
echo "load after: $(uptime)"
rm -rf "$work/cache"
"$work/analysisgames" summary < "$out"
