# Sweeps beyond one machine (docs/SWEEPS.md): `drasim sweep --shard I/N`, `drasim merge`.
# The N shards of a sweep, run as N processes and merged, hold the unsharded
# sweep's results row for row (tests/sweeps/same_results.sh); bad input fails
# clearly and writes nothing; reports, compare and check read the merged database.
set(_sw_out ${CMAKE_CURRENT_BINARY_DIR}/sweeps)
file(MAKE_DIRECTORY ${_sw_out})
set(_sw_qs ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml)
set(_sw_same ${CMAKE_SOURCE_DIR}/tests/sweeps/same_results.sh)
# 2 parameters x 2 values x 3 seeds = 12 runs, in 5 shards of 2 or 3 runs
set(_sw_grid --set stop.time=1h --param scheduling.scoring=LeastAllocated,MostAllocated
             --param cluster.nodePools.h100-train.count=10,12 --seeds 1..3 -q)

drasim_cli_test(NAME sweeps/shards RAW
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/sweeps/run_shards.sh $<TARGET_FILE:drasim> ${_sw_qs} 5 ${_sw_grid}
  WORKDIR ${_sw_out} EXPECT "merged 5 databases into all\\.db"
  SQL ${_sw_out}/s1.db "SELECT group_concat(r.seed || '/' || s.param || '=' || s.value, ' ') FROM runs r JOIN sweep s USING (run_id) WHERE s.param LIKE 'cluster%'"
      "^3/cluster[.]nodePools[.]h100-train[.]count=10 1/cluster[.]nodePools[.]h100-train[.]count=12$"
  SQL ${_sw_out}/all.db "SELECT count(*) || ' ' || min(run_id) || ' ' || max(run_id) FROM runs" "^12 1 12$"
  SQL ${_sw_out}/all.db "PRAGMA user_version" "^3$")
drasim_cli_test(NAME sweeps/shards-equal-unsharded RAW
  COMMAND sh ${_sw_same} ${_sw_out}/full.db ${_sw_out}/all.db
  DEPENDS sweeps/shards EXPECT "same results: 17 tables, [0-9]+ rows")
# the comparison can fail: shards merged out of order put runs in another order
drasim_cli_test(NAME sweeps/shards-order-matters RAW
  COMMAND sh ${_sw_same} ${_sw_out}/full.db ${_sw_out}/rev.db
  DEPENDS sweeps/shards EXIT 1 EXPECT "rows differ")

# --shard auto/N: the index from a Kubernetes Indexed Job or a Slurm array
drasim_cli_test(NAME sweeps/shard-auto-k8s RAW
  COMMAND env -u SLURM_ARRAY_TASK_ID JOB_COMPLETION_INDEX=4 $<TARGET_FILE:drasim> sweep ${_sw_qs} ${_sw_grid} --shard auto/5 -o ${_sw_out}/auto4.db --force
  SQL ${_sw_out}/auto4.db "SELECT group_concat(seed, ' ') FROM runs" "^1 2 3$")
drasim_cli_test(NAME sweeps/shard-auto-slurm RAW
  COMMAND env -u JOB_COMPLETION_INDEX SLURM_ARRAY_TASK_ID=0 $<TARGET_FILE:drasim> sweep ${_sw_qs} ${_sw_grid} --shard auto/6 -o ${_sw_out}/auto0.db --force
  SQL ${_sw_out}/auto0.db "SELECT group_concat(seed, ' ') FROM runs" "^1 2$")

