# `drasim plan --vary queues.CQ.FLAVOR.RESOURCE=...` (sim/cli/plan_vary_quota.c,
# docs/QUEUES.md "Which quota?"): every value derived by hand in
# tests/plan/quota/two-teams.yaml; bad arguments exit 2 and write nothing.
set(_pq ${CMAKE_SOURCE_DIR}/tests/plan/quota)
set(_pq_out ${CMAKE_CURRENT_BINARY_DIR}/plan-quota)
file(MAKE_DIRECTORY ${_pq_out})
drasim_cli_test(NAME plan/quota-smallest-that-passes
  COMMAND plan ${_pq}/two-teams.yaml --expect ${_pq}/slo.yaml --vary g=1..1
          --vary queues.team-a.h100.nvidia.com/gpu=2,4,6,8 -j 2 -o ${_pq_out}/plan.db --force
  EXPECT "answer: g=1 queues.team-a.h100.nvidia.com/gpu=4 [(]1 node[)] after 4 probes"
         "  1  1 +2 +1  FAIL    max[(]wait_censored_max_s{queue=team-a}[)] <= 3600"
         "  3  1 +6 +1  FAIL    max[(]wait_censored_max_s{group=b}[)] <= 60"
  SQL ${_pq_out}/plan.db "SELECT group_concat(s.value || ':' || m.value, ' ') FROM sweep s JOIN summary m USING(run_id) WHERE s.param = 'queues.objects[1].spec.resourceGroups[0].flavors[0].resources[2].nominalQuota' AND m.grp = 'team-a' AND m.metric = 'queue_wait_censored_max_s'" "^2:10800.0 4:3600.0 6:3600.0 8:0.0$"
      ${_pq_out}/plan.db "SELECT group_concat(s.value || ':' || m.value, ' ') FROM sweep s JOIN summary m USING(run_id) WHERE s.param LIKE 'queues.%' AND m.grp = 'b' AND m.metric = 'wait_censored_max_s'" "^2:0.0 4:0.0 6:3540.0 8:3540.0$"
      ${_pq_out}/plan.db "SELECT point FROM plan WHERE answer = 1" "^g=1 queues.team-a.h100.nvidia.com/gpu=4$")
# a range with a step: 2..8/2 is the same list
drasim_cli_test(NAME plan/quota-range-step
  COMMAND plan ${_pq}/two-teams.yaml --expect ${_pq}/slo.yaml --vary g=1..1
          --vary queues.team-a.h100.nvidia.com/gpu.nominalQuota=2..8/2 -j 2 -q
  EXPECT "answer: g=1 queues.team-a.h100.nvidia.com/gpu.nominalQuota=4 [(]1 node[)] after 4 probes")
foreach(_case
    "no-cq|queues.team-z.h100.nvidia.com/gpu=1,2|has no ClusterQueue 'team-z' among queues.objects [(]its ClusterQueues: team-a, team-b[)]"
    "no-flavor|queues.team-a.a100.nvidia.com/gpu=1|ClusterQueue 'team-a' has no flavor 'a100' [(]its flavors: h100[)]"
    "no-resource|queues.team-a.h100.amd.com/gpu=1|flavor 'h100' of ClusterQueue 'team-a' has no quota for 'amd.com/gpu' [(]its resources: cpu, memory, nvidia.com/gpu[)]"
    "inverted|queues.team-a.h100.nvidia.com/gpu=4..2|expected LO..HI or LO..HI/STEP"
    "not-quantity|queues.team-a.h100.nvidia.com/gpu=x,2|'x' is not a quota"
    "short-key|queues.team-a.h100=2|expected queues.CLUSTERQUEUE.FLAVOR.RESOURCE"
    "too-many|queues.team-a.h100.nvidia.com/gpu=0..300|more than 100 values"
    "twice|queues.team-a.h100.nvidia.com/gpu=2,4,2|the value '2' is listed twice")
  string(REPLACE "|" ";" _p "${_case}")
  list(GET _p 0 _name)
  list(GET _p 1 _vary)
  list(GET _p 2 _msg)
  drasim_cli_test(NAME plan/quota-refused-${_name}
    COMMAND plan ${_pq}/two-teams.yaml --expect ${_pq}/slo.yaml --vary g=1..1 --vary ${_vary}
            -o ${_pq_out}/${_name}.db
    EXIT 2 EXPECT "${_msg}" FILE_ABSENT ${_pq_out}/${_name}.db)
endforeach()
# KAI (queues: {manager: kai}): a Queue's gpu quota (deserved), by hand in
# tests/plan/quota/kai-two-teams.yaml (two-teams.yaml in KAI form)
drasim_cli_test(NAME plan/quota-kai-smallest-that-passes
  COMMAND plan ${_pq}/kai-two-teams.yaml --expect ${_pq}/slo.yaml --vary g=1..1
          --vary queues.team-a.gpu=2,4,6,8 -j 2 -o ${_pq_out}/kai-plan.db --force
  EXPECT "answer: g=1 queues.team-a.gpu=4 [(]1 node[)] after 4 probes"
         "  1  1 +2 +1  FAIL    max[(]wait_censored_max_s{queue=team-a}[)] <= 3600"
         "  3  1 +6 +1  FAIL    max[(]wait_censored_max_s{group=b}[)] <= 60"
  SQL ${_pq_out}/kai-plan.db "SELECT group_concat(s.value || ':' || m.value, ' ') FROM sweep s JOIN summary m USING(run_id) WHERE s.param = 'queues.objects[0].spec.resources.gpu.quota' AND m.grp = 'team-a' AND m.metric = 'queue_wait_censored_max_s'" "^2:10800.0 4:3600.0 6:3600.0 8:0.0$"
      ${_pq_out}/kai-plan.db "SELECT group_concat(s.value || ':' || m.value, ' ') FROM sweep s JOIN summary m USING(run_id) WHERE s.param LIKE 'queues.%' AND m.grp = 'b' AND m.metric = 'wait_censored_max_s'" "^2:0.0 4:0.0 6:3540.0 8:3540.0$")
foreach(_case
    "kai-no-queue|kai-two-teams|queues.team-z.gpu=1,2|has no Queue 'team-z' among queues.objects [(]its Queues: team-a, team-b[)]"
    "kai-not-number|kai-two-teams|queues.team-a.gpu.limit=x|'x' is not a KAI limit"
    "kai-negative-weight|kai-two-teams|queues.team-a.gpu.overQuotaWeight=-1|'-1' is not a KAI overQuotaWeight"
    "kai-kueue-key|kai-two-teams|queues.team-a.h100.nvidia.com/gpu=2|queues are KAI's: expected queues.QUEUE.gpu"
    "kai-key-on-kueue|two-teams|queues.team-a.gpu=2|names a KAI Queue's quota")
  string(REPLACE "|" ";" _p "${_case}")
  list(GET _p 0 _name)
  list(GET _p 1 _sc)
  list(GET _p 2 _vary)
  list(GET _p 3 _msg)
  drasim_cli_test(NAME plan/quota-refused-${_name}
    COMMAND plan ${_pq}/${_sc}.yaml --expect ${_pq}/slo.yaml --vary g=1..1 --vary ${_vary}
            -o ${_pq_out}/${_name}.db
    EXIT 2 EXPECT "${_msg}" FILE_ABSENT ${_pq_out}/${_name}.db)
endforeach()
