# Oracles: small scenarios (tests/scenarios/oracle-*.yaml) whose every reported
# number is derived by hand in the scenario's header or here, checked in the
# results database with SQL. Expected values are fractional where possible so
# that a metric truncated to an integer, or a rank off by one, fails.
include(${CMAKE_SOURCE_DIR}/tests/lib/run_facts.cmake)
set(_or ${CMAKE_SOURCE_DIR}/tests/scenarios)
set(_oo ${CMAKE_CURRENT_BINARY_DIR}/oracle)
file(MAKE_DIRECTORY ${_oo})

# Summary metrics as "name=value" with 6 decimals, sorted by name.
function(_oracle_metrics out db)
  set(sel)
  set(want)
  set(names)
  foreach(pair ${ARGN})
    string(REPLACE "=" ";" kv "${pair}")
    list(GET kv 0 k)
    list(GET kv 1 v)
    list(APPEND names "'${k}'")
    string(REPLACE "." "[.]" v "${v}")
    list(APPEND want "${k}=${v}")
  endforeach()
  list(JOIN names ", " in)
  list(SORT want)
  list(JOIN want " " re)
  set(${out} "${db}"
      "SELECT group_concat(metric || '=' || printf('%.6f', value), ' ') FROM (SELECT metric, value FROM summary WHERE grp = '' AND metric IN (${in}) ORDER BY metric)"
      "^${re}$" PARENT_SCOPE)
endfunction()

# --- waits and nearest-rank percentiles (oracle-serial.yaml) -------------------
# Pod k waits 1.25 k s. Nearest rank: p-th percentile = the ceil(p n / 100)-th
# smallest wait.
#   n = 100: waits 0 .. 123.75; mean 1.25 * 49.5 = 61.875;
#            p50 = 50th = 1.25 * 49 = 61.25; p99 = 99th = 1.25 * 98 = 122.5
#   n = 101: waits 0 .. 125;    mean 1.25 * 50 = 62.5;
#            p50 = ceil(50.5) = 51st = 62.5; p99 = ceil(99.99) = 100th = 123.75
# The GPU is never idle: allocation 100 %, the run ends at 1.5 n s.
foreach(_case "100|61.875000|61.250000|122.500000|123.750000|150.000000"
              "101|62.500000|62.500000|123.750000|125.000000|151.500000")
  string(REPLACE "|" ";" _p "${_case}")
  list(GET _p 0 _n)
  list(GET _p 1 _mean)
  list(GET _p 2 _p50)
  list(GET _p 3 _p99)
  list(GET _p 4 _max)
  list(GET _p 5 _end)
  set(_db ${_oo}/serial-${_n}.db)
  drasim_run_facts(_facts ${_db})
  _oracle_metrics(_m ${_db} wait_mean_s=${_mean} wait_p50_s=${_p50} wait_p99_s=${_p99} wait_max_s=${_max}
                  sim_end_s=${_end} gpu_alloc_pct=100.000000 pods_scheduled=${_n}.000000)
  drasim_cli_test(NAME oracle/waits-percentiles-${_n}
    COMMAND run ${_or}/oracle-serial.yaml --set workload.podGroups.serial.count=${_n} -o ${_db} -q
    SQL ${_facts} ${_m}
        ${_db} "SELECT count(*) FROM pods WHERE wait_ms != pod_id * 1250 OR scheduled_ms != pod_id * 1500" "^0$")
endforeach()

# --- back-off: 1 s doubling per failure, at most 10 s (oracle-backoff.yaml) ----
# lo fails at 0 s (1st failure: back-off 1 s). Each time the GPU frees and lo's
# back-off is over, a hi pod arrives at that instant and wins on priority:
#   5 s:  first ends, lo is queued, hi-0 wins; 2nd failure -> back-off 2 s (until 7)
#   6 s:  hi-0 ends; lo waits for 7 s.  7 s: hi-1 wins; 3rd -> 4 s (until 11)
#   11 s: hi-2 wins; 4th -> 8 s (until 19).  19 s: hi-3 wins; 5th -> 16 s capped
#         at 10 s (until 29).  20 s: hi-3 ends.  29 s: lo starts, ends 30 s.
# lo waits 29 s; 6 attempts, 5 failed. Waits 0 0 0 0 0 29: mean 29/6 s, p50 0,
# p99 29 s. GPU busy 5 + 5 x 1 = 10 s of 30 s = 33.33 %, cpu 1 of 8 as long: 4.17 %.
# Engine counters: 6 arrivals + 6 completions + the sample at 0 s + 4 back-off
# retries (lo woken during its back-off at 6, 8, 12 and 20 s) = 17 events;
# 11 scheduling cycles (first 1, lo 6, hi 4).
# Variants: podMaxBackoffSeconds 20: the 5th back-off is 16 s -> lo starts 35 s.
# podInitialBackoffSeconds 2: 2 s then 4 s (until 9): hi-1 takes the GPU 7-8 s
# while lo backs off, lo starts 9 s. podInitialBackoffSeconds 0: no back-off,
# lo starts when hi-0 ends, 6 s.
set(_db ${_oo}/backoff.db)
drasim_run_facts(_facts ${_db})
_oracle_metrics(_m ${_db} wait_mean_s=4.833333 wait_p50_s=0.000000 wait_p99_s=29.000000 gpu_alloc_pct=33.333333
                sim_end_s=30.000000 cpu_alloc_pct=4.166667 events=17.000000 scheduling_cycles=11.000000)
