# Tests written to kill mutants of tools/mutate (docs/MUTATION.md): small
# scenarios in tests/mutants/ whose every checked number is computed by hand
# in the scenario's header comment (never taken from drasim's output), with
# fractional values where a truncation would hide. No FILE_ABSENT checks on
# outputs: a mutated build may have left one in the build tree, and the
# mutation tool would then blame every later mutant on that test.
set(_mut_src ${CMAKE_SOURCE_DIR}/tests/mutants)
set(_mut_out ${CMAKE_CURRENT_BINARY_DIR}/mutants)
file(MAKE_DIRECTORY ${_mut_out})

# _mut_metrics(<out-var> <db> <metric> <regex> ...): SQL checks of summary values.
function(_mut_metrics out db)
  set(sql)
  set(args ${ARGN})
  list(LENGTH args n)
  math(EXPR last "${n} - 1")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET args ${i} metric)
    list(GET args ${j} regex)
    list(APPEND sql ${db} "SELECT value FROM summary WHERE grp = '' AND metric = '${metric}'" "${regex}")
  endforeach()
  set(${out} ${sql} PARENT_SCOPE)
endfunction()

# Waits, nearest-rank percentiles, utilization (tests/mutants/waits.yaml).
_mut_metrics(_sql ${_mut_out}/waits.db
  pods_scheduled "^100\\.0$" wait_mean_s "^49\\.5495$" wait_p50_s "^49\\.049$" wait_p99_s "^98\\.098$"
  wait_max_s "^99\\.099$" sim_end_s "^100\\.2$" gpu_alloc_pct "^100\\.0$" gpu_alloc_peak_pct "^100\\.0$"
  cpu_alloc_pct "^12\\.5$")
drasim_cli_test(NAME mutants/waits-percentiles
  COMMAND run ${_mut_src}/waits.yaml -o ${_mut_out}/waits.db
  EXPECT "100 pods arrived, 100 scheduled"
  SQL ${_sql}
      ${_mut_out}/waits.db "SELECT wait_ms FROM pods WHERE pod_id IN (0, 1, 99) ORDER BY pod_id" "^0\n1001\n99099$"
      ${_mut_out}/waits.db "SELECT typeof(value) FROM summary WHERE grp = '' AND metric = 'wait_mean_s'" "^real$"
      ${_mut_out}/waits.db "SELECT gpu_alloc_pct FROM samples WHERE time_ms = 0" "^100\\.0$")

# The same run stopped at an event instant (tests/mutants/waits-stop.yaml).
_mut_metrics(_sql ${_mut_out}/waits-stop.db
  pods_scheduled "^50\\.0$" pods_succeeded "^49\\.0$" pods_running_at_end "^1\\.0$" pods_pending_at_end "^50\\.0$"
  unschedulable "^50\\.0$" wait_mean_s "^24\\.5245$" wait_p50_s "^24\\.024$" sim_end_s "^50\\.1$"
  gpu_alloc_pct "^100\\.0$")
drasim_cli_test(NAME mutants/waits-stop-instant
  COMMAND run ${_mut_src}/waits-stop.yaml -o ${_mut_out}/waits-stop.db
  SQL ${_sql}
      ${_mut_out}/waits-stop.db "SELECT count(*) FROM pods WHERE scheduled_ms = 0" "^1$")

# Back-off doubling and its restart per head pod (tests/mutants/backoff.yaml).
_mut_metrics(_sql ${_mut_out}/backoff.db
  wait_mean_s "^5\\.0$" wait_max_s "^10\\.0$" sim_end_s "^11\\.0$" gpu_alloc_pct "^27\\.27")
drasim_cli_test(NAME mutants/backoff-by-hand
  COMMAND run ${_mut_src}/backoff.yaml -o ${_mut_out}/backoff.db
  SQL ${_sql}
      ${_mut_out}/backoff.db "SELECT group_concat(scheduled_ms, ' ') FROM pods" "^0 5000 10000$"
      ${_mut_out}/backoff.db "SELECT attempts, failed_attempts FROM pod_groups" "^5\\|2$")
_mut_metrics(_sql ${_mut_out}/backoff-stop.db
  pods_pending_at_end "^2\\.0$" unschedulable "^0\\.0$" gpu_alloc_pct "^33\\.33")
