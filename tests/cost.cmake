# CLI tests of issue 30 (docs/COST.md): prices per node pool (on demand,
# reserved), chargeback per group (a MIG device N/7, a shared claim by its
# share, idle capacity to nobody or spread), energy and power against a site
# envelope, each on a small fleet whose numbers the scenario's comment derives
# by hand; bad prices and power at FILE:LINE:COL, exit 3, no database.
set(_co_out ${CMAKE_CURRENT_BINARY_DIR}/cost-cli)
set(_co_src ${CMAKE_SOURCE_DIR}/tests/cost)
file(MAKE_DIRECTORY ${_co_out})

set(_co_m "SELECT group_concat(grp || ':' || metric || '=' || printf('%.4f', value), ' ') FROM summary WHERE")
drasim_cli_test(NAME cost/fleet-by-hand
  COMMAND run ${_co_src}/fleet-hand.yaml -o ${_co_out}/fleet.db
  SQL ${_co_out}/fleet.db "${_co_m} grp = '' AND metric IN ('cost_total', 'cost_reserved', 'cost_on_demand', 'cost_allocated', 'cost_idle', 'cost_per_useful_gpu_hour')"
      "^:cost_total=34[.]0000 :cost_reserved=12[.]0000 :cost_on_demand=22[.]0000 :cost_allocated=12[.]0000 :cost_idle=22[.]0000 :cost_per_useful_gpu_hour=2[.]8333$"
      ${_co_out}/fleet.db "${_co_m} metric = 'cost' OR (grp != '' AND metric = 'energy_kwh')"
      "^train:cost=8[.]0000 infer:cost=4[.]0000 train:energy_kwh=8[.]4000 infer:energy_kwh=4[.]2000$"
      ${_co_out}/fleet.db "${_co_m} grp = '' AND metric LIKE 'energy%' OR metric LIKE 'power%'"
      "^:energy_kwh=24[.]6000 :power_mean_kw=12[.]3000 :power_peak_kw=15[.]9000 :power_envelope_kw=12[.]0000 :power_peak_envelope_pct=132[.]5000 :power_over_envelope_s=3600[.]0000$"
      ${_co_out}/fleet.db "SELECT group_concat(pool || ':' || node_hours || ':' || cost || ':' || energy_kwh, ' ') FROM cost_pools"
      "^h100:4[.]0:32[.]0:21[.]6 cpu:2[.]0:2[.]0:3[.]0$"
      ${_co_out}/fleet.db "SELECT min(power_kw) || '-' || max(power_kw) FROM power_samples" "^6[.]9-15[.]9$")
# idle capacity spread over the groups in proportion to their allocated cost
drasim_cli_test(NAME cost/chargeback-spread
  COMMAND run ${_co_src}/fleet-hand.yaml -o ${_co_out}/spread.db --set "cluster.chargeback={idle: spread}"
  SQL ${_co_out}/spread.db "${_co_m} metric = 'cost'" "^train:cost=22[.]6667 infer:cost=11[.]3333$")
drasim_cli_test(NAME cost/shared-claim-by-share
  COMMAND run ${_co_src}/shared-claim-hand.yaml -o ${_co_out}/shared.db
  SQL ${_co_out}/shared.db "${_co_m} metric IN ('cost', 'energy_kwh', 'cost_total', 'cost_idle', 'power_peak_kw')"
      "^:cost_total=14[.]0000 :cost_idle=0[.]0000 :energy_kwh=0[.]8000 :power_peak_kw=0[.]4000 d:cost=7[.]0000 e:cost=7[.]0000 d:energy_kwh=0[.]4000 e:energy_kwh=0[.]4000$")
drasim_cli_test(NAME cost/mig-device
  COMMAND run ${_co_src}/mig-hand.yaml -o ${_co_out}/mig.db
  SQL ${_co_out}/mig.db "${_co_m} metric IN ('cost', 'energy_kwh', 'cost_total', 'cost_idle')"
      "^:cost_total=14[.]0000 :cost_idle=8[.]0000 :energy_kwh=3[.]4080 m:cost=6[.]0000 m:energy_kwh=1[.]4400$")
