# check.cmake -- run one shipped example in DRA mode and compare a hash of
# every table of its results database with the expectation (issue 31: the DRA
# bookkeeping's speed-ups must not change a single result).
#
#   cmake -DDRASIM=bin -DEXAMPLES=scenarios/examples -DNAME=dra-quickstart
#         -DEXPECTED=tests/dra-identical/expected/dra-quickstart.txt -DOUT=dir
#         [-DSEED=n] [-DWRITE=1 | -DEXPECT_DIFFERENT=1] -P check.cmake
#
# A line per table or view: "<table> <rows> <sha256 of its rows in rowid order (the
# primary key's for WITHOUT ROWID tables, VIEW_ORDER_<view> for views), printed by sqlite3's quote mode,
# which keeps every bit of a REAL and tells NULL from text>". The run
# starts in the examples folder with the bare file name, so runs.scenario_file
# does not depend on the checkout's path. WRITE=1 writes EXPECTED instead of
# comparing (how the expectations were made, from a build of main 108609b);
# EXPECT_DIFFERENT=1 passes only when the run succeeds and some table differs
# (the self-test that the comparison can fail). Summary metrics added since
# 108609b (NEW_METRICS: new rows, every run writes them) are left out of the
# summary's hash; the rows that were there must stay as they were.
set(NEW_METRICS xid_pod_crashes xid_container_restarts xid_pods_failed xid_pods_lost gpu_hours_lost_xid
    gpu_hours_crashloop)   # issue 26: pods on a failed GPU (engine/sim_crash.c)
# Views are hashed too, in a fixed order: pod_labels, a table until issue 31
# made it a view over label_sets and pod_label_sets, in the order the table's
# covering index pod_labels_key(key, value) gave a bare SELECT *, so its line
# (rows and hash) is the table's.
set(VIEW_ORDER_pod_labels "key, value, run_id, pod_id")
# claim_allocations, a table until schema version 3 made it a view over claim_sets and
# pod_claim_sets, is hashed in the view's own order (its ORDER BY: the pod_claim_sets
# rows' order, each set's devices in order), which must be the table's rowid order.
set(VIEW_OWN_ORDER claim_allocations)
foreach(v DRASIM EXAMPLES NAME EXPECTED OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check.cmake: -D${v}= is required")
  endif()
endforeach()
set(db ${OUT}/dra-identical-${NAME}${SEED}.db)
set(args run -q ${NAME}.yaml --set scheduling.mode=dra -o ${db} --force)
if(DEFINED SEED)
  list(APPEND args --seed ${SEED})
endif()
execute_process(COMMAND ${DRASIM} ${args} WORKING_DIRECTORY ${EXAMPLES}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "drasim ${args} (in ${EXAMPLES}) exited with ${rc}:\n${out}")
endif()
execute_process(COMMAND sqlite3 ${db} "SELECT name || ' ' || (type = 'view' OR sql LIKE '%WITHOUT ROWID%') FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name"
                RESULT_VARIABLE rc OUTPUT_VARIABLE tables)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sqlite3 ${db}: cannot list the tables")
endif()
string(REPLACE "\n" ";" tables "${tables}")
set(got "")
foreach(t IN LISTS tables)
  if(t STREQUAL "")
    continue()
  endif()
  string(REPLACE " " ";" t "${t}")
  list(GET t 0 table)
  list(GET t 1 norowid)
  set(order "ORDER BY rowid")
  if(norowid)
    set(order "")
  endif()
  if(DEFINED VIEW_ORDER_${table})
    set(order "ORDER BY ${VIEW_ORDER_${table}}")
  endif()
  list(FIND VIEW_OWN_ORDER "${table}" _own)
  if(NOT _own EQUAL -1)
    set(order "")
  endif()
  set(where "")
  if(table STREQUAL "summary")
    list(JOIN NEW_METRICS "', '" _new)
    set(where "WHERE metric NOT IN ('${_new}')")
  endif()
  execute_process(COMMAND sqlite3 -cmd ".mode quote" ${db} "SELECT * FROM \"${table}\" ${where} ${order}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE rows)
  execute_process(COMMAND sqlite3 ${db} "SELECT count(*) FROM \"${table}\" ${where}" OUTPUT_VARIABLE n)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "sqlite3 ${db}: cannot read table ${table}")
  endif()
  string(STRIP "${n}" n)
  string(SHA256 h "${rows}")
  string(APPEND got "${table} ${n} ${h}\n")
endforeach()
if(WRITE)
  file(WRITE ${EXPECTED} "${got}")
  message(STATUS "wrote ${EXPECTED}")
  return()
endif()
file(READ ${EXPECTED} want)
if(EXPECT_DIFFERENT)
  if(got STREQUAL want)
    message(FATAL_ERROR "${NAME} with seed ${SEED}: the tables equal the expectation; the comparison cannot tell runs apart")
  endif()
  message(STATUS "${NAME} with seed ${SEED}: tables differ from ${EXPECTED}, as they must")
  return()
endif()
if(NOT got STREQUAL want)
  message(FATAL_ERROR "${NAME} in DRA mode: the results database differs from ${EXPECTED}\n"
                      "expected:\n${want}\ngot:\n${got}")
endif()
message(STATUS "${NAME} in DRA mode: every table as expected")
