# Recorded inventories: write the quickstart's inventory, read it back as
# `cluster.inventory`, and require identical results.
drasim_cli_test(NAME recorded/quickstart-same-run RAW
  COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DSCENARIO=${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml
          -DWORK=${CMAKE_CURRENT_BINARY_DIR}/recorded-quickstart -P ${CMAKE_CURRENT_SOURCE_DIR}/recorded/same_run.cmake)
