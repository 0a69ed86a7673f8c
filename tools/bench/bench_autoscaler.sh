#!/usr/bin/env bash
# bench_autoscaler.sh -- the cluster autoscaler's cost (issue 16): the
# 10,000-node, 1,000,000-pod device-plugin benchmark on a fixed fleet
# (scenarios/examples/bench-10k-nodes.yaml) and as a node group of 0 to
# 10,000 nodes (tools/bench/bench-10k-autoscaled.yaml). Median CPU time
# (user + system: the machine may be shared) and wall time of RUNS runs each
# (default 3) and the ratio; goal: at most 2x.
#   BUILD=build tools/bench/bench_autoscaler.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
RUNS=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

time_run() {   # scenario -> "cpu wall" seconds of one `drasim run`
  /usr/bin/time -f "%U %S %e" -o "$tmp/time" "$BUILD/drasim" run "$1" -o "$tmp/out.db" --force -q >/dev/null
  awk '{printf "%.3f %.3f\n", $1 + $2, $3}' "$tmp/time"
}

for s in scenarios/examples/bench-10k-nodes.yaml tools/bench/bench-10k-autoscaled.yaml; do
  b=$(basename "$s" .yaml)
  for _ in $(seq "$RUNS"); do time_run "$s"; done > "$tmp/$b.runs"
  cut -d' ' -f1 "$tmp/$b.runs" | median > "$tmp/$b.cpu"
  cut -d' ' -f2 "$tmp/$b.runs" | median > "$tmp/$b.wall"
done
fixed=$(cat "$tmp/bench-10k-nodes.cpu")
ca=$(cat "$tmp/bench-10k-autoscaled.cpu")
"$BUILD/drasim" run tools/bench/bench-10k-autoscaled.yaml -o "$tmp/ca.db" --force -q >/dev/null
sqlite3 "$tmp/ca.db" "SELECT 'autoscaled run: ' || group_concat(metric || ' ' || printf('%.6g', value), ', ') FROM summary
  WHERE grp = '' AND metric IN ('pods_scheduled', 'wait_mean_s', 'ca_scale_ups', 'ca_nodes_added', 'ca_nodes_removed', 'ca_node_hours', 'ca_scans')"
printf 'CPU time: fixed fleet %.2f s, autoscaled %.2f s (median of %d): %.2fx (goal <= 2x); wall: %.2f s, %.2f s\n' \
  "$fixed" "$ca" "$RUNS" "$(echo "$ca / $fixed" | bc -l)" "$(cat "$tmp/bench-10k-nodes.wall")" "$(cat "$tmp/bench-10k-autoscaled.wall")"
