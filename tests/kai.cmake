# KAI-Scheduler conformance through `drasim admit` (issue 27). Each case is
# transcribed from a unit test of NVIDIA/KAI-Scheduler v0.13.0 (named below)
# by tests/queues/kai/gen_cases.py; the expected fair shares, victims and
# pending results are the upstream test's own expectations.
set(_kai ${CMAKE_SOURCE_DIR}/tests/queues/kai)

# ---- plugins/proportion/resource_division/resource_division_test.go ---------
# "setResourceShare - GPU": the gpu fairShare of each queue (--shares).
function(kai_share dir name upstream)
  set(re "")
  foreach(pair ${ARGN})
    string(REPLACE "=" ";" kv "${pair}")
    list(GET kv 0 q)
    list(GET kv 1 v)
    string(REPLACE "." "[.]" v "${v}")
    list(APPEND re "\"${q}\": {\"gpu\": {\"fairShare\": ${v},")
  endforeach()
  drasim_cli_test(NAME queues/kai/${dir}/${name} COMMAND admit --shares ${_kai}/${dir}/${name}.yaml EXPECT ${re})
endfunction()
kai_share(division single-gives-requested-no-remaining "gives requested GPUs - no remaining" queue-1=2)
kai_share(division single-gives-requested-with-remaining "gives requested GPUs with remaining" queue-1=2)
kai_share(division single-up-to-deserved-over-subscribed "gives up to deserved when over subscribed" queue-1=2)
kai_share(division single-up-to-full-quota "gives up to full quota" queue-1=3)
kai_share(division single-fraction-in-deserved "gives with fraction, if stated in deserved" queue-1=1.5)
kai_share(division single-fraction-in-request "gives with fraction, if stated in request" queue-1=1.5)
kai_share(division single-deserved-zero "doesn't give if deserved is zero" queue-1=0)
kai_share(division two-many-available "allocates many available gpus" queue-1=6 queue-2=6)
kai_share(division two-exact-requested "allocates exact requested amount gpus" queue-1=6 queue-2=6)
kai_share(division two-proportionally "allocates GPUs proportionally" queue-1=3 queue-2=5)
kai_share(division two-not-more-than-allowed "doesn't allocate more than allowed" queue-1=5 queue-2=6)
kai_share(division two-remainder-largest-remaining
  "distributes remainder between queues based on largest remaining" queue-1=3 queue-2=8)
kai_share(division two-remainder-creation-time
  "distributes remainder between queues based on creation time" queue-1=6 queue-2=5)
kai_share(division two-priority-not-deserved "priority doesn't affect deserved" queue-1=2 queue-2=2)
kai_share(division two-priority-over-quota "priority does affect over-quota" queue-1=2 queue-2=4)
kai_share(division two-priority-over-weight
  "priority does affect over-quota, even when overQuotaWeight is set" queue-1=2 queue-2=4)
kai_share(division remainder-with-priorities "divides the remainder even when using priorities"
  queue-1=3 queue-2=2 queue-3=0)
# cmd/fairshare-simulator/README.md: 100 GPUs, deserved 10/10, weights 3:1 -> 70/30
kai_share(division fairshare-simulator-readme "fairshare-simulator README example" queue1=70 queue2=30)

# ---- plugins/proportion/proportion_test.go "Set fair share for 2 hierarchy
# queues - simplified" (departments d1, d2 over leaf queues q1, q2)
kai_share(hierarchy sanity "two top parent queues - sanity" d1=2 q1=2 d2=2 q2=2)
kai_share(hierarchy deserved-department "two top parent queues - deserved department quota" d1=3 q1=3 d2=1 q2=2)
kai_share(hierarchy over-quota "two top parent queues - over-quota" d1=7 q1=7 d2=5 q2=5)
kai_share(hierarchy over-quota-weight "two top parent queues - over-quota weight" d1=4 q1=4 d2=8 q2=8)
kai_share(hierarchy over-quota-weight-reversed "two top parent queues - over-quota weight - reversed"
  d1=10 q1=10 d2=2 q2=2)
kai_share(hierarchy priority "two top parent queues - priority" d1=1 q1=1 d2=11 q2=11)
kai_share(hierarchy priority-reversed "two top parent queues - priority - reversed" d1=11 q1=11 d2=1 q2=1)

# ---- actions/reclaim/reclaim_test.go, actions/preempt/preempt_test.go --------
# The asked PodGroup is the last pending one of the file; "victims" are the
# jobs the upstream test expects Releasing (its reclaimer Pipelined: not yet
# admitted, exit 1); a job the test keeps Pending gets no victims.
function(kai_act dir name upstream victims reasons)
  drasim_cli_test(NAME queues/kai/${dir}/${name} COMMAND admit ${_kai}/${dir}/${name}.yaml
    EXIT 1 EXPECT "\"admitted\": false, .*\"victims\": \\[${victims}\\], \"victimReasons\": \\[${reasons}\\]")
