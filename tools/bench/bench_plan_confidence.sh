#!/usr/bin/env bash
# bench_plan_confidence.sh -- README's "Size a fleet": `drasim plan` plain
# (max rules, 2 seeds) against `--confidence 0.95` (median rules, 2..32 seeds),
# wall and CPU time (children included), median of 3; goal: confidence <= 10x.
#   tools/bench/bench_plan_confidence.sh [BUILD]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-${BUILD:-build}}
fleet=(scenarios/examples/h100-fleet.yaml --vary h100-train=1..12 --vary h100-mig=1..8 -j 2 -q)
measure() {   # prints "wall cpu" of one run
  local t0 t1
  t0=$(date +%s.%N)
  local cpu
  cpu=$( { /usr/bin/time -f "%U %S" "$BUILD/drasim" plan "${fleet[@]}" "$@" >/dev/null; } 2>&1 | tail -1 | awk '{print $1 + $2}')
  t1=$(date +%s.%N)
  echo "$(echo "$t1 - $t0" | bc) $cpu"
}
median() { sort -n | sed -n 2p; }
for mode in plain confidence; do
  : > /tmp/bench_plan_$$.$mode
  for i in 1 2 3; do
    if [ $mode = plain ]; then measure --expect scenarios/examples/h100-fleet-slo.yaml
    else measure --expect scenarios/examples/h100-fleet-slo-p50.yaml --confidence 0.95; fi >> /tmp/bench_plan_$$.$mode
  done
  wall=$(cut -d' ' -f1 /tmp/bench_plan_$$.$mode | median)
  cpu=$(cut -d' ' -f2 /tmp/bench_plan_$$.$mode | median)
  echo "$mode: wall ${wall} s, cpu ${cpu} s (median of 3)"
  rm -f /tmp/bench_plan_$$.$mode
done
