# The examples the README shows keep working.
drasim_cli_test(NAME examples/allocate-mig
  COMMAND allocate --stats ${CMAKE_SOURCE_DIR}/scenarios/examples/allocate-mig.yaml
  EXPECT "name: notebook.*device: gpu-0-mig-1g10gb-[0-9]+-0"
         "expression: device.attributes.'gpu.nvidia.com'.[.]profile == '1g.10gb'")
drasim_cli_test(NAME examples/lua-mix
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/lua-mix.yaml -o ${CMAKE_CURRENT_BINARY_DIR}/examples-lua-mix.db
  EXPECT "lua-mix: 44 nodes, 627 pods arrived, 610 scheduled, 17 pending at end")
# README "Size a fleet": the shipped plan example's answer, its probes, and
# the full grid's answer (96 drasim check runs) equal to plan's
drasim_cli_test(NAME examples/h100-fleet-plan
  COMMAND plan ${CMAKE_SOURCE_DIR}/scenarios/examples/h100-fleet.yaml
          --expect ${CMAKE_SOURCE_DIR}/scenarios/examples/h100-fleet-slo.yaml
          --vary h100-train=1..12 --vary h100-mig=1..8 -j 2
  EXPECT "answer: h100-train=7 h100-mig=3 [(]10 nodes[)] after 9 probes [(]a full grid: 96 points[)]")
drasim_cli_test(NAME examples/h100-fleet-grid RAW
  COMMAND ${CMAKE_COMMAND} -DDRASIM=$<TARGET_FILE:drasim> -DDIR=${CMAKE_SOURCE_DIR}/tests/plan
          -DSCENARIO=${CMAKE_SOURCE_DIR}/scenarios/examples/h100-fleet.yaml
          -DSLO=${CMAKE_SOURCE_DIR}/scenarios/examples/h100-fleet-slo.yaml
          -DA=h100-train -DA_MAX=12 -DB=h100-mig -DB_MAX=8 -P ${CMAKE_SOURCE_DIR}/tests/plan/grid_check.cmake
  EXPECT "grid answer: h100-train=7 h100-mig=3 [(]10 nodes[)]" TIMEOUT 120)
# Job-trace examples (docs/TRACES.md): each replays its trace's rows; the
# run line and the trace-level answers (tests/traces.cmake checks every row)
set(_ex_tr ${CMAKE_CURRENT_BINARY_DIR}/examples-traces)
file(MAKE_DIRECTORY ${_ex_tr})
drasim_cli_test(NAME examples/trace-helios
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/trace-helios.yaml -o ${_ex_tr}/helios.db
  EXPECT "trace-helios: 1 nodes, 3 pods arrived, 3 scheduled, 0 pending at end"
  SQL ${_ex_tr}/helios.db "SELECT value FROM summary WHERE grp = 'vcpDC' AND metric = 'jct_mean_s'" "^675233[.]0$")
drasim_cli_test(NAME examples/trace-acme-seren
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/trace-acme-seren.yaml -o ${_ex_tr}/seren.db
  EXPECT "trace-acme-seren: 1 nodes, 2 pods arrived, 2 scheduled, 0 pending at end")
drasim_cli_test(NAME examples/trace-acme-kalos
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/trace-acme-kalos.yaml -o ${_ex_tr}/kalos.db
  EXPECT "trace-acme-kalos: 8 nodes, 16 pods arrived, 16 scheduled, 0 pending at end"
  SQL ${_ex_tr}/kalos.db "SELECT value FROM summary WHERE grp = '' AND metric = 'jobs_started_as_recorded'" "^2[.]0$")
# DRA mode: the same schedule as the device plugin's (102, a 2 x 8 gang, waits for 101's GPUs until +3600 s)
drasim_cli_test(NAME examples/trace-slurm
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/trace-slurm.yaml -o ${_ex_tr}/slurm.db
  EXPECT "trace-slurm: 2 nodes, 4 pods arrived, 4 scheduled, 0 pending at end"
         "3 of 6 rows skipped [(]state 1, no_gpu 1, step 1[)]"
  SQL ${_ex_tr}/slurm.db "SELECT group_concat(name || ':' || scheduled_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^101:0 102-0:3600000 102-1:3600000 105:2400000$")
# README / docs/QUEUES.md "Three teams behind Kueue": the per-ClusterQueue
# table the docs show. Its runs preempt Workloads still pending in
# kube-scheduler whose owners requeue them: before the requeue waited for the
# next instant (sim/queue/kq_gate.c gate_requeued) this run never ended.
drasim_cli_test(NAME examples/three-teams-kueue
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/three-teams-kueue.yaml -o ${CMAKE_CURRENT_BINARY_DIR}/examples-three-teams.db --force
  EXPECT "team-a +32 +17 +1 +909[.]9 +10148[.]2 +4 +6"
         "team-c +80 +13 +0 +0[.]0 +2606[.]4 +8 +2" TIMEOUT 60)
# README / docs/QUEUES.md "Three teams in KAI form": the same teams behind
# KAI-Scheduler's Queues (sim/queue/kai_gate.c), the per-Queue table the docs
# show, the limit team A's pending jobs reach, and GPU fair share against
# allocation over time (queue_fair_share).
drasim_cli_test(NAME examples/three-teams-kai
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/three-teams-kai.yaml -o ${CMAKE_CURRENT_BINARY_DIR}/examples-three-teams-kai.db --force
  EXPECT "team-a +30 +13 +0 +2007[.]1 +8657[.]9 +1 +0"
         "team-b +38 +14 +0 +0[.]0 +3733[.]6 +2 +1"
         "team-c +72 +23 +0 +0[.]0 +387[.]1 +0 +2"
  TIMEOUT 60)
