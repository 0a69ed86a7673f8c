# `drasim inventory` end to end: golden output, error exit codes (tests/inventory/run_cli.cmake
# checks every exit code and fails with a message).
drasim_cli_test(NAME inventory/cli RAW
  COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DSRC=${CMAKE_SOURCE_DIR}
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/inventory-cli -P ${CMAKE_SOURCE_DIR}/tests/inventory/run_cli.cmake)
