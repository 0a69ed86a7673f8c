# CLI tests of the Lua API of issue 20 (docs/LUA.md): labels, the cluster view
# in both modes, drasim.claim, the process layer, csv_rows/parse_time, and the
# examples in lua/examples/. Scripts in tests/lua20/ assert what they see
# (a failed assert fails the run with exit 3); the SQL checks read the result.
set(_l20 ${CMAKE_CURRENT_BINARY_DIR}/lua20)
file(MAKE_DIRECTORY ${_l20})
set(_dp ${CMAKE_SOURCE_DIR}/tests/lua20/dp.yaml)
set(_dra ${CMAKE_SOURCE_DIR}/tests/lua20/dra.yaml)

# labels = {...}: rows of pod_labels (pods a, b share one label set; c arrives
# after d, so it is pod 3), and drasim.pod(name).labels.
drasim_cli_test(NAME lua20/labels
  COMMAND run ${_dp} -o ${_l20}/labels.db --force
  EXPECT "4 pods arrived, 4 scheduled"
  SQL ${_l20}/labels.db "SELECT group_concat(p.name || ':' || l.key || '=' || l.value, ' ') FROM (SELECT * FROM pod_labels ORDER BY pod_id, key) l JOIN pods p USING (run_id, pod_id)"
      "^a:app=chat a:example[.]com/tier=gold b:app=chat b:example[.]com/tier=gold c:app=batch c:empty=$")
# Pods sharing one label set (issue 31: label sets interned): changing the submitted
# table afterwards or the table drasim.pod(name).labels returns changes no pod (the
# script asserts it); the rows per pod, and a selection by label over them.
drasim_cli_test(NAME lua20/labels-shared
  COMMAND run ${_dp} --set workload.lua.script=labels_shared.lua -o ${_l20}/labels-shared.db --force
  EXPECT "5 pods arrived, 5 scheduled"
  SQL ${_l20}/labels-shared.db "SELECT group_concat(p.name || ':' || l.key || '=' || l.value, ' ') FROM (SELECT * FROM pod_labels ORDER BY pod_id, key) l JOIN pods p USING (run_id, pod_id)"
      "^a:app=chat a:example[.]com/tier=gold b:app=chat b:example[.]com/tier=gold c:app=chat c:example[.]com/tier=gold d:app=batch d:example[.]com/tier=gold d:extra=x e:app=chat e:example[.]com/tier=gold$"
      ${_l20}/labels-shared.db "SELECT group_concat(p.name, ',') FROM (SELECT * FROM pods ORDER BY pod_id) p JOIN pod_labels l USING (run_id, pod_id) WHERE l.key = 'app' AND l.value = 'chat'" "^a,b,c,e$")
# Label sets found by their table's layout (issue 31): repeated sets, a changed table (the script asserts
# each pod's labels); the rows: 13 pods, 26 labels, sizes s1 s2 s3 four times each and s9 once.
drasim_cli_test(NAME lua20/labels-cache
  COMMAND run ${_dp} --set workload.lua.script=labels_cache.lua -o ${_l20}/labels-cache.db --force
  EXPECT "13 pods arrived, 13 scheduled"
  SQL ${_l20}/labels-cache.db "SELECT group_concat(value || ':' || n, ' ') FROM (SELECT value, count(*) n FROM pod_labels WHERE key = 'size' GROUP BY value ORDER BY value)"
      "^s1:4 s2:4 s3:4 s9:1$")
# drasim merge copies tables, not views: the merged database gets its own view
# pod_labels over the copied label tables (run ids shifted), every run's rows.
drasim_cli_test(NAME lua20/labels-merged
  COMMAND merge ${_l20}/labels-shared.db ${_l20}/labels-dra.db --allow-mixed -o ${_l20}/labels-merged.db --force
  DEPENDS lua20/labels-shared lua20/labels-dra
  SQL ${_l20}/labels-merged.db "SELECT group_concat(run_id || ':' || n, ' ') FROM (SELECT run_id, count(*) n FROM pod_labels GROUP BY run_id ORDER BY run_id)"
      "^1:11 2:6$"
      ${_l20}/labels-merged.db "SELECT type FROM sqlite_master WHERE name = 'pod_labels'" "^view$")