# bad shards: exit 2, a clear message, nothing written
foreach(_case "5/5|index 5 out of range 0..4" "0/0|N must be a whole number >= 1" "x/3|index 'x' is not a whole number"
              "0/13|the sweep has only 12 runs, fewer than 13 shards" "3|expected I/N or auto/N")
  string(REPLACE "|" ";" _c "${_case}")
  list(GET _c 0 _spec)
  list(GET _c 1 _msg)
  string(REPLACE "/" "-" _n "${_spec}")
  drasim_cli_test(NAME sweeps/bad-shard-${_n}
    COMMAND sweep ${_sw_qs} ${_sw_grid} --shard ${_spec} -o ${_sw_out}/bad-${_n}.db
    EXIT 2 EXPECT "drasim sweep: --shard ${_spec}: ${_msg}" FILE_ABSENT ${_sw_out}/bad-${_n}.db)
endforeach()
# a missing scenario: exit 3, no database, no manifests
drasim_cli_test(NAME sweeps/shard-missing-scenario
  COMMAND sweep ${_sw_out}/nope.yaml --param stop.time=1h,2h --shard 0/2 -o ${_sw_out}/bad-missing.db
  EXIT 3 EXPECT "nope[.]yaml: cannot open: No such file" FILE_ABSENT ${_sw_out}/bad-missing.db)
drasim_cli_test(NAME sweeps/emit-job-missing-scenario
  COMMAND sweep ${_sw_out}/nope.yaml --param stop.time=1h,2h --emit-job ${_sw_out}/job-missing
  EXIT 3 EXPECT "nope[.]yaml: cannot open: No such file" FILE_ABSENT ${_sw_out}/job-missing)
drasim_cli_test(NAME sweeps/bad-shard-auto-unset RAW
  COMMAND env -u JOB_COMPLETION_INDEX -u SLURM_ARRAY_TASK_ID $<TARGET_FILE:drasim> sweep ${_sw_qs} ${_sw_grid} --shard auto/3 -o ${_sw_out}/bad-auto.db
  EXIT 2 EXPECT "neither JOB_COMPLETION_INDEX [(]Kubernetes Indexed Job[)] nor SLURM_ARRAY_TASK_ID" FILE_ABSENT ${_sw_out}/bad-auto.db)
drasim_cli_test(NAME sweeps/bad-shard-auto-range RAW
  COMMAND env JOB_COMPLETION_INDEX=3 $<TARGET_FILE:drasim> sweep ${_sw_qs} ${_sw_grid} --shard auto/3 -o ${_sw_out}/bad-auto.db
  EXIT 2 EXPECT "index 3 from JOB_COMPLETION_INDEX out of range 0..2" FILE_ABSENT ${_sw_out}/bad-auto.db)

# merge: bad input is exit 3 and leaves no output
drasim_cli_test(NAME sweeps/merge-missing
  COMMAND merge ${_sw_out}/s0.db ${_sw_out}/nope.db -o ${_sw_out}/m-missing.db
  DEPENDS sweeps/shards EXIT 3 EXPECT "nope[.]db: cannot open: No such file" FILE_ABSENT ${_sw_out}/m-missing.db)
drasim_cli_test(NAME sweeps/merge-mixed-inputs RAW
  COMMAND sh -c "rm -f dra.db v0.db && $0 run $1 --set stop.time=1h -q -o dra.db && cp s0.db v0.db && sqlite3 v0.db 'PRAGMA user_version = 0' && echo ready"
          $<TARGET_FILE:drasim> ${CMAKE_SOURCE_DIR}/scenarios/examples/dra-quickstart.yaml
  WORKDIR ${_sw_out} DEPENDS sweeps/shards EXPECT "ready")
drasim_cli_test(NAME sweeps/merge-mixed
  COMMAND merge s0.db dra.db -o m-mixed.db
  WORKDIR ${_sw_out} DEPENDS sweeps/merge-mixed-inputs EXIT 3
  EXPECT "s0[.]db [(]scenario 'quickstart'[)] and dra[.]db [(]scenario 'dra-quickstart'[)] come from different scenarios; --allow-mixed"
  FILE_ABSENT ${_sw_out}/m-mixed.db)
