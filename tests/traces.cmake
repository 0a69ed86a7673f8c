# Job traces (issue 29, docs/TRACES.md): each preset reads the README rows of
# its trace (data/traces/) or a constructed export (tests/traces/README.md);
# every pod is checked against its source row: id, tenant (pod group; the
# namespace its RFC 1123 form), arrival (submit - the earliest submit), recorded run time
# (end - start), in both replay modes. Expected values are the rows' own
# times, subtracted by hand in the comments.
set(_tr_out ${CMAKE_CURRENT_BINARY_DIR}/traces-cli)
set(_tr ${CMAKE_SOURCE_DIR}/tests/traces)
file(MAKE_DIRECTORY ${_tr_out})
set(_tr_pods "SELECT group_concat(p.name || ':' || g.name || ':' || p.arrival_ms || ':' || p.scheduled_ms || ':' || p.duration_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id) p JOIN pod_groups g USING (run_id, group_id)")

# a gang's pods alike: one row per job
set(_tr_jobs "SELECT group_concat(x, ' ') FROM (SELECT DISTINCT g.name || ':' || p.arrival_ms || ':' || p.scheduled_ms || ':' || p.duration_ms AS x FROM pods p JOIN pod_groups g USING (run_id, group_id) ORDER BY p.pod_id)")

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
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = 'gpus:33+' AND metric IN ('jobs', 'jct_p50_s')" "^jobs=2[.]0 jct_p50_s=8[.]0$"
      # per job (its 8 pods alike): tenant (user uf794), arrival, start, run time
      ${_d} "${_tr_jobs}" "^uf794:0:0:8000 uf794:1664000:1664000:70000$")
set(_d ${_tr_out}/kalos-rec.db)
drasim_cli_test(NAME traces/acme-kalos-as-recorded
  COMMAND run ${_tr}/kalos.yaml -o ${_d} --set "workload.jobs[0].mode=as-recorded"
  SQL ${_d} "SELECT group_concat(DISTINCT scheduled_ms) FROM pods" "^10000,1676000$"
      # the recorded starts 11:01:08 = +10 s, 11:28:54 = +1676 s
      ${_d} "${_tr_jobs}" "^uf794:10000:10000:8000 uf794:1676000:1676000:70000$"
      ${_d} "SELECT value FROM summary WHERE grp = '' AND metric = 'jobs_started_as_recorded'" "^2[.]0$")