endfunction()
kai_act(reclaim fair-share "Reclaim jobs according to queue fair share"
  [["q0_running_job2", "q1_running_job2"]] [["Reclaim", "Reclaim"]])
kai_act(reclaim below-quota
  "queue1 is under deserved quota, queue0 is over deserved quota and will go below quota - reclaim"
  [["q0_running_job"]] [["Reclaim"]])
kai_act(reclaim under-fair-share
  "queue1 is under deserved quota, queue0 is over deserved quota but under fair share - reclaim"
  [["q0_running_job5"]] [["Reclaim"]])
kai_act(reclaim two-pending-first "2 jobs from queue0 running on node0 - 2 pending jobs from queue1 - reclaim (pending_job0)"
  [["running_job1"]] [["Reclaim"]])
kai_act(reclaim two-pending-second "2 jobs from queue0 running on node0 - 2 pending jobs from queue1 - reclaim (pending_job1)"
  "" "")
kai_act(reclaim fairness "Don't reclaim when there's fairness between the queues" "" "")
kai_act(preempt no-need-to-preempt-both
  "3 train job running, 1 build job pending for the same queue - no need to preempt both"
  [["running_job1"]] [["Preempt"]])
kai_act(preempt build-preempts-train "1 train job running, 1 build job pending for the same queue - preempt"
  [["running_job0"]] [["Preempt"]])
kai_act(preempt train-does-not-preempt-train
  "1 train job running, 1 train job pending for the same queue - don't preempt" "" "")
kai_act(preempt not-across-queues
  "1 train job running, 1 build job pending for the different queue - don't preempt" "" "")

# ---- bad input: FILE:LINE:COL, exit 3, nothing on stdout ---------------------
function(kai_bad name regex)
  drasim_cli_test(NAME queues/kai/bad/${name} COMMAND admit --shares ${_kai}/bad/${name}.yaml
    EXIT 3 EXPECT "${regex}" REJECT "queues\":")
endfunction()
kai_bad(missing-parent [[missing-parent.yaml:9:16: Queue team-a: spec.parentQueue: Queue org does not exist]])
kai_bad(cycle [[cycle.yaml:9:16: Queue a: spec.parentQueue: cycle through Queue b]])
kai_bad(unknown-resource [[unknown-resource.yaml:12:5: unknown field 'nvidia.com/gpu' in Queue team-a: spec.resources]])
kai_bad(limit-below-quota [=[limit-below-quota.yaml:10:28: Queue team-a: spec.resources.gpu: limit [(]2[)] is less than quota [(]4[)]]=])
# KAI keeps a PodGroup of a missing Queue pending (cluster_info.go validatePodgroupQueue)
drasim_cli_test(NAME queues/kai/missing-queue COMMAND admit ${_kai}/bad/missing-queue.yaml
  EXIT 1 EXPECT [["admitted": false, .*"reason": "Queue 'team-z' does not exist"]])