# a run without prices or power has none of it
# drasim report draws the facility's power over time against the envelope:
# the fleet above steps 15.9 kW (first hour) -> 8.7 kW -> 6.9 kW at 2 h, and
# the envelope 12 kW is handed to the plot as a line.
drasim_cli_test(NAME cost/power-plot
  COMMAND report ${_co_out}/fleet.db -o ${_co_out}/power-report --force
  DEPENDS cost/fleet-by-hand
  FILE_EXISTS ${_co_out}/power-report/power.png ${_co_out}/power-report/power.svg)
drasim_cli_test(NAME cost/power-plot-data RAW
  COMMAND sh -c "grep -E '^[012][.]000000 ' \"$0/data/power.dat\" | cut -d' ' -f1,2 | tr '\\n' '|' && grep -c '^envelope_kw = 12$' \"$0/plots.gp\" && grep -c 'power[.]png' \"$0/index.html\""
          ${_co_out}/power-report
  DEPENDS cost/power-plot
  EXPECT "^0[.]000000 15[.]9[|]1[.]000000 8[.]7[|]2[.]000000 6[.]9[|]1\n[1-9]")
drasim_cli_test(NAME cost/off-without-prices
  COMMAND run ${CMAKE_SOURCE_DIR}/tests/sharing/ts-hand.yaml -o ${_co_out}/off.db
  SQL ${_co_out}/off.db "SELECT count(*) FROM summary WHERE metric LIKE 'cost%' OR metric LIKE 'energy%' OR metric LIKE 'power%'" "^0$"
      ${_co_out}/off.db "SELECT count(*) FROM sqlite_master WHERE name IN ('cost_pools', 'power_samples')" "^0$")

drasim_cli_test(NAME cost/bad-negative-price
  COMMAND run ${_co_src}/bad-price.yaml -o ${_co_out}/bad1.db
  EXIT 3 EXPECT "bad-price[.]yaml:13:23: price[.]onDemand: expected a price per node-hour from 0"
  FILE_ABSENT ${_co_out}/bad1.db)
drasim_cli_test(NAME cost/bad-reserved-above-max
  COMMAND run ${_co_src}/bad-reserved.yaml -o ${_co_out}/bad2.db
  EXIT 3 EXPECT "bad-reserved[.]yaml:14:37: price[.]reserved: 3 reserved nodes, but pool h100 has at most 2"
  FILE_ABSENT ${_co_out}/bad2.db)
drasim_cli_test(NAME cost/bad-power-unknown-model
  COMMAND run ${_co_src}/bad-power-model.yaml -o ${_co_out}/bad3.db
  EXIT 3 EXPECT "bad-power-model[.]yaml:14:18: gpu[.]model: no power figure for GPU model 'B300'"
  FILE_ABSENT ${_co_out}/bad3.db)
drasim_cli_test(NAME cost/bad-power-unit
  COMMAND run ${_co_src}/bad-power-unit.yaml -o ${_co_out}/bad4.db
  EXIT 3 EXPECT "bad-power-unit[.]yaml:7:36: power[.]envelope: expected a power"
  FILE_ABSENT ${_co_out}/bad4.db)

