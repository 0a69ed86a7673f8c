# CLI tests of cluster dynamics (issue 14, docs/DYNAMICS.md): one hand-made
# cluster per rule in tests/faults/, each expected value derived in the
# scenario's header comment.
set(_flt_out ${CMAKE_CURRENT_BINARY_DIR}/faults-cli)
set(_flt ${CMAKE_SOURCE_DIR}/tests/faults)
file(MAKE_DIRECTORY ${_flt_out})

# NoExecute: untolerated -> at timeAdded (1h); tolerationSeconds 600 -> 1h10m;
# a toleration without seconds -> never (the driver selector taints every
# device). completion_ms is the end of the 30 s grace period (sim_evict).
set(_d ${_flt_out}/tolerations.db)
drasim_cli_test(NAME faults/noexecute-tolerations
  COMMAND run ${_flt}/tolerations.yaml -o ${_d}
  EXPECT "6 pods arrived, 6 scheduled"
  SQL ${_d} "SELECT group_concat(name || ':' || state || ':' || completion_ms || ':' || ifnull(reason, '-'), ' ') FROM (SELECT * FROM pods ORDER BY name)"
            "^forever-0:Succeeded:14400000:- forever-1:Succeeded:14401000:- none-0:Deleted:3630000:DeletionByDeviceTaintManager none-1:Deleted:3630000:DeletionByDeviceTaintManager secs-0:Deleted:4230000:DeletionByDeviceTaintManager secs-1:Deleted:4230000:DeletionByDeviceTaintManager$"
      ${_d} "SELECT group_concat(time_ms || '=' || gpus_healthy || '/' || gpus_tainted || '/' || gpus_failed, ' ') FROM fault_timeline"
            "^0=6/0/0 3600000=0/6/0$")

# a single-device rule (driver + pool + device) evicts only the pod on it
set(_d ${_flt_out}/dra-rule.db)
drasim_cli_test(NAME faults/noexecute-one-device
  COMMAND run ${_flt}/dra-rule.yaml -o ${_d}
  SQL ${_d} "SELECT count(*) || ' ' || group_concat(p.state || ':' || p.completion_ms) FROM pods p JOIN claim_allocations c USING (run_id, pod_id) WHERE c.pool = 'a-0' AND c.device = 'gpu-0'"
            "^1 Deleted:3630000$"
      ${_d} "SELECT count(*) FROM pods WHERE state = 'Succeeded'" "^3$")

# effect None: informational only, nothing evicted, tainted devices still allocated
set(_d ${_flt_out}/none.db)
drasim_cli_test(NAME faults/effect-none
  COMMAND run ${_flt}/tolerations.yaml -o ${_d} --set faults.deviceTaintRules[0].taint.effect=None
  SQL ${_d} "SELECT count(*) FROM pods WHERE state = 'Succeeded' AND reason IS NULL" "^6$"
      ${_d} "SELECT gpus_tainted FROM fault_timeline WHERE time_ms = 3600000" "^6$")

# NoSchedule on an allocated device: its pod keeps running; the device takes no new claim
set(_d ${_flt_out}/noschedule.db)
drasim_cli_test(NAME faults/noschedule-allocated-device
  COMMAND run ${_flt}/noschedule.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat(name || ':' || state || ':' || scheduled_ms || '-' || completion_ms, ' ') FROM (SELECT * FROM pods ORDER BY name)"
            "^first-0:Succeeded:0-7200000 first-1:Succeeded:1000-7201000 later-0:Succeeded:10800000-14400000 later-1:Succeeded:14400000-18000000$"
      ${_d} "SELECT group_concat(DISTINCT c.device) FROM pods p JOIN claim_allocations c USING (run_id, pod_id) WHERE p.name LIKE 'later%'"
            "^gpu-1$")

# an allocated shared claim on a device tainted since accepts no new pods until the taint goes
set(_d ${_flt_out}/shared.db)
drasim_cli_test(NAME faults/shared-claim-tainted
  COMMAND run ${_flt}/shared.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat(name || ':' || scheduled_ms, ' ') FROM (SELECT * FROM pods ORDER BY name)"
            "^notebook-0:0 notebook-1:10800000$")