# runs without labels have no pod_labels view, no label tables (their databases are unchanged)
drasim_cli_test(NAME lua20/no-labels-no-table
  COMMAND run ${CMAKE_SOURCE_DIR}/tests/lua/record.yaml -o ${_l20}/record.db --force
  SQL ${_l20}/record.db "SELECT count(*) FROM sqlite_master WHERE name IN ('pod_labels', 'label_sets', 'pod_label_sets')" "^0$")

# compare, check and report read drasim.record metrics and the series of
# drasim.sample (S:mean, S:max, S:last); the check's last threshold fails.
drasim_cli_test(NAME lua20/check-user-metrics
  COMMAND check ${CMAKE_SOURCE_DIR}/tests/lua/record.yaml --expect ${CMAKE_SOURCE_DIR}/tests/lua20/record-expect.yaml
  EXIT 1
  EXPECT "user_gang_wait_s == 150 +150 +== 150 +pass"
         "user_gang_wait_s[{]group=train[}] == 2[.]5 +2[.]5 +== 2[.]5 +pass"
         "user_queue:max == 4[.]5 +4[.]5 +== 4[.]5 +pass"
         "user_queue:mean == 2[.]75 +2[.]75 +== 2[.]75 +pass"
         "user_queue:last <= 4 +4[.]5 +<= 4 +FAIL"
         "5 checks, 1 failed")
drasim_cli_test(NAME lua20/compare-user-metrics
  COMMAND compare ${_l20}/record.db ${_l20}/record.db --format csv
  DEPENDS lua20/no-labels-no-table
  EXPECT "user_count,3,3," "user_queue:mean,2[.]75,2[.]75," "user_queue:last,4[.]5,4[.]5,")
drasim_cli_test(NAME lua20/report-user-metrics RAW
  COMMAND sh -c "$<TARGET_FILE:drasim> report ${_l20}/record.db -o ${_l20}/record-report --force && grep -o 'user_[a-z_]*:max' ${_l20}/record-report/index.html"
  DEPENDS lua20/no-labels-no-table
  EXPECT "user_queue:max")

# The cluster view (tests/lua20/view_*.lua assert the values they read, by hand
# from the scenario's nodes; a failed assertion fails the run). after_schedule
# callbacks ran: their user_ metrics are recorded.
drasim_cli_test(NAME lua20/view-dra
  COMMAND run ${_dra} -o ${_l20}/view-dra.db --force
  SQL ${_l20}/view-dra.db "SELECT value FROM summary WHERE metric = 'user_after_schedule_ran'" "^1[.]0$")
drasim_cli_test(NAME lua20/view-device-plugin
  COMMAND run ${_dp} --set workload.lua.script=view_dp.lua -o ${_l20}/view-dp.db --force
  SQL ${_l20}/view-dp.db "SELECT group_concat(metric || '=' || value, ' ') FROM (SELECT * FROM summary WHERE metric LIKE 'user%' ORDER BY metric)"
      "^user_after_schedule_ran=1[.]0 user_nested=60[.]0$")

# Bad arguments: exit 3, the message names the function and the script's line, no database.
function(lua20_refused name scenario expect)
  drasim_cli_test(NAME lua20/refused-${name}
    COMMAND run ${scenario} --set workload.lua.script=${name}.lua -o ${_l20}/${name}.db
    EXIT 3
    EXPECT "${name}[.]lua:2: ${expect}"
    FILE_ABSENT ${_l20}/${name}.db)
endfunction()
lua20_refused(bad_labels ${_dp} "drasim[.]submit: labels: app: 'not valid!' is not a valid label value")
lua20_refused(bad_free_devices_cel ${_dra} "drasim[.]free_devices: selector: CEL selector does not compile: .*Syntax error")
lua20_refused(bad_free_devices_class ${_dra} "drasim[.]free_devices: class: no DeviceClass named 'nope[.]example[.]com'")
lua20_refused(bad_free_devices_mode ${_dp} "drasim[.]free_devices: only in dra mode")
lua20_refused(bad_nodes_field ${_dra} "drasim[.]nodes: unknown field 'gpu'")
lua20_refused(bad_claim_count ${_dra} "drasim[.]claim: count: expected a positive integer or \"all\"")
lua20_refused(bad_claim_field ${_dra} "drasim[.]claim: unknown field 'devices'")
lua20_refused(bad_claim_selector ${_dra} "drasim[.]submit: gpu[.]dra claim lua/gpu: CEL selector does not compile")

