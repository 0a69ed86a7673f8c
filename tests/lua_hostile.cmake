# CLI tests of the Lua sandbox against hostile and careless input (issue 10):
# a directory as the script, Ctrl-C and the wall-clock limit stopping an
# endless loop that has a practically unlimited instruction budget, and a
# non-scalar key in workload.lua.args. The CPU bombs, re-entry and argument
# checks are unit tests (tests/unit/test_lua_hostile.c) and fuzz seeds
# (tests/fuzz/corpus/lua_scripts/repro_*).
set(_lh_dir ${CMAKE_SOURCE_DIR}/tests/lua)
set(_lh_out ${CMAKE_CURRENT_BINARY_DIR}/lua-hostile)
file(MAKE_DIRECTORY ${_lh_out})

drasim_cli_test(NAME lua-hostile/directory-as-script
  COMMAND run ${_lh_dir}/hostile-dir.yaml -o ${_lh_out}/dir.db
  EXIT 3
  EXPECT "drasim run: lua: [^\n]*tests/lua/[.][.]/lua: is a directory"
  FILE_ABSENT ${_lh_out}/dir.db)

drasim_cli_test(NAME lua-hostile/args-complex-key
  COMMAND run ${_lh_dir}/hostile-args-key.yaml -o ${_lh_out}/args.db
  EXIT 3
  EXPECT "hostile-args-key[.]yaml:15:9: workload[.]lua[.]args: map keys must be scalars"
  FILE_ABSENT ${_lh_out}/args.db)

# An endless loop with a 10^15 instruction budget: the 1 s wall-clock limit stops it.
drasim_cli_test(NAME lua-hostile/time-limit
  COMMAND run ${_lh_dir}/hostile-time-limit.yaml -o ${_lh_out}/time.db
  EXIT 3
  EXPECT "hostile_cpu[.]lua:[0-9]+: time limit exceeded [(]1[.]0 s of wall time in one callback"
  FILE_ABSENT ${_lh_out}/time.db
  TIMEOUT 30)

# The same loop with a 1 h time limit: Ctrl-C (SIGINT after 1 s) stops it; exit 2, nothing written.
drasim_cli_test(NAME lua-hostile/ctrl-c-stops-a-loop
  RAW COMMAND sh ${_lh_dir}/ctrl_c.sh $<TARGET_FILE:drasim> ${_lh_dir}/hostile-ctrl-c.yaml ${_lh_out}/ctrl-c.db
  EXIT 2
  EXPECT "drasim run: interrupted"
  REJECT "lua error"
  FILE_ABSENT ${_lh_out}/ctrl-c.db
  TIMEOUT 30)
