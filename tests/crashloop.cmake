# Pods on a failed GPU (issue 26 item 6, docs/DYNAMICS.md "Pods on a failed
# GPU"): a fatal XID kills their CUDA processes; restartPolicy decides what
# follows (kubelet's CrashLoopBackOff in place, or a failed pod and its Job's
# replacement). Every expected value is derived in the scenario's header.
set(_cl_out ${CMAKE_CURRENT_BINARY_DIR}/crashloop-cli)
set(_cl ${CMAKE_SOURCE_DIR}/tests/crashloop)
file(MAKE_DIRECTORY ${_cl_out})

# the back-off sequence 10, 20, 40, 80, 160, 300, 300 s, read off seven GPUs repaired at different times
set(_d ${_cl_out}/backoff.db)
drasim_cli_test(NAME crashloop/backoff-sequence
  COMMAND run ${_cl}/backoff.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat(completion_ms / 1000, ' ') FROM (SELECT completion_ms FROM pods WHERE state = 'Succeeded' ORDER BY completion_ms)"
            "^16210 16230 16270 16350 16510 16810 17110$"
      ${_d} "SELECT group_concat(metric || '=' || round(value, 6), ' ') FROM summary WHERE grp = '' AND metric IN ('xid_pod_crashes', 'xid_container_restarts', 'xid_pods_failed', 'gpu_hours_lost_xid', 'gpu_hours_crashloop', 'evictions')"
            "^evictions=0[.]0 xid_pod_crashes=7[.]0 xid_container_restarts=35[.]0 xid_pods_failed=0[.]0 gpu_hours_lost_xid=3[.]5 gpu_hours_crashloop=0[.]580556$"
      ${_d} "SELECT group_concat(metric || '=' || round(value, 6), ' ') FROM summary WHERE grp = 'train' AND metric IN ('gpu_hours_lost_xid', 'gpu_hours_crashloop')"
            "^gpu_hours_lost_xid=3[.]5 gpu_hours_crashloop=0[.]580556$")

# the back-off is forgotten after 10 min of running, kept before; lost work = time since the last checkpoint
set(_d ${_cl_out}/reset-expired.db)
drasim_cli_test(NAME crashloop/backoff-reset-after-10min
  COMMAND run ${_cl}/reset.yaml -o ${_d} --set faults.events=${_cl}/reset-expired.csv
  SQL ${_d} "SELECT completion_ms FROM pods" "^16920000$"
      ${_d} "SELECT group_concat(metric || '=' || round(value, 6), ' ') FROM summary WHERE grp = '' AND metric IN ('xid_pod_crashes', 'xid_container_restarts', 'gpu_hours_lost_xid', 'gpu_hours_crashloop')"
            "^xid_pod_crashes=2[.]0 xid_container_restarts=4[.]0 gpu_hours_lost_xid=0[.]694444 gpu_hours_crashloop=0[.]005556$")
set(_d ${_cl_out}/reset-kept.db)
drasim_cli_test(NAME crashloop/backoff-kept-within-10min
  COMMAND run ${_cl}/reset.yaml -o ${_d} --set faults.events=${_cl}/reset-kept.csv
  SQL ${_d} "SELECT completion_ms FROM pods" "^16530000$"
      ${_d} "SELECT group_concat(metric || '=' || round(value, 6), ' ') FROM summary WHERE grp = '' AND metric IN ('xid_pod_crashes', 'xid_container_restarts', 'gpu_hours_lost_xid', 'gpu_hours_crashloop')"
            "^xid_pod_crashes=2[.]0 xid_container_restarts=3[.]0 gpu_hours_lost_xid=0[.]583333 gpu_hours_crashloop=0[.]008333$")