# The jobs library in dra mode: DRA claims from the device-plugin demand.
drasim_cli_test(NAME lua20/jobs-dra
  COMMAND run ${_dra} --set workload.lua.script=jobs_dra.lua -o ${_l20}/jobs-dra.db --force
  EXPECT "4 pods arrived, 4 scheduled"
  SQL ${_l20}/jobs-dra.db "SELECT value FROM summary WHERE metric = 'user_jobs_ok'" "^1[.]0$"
      ${_l20}/jobs-dra.db "SELECT count(*), count(DISTINCT pod_id) FROM claim_allocations" "^7[|]4$")

# Processes (tests/lua20/process.lua asserts the order and times of its events by hand).
drasim_cli_test(NAME lua20/process
  COMMAND run ${_dp} --set workload.lua.script=process.lua -o ${_l20}/process.db --force
  EXPECT "3 pods arrived, 3 scheduled"
  SQL ${_l20}/process.db "SELECT value FROM summary WHERE metric = 'user_all_at'" "^1500[.]0$"
      ${_l20}/process.db "SELECT group_concat(name || ':' || state || ':' || completion_ms, ' ') FROM (SELECT * FROM pods ORDER BY name)"
      "^a:Succeeded:660000 b:Deleted:300000 c:Succeeded:1500000$")
function(lua20_refused_at name expect)   # errors raised inside a process (a timer callback resumes it)
  drasim_cli_test(NAME lua20/refused-${name}
    COMMAND run ${_dp} --set workload.lua.script=${name}.lua -o ${_l20}/${name}.db
    EXIT 3
    EXPECT "drasim[.]process: [^ ]*${name}[.]lua:[0-9]+: ${expect}"
    FILE_ABSENT ${_l20}/${name}.db)
endfunction()
lua20_refused_at(process_error "attempt to index a nil value .local 't'.")
lua20_refused_at(bad_wait_unknown "drasim[.]wait: no pod named 'nope' was submitted")
lua20_refused_at(bad_sleep_duration "drasim[.]sleep: expected a duration such as 90s")
lua20_refused_at(bad_any_item "drasim[.]any: item 1: expected a process")
lua20_refused(bad_sleep_outside ${_dp} "drasim[.]sleep: only inside a drasim[.]process function")

# csv_rows with declared types (no guessing) and parse_time (tests/lua20/csv_rows.lua asserts each value).
drasim_cli_test(NAME lua20/csv-rows
  COMMAND run ${_dp} --set workload.lua.script=csv_rows.lua -o ${_l20}/csv-rows.db --force
  EXPECT "2 pods arrived, 2 scheduled"
  SQL ${_l20}/csv-rows.db "SELECT group_concat(name || ':' || arrival_ms || ':' || duration_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^job-007:0:300000 job-010:90500:90000$")
lua20_refused(bad_csv_type ${_dp} "drasim[.]csv_rows: [^ ]*rows_bad[.]csv:3: column gpus: expected an integer, found 'two'")
lua20_refused(bad_csv_column ${_dp} "drasim[.]csv_rows: types: [^ ]*rows_bad[.]csv has no column 'gpu'")
lua20_refused(bad_parse_time ${_dp} "drasim[.]parse_time: '2024-13-01T00:00:00Z' is not an ISO 8601 time")

# ---- examples (lua/examples/, scenarios/examples/lua-*.yaml) ----
set(_ex ${CMAKE_SOURCE_DIR}/scenarios/examples)
# The exact CSV replay: every row one pod at its submit time, `job` kept as text ("007").
drasim_cli_test(NAME lua20/example-csv-replay
  COMMAND run ${_ex}/lua-csv-replay.yaml -o ${_l20}/csv-replay.db --force
  EXPECT "5 pods arrived, 5 scheduled"
  SQL ${_l20}/csv-replay.db "SELECT group_concat(name || ':' || arrival_ms || ':' || duration_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^007:0:3600000 008:0:7200000 009:330000:600000 010:600500:1800000 011:1800000:900000$")
# The serving fleet: after every reconcile (each 5 min) the running replicas equal the
# target; scale-down deleted the surplus replicas.
drasim_cli_test(NAME lua20/example-serving
  COMMAND run ${_ex}/lua-serving.yaml -o ${_l20}/serving.db --force
  SQL ${_l20}/serving.db "SELECT count(*), sum(t.value <> r.value), min(t.value), max(t.value) FROM user_samples t JOIN user_samples r ON r.run_id = t.run_id AND r.time_ms = t.time_ms AND r.series = 'user_ready' WHERE t.series = 'user_target'"
      "^576[|]0[|]2[.]0[|]16[.]0$"
      ${_l20}/serving.db "SELECT count(*) > 20 FROM pods WHERE state = 'Deleted' AND reason = 'scaled down'" "^1$")