drasim_cli_test(NAME faults/shared-claim-untainted
  COMMAND run ${_flt}/shared.yaml -o ${_flt_out}/shared-none.db --set faults=null
  SQL ${_flt_out}/shared-none.db "SELECT scheduled_ms FROM pods WHERE name = 'notebook-1'" "^7200000$")

# DeviceTaintRule selectors: pool (2 GPUs), device name (one per node), all three (1); until removes
set(_d ${_flt_out}/selectors.db)
drasim_cli_test(NAME faults/rule-selectors
  COMMAND run ${_flt}/selectors.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat((time_ms / 60000) || 'm=' || gpus_tainted, ' ') FROM fault_timeline"
            "^0m=0 60m=2 120m=0 180m=2 240m=0 300m=1$"
      ${_d} "SELECT value FROM summary WHERE grp = '' AND metric = 'fault_taint_rules'" "^3[.]0$")

# repair clears the taint; device plugin vs DRA on the same fault (scenario header)
set(_d ${_flt_out}/repair-dra.db)
drasim_cli_test(NAME faults/repair-dra
  COMMAND run ${_flt}/repair.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat(name || ':' || scheduled_ms, ' ') FROM (SELECT * FROM pods ORDER BY name)"
            "^a-0:0 b-0:5400000 c-0:10800000$"
      ${_d} "SELECT group_concat(time_ms || '=' || gpus_healthy || '/' || gpus_failed, ' ') FROM fault_timeline"
            "^0=2/0 3600000=1/1 10800000=2/0$"
      ${_d} "SELECT printf('%.4f', value) FROM summary WHERE grp = '' AND metric = 'gpu_hours_unavailable'" "^2[.]0000$")
set(_d ${_flt_out}/repair-dp.db)
# (issue 26) a's process dies at 1h: restartPolicy Always (a bare pod) crash-loops on GPU 0 with
# kubelet's back-off (restarts at 1h + 0, 10, 30, 70, 150, 310 s, then every 300 s: 610 ... 7210 s,
# the first start after the 3h repair) and runs again from the start at 3h00m10s, for 2 h: until
# 5h00m10s. b waits for room until the repair at 3h (allocatable 2, a holds 1); c (2 GPUs) until a ends.
drasim_cli_test(NAME faults/repair-device-plugin
  COMMAND run ${_flt}/repair.yaml -o ${_d} --set scheduling.mode=device-plugin
  SQL ${_d} "SELECT group_concat(name || ':' || state || ':' || scheduled_ms || ':' || devices, ' ') FROM (SELECT * FROM pods ORDER BY name)"
            "^a-0:Succeeded:0:nvidia[.]com/gpu=0 b-0:Succeeded:10800000:nvidia[.]com/gpu=1 c-0:Running:18010000:nvidia[.]com/gpu=0,1$"
      ${_d} "SELECT completion_ms FROM pods WHERE name = 'a-0'" "^18010000$"
      ${_d} "SELECT group_concat(metric || '=' || round(value, 4), ' ') FROM summary WHERE grp = '' AND metric IN ('xid_container_restarts', 'gpu_hours_lost_xid', 'gpu_hours_crashloop')"
            "^xid_container_restarts=29[.]0 gpu_hours_lost_xid=1[.]0 gpu_hours_crashloop=2[.]0028$")

