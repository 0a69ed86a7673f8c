#!/bin/sh
# csv_replay.sh -- a 1,000,000-row CSV job log replayed by lua/examples/csv_replay.lua
# (drasim.csv_rows, one process sleeping to each submit time) with the default
# Lua limits; prints wall time and peak RSS (/usr/bin/time -v). Goal (issue 20):
# within the default limits and under 200 MB.
#   tools/bench/csv_replay.sh BUILD_DIR [ROWS]
set -eu
build=${1:?usage: csv_replay.sh BUILD_DIR [ROWS]}
rows=${2:-1000000}
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# one job every 2 s from 2024-05-01T00:00:00Z; gpus 0..8 (2 + 4 per GPU cores), 10 to 60 minutes (deterministic)
awk -v n="$rows" 'BEGIN {
  print "job,submit,gpus,cpu,seconds"
  for (i = 0; i < n; i++) {
    t = 2 * i; d = int(t / 86400); s = t % 86400
    printf "%07d,2024-%02d-%02dT%02d:%02d:%02dZ,%d,%d,%d\n", i, 5 + int(d / 31), 1 + d % 31, int(s / 3600), int(s % 3600 / 60), s % 60,
           (i * 7) % 9, 2 + 4 * ((i * 7) % 9), 600 + (i * 37) % 3000
  }
}' > "$work/log.csv"
cp "$src/lua/examples/csv_replay.lua" "$work/"
cat > "$work/replay.yaml" <<YAML
apiVersion: drasim/v1
kind: Scenario
metadata: {name: csv-replay-bench}
seed: 1
stop: {time: $((rows * 2 + 86400))s}
output: {sampleInterval: 1h}
cluster:
  nodePools:
  - {name: h100, count: 600, cpu: "192", memory: 2Ti, gpu: {model: H100-80GB, count: 8}}
scheduling: {mode: device-plugin}
workload:
  lua: {script: csv_replay.lua, args: {file: log.csv}}
YAML
echo "csv_replay: $rows rows, $(wc -c < "$work/log.csv") bytes"
/usr/bin/time -v "$build/drasim" run "$work/replay.yaml" -o "$work/replay.db" 2> "$work/time.txt" || { cat "$work/time.txt"; exit 1; }
grep -E "Elapsed|Maximum resident" "$work/time.txt"