drasim_cli_test(NAME oracle/backoff
  COMMAND run ${_or}/oracle-backoff.yaml -o ${_db} -q
  SQL ${_facts} ${_m}
      ${_db} "SELECT group_concat(name || '=' || scheduled_ms, ' ') FROM pods" "^first-0=0 lo-0=29000 hi-0=5000 hi-1=7000 hi-2=11000 hi-3=19000$"
      ${_db} "SELECT attempts, failed_attempts FROM pod_groups WHERE name = 'lo'" "^6[|]5$")
foreach(_case "max20|scheduling.podMaxBackoffSeconds=20|35000"
              "initial2|scheduling.podInitialBackoffSeconds=2|9000"
              "initial0|scheduling.podInitialBackoffSeconds=0|6000")
  string(REPLACE "|" ";" _p "${_case}")
  list(GET _p 0 _name)
  list(GET _p 1 _set)
  list(GET _p 2 _at)
  set(_db ${_oo}/backoff-${_name}.db)
  drasim_cli_test(NAME oracle/backoff-${_name}
    COMMAND run ${_or}/oracle-backoff.yaml --set ${_set} -o ${_db} -q
    SQL ${_db} "SELECT scheduled_ms FROM pods WHERE name = 'lo-0'" "^${_at}$")
endforeach()

# Stopped early: at 6 s (events at the stop time are not processed) hi-0 is
# still running and lo, blocked since its failure at 5 s, is unschedulable;
# at 6.5 s hi-0 has ended and lo waits only for its back-off (until 7 s), so it
# is pending but not unschedulable. GPU busy 6 of 6 s = 100 %, 6 of 6.5 s = 92.307692 %.
foreach(_case "6s|1|1|1|100.000000|0/1 nodes are available: 1 Insufficient nvidia[.]com/gpu[.]"
              "6500ms|0|1|0|92.307692|NULL")
  string(REPLACE "|" ";" _p "${_case}")
  list(GET _p 0 _stop)
  list(GET _p 1 _run)
  list(GET _p 2 _pend)
  list(GET _p 3 _uns)
  list(GET _p 4 _pct)
  list(GET _p 5 _reason)
  set(_db ${_oo}/backoff-stop-${_stop}.db)
  drasim_run_facts(_facts ${_db})
  _oracle_metrics(_m ${_db} pods_running_at_end=${_run}.000000 pods_pending_at_end=${_pend}.000000
                  unschedulable=${_uns}.000000 gpu_alloc_pct=${_pct})
  drasim_cli_test(NAME oracle/backoff-stop-${_stop}
    COMMAND run ${_or}/oracle-backoff.yaml --set stop.time=${_stop} -o ${_db} -q
    SQL ${_facts} ${_m}
        ${_db} "SELECT coalesce(reason, 'NULL') FROM pods WHERE name = 'lo-0'" "^${_reason}$")
endforeach()