drasim_cli_test(NAME mutants/backoff-pending-not-unschedulable
  COMMAND run ${_mut_src}/backoff-stop.yaml -o ${_mut_out}/backoff-stop.db
  SQL ${_sql})

# NoExecute taints and toleration effects (tests/mutants/taints.yaml).
_mut_metrics(_sql ${_mut_out}/taints.db pods_scheduled "^1\\.0$" unschedulable "^2\\.0$")
drasim_cli_test(NAME mutants/noexecute-taint
  COMMAND run ${_mut_src}/taints.yaml -o ${_mut_out}/taints.db
  SQL ${_sql}
      ${_mut_out}/taints.db "SELECT group_concat(name || '=' || state, ' ') FROM pods"
      "^none-0=Pending wrong-effect-0=Pending ok-0=Succeeded$"
      ${_mut_out}/taints.db "SELECT count(*) FROM pods WHERE reason LIKE '%untolerated taint {k: v}%'" "^2$")

# Random tie-breaking spreads equal pods over equal nodes (tests/mutants/ties.yaml).
drasim_cli_test(NAME mutants/ties-spread
  COMMAND run ${_mut_src}/ties.yaml -o ${_mut_out}/ties.db
  SQL ${_mut_out}/ties.db "SELECT count(DISTINCT node_id) FROM pods" "^4$")

# Pod capacity: default 110 and an explicit maxPods (tests/mutants/maxpods.yaml).
drasim_cli_test(NAME mutants/max-pods
  COMMAND run ${_mut_src}/maxpods.yaml -o ${_mut_out}/maxpods.db
  SQL ${_mut_out}/maxpods.db "SELECT max_pods FROM nodes ORDER BY node_id" "^110\n2$"
      ${_mut_out}/maxpods.db
      "SELECT g.name, count(*) FROM pods p JOIN pod_groups g USING(run_id, group_id) WHERE p.wait_ms = 0 GROUP BY g.name ORDER BY g.name"
      "^d\\|110\nm\\|2$")

# CEL cost limit (cel-go CostTracker: cancelled when the cost is > the limit,
# so exactly 1,000,000 passes). Costs: lists.range(n) = n/10 + 1,
# .map(x, x) over n elements = 4n + 1, size() = 1, + = 1: 4.1 * 243900 + 0.1 * 40 + 6.
drasim_cli_test(NAME mutants/cel-cost-at-limit
  COMMAND cel eval --cost "lists.range(243900).map(x, x).size() + lists.range(40).size()"
  EXPECT "243940" "cost: 1000000")
drasim_cli_test(NAME mutants/cel-cost-over-limit
  COMMAND cel eval --cost "lists.range(243900).map(x, x).size() + lists.range(50).size()"
  EXIT 1
  EXPECT "cost limit exceeded" "cost: 1000001")

# The Lua instruction budget is per callback (tests/mutants/lua-budget.lua).
drasim_cli_test(NAME mutants/lua-budget-per-callback
  COMMAND run ${_mut_src}/lua-budget.yaml -o ${_mut_out}/lua-budget.db
  EXPECT "10 pods arrived, 10 scheduled"
  REJECT "instruction limit"
  SQL ${_mut_out}/lua-budget.db "SELECT group_concat(arrival_ms, ' ') FROM pods"
      "^0 1000 2000 3000 4000 5000 6000 7000 8000 9000$")

# MIG and time-sliced GPU units, their GPU equivalents and the sample columns
# (tests/mutants/gpu-units.yaml).
_mut_metrics(_sql ${_mut_out}/gpu-units.db
  gpu_total "^4\\.0$" gpu_alloc_pct "^7\\.142857" gpu_alloc_peak_pct "^7\\.142857" sim_end_s "^120\\.0$")
drasim_cli_test(NAME mutants/gpu-units
  COMMAND run ${_mut_src}/gpu-units.yaml -o ${_mut_out}/gpu-units.db
  SQL ${_sql}
      ${_mut_out}/gpu-units.db "SELECT node_id, resource, allocatable FROM node_resources WHERE resource LIKE 'nvidia.com/%' ORDER BY node_id"
      "^0\\|nvidia.com/mig-1g.5gb\\|56\n1\\|nvidia.com/gpu\\|8$"
      ${_mut_out}/gpu-units.db "SELECT gpus_alloc, mig_alloc, round(gpu_equiv_alloc, 6), round(gpu_alloc_pct, 6) FROM samples WHERE time_ms = 0"
      "^1\\|1\\|0\\.285714\\|7\\.142857$")

