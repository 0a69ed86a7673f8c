#!/usr/bin/env bash
# bench_plan_confidence.sh -- README's "Size a fleet": `drasim plan` plain
# (max rules, 2 seeds) against `--confidence 0.95` (median rules, 2..32 seeds),
# wall and CPU time (children included), median of N (default 5).
# Goals (issue 26): plain CPU < 1 s; --confidence within 10x of plain.
# With a second build directory, its plain plan is measured side by side
# (a build of main: a new feature must not slow the plain plan).
#   tools/bench/bench_plan_confidence.sh [BUILD [BASE_BUILD]]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-${BUILD:-build}}
BASE=${2:-}
N=${N:-5}
fleet=(scenarios/examples/h100-fleet.yaml --vary h100-train=1..12 --vary h100-mig=1..8 -j 2 -q)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
measure() {   # BIN ARGS...: prints "wall cpu" of one run
  local bin=$1 t0 t1 cpu
  shift
  t0=$(date +%s.%N)
  cpu=$( { /usr/bin/time -f "%U %S" "$bin" plan "${fleet[@]}" "$@" >/dev/null; } 2>&1 | tail -1 | awk '{print $1 + $2}')
  t1=$(date +%s.%N)
  echo "$(echo "$t1 - $t0" | bc) $cpu"
}
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
run() {   # NAME BIN ARGS...: N runs, interleaved by the caller's loop
  local name=$1
  shift
  measure "$@" >> "$tmp/$name"
}
modes=(plain confidence)
[ -n "$BASE" ] && modes+=(base)
for i in $(seq "$N"); do   # interleaved, so that the machine's load hits every mode alike
  run plain "$BUILD/drasim" --expect scenarios/examples/h100-fleet-slo.yaml
  run confidence "$BUILD/drasim" --expect scenarios/examples/h100-fleet-slo-p50.yaml --confidence 0.95
  [ -n "$BASE" ] && run base "$BASE/drasim" --expect scenarios/examples/h100-fleet-slo.yaml
done
for m in "${modes[@]}"; do
  wall=$(cut -d' ' -f1 "$tmp/$m" | median)
  cpu=$(cut -d' ' -f2 "$tmp/$m" | median)
  label=$m
  [ "$m" = base ] && label="base ($BASE)"
  echo "$label: wall ${wall} s, cpu ${cpu} s (median of $N)"
  eval "cpu_$m=$cpu"
done
ratio=$(echo "scale=2; $cpu_confidence / $cpu_plain" | bc)
echo "confidence / plain CPU: ${ratio}x (goal <= 10x); plain CPU ${cpu_plain} s (goal < 1 s)"
[ -n "$BASE" ] && echo "plain / base CPU: $(echo "scale=2; $cpu_plain / $cpu_base" | bc)x"
if [ "$(echo "$ratio > 10 || $cpu_plain >= 1" | bc)" = 1 ]; then echo "GOAL MISSED"; exit 1; fi
