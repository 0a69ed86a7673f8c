# CEL selectors that do not compile are input errors at load (issue 12;
# sched/dra/dra_selectors.c): exit 3, the expression's FILE:LINE:COL (a recorded
# DeviceClass: the object's; Lua: the script's line), no database written.
set(_cel_out ${CMAKE_CURRENT_BINARY_DIR}/cel-load-cli)
set(_cel_src ${CMAKE_SOURCE_DIR}/tests/cel-load)
file(MAKE_DIRECTORY ${_cel_out})

drasim_cli_test(NAME cel-load/bad-cel-claim
  COMMAND run ${_cel_src}/bad-cel.yaml -o ${_cel_out}/bad-cel.db
  EXIT 3
  EXPECT "bad-cel[.]yaml:29:50: gpu[.]dra claim train/gpus: CEL selector does not compile: .*Syntax error"
  FILE_ABSENT ${_cel_out}/bad-cel.db ${_cel_out}/bad-cel.db.tmp-*)
drasim_cli_test(NAME cel-load/bad-cel-shared-claim
  COMMAND run ${_cel_src}/bad-cel-shared.yaml -o ${_cel_out}/bad-cel-shared.db
  EXIT 3
  EXPECT "bad-cel-shared[.]yaml:23:29: workload[.]resourceClaims team-gpu: CEL selector does not compile: .*undeclared reference to 'dev'"
  FILE_ABSENT ${_cel_out}/bad-cel-shared.db)
drasim_cli_test(NAME cel-load/bad-cel-device-class
  COMMAND run ${_cel_src}/bad-class-cel.yaml -o ${_cel_out}/bad-class.db
  EXIT 3
  EXPECT "inv-bad-class[.]yaml:52:1: DeviceClass mig[.]nvidia[.]com: spec[.]selectors[[]0[]][.]cel[.]expression: CEL selector does not compile"
  FILE_ABSENT ${_cel_out}/bad-class.db)
drasim_cli_test(NAME cel-load/bad-cel-lua
  COMMAND run ${_cel_src}/lua-bad-cel.yaml -o ${_cel_out}/lua-bad-cel.db
  EXIT 3
  EXPECT "lua_bad_cel[.]lua:2: drasim[.]submit: gpu[.]dra claim lua/gpu: CEL selector does not compile"
  FILE_ABSENT ${_cel_out}/lua-bad-cel.db)