drasim_cli_test(NAME sweeps/merge-allow-mixed
  COMMAND merge s0.db dra.db -o m-allowed.db --allow-mixed --force
  WORKDIR ${_sw_out} DEPENDS sweeps/merge-mixed-inputs
  SQL ${_sw_out}/m-allowed.db "SELECT group_concat(run_id || ':' || scenario, ' ') FROM runs" "^1:quickstart 2:quickstart 3:dra-quickstart$")
drasim_cli_test(NAME sweeps/merge-old-schema
  COMMAND merge s0.db v0.db -o m-v0.db
  WORKDIR ${_sw_out} DEPENDS sweeps/merge-mixed-inputs EXIT 3
  EXPECT "v0[.]db: results schema version 0, this drasim reads and writes version 3" FILE_ABSENT ${_sw_out}/m-v0.db)
drasim_cli_test(NAME sweeps/merge-output-not-input
  COMMAND merge s0.db s1.db -o s1.db
  WORKDIR ${_sw_out} DEPENDS sweeps/shards EXIT 2 EXPECT "s1[.]db")
drasim_cli_test(NAME sweeps/merge-usage
  COMMAND merge s0.db EXIT 2 EXPECT "-o ALL[.]db is required")

# the merged database is read as if it came from one machine
drasim_cli_test(NAME sweeps/merged-compare
  COMMAND compare ${_sw_out}/full.db ${_sw_out}/all.db
  DEPENDS sweeps/shards
  EXPECT "[(]12 runs[)]" "quickstart device-plugin MostAllocated scheduling[.]scoring=MostAllocated cluster[.]nodePools[.]h100-train[.]count=12 [(]mean[)]"
  REJECT " [+-][0-9.]*[1-9]")
drasim_cli_test(NAME sweeps/merged-report
  COMMAND report ${_sw_out}/all.db -o ${_sw_out}/rep --force
  DEPENDS sweeps/shards EXPECT "12 runs" FILE_EXISTS ${_sw_out}/rep/index.html ${_sw_out}/rep/data/sweep_gpu_alloc_pct.dat)
# a merged database as `check`'s baseline: two shards of the quickstart (seeds 1..2) against itself
file(WRITE ${_sw_out}/merged-baseline.yaml "apiVersion: drasim/v1\nkind: Expect\nseeds: 1..2\nbaseline:\n  file: mb.db\n  metrics:\n    gpu_alloc_pct: 0\n    wait_p99_s: 0\n")
drasim_cli_test(NAME sweeps/merged-baseline-db RAW
  COMMAND sh -c "rm -f mb0.db mb1.db mb.db && $0 sweep $1 --param scheduling.scoring=LeastAllocated --seeds 1..2 --shard 0/2 -q -o mb0.db && $0 sweep $1 --param scheduling.scoring=LeastAllocated --seeds 1..2 --shard 1/2 -q -o mb1.db && $0 merge mb0.db mb1.db -o mb.db"
          $<TARGET_FILE:drasim> ${_sw_qs}
  WORKDIR ${_sw_out} EXPECT "merged 2 databases")
drasim_cli_test(NAME sweeps/merged-check-baseline
  COMMAND check ${_sw_qs} --expect ${_sw_out}/merged-baseline.yaml -q
  DEPENDS sweeps/merged-baseline-db REJECT "FAIL")

