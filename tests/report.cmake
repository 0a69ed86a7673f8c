# CLI tests of drasim report / check / compare / sweep (tests/check/check_cli.cmake,
# which checks drasim's exit code in every mode; lists passed to it are comma-separated).
set(_rep_check ${CMAKE_SOURCE_DIR}/tests/check/check_cli.cmake)
set(_rep_out ${CMAKE_CURRENT_BINARY_DIR}/report-cli)
file(MAKE_DIRECTORY ${_rep_out})
find_program(DRASIM_GNUPLOT_EXE gnuplot)
if(DRASIM_GNUPLOT_EXE)
  set(_have_gp 1)
else()
  set(_have_gp 0)
endif()
set(_qs ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml)
if(DRASIM_GNUPLOT_EXE)
  # bar plots: each series' mean and min..max whiskers from its own columns
  drasim_cli_test(NAME report/bars-columns RAW
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/report/bars_columns.sh ${DRASIM_GNUPLOT_EXE} ${CMAKE_SOURCE_DIR} ${_rep_out}/bars
    EXPECT "(^|\n)10:8:12 5:4:6 20:19:21 7:6:9 ")
endif()

include(${CMAKE_SOURCE_DIR}/tests/lib/run_facts.cmake)
drasim_run_facts(_facts ${_rep_out}/quickstart.db)
drasim_cli_test(NAME report/quickstart-db
  COMMAND run ${_qs} -o ${_rep_out}/quickstart.db -q
  REJECT "."
  SQL ${_facts})
drasim_cli_test(NAME report/quickstart RAW
  COMMAND ${CMAKE_COMMAND} -DMODE=report -DDRASIM=$<TARGET_FILE:drasim> -DDB=${_rep_out}/quickstart.db
                 -DOUT=${_rep_out}/quickstart -DHAVE_GNUPLOT=${_have_gp} -DMIN_PLOTS=6
                 -DEXPECT_PLOTS=gpu_alloc,utilization,pending,wait_cdf,alloc_by_model,alloc_by_resource -P ${_rep_check})
set_tests_properties(report/quickstart PROPERTIES DEPENDS report/quickstart-db)
drasim_cli_test(NAME report/no-gnuplot RAW
  COMMAND ${CMAKE_COMMAND} -DMODE=nognuplot -DDRASIM=$<TARGET_FILE:drasim> -DDB=${_rep_out}/quickstart.db
                 -DOUT=${_rep_out}/nognuplot -P ${_rep_check})
set_tests_properties(report/no-gnuplot PROPERTIES DEPENDS report/quickstart-db)

# several configurations and seeds: a sweep, then its report with comparison plots
drasim_run_facts(_facts ${_rep_out}/sweep.db)
drasim_cli_test(NAME report/sweep-db
  COMMAND sweep ${_qs} --param scheduling.scoring=LeastAllocated,MostAllocated
          --seeds 1..2 --set stop.time=3h -o ${_rep_out}/sweep.db -q
  SQL ${_facts}
      ${_rep_out}/sweep.db "SELECT group_concat(r.policy || '/' || r.seed || '/' || s.value, ' ') FROM runs r JOIN sweep s USING (run_id)"
                           "^LeastAllocated/1/LeastAllocated LeastAllocated/2/LeastAllocated MostAllocated/1/MostAllocated MostAllocated/2/MostAllocated$")
drasim_cli_test(NAME report/sweep RAW
  COMMAND ${CMAKE_COMMAND} -DMODE=report -DDRASIM=$<TARGET_FILE:drasim> -DDB=${_rep_out}/sweep.db
                 -DOUT=${_rep_out}/sweep -DHAVE_GNUPLOT=${_have_gp} -DMIN_PLOTS=9
                 -DEXPECT_PLOTS=gpu_alloc,compare_gpu_alloc_pct -P ${_rep_check})
set_tests_properties(report/sweep PROPERTIES DEPENDS report/sweep-db)
# the same database twice: every run matched by its key, zero deltas
drasim_cli_test(NAME report/compare-same
  COMMAND compare ${_rep_out}/sweep.db ${_rep_out}/sweep.db
  EXPECT "A = [^\n]*sweep.db [(]4 runs[)]"
         "quickstart device-plugin MostAllocated scheduling.scoring=MostAllocated \\(mean\\)  +gpu_alloc_pct +[0-9.]+ ± [0-9.e+]+ +[0-9.]+ ± [0-9.e+]+ +\\+0 +0%"
  REJECT " [+-][0-9.]*[1-9]")
