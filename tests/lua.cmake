# CLI tests of the Lua workload generators (docs/LUA.md): the example
# generator runs, the same seed gives the same database, and sandbox escapes
# make `drasim run` fail cleanly (exit 3, script:line in the message, no
# database written). The API itself is tested in tests/unit/test_lua.c.
set(_lua_out ${CMAKE_CURRENT_BINARY_DIR}/lua-cli)
file(MAKE_DIRECTORY ${_lua_out})

add_test(NAME lua/example-mix
         COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/scenarios/examples/lua-mix.yaml -o ${_lua_out}/mix.db)
set_tests_properties(lua/example-mix PROPERTIES
  ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}"
  PASS_REGULAR_EXPRESSION "lua-mix: 44 nodes, [0-9]+ pods arrived, [0-9]+ scheduled")

add_test(NAME lua/example-trace
         COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/scenarios/examples/lua-trace.yaml -o ${_lua_out}/trace.db)
set_tests_properties(lua/example-trace PROPERTIES
  ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}"
  PASS_REGULAR_EXPRESSION "lua-trace: 20 nodes, [0-9]+ pods arrived, [0-9]+ scheduled")

add_test(NAME lua/same-seed-same-bytes
         COMMAND ${CMAKE_COMMAND} -DMODE=twice -DDRASIM=$<TARGET_FILE:drasim> -DOTHER_SEED=7
                 -DSCENARIO=${CMAKE_SOURCE_DIR}/scenarios/examples/lua-mix.yaml -DOUT=${_lua_out}/det.db
                 -P ${CMAKE_SOURCE_DIR}/tests/scenarios/check_run.cmake)
set_tests_properties(lua/same-seed-same-bytes PROPERTIES ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}")

foreach(_case
    "os_execute|escape_os_execute.lua:1: attempt to index a nil value .global 'os'.*stack traceback"
    "io_open|escape_io_open.lua:1: attempt to index a nil value .global 'io'."
    "require_os|module 'os' not found in the sandbox"
    "bytecode|attempt to load a binary chunk"
    "infinite_loop|escape_infinite_loop.lua:1: instruction limit exceeded"
    "pcall_loop|instruction limit exceeded"
    "memory_bomb|escape_memory_bomb.lua: lua error in the main chunk: memory limit exceeded near .*escape_memory_bomb.lua:1"
    "string_rep|memory limit exceeded"
    "pattern|escape_pattern.lua:3: pattern too complex for the sandbox"
    "error_line|error_line.lua:4: attempt to index a nil value.*stack traceback")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _expect)
  set(_script ${CMAKE_SOURCE_DIR}/tests/lua/escape_${_name}.lua)
  if(_name STREQUAL "error_line")
    set(_script ${CMAKE_SOURCE_DIR}/tests/lua/error_line.lua)
  endif()
  add_test(NAME lua/refused-${_name}
           COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DSCRIPT=${_script}
                   -DOUT=${_lua_out}/${_name}.db "-DEXPECT=${_expect}" -P ${CMAKE_SOURCE_DIR}/tests/lua/cli_check.cmake)
  set_tests_properties(lua/refused-${_name} PROPERTIES ENVIRONMENT "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}")
endforeach()

# Lua pods in DRA mode: their claims are allocated (GPU allocation > 0, pods wait for GPUs).
add_test(NAME lua/dra-claims
         COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/tests/lua/dra.yaml -o ${_lua_out}/dra.db)
set_tests_properties(lua/dra-claims PROPERTIES
  PASS_REGULAR_EXPRESSION "5 pods arrived, 5 scheduled.*GPU allocation 20[.]8% [(]peak 100[.]0%[)]; wait mean 464[.]0 s")
add_test(NAME lua/dra-unknown-shared-claim
         COMMAND $<TARGET_FILE:drasim> run ${CMAKE_SOURCE_DIR}/tests/lua/dra-unknown-shared.yaml -o ${_lua_out}/dra-bad.db)
set_tests_properties(lua/dra-unknown-shared-claim PROPERTIES
  PASS_REGULAR_EXPRESSION "dra_unknown_shared.lua:2: .*resourceClaimName nope is not in workload.resourceClaims")