# --emit-job: the manifests parse with drasim's YAML reader and have the fields
# an Indexed Job needs with the right values (tests/sweeps/check_job.c, a
# structural check; the API's schema is checked by k8s_validate below); a shard
# then runs the way the pod runs it (tests/sweeps/run_pod.sh), from the
# ConfigMap's files alone.
add_executable(sweeps_check_job ${CMAKE_SOURCE_DIR}/tests/sweeps/check_job.c)
target_link_libraries(sweeps_check_job PRIVATE drasim_lib)
set(_sw_run_pod ${CMAKE_SOURCE_DIR}/tests/sweeps/run_pod.sh)
get_filename_component(_sw_bindir ${CMAKE_BINARY_DIR}/drasim DIRECTORY)
# the OpenB six-policy ten-seed matrix (docs/SWEEPS.md): the trace is in the image (a link to its data/)
drasim_cli_test(NAME sweeps/emit-job-openb
  COMMAND sweep ${CMAKE_SOURCE_DIR}/scenarios/openb/default.yaml
          --param scheduling.policy=random,dotprod,gpu-clustering,gpu-packing,bestfit,fgd --seeds 42..51
          --emit-job ${_sw_out}/job-openb --image registry.example/drasim:1 --parallelism 12 --force
  EXPECT "wrote [^\n]*job-openb/job[.]yaml [(]60 shards, 12 at a time[)]"
  FILE_EXISTS ${_sw_out}/job-openb/configmap.yaml ${_sw_out}/job-openb/slurm.sh ${_sw_out}/job-openb/collect.sh)
drasim_cli_test(NAME sweeps/emit-job-openb-valid RAW
  COMMAND $<TARGET_FILE:sweeps_check_job> ${_sw_out}/job-openb 60 12 registry.example/drasim:1 ${_sw_out}/pod-openb
  DEPENDS sweeps/emit-job-openb EXPECT "job ok: 1 file in the ConfigMap, 60 shards, 12 at a time")
drasim_cli_test(NAME sweeps/emit-job-openb-pod RAW
  COMMAND sh ${_sw_run_pod} ${_sw_out}/pod-openb 59
  ENV "PATH=${_sw_bindir}:$ENV{PATH}" "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}"
  DEPENDS sweeps/emit-job-openb-valid EXPECT "shard-00059[.]db"
  SQL ${_sw_out}/pod-openb/results/shard-00059.db "SELECT policy || ' ' || seed FROM runs" "^fgd 51$")
drasim_cli_test(NAME sweeps/emit-job-slurm RAW
  COMMAND sh -c "grep -x '#SBATCH --array=0-59%12' $0/slurm.sh && grep -c -- '--shard auto/60 ' $0/slurm.sh" ${_sw_out}/job-openb
  DEPENDS sweeps/emit-job-openb EXPECT "^#SBATCH --array=0-59%12\n1\n")
# a scenario with its own Lua script: the script goes into the ConfigMap, the shard runs from it
drasim_cli_test(NAME sweeps/emit-job-lua
  COMMAND sweep ${CMAKE_SOURCE_DIR}/tests/lua/dra.yaml --param stop.time=1h,2h --seeds 1..2 --shard auto/2
          --emit-job ${_sw_out}/job-lua --force -q
  FILE_EXISTS ${_sw_out}/job-lua/job.yaml)
