# CLI tests of the Lua workload generators (docs/LUA.md): the example
# generator runs, the same seed gives the same database, and sandbox escapes
# make `drasim run` fail cleanly (exit 3, script:line in the message, no
# database written). The API itself is tested in tests/unit/test_lua.c.
set(_lua_out ${CMAKE_CURRENT_BINARY_DIR}/lua-cli)
file(MAKE_DIRECTORY ${_lua_out})

include(${CMAKE_SOURCE_DIR}/tests/lib/run_facts.cmake)
drasim_run_facts(_facts ${_lua_out}/mix.db)
drasim_cli_test(NAME lua/example-mix
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/lua-mix.yaml -o ${_lua_out}/mix.db
  EXPECT "lua-mix: 44 nodes, 627 pods arrived, 610 scheduled, 17 pending at end [(]17 unschedulable[)]"
  SQL ${_facts})

drasim_run_facts(_facts ${_lua_out}/trace.db)
drasim_cli_test(NAME lua/example-trace
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/lua-trace.yaml -o ${_lua_out}/trace.db
  EXPECT "lua-trace: 20 nodes, 2783 pods arrived, 2783 scheduled, 0 pending at end [(]0 unschedulable[)]"
  SQL ${_facts})

drasim_cli_test(NAME lua/same-seed-same-bytes RAW
  COMMAND ${CMAKE_COMMAND} -DMODE=twice -DDRASIM=$<TARGET_FILE:drasim> -DOTHER_SEED=7
          -DSCENARIO=${CMAKE_SOURCE_DIR}/scenarios/examples/lua-mix.yaml -DOUT=${_lua_out}/det.db
          -P ${CMAKE_SOURCE_DIR}/tests/scenarios/check_run.cmake)

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
  drasim_cli_test(NAME lua/refused-${_name} RAW
    COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DSCRIPT=${_script}
            -DOUT=${_lua_out}/${_name}.db "-DEXPECT=${_expect}" -P ${CMAKE_SOURCE_DIR}/tests/lua/cli_check.cmake)
endforeach()

# Lua pods in DRA mode: their claims are allocated. By hand (tests/lua/dra_claims.lua):
# nb1..nb5 arrive at 10, 20, 30, 40, 50 s, run 600 s each, one GPU each, 2 GPUs.
#   nb1 10 s, nb2 20 s start at once; nb3 (30 s) and nb4 (40 s) fail, back-off 1 s;
#   nb1 ends 610 s -> nb3 starts (wait 580), nb4 tried and fails again (back-off to 611 s);
#   nb2 ends 620 s -> nb4 starts (wait 580), nb5 fails (back-off to 621 s);
#   nb3 ends 1210 s -> nb5 starts (wait 1160). Waits 0, 0, 580, 580, 1160:
#   mean 2320 / 5 = 464 s, p50 = 3rd = 580 s, p99 = 5th = 1160 s.
# GPU allocation: 5 x 600 GPU-s over 2 GPUs x 7200 s = 3000 / 14400 = 20.8333 %.
set(_db ${_lua_out}/dra.db)
drasim_run_facts(_facts ${_db})
drasim_cli_test(NAME lua/dra-claims
  COMMAND run ${CMAKE_SOURCE_DIR}/tests/lua/dra.yaml -o ${_db}
  EXPECT "5 pods arrived, 5 scheduled"
         "GPU allocation 20[.]8% [(]peak 100[.]0%[)][;] wait mean 464[.]0 s, p99 1160[.]0 s"
  SQL ${_facts}
      ${_db} "SELECT group_concat(wait_ms, ',') FROM (SELECT wait_ms FROM pods ORDER BY arrival_ms)" "^0,0,580000,580000,1160000$"
      ${_db} "SELECT printf('%.6f', value) FROM summary WHERE grp = '' AND metric = 'gpu_alloc_pct'" "^20[.]833333$"
      ${_db} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = '' AND metric IN ('wait_mean_s', 'wait_p50_s', 'wait_p99_s', 'wait_max_s')" "^wait_mean_s=464[.]0 wait_p50_s=580[.]0 wait_p99_s=1160[.]0 wait_max_s=1160[.]0$"
      ${_db} "SELECT count(*), count(DISTINCT pod_id) FROM claim_allocations" "^5[|]5$")
drasim_cli_test(NAME lua/dra-unknown-shared-claim
  COMMAND run ${CMAKE_SOURCE_DIR}/tests/lua/dra-unknown-shared.yaml -o ${_lua_out}/dra-bad.db
  EXIT 3
  EXPECT "dra_unknown_shared.lua:2: .*resourceClaimName nope is not in workload.resourceClaims"
  FILE_ABSENT ${_lua_out}/dra-bad.db ${_lua_out}/dra-bad.db.tmp-*)

