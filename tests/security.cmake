# Hostile and careless input to the commands that write (issue 10, part A):
# labels that reach gnuplot, HTML and JUnit; where -o may write.
include(${CMAKE_SOURCE_DIR}/tests/lib/cli_test.cmake)
set(_sec ${CMAKE_CURRENT_BINARY_DIR}/security)
file(MAKE_DIRECTORY ${_sec})
set(_sec_qs ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml)
find_program(_sec_gnuplot gnuplot)
find_program(_sec_sqlite3 sqlite3)

# ---- every label source holds backquotes, $(...), quotes, newlines: no command runs
if(_sec_sqlite3)
  drasim_cli_test(NAME security/hostile-db RAW
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/security/hostile_db.sh $<TARGET_FILE:drasim> ${_sec_qs} ${_sec}/hostile.db
    WORKDIR ${_sec} FILE_EXISTS ${_sec}/hostile.db)
  set(_plots)
  if(_sec_gnuplot)
    set(_plots "r/compare_gpu_alloc_pct.png" "r/alloc_by_model.svg" "r/alloc_by_resource.png" "r/gpu_alloc.svg")
  endif()
  drasim_cli_test(NAME security/report-hostile-labels
    COMMAND report hostile.db -o r WORKDIR ${_sec} DEPENDS security/hostile-db
    EXPECT "r/index\\.html: 4 runs"
    REJECT "gnuplot failed" "warning"
    FILE_EXISTS r/index.html r/plots.gp ${_plots}
    FILE_ABSENT PWNED_name PWNED_dollar PWNED_mode PWNED_policy PWNED_param PWNED_model PWNED_res PWNED_metric
                PWNED_column r/PWNED_name r/PWNED_dollar r/PWNED_mode r/PWNED_policy r/PWNED_param r/PWNED_model
                r/PWNED_res r/PWNED_metric r/PWNED_column x y ../x ../y)
endif()

# the issue's reproducer, verbatim
drasim_cli_test(NAME security/repro-sweep-backquote
  COMMAND sweep ${_sec_qs} --set stop.time=1h -q --param "metadata.name=demo`touch PWNED`,other" -o s.db
  WORKDIR ${_sec}/repro FILE_EXISTS s.db)
drasim_cli_test(NAME security/repro-report-backquote
  COMMAND report s.db -o r WORKDIR ${_sec}/repro DEPENDS security/repro-sweep-backquote
  EXPECT "r/index\\.html: 2 runs" FILE_EXISTS r/index.html FILE_ABSENT PWNED r/PWNED)

# ---- -o: where a command may write (store/output_path.c, docs/SECURITY.md)
set(_o ${_sec}/out)
file(MAKE_DIRECTORY ${_o}/adir)
file(WRITE ${_o}/notes.txt "precious notes\n")
file(WRITE ${_o}/empty.db "")
configure_file(${_sec_qs} ${_o}/scenario.yaml COPYONLY)
# devices, pipes: refused, even with --force (as root, a rename made /dev/null a regular
# file). /dev/zero and a FIFO of the test's own stand in for /dev/null, which other
# programs on a shared machine may have damaged.
drasim_cli_test(NAME security/o-device COMMAND run ${_sec_qs} -o /dev/zero --force EXIT 2
  EXPECT "/dev/zero: is a character device; -o takes a regular file or a new path" REJECT "pods arrived")
drasim_cli_test(NAME security/o-fifo RAW
  COMMAND sh -c "rm -f fifo && mkfifo fifo && ! $0 run $1 -o fifo --force && test -p fifo && echo still-a-fifo"
          $<TARGET_FILE:drasim> ${_sec_qs}
  WORKDIR ${_o} EXPECT "fifo: is a named pipe; -o takes a regular file or a new path" "still-a-fifo")
drasim_cli_test(NAME security/junit-device
  COMMAND check ${_sec_qs} --expect ${CMAKE_SOURCE_DIR}/tests/check/quickstart-pass.yaml --junit /dev/zero
  EXIT 2 EXPECT "/dev/zero: is a character device; --junit takes a regular file or a new path")
# an existing directory, a missing parent: refused before the run (no summary printed)
drasim_cli_test(NAME security/o-directory COMMAND run ${_sec_qs} -o ${_o}/adir EXIT 2
  EXPECT "adir: is a directory; -o takes a regular file or a new path" REJECT "pods arrived" TIMEOUT 10)
drasim_cli_test(NAME security/o-missing-parent COMMAND run ${_sec_qs} -o ${_o}/no/such/x.db EXIT 2
  EXPECT "x\\.db: cannot write: directory .*/no/such: No such file or directory" REJECT "pods arrived")
# the scenario itself: refused, even with --force; the file is unchanged
drasim_cli_test(NAME security/o-scenario COMMAND run scenario.yaml -o scenario.yaml --force EXIT 2 WORKDIR ${_o}
  EXPECT "scenario\\.yaml: is an input of this command; choose another output path" REJECT "pods arrived")
drasim_cli_test(NAME security/o-scenario-unchanged RAW COMMAND cmp ${_sec_qs} ${_o}/scenario.yaml
  DEPENDS security/o-scenario)
