# OpenB trace runs through the CLI (the reduced published-result check is the
# unit test test_openb_repro): a full default run, a time replay, same seed
# same bytes, bad inputs naming FILE:LINE[:COL] with exit code 3.
set(_openb_check ${CMAKE_SOURCE_DIR}/tests/scenarios/check_run.cmake)
set(_openb_out ${CMAKE_CURRENT_BINARY_DIR}/openb-cli)
file(MAKE_DIRECTORY ${_openb_out})

add_test(NAME openb/default-bestfit
         COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/scenarios/openb/default.yaml --policy bestfit --seed 43
                 -o ${_openb_out}/default.db)
set_tests_properties(openb/default-bestfit PROPERTIES
  PASS_REGULAR_EXPRESSION "openb-default: 1213 nodes, [0-9]+ pods arrived.*policy bestfit: 130% of GPU capacity arrived; 9[0-9][.][0-9]+% of GPUs allocated")

add_test(NAME openb/replay-small
         COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/tests/openb/replay-small.yaml -o ${_openb_out}/replay.db)
set_tests_properties(openb/replay-small PROPERTIES
  PASS_REGULAR_EXPRESSION "openb-replay-small: 2 nodes, 4 pods arrived, 3 scheduled, 1 pending at end [(]1 unschedulable[)].*wait mean 10[.]0 s, p99 30[.]0 s")

add_test(NAME openb/same-seed-same-bytes
         COMMAND ${CMAKE_COMMAND} -DMODE=twice -DDRASIM=$<TARGET_FILE:drasim> -DOTHER_SEED=51
                 -DSCENARIO=${CMAKE_SOURCE_DIR}/scenarios/openb/default.yaml -DOUT=${_openb_out}/det.db -P ${_openb_check})

foreach(_case
    "bad-pods|bad_pods.csv:3: a GPU-sharing pod [(]gpu_milli 300 < 1000[)] must ask for exactly 1 GPU, not 2"
    "bad-policy|bad-policy.yaml:9:11: scheduling.policy: expected one of random, dotprod")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _expect)
  add_test(NAME openb/error-${_name}
           COMMAND ${CMAKE_COMMAND} -DMODE=error -DDRASIM=$<TARGET_FILE:drasim>
                   -DSCENARIO=${CMAKE_SOURCE_DIR}/tests/openb/${_name}.yaml -DOUT=${_openb_out}/${_name}.db
                   "-DEXPECT=${_expect}" -P ${_openb_check})
endforeach()

# The default trace on its own timestamps: everything fits, at most ~1 % of the GPUs in use.
add_test(NAME openb/default-replay
         COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/scenarios/openb/default-replay.yaml -o ${_openb_out}/replay-default.db)
set_tests_properties(openb/default-replay PROPERTIES
  PASS_REGULAR_EXPRESSION "8152 pods arrived, 8152 scheduled, 0 pending at end.*peak 1[.]1%")
