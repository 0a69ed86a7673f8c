#!/bin/sh
# bench_groups.sh [BUILD] -- issue 26: what the per-group results cost a
# 1,000,000-pod run (scenarios/examples/bench-10k-nodes.yaml, device plugin,
# 10,000 nodes x 8 GPUs): the share of CPU samples (perf, 999 Hz) in the
# per-group code path (engine/sim_groups.c: add_pod, add_waits,
# sim_group_summary, and the qsort comparator cmp_i64, which the whole-run
# summary's sort shares, so the figure is an upper bound; report/run_groups.c:
# the closing per-group table), median of 3 runs. Goal < 5 %.
# Needs perf; prints a note and exits 0 without it.
build=${1:-build}
command -v perf >/dev/null || { echo "bench_groups: perf is not installed: skipped"; exit 0; }
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
for i in 1 2 3; do
  perf record -q -F 999 -o "$work/perf.$i" "$build/drasim" run "$src/scenarios/examples/bench-10k-nodes.yaml" \
    -o "$work/b.db" --force -q >/dev/null 2>&1 || { echo "bench_groups: the run failed"; exit 1; }
  perf report -i "$work/perf.$i" --no-children --sort symbol --stdio 2>/dev/null |
    awk '/\[\.\] (add_pod|add_waits|sim_group_summary|cmp_i64|group_table|group_columns|run_groups_print)/ {
           sub(/%/, "", $1); s += $1 } END { printf "%.2f\n", s }'
done | sort -n | awk '{ v[NR] = $1 } END { printf "per-group code path: %s %% of CPU samples (median of 3: %s, %s, %s; goal < 5 %%)\n", v[2], v[1], v[2], v[3] }'
