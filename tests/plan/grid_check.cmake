# grid_check.cmake -- `drasim plan` against the full grid (tests/plan.cmake):
# `drasim check` at every point of big=1..8 x small=1..8 (exit 0 = passes),
# the passing point with the fewest nodes (ties: lexicographically smallest)
# must be plan's answer, and plan must probe at most a third of the grid.
#   cmake -DDRASIM=... -DDIR=tests/plan -P grid_check.cmake
set(args ${DIR}/plan.yaml --expect ${DIR}/slo.yaml --seeds 1..2)
set(best "")
set(best_n 1000)
foreach(b RANGE 1 8)
  foreach(s RANGE 1 8)
    execute_process(COMMAND ${DRASIM} check ${args} --set cluster.nodePools.big.count=${b}
                            --set cluster.nodePools.small.count=${s} -q
                    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(rc GREATER 1)
      message(FATAL_ERROR "drasim check big=${b} small=${s} exited ${rc}")
    endif()
    math(EXPR n "${b} + ${s}")
    if(rc EQUAL 0 AND n LESS best_n)
      set(best_n ${n})
      set(best "big=${b} small=${s}")
    endif()
  endforeach()
endforeach()
execute_process(COMMAND ${DRASIM} plan ${args} --vary big=1..8 --vary small=1..8 -j 2
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message(STATUS "grid answer: ${best} (${best_n} nodes)\n${out}")
if(best STREQUAL "")
  message(FATAL_ERROR "no grid point passes: the test checks nothing")
endif()
if(NOT rc EQUAL 0 OR NOT out MATCHES "answer: ${best} [(]${best_n} nodes[)] after ([0-9]+) probes")
  message(FATAL_ERROR "plan's answer differs from the grid's (${best})")
endif()
if(CMAKE_MATCH_1 GREATER 21)
  message(FATAL_ERROR "plan probed ${CMAKE_MATCH_1} points, more than a third of the grid's 64")
endif()