# node failure: unreachable NoExecute, default toleration 300 s, a pod's own 60 s; NoSchedule until repaired
set(_d ${_flt_out}/nodefail.db)
drasim_cli_test(NAME faults/node-failure
  COMMAND run ${_flt}/nodefail.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat(name || ':' || state || ':' || ifnull(completion_ms, '-') || ':' || ifnull(reason, '-'), ' ') FROM (SELECT * FROM pods ORDER BY name)"
            "^dflt-0:Deleted:3930000:DeletionByTaintManager late-0:Succeeded:14400000:- tol60-0:Deleted:3690000:DeletionByTaintManager$"
      ${_d} "SELECT group_concat(time_ms || '=' || gpus_failed || '/' || nodes_down, ' ') FROM fault_timeline"
            "^0=0/0 3600000=4/1 10800000=0/0$"
      ${_d} "SELECT value FROM summary WHERE grp = '' AND metric IN ('fault_node_failures', 'fault_node_repairs')" "^1[.]0\n1[.]0$")

# planned maintenance: cordon + evict at 1h, uncordon at 2h
set(_d ${_flt_out}/drain.db)
drasim_cli_test(NAME faults/maintenance-drain
  COMMAND run ${_flt}/drain.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat(name || ':' || state || ':' || scheduled_ms || ':' || ifnull(reason, '-'), ' ') FROM (SELECT * FROM pods ORDER BY name)"
            "^job-0:Deleted:0:EvictionByEvictionAPI job-1:Running:7200000:-$"
      ${_d} "SELECT printf('%.4f', value) FROM summary WHERE grp = '' AND metric = 'gpu_hours_unavailable'" "^2[.]0000$")

# the Lua verbs (assertions in the script; the timeline here)
set(_d ${_flt_out}/lua.db)
drasim_cli_test(NAME faults/lua-verbs
  COMMAND run ${_flt}/lua.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat((time_ms / 3600000) || 'h=' || gpus_healthy || '/' || gpus_tainted || '/' || gpus_failed || '/' || nodes_down, ' ') FROM fault_timeline"
            "^0h=4/0/0/0 1h=2/2/0/0 2h=3/0/1/0 3h=2/0/2/1 4h=2/2/0/0 5h=4/0/0/0$"
      ${_d} "SELECT state || ':' || reason FROM pods" "^Deleted:DeletionByDeviceTaintManager$")

# owner job: the replacement's new claim (on the untainted GPU) and the work lost since the checkpoint
set(_d ${_flt_out}/owner.db)
drasim_cli_test(NAME faults/replacement-claim-checkpoint
  COMMAND run ${_flt}/owner.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat(p.name || ':' || p.state || ':' || p.arrival_ms || '-' || p.completion_ms || ':' || c.device, ' ') FROM pods p JOIN claim_allocations c USING (run_id, pod_id)"
            "^train-0:Deleted:0-9030000:gpu-0 train-1:Succeeded:9000000-19800000:gpu-1$"
      ${_d} "SELECT group_concat(metric || '=' || value, ' ') FROM summary WHERE grp = 'train' AND metric IN ('evictions_fault', 'pods_replaced', 'gpu_hours_lost_fault')"
            "^evictions_fault=1[.]0 pods_replaced=1[.]0 gpu_hours_lost_fault=0[.]5$")

# every key at once: deterministic, and the workload is the same as without faults
drasim_cli_test(NAME faults/all-keys-a COMMAND run ${_flt}/all-keys.yaml -o ${_flt_out}/all-a.db)
drasim_cli_test(NAME faults/all-keys-b COMMAND run ${_flt}/all-keys.yaml -o ${_flt_out}/all-b.db)
drasim_cli_test(NAME faults/no-faults COMMAND run ${_flt}/all-keys.yaml -o ${_flt_out}/all-none.db --set faults=null)
drasim_cli_test(NAME faults/deterministic RAW
  COMMAND cmp ${_flt_out}/all-a.db ${_flt_out}/all-b.db
  DEPENDS faults/all-keys-a faults/all-keys-b)
drasim_cli_test(NAME faults/workload-unchanged RAW
  COMMAND sqlite3 ${_flt_out}/all-a.db "ATTACH '${_flt_out}/all-none.db' AS n; SELECT count(*), sum(a.arrival_ms = b.arrival_ms AND a.duration_ms = b.duration_ms) FROM main.pods a JOIN n.pods b USING (pod_id) WHERE a.pod_id < 20; SELECT count(*) FROM n.sqlite_master WHERE name = 'fault_timeline'; SELECT count(*) > 3 FROM main.fault_timeline"
  EXPECT "^20[|]20\n0\n1\n$"
  DEPENDS faults/all-keys-a faults/no-faults)

