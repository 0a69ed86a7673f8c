# CLI tests of `drasim run`: the quickstart runs and fills every table; bad
# scenarios exit 3 naming FILE:LINE:COL and leave an existing database alone;
# the same seed gives a byte-identical database. Every run's database also
# passes the scenario-independent facts of tests/lib/run_facts.cmake.
include(${CMAKE_SOURCE_DIR}/tests/lib/run_facts.cmake)
set(_run_check ${CMAKE_SOURCE_DIR}/tests/scenarios/check_run.cmake)
set(_run_out ${CMAKE_CURRENT_BINARY_DIR}/run-cli)
file(MAKE_DIRECTORY ${_run_out})

# Exact counts pin the run (a regression check; the numbers themselves are
# checked by hand in tests/oracle.cmake).
drasim_run_facts(_facts ${_run_out}/quickstart.db)
drasim_cli_test(NAME run/quickstart
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml -o ${_run_out}/quickstart.db
  EXPECT "quickstart: 44 nodes, 1000 pods arrived, 1000 scheduled, 0 pending at end [(]0 unschedulable[)]"
         "run 1, seed 42: simulated 8[.]0 h[;] GPU allocation 56[.]5% [(]peak 76[.]1%[)][;] wait mean 20[.]9 s, p99 556[.]1 s"
  SQL ${_facts}
      ${_run_out}/quickstart.db "SELECT count(*), sum(state = 'Succeeded'), sum(state = 'Running') FROM pods" "^1000[|]925[|]75$"
      ${_run_out}/quickstart.db "SELECT nodes, pods, seed, mode, policy FROM runs" "^44[|]1000[|]42[|]device-plugin[|]LeastAllocated$"
      ${_run_out}/quickstart.db "SELECT printf('%.4f', value) FROM summary WHERE grp = '' AND metric = 'gpu_alloc_pct'" "^56[.]50[0-9][0-9]$")

drasim_cli_test(NAME run/same-seed-same-bytes RAW
  COMMAND ${CMAKE_COMMAND} -DMODE=twice -DDRASIM=$<TARGET_FILE:drasim> -DOTHER_SEED=7
          -DSCENARIO=${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml -DOUT=${_run_out}/det.db -P ${_run_check})

foreach(_case
    "unknown_key|unknown_key.yaml:15:5: unknown field 'request' in pod group"
    "bad_type|bad_type.yaml:12:12: count: expected an integer, found 'many'"
    "missing_field|missing_field.yaml:11:5: missing field 'arrival' in pod group"
    "bad_duration|bad_duration.yaml:4:14: stop.time: expected a duration")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _expect)
  drasim_cli_test(NAME run/error-${_name} RAW
    COMMAND ${CMAKE_COMMAND} -DMODE=error -DDRASIM=$<TARGET_FILE:drasim>
            -DSCENARIO=${CMAKE_SOURCE_DIR}/tests/scenarios/${_name}.yaml -DOUT=${_run_out}/${_name}.db
            "-DEXPECT=${_expect}" -P ${_run_check})
endforeach()

# Ctrl-C during the 1,000,000-pod scenario: exit non-zero, old database intact
# (interrupt.sh checks drasim's exit code and exits 1 on any failure).
drasim_cli_test(NAME run/interrupt-keeps-old-db RAW
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/scenarios/interrupt.sh $<TARGET_FILE:drasim>
          ${CMAKE_SOURCE_DIR}/scenarios/examples/bench-10k-nodes.yaml ${_run_out}/interrupted.db
  EXPECT "interrupted run exited [1-9][0-9]*, .* intact")

# The small example scenarios run (the 1,000,000-pod benchmark scenario is left to tools/bench).
foreach(_ex "gpu-packing|16 nodes, 250 pods arrived, 250 scheduled, 0 pending"
            "time-slicing|4 nodes, 500 pods arrived, 500 scheduled, 0 pending")
  string(REPLACE "|" ";" _parts "${_ex}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _expect)
  drasim_run_facts(_facts ${_run_out}/${_name}.db)
  drasim_cli_test(NAME run/example-${_name}
    COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/${_name}.yaml -o ${_run_out}/${_name}.db
    EXPECT "${_name}: ${_expect}"
    SQL ${_facts})
endforeach()
