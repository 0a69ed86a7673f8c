# cluster.state (docs/STATE.md): a run starts from a recorded cluster. The
# fleet is drasim's own `drasim inventory` (tests/state/inventory.yaml), the
# pods and claims are kubectl-shaped Lists validated against the Kubernetes
# API schema; the times and devices below are hand-derived in the scenarios'
# comments.
set(_st ${CMAKE_SOURCE_DIR}/tests/state)
set(_sto ${CMAKE_BINARY_DIR}/state-tests)
file(MAKE_DIRECTORY ${_sto})

# the inventory is what drasim itself prints for fleet.yaml
drasim_cli_test(NAME state/inventory-is-drasims RAW
  COMMAND sh -c "$0 inventory $1/fleet.yaml | cmp - $1/inventory.yaml && echo same" $<TARGET_FILE:drasim> ${_st}
  EXPECT "^same")
# the dumps are in the API's shape (kubectl's List, every item checked)
drasim_k8s_validate(NAME state/schema FILES ${_st}/state.yaml ${_st}/state-dp.yaml ${_st}/state-node0.yaml
  ${_st}/inventory.yaml
  EXPECT "state[.]yaml: 1 document valid [(]7 Pod, 5 ResourceClaim;" "state-dp[.]yaml: 1 document valid [(]3 Pod;"
         "state-node0[.]yaml: 1 document valid [(]2 Pod, 2 ResourceClaim;")
drasim_k8s_validate(NAME state/schema-list-item FILES ${_st}/bad-schema.yaml EXIT 1
  EXPECT "bad-schema[.]yaml: doc 1: items[[]1[]][.]spec: unknown field \"nodeNmae\"")

# held devices are never handed out again: `new` waits for node-0 gpu-0 until 2h;
# the running pods' held claims are rows of claim_allocations (pods 0-4)
set(_held_sql
  ${_sto}/held.db "SELECT name || '@' || scheduled_ms || '-' || completion_ms || '/' || node_id FROM pods ORDER BY pod_id"
  "^team-a/train-a@0-3600000/0\nteam-a/train-b@0-7200000/0\nteam-a/serve-1@0-5400000/1\nteam-a/serve-2@0-10800000/1\nteam-a/eval-c@0-9000000/1\nteam-a/queued-x@3600000-7200000/0\nnew-0@7200000-9000000/0$"
  ${_sto}/held.db "SELECT pod_id || ':' || pool || '/' || device FROM claim_allocations ORDER BY pod_id"
  "^0:node-0/gpu-0\n1:node-0/gpu-1\n2:node-1/gpu-0\n3:node-1/gpu-0\n4:node-1/gpu-1\n5:node-0/gpu-0\n6:node-0/gpu-0$"
  ${_sto}/held.db "SELECT value FROM summary WHERE grp = '' AND metric = 'gpu_alloc_pct'" "^83[.]33"
  # GPU-hours: train-a 1 + train-b 2 + serve-1 1.5 (the shared claim's GPU is its first user's) + eval-c 2.5
  ${_sto}/held.db "SELECT grp || '=' || value FROM summary WHERE metric = 'gpu_hours_allocated' ORDER BY grp"
  "^=8[.]5\ncluster-state-pending=1[.]0\ncluster-state-running=7[.]0\nnew=0[.]5$")
drasim_run_facts(_held_facts ${_sto}/held.db)
drasim_cli_test(NAME state/held-dra WORKDIR ${_st}
  COMMAND run ${_st}/run-held.yaml -q -o ${_sto}/held.db --force
  SQL ${_held_sql} ${_held_facts})
# the same state from a KAI-Scheduler snapshot.json (inventory and state both)
string(REPLACE "held.db" "kai.db" _kai_sql "${_held_sql}")
drasim_cli_test(NAME state/held-kai-snapshot WORKDIR ${_st}
  COMMAND run ${_st}/run-kai.yaml -q -o ${_sto}/kai.db --force
  SQL ${_kai_sql})
