# `drasim plan` on an autoscaled node group (docs/CI.md, docs/AUTOSCALER.md):
# --vary of a group varies its autoscaling.max; the answer is the least max
# meeting the SLO, and each probe's measured cost is the ca_cost of its runs.
# tests/plan/autoscale.yaml explains why max 3 is the answer. Its cost: the
# min node for the whole 3h plus two nodes from the scale-up at 10s to their
# removal at 4200s and 4330s (10m unneeded after the 1h pods end at 1h2m10s,
# the second one a scan later), 19310 node-seconds = 5.36 node-hours, x 2.5 = 13.41.
set(_plan ${CMAKE_SOURCE_DIR}/tests/plan)
set(_pa_out ${CMAKE_CURRENT_BINARY_DIR}/plan-autoscale)
file(MAKE_DIRECTORY ${_pa_out})
drasim_cli_test(NAME plan-autoscale/least-max
  COMMAND plan ${_plan}/autoscale.yaml --expect ${_plan}/autoscale-slo.yaml --seeds 1..2 --vary cpu=1..6 -j 2
          -o ${_pa_out}/plan.db --report ${_pa_out}/report --force
  EXPECT "cpu is a node group: varying its autoscaling.max"
         "answer: cpu=3 [(]3 nodes, at most 7.5 per hour[)]"
         "measured at the answer: ca_cost 13.41, ca_node_hours 5.36 [(]mean over 2 seeds[)]"
         "\n +[0-9]+ +2 +2 +5 +10.50 +4.20 +FAIL +max[(]wait_p99_s[)] <= 1800"
  SQL ${_pa_out}/plan.db "SELECT point FROM plan WHERE answer = 1" "^cpu=3$"
      ${_pa_out}/plan.db "SELECT DISTINCT param FROM sweep" "^cluster.nodePools.cpu.autoscaling.max$"
      ${_pa_out}/plan.db "SELECT count(*) FROM plan WHERE ca_cost IS NOT NULL AND ca_cost = (SELECT avg(value)
          FROM summary s WHERE s.metric = 'ca_cost' AND s.grp = '' AND s.run_id BETWEEN first_run_id AND
          first_run_id + runs - 1) AND ca_node_hours = (SELECT avg(value) FROM summary s WHERE s.metric =
          'ca_node_hours' AND s.grp = '' AND s.run_id BETWEEN first_run_id AND first_run_id + runs - 1)"
      "^4$"
      ${_pa_out}/plan.db "SELECT count(*) FROM plan" "^4$"
  FILE_EXISTS ${_pa_out}/report/data/plan_cost.dat)
# the reported cost is what a plain run at the answer measures
drasim_cli_test(NAME plan-autoscale/cost-equals-run
  COMMAND run ${_plan}/autoscale.yaml --seeds 1..2 --set cluster.nodePools.cpu.autoscaling.max=3
          -o ${_pa_out}/max3.db --force
  DEPENDS plan-autoscale/least-max
  SQL ${_pa_out}/plan.db "ATTACH '${_pa_out}/max3.db' AS r; SELECT ca_cost = (SELECT avg(value) FROM r.summary
          WHERE metric = 'ca_cost' AND grp = '') FROM plan WHERE answer = 1" "^1$")
# a fixed pool beside the group: --cost for it, the group priced by its autoscaling.price
drasim_cli_test(NAME plan-autoscale/with-fixed-pool
  COMMAND plan ${_plan}/autoscale.yaml --expect ${_plan}/autoscale-slo.yaml --seeds 1 --vary base=1..2
          --vary cpu=1..4 --cost base=1 -j 2 -q
  EXPECT "answer: base=1 cpu=3 [(]4 nodes, at most 8.5 per hour[)]")
drasim_cli_test(NAME plan-autoscale/refused-below-min
  COMMAND plan ${_plan}/autoscale.yaml --expect ${_plan}/autoscale-slo.yaml --vary cpu=0..4
          -o ${_pa_out}/below-min.db
  EXIT 2 EXPECT "--vary cpu=0..4: pool 'cpu' is an autoscaled node group: the range varies its autoscaling.max, which cannot be below its min [(]1[)]"
  FILE_ABSENT ${_pa_out}/below-min.db)