# --- GPU, MIG, cpu, memory allocation (oracle-alloc.yaml) --------------------
# GPU-minutes: g2 2*30 = 60, g1 45, m3 3/7*60 = 180/7, m1 2 * 1/7*20 = 40/7:
#   955/7 of 5 GPUs x 120 min -> 955/4200 = 22.738095 %.
# Peak 20-30 min: 2 + 1 + 3/7 + 2/7 = 26/7 GPUs -> 74.285714 %.
# cpu-minutes 4*30 + 2*45 + 1*60 + 2*20 = 310 of 32 x 120 -> 8.072917 %.
# GiB-minutes 16*30 + 8*45 + 4*60 + 2*20 = 1120 of 256 x 120 -> 3.645833 %.
# Samples (every 10 min, after scheduling): at 20 min 3 GPUs + 3 MIG devices,
# 26/7 = 3.714286 GPU equivalents; at 30 min g2 has ended: 1 + 5/7 = 1.714286.
set(_db ${_oo}/alloc.db)
drasim_run_facts(_facts ${_db})
_oracle_metrics(_m ${_db} gpu_total=5.000000 gpu_alloc_pct=22.738095 gpu_alloc_peak_pct=74.285714
                cpu_alloc_pct=8.072917 memory_alloc_pct=3.645833 pods_succeeded=5.000000)
drasim_cli_test(NAME oracle/allocation-mig
  COMMAND run ${_or}/oracle-alloc.yaml -o ${_db} -q
  SQL ${_facts} ${_m}
      ${_db} "SELECT group_concat((time_ms / 60000) || ':' || gpus_alloc || '/' || mig_alloc || '/' || printf('%.6f', gpu_equiv_alloc) || '/' || printf('%.4f', gpu_alloc_pct), ' ') FROM samples WHERE time_ms <= 3600000"
             "^0:2/1/2[.]428571/48[.]5714 10:3/1/3[.]428571/68[.]5714 20:3/3/3[.]714286/74[.]2857 30:1/3/1[.]714286/34[.]2857 40:1/1/1[.]428571/28[.]5714 50:1/1/1[.]428571/28[.]5714 60:0/0/0[.]000000/0[.]0000$"
      ${_db} "SELECT group_concat(resource || '=' || printf('%.6f', gpu_equiv), ' ') FROM (SELECT DISTINCT resource, gpu_equiv FROM devices ORDER BY resource)"
             "^nvidia[.]com/gpu=1[.]000000 nvidia[.]com/mig-1g[.]5gb=0[.]142857 nvidia[.]com/mig-2g[.]10gb=0[.]285714 nvidia[.]com/mig-3g[.]20gb=0[.]428571$"
      ${_db} "SELECT group_concat(name || ':' || devices, ' ') FROM pods"
             "^g2-0:nvidia[.]com/gpu=0,1 m3-0:nvidia[.]com/mig-3g[.]20gb=0 g1-0:nvidia[.]com/gpu=2 m1-0:nvidia[.]com/mig-1g[.]5gb=0 m1-1:nvidia[.]com/mig-1g[.]5gb=1$"
      ${_db} "SELECT resource || ' ' || allocated || '/' || allocatable FROM sample_resources WHERE time_ms = 1200000 AND resource LIKE '%mig-1g%'" "^nvidia[.]com/mig-1g[.]5gb 2/2$")

# --- the same in DRA mode, with dynamic MIG (oracle-dra.yaml) ----------------
# GPU numbers in the scenario's header; cpu-minutes 30 + 60 + 2*20 = 130 of
# 32 x 120 -> 3.385417 %. At 20 min 1 + 3/7 + 2/7 = 1.714286 GPUs, at 30 min
# 5/7. MIG fragmentation at the end, both GPUs idle: typical profiles 3g.40gb
# (1 pod, p 1/3; 4 slices at start 0 or 4: covers all 8) and 1g.10gb (2 pods,
# p 2/3; starts 0-6: slice 7 unusable), so F = 2/3 slice per GPU, 4/3 of 16
# memory slices = 8.333333 %.
set(_db ${_oo}/dra.db)
drasim_run_facts(_facts ${_db})
_oracle_metrics(_m ${_db} gpu_total=2.000000 gpu_alloc_pct=25.595238 gpu_alloc_peak_pct=85.714286
                cpu_alloc_pct=3.385417 frag_mig_pct_end=8.333333 dra_claims_created=4.000000 dra_claims_deleted=4.000000)
drasim_cli_test(NAME oracle/allocation-dra-mig
  COMMAND run ${_or}/oracle-dra.yaml -o ${_db} -q
  SQL ${_facts} ${_m}
      ${_db} "SELECT group_concat((time_ms / 60000) || ':' || printf('%.6f', gpu_equiv_alloc), ' ') FROM samples WHERE time_ms <= 3600000"
             "^0:1[.]428571 10:1[.]428571 20:1[.]714286 30:0[.]714286 40:0[.]428571 50:0[.]428571 60:0[.]000000$"
      ${_db} "SELECT count(*), count(DISTINCT device) FROM claim_allocations" "^4[|]4$")

