#!/usr/bin/env bash
# instructions.sh -- the benchmarks as instruction counts, the measure that a
# shared machine's load does not move. Each benchmark runs once, at a tenth of
# its usual size or less, under valgrind's callgrind (no cache simulation), and
# prints the instructions it executed (generation, scheduling and SQLite
# results included). CPU-time medians from tools/bench/run vary by 2x between
# minutes when the machine is loaded; these counts are identical run to run,
# so they are what "nothing slower than before" is checked with.
#
#   tools/bench/instructions.sh [BUILD [BEFORE_BUILD]]
#
# BUILD (default build) is measured; with BEFORE_BUILD (another checkout's
# build directory, e.g. ../old/build) each line also gives the count there and
# the ratio after/before. NAME=regex runs only the benchmarks whose name
# matches. Needs valgrind; takes 5-20 minutes of one core per build.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
BEFORE=${2:-}
ONLY=${NAME:-.}
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind" >&2; exit 2; }

# count BUILD ARGS...: instructions of one run of BUILD/tools/bench/ARGS (env
# assignments before the binary are passed through env)
count() {
    local build=$1; shift
    local log
    log=$(mktemp)
    local envs=() args=()
    while [[ $# -gt 0 && $1 == *=* ]]; do envs+=("$1"); shift; done
    args=("$build/tools/bench/$1"); shift
    env "${envs[@]}" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "${args[@]}" "$@" > /dev/null 2> "$log" || { echo "failed: ${args[*]} $*" >&2; tail -5 "$log" >&2; rm -f "$log"; return 1; }
    # forked runs (fleet.c measures each run in a child) report their own
    # totals: the sum is the benchmark's
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\).*/\1/p' "$log" | awk '{ s += $1 } END { print s }'
    rm -f "$log"
}

# bench NAME ARGS...: print NAME and its count (and the before count and ratio)
bench() {
    local name=$1; shift
    [[ $name =~ $ONLY ]] || return 0
    local after before
    after=$(count "$BUILD" "$@")
    if [[ -n $BEFORE ]]; then
        before=$(count "$BEFORE" "$@")
        awk -v n="$name" -v b="$before" -v a="$after" \
            'BEGIN { printf "%-22s %9.3f G -> %9.3f G  %6.3fx\n", n, b / 1e9, a / 1e9, a / b }'
    else
        awk -v n="$name" -v a="$after" 'BEGIN { printf "%-22s %9.3f G\n", n, a / 1e9 }'
    fi
}

echo "instructions (callgrind), $BUILD${BEFORE:+ against $BEFORE}; one run each"
bench dp                bench_dp 1000 100000 - 1
bench dp_faults         DRASIM_BENCH_FAULTS=0.01 bench_dp 1000 100000 - 1
bench dp_cost           DRASIM_BENCH_COST=1 bench_dp 1000 100000 - 1
bench dp_fgd            bench_dp 1000 100000 fgd 1
bench dra_fleet+dp      bench_dra_fleet 1000 100000 - 1
bench dra_fleet_fgd+dp  bench_dra_fleet 1000 100000 fgd 1
bench usage             bench_usage dp 1000 100000 1
bench preempt           bench_preempt 1000 100000 - 1
bench dra_mig           bench_dra_mig 1000 100000 1 1
bench dra_sched         bench_dra_sched 100
bench alloc             bench_alloc --quick
bench cel               bench_cel 10000
bench lua               DRASIM_DATADIR="$PWD" bench_lua 10000
bench gang              bench_gang 100000 1
