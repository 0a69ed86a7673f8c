# crn_check.cmake -- common random numbers (docs/LUA.md): run SCENARIO twice,
# with pool `big` at 1 and at 4 nodes, and compare the pods of group `train`
# (names, arrival times, durations) with SQL: they must be the same set, while
# the fleet-dependent pods (retries drawn in on_finish, bursts drawn when
# nothing waits) do differ, so the runs really had different histories.
#   cmake -DDRASIM=... -DSQLITE3=... -DSCENARIO=... -DOUT=DIR -P crn_check.cmake
foreach(n 1 4)
  execute_process(COMMAND ${DRASIM} run ${SCENARIO} --set cluster.nodePools.big.count=${n} -o ${OUT}/crn${n}.db --force
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "drasim run (big=${n}) exited ${rc}: ${out}")
  endif()
endforeach()
function(sql out query)
  execute_process(COMMAND ${SQLITE3} -cmd "ATTACH '${OUT}/crn4.db' AS b" ${OUT}/crn1.db "${query}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE v ERROR_VARIABLE e OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "sqlite3 failed on ${query}: ${e}")
  endif()
  set(${out} "${v}" PARENT_SCOPE)
endfunction()
set(cols "name, arrival_ms, duration_ms")
sql(ntrain "SELECT count(*) FROM main.pods WHERE name LIKE 'train-%'")
sql(ntrain_b "SELECT count(*) FROM b.pods WHERE name LIKE 'train-%'")
sql(diff "SELECT count(*) FROM (SELECT ${cols} FROM main.pods WHERE name LIKE 'train-%' EXCEPT SELECT ${cols} FROM b.pods WHERE name LIKE 'train-%')")
sql(other "SELECT count(*) FROM (SELECT ${cols} FROM main.pods EXCEPT SELECT ${cols} FROM b.pods)")
message(STATUS "train pods ${ntrain} / ${ntrain_b}, training pods not in both runs ${diff}, all pods not in both ${other}")
if(ntrain LESS 100 OR NOT ntrain EQUAL ntrain_b OR NOT diff EQUAL 0)
  message(FATAL_ERROR "the training pods changed with the fleet: ${ntrain} vs ${ntrain_b} pods, ${diff} differ")
endif()
if(other EQUAL 0)
  message(FATAL_ERROR "the fleet changed nothing: the test no longer exercises fleet-dependent draws")
endif()
