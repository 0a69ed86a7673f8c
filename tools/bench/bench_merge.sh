#!/usr/bin/env bash
# bench_merge.sh [COUNT]: `drasim merge` of COUNT (default 1,000) run databases
# of the OpenB scenario (scenarios/openb/default.yaml, one seed each: seeds
# 1..COUNT), generated first in a temporary directory (2 runs at a time; a few
# minutes); prints the median wall time of 3 merges (goal: < 30 s for 1,000)
# and the merged database's runs and size. BUILD=dir picks another build
# directory; KEEP=DIR generates into (or reuses) DIR and keeps it.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
COUNT=${1:-1000}
drasim=$PWD/$BUILD/drasim
scenario=$PWD/scenarios/openb/default.yaml
if [ -n "${KEEP:-}" ]; then dir=$KEEP; mkdir -p "$dir"; else dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT; fi
cd "$dir"
t0=$(date +%s.%N)
seq 1 "$COUNT" | xargs -P 2 -I{} sh -c '[ -s run{}.db ] || "$0" run "$1" --seed {} -q -o run{}.db 2>>gen.log' "$drasim" "$scenario"
t1=$(date +%s.%N)
echo "generated $COUNT OpenB run databases ($(du -sh --exclude=all.db . | cut -f1)) in $(echo "$t1 - $t0" | bc) s"
files=$(seq 1 "$COUNT" | sed 's/.*/run&.db/')
times=()
for i in 1 2 3; do
  rm -f all.db
  s=$(date +%s.%N)
  "$drasim" merge $files -q -o all.db
  e=$(date +%s.%N)
  times+=("$(echo "$e - $s" | bc)")
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
echo "merge of $COUNT databases: ${times[*]} s; median $median s (goal < 30 s)"
echo "merged: $(sqlite3 all.db 'SELECT count(*) FROM runs') runs, $(sqlite3 all.db 'SELECT count(*) FROM pods') pods, $(du -h all.db | cut -f1)"
