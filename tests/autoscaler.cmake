# CLI tests of the cluster autoscaler (issue 16, docs/AUTOSCALER.md): each rule
# on a small hand-made case whose right decision is worked out in the
# scenario's header comment (tests/autoscaler/*.yaml).
set(_ca_out ${CMAKE_CURRENT_BINARY_DIR}/autoscaler-cli)
set(_ca_src ${CMAKE_SOURCE_DIR}/tests/autoscaler)
file(MAKE_DIRECTORY ${_ca_out})
set(_ev "SELECT group_concat(time_ms || ' ' || node_group || ' ' || event || ' ' || nodes, ', ') FROM autoscaler_events")

# scale-up: three 4-GPU pods at 0 need two 8-GPU nodes (binpacking); the scan
# at 10s asks for them, provisioning takes 2m: the pods start at 130s. The
# fourth pod (10m) fits the second node's free half. Node h100-0 empties at
# 1930s (pods done) and goes 10m later; h100-1 holds the last pod (4 of 8
# GPUs: utilization 0.5, not below the threshold) until 2400s, then goes at 3000s.
set(_b ${_ca_out}/basic.db)
drasim_cli_test(NAME autoscaler/scale-up-binpacking
  COMMAND run ${_ca_src}/basic.yaml -o ${_b}
  SQL ${_b} "${_ev} WHERE event IN ('scale-up', 'scale-down')" "^10000 h100 scale-up 2, 2530000 h100 scale-down 1, 3000000 h100 scale-down 1$"
      ${_b} "SELECT group_concat(name || '@' || scheduled_ms, ' ') FROM pods" "^train-0@130000 train-1@130000 train-2@130000 train-3@600000$"
      ${_b} "SELECT group_concat(time_ms || ':' || nodes || '/' || ready, ' ') FROM autoscaler_nodes WHERE node_group = 'h100'"
            "^0:0/0 10000:2/0 130000:2/2 2530000:1/1 3000000:0/0$"
      # node-hours: 2 nodes 10s..2530s, 1 more to 3000s: (2 x 2520 + 470) / 3600; cost at 98 per node-hour
      ${_b} "SELECT printf('%.4f %.2f %d %d', node_hours, cost, nodes_added, nodes_removed) FROM autoscaler_groups" "^1[.]5306 149[.]99 2 2$"
      ${_b} "SELECT printf('%.0f %.0f', (SELECT value FROM summary WHERE metric = 'ca_pods_waited_for_new_node'), (SELECT value FROM summary WHERE metric = 'ca_new_node_wait_max_s'))" "^3 130$")

# expander choice (tests/autoscaler/expander.yaml gives the arithmetic)
foreach(_case "least-waste small" "price big" "priority small" "least-nodes,least-waste small")
  separate_arguments(_c UNIX_COMMAND "${_case}")
  list(GET _c 0 _x)
  list(GET _c 1 _want)
  string(REPLACE "," "-" _n "${_x}")
  drasim_cli_test(NAME autoscaler/expander-${_n}
    COMMAND run ${_ca_src}/expander.yaml --set autoscaler.expander=${_x} -o ${_ca_out}/exp-${_n}.db
    SQL ${_ca_out}/exp-${_n}.db "${_ev} WHERE event = 'scale-up'" "^10000 ${_want} scale-up 1$")
endforeach()
drasim_cli_test(NAME autoscaler/expander-priority-big
  COMMAND run ${_ca_src}/expander.yaml --set autoscaler.expander=priority
          --set "autoscaler.expander-priorities={50: [big], 10: [small]}" -o ${_ca_out}/exp-prio-big.db
  SQL ${_ca_out}/exp-prio-big.db "${_ev} WHERE event = 'scale-up'" "^10000 big scale-up 1$")
drasim_cli_test(NAME autoscaler/expander-most-pods
  COMMAND run ${_ca_src}/most-pods.yaml -o ${_ca_out}/most-pods.db
  SQL ${_ca_out}/most-pods.db "${_ev} WHERE event = 'scale-up'" "^10000 big scale-up 2$")