# node-0 is full: the two-GPU pod goes to node-1 at once (an empty fleet would give it node-0)
drasim_cli_test(NAME state/goes-elsewhere
  COMMAND run ${_st}/run-elsewhere.yaml -q -o ${_sto}/elsewhere.db --force
  SQL ${_sto}/elsewhere.db "SELECT node_id || '@' || scheduled_ms FROM pods WHERE name = 'new-0'" "^1@0$"
      ${_sto}/elsewhere.db "SELECT group_concat(pool || '/' || device) FROM claim_allocations" "^node-0/gpu-0,node-0/gpu-1,node-1/gpu-0,node-1/gpu-1$")
drasim_cli_test(NAME state/goes-elsewhere-empty-fleet WORKDIR ${_st}
  COMMAND run ${_st}/run-elsewhere.yaml -q -o ${_sto}/elsewhere0.db --force --set cluster.state=empty-state.yaml
  SQL ${_sto}/elsewhere0.db "SELECT node_id || '@' || scheduled_ms FROM pods WHERE name = 'new-0'" "^0@0$")
# dump pods evicted by a node failure give their claims back when they end (run-evicted.yaml)
drasim_cli_test(NAME state/evicted-gives-back
  COMMAND run ${_st}/run-evicted.yaml -q -o ${_sto}/evicted.db --force
  SQL ${_sto}/evicted.db "SELECT name || '@' || scheduled_ms || '-' || completion_ms || ' ' || state FROM pods ORDER BY pod_id"
      "^team-a/train-a@0-3600000 Succeeded\nteam-a/train-b@0-7200000 Succeeded\nteam-a/serve-1@0-2130000 Deleted\nteam-a/serve-2@0-2130000 Deleted\nteam-a/eval-c@0-2130000 Deleted\nteam-a/queued-x@2700000-6300000 Succeeded\nnew-0@2700000-4500000 Succeeded$"
      ${_sto}/evicted.db "SELECT pod_id || ':' || pool || '/' || device FROM claim_allocations WHERE pod_id >= 5 ORDER BY pod_id"
      "^5:node-1/gpu-0\n6:node-1/gpu-1$")
# device-plugin mode, remaining and duration from the distributions
drasim_cli_test(NAME state/device-plugin
  COMMAND run ${_st}/run-dp.yaml -q -o ${_sto}/dp.db --force
  SQL ${_sto}/dp.db "SELECT name || '@' || scheduled_ms || '-' || completion_ms || ' ' || coalesce(devices, '') FROM pods ORDER BY pod_id"
      "^default/big@0-7200000 nvidia.com/gpu=0,1\ndefault/cpu-only@0-2700000 \ndefault/waiting@7200000-10800000 nvidia.com/gpu=0,1\nnew-0@10800000-12600000 nvidia.com/gpu=0$")

# bad input: FILE:LINE:COL, exit 3, nothing written
foreach(_case
    "node|bad-node[.]yaml:4:3: Pod team-a/lost: spec[.]nodeName: node 'node-9' is not in the inventory"
    "device|bad-device[.]yaml:4:3: ResourceClaim team-a/ghost: status[.]allocation[.]devices[.]results[[]gpu[]]: device gpu[.]nvidia[.]com/node-0/gpu-7 does not exist in the inventory"
    "twice|bad-twice[.]yaml:17:3: ResourceClaim team-a/second: device gpu[.]nvidia[.]com/node-1/gpu-1 is also allocated to ResourceClaim team-a/first [(]bad-twice[.]yaml:4:3[)]"
    "yaml|bad-yaml[.]yaml:7:7: invalid YAML"
    "quantity|bad-quantity[.]yaml:12:25: Pod odd: spec[.]containers[[]0[]][.]resources[.]requests[.]cpu: invalid quantity '4 cores'"
    "remaining|bad-remaining[.]yaml:4:3: Pod team-a/forever: no annotation drasim[.]io/remaining and no cluster[.]state[.]remaining distribution"
    "annotation|bad-annotation[.]yaml:4:3: Pod team-a/when: annotation drasim[.]io/remaining: 'soon' is not a duration"
    "full|bad-full[.]yaml:4:3: Pod team-a/too-big: does not fit on node 'node-1'")
  string(FIND "${_case}" "|" _bar)
  string(SUBSTRING "${_case}" 0 ${_bar} _n)
  math(EXPR _bar "${_bar} + 1")
  string(SUBSTRING "${_case}" ${_bar} -1 _msg)
  drasim_cli_test(NAME state/bad-${_n} WORKDIR ${_st}
    COMMAND run ${_st}/run-held.yaml -o ${_sto}/bad-${_n}.db --set cluster.state=bad-${_n}.yaml
    EXIT 3 EXPECT "${_msg}" FILE_ABSENT ${_sto}/bad-${_n}.db)