# Notebooks culled after 1 h idle: each culled one ran at least the hour of idleness, and
# every notebook that had to wait started at the moment a culled one freed its GPU.
drasim_cli_test(NAME lua20/example-notebooks
  COMMAND run ${_ex}/lua-notebooks.yaml -o ${_l20}/notebooks.db --force
  SQL ${_l20}/notebooks.db "SELECT count(*) >= 20, min(completion_ms - scheduled_ms) >= 3600000 FROM pods WHERE state = 'Deleted' AND reason = 'culled after 1h idle'" "^1[|]1$"
      ${_l20}/notebooks.db "SELECT count(*) FROM pods WHERE scheduled_ms > arrival_ms" "^10$"
      ${_l20}/notebooks.db "SELECT count(*) FROM pods p WHERE scheduled_ms > arrival_ms AND NOT EXISTS (SELECT 1 FROM pods d WHERE d.state = 'Deleted' AND d.completion_ms = p.scheduled_ms)" "^0$"
      ${_l20}/notebooks.db "SELECT max(gpus_alloc) FROM samples" "^8$")
# The job-level wait (recorded) equals the one recomputed from pods and their job labels,
# is longer than the pod-level wait, and compare shows it for two fleets.
set(_jw "SELECT avg(w) / 1000.0 FROM (SELECT max(p.scheduled_ms) - min(p.arrival_ms) AS w FROM pods p JOIN pod_labels l USING (run_id, pod_id) WHERE l.key = 'job' GROUP BY l.value HAVING count(p.scheduled_ms) = 4)")
drasim_cli_test(NAME lua20/example-job-wait-a
  COMMAND run ${_ex}/lua-job-wait.yaml -o ${_l20}/job-wait-a.db --force
  SQL ${_l20}/job-wait-a.db "${_jw}" "^5700[.]0$"
      ${_l20}/job-wait-a.db "SELECT group_concat(metric || '=' || value, ' ') FROM (SELECT * FROM summary WHERE grp = '' AND metric IN ('wait_mean_s', 'user_job_wait_mean_s') ORDER BY metric)" "^user_job_wait_mean_s=5700[.]0 wait_mean_s=5100[.]0$")
drasim_cli_test(NAME lua20/example-job-wait-b
  COMMAND run ${_ex}/lua-job-wait.yaml --set cluster.nodePools[0].count=4 -o ${_l20}/job-wait-b.db --force
  SQL ${_l20}/job-wait-b.db "${_jw}" "^0[.]0$")
drasim_cli_test(NAME lua20/example-job-wait-compare
  COMMAND compare ${_l20}/job-wait-a.db ${_l20}/job-wait-b.db
  DEPENDS lua20/example-job-wait-a lua20/example-job-wait-b
  EXPECT "user_job_wait_mean_s +5700 +0 +-5700" "user_job_wait_max_s +10800 +0 " "wait_mean_s +5100 +0 +-5100")

# The same scripts in DRA mode (CPU pods on tests/lua20/dra.yaml): labels and processes.
drasim_cli_test(NAME lua20/labels-dra
  COMMAND run ${_dra} --set workload.lua.script=labels.lua -o ${_l20}/labels-dra.db --force
  EXPECT "4 pods arrived, 4 scheduled"
  SQL ${_l20}/labels-dra.db "SELECT count(*), count(DISTINCT pod_id) FROM pod_labels" "^6[|]3$")
drasim_cli_test(NAME lua20/process-dra
  COMMAND run ${_dra} --set workload.lua.script=process.lua -o ${_l20}/process-dra.db --force
  SQL ${_l20}/process-dra.db "SELECT group_concat(name || ':' || state || ':' || completion_ms, ' ') FROM (SELECT * FROM pods ORDER BY name)"
      "^a:Succeeded:660000 b:Deleted:300000 c:Succeeded:1500000$")
drasim_cli_test(NAME lua20/csv-rows-dra
  COMMAND run ${_dra} --set workload.lua.script=csv_rows.lua -o ${_l20}/csv-rows-dra.db --force
  EXPECT "2 pods arrived, 2 scheduled")
