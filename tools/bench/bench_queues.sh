#!/bin/sh
# bench_queues.sh -- what Kueue in front of the scheduler (issue 27,
# sim/queue/kq_gate.c) adds to a large run: NODES nodes x 8 H100 (device
# plugin), PODS pods in 100 pod groups (1/2/4/8 GPUs in the fleet benchmark's
# shares 50/25/15/10 %, Poisson arrivals at ~80 % offered GPU load,
# log-normal run times median 1 h, sigma 0.5), each group in its own
# namespace and LocalQueue of one of 100 ClusterQueues in 10 cohorts (nominal
# GPU quota in proportion to the group's demand, summing to the fleet;
# borrowing within the cohort, reclaimWithinCohort: Any). The same scenario
# without `queues:` is the baseline. Goal: at most +30 % CPU.
#
#   tools/bench/bench_queues.sh [NODES [PODS [REPEAT]]]   default 10000 1000000 3
#
# Prints each run's CPU time (user + sys of `drasim run -o DB`, SQLite
# results included: the machine is shared, wall time is noise) and the
# medians. BUILD=dir picks the build.
set -eu
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
NODES=${1:-10000} PODS=${2:-1000000} REPEAT=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen() {   # gen WITH_QUEUES > FILE
  awk -v nodes="$NODES" -v pods="$PODS" -v queues="$1" 'BEGIN {
    ng = 100
    # groups 0-49: 1 GPU, 50-74: 2, 75-89: 4, 90-99: 8 (shares 50/25/15/10 %)
    for (i = 0; i < ng; i++) g[i] = i < 50 ? 1 : i < 75 ? 2 : i < 90 ? 4 : 8
    mean_gpus = 0; for (i = 0; i < ng; i++) mean_gpus += g[i] / ng
    rate = 0.80 * nodes * 8 / (mean_gpus * 1.15) / ng        # per group, per hour
    printf "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: bench-queues}\nseed: 42\n"
    printf "stop: {allPodsDone: true}\noutput: {sampleInterval: 5m}\n"
    printf "cluster:\n  nodePools:\n  - {name: gpu, count: %d, cpu: \"128\", memory: 1Ti, gpu: {model: H100-80GB, count: 8}}\n", nodes
    printf "scheduling:\n  mode: device-plugin\nworkload:\n  podGroups:\n"
    for (i = 0; i < ng; i++) {
      printf "  - name: g%02d\n    count: %d\n    namespace: ns-%02d\n", i, pods / ng, i
      if (queues) printf "    labels: {kueue.x-k8s.io/queue-name: lq}\n"
      printf "    arrival: {poisson: {ratePerHour: %.4f}}\n", rate
      printf "    duration: {lognormal: {median: 1h, sigma: 0.5}}\n"
      printf "    requests: {cpu: \"%d\", memory: %dGi}\n    gpu: {devicePlugin: {nvidia.com/gpu: %d}}\n", 12 * g[i], 96 * g[i], g[i]
    }
    if (!queues) exit
    printf "queues:\n  manager: kueue\n  objects:\n"
    printf "  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: ResourceFlavor, metadata: {name: h100}}\n"
    for (c = 0; c < 10; c++) printf "  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: Cohort, metadata: {name: co-%d}}\n", c
    for (i = 0; i < ng; i++) {
      q = int(nodes * 8 * g[i] / (mean_gpus * ng))   # GPU quota in proportion to demand
      printf "  - apiVersion: kueue.x-k8s.io/v1beta2\n    kind: ClusterQueue\n    metadata: {name: cq-%02d}\n    spec:\n", i
      printf "      cohortName: co-%d\n      preemption: {reclaimWithinCohort: Any}\n", i % 10
      printf "      resourceGroups:\n      - coveredResources: [cpu, memory, nvidia.com/gpu]\n        flavors:\n"
      printf "        - name: h100\n          resources:\n"
      printf "          - {name: cpu, nominalQuota: %d}\n          - {name: memory, nominalQuota: %dGi}\n", 16 * q, 128 * q
      printf "          - {name: nvidia.com/gpu, nominalQuota: %d}\n", q
      printf "  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, metadata: {name: lq, namespace: ns-%02d}, spec: {clusterQueue: cq-%02d}}\n", i, i
    }
  }'
}
gen 0 > "$tmp/plain.yaml"
gen 1 > "$tmp/queues.yaml"
cpu() {   # cpu FILE: CPU seconds of one run (its results database included)
  rm -f "$tmp/r.db"
  /usr/bin/time -o "$tmp/time" -f "%U %S %M" "$BUILD/drasim" run "$1" -q -o "$tmp/r.db" > "$tmp/out" 2>&1 ||
    { cat "$tmp/out" >&2; exit 1; }
  awk '{ printf "%.2f %.0f", $1 + $2, $3 / 1024 }' "$tmp/time"
}
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
plain="" queued="" rss_p="" rss_q=""
for i in $(seq "$REPEAT"); do   # interleaved: both see the same neighbours
  set -- $(cpu "$tmp/plain.yaml"); plain="$plain $1"; rss_p=$2
  set -- $(cpu "$tmp/queues.yaml"); queued="$queued $1"; rss_q=$2
done
mp=$(median $plain) mq=$(median $queued)
echo "bench_queues: $NODES nodes, $PODS pods, 100 ClusterQueues: CPU s without queues:$plain, with:$queued;" \
     "median $mp -> $mq s ($(awk -v a="$mp" -v b="$mq" 'BEGIN { printf "%+.1f", 100 * (b / a - 1) }') %, goal at most +30 %);" \
     "peak RSS $rss_p -> $rss_q MB; load $(cut -d' ' -f1 /proc/loadavg)"