# the scenario's Lua script (found while the run reads it): refused before the rename
drasim_cli_test(NAME security/o-lua-script
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/lua-mix.yaml --set stop.time=1h -q --force
          -o ${CMAKE_SOURCE_DIR}/lua/examples/mix.lua
  EXIT 2 EXPECT "mix\\.lua: is the input file .*mix\\.lua of this command; choose another output path")
drasim_cli_test(NAME security/o-lua-script-unchanged RAW COMMAND git -C ${CMAKE_SOURCE_DIR} diff --quiet --exit-code -- lua/examples/mix.lua
  DEPENDS security/o-lua-script)
# a file that is not a drasim database: refused without --force
drasim_cli_test(NAME security/o-foreign-file COMMAND run ${_sec_qs} -o notes.txt EXIT 2 WORKDIR ${_o}
  EXPECT "notes\\.txt: exists and is not a drasim results database; choose another path, or add --force")
drasim_cli_test(NAME security/o-foreign-file-force COMMAND run ${_sec_qs} --set stop.time=1h -q -o forced.txt --force
  WORKDIR ${_o} SQL ${_o}/forced.txt "SELECT count(*) FROM runs" "^1$")
drasim_cli_test(NAME security/o-empty-file COMMAND run ${_sec_qs} --set stop.time=1h -q -o empty.db WORKDIR ${_o}
  SQL ${_o}/empty.db "SELECT count(*) FROM runs" "^1$")
# a drasim database is replaced; a concurrent writer gets an error at once
drasim_cli_test(NAME security/o-replace-db COMMAND run ${_sec_qs} --set stop.time=1h --seeds 1..2 -q -o empty.db
  WORKDIR ${_o} DEPENDS security/o-empty-file SQL ${_o}/empty.db "SELECT count(*) FROM runs" "^2$"
  FILE_ABSENT empty.db.lock)
drasim_cli_test(NAME security/o-concurrent RAW
  COMMAND flock ${_o}/busy.db.lock $<TARGET_FILE:drasim> run ${_sec_qs} -o ${_o}/busy.db
  EXIT 2 EXPECT "busy\\.db: another drasim process .*is writing it; wait for it to finish or choose another output path"
  REJECT "pods arrived" FILE_ABSENT ${_o}/busy.db)
# sweep: the same rules, for OUT and, with --split, every point's database
file(MAKE_DIRECTORY ${_o}/split)
file(WRITE ${_o}/split/scheduling.scoring=MostAllocated.db "not a database\n")
drasim_cli_test(NAME security/sweep-foreign-point
  COMMAND sweep ${_sec_qs} --param scheduling.scoring=LeastAllocated,MostAllocated --split -o ${_o}/split
  EXIT 2 EXPECT "MostAllocated\\.db: exists and is not a drasim results database" REJECT "point 1")
drasim_cli_test(NAME security/sweep-o-scenario COMMAND sweep scenario.yaml --param seed=1,2 -o scenario.yaml --force
  WORKDIR ${_o} EXIT 2 EXPECT "scenario\\.yaml: is an input of this command")
# report: a new, empty or drasim report directory; never a file
drasim_cli_test(NAME security/report-into-file COMMAND report ${_sec}/repro/s.db -o ${_o}/notes.txt
  EXIT 2 DEPENDS security/repro-sweep-backquote EXPECT "notes\\.txt: exists and is a file, not a directory")
drasim_cli_test(NAME security/report-foreign-dir-setup RAW
  COMMAND sh -c "rm -rf foreign-dir && mkdir foreign-dir && echo mine > foreign-dir/keep.txt" WORKDIR ${_o})
drasim_cli_test(NAME security/report-foreign-dir COMMAND report ${_sec}/repro/s.db -o ${_o}/foreign-dir
  EXIT 2 DEPENDS security/repro-sweep-backquote security/report-foreign-dir-setup
  EXPECT "foreign-dir: the directory is not empty and holds no drasim report; .* or add --force"
  FILE_ABSENT ${_o}/foreign-dir/index.html)
drasim_cli_test(NAME security/report-foreign-dir-force COMMAND report ${_sec}/repro/s.db -o ${_o}/foreign-dir --force
  DEPENDS security/report-foreign-dir FILE_EXISTS ${_o}/foreign-dir/index.html ${_o}/foreign-dir/keep.txt)
drasim_cli_test(NAME security/report-again COMMAND report ${_sec}/repro/s.db -o ${_o}/foreign-dir
  DEPENDS security/report-foreign-dir-force EXPECT "index\\.html: 2 runs")
# inventory and check --junit: a file they wrote, or --force
drasim_cli_test(NAME security/inventory-foreign COMMAND inventory ${_sec_qs} -o ${_o}/notes.txt EXIT 2
  EXPECT "notes\\.txt: exists and was not written by this command; choose another path, or add --force")
drasim_cli_test(NAME security/inventory-scenario COMMAND inventory scenario.yaml -o scenario.yaml --force
  WORKDIR ${_o} EXIT 2 EXPECT "scenario\\.yaml: is an input of this command")
