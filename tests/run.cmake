# CLI tests of `drasim run`: the quickstart runs and fills every table; bad
# scenarios exit 3 naming FILE:LINE:COL and leave an existing database alone;
# the same seed gives a byte-identical database.
set(_run_check ${CMAKE_SOURCE_DIR}/tests/scenarios/check_run.cmake)
set(_run_out ${CMAKE_CURRENT_BINARY_DIR}/run-cli)
file(MAKE_DIRECTORY ${_run_out})

add_test(NAME run/quickstart
         COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml -o ${_run_out}/quickstart.db)
set_tests_properties(run/quickstart PROPERTIES
  ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}"
  PASS_REGULAR_EXPRESSION "quickstart: 44 nodes, 1000 pods arrived, [0-9]+ scheduled")

add_test(NAME run/same-seed-same-bytes
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
  add_test(NAME run/error-${_name}
           COMMAND ${CMAKE_COMMAND} -DMODE=error -DDRASIM=$<TARGET_FILE:drasim>
                   -DSCENARIO=${CMAKE_SOURCE_DIR}/tests/scenarios/${_name}.yaml -DOUT=${_run_out}/${_name}.db
                   "-DEXPECT=${_expect}" -P ${_run_check})
  set_tests_properties(run/error-${_name} PROPERTIES ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}")
endforeach()
set_tests_properties(run/same-seed-same-bytes PROPERTIES ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}")

# Ctrl-C during the 1,000,000-pod scenario: exit non-zero, old database intact.
add_test(NAME run/interrupt-keeps-old-db
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/scenarios/interrupt.sh $<TARGET_FILE:drasim>
                 ${CMAKE_SOURCE_DIR}/scenarios/examples/bench-10k-nodes.yaml ${_run_out}/interrupted.db)
set_tests_properties(run/interrupt-keeps-old-db PROPERTIES
  ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}" PASS_REGULAR_EXPRESSION "interrupted run exited [1-9]")

# The small example scenarios run (the 1,000,000-pod benchmark scenario is left to tools/bench).
foreach(_ex gpu-packing time-slicing)
  add_test(NAME run/example-${_ex}
           COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/scenarios/examples/${_ex}.yaml -o ${_run_out}/${_ex}.db)
  set_tests_properties(run/example-${_ex} PROPERTIES ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}"
                       PASS_REGULAR_EXPRESSION "${_ex}: [0-9]+ nodes, [0-9]+ pods arrived")
endforeach()