endforeach()
drasim_cli_test(NAME state/bad-key WORKDIR ${_st}
  COMMAND run ${_st}/run-dp.yaml -o ${_sto}/bad-key.db --set cluster.state.remainder=1h
  EXIT 3 EXPECT "unknown field 'remainder' in cluster[.]state" FILE_ABSENT ${_sto}/bad-key.db)

# The Done-when of issue 29 item 2: today's cluster made by drasim itself
# (`drasim inventory` and `drasim state today.yaml --at 1h`: pods and claims
# as a kubectl List), both valid against the API schema, loads as
# cluster.state of run-tomorrow.yaml and its holds are honoured (the times
# and devices are hand-derived in today.yaml and run-tomorrow.yaml).
set(_rt sh ${_st}/roundtrip.sh $<TARGET_FILE:drasim> $<TARGET_FILE:k8s_validate>)
drasim_cli_test(NAME state/roundtrip RAW WORKDIR ${_st}
  COMMAND ${_rt} ${_sto}/rt -q -o ${_sto}/rt/tomorrow.db --force
  EXPECT "inventory[.]yaml: 9 documents valid [(]2 Node, 5 DeviceClass, 2 ResourceSlice;"
         "today-at-1h[.]yaml: 1 document valid [(]3 Pod, 3 ResourceClaim;"
  REJECT "schema violation"
  SQL ${_sto}/rt/tomorrow.db "SELECT name || '@' || scheduled_ms || '-' || completion_ms || '/' || node_id FROM pods ORDER BY pod_id"
      "^team-a/train-0@0-14400000/0\nteam-a/eval-0@0-7200000/1\nteam-a/wait-0@7200000-10800000/1\nnew-0@0-1800000/1$"
      ${_sto}/rt/tomorrow.db "SELECT p.name || ':' || pool || '/' || device FROM claim_allocations c JOIN pods p USING (run_id, pod_id) WHERE p.name NOT LIKE 'team-a/%-0' OR p.name = 'team-a/wait-0' ORDER BY pod_id, device"
      "^team-a/wait-0:node-1/gpu-0\nteam-a/wait-0:node-1/gpu-1\nnew-0:node-1/gpu-1$")
# no device in two pods' hands at once (the held claims are rows too)
drasim_cli_test(NAME state/roundtrip-no-device-twice WORKDIR ${_st} DEPENDS state/roundtrip
  COMMAND run ${_st}/run-tomorrow.yaml -q -o ${_sto}/rt-twice.db --force --set cluster.inventory=${_sto}/rt/inventory.yaml
    --set cluster.state=${_sto}/rt/today-at-1h.yaml
  SQL ${_sto}/rt-twice.db "SELECT count(*) FROM claim_allocations a JOIN claim_allocations b ON a.run_id = b.run_id AND a.pool = b.pool AND a.device = b.device AND a.pod_id < b.pod_id JOIN pods p ON p.run_id = a.run_id AND p.pod_id = a.pod_id JOIN pods q ON q.run_id = b.run_id AND q.pod_id = b.pod_id JOIN runs r ON r.run_id = a.run_id WHERE p.scheduled_ms < coalesce(q.completion_ms, r.end_ms) AND q.scheduled_ms < coalesce(p.completion_ms, r.end_ms)" "^0$"
      ${_sto}/rt-twice.db "SELECT count(*) FROM claim_allocations" "^6$")   # train-0 2, eval-0 1, wait-0 2, new-0 1