# bad fault specs: FILE:LINE:COL, exit 3, no output
foreach(_case
    "kind|kind[.]yaml:15:30: kind: expected fatal-xid, gpu-lost or nonfatal-xid, found 'fatal'"
    "rate-and-mtbf|rate-and-mtbf[.]yaml:15:30: faults[.]gpuFailures[[][]]: give ratePerGpuDay or mtbf, not both"
    "no-rate|no-rate[.]yaml:15:5: faults[.]nodeFailures[[][]]: missing field 'ratePerNodeDay'"
    "pool|pool[.]yaml:15:12: faults[.]gpuFailures[[][]][.]pool: no node pool named 'b'"
    "effect|effect[.]yaml:15:62: taint[.]effect: expected None, NoSchedule or NoExecute [(]device taints have no PreferNoSchedule[)]"
    "selector|selector[.]yaml:15:25: selector: give at least one of driver, pool, device"
    "until|until[.]yaml:15:30: until: expected a time after 'at'"
    "maint-nodes|maint-nodes[.]yaml:15:22: nodes: expected 1 to the pool's 1 nodes, found 2"
    "repair|repair[.]yaml:15:33: unknown field 'weibull' in duration"
    "rule-dp|rule-dp[.]yaml:15:3: faults[.]deviceTaintRules: DeviceTaintRules need scheduling[.]mode: dra"
    "events-target|bad-target[.]csv:3:4: target: expected gpu/NODE/INDEX"
    "events-node|bad-node[.]csv:3:4: target: no node named 'a-1' in the cluster"
    "events-missing|events-missing[.]yaml:14:11: faults[.]events: .*nosuch[.]csv: cannot open")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(GET _parts 1 _msg)
  drasim_cli_test(NAME faults/bad-${_name}
    COMMAND run ${_flt}/bad/${_name}.yaml -o ${_flt_out}/bad-${_name}.db
    EXIT 3 EXPECT "${_msg}" FILE_ABSENT ${_flt_out}/bad-${_name}.db)
endforeach()

# drasim inventory --at: the cluster as it stood (device taints with timeAdded,
# node taints, device-plugin allocatable), and it reads back as a recorded inventory
drasim_cli_test(NAME faults/inventory-at-dra
  COMMAND inventory ${_flt}/lua.yaml --at 150m -o ${_flt_out}/inv-150m.yaml
  FILE_EXISTS ${_flt_out}/inv-150m.yaml)
drasim_cli_test(NAME faults/inventory-at-dra-taint RAW
  COMMAND grep -A4 "^    taints:" ${_flt_out}/inv-150m.yaml
  EXPECT "^    taints:\n    - key: gpu[.]nvidia[.]com/gpu-lost\n      effect: NoSchedule\n      timeAdded: \"?1970-01-01T02:00:00Z\"?\n"
  DEPENDS faults/inventory-at-dra)
drasim_cli_test(NAME faults/inventory-at-node-taints
  COMMAND inventory ${_flt}/nodefail.yaml --at 90m
  EXPECT "spec:\n  taints:\n  - key: node[.]kubernetes[.]io/unreachable\n    effect: NoSchedule\n  - key: node[.]kubernetes[.]io/unreachable\n    effect: NoExecute\n")
drasim_cli_test(NAME faults/inventory-at-device-plugin
  COMMAND inventory ${_flt}/dp-gpu.yaml --at 2h
  EXPECT "  allocatable:\n    cpu: \"32\"\n    memory: 256Gi\n    nvidia[.]com/gpu: \"1\"\n"
         "  capacity:\n    cpu: \"32\"\n    memory: 256Gi\n    nvidia[.]com/gpu: \"2\"\n")