# A pool quantity of 0 is refused, naming the place (tests/mutants/zero-cpu.yaml).
drasim_cli_test(NAME mutants/zero-cpu-refused
  COMMAND run ${_mut_src}/zero-cpu.yaml -o ${_mut_out}/zero-cpu.db
  EXIT 3
  EXPECT "zero-cpu.yaml:9:44: cpu: must be greater than zero")

# drasim check and compare on a metric whose value per seed is known:
# sim_end_s = seed (tests/mutants/seed-duration.yaml).
drasim_cli_test(NAME mutants/check-bounds-and-extremes
  COMMAND check ${_mut_src}/seed-duration.yaml --expect ${_mut_src}/seed-check.yaml -o ${_mut_out}/seeds-1-3.db
  EXPECT "6 checks, 0 failed \\(3 runs\\)"
  SQL ${_mut_out}/seeds-1-3.db "SELECT group_concat(value, ' ') FROM summary WHERE grp = '' AND metric = 'sim_end_s'" "^1\\.0 2\\.0 3\\.0$")
# Baseline = seeds 1..3 (mean 2); now seeds 2..4 (mean 3), lower is better.
# Other seeds: --allow-other-baseline, and the 95 % CI of the difference is
# Welch's (+1 +- 2.776 * sqrt(1/3 + 1/3) = 2.27). 50 % of 2 allows up to 3.0
# (passes at the bound); 40 % allows 2.8 and 3 is worse, but the CI includes 0:
# passes as noise. Seeds 11..13 (mean 12, +10 +- 2.27) against 490 % (11.8):
# worse and significant, fails (docs/CI.md, "Baselines and noise").
foreach(_tol 50 40 490)
  file(WRITE ${_mut_out}/baseline-${_tol}.yaml
       "apiVersion: drasim/v1\nkind: Expect\nseeds: 2..4\nbaseline:\n  file: seeds-1-3.db\n"
       "  metrics:\n    sim_end_s: {tolerance: ${_tol}%, better: lower}\n")
endforeach()
drasim_cli_test(NAME mutants/check-baseline-relative-at-bound
  COMMAND check ${_mut_src}/seed-duration.yaml --expect ${_mut_out}/baseline-50.yaml -o ${_mut_out}/seeds-2-4.db
          --allow-other-baseline
  EXPECT "<= 3 \\(baseline 2 \\+ 1\\), diff \\+1 ± 2\\.27 \\(95% CI, Welch\\) +pass" "1 check, 0 failed \\(3 runs\\)"
  DEPENDS mutants/check-bounds-and-extremes)
drasim_cli_test(NAME mutants/check-baseline-worse-but-noise
  COMMAND check ${_mut_src}/seed-duration.yaml --expect ${_mut_out}/baseline-40.yaml --allow-other-baseline
  EXPECT "<= 2\\.8 \\(baseline 2 \\+ 0\\.8\\), diff \\+1 ± 2\\.27 \\(95% CI, Welch\\) +pass" "1 check, 0 failed \\(3 runs\\)"
  DEPENDS mutants/check-bounds-and-extremes)
drasim_cli_test(NAME mutants/check-baseline-relative-exceeded
  COMMAND check ${_mut_src}/seed-duration.yaml --expect ${_mut_out}/baseline-490.yaml --seeds 11..13 --allow-other-baseline
  EXIT 1
  EXPECT "<= 11\\.8 \\(baseline 2 \\+ 9\\.8\\), diff \\+10 ± 2\\.27 \\(95% CI, Welch\\) +FAIL" "1 check, 1 failed \\(3 runs\\)"
  DEPENDS mutants/check-bounds-and-extremes)