# Slurm sacct --parsable2 (constructed, tests/traces/README.md): the step 101.batch, the GPU-less 103 and
# the CANCELLED 104 skipped and counted; 102 (gres/gpu:a100=16, node=2) a 2 x 8 gang that waits for 101's
# GPUs (09:00 + 1 h = +3600 s); Elapsed 1-02:00:00 = 93600 s; tenant = Account
set(_d ${_tr_out}/slurm.db)
drasim_cli_test(NAME traces/slurm-submit
  COMMAND run ${_tr}/slurm.yaml -o ${_d}
  EXPECT "3 of 6 rows skipped [(]state 1, no_gpu 1, step 1[)]"
  SQL ${_d} "${_tr_pods}" "^101:vision:0:0:3600000 102-0:nlp:600000:3600000:93600000 102-1:nlp:600000:3600000:93600000 105:vision:2400000:2400000:630000$"
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = '' AND metric LIKE 'jobs_skipped_%'" "^jobs_skipped_state=1[.]0 jobs_skipped_no_gpu=1[.]0 jobs_skipped_not_started=0[.]0 jobs_skipped_step=1[.]0 jobs_skipped_no_job=0[.]0$"
      ${_d} "SELECT round(value, 4) FROM summary WHERE grp = 'nlp' AND metric = 'slowdown_mean'" "^1[.]0321$"
      # submit mode too puts the recorded waits (start - submit: 101 +5 s, 105 09:45 - 09:40 = 300 s, 102 1200 s)
      # next to the simulated ones (101 and 105 at once, 102 waits 09:10 -> 10:00 = 3000 s)
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = 'vision' AND metric IN ('recorded_wait_mean_s', 'recorded_wait_p99_s', 'job_wait_mean_s', 'job_wait_p99_s')" "^job_wait_mean_s=0[.]0 job_wait_p99_s=0[.]0 recorded_wait_mean_s=152[.]5 recorded_wait_p99_s=300[.]0$"
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = 'nlp' AND metric IN ('recorded_wait_mean_s', 'job_wait_mean_s')" "^job_wait_mean_s=3000[.]0 recorded_wait_mean_s=1200[.]0$")
# as-recorded: arrivals at the recorded starts (+5 s, 09:30 = +1800 s, 09:45 = +2700 s); 102 recorded a
# 1200 s wait, here it waits for 101 (ends 5 + 3600 s): 3605 - 600 = 3005 s, side by side
set(_d ${_tr_out}/slurm-rec.db)
drasim_cli_test(NAME traces/slurm-as-recorded
  COMMAND run ${_tr}/slurm.yaml -o ${_d} --set "workload.jobs[0].mode=as-recorded"
  EXPECT "recorded vs simulated waits.*[(]all[)] +3 +2 +501[.]7 +1103[.]3 +1200[.]0 +3005[.]0.*\n +nlp +1 +0 +1200[.]0 +3005[.]0 +1200[.]0 +3005[.]0"
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

# Alibaba PAI v2020 (data/traces/pai-v2020, its README marks the constructed rows): the task table joined
# with the job table by job_name; a task = a gang of inst_num pods, submit = its job's start_time, tenant =
# its job's user. Origin 1739100 (job_0's submit) = 0: job_0's worker (inst_num 2, plan_gpu 50 -> 1 GPU
# per pod, rounded up; plan_cpu 400 -> 4 CPUs; plan_mem 29.296875 GiB = 31457280000 B) at 0, starts
# 1739110 = +10 s, runs 1739800 - 1739110 = 690 s; job_0's ps (plan_gpu 0) skipped; the README task
# 4f05... (plan_cpu 600, plan_gpu 50) of user d2d3b77d342e submitted 1739150 = +50 s, starts 1739162 =
# +62 s, runs 38 s; the README job 4b3f... (user 58540f191766) submitted 4550879 = +2811779 s, its task
# starts 4550890 = +2811790 s and runs 4551416 - 4550890 = 526 s (plan_gpu 100 = 1 GPU, plan_cpu 800)
set(_d ${_tr_out}/pai.db)
drasim_cli_test(NAME traces/pai-v2020-submit
  COMMAND run ${_tr}/pai.yaml -o ${_d}
  EXPECT "1 of 4 rows skipped [(]no_gpu 1[)]" "2 jobs asked for GPUs that do not split evenly"
  SQL ${_d} "${_tr_pods}" "^job_0-worker-0:constructed-user-0:0:0:690000 job_0-worker-1:constructed-user-0:0:0:690000 4f057009a5d481acec67b088-tensorflow:d2d3b77d342e:50000:50000:38000 4b3f04b66a525d2df903eb16-worker:58540f191766:2811779000:2811779000:526000$"
      ${_d} "SELECT group_concat(name || '=' || requests, ' ') FROM pod_groups" "^constructed-user-0=cpu=4000;memory=31457280000;nvidia[.]com/gpu=1 d2d3b77d342e=cpu=6000;memory=31457280000;nvidia[.]com/gpu=1 58540f191766=cpu=8000;memory=31457280000;nvidia[.]com/gpu=1$"
      ${_d} "SELECT group_concat(pod_id || '=' || value, ' ') FROM (SELECT * FROM pod_labels WHERE key = 'task' ORDER BY pod_id)" "^0=worker 1=worker 2=tensorflow 3=worker$"
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = '' AND metric IN ('jobs', 'jobs_rows_read', 'jobs_skipped_no_gpu', 'jobs_skipped_no_job', 'jobs_gpus_rounded_up')" "^jobs=3[.]0 jobs_rows_read=4[.]0 jobs_skipped_no_gpu=1[.]0 jobs_skipped_no_job=0[.]0 jobs_gpus_rounded_up=2[.]0$")
# as-recorded on the trace's capacity (two of the README's 2-GPU T4 machines): every recorded start is
# reproduced (+10, +62, +2811790 s); recorded waits 10, 12, 11 s = simulated; the run prints them
set(_d ${_tr_out}/pai-rec.db)
drasim_cli_test(NAME traces/pai-v2020-as-recorded-reproduces-starts
  COMMAND run ${_tr}/pai.yaml -o ${_d} --set "workload.jobs[0].mode=as-recorded"
  EXPECT "[(]all[)] +3 +3 +11[.]0 +11[.]0 +12[.]0 +12[.]0"
  SQL ${_d} "${_tr_pods}" "^job_0-worker-0:constructed-user-0:10000:10000:690000 job_0-worker-1:constructed-user-0:10000:10000:690000 4f057009a5d481acec67b088-tensorflow:d2d3b77d342e:62000:62000:38000 4b3f04b66a525d2df903eb16-worker:58540f191766:2811790000:2811790000:526000$"
      ${_d} "SELECT group_concat(grp || ':' || metric || '=' || value, ' ') FROM summary WHERE grp IN ('', 'd2d3b77d342e') AND metric IN ('recorded_wait_mean_s', 'job_wait_mean_s', 'jobs_started_as_recorded')" "^:job_wait_mean_s=11[.]0 :recorded_wait_mean_s=11[.]0 :jobs_started_as_recorded=3[.]0 d2d3b77d342e:job_wait_mean_s=12[.]0 d2d3b77d342e:recorded_wait_mean_s=12[.]0 d2d3b77d342e:jobs_started_as_recorded=1[.]0$")
# gpu_type must match the node label: no node is MISC, so the README task never starts
set(_d ${_tr_out}/pai-type.db)
drasim_cli_test(NAME traces/pai-v2020-gpu-type
  COMMAND run ${_tr}/pai.yaml -o ${_d} --set "workload.jobs[0].gpuTypeLabel=drasim.io/trace-gpu-type"
  SQL ${_d} "SELECT group_concat(name, ' ') FROM pods WHERE scheduled_ms IS NULL" "^4f057009a5d481acec67b088-tensorflow$")
# a task whose job is not in the job table: skipped and counted (no_job)
set(_d ${_tr_out}/pai-orphan.db)
drasim_cli_test(NAME traces/pai-v2020-task-without-job
  COMMAND run ${_tr}/pai.yaml -o ${_d} --set "workload.jobs[0].jobTable=${_tr}/pai-one-job.csv"
  EXPECT "3 of 4 rows skipped [(]no_gpu 1, no_job 2[)]"
  SQL ${_d} "SELECT group_concat(name, ' ') FROM pods" "^job_0-worker-0 job_0-worker-1$")
foreach(_case "job-time;jobTable=${_tr}/pai-bad-job-time.csv;pai-bad-job-time.csv:2:53: submit '17391x50[.]0': expected a time"
              "dup-job;jobTable=${_tr}/pai-dup-job.csv;pai-dup-job.csv:2:1: job_name 'job_0' repeats"
              # a 0-byte job table: every task would be skipped (no_job), an error, not a run of nothing
              "no-jobs;jobTable=${_tr}/pai-empty-job.csv;pai-empty-job.csv:1:1: the joined table has no rows: no task row could find its job_name"
              "gpu;file=${_tr}/pai-bad-gpu.csv;pai-bad-gpu.csv:2:65: gpus 'fifty': expected a number of GPUs"
              # an empty file name is an error at the field, not an open of the scenario's folder
              "empty-job-table;jobTable=;workload.jobs.jobTable: expected a file name, found an empty string"
              "empty-file;file=;workload.jobs.file: expected a file name, found an empty string")
  list(GET _case 0 _n)
  list(GET _case 1 _set)
  list(GET _case 2 _re)
  drasim_cli_test(NAME traces/pai-v2020-bad-${_n}
    COMMAND run ${_tr}/pai.yaml -o ${_tr_out}/pai-bad-${_n}.db --set "workload.jobs[0].${_set}"
    EXIT 3
    EXPECT "${_re}"
    FILE_ABSENT ${_tr_out}/pai-bad-${_n}.db)
endforeach()

# Alibaba v2026 spot GPU README rows (data/traces/alibaba-spot-v2026): submit_time is already relative
# (0, 9589663 s); no start times. Per worker: 239255 1 A10 GPU, 20 CPUs, 2764799 s; 253689 1 GPU, 8 CPUs,
# 15897599 s (tenant 13, HP); 437260 16 workers and 437261 94 workers, 1 A100 GPU and 15 CPUs each,
# 41060 s and 71718 s (tenant 57, Spot); gpu_model must match the node label
set(_d ${_tr_out}/spot.db)
drasim_cli_test(NAME traces/alibaba-spot-v2026-submit
  COMMAND run ${_tr}/spot-v2026.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat(j || ':' || g || ':' || a || ':' || s || ':' || d || 'x' || n, ' ') FROM (SELECT substr(p.name, 1, 6) j, g.name g, p.arrival_ms a, p.scheduled_ms s, p.duration_ms d, count(*) n FROM pods p JOIN pod_groups g USING (run_id, group_id) GROUP BY 1, 2, 3, 4, 5 ORDER BY 1)" "^239255:13:0:0:2764799000x1 253689:13:0:0:15897599000x1 437260:57:9589663000:9589663000:41060000x16 437261:57:9589663000:9589663000:71718000x94$"
      ${_d} "SELECT group_concat(DISTINCT n.pool) FROM pods p JOIN nodes n USING (run_id, node_id) WHERE p.name LIKE '4372%'" "^a100$"
      ${_d} "SELECT group_concat(DISTINCT g.requests) FROM pods p JOIN pod_groups g USING (run_id, group_id) WHERE p.name LIKE '4372%'" "^cpu=15000;nvidia[.]com/gpu=1$"
      ${_d} "SELECT group_concat(value || '=' || n, ' ') FROM (SELECT value, count(*) n FROM pod_labels WHERE key = 'job_type' GROUP BY value ORDER BY value)" "^HP=2 Spot=110$"
      ${_d} "SELECT group_concat(grp || '=' || value, ' ') FROM (SELECT * FROM summary WHERE metric = 'jobs' ORDER BY grp)" "^=4[.]0 13=2[.]0 57=2[.]0 gpus:1=2[.]0 gpus:33[+]=1[.]0 gpus:9-32=1[.]0$")
# no start times in this trace: as-recorded cannot be replayed, said at load time
drasim_cli_test(NAME traces/alibaba-spot-v2026-as-recorded-refused
  COMMAND run ${_tr}/spot-v2026.yaml -o ${_tr_out}/spot-rec.db --set "workload.jobs[0].mode=as-recorded"
  EXIT 3
  EXPECT "mode as-recorded: needs a start [(]or end[)] column"
  FILE_ABSENT ${_tr_out}/spot-rec.db)

# Microsoft Philly cluster_job_log (data/traces/philly: the README's job, verbatim, and three constructed
# jobs). 01:11:39 (the README job's submit) is 0. The README job (vc ee9e8c, 8 GPUs on m47, then on m412)
# ran twice: 01:12:09-01:13:23 = 74 s, then 01:13:30 - 10-09 06:53:12 = 2 d 5:39:42 = 193182 s: a restart
# (pod -r1) when the first run ends; 90002 (vc b436b2) on two servers x 4 GPUs = a gang of 2 pods,
# submitted 02:00:00 = +2901 s, ran 3600 s; 90003 (ee9e8c, 1 GPU) submitted 02:30:00 = +4701 s, its first
# attempt has end None (left out, counted), its second ran 02:31:00-02:41:00 = 600 s; 90004 (Killed, no
# attempts) never started. JCT of the README job = 74 + 193182 = 193256 s = its recorded run: slowdown 1.
set(_d ${_tr_out}/philly.db)
drasim_cli_test(NAME traces/philly-submit
  COMMAND run ${_tr}/philly.yaml -o ${_d}
  EXPECT "1 of 4 rows skipped [(]not_started 1[)]" "1 attempts without a start or end time"
  SQL ${_d} "${_tr_pods}" "^application_1506638472019_14199:ee9e8c:0:0:74000 application_1506638472019_14199-r1:ee9e8c:74000:74000:193182000 application_constructed_90002-0:b436b2:2901000:2901000:3600000 application_constructed_90002-1:b436b2:2901000:2901000:3600000 application_constructed_90003:ee9e8c:4701000:4701000:600000$"
      ${_d} "SELECT group_concat(name || '=' || requests, ' ') FROM (SELECT DISTINCT name, requests FROM pod_groups ORDER BY requests)" "^ee9e8c=nvidia[.]com/gpu=1 b436b2=nvidia[.]com/gpu=4 ee9e8c=nvidia[.]com/gpu=8$"
      ${_d} "SELECT group_concat(pod_id || '=' || value, ' ') FROM (SELECT * FROM pod_labels WHERE key = 'user' ORDER BY pod_id)" "^0=ce2f4c 1=ce2f4c 2=constructed-u2 3=constructed-u2 4=constructed-u3$"
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = '' AND metric IN ('jobs', 'jobs_rows_read', 'jobs_restarts', 'jobs_attempts_dropped')" "^jobs=3[.]0 jobs_rows_read=4[.]0 jobs_restarts=1[.]0 jobs_attempts_dropped=1[.]0$"
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = 'ee9e8c' AND metric IN ('jobs', 'jct_mean_s', 'slowdown_mean')" "^jobs=2[.]0 jct_mean_s=96928[.]0 slowdown_mean=1[.]0$")
# as-recorded on four 8-GPU servers: every recorded start reproduced, the restart too (01:12:09 = +30 s;
# the second run at its recorded 01:13:30 = +111 s, not when the first ended at +104 s; 02:00:10 = +2911 s;
# 02:31:00 = +4761 s); recorded waits 30, 10, 60 s
set(_d ${_tr_out}/philly-rec.db)
drasim_cli_test(NAME traces/philly-as-recorded-reproduces-starts
  COMMAND run ${_tr}/philly.yaml -o ${_d} --set "workload.jobs[0].mode=as-recorded"
  EXPECT "[(]all[)] +3 +3 +33[.]3 +33[.]3 +60[.]0 +60[.]0"
  SQL ${_d} "SELECT group_concat(name || ':' || arrival_ms || ':' || scheduled_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)" "^application_1506638472019_14199:30000:30000 application_1506638472019_14199-r1:111000:111000 application_constructed_90002-0:2911000:2911000 application_constructed_90002-1:2911000:2911000 application_constructed_90003:4761000:4761000$"
      ${_d} "SELECT value FROM summary WHERE grp = '' AND metric = 'jobs_started_as_recorded'" "^3[.]0$")
# on one server the gang waits for the README job's second run (ends +74 + 193182 = +193256 s), the 1-GPU
# job for the gang (8 GPUs busy until +193256 + 3600 = +196856 s)
set(_d ${_tr_out}/philly-one.db)
drasim_cli_test(NAME traces/philly-one-server-waits
  COMMAND run ${_tr}/philly.yaml -o ${_d} --set "cluster.nodePools[0].count=1"
  SQL ${_d} "SELECT group_concat(name || ':' || scheduled_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)" "^application_1506638472019_14199:0 application_1506638472019_14199-r1:74000 application_constructed_90002-0:193256000 application_constructed_90002-1:193256000 application_constructed_90003:196856000$")
foreach(_case "time;philly-bad-time.json:3:30: start_time '2017-10-07 01:1x:09': expected a time"
              "end;philly-bad-end.json:3:65: end is before start"
              "not-list;philly-bad-not-list.json:1:1: cluster_job_log: expected one JSON list of jobs")
  list(GET _case 0 _n)
  list(GET _case 1 _re)
  drasim_cli_test(NAME traces/philly-bad-${_n}
    COMMAND run ${_tr}/philly.yaml -o ${_tr_out}/philly-bad-${_n}.db --set "workload.jobs[0].file=${_tr}/philly-bad-${_n}.json"
    EXIT 3
    EXPECT "${_re}"
    FILE_ABSENT ${_tr_out}/philly-bad-${_n}.db)
endforeach()

# Fleets (cluster.fleet, data/traces/fleets/, docs/TRACES.md "Fleets"): each trace's published cluster in
# one line; node and GPU totals against the published figures: Helios Earth 1,144 GPUs (the README's
# cluster_gpu_number row of 2020-09-01) = 143 x 8; PAI's pai_machine_spec 1,897 machines (1,814 with GPUs),
# 6,742 GPUs; v2026's node_info_df.csv 4,278 nodes, 10,412 GPUs; Philly 352 x 8 (HeliosArtifact
# philly_vc.csv, 11 VCs); Acme Seren 286 x 8 and Kalos 302 x 8 (NSDI '24 Table 1, unverified: the fleet files say why)
# Helios Venus 1,064 GPUs = 133 x 8 (the total of data/traces/helios/venus-cluster_gpu_number.csv on 2020-09-01)
foreach(_case "helios-earth;143|1144|143" "helios-venus;133|1064|133" "pai-v2020;1897|6742|1814" "alibaba-spot-v2026;4278|10412|4278"
              "philly;352|2816|352" "acme-seren;286|2288|286" "acme-kalos;302|2416|302")
  list(GET _case 0 _f)
  list(GET _case 1 _want)
  string(REPLACE "|" "[|]" _want "${_want}")
  set(_d ${_tr_out}/fleet-${_f}.db)
  drasim_cli_test(NAME traces/fleet-${_f}
    COMMAND run ${_tr}/fleet.yaml -o ${_d} --set "cluster.fleet=${_f}"
    SQL ${_d} "SELECT count(*), sum(gpus), sum(gpus > 0) FROM nodes" "^${_want}$")
endforeach()
# the trace's GPU types stay on the nodes (PAI: per gpu_type; the catalogue's stand-ins carry the devices)
set(_d ${_tr_out}/fleet-pai-types.db)
drasim_cli_test(NAME traces/fleet-pai-v2020-gpu-types
  COMMAND run ${_tr}/fleet.yaml -o ${_d} --set "cluster.fleet=pai-v2020"
  SQL ${_d} "SELECT group_concat(pool || '=' || n || 'x' || g, ' ') FROM (SELECT pool, count(*) n, max(gpus) g FROM nodes GROUP BY pool ORDER BY pool)"
      "^cpu=83x0 misc=280x8 p100=798x2 t4=497x2 v100-384=45x8 v100-512=59x8 v100m32=135x8$")
drasim_cli_test(NAME traces/fleet-unknown
  COMMAND run ${_tr}/fleet.yaml -o ${_tr_out}/fleet-bad.db --set "cluster.fleet=helios-mars"
  EXIT 3
  EXPECT "--set cluster[.]fleet:1:[0-9]+: fleet: unknown fleet 'helios-mars' [(]no data/traces/fleets/helios-mars[.]yaml; shipped: acme-kalos"
  FILE_ABSENT ${_tr_out}/fleet-bad.db)
drasim_cli_test(NAME traces/fleet-and-node-pools
  COMMAND run ${_tr}/helios.yaml -o ${_tr_out}/fleet-both.db --set "cluster.fleet=helios-earth"
  EXIT 3
  EXPECT "--set cluster[.]fleet:1:[0-9]+: cluster: give one of nodePools, inventory or fleet"
  FILE_ABSENT ${_tr_out}/fleet-both.db)

# Helios VCs as Kueue ClusterQueues (data/traces/helios/earth-vc-queues.yaml, localQueue: tenant) on the
# Earth fleet: vcgkz's quota is 8 GPUs, so its second 8-GPU job (+10 s) waits for the first to end
# (0 + 100 s): wait 90 s, though the fleet has room; vcVP5's job (+20 s) starts at once
set(_d ${_tr_out}/helios-vc.db)
drasim_cli_test(NAME traces/helios-vc-quota-waits
  COMMAND run ${_tr}/helios-vc.yaml -o ${_d}
  EXPECT "vcgkz +2 +0 +0 +0[.]0 +90[.]0"
  SQL ${_d} "SELECT group_concat(name || ':' || arrival_ms || ':' || scheduled_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^9000001:0:0 9000002:10000:100000 9000003:20000:20000$")

# an empty trace (a header, no row) says so: a run of 0 pods must not pass for a quiet replay
drasim_cli_test(NAME traces/helios-empty-warns
  COMMAND run ${_tr}/helios.yaml -o ${_tr_out}/helios-empty.db --force --set "workload.jobs[0].file=${_tr}/helios-empty.csv"
  EXPECT "warning: [^\n]*helios-empty[.]csv: no job rows [(]the file holds no data row[)]: nothing of it was replayed")