# a dump of a run that started from a dump: run-held.yaml at 30m, read back, is the same run 30m later
drasim_cli_test(NAME state/dump-of-dump RAW WORKDIR ${_st}
  COMMAND sh -c "$0 state run-held.yaml --at 30m -o $1/held-at-30m.yaml --force && $0 run run-held.yaml --set cluster.state=$1/held-at-30m.yaml -q -o $1/held-at-30m.db --force"
    $<TARGET_FILE:drasim> ${_sto}
  SQL ${_sto}/held-at-30m.db "SELECT name || '@' || scheduled_ms || '-' || completion_ms || '/' || node_id FROM pods ORDER BY pod_id"
      "^team-a/train-a@0-1800000/0\nteam-a/train-b@0-5400000/0\nteam-a/serve-1@0-3600000/1\nteam-a/serve-2@0-9000000/1\nteam-a/eval-c@0-7200000/1\nteam-a/queued-x@1800000-5400000/0\ndefault/new-0@5400000-7200000/0\nnew-0@5400000-7200000/0$")
# what the dump holds, read back from its file
drasim_cli_test(NAME state/dump-content RAW WORKDIR ${_st}
  COMMAND sh -c "$0 state today.yaml --at 1h | grep -E '^ +(name|nodeName|drasim.io/[a-z]+|pool|device|phase|resourceClaimName): '"
    $<TARGET_FILE:drasim>
  EXPECT "name: train-0\n +drasim[.]io/remaining: 4h\n +nodeName: node-0\n +phase: Running\n +resourceClaimName: train-0-gpus\n"
         "name: eval-0\n +drasim[.]io/remaining: 2h\n +nodeName: node-1\n +phase: Running\n +resourceClaimName: eval-0-gpu\n"
         "name: wait-0\n +drasim[.]io/duration: 1h\n +phase: Pending\n +resourceClaimName: wait-0-gpus\n"
         "name: train-0-gpus\n +pool: node-0\n +device: gpu-0\n +pool: node-0\n +device: gpu-1\n +name: train-0\n"
         "name: eval-0-gpu\n +pool: node-1\n +device: gpu-0\n +name: eval-0\n +name: wait-0-gpus\n$")
# a dump that does not match the inventory: FILE:LINE:COL of the dump's object, exit 3, nothing written
drasim_cli_test(NAME state/roundtrip-bad-device RAW WORKDIR ${_st}
  COMMAND ${_rt} ${_sto}/rt-dev -o ${_sto}/rt-dev/tomorrow.db --set cluster.inventory=${_sto}/rt-dev/inventory-1.yaml
  EXIT 3 EXPECT "today-at-1h[.]yaml:127:3: ResourceClaim team-a/eval-0-gpu: status[.]allocation[.]devices[.]results[[]gpu[]]: device gpu[.]nvidia[.]com/node-1/gpu-0 does not exist in the inventory"
  FILE_ABSENT ${_sto}/rt-dev/tomorrow.db)
drasim_cli_test(NAME state/roundtrip-bad-node RAW WORKDIR ${_st}
  COMMAND ${_rt} ${_sto}/rt-node -o ${_sto}/rt-node/tomorrow.db --set cluster.inventory=${_sto}/rt-node/inventory-1.yaml
    --set scheduling.mode=device-plugin
  EXIT 3 EXPECT "today-at-1h[.]yaml:37:3: Pod team-a/eval-0: spec[.]nodeName: node 'node-1' is not in the inventory"
  FILE_ABSENT ${_sto}/rt-node/tomorrow.db)
