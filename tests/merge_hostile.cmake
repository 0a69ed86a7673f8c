# `drasim merge` refuses what would double-count or lose data (issue 25, finding 5),
# before it writes anything: the same database twice, overlapping shards (the
# same run in two files), a run id twice, tables or columns it would not carry.
# Inputs: the shards of tests/sweeps.cmake (sweeps/shards: s0.db .. s4.db).
set(_mh_sw ${CMAKE_CURRENT_BINARY_DIR}/sweeps)
set(_mh ${CMAKE_CURRENT_BINARY_DIR}/merge-hostile)
file(MAKE_DIRECTORY ${_mh})
set(_mh_qs ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml)

drasim_cli_test(NAME merge-hostile/same-db-twice
  COMMAND merge ${_mh_sw}/s0.db ${_mh_sw}/s1.db ${_mh_sw}/../sweeps/s0.db -o ${_mh}/twice.db
  DEPENDS sweeps/shards EXIT 3
  EXPECT "drasim merge: [^\n]*/s0[.]db and [^\n]*/[.][.]/sweeps/s0[.]db are the same database"
  FILE_ABSENT ${_mh}/twice.db*)
# two sweeps sharing seed 2 of the same point: the runs that overlap are named
drasim_cli_test(NAME merge-hostile/overlap-inputs RAW
  COMMAND sh -c "rm -f a.db b.db ab.db* ac.db* && $0 sweep $1 --param stop.time=10m --seeds 1..2 -q -o a.db && $0 sweep $1 --param stop.time=10m --seeds 2..3 -q -o b.db && cp a.db copy.db && echo ready"
          $<TARGET_FILE:drasim> ${_mh_qs}
  WORKDIR ${_mh} EXPECT "ready")
drasim_cli_test(NAME merge-hostile/overlapping-sweeps
  COMMAND merge a.db b.db -o ab.db WORKDIR ${_mh} DEPENDS merge-hostile/overlap-inputs EXIT 3
  EXPECT "drasim merge: a[.]db run 2 and b[.]db run 1 are the same run [(]scenario[|]mode[|]policy[|]sweep point 'quickstart[|]device-plugin[|]LeastAllocated[|]stop[.]time=10m', seed 2[)]: the databases overlap"
  FILE_ABSENT ${_mh}/ab.db*)
drasim_cli_test(NAME merge-hostile/copy-of-a-shard
  COMMAND merge a.db copy.db -o ac.db WORKDIR ${_mh} DEPENDS merge-hostile/overlap-inputs EXIT 3
  EXPECT "drasim merge: a[.]db run 1 and copy[.]db run 1 are the same run" FILE_ABSENT ${_mh}/ac.db*)
find_program(_mh_sqlite3 sqlite3)
if(_mh_sqlite3)
  # a run id twice (a runs table without its primary key), a table and a column
  # with names no drasim database has: refused, named, before any writing
  file(WRITE ${_mh}/dup.sql "CREATE TABLE r2 AS SELECT * FROM runs;\nDROP TABLE runs;\nALTER TABLE r2 RENAME TO runs;\nINSERT INTO runs SELECT * FROM runs WHERE run_id = 2;\n")
  drasim_cli_test(NAME merge-hostile/bad-inputs RAW
    COMMAND sh -c "rm -f dup.db odd-table.db odd-col.db dup-out.db* odd1.db* odd2.db* && cp a.db dup.db && cp a.db odd-table.db && cp a.db odd-col.db && sqlite3 dup.db < dup.sql && sqlite3 odd-table.db 'CREATE TABLE \"my notes\"(run_id INTEGER, note TEXT)' && sqlite3 odd-col.db 'ALTER TABLE samples ADD COLUMN \"gpu %\" REAL' && echo ready"
    WORKDIR ${_mh} DEPENDS merge-hostile/overlap-inputs EXPECT "ready")
  drasim_cli_test(NAME merge-hostile/duplicate-run-id
    COMMAND merge dup.db -o dup-out.db WORKDIR ${_mh} DEPENDS merge-hostile/bad-inputs EXIT 3
    EXPECT "drasim merge: dup[.]db: run id 2 appears 2 times in table runs" FILE_ABSENT ${_mh}/dup-out.db*)
  drasim_cli_test(NAME merge-hostile/odd-table
    COMMAND merge odd-table.db -o odd1.db WORKDIR ${_mh} DEPENDS merge-hostile/bad-inputs EXIT 3
    EXPECT "drasim merge: odd-table[.]db: table 'my notes' has a name no drasim database uses" FILE_ABSENT ${_mh}/odd1.db*)
  drasim_cli_test(NAME merge-hostile/odd-column
    COMMAND merge odd-col.db -o odd2.db WORKDIR ${_mh} DEPENDS merge-hostile/bad-inputs EXIT 3
    EXPECT "drasim merge: odd-col[.]db: column 'samples[.]gpu %' has a name no drasim database uses" FILE_ABSENT ${_mh}/odd2.db*)
endif()