set_tests_properties(report/compare-same PROPERTIES DEPENDS report/sweep-db)

drasim_cli_test(NAME check/pass RAW
  COMMAND ${CMAKE_COMMAND} -DMODE=check -DDRASIM=$<TARGET_FILE:drasim> -DSCENARIO=${_qs}
                 -DEXPECT=${CMAKE_SOURCE_DIR}/tests/check/quickstart-pass.yaml -DJUNIT=${_rep_out}/pass.xml
                 -DWANT_RC=0 "-DWANT=5 checks, 0 failed \\(2 runs\\)" -DFAILURES=0 -P ${_rep_check})
drasim_cli_test(NAME check/fail RAW
  COMMAND ${CMAKE_COMMAND} -DMODE=check -DDRASIM=$<TARGET_FILE:drasim> -DSCENARIO=${_qs}
                 -DEXPECT=${CMAKE_SOURCE_DIR}/tests/check/quickstart-fail.yaml -DJUNIT=${_rep_out}/fail.xml
                 -DWANT_RC=1 "-DWANT=gpu_alloc_pct >= 93 +[0-9.]+ +>= 93 +FAIL" -DFAILURES=2 -P ${_rep_check})
drasim_cli_test(NAME check/bad-expect RAW
  COMMAND ${CMAKE_COMMAND} -DMODE=check -DDRASIM=$<TARGET_FILE:drasim> -DSCENARIO=${_qs}
                 -DEXPECT=${CMAKE_SOURCE_DIR}/tests/check/bad-threshold.yaml
                 -DWANT_RC=3 "-DWANT=bad-threshold.yaml:5:3: threshold 'gpu_alloc_pct =< 90'" -P ${_rep_check})
drasim_cli_test(NAME check/baseline-same RAW
  COMMAND ${CMAKE_COMMAND} -DMODE=baseline -DDRASIM=$<TARGET_FILE:drasim> -DSCENARIO=${_qs}
                 -DEXPECT=${CMAKE_SOURCE_DIR}/tests/check/baseline.yaml -DBASE=${_rep_out}/base1/baseline.db
                 -DWANT_RC=0 -DJUNIT=${_rep_out}/base1.xml -DFAILURES=0 -P ${_rep_check})
# half the 2-GPU training jobs: the A100s sit idle, GPU allocation drops well below the baseline
drasim_cli_test(NAME check/baseline-worse RAW
  COMMAND ${CMAKE_COMMAND} -DMODE=baseline -DDRASIM=$<TARGET_FILE:drasim> -DSCENARIO=${_qs}
                 -DEXPECT=${CMAKE_SOURCE_DIR}/tests/check/baseline.yaml -DBASE=${_rep_out}/base2/baseline.db
                 -DSET=workload.podGroups.train-2gpu.count=100 -DWANT_RC=1
                 "-DWANT=baseline: gpu_alloc_pct no worse by 0.5 .*FAIL" -P ${_rep_check})
file(MAKE_DIRECTORY ${_rep_out}/base1 ${_rep_out}/base2)

# --seeds on the command line wins over the expect file's seeds
drasim_cli_test(NAME check/seeds-cli RAW
  COMMAND ${CMAKE_COMMAND} -DMODE=check -DDRASIM=$<TARGET_FILE:drasim> -DSCENARIO=${_qs}
                 -DEXPECT=${CMAKE_SOURCE_DIR}/tests/check/quickstart-pass.yaml "-DEXTRA=--seeds 42..44"
                 -DWANT_RC=0 "-DWANT=5 checks, 0 failed \\(3 runs\\)" -P ${_rep_check})
# drasim run --seeds / --set from the command line
drasim_run_facts(_facts ${_rep_out}/seeds.db)
drasim_cli_test(NAME run/seeds-cli
  COMMAND run ${_qs} --seeds 42..44 --set stop.time=1h -o ${_rep_out}/seeds.db
  EXPECT "run 1, seed 42: simulated 1[.]0 h.*run 2, seed 43: simulated 1[.]0 h.*run 3, seed 44: simulated 1[.]0 h.*wrote"
  SQL ${_facts}
      ${_rep_out}/seeds.db "SELECT group_concat(run_id || ':' || seed || ':' || end_ms, ' ') FROM runs" "^1:42:3600000 2:43:3600000 3:44:3600000$")