drasim_cli_test(NAME state/state-needs-at COMMAND state ${_st}/today.yaml EXIT 2 EXPECT "--at TIME is required")

# A dump's running pods are charged to their Kueue ClusterQueue (gate->running, queue/kq_gate.c):
# team-a's running pod uses its 2-GPU quota until 1h, so the new team-a pod waits until then though
# dp-1 has a GPU free (run-queued.yaml); the ClusterQueue's usage at time 0 is the dump pod's
drasim_cli_test(NAME state/running-charged-to-cluster-queue
  COMMAND run ${_st}/run-queued.yaml -q -o ${_sto}/queued.db --force
  SQL ${_sto}/queued.db "SELECT name || '@' || scheduled_ms || '-' || completion_ms FROM pods ORDER BY pod_id"
      "^team-a/train@0-3600000\nteam-b/other@0-3600000\nnew-0@3600000-5400000$"
      ${_sto}/queued.db "SELECT group_concat(resource || '=' || usage, ' ') FROM (SELECT * FROM queue_usage WHERE t_ms = 0 ORDER BY resource)"
      "^cpu=2[.]0 memory=4294967296[.]0 nvidia[.]com/gpu=2[.]0$")

# A dump taken in an autoscaled run reloads (run-autoscaled.yaml): its running pod's node gpu-2, beyond
# the group's count, is brought up ready at 0 (it was refused before: "does not fit on node 'gpu-2'")
drasim_cli_test(NAME state/autoscaled-node-brought-up
  COMMAND run ${_st}/run-autoscaled.yaml -q -o ${_sto}/autoscaled.db --force
  SQL ${_sto}/autoscaled.db "SELECT p.name || '@' || p.scheduled_ms || '-' || p.completion_ms || ' ' || n.name FROM pods p JOIN nodes n USING (run_id, node_id) ORDER BY pod_id"
      "^default/train@0-3600000 gpu-2\nnew-0@0-1800000 gpu-0$"
      ${_sto}/autoscaled.db "SELECT time_ms || ' ' || event || ' ' || node || ' ' || reason FROM autoscaler_events ORDER BY rowid LIMIT 1"
      "^0 node-ready gpu-2 in the recorded cluster [(]cluster[.]state[)]$")

# A dump's running pods are charged to their KAI Queue (gate->running, queue/kai_gate.c; KAI v0.13.0
# proportion.go updateQueuesCurrentResourceUsage): team-a's running pod uses its Queue's 2-GPU limit
# until 1h, so the new team-a pod waits until then though dp-1 has a GPU free (run-kai-queued.yaml);
# the Queue's allocation at time 0 is the dump pod's. Without the charge the new pod starts at 0.
drasim_cli_test(NAME state/running-charged-to-kai-queue
  COMMAND run ${_st}/run-kai-queued.yaml -q -o ${_sto}/kai-queued.db --force
  SQL ${_sto}/kai-queued.db "SELECT name || '@' || scheduled_ms || '-' || completion_ms FROM pods ORDER BY pod_id"
      "^team-a/train@0-3600000\nteam-b/other@0-3600000\nnew-0@3600000-5400000$"
      ${_sto}/kai-queued.db "SELECT group_concat(resource || '=' || usage, ' ') FROM (SELECT * FROM queue_usage WHERE t_ms = 0 AND cluster_queue = 'team-a' ORDER BY resource)"
      "^cpu=2[.]0 gpu=2[.]0 memory=4294967296[.]0$")