# the ConfigMap ships every file of the script's directory (a generator may open
# any of them, at any time: docs/SWEEPS.md), the scenario among them
file(GLOB_RECURSE _sw_lua_tree CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/lua/*)
list(LENGTH _sw_lua_tree _sw_lua_files)
drasim_cli_test(NAME sweeps/emit-job-lua-valid RAW
  COMMAND $<TARGET_FILE:sweeps_check_job> ${_sw_out}/job-lua 2 2 drasim:latest ${_sw_out}/pod-lua
  DEPENDS sweeps/emit-job-lua EXPECT "job ok: ${_sw_lua_files} files in the ConfigMap, 2 shards, 2 at a time")
drasim_cli_test(NAME sweeps/emit-job-lua-pod RAW
  COMMAND sh ${_sw_run_pod} ${_sw_out}/pod-lua 1
  ENV "PATH=${_sw_bindir}:$ENV{PATH}" "DRASIM_DATADIR=${CMAKE_SOURCE_DIR}"
  DEPENDS sweeps/emit-job-lua-valid EXPECT "shard-00001[.]db"
  SQL ${_sw_out}/pod-lua/results/shard-00001.db "SELECT group_concat(s.value || '/' || r.seed, ' ') FROM runs r JOIN sweep s USING (run_id)" "^2h/1 2h/2$")
# the manifests are valid Kubernetes objects: the API's OpenAPI schema, offline (tools/k8s-schema)
foreach(_j openb lua)
  drasim_k8s_validate(NAME sweeps/emit-job-${_j}-schema
    FILES ${_sw_out}/job-${_j}/configmap.yaml ${_sw_out}/job-${_j}/results-pvc.yaml ${_sw_out}/job-${_j}/job.yaml
          ${_sw_out}/job-${_j}/merge-job.yaml
    DOCUMENTS 1 DEPENDS sweeps/emit-job-${_j}
    EXPECT "configmap[.]yaml: 1 document valid [(]1 ConfigMap" "results-pvc[.]yaml: 1 document valid [(]1 PersistentVolumeClaim"
           "/job[.]yaml: 1 document valid [(]1 Job" "merge-job[.]yaml: 1 document valid [(]1 Job")
endforeach()
# collect.sh against a fake kubectl (tests/sweeps/fake-kubectl; with a real kubectl
# installed, its JSONPath answers collect.sh's queries): it waits for Complete
# or Failed, never hangs on a failed Job, and gives up after --timeout
set(_sw_collect sh ${CMAKE_SOURCE_DIR}/tests/sweeps/collect_fake.sh ${_sw_out}/job-openb)
find_program(DRASIM_KUBECTL kubectl)
set(_sw_kubectl "FAKE_REAL_KUBECTL=")
if(DRASIM_KUBECTL)
  set(_sw_kubectl "FAKE_REAL_KUBECTL=${DRASIM_KUBECTL}")
endif()
drasim_cli_test(NAME sweeps/collect-syntax RAW
  COMMAND sh -c "sh -n $0/collect.sh && sh -n $0/slurm.sh && echo syntax ok" ${_sw_out}/job-openb
  DEPENDS sweeps/emit-job-openb EXPECT "syntax ok")
drasim_cli_test(NAME sweeps/collect-complete RAW
  COMMAND ${_sw_collect} ${_sw_out}/collect-complete "- - SuccessCriteriaMet,Complete" -
  ENV ${_sw_kubectl} DEPENDS sweeps/emit-job-openb
  EXPECT "all[.]db: drasim report all[.]db"
         "call: kubectl apply -f [^\n]*/job[.]yaml\ncall: kubectl get job/drasim-default -o [^\n]*\ncall: kubectl get job/drasim-default -o [^\n]*\ncall: kubectl get job/drasim-default -o [^\n]*\ncall: kubectl apply -f [^\n]*/merge-job[.]yaml\ncall: kubectl get job/drasim-default-merge "
         "call: kubectl cp drasim-default-fetch:/results/all[.]db all[.]db"
  FILE_EXISTS ${_sw_out}/collect-complete/all.db)
# the pod collect.sh runs to copy all.db out is a valid Pod too
drasim_k8s_validate(NAME sweeps/collect-fetch-pod-schema FILES ${_sw_out}/collect-complete/fetch-pod.json
  DEPENDS sweeps/collect-complete EXPECT "1 document valid [(]1 Pod")
drasim_cli_test(NAME sweeps/collect-failed RAW
  COMMAND ${_sw_collect} ${_sw_out}/collect-failed "- FailureTarget,Failed" "3,7-9"
  ENV ${_sw_kubectl} DEPENDS sweeps/emit-job-openb EXIT 1
  EXPECT "collect[.]sh: job/drasim-default failed [(]FailedIndexes[)]; failed indexes: 3,7-9\n"
         "kubectl logs -l job-name=drasim-default,batch[.]kubernetes[.]io/job-completion-index=I"
  REJECT "merge-job" FILE_ABSENT ${_sw_out}/collect-failed/all.db)
