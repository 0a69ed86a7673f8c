# Placement beyond upstream (docs/PLACEMENT.md): the dynamic-MIG example runs
# with fragmentation-aware placement, deterministically; other policies still
# need a trace workload. (tests/place/mig-1gpu.yaml sets policy fgd itself.)
set(_place_out ${CMAKE_CURRENT_BINARY_DIR}/place-cli)
file(MAKE_DIRECTORY ${_place_out})

add_test(NAME place/dra-mig-frag-fgd
         COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/scenarios/examples/dra-mig-frag.yaml --policy fgd
                 -o ${_place_out}/mig-fgd.db)
set_tests_properties(place/dra-mig-frag-fgd PROPERTIES
  ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}"
  PASS_REGULAR_EXPRESSION "dra-mig-frag: 4 nodes, [0-9]+ pods arrived, [0-9]+ scheduled")

add_test(NAME place/mig-same-seed-same-bytes
         COMMAND ${CMAKE_COMMAND} -DMODE=twice -DDRASIM=$<TARGET_FILE:drasim> -DOTHER_SEED=7
                 -DSCENARIO=${CMAKE_SOURCE_DIR}/tests/place/mig-1gpu.yaml -DOUT=${_place_out}/det.db
                 -P ${CMAKE_SOURCE_DIR}/tests/scenarios/check_run.cmake)
set_tests_properties(place/mig-same-seed-same-bytes PROPERTIES ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}")

add_test(NAME place/other-policy-needs-trace
         COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/scenarios/examples/dra-mig-frag.yaml --policy bestfit
                 -o ${_place_out}/bad.db)
set_tests_properties(place/other-policy-needs-trace PROPERTIES
  ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}"
  PASS_REGULAR_EXPRESSION "--policy needs a trace workload")