drasim_cli_test(NAME autoscaler/expander-most-pods-vs-least-waste
  COMMAND run ${_ca_src}/most-pods.yaml --set autoscaler.expander=least-waste -o ${_ca_out}/most-pods-lw.db
  SQL ${_ca_out}/most-pods-lw.db "${_ev} WHERE event = 'scale-up'" "^10000 small scale-up 1, 20000 big scale-up 1$")

# back-off after failed provisioning: 5m, then doubled
drasim_cli_test(NAME autoscaler/backoff
  COMMAND run ${_ca_src}/backoff.yaml -o ${_ca_out}/backoff.db
  SQL ${_ca_out}/backoff.db "${_ev}"
      "^10000 flaky scale-up 1, 910000 flaky provision-failed 1, 1210000 flaky scale-up 1, 2110000 flaky provision-failed 1, 2710000 flaky scale-up 1$"
      ${_ca_out}/backoff.db "SELECT provision_failures FROM autoscaler_groups" "^2$")

# unneeded time and drain: removed 10m after the node became unneeded; its pod evicted and replaced
drasim_cli_test(NAME autoscaler/drain-after-unneeded-time
  COMMAND run ${_ca_src}/drain.yaml -o ${_ca_out}/drain.db
  SQL ${_ca_out}/drain.db "${_ev}" "^900000 grp scale-down 1, 930000 grp node-removed 1$"
      ${_ca_out}/drain.db "SELECT group_concat(name || ' ' || state || ' ' || ifnull(scheduled_ms, '-'), ', ') FROM pods WHERE group_id = 1"
      "^b-0 Deleted 1000, b-1 Running 900000$"
      ${_ca_out}/drain.db "SELECT value FROM summary WHERE metric = 'evictions_drain' AND grp = ''" "^1[.]0$")
drasim_cli_test(NAME autoscaler/unneeded-time-setting
  COMMAND run ${_ca_src}/drain.yaml --set autoscaler.scale-down-unneeded-time=20m -o ${_ca_out}/drain20.db
  SQL ${_ca_out}/drain20.db "${_ev}" "^1500000 grp scale-down 1, 1530000 grp node-removed 1$")
# pods no node group can take (16 GPUs; the groups' nodes have 8): one
# no-scale-up event for their class, and their pending reason and the run's
# warning say the autoscaler did not scale up for them
drasim_cli_test(NAME autoscaler/no-scale-up-said
  COMMAND run ${_ca_src}/basic.yaml "--set" "workload.podGroups.train.gpu={devicePlugin: {nvidia.com/gpu: 16}}"
          -o ${_ca_out}/no-scale-up.db
  EXPECT "warning: group train: 0 of 4 pods ever started; reason: .* The cluster autoscaler did not scale up for it [(]autoscaler_events: no-scale-up[)]"
  SQL ${_ca_out}/no-scale-up.db "SELECT time_ms || '|' || node_group || '|' || event || '|' || reason FROM autoscaler_events" "^10000[|][|]no-scale-up[|]3 pending pod[(]s[)] of train didn't trigger scale-up: they fit no node group's template node$"
      ${_ca_out}/no-scale-up.db "SELECT DISTINCT reason LIKE '%did not scale up for it%' FROM pods WHERE state = 'Pending'" "^1$")

# ... and a node whose pod fits nowhere else stays
drasim_cli_test(NAME autoscaler/pods-fit-nowhere
  COMMAND run ${_ca_src}/drain.yaml --set "cluster.nodePools[0].count=0" -o ${_ca_out}/nowhere.db
  SQL ${_ca_out}/nowhere.db "SELECT count(*) FROM autoscaler_events WHERE event <> 'no-scale-up'" "^0$"
      ${_ca_out}/nowhere.db "SELECT reason FROM autoscaler_events WHERE event = 'no-scale-up'" "^1 pending pod[(]s[)] of a didn't trigger scale-up: no node group could grow [(]at its max size or the cluster limits[)]$"
      ${_ca_out}/nowhere.db "SELECT state FROM pods WHERE name = 'b-0'" "^Running$")