drasim_cli_test(NAME sweeps/collect-timeout RAW
  COMMAND ${_sw_collect} ${_sw_out}/collect-timeout - - --timeout 2
  ENV ${_sw_kubectl} DEPENDS sweeps/emit-job-openb EXIT 3
  EXPECT "job/drasim-default is neither Complete nor Failed after 2s [(]--timeout[)]"
  REJECT "merge-job" FILE_ABSENT ${_sw_out}/collect-timeout/all.db)
drasim_cli_test(NAME sweeps/collect-bad-timeout RAW
  COMMAND ${_sw_collect} ${_sw_out}/collect-bad - - --timeout 1h
  DEPENDS sweeps/emit-job-openb EXIT 2 EXPECT "collect[.]sh: --timeout 1h: expected whole seconds" REJECT "call: ")
# the check can fail: the wrong number of shards
drasim_cli_test(NAME sweeps/emit-job-check-fails RAW
  COMMAND $<TARGET_FILE:sweeps_check_job> ${_sw_out}/job-lua 3 2 drasim:latest ${_sw_out}/pod-lua-bad
  DEPENDS sweeps/emit-job-lua EXIT 1 EXPECT "spec[.]completions is 2, expected 3")
drasim_cli_test(NAME sweeps/emit-job-bad-shard
  COMMAND sweep ${_sw_qs} --param stop.time=1h,2h --shard auto/3 --emit-job ${_sw_out}/job-bad
  EXIT 2 EXPECT "--emit-job takes --shard auto/N with N in 1[.][.]2" FILE_ABSENT ${_sw_out}/job-bad/job.yaml)

# more shards than SQLite attaches at once (10 by default): the merge goes in batches
file(MAKE_DIRECTORY ${_sw_out}/twelve)
drasim_cli_test(NAME sweeps/shards-12 RAW
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/sweeps/run_shards.sh $<TARGET_FILE:drasim> ${_sw_qs} 12 ${_sw_grid}
  WORKDIR ${_sw_out}/twelve EXPECT "merged 12 databases into all\\.db")
drasim_cli_test(NAME sweeps/shards-12-equal-unsharded RAW
  COMMAND sh ${_sw_same} ${_sw_out}/twelve/full.db ${_sw_out}/twelve/all.db
  DEPENDS sweeps/shards-12 EXPECT "same results: 17 tables, [0-9]+ rows")

# a merge that fails half-way (an input whose nodes lack a NOT NULL column, found
# while copying into the new database's tables) leaves the existing output as it
# was and no temporary file; the message names the file and the column (issue 25,
# finding 17: it was SQLite's "NOT NULL constraint failed", exit 2). With a second
# input the same file is refused before anything is written (tests/hostile_leftovers.cmake).
drasim_cli_test(NAME sweeps/merge-fails-midway-inputs RAW
  COMMAND sh -c "rm -rf midway && mkdir midway && cp s1.db midway/broken.db && sqlite3 midway/broken.db 'ALTER TABLE nodes DROP COLUMN name' && cp all.db midway/keep.db && echo ready"
  WORKDIR ${_sw_out} DEPENDS sweeps/shards EXPECT "ready")
drasim_cli_test(NAME sweeps/merge-fails-midway
  COMMAND merge broken.db -o keep.db
  WORKDIR ${_sw_out}/midway DEPENDS sweeps/merge-fails-midway-inputs EXIT 3
  EXPECT "drasim merge: broken[.]db: not a drasim results database of this schema version: table nodes lacks column name"
  REJECT "SQLite" "constraint"
  SQL ${_sw_out}/midway/keep.db "SELECT count(*) FROM runs" "^12$")
drasim_cli_test(NAME sweeps/merge-fails-midway-no-temp RAW
  COMMAND sh -c "ls -a | tr '\\n' ' '" WORKDIR ${_sw_out}/midway DEPENDS sweeps/merge-fails-midway
  EXPECT "broken[.]db" REJECT "tmp-" "[.]lock")
