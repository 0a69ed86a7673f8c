# `drasim kueue-perf` (sim/cli/cmd_kueue_perf.c, model/kueue_perf.c; docs/QUEUES.md
# "Kueue's performance scenarios"): a config derived by hand, Kueue's own two
# configs run, bad configs exit 3 with FILE:LINE:COL.
set(_kp ${CMAKE_SOURCE_DIR}/tests/queues/perf)
set(_kp_out ${CMAKE_CURRENT_BINARY_DIR}/queues-perf)
file(MAKE_DIRECTORY ${_kp_out})
drasim_cli_test(NAME queues/perf/tiny-by-hand
  COMMAND kueue-perf ${_kp}/tiny.yaml --scenario ${_kp_out}/tiny-scenario.yaml
  EXPECT "kueue-perf: 4 workloads, run length 6[.]0 s"
         "  cq +58[.]3"
         "  a +2  250"
         "  b +2  750")
foreach(_c baseline large-scale)
  drasim_cli_test(NAME queues/perf/${_c}
    COMMAND kueue-perf ${CMAKE_SOURCE_DIR}/scenarios/kueue-perf/${_c}.yaml
    EXPECT "kueue-perf: [0-9]+ workloads" "  small +[0-9]+  [0-9]+" "  medium " "  large " TIMEOUT 120)
endforeach()
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