# MIG fragmentation over time (F per GPU in memory slices; a whole-GPU
# allocation leaves no free slice, F = 0). H100 placements: 3g.40gb at start 0
# or 4 (slices [t, t+4)), 1g.10gb at 0-6; 7 compute slices.
# Upstream first fit: 3g at 0-3, the 1g pods at 4 and 5.
#   0-20:  GPU1 free 4-7: 3g fits at 4, 1g cannot use 7 -> 2/3        x 20 = 40/3
#   20-30: GPU1 free 6, 7, 5 compute used: 3g none (2 x 1/3), 1g not 7 (2/3) -> 4/3  x 10 = 40/3
#   30-40: + GPU0 idle 2/3 -> 2                                        x 10 = 20
#   40-60: GPU1 as 0-20, GPU0 idle -> 4/3                              x 20 = 80/3
#   60-120: both idle -> 4/3                                           x 60 = 80
#   460/3 slice-min of 16 x 120 -> 7.986111 %; no placement chosen by a policy.
# policy fgd: 3g at 4-7 (free 0-3 all usable: F 0), the 1g pods at 0 and 1
#   0-20: 0;  20-30: GPU1 free 2, 3: 3g none -> 2/3 x 10 = 20/3;  30-40: + GPU0 2/3
#   -> 4/3 x 10 = 40/3;  40-60: GPU0 2/3 x 20 = 40/3;  60-120: 4/3 x 60 = 80
#   340/3 of 1920 -> 5.902778 %; 3 placements chosen (one per MIG pod).
foreach(_case "firstfit|7.986111|0.000000|gpu-0 gpu-1-mig-3g40gb-9-0 gpu-1-mig-1g10gb-19-4 gpu-1-mig-1g10gb-19-5"
              "fgd|5.902778|3.000000|gpu-0 gpu-1-mig-3g40gb-9-4 gpu-1-mig-1g10gb-19-0 gpu-1-mig-1g10gb-19-1")
  string(REPLACE "|" ";" _p "${_case}")
  list(GET _p 0 _name)
  list(GET _p 1 _mean)
  list(GET _p 2 _chosen)
  list(GET _p 3 _devs)
  set(_args)
  if(_name STREQUAL "fgd")
    set(_args --policy fgd)
  endif()
  set(_db ${_oo}/dra-mig-${_name}.db)
  _oracle_metrics(_m ${_db} frag_mig_pct_mean=${_mean} frag_mig_pct_end=8.333333 mig_placements_chosen=${_chosen})
  drasim_cli_test(NAME oracle/mig-fragmentation-${_name}
    COMMAND run ${_or}/oracle-dra.yaml ${_args} -o ${_db} -q
    SQL ${_m}
        ${_db} "SELECT group_concat(device, ' ') FROM (SELECT device FROM claim_allocations ORDER BY pod_id)" "^${_devs}$")
endforeach()

# --- time-slicing (oracle-timeslice.yaml): one unit = 1/replicas GPU -------
# Numbers in the scenario's header; units handed out lowest index first.
set(_db ${_oo}/timeslice.db)
drasim_run_facts(_facts ${_db})
_oracle_metrics(_m ${_db} gpu_total=2.000000 gpu_alloc_pct=31.250000 gpu_alloc_peak_pct=62.500000)
drasim_cli_test(NAME oracle/allocation-time-slicing
  COMMAND run ${_or}/oracle-timeslice.yaml -o ${_db} -q
  SQL ${_facts} ${_m}
      ${_db} "SELECT group_concat(name || ':' || devices, ' ') FROM pods"
             "^one-0:nvidia[.]com/gpu=0 one-1:nvidia[.]com/gpu=1 one-2:nvidia[.]com/gpu=2 two-0:nvidia[.]com/gpu=3,4$"
      ${_db} "SELECT count(*), min(gpu_equiv), max(gpu_equiv) FROM devices" "^8[|]0[.]25[|]0[.]25$")

# --- tie-breaking (oracle-ties.yaml) -----------------------------------------
# 400 pods each see four equally scored empty nodes; every node gets 60..140
# (about 4.6 sd from the mean of 100). Run with two seeds.
foreach(_seed 5 6)
  set(_db ${_oo}/ties-${_seed}.db)
  drasim_cli_test(NAME oracle/ties-uniform-seed-${_seed}
    COMMAND run ${_or}/oracle-ties.yaml --seed ${_seed} -o ${_db} -q
    SQL ${_db} "SELECT count(*) FROM (SELECT node_id, count(*) AS c FROM pods GROUP BY node_id) WHERE c BETWEEN 60 AND 140" "^4$"
        ${_db} "SELECT count(*), sum(wait_ms) FROM pods WHERE state = 'Succeeded'" "^400[|]0$")
