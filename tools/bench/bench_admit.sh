#!/bin/sh
# bench_admit.sh -- `drasim admit` on a 1,000-ClusterQueue snapshot (issue 27,
# goal < 50 ms): 10 cohorts x 100 ClusterQueues, 2 GPU flavors with cpu and
# nvidia.com/gpu quotas and borrowing limits, 1 admitted Workload per
# ClusterQueue (1,000), the asked Workload in the last queue, which has to
# preempt. Prints the median CPU time of 5 runs (ms). BUILD=dir picks the build.
set -eu
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk 'BEGIN {
  for (f = 0; f < 2; f++) printf "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: gpu-%d}\n---\n", f
  for (c = 0; c < 10; c++) printf "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: co-%d}\nspec: {parentName: root}\n---\n", c
  printf "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: root}\n---\n"
  for (q = 0; q < 1000; q++) {
    printf "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq-%d}\nspec:\n  cohortName: co-%d\n", q, q % 10
    printf "  preemption: {withinClusterQueue: LowerPriority, reclaimWithinCohort: Any}\n"
    printf "  resourceGroups:\n  - coveredResources: [cpu, nvidia.com/gpu]\n    flavors:\n"
    for (f = 0; f < 2; f++)
      printf "    - name: gpu-%d\n      resources: [{name: cpu, nominalQuota: 64}, {name: nvidia.com/gpu, nominalQuota: 8, borrowingLimit: 8}]\n", f
    printf "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq, namespace: ns-%d}\nspec: {clusterQueue: cq-%d}\n---\n", q, q
    for (w = 0; w < 1; w++) {
      printf "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: w-%d-%d, namespace: ns-%d}\n", q, w, q
      printf "spec:\n  priority: %d\n  queueName: lq\n  podSets:\n  - name: main\n    count: 1\n", w
      printf "    template: {spec: {containers: [{name: c, resources: {requests: {cpu: 8, nvidia.com/gpu: %d}}}]}}\n", (q % 3) + 2
      printf "status:\n  admission:\n    clusterQueue: cq-%d\n    podSetAssignments: [{name: main, flavors: {cpu: gpu-%d, nvidia.com/gpu: gpu-%d}, count: 1}]\n---\n", q, w % 2, w % 2
    }
  }
  printf "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: asked, namespace: ns-999}\n"
  printf "spec:\n  priority: 10\n  queueName: lq\n  podSets:\n  - name: main\n    count: 2\n"
  printf "    template: {spec: {containers: [{name: c, resources: {requests: {cpu: 4, nvidia.com/gpu: 8}}}]}}\n"
}' > "$tmp/snap.yaml"
"$BUILD/drasim" admit "$tmp/snap.yaml" || true
# CPU time (user + sys) of each run: the machine is shared, wall time is noise
times=""
for i in 1 2 3 4 5; do
  t=$( { /usr/bin/time -f "%U %S" "$BUILD/drasim" admit "$tmp/snap.yaml" > /dev/null; } 2>&1 | tail -1 |
       awk '{ printf "%d", ($1 + $2) * 1000 }')
  times="$times $t"
done
echo "drasim admit, 1,000 ClusterQueues, 1,000 admitted Workloads: CPU ms per run:$times; median $(printf '%s\n' $times | sort -n | sed -n 3p) ms (goal < 50 ms)"
