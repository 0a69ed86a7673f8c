#!/bin/sh
# bench_lua_yaml.sh -- a Lua generator against the same pods from YAML
# (issue 31: Lua within 1.3x of YAML in both modes; 1M labelled pods < 20 %
# over unlabelled). NODES nodes x 8 H100, PODS pods in four groups of 1/2/4/8
# GPUs (PODS/4 each), Poisson arrivals at ~80 % offered GPU load, exponential
# run times of mean 1 h, seed 5, in device-plugin and DRA mode:
#   yaml        the scenario's podGroups;
#   lua         tools/bench/bench_lua_yaml.lua submitting the same pods (same
#               groups, counts, rates and distributions) with at= times;
#   lua+labels  the same script with two labels per pod (view pod_labels);
#   template    the same script's form that makes one drasim.template per group
#               and submits each pod as drasim.submit(t, {at=, duration=})
#               (the same pods and results, docs/LUA.md "Templates").
#
#   tools/bench/bench_lua_yaml.sh [NODES [PODS [REPEAT [MODES]]]]   default 1000 100000 3 "dp dra"
#
# Prints the CPU time (user + sys of `drasim run -q -o DB`, SQLite results
# included) and peak RSS of each run, their medians, and the ratios to yaml.
# BUILD=dir picks the build (relative to the source tree). CALLGRIND=1 counts
# instructions under valgrind --tool=callgrind instead (the "CPU s" columns are
# then instructions; REPEAT=1 is enough, the counts do not depend on the load);
# CALLGRIND=PREFIX also keeps each run's profile as PREFIX.MODE-VARIANT.
#
# Last measured (stop 42, docs/LUA.md "Speed"): CPU at 1,000 x 400k (medians of
# per-round ratios), lua / yaml 1.21x device plugin, 1.30x DRA (main e63fe53:
# 1.69x, 1.68x); template 1.14x, 1.10x; callgrind at 1000 100000: lua 1.41x,
# 1.47x, template 1.24x, 1.18x, lua+labels +12 % (dp), +9 % (dra) over lua.
set -eu
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
NODES=${1:-1000} PODS=${2:-100000} REPEAT=${3:-3} MODES=${4:-dp dra}
src=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp tools/bench/bench_lua_yaml.lua "$tmp/gen.lua"
# total arrival rate per hour: 80 % of the GPUs busy with pods of 3.75 GPUs for 1 h on average
rate=$(awk -v n="$NODES" 'BEGIN { printf "%.6f", 0.8 * n * 8 / 3.75 }')
# stop: the arrivals' span (+20 %) and 12 h (a Lua workload needs stop.time)
stop=$(awk -v p="$PODS" -v r="$rate" 'BEGIN { printf "%d", (1.2 * p / r + 12) * 3600 }')
gen() {   # gen MODE VARIANT > FILE
  mode=$1 variant=$2
  printf "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: bench-lua-yaml}\nseed: 5\nstop: {time: %ss}\n" "$stop"
  printf "cluster:\n  nodePools:\n  - {name: g, count: %d, cpu: \"192\", memory: 2Ti, gpu: {model: H100-80GB, count: 8}}\n" "$NODES"
  printf "scheduling: {mode: %s}\nworkload:\n" "$([ "$mode" = dp ] && echo device-plugin || echo dra)"
  if [ "$variant" = yaml ]; then
    printf "  podGroups:\n"
    for g in 1 2 4 8; do
      if [ "$mode" = dp ]; then gpu="{devicePlugin: {nvidia.com/gpu: $g}}"
      else gpu="{dra: {claims: [{name: gpu, spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com, count: $g}}]}}}]}}"
      fi
      awk -v g="$g" -v n="$PODS" -v r="$rate" -v gpu="$gpu" 'BEGIN {
        printf "  - {name: g%d, count: %d, arrival: {poisson: {ratePerHour: %.6f}}, duration: {exponential: {mean: 1h}}, requests: {cpu: \"4\"}, gpu: %s}\n", g, n / 4, r / 4, gpu }'
    done
  else
    printf "  lua: {script: gen.lua, args: {pods: %d, rate: %s, mode: %s, labels: %d, form: %s}, instructionLimit: 10000000000, memoryLimit: 4Gi, timeLimit: 1h}\n" \
      "$PODS" "$rate" "$mode" "$([ "$variant" = lua+labels ] && echo 1 || echo 0)" "$([ "$variant" = template ] && echo template || echo table)"
  fi
}
cpu() {   # cpu FILE: "CPU-seconds RSS-MB" of one run (its results database included)
  rm -f "$tmp/r.db"
  if [ -n "${CALLGRIND:-}" ]; then   # instructions (Ir) instead of seconds, RSS reported as 1
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$src/$BUILD/drasim" run "$1" -q -o "$tmp/r.db" > "$tmp/out" 2>&1 ||
      { cat "$tmp/out" >&2; exit 1; }
    [ "$CALLGRIND" = 1 ] || cp "$tmp/cg.out" "$CALLGRIND.$(basename "$1" .yaml)"
    awk '/^summary:/ { printf "%.0f 1", $2 }' "$tmp/cg.out"
    return
  fi
  /usr/bin/time -o "$tmp/time" -f "%U %S %M" "$src/$BUILD/drasim" run "$1" -q -o "$tmp/r.db" > "$tmp/out" 2>&1 ||
    { cat "$tmp/out" >&2; exit 1; }
  awk '{ printf "%.2f %.0f", $1 + $2, $3 / 1024 }' "$tmp/time"
}
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for mode in $MODES; do
  for v in yaml lua lua+labels template; do gen "$mode" "$v" > "$tmp/$mode-$v.yaml"; done
  t_yaml="" t_lua="" t_lab="" t_tpl="" m_yaml="" m_lua="" m_lab="" m_tpl=""
  for i in $(seq "$REPEAT"); do   # interleaved: all three see the same neighbours
    set -- $(cd "$tmp" && cpu "$tmp/$mode-yaml.yaml"); t_yaml="$t_yaml $1"; m_yaml="$m_yaml $2"
    set -- $(cd "$tmp" && cpu "$tmp/$mode-lua.yaml"); t_lua="$t_lua $1"; m_lua="$m_lua $2"
    set -- $(cd "$tmp" && cpu "$tmp/$mode-lua+labels.yaml"); t_lab="$t_lab $1"; m_lab="$m_lab $2"
    set -- $(cd "$tmp" && cpu "$tmp/$mode-template.yaml"); t_tpl="$t_tpl $1"; m_tpl="$m_tpl $2"
  done
  ty=$(median $t_yaml) tl=$(median $t_lua) tb=$(median $t_lab) tt=$(median $t_tpl)
  my=$(median $m_yaml) ml=$(median $m_lua) mb=$(median $m_lab) mt=$(median $m_tpl)
  echo "bench_lua_yaml $mode: $NODES nodes, $PODS pods; CPU s yaml:$t_yaml lua:$t_lua lua+labels:$t_lab template:$t_tpl"
  awk -v m="$mode" -v ty="$ty" -v tl="$tl" -v tb="$tb" -v tt="$tt" -v my="$my" -v ml="$ml" -v mb="$mb" -v mt="$mt" -v load="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
    printf "bench_lua_yaml %s medians: yaml %.2f s %d MB | lua %.2f s %d MB (%.2fx CPU, %.2fx RSS; goal <= 1.3x) | lua+labels %.2f s %d MB (%+.0f %% CPU, %+.0f %% RSS over lua; goal < 20 %%) | template %.2f s %d MB (%.2fx CPU); load %s\n",
      m, ty, my, tl, ml, tl / ty, ml / my, tb, mb, 100 * (tb / tl - 1), 100 * (mb / ml - 1), tt, mt, tt / ty, load }'
done