drasim_cli_test(NAME run/seeds-bad
  COMMAND run ${_qs} --seeds 5..1 -o ${_rep_out}/bad.db
  EXIT 2
  EXPECT "--seeds: expected N, A..B or a list"
  FILE_ABSENT ${_rep_out}/bad.db)
drasim_cli_test(NAME run/set-bad
  COMMAND run ${_qs} --set scheduling.scoring=Sideways -o ${_rep_out}/bad.db
  EXIT 3
  EXPECT "--set scheduling.scoring:1:26: scheduling.scoring: expected LeastAllocated, MostAllocated or RequestedToCapacityRatio, found .Sideways."
  FILE_ABSENT ${_rep_out}/bad.db)

# several databases on one page (device plugin vs DRA): every configuration's
# label names its file; a hostile file name stays a gnuplot string; a missing
# database is an input error and writes nothing
file(MAKE_DIRECTORY ${_rep_out}/multi)
drasim_cli_test(NAME report/multi-db-inputs RAW
  COMMAND sh -c "rm -rf dp.db dra.db cmp hostile missing \"a'.system('touch PWNED').'.db\" && $0 run $1 --set stop.time=2h --seeds 1..2 -q -o dp.db && $0 run $2 --set stop.time=2h -q -o dra.db && cp dp.db \"a'.system('touch PWNED').'.db\" && echo inputs-ready"
          $<TARGET_FILE:drasim> ${_qs} ${CMAKE_SOURCE_DIR}/scenarios/examples/dra-quickstart.yaml
  WORKDIR ${_rep_out}/multi EXPECT "inputs-ready")
drasim_cli_test(NAME report/multi-db
  COMMAND report dp.db dra.db -o cmp
  WORKDIR ${_rep_out}/multi DEPENDS report/multi-db-inputs
  EXPECT "cmp/index\\.html: 3 runs"
  REJECT "cannot"
  FILE_EXISTS ${_rep_out}/multi/cmp/data/gpu_alloc.dat)
drasim_cli_test(NAME report/multi-db-labels RAW
  COMMAND ${CMAKE_COMMAND} -E cat ${_rep_out}/multi/cmp/data/gpu_alloc.dat
  DEPENDS report/multi-db
  EXPECT "# dp\\.db: quickstart device-plugin\n" "# dra\\.db: dra-quickstart dra\n")
drasim_cli_test(NAME report/multi-db-hostile-name
  COMMAND report "a'.system('touch PWNED').'.db" dra.db -o hostile
  WORKDIR ${_rep_out}/multi DEPENDS report/multi-db-inputs
  FILE_ABSENT ${_rep_out}/multi/PWNED ${_rep_out}/multi/hostile/PWNED)
drasim_cli_test(NAME report/multi-db-hostile-name-quoted RAW
  COMMAND ${CMAKE_COMMAND} -E cat ${_rep_out}/multi/hostile/plots.gp
  DEPENDS report/multi-db-hostile-name
  EXPECT "'a''\\.system[(]''touch PWNED''[)]\\.''\\.db: quickstart device-plugin")
drasim_cli_test(NAME report/multi-db-missing
  COMMAND report dp.db missing.db -o missing
  WORKDIR ${_rep_out}/multi DEPENDS report/multi-db-inputs
  EXIT 3 EXPECT "missing\\.db: cannot open" FILE_ABSENT ${_rep_out}/multi/missing)
# a baseline from another scenario is an input error naming both (docs/CI.md)
file(WRITE ${_rep_out}/multi/other-baseline.yaml
     "apiVersion: drasim/v1\nkind: Expect\nbaseline:\n  file: dra.db\n  metrics:\n    gpu_alloc_pct: 0.5\n")
drasim_cli_test(NAME check/baseline-other-scenario
  COMMAND check ${_qs} --expect ${_rep_out}/multi/other-baseline.yaml --set stop.time=1h --seeds 1
  DEPENDS report/multi-db-inputs
  EXIT 3 EXPECT "other-baseline\\.yaml: baseline [^ ]*dra\\.db holds scenario dra-quickstart seeds [0-9]+, the results scenario quickstart seeds 1: a baseline must come from the same scenario and seeds")
