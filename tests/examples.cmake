# The examples the README shows keep working.
add_test(NAME examples/allocate-mig
  COMMAND $<TARGET_FILE:drasim> allocate --stats ${CMAKE_SOURCE_DIR}/scenarios/examples/allocate-mig.yaml)
set_tests_properties(examples/allocate-mig PROPERTIES
  PASS_REGULAR_EXPRESSION "name: notebook.*device: gpu-0-mig-1g10gb-[0-9]+-0")
add_test(NAME examples/lua-mix
  COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/scenarios/examples/lua-mix.yaml
          -o ${CMAKE_CURRENT_BINARY_DIR}/examples-lua-mix.db)
set_tests_properties(examples/lua-mix PROPERTIES
  PASS_REGULAR_EXPRESSION "lua-mix: 44 nodes, [0-9]+ pods arrived, [0-9]+ scheduled")