# without --allow-other-baseline: other seeds are an input error naming both
drasim_cli_test(NAME mutants/check-baseline-other-seeds
  COMMAND check ${_mut_src}/seed-duration.yaml --expect ${_mut_out}/baseline-50.yaml
  EXIT 3
  EXPECT "baseline-50\\.yaml: baseline .*seeds-1-3\\.db holds scenario [^ ]+ seeds 1,2,3, the results scenario [^ ]+ seeds 2,3,4: a baseline must come from the same scenario and seeds \\(--allow-other-baseline"
  DEPENDS mutants/check-bounds-and-extremes)
# compare: mean sim_end_s 2 (seeds 1..3) -> 3 (seeds 2..4): +1, +50 % (B relative to A).
drasim_cli_test(NAME mutants/compare-delta-sign
  COMMAND compare ${_mut_out}/seeds-1-3.db ${_mut_out}/seeds-2-4.db --format csv
  EXPECT ",sim_end_s,2,3,\\+1,\\+50\\.00%,2\\.48434,2\\.48434"
  DEPENDS mutants/check-bounds-and-extremes mutants/check-baseline-relative-at-bound)
# text: mean ± 95% CI half width per configuration (not one line per seed):
# sd 1 over 3 seeds, 4.303 / sqrt(3) = 2.48
drasim_cli_test(NAME mutants/compare-mean-ci
  COMMAND compare ${_mut_out}/seeds-1-3.db ${_mut_out}/seeds-2-4.db
  EXPECT "\\(mean\\)  +sim_end_s +2 ± 2\\.48 +3 ± 2\\.48 +\\+1 +\\+50\\.00%"
  REJECT "seed="
  DEPENDS mutants/check-bounds-and-extremes mutants/check-baseline-relative-at-bound)
# report: pending pods at 0 are 1, 2, 3 over seeds 1..3: mean 2, sample
# standard deviation 1, 95 % CI half width t(0.975, 2) * 1 / sqrt(3) =
# 4.303 / 1.7320508 = 2.484338 -> lo -0.484338, hi 4.48434 (no gnuplot needed).
drasim_cli_test(NAME mutants/report-confidence-interval
  COMMAND report ${_mut_out}/seeds-1-3.db -o ${_mut_out}/report
  ENV DRASIM_GNUPLOT=${_mut_out}/no-such-gnuplot
  FILE_EXISTS ${_mut_out}/report/data/pending.dat
  DEPENDS mutants/check-bounds-and-extremes)
drasim_cli_test(NAME mutants/report-confidence-interval-data
  RAW COMMAND ${CMAKE_COMMAND} -E cat ${_mut_out}/report/data/pending.dat
  EXPECT "\n0\\.000000 2 -0\\.484338 4\\.48434\n"
  DEPENDS mutants/report-confidence-interval)

# drasim.free_gpus skips cordoned nodes (tests/mutants/cordoned.lua asserts it).
drasim_cli_test(NAME mutants/lua-free-gpus-cordoned
  COMMAND run ${_mut_src}/cordoned.yaml -o ${_mut_out}/cordoned.db
  EXPECT "2 pods arrived, 2 scheduled"
  SQL ${_mut_out}/cordoned.db "SELECT group_concat(name || '@' || node_id, ' ') FROM pods" "^one@0 checked@0$")

# Queued timers count against the Lua memory limit (tests/mutants/lua-memory.lua).
drasim_cli_test(NAME mutants/lua-memory-counts-queued-timers
  COMMAND run ${_mut_src}/lua-memory.yaml -o ${_mut_out}/lua-memory.db
  EXIT 3
  EXPECT "lua-memory.lua: lua error in the main chunk: memory limit exceeded")

# A recorded Node without `pods` allocatable gets the kubelet default 110
# (tests/mutants/nopods.yaml).
drasim_cli_test(NAME mutants/default-max-pods-recorded
  COMMAND run ${_mut_src}/nopods.yaml -o ${_mut_out}/nopods.db
  SQL ${_mut_out}/nopods.db "SELECT max_pods FROM nodes" "^110$"
      ${_mut_out}/nopods.db "SELECT count(*), max(wait_ms) FROM pods WHERE wait_ms = 0 OR wait_ms = 3599890" "^111\\|3599890$"
      ${_mut_out}/nopods.db "SELECT count(*) FROM pods WHERE wait_ms = 0" "^110$")
