# Job traces (issue 29, docs/TRACES.md): each preset reads the README rows of
# its trace (data/traces/) or a constructed export (tests/traces/README.md);
# every pod is checked against its source row: id, tenant (pod group =
# namespace), arrival (submit - the earliest submit), recorded run time
# (end - start), in both replay modes. Expected values are the rows' own
# times, subtracted by hand in the comments.
set(_tr_out ${CMAKE_CURRENT_BINARY_DIR}/traces-cli)
set(_tr ${CMAKE_SOURCE_DIR}/tests/traces)
file(MAKE_DIRECTORY ${_tr_out})
set(_tr_pods "SELECT group_concat(p.name || ':' || g.name || ':' || p.arrival_ms || ':' || p.scheduled_ms || ':' || p.duration_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id) p JOIN pod_groups g USING (run_id, group_id)")

# Helios: 18:41:01 is 0; 18:41:27 = +26 s, 18:41:28 = +27 s; durations 36848, 249, 675233 s (= end - start)
set(_d ${_tr_out}/helios.db)
drasim_cli_test(NAME traces/helios-submit
  COMMAND run ${_tr}/helios.yaml -o ${_d}
  SQL ${_d} "${_tr_pods}" "^1425511:vcJkd:0:0:36848000 1425512:vchbv:26000:26000:249000 1425513:vcpDC:27000:27000:675233000$"
      ${_d} "SELECT group_concat(pod_id || '=' || value, ' ') FROM (SELECT * FROM pod_labels WHERE key = 'user' ORDER BY pod_id)" "^0=uXBbc 1=uVMrF 2=uzqls$"
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = 'vchbv' AND metric IN ('jobs', 'jct_mean_s', 'slowdown_mean')" "^jobs=1[.]0 jct_mean_s=249[.]0 slowdown_mean=1[.]0$"
      ${_d} "SELECT group_concat(grp || '=' || value, ' ') FROM summary WHERE metric = 'jobs' ORDER BY grp" "^=3[.]0 gpus:1=2[.]0 gpus:2-4=1[.]0 vcJkd=1[.]0 vchbv=1[.]0 vcpDC=1[.]0$")
