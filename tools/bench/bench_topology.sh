#!/usr/bin/env bash
# bench_topology.sh -- KEP-5732 placement cost (issue 28): RACKS GB200 NVL72
# racks (18 trays x 4 GPUs) and GANGS gangs of 18 trays (a whole rack, 72 GPUs)
# held to one rack, arriving every 10 minutes and running 10 hours, so later
# gangs evaluate every rack while most are full. Prints the run's wall and CPU
# time, its placement cycles and the time per gang (the whole run's CPU time
# over the gangs: an upper bound on the placement's own cost). Goal: < 10 ms
# per gang on 100 racks.
#   tools/bench/bench_topology.sh [RACKS [GANGS]]      BUILD=dir picks the build
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
RACKS=${1:-100}
GANGS=${2:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  cat <<YAML
apiVersion: drasim/v1
kind: Scenario
metadata: {name: bench-topology}
seed: 1
stop: {time: 48h}
output: {sampleInterval: 10m}
cluster:
  kubernetesVersion: "1.37"
  nodePools:
  - {name: gb, cpu: "144", memory: 900Gi, gpu: {model: GB200, count: 4}, topology: {racks: $RACKS, nodesPerRack: 18}}
scheduling: {mode: device-plugin, scoring: MostAllocated}
workload:
  podGroups:
YAML
  for ((g = 0; g < GANGS; g++)); do
    t=$((g * 10))
    times=$(printf "${t}m, %.0s" $(seq 18)); times=${times%, }
    echo "  - {name: g$g, count: 18, arrival: {times: [$times]}, duration: 10h, gang: {minCount: 18, topology: {level: cloud.provider.com/topology-rack}}, requests: {cpu: \"136\"}, gpu: {devicePlugin: {nvidia.com/gpu: 4}}}"
  done
} > "$work/s.yaml"
start=$(date +%s.%N)
/usr/bin/time -f "%U %S %M" -o "$work/time" "$BUILD/drasim" run "$work/s.yaml" -q -o "$work/r.db"
end=$(date +%s.%N)
read -r user sys rss < "$work/time"
cycles=$(sqlite3 "$work/r.db" "SELECT value FROM summary WHERE grp = '' AND metric = 'topology_placement_cycles'")
binds=$(sqlite3 "$work/r.db" "SELECT value FROM summary WHERE grp = '' AND metric = 'topology_trial_binds'")
started=$(sqlite3 "$work/r.db" "SELECT value FROM summary WHERE grp = '' AND metric = 'gangs_started'")
awk -v w="$(echo "$end - $start" | bc)" -v u="$user" -v s="$sys" -v m="$rss" -v c="$cycles" -v b="$binds" -v g="$GANGS" -v st="$started" -v r="$RACKS" 'BEGIN {
  cpu = u + s
  printf "bench_topology: %d racks, %d gangs (%d started): wall %.2f s, CPU %.2f s, peak %.0f MB; %d placement cycles, %d tentative binds; %.2f ms CPU per gang, %.3f ms per cycle; goal < 10 ms per gang: %s\n",
    r, g, st, w, cpu, m / 1024, c, b, 1000 * cpu / g, 1000 * cpu / (c ? c : 1), (1000 * cpu / g < 10) ? "met" : "NOT met" }'