# ---- GPU accounting (whole, gpu-fraction, DRA claims and slices), by hand in
# the file's header (pkg/common/resources/dra.go, cluster_info.go populateDRAGPUs)
drasim_cli_test(NAME queues/kai/accounting/gpus COMMAND admit --shares ${_kai}/accounting/gpus.yaml
  EXPECT [["team-a": {"gpu": {"fairShare": 4.5, "deserved": 6, "allocated": 0, "requested": 4.5}]])
drasim_cli_test(NAME queues/kai/accounting/admit COMMAND admit ${_kai}/accounting/gpus.yaml
  EXPECT [=["admitted": true, "flavors": {}, "borrowing": false, "victims": \[\]]=])

# ---- KAI in a run (queues: {manager: kai}; sim/queue/kai_gate.c), every
# number derived by hand in the scenario's header.
set(_kai_out ${CMAKE_CURRENT_BINARY_DIR}/kai-run)
file(MAKE_DIRECTORY ${_kai_out})
set(_kai_sum "SELECT group_concat(metric || '=' || printf('%.2f', value), ' ') FROM summary WHERE metric IN ('queue_admitted', 'queue_admitted_borrowing', 'queue_pending_at_end', 'queue_preemptions_Reclaim', 'queue_preempted', 'queue_wait_censored_mean_s', 'queue_wait_censored_max_s') AND grp =")
# reclaim of over-quota usage: both of team-a's reclaims in one cycle, the victims' replacements wait
drasim_cli_test(NAME queues/kai/run/reclaim
  COMMAND run ${_kai}/run/reclaim.yaml -o ${_kai_out}/reclaim.db --force
  SQL ${_kai_out}/reclaim.db "${_kai_sum} 'team-a'"
      "^queue_admitted=4[.]00 queue_admitted_borrowing=0[.]00 queue_pending_at_end=0[.]00 queue_preemptions_Reclaim=2[.]00 queue_preempted=0[.]00 queue_wait_censored_mean_s=0[.]00 queue_wait_censored_max_s=0[.]00$"
      ${_kai_out}/reclaim.db "${_kai_sum} 'team-b'"
      "^queue_admitted=8[.]00 queue_admitted_borrowing=4[.]00 queue_pending_at_end=0[.]00 queue_preemptions_Reclaim=0[.]00 queue_preempted=2[.]00 queue_wait_censored_mean_s=12[.]50 queue_wait_censored_max_s=50[.]00$"
      ${_kai_out}/reclaim.db "SELECT group_concat(name || '@' || scheduled_ms || '-' || completion_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^b-0@0-100000 b-1@1000-101000 b-2@2000-102000 b-3@3000-103000 b-4@4000-15000 b-5@5000-15000 a-0@10000-60000 a-1@10000-60000 a-2@15000-65000 a-3@15000-65000 b-6@60000-160000 b-7@60000-160000$"
      ${_kai_out}/reclaim.db "SELECT group_concat(queue || ':' || fair_share || '/' || allocated || '/' || requested, ' ') FROM queue_fair_share WHERE t_ms = 20000 AND resource = 'gpu'"
      "^team-a:4[.]0/4[.]0/4[.]0 team-b:4[.]0/4[.]0/6[.]0$"
      ${_kai_out}/reclaim.db "SELECT group_concat(cluster_queue || ':' || pending || '/' || admitted || '/' || share || '/' || dominant_resource, ' ') FROM queue_state WHERE t_ms = 10000"
      "^team-a:0/4/1000/gpu team-b:2/6/1500/gpu$"
      ${_kai_out}/reclaim.db "SELECT value FROM summary WHERE grp = '' AND metric = 'evictions_preemption'" "^2[.]0$")
# limit, non-preemptible over quota, a Queue that does not exist
drasim_cli_test(NAME queues/kai/run/capacity
  COMMAND run ${_kai}/run/capacity.yaml -o ${_kai_out}/capacity.db --force
  EXPECT "a: 2 pods: team-a quota has reached the allowable limit of GPUs[.] Limit is 2 GPUs, currently 2 GPUs allocated and workload requested 1 GPUs"
         "n: 1 pod: Non-preemptible workload is over quota[.] Workload requested 1 GPUs, but team-n quota is 2 GPUs, while 2 GPUs are already allocated for non-preemptible pods[.]"
         "z: 1 pod: Queue 'team-z' does not exist"
  SQL ${_kai_out}/capacity.db "${_kai_sum} 'team-a'"
      "^queue_admitted=2[.]00 queue_admitted_borrowing=1[.]00 queue_pending_at_end=2[.]00 queue_preemptions_Reclaim=0[.]00 queue_preempted=0[.]00 queue_wait_censored_mean_s=25[.]00 queue_wait_censored_max_s=50[.]00$"
      ${_kai_out}/capacity.db "${_kai_sum} 'team-n'"
      "^queue_admitted=3[.]00 queue_admitted_borrowing=1[.]00 queue_pending_at_end=1[.]00 queue_preemptions_Reclaim=0[.]00 queue_preempted=0[.]00 queue_wait_censored_mean_s=12[.]50 queue_wait_censored_max_s=50[.]00$"
      ${_kai_out}/capacity.db "SELECT value FROM summary WHERE metric = 'queue_missing_queue_pods'" "^1[.]0$")
# allocation node by node: a pod the cluster's free sum fits but no node does
# stays pending; a gang whose pods fit one per node is allocated (node-fit.yaml)
drasim_cli_test(NAME queues/kai/run/node-fit
  COMMAND run ${_kai}/run/node-fit.yaml -o ${_kai_out}/node-fit.db --force
  SQL ${_kai_out}/node-fit.db "${_kai_sum} 'team-a'"
      "^queue_admitted=3[.]00 queue_admitted_borrowing=0[.]00 queue_pending_at_end=1[.]00 queue_preemptions_Reclaim=0[.]00 queue_preempted=0[.]00 queue_wait_censored_mean_s=12[.]25 queue_wait_censored_max_s=49[.]00$"
      ${_kai_out}/node-fit.db "SELECT group_concat(name || '@' || coalesce(scheduled_ms, '-'), ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^x-0@0 x-1@0 g-0@- h-0@2000 h-1@2000$")
drasim_cli_test(NAME queues/kai/run/node-fit-why
  COMMAND run ${_kai}/run/node-fit.yaml --set stop.time=1500ms -o ${_kai_out}/node-fit-why.db --force
  EXPECT "g: 1 pod: queue team-a: Resources were not found for pod default/g: no node has 2 GPUs free [(]2 GPUs free in the cluster[)]")
# the cluster total is the live nodes': a node the autoscaler adds counts (autoscaled.yaml)
drasim_cli_test(NAME queues/kai/run/autoscaled
  COMMAND run ${_kai}/run/autoscaled.yaml -o ${_kai_out}/autoscaled.db --force
  SQL ${_kai_out}/autoscaled.db "SELECT group_concat((t_ms / 1000) || ':' || fair_share || '/' || allocated || '/' || requested, ' ') FROM queue_fair_share WHERE resource = 'gpu' AND t_ms IN (30000, 40000, 100000)"
      "^30:8[.]0/8[.]0/12[.]0 40:12[.]0/12[.]0/12[.]0 100:12[.]0/12[.]0/12[.]0$"
      ${_kai_out}/autoscaled.db "SELECT group_concat(name || '@' || coalesce(scheduled_ms, '-'), ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^a-0@0 a-1@0 a-2@0 a-3@0 a-4@0 a-5@0 a-6@0 a-7@0 a-8@40000 a-9@40000 a-10@40000 a-11@40000 x-0@-$"
      # 10 s: x-0 (tried first) takes the burst group's only node in the estimate, so the 4 held
      # a-pods fit the group's template but its room is gone: said so, not "fit no template node"
      ${_kai_out}/autoscaled.db "SELECT reason FROM autoscaler_events WHERE time_ms = 10000 AND event = 'no-scale-up'"
      "^4 pending pod[(]s[)] of a didn't trigger scale-up: the room of the node groups that fit them [(]max size, max-nodes-per-scaleup, cluster limits[)] went to other pending pods$")
drasim_cli_test(NAME queues/kai/run/bad-parent
  COMMAND run ${_kai}/run/bad-parent.yaml -o ${_kai_out}/bad-parent.db
  EXIT 3 EXPECT [[bad-parent.yaml:27:20: Queue team-a: spec.parentQueue: Queue research does not exist]]
  FILE_ABSENT ${_kai_out}/bad-parent.db)
drasim_cli_test(NAME queues/kai/run/bad-parent-label
  COMMAND run ${_kai}/run/bad-parent-label.yaml -o ${_kai_out}/bad-parent-label.db
  EXIT 3 EXPECT [[bad-parent-label.yaml:18:35: pod group 'a': label kai[.]scheduler/queue: Queue 'research' is a parent Queue]]
  FILE_ABSENT ${_kai_out}/bad-parent-label.db)
# drasim check thresholds per KAI Queue ({queue=NAME}) on the same run
drasim_cli_test(NAME queues/kai/run/check
  COMMAND check ${_kai}/run/reclaim.yaml --expect ${_kai}/run/expect.yaml
  EXPECT [[queue_preemptions_Reclaim{queue=team-a} == 2 +2 +== 2 +pass]] "3 checks, 0 failed")

# Lua pods reach their KAI Queue by the label kai.scheduler/queue, as pod
# groups do (issue 27); by hand in queues/run/lua-queue-kai.yaml. Before, the
# label was ignored and all three team-a pods ran at 0.
drasim_cli_test(NAME queues/kai/run/lua-queue
  COMMAND run ${CMAKE_SOURCE_DIR}/tests/queues/run/lua-queue-kai.yaml -o ${_kai_out}/lua-queue.db --force
  EXPECT "lua: 1 pod: Queue 'nope' does not exist"
  SQL ${_kai_out}/lua-queue.db "SELECT group_concat(name || '@' || ifnull(scheduled_ms, '-'), ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^a-0@0 a-1@3600000 a-2@7200000 free-0@0 lost-0@-$")
# check names a KAI Queue a Queue (not a ClusterQueue) when a threshold's queue is missing
drasim_cli_test(NAME queues/kai/check/missing-queue
  COMMAND check ${CMAKE_SOURCE_DIR}/tests/queues/run/lua-queue-kai.yaml --expect ${CMAKE_SOURCE_DIR}/tests/queues/run/expect-kai-queue-missing.yaml
  EXIT 3 EXPECT "expect-kai-queue-missing.yaml:5:3: threshold 'preemptions{queue=team-z} == 0': no Queue 'team-z' in the results [(]Queues: team-a[)]")
