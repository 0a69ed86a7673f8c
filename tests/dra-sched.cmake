# DRA mode of `drasim run`: the DRA quickstart runs (and is deterministic),
# bad DRA scenarios exit 3 naming FILE:LINE:COL and leave the database alone.
set(_dra_check ${CMAKE_SOURCE_DIR}/tests/scenarios/check_run.cmake)
set(_dra_out ${CMAKE_CURRENT_BINARY_DIR}/dra-cli)
file(MAKE_DIRECTORY ${_dra_out})

add_test(NAME dra-sched/quickstart
         COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/scenarios/examples/dra-quickstart.yaml
                 -o ${_dra_out}/dra-quickstart.db)
set_tests_properties(dra-sched/quickstart PROPERTIES
  ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}"
  PASS_REGULAR_EXPRESSION "dra-quickstart: 44 nodes, 1000 pods arrived, 1000 scheduled")

add_test(NAME dra-sched/same-seed-same-bytes
         COMMAND ${CMAKE_COMMAND} -DMODE=twice -DDRASIM=$<TARGET_FILE:drasim> -DOTHER_SEED=7
                 -DSCENARIO=${CMAKE_SOURCE_DIR}/scenarios/examples/dra-quickstart.yaml -DOUT=${_dra_out}/det.db
                 -P ${_dra_check})
set_tests_properties(dra-sched/same-seed-same-bytes PROPERTIES ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}")

foreach(_case
    "dra_unserved|dra_unserved.yaml:12:5: pod group 'mig': extended resource nvidia.com/mig-1g.5gb is not served"
    "dra_bad_claim|dra_bad_claim.yaml:20:92: unknown field 'cont' in ResourceClaimTemplate g/gpu")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _expect)
  add_test(NAME dra-sched/error-${_name}
           COMMAND ${CMAKE_COMMAND} -DMODE=error -DDRASIM=$<TARGET_FILE:drasim>
                   -DSCENARIO=${CMAKE_SOURCE_DIR}/tests/scenarios/${_name}.yaml -DOUT=${_dra_out}/${_name}.db
                   "-DEXPECT=${_expect}" -P ${_dra_check})
  set_tests_properties(dra-sched/error-${_name} PROPERTIES ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}")
endforeach()

# The OpenB default experiment in DRA mode (GPUs as shared devices with a milli capacity).
add_test(NAME dra-sched/openb-default-dra
         COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/scenarios/openb/default-dra.yaml --policy bestfit
                 --seed 43 -o ${_dra_out}/openb-dra.db)
set_tests_properties(dra-sched/openb-default-dra PROPERTIES
  PASS_REGULAR_EXPRESSION "openb-default-dra: 1213 nodes, [0-9]+ pods arrived.*policy bestfit: 130% of GPU capacity arrived; 9[0-9][.][0-9]+% of GPUs allocated")