# A KAI-Scheduler snapshot ZIP (what the snapshot plugin's /get-snapshot serves) as the starting state
# and the inventory: tests/state/kai/, made by make-snapshot.py after NVIDIA/KAI-Scheduler v0.13.0
# pkg/scheduler/plugins/snapshot/snapshot.go (compact JSON, deflate with a data descriptor as Go's
# archive/zip writes it). Hand-derived in kai/run.yaml: the snapshot's Queues are the run's; train-a's
# PodGroup puts it in Queue team-a (limit 2 GPUs, both held until 1h), so the new team-a pod waits until
# 1h though dgx-2 is free (with the PodGroup unread it starts at 0 on dgx-1); eval-b (pending) starts at 0.
set(_kai ${_st}/kai)
set(_kai_pods "^team-a/train-a@0-3600000/0\nteam-b/serve-b@0-10800000/1\nteam-b/eval-b@0-3600000/2\nnew-0@3600000-5400000/0$")
set(_kai_pods_sql "SELECT name || '@' || scheduled_ms || '-' || completion_ms || '/' || node_id FROM pods ORDER BY pod_id")
set(_no_twice_sql "SELECT count(*) FROM claim_allocations a JOIN claim_allocations b ON a.run_id = b.run_id AND a.pool = b.pool AND a.device = b.device AND a.pod_id < b.pod_id JOIN pods p ON p.run_id = a.run_id AND p.pod_id = a.pod_id JOIN pods q ON q.run_id = b.run_id AND q.pod_id = b.pod_id JOIN runs r ON r.run_id = a.run_id WHERE p.scheduled_ms < coalesce(q.completion_ms, r.end_ms) AND q.scheduled_ms < coalesce(p.completion_ms, r.end_ms)")
drasim_cli_test(NAME state/kai-snapshot-zip WORKDIR ${_kai}
  COMMAND run ${_kai}/run.yaml -q -o ${_sto}/kai-zip.db --force
  EXPECT "warning: cluster[.]state: the snapshot's 3 KAI Queue[(]s[)] are the run's queues [(]the scenario has no queues:[)]"
  REJECT "does not agree"
  SQL ${_sto}/kai-zip.db "${_kai_pods_sql}" "${_kai_pods}"
      ${_sto}/kai-zip.db "SELECT pod_id || ':' || pool || '/' || device FROM claim_allocations ORDER BY pod_id, device"
      "^0:dgx-0/gpu-0\n0:dgx-0/gpu-1\n1:dgx-1/gpu-0\n2:dgx-2/gpu-0\n3:dgx-0/gpu-0$"
      # team-a's allocation at 0 is train-a's (cpu 4, 8Gi, its claim's 2 GPUs); org's is its two children's
      ${_sto}/kai-zip.db "SELECT cluster_queue || ' ' || group_concat(resource || '=' || usage, ' ') FROM (SELECT * FROM queue_usage WHERE t_ms = 0 ORDER BY cluster_queue, resource) GROUP BY cluster_queue"
      "^org cpu=12[.]0 gpu=4[.]0 memory=25769803776[.]0\nteam-a cpu=4[.]0 gpu=2[.]0 memory=8589934592[.]0\nteam-b cpu=8[.]0 gpu=2[.]0 memory=17179869184[.]0$"
      # no device in two pods' hands at once (train-a's held devices are rows too)
      ${_sto}/kai-zip.db "${_no_twice_sql}" "^0$")
# the same snapshot stored (method 0) and as bare snapshot.json: the same run
drasim_cli_test(NAME state/kai-snapshot-stored WORKDIR ${_kai}
  COMMAND run ${_kai}/run.yaml -q -o ${_sto}/kai-stored.db --force --set cluster.state=snapshot-stored.zip
    --set cluster.inventory=snapshot-stored.zip
  SQL ${_sto}/kai-stored.db "${_kai_pods_sql}" "${_kai_pods}")
drasim_cli_test(NAME state/kai-snapshot-json WORKDIR ${_kai}
  COMMAND run ${_kai}/run.yaml -q -o ${_sto}/kai-json.db --force --set cluster.state=snapshot.json
    --set cluster.inventory=snapshot.json
  SQL ${_sto}/kai-json.db "${_kai_pods_sql}" "${_kai_pods}")