set(_d ${_tr_out}/helios-rec.db)
drasim_cli_test(NAME traces/helios-as-recorded
  COMMAND run ${_tr}/helios.yaml -o ${_d} --set "workload.jobs[0].mode=as-recorded"
  SQL ${_d} "${_tr_pods}" "^1425511:vcJkd:0:0:36848000 1425512:vchbv:26000:26000:249000 1425513:vcpDC:27000:27000:675233000$"
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = '' AND metric IN ('recorded_wait_mean_s', 'job_wait_mean_s', 'jobs_started_as_recorded')" "^job_wait_mean_s=0[.]0 recorded_wait_mean_s=0[.]0 jobs_started_as_recorded=3[.]0$")

# Acme Seren (+08:00): 00:18:22 is 0, 00:23:58 = +336 s; starts +32 s and +349 s (queue 32, 13);
# run 00:18:54-00:20:51 = 117 s, 00:24:11-01:09:04 = 2693 s; tenant = user u5907
set(_d ${_tr_out}/seren.db)
drasim_cli_test(NAME traces/acme-seren-submit
  COMMAND run ${_tr}/seren.yaml -o ${_d}
  SQL ${_d} "${_tr_pods}" "^5778432:u5907:0:0:117000 5778469:u5907:336000:336000:2693000$"
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = 'gpus:5-8' AND metric IN ('jobs', 'jct_mean_s')" "^jobs=2[.]0 jct_mean_s=1405[.]0$")
# as-recorded on the trace's own capacity (one 8-GPU node suffices): the recorded starts are reproduced
set(_d ${_tr_out}/seren-rec.db)
drasim_cli_test(NAME traces/acme-seren-as-recorded-reproduces-starts
  COMMAND run ${_tr}/seren.yaml -o ${_d} --set "workload.jobs[0].mode=as-recorded"
  SQL ${_d} "${_tr_pods}" "^5778432:u5907:32000:32000:117000 5778469:u5907:349000:349000:2693000$"
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = '' AND metric IN ('recorded_wait_mean_s', 'job_wait_mean_s', 'jobs_started_as_recorded')" "^job_wait_mean_s=22[.]5 recorded_wait_mean_s=22[.]5 jobs_started_as_recorded=2[.]0$")

# Acme Kalos: 8 nodes -> a gang of 8 pods x 8 GPUs, mem_per_pod_GB 1000 per pod; 11:00:58 is 0,
# 11:28:42 = +1664 s; per pod 960/8 = 120 CPUs, 1000 GB = 10^12 B rounded up to whole MiB; run = end - start (8 s, 70 s: the README's duration column counts from submit)
set(_d ${_tr_out}/kalos.db)
drasim_cli_test(NAME traces/acme-kalos-gangs
  COMMAND run ${_tr}/kalos.yaml -o ${_d}
  SQL ${_d} "SELECT count(*), count(DISTINCT node_id), min(arrival_ms), max(duration_ms) FROM pods WHERE name LIKE 'dlctk696s0jbvitv-%'" "^8[|]8[|]0[|]8000$"
      ${_d} "SELECT count(*), min(arrival_ms), max(duration_ms) FROM pods WHERE name LIKE 'dlc1t2ypl09b8qtp-%'" "^8[|]1664000[|]70000$"
      ${_d} "SELECT requests FROM pod_groups" "^cpu=120000;memory=1000000716800;nvidia[.]com/gpu=8$"
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = 'gpus:33+' AND metric IN ('jobs', 'jct_p50_s')" "^jobs=2[.]0 jct_p50_s=8[.]0$")
set(_d ${_tr_out}/kalos-rec.db)
drasim_cli_test(NAME traces/acme-kalos-as-recorded
  COMMAND run ${_tr}/kalos.yaml -o ${_d} --set "workload.jobs[0].mode=as-recorded"
  SQL ${_d} "SELECT group_concat(DISTINCT scheduled_ms) FROM pods" "^10000,1676000$"
      ${_d} "SELECT value FROM summary WHERE grp = '' AND metric = 'jobs_started_as_recorded'" "^2[.]0$")

# Slurm sacct --parsable2 (constructed, tests/traces/README.md): the step 101.batch, the GPU-less 103 and
# the CANCELLED 104 skipped and counted; 102 (gres/gpu:a100=16, node=2) a 2 x 8 gang that waits for 101's
# GPUs (09:00 + 1 h = +3600 s); Elapsed 1-02:00:00 = 93600 s; tenant = Account
set(_d ${_tr_out}/slurm.db)
drasim_cli_test(NAME traces/slurm-submit
  COMMAND run ${_tr}/slurm.yaml -o ${_d}
  EXPECT "3 of 6 rows skipped [(]state 1, no_gpu 1, step 1[)]"
  SQL ${_d} "${_tr_pods}" "^101:vision:0:0:3600000 102-0:nlp:600000:3600000:93600000 102-1:nlp:600000:3600000:93600000 105:vision:2400000:2400000:630000$"
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = '' AND metric LIKE 'jobs_skipped_%'" "^jobs_skipped_state=1[.]0 jobs_skipped_no_gpu=1[.]0 jobs_skipped_not_started=0[.]0 jobs_skipped_step=1[.]0$"
      ${_d} "SELECT round(value, 4) FROM summary WHERE grp = 'nlp' AND metric = 'slowdown_mean'" "^1[.]0321$")
# as-recorded: arrivals at the recorded starts (+5 s, 09:30 = +1800 s, 09:45 = +2700 s); 102 recorded a
# 1200 s wait, here it waits for 101 (ends 5 + 3600 s): 3605 - 600 = 3005 s, side by side
set(_d ${_tr_out}/slurm-rec.db)
drasim_cli_test(NAME traces/slurm-as-recorded
  COMMAND run ${_tr}/slurm.yaml -o ${_d} --set "workload.jobs[0].mode=as-recorded"
  SQL ${_d} "${_tr_pods}" "^101:vision:5000:5000:3600000 102-0:nlp:1800000:3605000:93600000 102-1:nlp:1800000:3605000:93600000 105:vision:2700000:2700000:630000$"
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = 'nlp' AND metric IN ('recorded_wait_mean_s', 'job_wait_mean_s')" "^job_wait_mean_s=3005[.]0 recorded_wait_mean_s=1200[.]0$")

# bad input: FILE:LINE:COL, exit 3, no database
foreach(_case "time;bad-time.csv:3:[0-9]+: start '2020-06-09 18:4x:27': expected a time"
              "gpu;bad-gpu.csv:3:[0-9]+: gpus 'four': expected a number of GPUs"
              "end;bad-end.csv:4:[0-9]+: end is before start"
              "header;bad-header.csv:1:1: no column 'gpu_num'")
  list(GET _case 0 _n)
  list(GET _case 1 _re)
  drasim_cli_test(NAME traces/bad-${_n}
    COMMAND run ${_tr}/helios.yaml -o ${_tr_out}/bad-${_n}.db --set "workload.jobs[0].file=${_tr}/bad-${_n}.csv"
    EXIT 3
    EXPECT "${_re}"
    FILE_ABSENT ${_tr_out}/bad-${_n}.db)
endforeach()
# a column the map names must exist
drasim_cli_test(NAME traces/bad-mapped-column
  COMMAND run ${_tr}/helios.yaml -o ${_tr_out}/bad-map.db --set "workload.jobs[0].columns.tenant=team"
  EXIT 3
  EXPECT "cluster_log.csv:1:1: no column 'team' [(]the tenant"
  FILE_ABSENT ${_tr_out}/bad-map.db)

# format columns: every key of an entry (tests/traces/columns.yaml); FAILED 1425512 skipped; tenant = user;
# memory = cpu_num x 1 GB per pod (10^9 B rounded up to whole MiB = 1000341504)
set(_d ${_tr_out}/columns.db)
drasim_cli_test(NAME traces/columns-map
  COMMAND run ${_tr}/columns.yaml -o ${_d}
  EXPECT "1 of 3 rows skipped [(]state 1[)]"
  SQL ${_d} "${_tr_pods}" "^1425511:uXBbc:0:0:36848000 1425513:uzqls:27000:27000:675233000$"
      ${_d} "SELECT DISTINCT requests FROM pod_groups" "^cpu=1000;memory=1000341504;nvidia[.]com/gpu=1$"
      ${_d} "SELECT group_concat(pod_id || '=' || value, ' ') FROM (SELECT * FROM pod_labels WHERE key = 'vc' ORDER BY pod_id)" "^0=vcJkd 1=vcpDC$")
# gpuTypeLabel: the GPU type column must match the node label (no node is labelled COMPLETED or CANCELLED)
set(_d ${_tr_out}/columns-type.db)
drasim_cli_test(NAME traces/gpu-type-label-selects
  COMMAND run ${_tr}/columns.yaml -o ${_d} --set "workload.jobs[0].gpuTypeLabel=example.com/gpu-type"
  SQL ${_d} "SELECT count(*) FROM pods WHERE scheduled_ms IS NULL" "^2$")
