#!/usr/bin/env bash
# bench_topology_fleet.sh -- rack-scale fleet (issue 28): RACKS GB200 NVL72 racks
# (18 trays x 4 GPUs; 1,000 racks = 72,000 GPUs) with rack, block and clique
# labels, so the rack measures, the per-rack usage and the heat map tables are
# on, and JOBS jobs over a week from a Lua generator (one every 7d/JOBS): 10 %
# gangs of 4 to 18 whole trays (all-or-nothing, 10-minute retry), 90 % small
# jobs (60 % one GPU, 40 % CPU-only), lognormal durations (median 2 h).
# Prints CPU time and peak memory, median of RUNS (default 3).
# Goal (issue 28): 1,000 racks, 200,000 jobs: < 60 s CPU, < 4 GB.
#   tools/bench/bench_topology_fleet.sh [RACKS [JOBS [RUNS]]]    BUILD=dir picks the build
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
RACKS=${1:-1000}
JOBS=${2:-200000}
RUNS=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# NO_TOPOLOGY=1: the same nodes without topology labels (the cost of the rack measures)
pool="topology: {racks: $RACKS, nodesPerRack: 18, racksPerBlock: 8}"
[ "${NO_TOPOLOGY:-0}" = 1 ] && pool="count: $((RACKS * 18))"
every=$(awk -v j="$JOBS" 'BEGIN { printf "%dms", 7 * 86400000 / j }')
cat > "$work/fleet.lua" <<'LUA'
local dist = require "drasim.dist"
drasim.every(drasim.args.every, function()
  local u = drasim.random()
  local d = dist.lognormal{median = 7200, sigma = 0.6}
  if u < 0.1 then
    local trays = 4 + math.floor(drasim.random() * 15)
    drasim.submit_gang{size = trays, all_or_nothing = true, timeout = "10m",
                       template = {group = "gang", cpu = "136", memory = "800Gi",
                                   gpu = {devicePlugin = {["nvidia.com/gpu"] = 4}}, duration = d}}
  elseif u < 0.64 then
    drasim.submit{group = "small-gpu", cpu = "16", memory = "128Gi",
                  gpu = {devicePlugin = {["nvidia.com/gpu"] = 1}}, duration = d}
  else
    drasim.submit{group = "cpu-only", cpu = "16", memory = "64Gi", duration = d}
  end
end)
LUA
cat > "$work/s.yaml" <<YAML
apiVersion: drasim/v1
kind: Scenario
metadata: {name: bench-topology-fleet}
seed: 1
stop: {time: 7d}
output: {sampleInterval: 10m}
cluster:
  kubernetesVersion: "1.37"
  nodePools:
  - {name: gb, cpu: "144", memory: 900Gi, gpu: {model: GB200, count: 4}, $pool}
scheduling: {mode: device-plugin}
workload:
  lua: {script: fleet.lua, args: {every: $every}}
YAML
for ((i = 0; i < RUNS; i++)); do
  /usr/bin/time -f "%U %S %M" -o "$work/time.$i" "$BUILD/drasim" run "$work/s.yaml" -q -o "$work/r.db" --force
done
pods=$(sqlite3 "$work/r.db" "SELECT count(*) FROM pods")
started=$(sqlite3 "$work/r.db" "SELECT count(*) FROM pods WHERE scheduled_ms IS NOT NULL")
racks=$(sqlite3 "$work/r.db" "SELECT count(*) FROM topology_racks" 2>/dev/null || echo 0)
cpu=$(cat "$work"/time.* | awk '{ printf "%.2f\n", $1 + $2 }' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
mem=$(cat "$work"/time.* | awk '{ print $3 }' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
awk -v r="$RACKS" -v j="$JOBS" -v p="$pods" -v s="$started" -v k="$racks" -v c="$cpu" -v m="$mem" -v n="$RUNS" 'BEGIN {
  printf "bench_topology_fleet: %d racks (%d GPUs, %d racks measured), %d jobs (%d pods, %d started): CPU %.2f s, peak %.0f MB (median of %d); goal < 60 s, < 4096 MB: %s\n",
    r, 72 * r, k, j, p, s, c, m / 1024, n, (c < 60 && m / 1024 < 4096) ? "met" : "NOT met" }'
