#!/usr/bin/env bash
# bench_autoscaler.sh -- the cluster autoscaler's cost (issue 16): the
# 10,000-node, 1,000,000-pod device-plugin benchmark on a fixed fleet
# (scenarios/examples/bench-10k-nodes.yaml) and as a node group of 0 to
# 10,000 nodes (tools/bench/bench-10k-autoscaled.yaml). Median wall time of
# RUNS runs each (default 3) and the ratio; goal: at most 2x.
#   BUILD=build tools/bench/bench_autoscaler.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
RUNS=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

time_run() {   # scenario -> wall seconds of one `drasim run`
  local t0 t1
  t0=$(date +%s.%N)
  "$BUILD/drasim" run "$1" -o "$tmp/out.db" --force -q >/dev/null
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}

for s in scenarios/examples/bench-10k-nodes.yaml tools/bench/bench-10k-autoscaled.yaml; do
  for _ in $(seq "$RUNS"); do time_run "$s"; done | median > "$tmp/$(basename "$s" .yaml).t"
done
fixed=$(cat "$tmp/bench-10k-nodes.t")
ca=$(cat "$tmp/bench-10k-autoscaled.t")
"$BUILD/drasim" run tools/bench/bench-10k-autoscaled.yaml -o "$tmp/ca.db" --force -q >/dev/null
sqlite3 "$tmp/ca.db" "SELECT 'autoscaled run: ' || group_concat(metric || ' ' || printf('%.6g', value), ', ') FROM summary
  WHERE grp = '' AND metric IN ('pods_scheduled', 'wait_mean_s', 'ca_scale_ups', 'ca_nodes_added', 'ca_nodes_removed', 'ca_node_hours', 'ca_scans')"
printf 'fixed fleet: %.2f s, autoscaled: %.2f s (median of %d): %.2fx (goal <= 2x)\n' "$fixed" "$ca" "$RUNS" "$(echo "$ca / $fixed" | bc -l)"
