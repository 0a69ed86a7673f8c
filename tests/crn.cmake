# Common random numbers (issue 12, item 5; docs/LUA.md "Random streams"): a Lua
# generator's workload does not change with the fleet. tests/crn/crn.lua draws
# in on_finish callbacks and when the queue drains; the training jobs it submits
# must be the same pods on 1 and on 4 nodes of pool `big`.
find_program(_crn_sqlite3 sqlite3)
if(_crn_sqlite3)
  set(_crn_out ${CMAKE_CURRENT_BINARY_DIR}/crn)
  file(MAKE_DIRECTORY ${_crn_out})
  drasim_cli_test(NAME crn/lua-fleet-independent RAW
    COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DSQLITE3=${_crn_sqlite3}
            -DSCENARIO=${CMAKE_SOURCE_DIR}/tests/crn/crn.yaml -DOUT=${_crn_out}
            -P ${CMAKE_SOURCE_DIR}/tests/crn/crn_check.cmake
    EXPECT "training pods not in both runs 0")
endif()
