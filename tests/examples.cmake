# The examples the README shows keep working.
drasim_cli_test(NAME examples/allocate-mig
  COMMAND allocate --stats ${CMAKE_SOURCE_DIR}/scenarios/examples/allocate-mig.yaml
  EXPECT "name: notebook.*device: gpu-0-mig-1g10gb-[0-9]+-0"
         "expression: device.attributes.'gpu.nvidia.com'.[.]profile == '1g.10gb'")
drasim_cli_test(NAME examples/lua-mix
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/lua-mix.yaml -o ${CMAKE_CURRENT_BINARY_DIR}/examples-lua-mix.db
  EXPECT "lua-mix: 44 nodes, 649 pods arrived, 631 scheduled, 18 pending at end")