endforeach()

# --- NodeResourcesBalancedAllocation (oracle-balanced.yaml) ------------------
set(_db ${_oo}/balanced.db)
drasim_cli_test(NAME oracle/balanced-allocation
  COMMAND run ${_or}/oracle-balanced.yaml -o ${_db} -q
  SQL ${_db} "SELECT n.name FROM pods p JOIN nodes n USING (run_id, node_id)" "^a-0$")
# Without BalancedAllocation only NodeResourcesFit counts: 61 > 50, still a-0;
# with BalancedAllocation alone: 63 < 100, b-0.
drasim_cli_test(NAME oracle/balanced-allocation-alone
  COMMAND run ${_or}/oracle-balanced.yaml --set "scheduling.profile.plugins.score.enabled=[{name: NodeResourcesBalancedAllocation, weight: 1}]"
          --set "scheduling.profile.plugins.score.disabled=[{name: NodeResourcesFit}]" -o ${_oo}/balanced-alone.db -q
  SQL ${_oo}/balanced-alone.db "SELECT n.name FROM pods p JOIN nodes n USING (run_id, node_id)" "^b-0$")

# --- taints (oracle-taints.yaml) ---------------------------------------------
# Only the 3 tolerant pods run (0-5, 1-6, 2-7 min, 1 GPU each of 4 GPUs):
# 15 GPU-min of 4 x 60 = 6.25 %, peak 3/4 = 75 %.
set(_db ${_oo}/taints.db)
drasim_run_facts(_facts ${_db})
_oracle_metrics(_m ${_db} pods_scheduled=3.000000 unschedulable=6.000000 gpu_alloc_pct=6.250000 gpu_alloc_peak_pct=75.000000)
drasim_cli_test(NAME oracle/noexecute-taint
  COMMAND run ${_or}/oracle-taints.yaml -o ${_db} -q
  SQL ${_facts} ${_m}
      ${_db} "SELECT count(*) FROM pods WHERE name NOT LIKE 'tolerant-%' AND (scheduled_ms IS NOT NULL OR reason != '0/2 nodes are available: 2 node(s) had untolerated taint {drain: yes}.')" "^0$"
      ${_db} "SELECT count(*) FROM pods WHERE name LIKE 'tolerant-%' AND wait_ms = 0" "^3$")

# --- FGD fragmentation at the free == milli boundary (oracle-frag.yaml) -------
set(_db ${_oo}/frag.db)
_oracle_metrics(_m ${_db} frag_gpu_pct_end=29.960000 frag_ratio_pct_end=59.979980 gpu_milli_alloc_pct_end=50.050000
                typical_pods=4.000000 typical_pods_coverage_pct=100.000000 gpu_alloc_pct=49.549000)
# Time-weighted: pod-a 500 milli x 50 s + pod-b (from 1 s) 501 x 49 s = 49549 of 2000 x 50.
drasim_cli_test(NAME oracle/fgd-frag-boundary
  COMMAND run ${_or}/oracle-frag.yaml -o ${_db} -q
  SQL ${_m}
      ${_db} "SELECT group_concat(node_id, ',') FROM pods" "^0,1$")
# typicalPods 60: keep shapes until 60 % of the 5 pods (3) are covered: 500
# (2 pods), then among the 1-pod shapes the larger first: 600 (cpu equal, more
# milli). Kept: 500 (p 2/3), 600 (p 1/3), coverage 3/5 = 60 %.
#   GPU with 500 free: 500 fits (0), 600 no: 500/3              = 166.667
#   GPU with 499 free: 500 no: 499 * 2/3, 600 no: 499/3         = 499
#   665.667 of 2000 = 33.283333 %; of the 999 idle: 66.633300 %.
set(_db ${_oo}/frag-60.db)
_oracle_metrics(_m ${_db} frag_gpu_pct_end=33.283333 frag_ratio_pct_end=66.633300 typical_pods=2.000000
                typical_pods_coverage_pct=60.000000)
drasim_cli_test(NAME oracle/fgd-frag-typical-threshold
  COMMAND run ${_or}/oracle-frag.yaml --set workload.trace.typicalPods=60 -o ${_db} -q
  SQL ${_m})