drasim_cli_test(NAME faults/inventory-at-repaired
  COMMAND inventory ${_flt}/dp-gpu.yaml --at 3h
  EXPECT "  allocatable:\n    cpu: \"32\"\n    memory: 256Gi\n    nvidia[.]com/gpu: \"2\"\n")
drasim_cli_test(NAME faults/inventory-at-after-stop
  COMMAND inventory ${_flt}/dp-gpu.yaml --at 5h
  EXIT 3 EXPECT "--at: 18000[.]000 s is not before the scenario's stop[.]time [(]14400[.]000 s[)]")

# the cluster at 36 h of the gpu-failures example (device taints with
# timeAdded) validates against the Kubernetes API schema (tools/k8s-schema)
drasim_k8s_validate(NAME faults/inventory-at-schema
  COMMAND inventory ${CMAKE_SOURCE_DIR}/scenarios/examples/gpu-failures.yaml --at 36h
  EXPECT "40 Node, [0-9]+ DeviceClass, 40 ResourceSlice")

# the shipped example and its device-plugin twin: the same GPU failures (each
# GPU's failures come from its own stream, docs/DYNAMICS.md): 320 GPUs x 0.02
# a day x 7 days = 44.8 expected (Poisson, sd 6.7); seed 1 draws 35, 33 of
# them repaired within the week: 33 x 24 h + the two open ones' 13.6 h =
# 805.6 GPU-hours of 320 x 168 = 1.5 %. DRA evicts and replaces (work redone),
# the device plugin evicts nothing. (Before common random numbers for faults,
# seed 1 drew 48.)
set(_d ${_flt_out}/example-dra.db)
drasim_cli_test(NAME faults/example-gpu-failures
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/gpu-failures.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat(metric || '=' || round(value, 1), ' ') FROM summary WHERE grp = '' AND metric IN ('fault_gpu_failures', 'gpu_unavailable_pct', 'evictions_fault', 'pods_replaced', 'pods_lost')"
            "^fault_gpu_failures=35[.]0 gpu_unavailable_pct=1[.]5 evictions_fault=23[.]0 pods_lost=0[.]0 pods_replaced=23[.]0$"
      ${_d} "SELECT round(value, 1) FROM summary WHERE grp = 'train-8gpu' AND metric = 'gpu_hours_lost_fault'" "^47[.]7$"
      ${_d} "SELECT round(value, 1) FROM summary WHERE grp = '' AND metric = 'gpu_hours_unavailable'" "^805[.]6$")
set(_d ${_flt_out}/example-dp.db)
drasim_cli_test(NAME faults/example-gpu-failures-dp
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/gpu-failures-dp.yaml -o ${_d}
  SQL ${_d} "SELECT group_concat(metric || '=' || round(value, 1), ' ') FROM summary WHERE grp = '' AND metric IN ('fault_gpu_failures', 'gpu_unavailable_pct', 'evictions')"
            "^fault_gpu_failures=35[.]0 gpu_unavailable_pct=1[.]5 evictions=0[.]0$"
      # issue 26: the device plugin's true cost. Nothing is evicted, but the jobs on a failed GPU lose
      # their work since the last checkpoint and crash-loop on it (restartPolicy OnFailure, a job's
      # default) until its repair 24 h later, holding their node's 8 GPUs; the replicas (Always) too
      ${_d} "SELECT (SELECT value > 0 FROM summary WHERE grp = 'train-8gpu' AND metric = 'gpu_hours_lost_xid') || (SELECT value > 0 FROM summary WHERE grp = 'train-8gpu' AND metric = 'gpu_hours_crashloop') || (SELECT value = 0 FROM summary WHERE grp = 'infer-1gpu' AND metric = 'gpu_hours_lost_xid') || (SELECT value > 0 FROM summary WHERE grp = 'infer-1gpu' AND metric = 'gpu_hours_crashloop') || (SELECT value FROM summary WHERE grp = '' AND metric = 'xid_pods_failed')"
            "^11110[.]0$")
