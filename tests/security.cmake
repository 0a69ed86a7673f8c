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
