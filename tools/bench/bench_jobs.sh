#!/bin/sh
# bench_jobs.sh -- workload.jobs at scale (issue 29): a month of a 10,000-GPU
# cluster (1,250 nodes x 8 GPUs) at a Helios-like job mix (gen_helios_month:
# 600,000 rows, about 47 % GPU jobs) replayed through the job-trace reader
# (format helios, mode submit), device-plugin and DRA mode; CPU time
# (user+sys) and peak RSS, median of 3. Goals: device plugin < 10 s and
# < 1 GB; DRA within 3x of it.
#   tools/bench/bench_jobs.sh [BUILD_DIR [JOBS [RUNS]]]
set -eu
build=${1:-${BUILD:-build}}
jobs=${2:-600000}
runs=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/tools/bench/gen_helios_month" "$jobs" 30 1 > "$work/cluster_log.csv"
cat > "$work/month.yaml" <<YAML
apiVersion: drasim/v1
kind: Scenario
metadata: {name: helios-month-bench}
seed: 1
stop: {time: 40d}
output: {sampleInterval: 1h}
cluster:
  nodePools:
  - {name: gpu, count: 1250, cpu: "128", memory: 1Ti, gpu: {model: A100-80GB, count: 8}}
scheduling: {mode: device-plugin}
workload:
  jobs:
  - {file: cluster_log.csv, format: helios}
YAML
echo "bench_jobs: $jobs rows, $(wc -c < "$work/cluster_log.csv") bytes; load: $(uptime | sed 's/.*load/load/')"
for mode in device-plugin dra; do
  for i in $(seq "$runs"); do
    /usr/bin/time -f '%U %S %M' -o "$work/t" "$build/drasim" run "$work/month.yaml" -q --set "scheduling.mode=$mode" \
      -o "$work/$mode-$i.db" > "$work/out" 2>&1 || { cat "$work/out"; exit 1; }
    awk '{ printf "%.2f %d\n", $1 + $2, $3 }' "$work/t"
    rm -f "$work/$mode-$i.db"
  done | sort -n | awk -v m="$mode" '{ c[NR] = $1; r[NR] = $2 } END { k = int((NR + 1) / 2);
    printf "%s: CPU median %.2f s (min %.2f, max %.2f), peak RSS %.0f MB\n", m, c[k], c[1], c[NR], r[k] / 1024 }'
done