# the scenario's own KAI Queues win (team-a limit 4): the new pod starts at 0 on dgx-1's free GPU
drasim_cli_test(NAME state/kai-snapshot-own-queues WORKDIR ${_kai}
  COMMAND run ${_kai}/run-own-queues.yaml -q -o ${_sto}/kai-own.db --force
  EXPECT "the snapshot's 3 KAI Queue[(]s[)] are not used: the scenario's queues: are"
  SQL ${_sto}/kai-own.db "${_kai_pods_sql}"
      "^team-a/train-a@0-3600000/0\nteam-b/serve-b@0-10800000/1\nteam-b/eval-b@0-3600000/2\nnew-0@0-1800000/1$"
      ${_sto}/kai-own.db "${_no_twice_sql}" "^0$")
# on a fleet of drasim's own that differs from the snapshot's Nodes: said loudly, the run goes on
drasim_cli_test(NAME state/kai-snapshot-fleet-disagrees WORKDIR ${_kai}
  COMMAND run ${_kai}/run-fleet.yaml -q -o ${_sto}/kai-fleet.db --force
  EXPECT "warning: cluster[.]state: the snapshot's inventory does not agree with the fleet: 1 fleet nodes are not in it; 3 Nodes differ in allocatable resources [(]e[.]g[.] node dgx-0: cpu 16 in the snapshot, 32 in the fleet[)]"
  SQL ${_sto}/kai-fleet.db "${_kai_pods_sql}"
      "^team-a/train-a@0-3600000/0\nteam-b/serve-b@0-10800000/1\nteam-b/eval-b@0-3600000/2\nnew-0@3600000-5400000/3$")
# bad snapshots: ARCHIVE(:ENTRY(:LINE:COL)), exit 3, nothing written (the JSON is one line, as json.Marshal writes it)
foreach(_case
    "not-zip|bad-not-zip[.]zip: not a ZIP archive [(]no end-of-central-directory record[)]"
    "no-entry|bad-no-entry[.]zip: the ZIP archive has no entry snapshot[.]json [(]it has: README[.]txt, cluster[.]json[)]"
    "deflate|bad-deflate[.]zip:snapshot[.]json: corrupt deflate data [(]invalid distance too far back[)]"
    "crc|bad-crc[.]zip:snapshot[.]json: CRC-32 mismatch"
    "json|bad-json[.]zip:snapshot[.]json:1:4895: invalid YAML"
    "lost-node|bad-lost-node[.]zip:snapshot[.]json:1:954: Pod team-b/serve-b: spec[.]nodeName: node 'dgx-9' is not in the inventory"
    "ghost-device|bad-ghost-device[.]zip:snapshot[.]json:1:7714: ResourceClaim team-b/serve-b-gpu: status[.]allocation[.]devices[.]results[[]gpu[]]: device gpu[.]nvidia[.]com/dgx-1/gpu-7 does not exist in the inventory"
    "twice|bad-twice[.]zip:snapshot[.]json:1:7714: ResourceClaim team-b/serve-b-gpu: device gpu[.]nvidia[.]com/dgx-0/gpu-1 is also allocated to ResourceClaim team-a/train-a-gpus [(]bad-twice[.]zip:snapshot[.]json:1:7041[)]")
  string(FIND "${_case}" "|" _bar)
  string(SUBSTRING "${_case}" 0 ${_bar} _n)
  math(EXPR _bar "${_bar} + 1")
  string(SUBSTRING "${_case}" ${_bar} -1 _msg)
  drasim_cli_test(NAME state/kai-snapshot-bad-${_n} WORKDIR ${_kai}
    COMMAND run ${_kai}/run.yaml -o ${_sto}/kai-bad-${_n}.db --set cluster.state=bad-${_n}.zip
    EXIT 3 EXPECT "${_msg}" FILE_ABSENT ${_sto}/kai-bad-${_n}.db)
endforeach()