# restartPolicy Never: the pods fail, the Job's replacement lands on the one healthy GPU, the bare pod is lost
set(_d ${_cl_out}/never.db)
drasim_cli_test(NAME crashloop/never-replaced-on-healthy-gpu
  COMMAND run ${_cl}/never.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat(name || ':' || state || ':' || scheduled_ms || ':' || completion_ms || ':' || devices || ':' || ifnull(reason, '-'), ' ') FROM (SELECT * FROM pods ORDER BY name)"
            "^bare-0:Failed:0:9000000:nvidia[.]com/gpu=[01]:Error train-0:Failed:0:9000000:nvidia[.]com/gpu=[01]:Error train-1:Succeeded:9000000:16200000:nvidia[.]com/gpu=2:-$"
      ${_d} "SELECT group_concat(grp || '.' || metric || '=' || round(value, 6), ' ') FROM summary WHERE metric IN ('xid_pods_failed', 'xid_pods_lost', 'gpu_hours_lost_xid', 'xid_container_restarts', 'gpu_hours_crashloop', 'evictions')"
            "^[.]evictions=0[.]0 [.]xid_container_restarts=0[.]0 [.]xid_pods_failed=2[.]0 [.]xid_pods_lost=1[.]0 [.]gpu_hours_lost_xid=3[.]0 [.]gpu_hours_crashloop=0[.]0 train[.]evictions=0[.]0 bare[.]evictions=0[.]0 train[.]xid_container_restarts=0[.]0 train[.]xid_pods_failed=1[.]0 train[.]xid_pods_lost=0[.]0 train[.]gpu_hours_lost_xid=0[.]5 train[.]gpu_hours_crashloop=0[.]0 bare[.]xid_container_restarts=0[.]0 bare[.]xid_pods_failed=1[.]0 bare[.]xid_pods_lost=1[.]0 bare[.]gpu_hours_lost_xid=2[.]5 bare[.]gpu_hours_crashloop=0[.]0$")

# Lua: drasim.submit{restartPolicy = "Never"}; the pod's state "failed"; a bad value refused (lua_restart.lua)
set(_d ${_cl_out}/lua.db)
drasim_cli_test(NAME crashloop/lua-restart-policy
  COMMAND run ${_cl}/lua.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat(name || ':' || state || ':' || scheduled_ms || ':' || completion_ms || ':' || devices, ' ') FROM (SELECT * FROM pods ORDER BY name)"
            "^job:Failed:0:5400000:nvidia[.]com/gpu=0 job-r1:Succeeded:5400000:12600000:nvidia[.]com/gpu=1$")

# DRA mode keeps its pods' fate (tests/faults/repair.yaml: a, a bare pod, holds the failed GPU until it
# ends at 2h); the crash is measured: lost 1 h (all of it, no checkpoint), dead from 1h to 2h, no restarts
set(_d ${_cl_out}/repair-dra.db)
drasim_cli_test(NAME crashloop/dra-measured
  COMMAND run ${CMAKE_SOURCE_DIR}/tests/faults/repair.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat(name || ':' || state || ':' || completion_ms, ' ') FROM (SELECT * FROM pods ORDER BY name)"
            "^a-0:Succeeded:7200000 b-0:Succeeded:9000000 c-0:Succeeded:14400000$"
      ${_d} "SELECT group_concat(metric || '=' || round(value, 6), ' ') FROM summary WHERE grp = '' AND metric IN ('xid_pod_crashes', 'xid_container_restarts', 'gpu_hours_lost_xid', 'gpu_hours_crashloop')"
            "^xid_pod_crashes=1[.]0 xid_container_restarts=0[.]0 gpu_hours_lost_xid=1[.]0 gpu_hours_crashloop=1[.]0$")

# a clean run writes every counter as 0
set(_d ${_cl_out}/clean.db)
drasim_cli_test(NAME crashloop/clean-run-zeros
  COMMAND run ${_cl}/backoff.yaml -o ${_d} --set faults=null
  SQL ${_d} "SELECT count(*) || ' ' || sum(value) FROM summary WHERE metric IN ('xid_pod_crashes', 'xid_container_restarts', 'xid_pods_failed', 'xid_pods_lost', 'gpu_hours_lost_xid', 'gpu_hours_crashloop')"
            "^12 0[.]0$")

# bad input: FILE:LINE:COL, exit 3, nothing written
foreach(_case
    "unknown|unknown[.]yaml:17:20: restartPolicy: expected Always, OnFailure or Never"
    "job-always|job-always[.]yaml:18:20: restartPolicy: a Job's pods must say OnFailure or Never [(]owner: job[)]"
    "service-never|service-never[.]yaml:18:20: restartPolicy: a ReplicaSet's pods must say Always [(]owner: service[)]")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _msg)
  drasim_cli_test(NAME crashloop/bad-${_name}
    COMMAND run ${_cl}/bad/${_name}.yaml -o ${_cl_out}/bad-${_name}.db
    EXIT 3 EXPECT "${_msg}" FILE_ABSENT ${_cl_out}/bad-${_name}.db)
endforeach()

# `run` says what the failures cost (the same numbers as backoff-sequence above), not only the database
drasim_cli_test(NAME crashloop/run-prints-failures
  COMMAND run ${_cl}/backoff.yaml -o ${_cl_out}/backoff-print.db
  EXPECT "failures: 7 GPU, 0 node; work lost 0[.]00 GPU-hours at evictions, 3[.]50 at fatal XIDs; 7 pods crashed, 35 container restarts, crash loops held 0[.]58 GPU-hours")