# Spot capacity (tests/cost/spot-hand.yaml): the first interruption drains the
# node; the checkpointed job loses 8 GPUs x (eviction - start) mod 20 min, its
# replacement redoes 3 h - the completed checkpoints and starts when the node
# is back (eviction + 2 min notice + 30 min); the node is billed 8 h - 0.5 h
# per interruption at 30.
drasim_cli_test(NAME cost/spot-interruption-checkpointed
  COMMAND run ${_co_src}/spot-hand.yaml -o ${_co_out}/spot.db
  SQL ${_co_out}/spot.db "SELECT value >= 1 FROM summary WHERE grp = '' AND metric = 'spot_interruptions'" "^1$"
      ${_co_out}/spot.db "SELECT state || ' ' || reason FROM pods WHERE name = 'train-0'" "^Deleted EvictionByEvictionAPI$"
      # eviction = deletion - 30 s grace; lost = 8 x (eviction mod 20 min), in GPU-hours
      ${_co_out}/spot.db "SELECT abs((SELECT value FROM summary WHERE grp = '' AND metric = 'gpu_hours_lost') - 8.0 * ((p.completion_ms - 30000) % 1200000) / 3.6e6) < 1e-9 FROM pods p WHERE p.name = 'train-0'" "^1$"
      ${_co_out}/spot.db "SELECT b.duration_ms = 10800000 - 1200000 * ((a.completion_ms - 30000) / 1200000) AND b.scheduled_ms = a.completion_ms - 30000 + 120000 + 1800000 FROM pods a, pods b WHERE a.name = 'train-0' AND b.name = 'train-1'" "^1$"
      ${_co_out}/spot.db "SELECT abs(c.node_hours - (8 - 0.5 * s.value)) < 1e-9 AND abs(c.cost - 30 * c.node_hours) < 1e-9 FROM cost_pools c, summary s WHERE s.grp = '' AND s.metric = 'spot_interruptions'" "^1$")
drasim_cli_test(NAME cost/bad-spot-rate-unit
  COMMAND run ${_co_src}/bad-spot-rate.yaml -o ${_co_out}/bad5.db
  EXIT 3 EXPECT "bad-spot-rate[.]yaml:13:45: spot[.]interruptions[.]rate: '0[.]5' has no unit"
  FILE_ABSENT ${_co_out}/bad5.db)

# Chargeback per Kueue ClusterQueue (tests/cost/queue-hand.yaml): a queue is
# charged its classes' GPU-time at the pools' rates; a pod in no queue is in
# none; idle spread by the groups' rule; `check` reads it as {queue=NAME}.
drasim_cli_test(NAME cost/queue-chargeback
  COMMAND run ${_co_src}/queue-hand.yaml -o ${_co_out}/queue.db
  EXPECT "preempted  preemptions        cost" "team-a +2 +0 +0 +0[.]0 +0[.]0 +0 +0 +12[.]50" "team-b +2 +0 +0 +0[.]0 +0[.]0 +0 +0 +5[.]00"
  SQL ${_co_out}/queue.db "${_co_m} metric LIKE 'queue_cost%' OR metric = 'queue_energy_kwh' OR (grp = '' AND metric IN ('cost_total', 'cost_allocated'))"
      "^:cost_total=60[.]0000 :cost_allocated=18[.]7500 team-a:queue_cost=12[.]5000 team-a:queue_cost_per_useful_gpu_hour=1[.]2500 team-a:queue_energy_kwh=7[.]0000 team-b:queue_cost=5[.]0000 team-b:queue_cost_per_useful_gpu_hour=1[.]2500 team-b:queue_energy_kwh=2[.]8000$")
drasim_cli_test(NAME cost/queue-chargeback-spread
  COMMAND run ${_co_src}/queue-hand.yaml -o ${_co_out}/queue-spread.db --set "cluster.chargeback={idle: spread}"
  SQL ${_co_out}/queue-spread.db "${_co_m} metric = 'queue_cost'" "^team-a:queue_cost=40[.]0000 team-b:queue_cost=16[.]0000$")
file(WRITE ${_co_out}/queue-expect.yaml "apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- cost{queue=team-a} <= 12.5\n- queue_cost{queue=team-b} < 5\n")
drasim_cli_test(NAME cost/queue-chargeback-check
  COMMAND check ${_co_src}/queue-hand.yaml --expect ${_co_out}/queue-expect.yaml
  EXIT 1 EXPECT "cost[{]queue=team-a[}] <= 12[.]5 +12[.]5 +<= 12[.]5 +pass" "queue_cost[{]queue=team-b[}] < 5 +5 +< 5 +FAIL")