# drasim.record / drasim.sample (tests/lua/record.lua): the exact summary and
# user_samples rows; the first user_gang_wait_s (10) is replaced by the last (150).
set(_db ${_lua_out}/record.db)
drasim_cli_test(NAME lua/record-sample
  COMMAND run ${CMAKE_SOURCE_DIR}/tests/lua/record.yaml -o ${_db}
  EXPECT "1 pods arrived, 1 scheduled"
  SQL ${_db} "SELECT group_concat(metric || '=' || value || '@' || grp, ' ') FROM (SELECT * FROM summary WHERE metric LIKE 'user%' ORDER BY grp, metric)" "^user_count=3[.]0@ user_gang_wait_s=150[.]0@ user_gang_wait_s=2[.]5@train$"
      ${_db} "SELECT group_concat(series || '/' || time_ms || '/' || value, ' ') FROM (SELECT * FROM user_samples ORDER BY rowid)" "^user_queue/0/1[.]0 user_queue/90000/4[.]5 user_other[.]x-1/90000/-2[.]0$"
      ${_db} "SELECT count(*) FROM summary WHERE grp = 'train' AND metric = 'wait_p50_s'" "^1$")
# drasim.evict (tests/lua/evict.lua checks return values and states itself):
# grace periods in the pods table and the eviction metrics (2 GPU-hours lost:
# two 1-GPU pods evicted after 1 h, owner none)
set(_db ${_lua_out}/evict.db)
drasim_cli_test(NAME lua/evict
  COMMAND run ${CMAKE_SOURCE_DIR}/tests/lua/evict.yaml -o ${_db}
  EXPECT "3 pods arrived, 3 scheduled"
  SQL ${_db} "SELECT group_concat(name || ':' || state || ':' || completion_ms || ':' || coalesce(reason, '-'), ' ') FROM (SELECT * FROM pods ORDER BY pod_id)" "^a:Deleted:3660000:Evicted b:Deleted:3630000:spot reclaim c:Succeeded:4260000:-$"
      ${_db} "SELECT group_concat(metric || '=' || value, ' ') FROM (SELECT * FROM summary WHERE grp = 'batch' AND metric IN ('evictions', 'evictions_drain', 'pods_lost', 'pods_replaced', 'gpu_hours_lost') ORDER BY metric)" "^evictions=2[.]0 evictions_drain=2[.]0 gpu_hours_lost=2[.]0 pods_lost=2[.]0 pods_replaced=0[.]0$"
      ${_db} "SELECT value FROM summary WHERE grp = 'wide' AND metric = 'evictions'" "^0[.]0$")
# bad arguments: a Lua error at the script's line, exit 3, no database
foreach(_case
    "record_collision|record_collision.lua:2: drasim.record: metric 'makespan_s': expected 'user_'"
    "record_bad_name|record_bad_name.lua:3: drasim.record: metric 'user_a b': expected"
    "record_long|record_long.lua:2: drasim.record: metric 'user_a+': expected"
    "record_nan|record_nan.lua:3: drasim.record: value: expected a finite number"
    "sample_inf|sample_inf.lua:3: drasim.sample: value: expected a finite number"
    "evict_bad_grace|evict_bad_grace.lua:2: drasim.evict: grace"
    "evict_bad_reason|evict_bad_reason.lua:2: drasim.evict: reason: expected a string")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _expect)
  drasim_cli_test(NAME lua/refused-${_name} RAW
    COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DSCRIPT=${CMAKE_SOURCE_DIR}/tests/lua/${_name}.lua
            -DOUT=${_lua_out}/${_name}.db "-DEXPECT=${_expect}" -P ${CMAKE_SOURCE_DIR}/tests/lua/cli_check.cmake)
endforeach()

# A script's random streams do not depend on the folder it is run from: the
# example copied into another, deeper folder draws the same pods (the stream
# of a timer is tagged by its script's base name, not its path).
add_test(NAME lua/draws-independent-of-folder
  COMMAND sh -c "d=$(mktemp -d) && mkdir -p \"$d/x/y/scenarios/examples\" \"$d/x/y/lua/examples\" && cp \"$0/scenarios/examples/lua-mix.yaml\" \"$d/x/y/scenarios/examples/\" && cp \"$0/lua/examples/\"*.lua \"$d/x/y/lua/examples/\" && \"$1\" run \"$d/x/y/scenarios/examples/lua-mix.yaml\" -o \"$d/m.db\"; r=$?; rm -rf \"$d\"; exit $r"
          ${CMAKE_SOURCE_DIR} $<TARGET_FILE:drasim>)
set_tests_properties(lua/draws-independent-of-folder PROPERTIES
  PASS_REGULAR_EXPRESSION "lua-mix: 44 nodes, 627 pods arrived, 610 scheduled")