# DRA utilization of a partitionable pool (dynamic MIG)
drasim_cli_test(NAME autoscaler/dra-partitionable-utilization
  COMMAND run ${_ca_src}/dra-util.yaml -o ${_ca_out}/dra-util.db
  SQL ${_ca_out}/dra-util.db "SELECT reason FROM autoscaler_events WHERE event = 'scale-down'" "^grp-0 drained: utilization 0[.]25 below 0[.]50 for 600s$")
drasim_cli_test(NAME autoscaler/dra-partitionable-one-gpu-full
  COMMAND run ${_ca_src}/dra-util.yaml --set "cluster.nodePools[1].gpu.count=1" -o ${_ca_out}/dra-util1.db
  SQL ${_ca_out}/dra-util1.db "SELECT count(*) FROM autoscaler_events" "^0$")

# runs without autoscaling write no autoscaler tables
drasim_cli_test(NAME autoscaler/absent-without-groups
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/quickstart.yaml -o ${_ca_out}/quick.db -q
  SQL ${_ca_out}/quick.db "SELECT count(*) FROM sqlite_master WHERE name LIKE 'autoscaler%'" "^0$"
      ${_ca_out}/quick.db "SELECT count(*) FROM summary WHERE metric LIKE 'ca!_%' ESCAPE '!'" "^0$")

# same scenario, same seed: the same decisions (two runs of seed 1 in one database)
drasim_cli_test(NAME autoscaler/deterministic
  COMMAND run ${_ca_src}/basic.yaml --seeds 1,1 -o ${_ca_out}/basic-twice.db
  SQL ${_ca_out}/basic-twice.db "SELECT count(DISTINCT x) FROM (SELECT run_id, group_concat(time_ms || event || ifnull(node, '') || ifnull(reason, ''), ',') AS x FROM autoscaler_events GROUP BY run_id)" "^1$"
      ${_ca_out}/basic-twice.db "SELECT count(DISTINCT x) FROM (SELECT run_id, group_concat(name || scheduled_ms || ifnull(node_id, ''), ',') AS x FROM pods GROUP BY run_id)" "^1$")

# bad settings: FILE:LINE:COL and exit 3
foreach(_bad
    "minmax|minmax.yaml:15:24: autoscaling.min: expected 0 to max [(]2[)] nodes, found 5"
    "count|count.yaml:14:12: count: a node group starts with min to max nodes [(]0 to 2[)], found 3"
    "expander|expander.yaml:17:13: expander: unknown expander 'cheapest'"
    "nogroup|nogroup.yaml:16:3: autoscaler: no node pool has autoscaling"
    "cores|cores.yaml:17:16: cores-total: expected MIN:MAX with 0 <= MIN <= MAX, found '10:5'"
    "priority|priority.yaml:17:13: expander: priority needs expander-priorities"
    "unknown|unknown.yaml:17:3: unknown field 'scan-intervall' in autoscaler"
    "provisioning|provisioning.yaml:15:70: duration.uniform: max is smaller than min"
    "regex|regex.yaml:18:30: expander-priorities: invalid regex '[(]unclosed'"
    "threshold|threshold.yaml:17:37: scale-down-utilization-threshold: expected a fraction from 0 to 1, found 1[.]5")
  string(FIND "${_bad}" "|" _bar)
  string(SUBSTRING "${_bad}" 0 ${_bar} _n)
  math(EXPR _bar "${_bar} + 1")
  string(SUBSTRING "${_bad}" ${_bar} -1 _msg)
  drasim_cli_test(NAME autoscaler/bad-${_n}
    COMMAND run ${_ca_src}/bad/${_n}.yaml -o ${_ca_out}/bad-${_n}.db
    EXIT 3
    EXPECT "${_msg}"
    FILE_ABSENT ${_ca_out}/bad-${_n}.db)
endforeach()

# a group's max as a sweep parameter: cost and nodes per value (docs/AUTOSCALER.md)
drasim_cli_test(NAME autoscaler/sweep-max
  COMMAND sweep ${_ca_src}/basic.yaml --param cluster.nodePools.h100.autoscaling.max=1,4 -o ${_ca_out}/sweep-max.db -q
  SQL ${_ca_out}/sweep-max.db "SELECT group_concat(s.value || ':' || g.nodes_added || ':' || printf('%.2f', g.cost), ' ') FROM sweep s JOIN autoscaler_groups g USING(run_id)"
      "^1:1:117[.]60 4:2:149[.]99$")

