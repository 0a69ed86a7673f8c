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
# Schema version 3: claim_allocations is a view over claim_results, claim_sets and
# pod_claim_sets. drasim merge copies tables, not views: the merged database gets
# its own view, and each run's rows there are the source's, in the same order
# (compared whole, as text).
set(_di ${CMAKE_CURRENT_BINARY_DIR})
drasim_cli_test(NAME dra-identical/claims-merged
  COMMAND merge ${_di}/dra-identical-dra-quickstart.db ${_di}/dra-identical-dra-quickstart43.db
          -o ${_di}/dra-identical-merged.db --force
  DEPENDS dra-identical/dra-quickstart dra-identical/other-seed-differs
  SQL ${_di}/dra-identical-merged.db "SELECT type FROM sqlite_master WHERE name = 'claim_allocations'" "^view$"
      ${_di}/dra-identical-merged.db "SELECT count(*) FROM claim_allocations" "^2040$")
set(_di_cols "pod_id, claim, request, driver, pool, device, share_id, consumed")
add_test(NAME dra-identical/claims-merged-rows
         COMMAND sh -c "sqlite3 -cmd '.mode quote' \"$0\" \"SELECT $2 FROM claim_allocations WHERE run_id = 2\" > \"$0.rows\" && sqlite3 -cmd '.mode quote' \"$1\" \"SELECT $2 FROM claim_allocations\" | cmp - \"$0.rows\" && echo same-rows"
                 ${_di}/dra-identical-merged.db ${_di}/dra-identical-dra-quickstart43.db "${_di_cols}")
set_tests_properties(dra-identical/claims-merged-rows PROPERTIES DEPENDS dra-identical/claims-merged
                     PASS_REGULAR_EXPRESSION "^same-rows")
