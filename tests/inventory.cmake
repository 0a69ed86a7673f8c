# `drasim inventory` end to end: golden output, error exit codes (tests/inventory/).
add_test(NAME inventory/cli
         COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DSRC=${CMAKE_SOURCE_DIR}
                 -DOUT=${CMAKE_CURRENT_BINARY_DIR}/inventory-cli -P ${CMAKE_SOURCE_DIR}/tests/inventory/run_cli.cmake)
set_tests_properties(inventory/cli PROPERTIES ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}")
