# `drasim kueue-perf` (sim/cli/cmd_kueue_perf.c, model/kueue_perf.c; docs/QUEUES.md
# "Kueue's performance scenarios"): a config derived by hand, Kueue's own two
# configs run, bad configs exit 3 with FILE:LINE:COL.
set(_kp ${CMAKE_SOURCE_DIR}/tests/queues/perf)
set(_kp_out ${CMAKE_CURRENT_BINARY_DIR}/queues-perf)
file(MAKE_DIRECTORY ${_kp_out})
drasim_cli_test(NAME queues/perf/tiny-by-hand
  COMMAND kueue-perf ${_kp}/tiny.yaml --scenario ${_kp_out}/tiny-scenario.yaml
  EXPECT "kueue-perf: 4 workloads, run length 6[.]0 s [(]simulated[)]"
         "  cq +58[.]3[^0-9]"
         "  a +2 +0  250[^0-9]"
         "  b +2 +0  750[^0-9]")
# preemption: the victim is requeued and runs again; its time to admission
# counts from its creation to its last admission, as Kueue's recorder does
drasim_cli_test(NAME queues/perf/preempt-by-hand
  COMMAND kueue-perf ${_kp}/preempt.yaml
  EXPECT "kueue-perf: 2 workloads, run length 6[.]0 s [(]simulated[)]"
         "  cq +83[.]3[^0-9]"
         "  lo +1 +1  2000[^0-9]"
         "  hi +1 +0  0[^0-9]")
# Kueue's own configs: they run, and Kueue's published means
# (configs/*/rangespec.yaml at ff69552e79) are printed beside drasim's
drasim_cli_test(NAME queues/perf/baseline
  COMMAND kueue-perf ${CMAKE_SOURCE_DIR}/scenarios/kueue-perf/baseline.yaml
  EXPECT "kueue-perf: 15000 workloads, run length [0-9.]+ s [(]simulated[)]; Kueue's baseline: 351116 ms"
         "  cq +[0-9.]+  55[.]90" "  small +10500 +[0-9]+ +[0-9]+  215468" "  medium +3000 +[0-9]+ +[0-9]+  76768"
         "  large +1500 +[0-9]+ +[0-9]+  16501" TIMEOUT 120)
drasim_cli_test(NAME queues/perf/large-scale
  COMMAND kueue-perf ${CMAKE_SOURCE_DIR}/scenarios/kueue-perf/large-scale.yaml
  EXPECT "kueue-perf: 50000 workloads, run length [0-9.]+ s [(]simulated[)]; Kueue's large-scale: 1179411 ms"
         "  cq +[0-9.]+  38[.]64" "  small +35000 +[0-9]+ +[0-9]+  700379" "  medium +11000 +[0-9]+ +[0-9]+  256413"
         "  large +4000 +[0-9]+ +[0-9]+  105604" TIMEOUT 300)
foreach(_case
    "bad-count|bad-count.yaml:6:12: queuesSet.count: expected a whole number 1..100000, found 0"
    "bad-quota|bad-quota.yaml:7:19: queuesSet.nominalQuota: expected a cpu quantity"
    "tas|tas.yaml:1:11: topology: a TAS performance config"
    "bad-policy|bad-policy.yaml:8:26: reclaimWithinCohort: expected Never, LowerPriority or Any"
    "bad-tas-field|bad-tas-field.yaml:[0-9]+:[0-9]+: workload.tasLevel: a TAS performance config"
    "bad-key|bad-key.yaml:[0-9]+:[0-9]+: .*queueSets")
  string(REPLACE "|" ";" _p "${_case}")
  list(GET _p 0 _name)
  list(GET _p 1 _msg)
  drasim_cli_test(NAME queues/perf/refused-${_name}
    COMMAND kueue-perf ${_kp}/${_name}.yaml -o ${_kp_out}/${_name}.db
    EXIT 3 EXPECT "${_msg}" FILE_ABSENT ${_kp_out}/${_name}.db)
endforeach()