# Chargeback per KAI Queue (tests/cost/kai-queue-hand.yaml): a leaf Queue is
# charged its classes' GPU-time (label kai.scheduler/queue), its parent Queue
# the sum over its subtree; idle spread by the groups' rule; `check` reads it.
drasim_cli_test(NAME cost/kai-queue-chargeback
  COMMAND run ${_co_src}/kai-queue-hand.yaml -o ${_co_out}/kai-queue.db
  EXPECT "team-a +2 +1 +0 +0[.]0 +0[.]0 +0 +0 +12[.]50" "org +- +- +- +- +- +- +- +17[.]50"
  SQL ${_co_out}/kai-queue.db "${_co_m} metric LIKE 'queue_cost%' OR metric = 'queue_energy_kwh' OR (grp = '' AND metric IN ('cost_total', 'cost_allocated'))"
      "^:cost_total=60[.]0000 :cost_allocated=18[.]7500 org:queue_cost=17[.]5000 org:queue_cost_per_useful_gpu_hour=1[.]2500 org:queue_energy_kwh=9[.]8000 team-a:queue_cost=12[.]5000 team-a:queue_cost_per_useful_gpu_hour=1[.]2500 team-a:queue_energy_kwh=7[.]0000 team-b:queue_cost=5[.]0000 team-b:queue_cost_per_useful_gpu_hour=1[.]2500 team-b:queue_energy_kwh=2[.]8000$")
drasim_cli_test(NAME cost/kai-queue-chargeback-spread
  COMMAND run ${_co_src}/kai-queue-hand.yaml -o ${_co_out}/kai-queue-spread.db --set "cluster.chargeback={idle: spread}"
  SQL ${_co_out}/kai-queue-spread.db "${_co_m} metric = 'queue_cost'" "^org:queue_cost=56[.]0000 team-a:queue_cost=40[.]0000 team-b:queue_cost=16[.]0000$")
file(WRITE ${_co_out}/kai-queue-expect.yaml "apiVersion: drasim/v1\nkind: Expect\nthresholds:\n- cost{queue=org} <= 17.5\n- queue_cost{queue=team-b} < 5\n")
drasim_cli_test(NAME cost/kai-queue-chargeback-check
  COMMAND check ${_co_src}/kai-queue-hand.yaml --expect ${_co_out}/kai-queue-expect.yaml
  EXIT 1 EXPECT "cost[{]queue=org[}] <= 17[.]5 +17[.]5 +<= 17[.]5 +pass" "queue_cost[{]queue=team-b[}] < 5 +5 +< 5 +FAIL")

# A spot node group (tests/cost/spot-group-hand.yaml): a reclaimed node is
# replaced by its group (autoscale/ca_run.c) at the notice's end, ready after
# provisioningTime (10 min): the job's replacement starts at eviction + 2 min
# + 10 min; the group is billed all along (8 node-hours, 240); every
# interruption is a node-removed event of the autoscaler.
drasim_cli_test(NAME cost/spot-node-group-replaced
  COMMAND run ${_co_src}/spot-group-hand.yaml -o ${_co_out}/spot-group.db
  SQL ${_co_out}/spot-group.db "SELECT value >= 1 FROM summary WHERE grp = '' AND metric = 'spot_interruptions'" "^1$"
      ${_co_out}/spot-group.db "SELECT state || ' ' || reason FROM pods WHERE name = 'train-0'" "^Deleted EvictionByEvictionAPI$"
      ${_co_out}/spot-group.db "SELECT b.scheduled_ms = a.completion_ms - 30000 + 120000 + 600000 AND b.duration_ms = 10800000 - 1200000 * ((a.completion_ms - 30000) / 1200000) FROM pods a, pods b WHERE a.name = 'train-0' AND b.name = 'train-1'" "^1$"
      ${_co_out}/spot-group.db "SELECT node_hours || ' ' || cost FROM cost_pools" "^8[.]0 240[.]0$"
      ${_co_out}/spot-group.db "SELECT (SELECT count(*) FROM autoscaler_events WHERE event = 'node-removed' AND reason LIKE 'spot interruption%') = value FROM summary WHERE grp = '' AND metric = 'spot_interruptions'" "^1$")