# stop: allPodsDone -- scans keep the run alive while pods wait for nodes that
# can come (basic: ends when the last pod is done, 2400s), not for a group
# whose nodes never register in time (backoff: ends when its first node is
# given up, at 910s, instead of retrying forever)
drasim_cli_test(NAME autoscaler/all-pods-done
  COMMAND run ${_ca_src}/basic.yaml --set stop.allPodsDone=true -o ${_ca_out}/alldone.db
  SQL ${_ca_out}/alldone.db "SELECT value FROM summary WHERE metric = 'sim_end_s' AND grp = ''" "^2400[.]0$"
      ${_ca_out}/alldone.db "SELECT count(*) FROM pods WHERE state = 'Succeeded'" "^4$")
drasim_cli_test(NAME autoscaler/all-pods-done-hopeless-group
  COMMAND run ${_ca_src}/backoff.yaml --set stop.allPodsDone=true -o ${_ca_out}/alldone-bo.db
  TIMEOUT 60
  SQL ${_ca_out}/alldone-bo.db "SELECT value FROM summary WHERE metric = 'sim_end_s' AND grp = ''" "^910[.]0$"
      ${_ca_out}/alldone-bo.db "${_ev}" "^10000 flaky scale-up 1, 910000 flaky provision-failed 1$")

# Issue 26: the numbers a planner asks for, by hand from basic.yaml (above):
# h100 has 0 nodes, 2 from 10 s to 2530 s, 1 to 3000 s: peak 2 (and 2 + the
# fixed cpu node = 3 nodes at once); provisioned GPU-hours 8 x 1.5306 = 12.244;
# allocated: train-0..2 4 GPUs x 0.5 h each, train-3 4 x 0.5 h = 8 GPU-h, so
# 8 / 12.244 = 65.34 % of what was provisioned (12.5 % of the 4-node maximum).
set(_cafleet ${_ca_out}/fleet-scaled.db)
drasim_cli_test(NAME autoscaler/planner-numbers
  COMMAND run ${_ca_src}/basic.yaml -o ${_cafleet} -q
  SQL ${_cafleet} "SELECT group_concat(metric || '=' || printf('%.4f', value), ' ') FROM summary WHERE grp = '' AND metric IN ('gpu_alloc_pct', 'ca_peak_nodes', 'ca_gpu_hours_provisioned', 'gpu_alloc_provisioned_pct')"
            "^gpu_alloc_pct=12[.]5000 ca_peak_nodes=2[.]0000 ca_gpu_hours_provisioned=12[.]2444 gpu_alloc_provisioned_pct=65[.]3358$"
      ${_cafleet} "SELECT node_group || ' ' || peak_nodes FROM autoscaler_groups" "^h100 2$")
# compare against the same workload on a fixed fleet (tests/autoscaler/fixed-fleet.yaml:
# h100 at 2 nodes for 2 h + the cpu node): node-hours 3 x 2 = 6 against
# 1.5306 + 1 x 2 = 3.5306; cost 2 x 2 h x 98 (the group's price) = 392 against
# 149.99; peak 3 nodes each; GPU allocation 8 / (16 x 2) = 25 % against 65.34 %.
drasim_cli_test(NAME autoscaler/fixed-fleet
  COMMAND run ${_ca_src}/fixed-fleet.yaml -o ${_ca_out}/fleet-fixed.db -q)
drasim_cli_test(NAME autoscaler/compare-fixed-fleet
  COMMAND compare ${_cafleet} ${_ca_out}/fleet-fixed.db
  EXPECT "\nautoscaling against a fixed fleet [(]"
         "\nfleet [(]A autoscaled, B fixed[)]  node_hours +3[.]53056 +6 +[+]2[.]46944 +[+]69[.]94%\n"
         "\nfleet [(]A autoscaled, B fixed[)]  cost +149[.]994 +392 +[+]242[.]006"
         "\nfleet [(]A autoscaled, B fixed[)]  peak_nodes +3 +3 +[+]0 +0%\n"
         "\nfleet [(]A autoscaled, B fixed[)]  gpu_alloc_provisioned_pct +65[.]3358 +25 +-40[.]3358"
  DEPENDS autoscaler/planner-numbers autoscaler/fixed-fleet)
