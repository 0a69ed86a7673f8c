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
# README / docs/QUEUES.md "Three teams behind Kueue": the per-ClusterQueue
# table the docs show. Its runs preempt Workloads still pending in
# kube-scheduler whose owners requeue them: before the requeue waited for the
# next instant (sim/queue/kq_gate.c gate_requeued) this run never ended.
drasim_cli_test(NAME examples/three-teams-kueue
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/three-teams-kueue.yaml -o ${CMAKE_CURRENT_BINARY_DIR}/examples-three-teams.db --force
  EXPECT "team-a +32 +17 +1 +909[.]9 +10148[.]2 +4 +6"
         "team-c +80 +13 +0 +0[.]0 +2606[.]4 +8 +2" TIMEOUT 60)