drasim_cli_test(NAME security/inventory-twice RAW
  COMMAND sh -c "$0 inventory $1 -o inv.yaml && $0 inventory $1 -o inv.yaml && head -1 inv.yaml"
          $<TARGET_FILE:drasim> ${_sec_qs}
  WORKDIR ${_o} EXPECT "^# generated by drasim inventory")
drasim_cli_test(NAME security/junit-foreign
  COMMAND check ${_sec_qs} --expect ${CMAKE_SOURCE_DIR}/tests/check/quickstart-pass.yaml --junit ${_o}/notes.txt
  EXIT 2 EXPECT "drasim check: .*notes\\.txt: exists and was not written by this command" REJECT "checks,")
drasim_cli_test(NAME security/junit-is-expect
  COMMAND check ${_sec_qs} --expect ${_o}/expect.yaml --junit ${_o}/expect.yaml --force
  EXIT 2 EXPECT "expect\\.yaml: is an input of this command")
configure_file(${CMAKE_SOURCE_DIR}/tests/check/quickstart-pass.yaml ${_o}/expect.yaml COPYONLY)

# ---- signals: no OUT.tmp-<pid> or OUT.lock left (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ, SIGPIPE)
drasim_cli_test(NAME security/signals RAW
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/security/signal_cleanup.sh $<TARGET_FILE:drasim> ${_sec_qs} ${_sec}/signals
  EXPECT "all signals: ok" TIMEOUT 300)

# ---- messages that say what is wrong
set(_m ${_sec}/messages)
file(MAKE_DIRECTORY ${_m})
drasim_cli_test(NAME security/msg-corrupt-db-setup RAW
  COMMAND sh -c "head -c 30000 $0 > trunc.db && echo 'just text' > text.db && cp $0 nosamples.db && sqlite3 nosamples.db 'DELETE FROM samples' && sqlite3 nosamples.db 'DELETE FROM sample_resources'"
          ${_sec}/repro/s.db
  WORKDIR ${_m} DEPENDS security/repro-sweep-backquote)
drasim_cli_test(NAME security/msg-corrupt-db COMMAND report trunc.db -o r1 WORKDIR ${_m} EXIT 3
  DEPENDS security/msg-corrupt-db-setup
  EXPECT "trunc\\.db: the database is corrupt \\(damaged or truncated\\)" REJECT "not a drasim results database")
drasim_cli_test(NAME security/msg-corrupt-db-compare COMMAND compare trunc.db trunc.db WORKDIR ${_m} EXIT 3
  DEPENDS security/msg-corrupt-db-setup EXPECT "trunc\\.db: the database is corrupt")
drasim_cli_test(NAME security/msg-not-sqlite COMMAND report text.db -o r2 WORKDIR ${_m} EXIT 3
  DEPENDS security/msg-corrupt-db-setup EXPECT "text\\.db: not an SQLite database, so not a drasim results database")
drasim_cli_test(NAME security/msg-db-directory COMMAND report ${_m} -o r3 WORKDIR ${_m} EXIT 3
  EXPECT "messages: is a directory, not a results database")
drasim_cli_test(NAME security/msg-scenario-directory COMMAND run ${_m} -o d.db WORKDIR ${_m} EXIT 3
  EXPECT "messages: is a directory" REJECT "read error")
drasim_cli_test(NAME security/msg-expect-set
  COMMAND check ${_sec_qs} --expect ${CMAKE_SOURCE_DIR}/tests/security/expect-bad-set.yaml EXIT 3
  EXPECT "expect-bad-set\\.yaml:7:3: set cluster\\.bogus\\.field:1:[0-9]+: unknown field 'bogus' in cluster")
drasim_cli_test(NAME security/msg-no-samples COMMAND report nosamples.db -o r4 WORKDIR ${_m}
  DEPENDS security/msg-corrupt-db-setup
  EXPECT "nosamples\\.db: no time series plots: the database has no samples \\(table samples is empty\\)"
         "r4/index\\.html: 2 runs"
  REJECT "gnuplot failed" FILE_EXISTS r4/index.html)
# a symbolic link planted in a report directory does not redirect a write
drasim_cli_test(NAME security/report-planted-link RAW
  COMMAND sh -c "rm -rf planted victim.txt && mkdir planted && echo victim > victim.txt && echo '# generated by drasim report' > planted/plots.gp && ln -s ../victim.txt planted/index.html && ! $0 report $1 -o planted && grep -qx victim victim.txt && echo victim-intact"
          $<TARGET_FILE:drasim> ${_sec}/repro/s.db
  WORKDIR ${_o} DEPENDS security/repro-sweep-backquote EXPECT "planted/index\\.html: cannot write" "victim-intact")
# compare prints database text to a terminal: no control characters (escape sequences, newlines)
string(ASCII 27 _esc)
string(ASCII 7 _bel)
if(_sec_sqlite3)
  drasim_cli_test(NAME security/compare-hostile-labels COMMAND compare hostile.db hostile.db
    WORKDIR ${_sec} DEPENDS security/hostile-db
    EXPECT "dra`touch PWNED_mode`\\?x" "\\?\\[2J\\?\\]0;title\\?"
    REJECT "${_esc}" "${_bel}")
endif()