# both autoscaled: no fleet block
drasim_cli_test(NAME autoscaler/compare-scaled-no-fleet-block
  COMMAND compare ${_cafleet} ${_cafleet}
  REJECT "fixed fleet"
  DEPENDS autoscaler/planner-numbers)

# The scale-down threshold is strict (cluster-autoscaler 1.34, core/scaledown/
# eligibility/eligibility.go, isNodeBelowUtilizationThreshold: "if
# utilInfo.Utilization >= threshold { return false }"): with the GPU threshold
# at 0 even an empty GPU node (utilization 0) is not below it, so the two nodes
# of tests/autoscaler/basic.yaml stay to the end: one scale-up, no scale-down.
drasim_cli_test(NAME autoscaler/scale-down-threshold-strict
  COMMAND run ${_ca_src}/basic.yaml --set autoscaler.scale-down-gpu-utilization-threshold=0 -o ${_ca_out}/thr0.db
  SQL ${_ca_out}/thr0.db "${_ev} WHERE event IN ('scale-up', 'scale-down')" "^10000 h100 scale-up 2$"
      ${_ca_out}/thr0.db "SELECT group_concat(time_ms || ':' || nodes || '/' || ready, ' ') FROM autoscaler_nodes WHERE node_group = 'h100'"
            "^0:0/0 10000:2/0 130000:2/2$")

# KAI's pending pods (issue 27): KAI marks the pods it leaves pending PodScheduled=False/Unschedulable
# (v0.13.0 status_updater), cluster-autoscaler lists them (tests/autoscaler/kai-pending.yaml): train-1
# fits no ready node, the scan at 10s adds one (ready at 130s), KAI allocates it then. Without the
# mark train-1 waits for train-0 until 1800s and no node is added.
drasim_cli_test(NAME autoscaler/kai-pending-scales-up
  COMMAND run ${_ca_src}/kai-pending.yaml -q -o ${_ca_out}/kai-pending.db --force
  SQL ${_ca_out}/kai-pending.db "${_ev} WHERE event IN ('scale-up', 'node-ready')" "^10000 h100 scale-up 1, 130000 h100 node-ready 1$"
      ${_ca_out}/kai-pending.db "SELECT group_concat(name || '@' || scheduled_ms, ' ') FROM pods" "^train-0@0 train-1@130000$")
# a pod KAI holds by its Queue's limit is marked too: with the node full it scales up (the autoscaler
# knows no quotas), a node KAI never uses, kept while the held pod would fit only there (CA's snapshot
# holds it during scale-down planning) and removed 10m after fill ends frees h100-0 (kai-quota.yaml;
# without the hint the node went at 1210s and a new one was added at 1220s, over and over); with a free
# node CA's FilterOutSchedulable drops it: no scale-up (without that filter a node is added at 10s and
# again at 140s); the free node is kept while hold would go there, until fill's node frees at 1800s
drasim_cli_test(NAME autoscaler/kai-quota-held-full-scales-up
  COMMAND run ${_ca_src}/kai-quota.yaml -q -o ${_ca_out}/kai-quota.db --force
  SQL ${_ca_out}/kai-quota.db "${_ev}" "^10000 h100 scale-up 1, 130000 h100 node-ready 1, 2400000 h100 scale-down 1$"
      ${_ca_out}/kai-quota.db "SELECT group_concat(name || '@' || scheduled_ms, ' ') FROM pods" "^fill-0@0$")
drasim_cli_test(NAME autoscaler/kai-quota-held-fits-no-scale-up
  COMMAND run ${_ca_src}/kai-quota.yaml -q -o ${_ca_out}/kai-quota-free.db --force --set cluster.nodePools.h100.count=2
  SQL ${_ca_out}/kai-quota-free.db "${_ev}" "^2400000 h100 scale-down 1$")
