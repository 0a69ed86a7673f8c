# Issue 31: the shipped examples that run in DRA mode within a few seconds,
# run with --set scheduling.mode=dra; every table of each results database must
# hash as it did on main 108609b, before the DRA bookkeeping was made faster
# (tests/dra-identical/expected/*.txt were written by tests/dra-identical/check.cmake
# with -DWRITE=1 and a build of 108609b). Examples that do not run in DRA mode
# (device-plugin-only resources, several seeds) or take longer (nvl72-racks-default:
# 0.5 s, 20 s under ASan on a loaded machine) are left out.
set(DRA_IDENTICAL_EXAMPLES autoscaler-diurnal dra-mig-frag dra-quickstart five-percent gang-holds
    gpu-failures gpu-failures-dp lua-job-wait lua-mix lua-notebooks lua-serving
    preemption-inference sidecar-gpu time-slicing)
foreach(ex IN LISTS DRA_IDENTICAL_EXAMPLES)
  add_test(NAME dra-identical/${ex}
           COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DEXAMPLES=${CMAKE_SOURCE_DIR}/scenarios/examples
                   -DNAME=${ex} -DEXPECTED=${CMAKE_CURRENT_SOURCE_DIR}/dra-identical/expected/${ex}.txt
                   -DOUT=${CMAKE_CURRENT_BINARY_DIR} -P ${CMAKE_CURRENT_SOURCE_DIR}/dra-identical/check.cmake)
  set_tests_properties(dra-identical/${ex} PROPERTIES ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}" TIMEOUT 120)
endforeach()
# the comparison can fail: another seed changes the tables
add_test(NAME dra-identical/other-seed-differs
         COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DEXAMPLES=${CMAKE_SOURCE_DIR}/scenarios/examples
                 -DNAME=dra-quickstart -DSEED=43 -DEXPECTED=${CMAKE_CURRENT_SOURCE_DIR}/dra-identical/expected/dra-quickstart.txt
                 -DEXPECT_DIFFERENT=1 -DOUT=${CMAKE_CURRENT_BINARY_DIR} -P ${CMAKE_CURRENT_SOURCE_DIR}/dra-identical/check.cmake)
set_tests_properties(dra-identical/other-seed-differs PROPERTIES ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}")
