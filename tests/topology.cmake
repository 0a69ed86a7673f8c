# Topology (issue 28, docs/TOPOLOGY.md): racks and blocks as node labels,
# KEP-5732 topology-aware gang placement, on the hand-made clusters of
# tests/topology/*.yaml whose comments derive every expectation. The tas-*
# cases are those of kubernetes/kubernetes
# test/integration/scheduler/podgroup/topology_aware_scheduling/tas_test.go.
set(_tp_out ${CMAKE_CURRENT_BINARY_DIR}/topology-cli)
set(_tp_src ${CMAKE_SOURCE_DIR}/tests/topology)
file(MAKE_DIRECTORY ${_tp_out})

# generated labels: node i of a 3-node rack is in rack i/3 and block rack/1; a rack shares one clique
drasim_cli_test(NAME topology/labels-generated
  COMMAND inventory ${_tp_src}/gb200-racks.yaml
  EXPECT "topology-block: gb-b0[^a-z]+cloud[.]provider[.]com/topology-rack: gb-r0[^a-z]+kubernetes[.]io/arch: amd64[^a-z]+kubernetes[.]io/hostname: gb-2[^-0-9]"
         "topology-block: gb-b1[^a-z]+cloud[.]provider[.]com/topology-rack: gb-r1[^a-z]+kubernetes[.]io/arch: amd64[^a-z]+kubernetes[.]io/hostname: gb-3[^-0-9]"
         "nvidia[.]com/gpu[.]clique: [0-9a-f]+-[0-9a-f]+-4[0-9a-f]+-[89ab][0-9a-f]+-[0-9a-f]+[.]1"
         "nvidia[.]com/gpu[.]product: NVIDIA-GB200\n"
         "driver: compute-domain[.]nvidia[.]com")
# the topology inventory (Nodes with the labels, GPU and compute-domain slices, DeviceClasses) is valid Kubernetes
drasim_k8s_validate(NAME topology/inventory-schema COMMAND inventory ${_tp_src}/gb200-racks.yaml)
drasim_k8s_validate(NAME topology/recorded-schema FILES ${_tp_src}/gb200-recorded.yaml)
set(_db ${_tp_out}/gb200.db)
drasim_cli_test(NAME topology/gang-on-free-rack-dra
  COMMAND run ${_tp_src}/gb200-racks.yaml -o ${_db}
  SQL ${_db} "SELECT group_concat(n.name, ',') FROM (SELECT n.name FROM pods p JOIN nodes n ON n.node_id = p.node_id WHERE p.name LIKE 'gang-%' ORDER BY n.name) n" "^gb-3,gb-4,gb-5$"
      ${_db} "SELECT min(scheduled_ms), max(scheduled_ms) FROM pods WHERE name LIKE 'gang-%'" "^1000[|]1000$")
drasim_cli_test(NAME topology/gang-on-free-rack-dp
  COMMAND run ${_tp_src}/gb200-racks.yaml --set scheduling.mode=device-plugin -o ${_tp_out}/gb200-dp.db
  SQL ${_tp_out}/gb200-dp.db "SELECT group_concat(n.name, ',') FROM (SELECT n.name FROM pods p JOIN nodes n ON n.node_id = p.node_id WHERE p.name LIKE 'gang-%' ORDER BY n.name) n" "^gb-3,gb-4,gb-5$")
# recorded: the labels come from the Nodes of a recorded inventory
drasim_cli_test(NAME topology/gang-recorded-inventory
  COMMAND run ${_tp_src}/gb200-recorded-run.yaml -o ${_tp_out}/gb200-rec.db
  SQL ${_tp_out}/gb200-rec.db "SELECT group_concat(n.name, ',') FROM (SELECT n.name FROM pods p JOIN nodes n ON n.node_id = p.node_id WHERE p.name LIKE 'gang-%' ORDER BY n.name) n" "^gb-3,gb-4,gb-5$")

# tas_test.go: only one feasible rack
drasim_cli_test(NAME topology/kep5732-one-feasible
  COMMAND run ${_tp_src}/tas-one-feasible.yaml -o ${_tp_out}/one.db
  SQL ${_tp_out}/one.db "SELECT count(*), min(scheduled_ms), max(scheduled_ms) FROM pods p JOIN nodes n ON n.node_id = p.node_id WHERE p.name LIKE 'pg1-%' AND n.name LIKE 'rack1-%'" "^3[|]1000[|]1000$")
# tas_test.go: the highest allocation fraction wins (rack-2: 83% against 75% and 66%)
drasim_cli_test(NAME topology/kep5732-score
  COMMAND run ${_tp_src}/tas-score.yaml -o ${_tp_out}/score.db
  SQL ${_tp_out}/score.db "SELECT group_concat(n, ',') FROM (SELECT n.name n FROM pods p JOIN nodes n ON n.node_id = p.node_id WHERE p.name LIKE 'pg1-%' ORDER BY n.name)" "^rack2-1,rack2-1,rack2-2$|^rack2-1,rack2-2,rack2-2$")
# 1.36 (alpha) places the same way
drasim_cli_test(NAME topology/kep5732-score-136
  COMMAND run ${_tp_src}/tas-score.yaml --set cluster.kubernetesVersion=1.36 -o ${_tp_out}/score136.db
  SQL ${_tp_out}/score136.db "SELECT count(*) FROM pods p JOIN nodes n ON n.node_id = p.node_id WHERE p.name LIKE 'pg1-%' AND n.name LIKE 'rack2-%'" "^3$")
# tas_test.go: pending while existing pods hold the rack, placed at the first retry after one ends;
# a gang larger than any domain gets a named reason
drasim_cli_test(NAME topology/kep5732-pending
  COMMAND run ${_tp_src}/tas-pending.yaml -o ${_tp_out}/pending.db
  EXPECT "warning: group pg2: 0 of 4 pods ever started; reason: gang larger than any domain: minCount 4 pods, but one 'rack' domain holds at most 3 of them"
  SQL ${_tp_out}/pending.db "SELECT count(*), min(scheduled_ms), max(scheduled_ms) FROM pods p JOIN nodes n ON n.node_id = p.node_id WHERE p.name LIKE 'pg1-%' AND n.name IN ('rack1-0', 'rack1-1')" "^3[|]606000[|]606000$"
      ${_tp_out}/pending.db "SELECT count(*) FROM pods WHERE name LIKE 'pg2-%' AND state = 'Pending' AND reason LIKE 'gang larger than any domain%'" "^4$")
# bad input: the level on no node (upstream's message), on some nodes only (a warning)
drasim_cli_test(NAME topology/level-missing
  COMMAND run ${_tp_src}/tas-no-label.yaml -o ${_tp_out}/nolabel.db
  EXPECT "warning: group nolabel: 0 of 2 pods ever started; reason: no nodes found with topology label 'rack'"
         "warning: group half: 2 nodes lack its gang's topology label"
  SQL ${_tp_out}/nolabel.db "SELECT group_concat(n.name, ',') FROM (SELECT n.name FROM pods p JOIN nodes n ON n.node_id = p.node_id WHERE p.name LIKE 'half-%' ORDER BY n.name) n" "^a-0,a-1$")
# bad input: KEP-5732 does not exist before 1.36; a bad level; a pool whose count disagrees with its racks
drasim_cli_test(NAME topology/needs-136
  COMMAND run ${_tp_src}/tas-score.yaml --set cluster.kubernetesVersion=1.35 -o ${_tp_out}/bad135.db
  EXIT 3
  EXPECT "tas-score[.]yaml:[0-9]+:[0-9]+: gang[.]topology: needs cluster[.]kubernetesVersion 1[.]36 or later"
  FILE_ABSENT ${_tp_out}/bad135.db)
drasim_cli_test(NAME topology/bad-level
  COMMAND run ${_tp_src}/tas-score.yaml --set "workload.podGroups.pg1.gang.topology.level=bad key" -o ${_tp_out}/badlevel.db
  EXIT 3
  EXPECT "gang[.]topology[.]level: 'bad key' is not a valid label key"
  FILE_ABSENT ${_tp_out}/badlevel.db)
drasim_cli_test(NAME topology/bad-count
  COMMAND run ${_tp_src}/gb200-racks.yaml --set cluster.nodePools[0].count=5 -o ${_tp_out}/badcount.db
  EXIT 3
  EXPECT "gb200-racks[.]yaml:[0-9]+:[0-9]+: topology: racks x nodesPerRack = 2 x 3 = 6 nodes, but the pool's count is 5"
  FILE_ABSENT ${_tp_out}/badcount.db)
# TopologyPack (drasim's score, beyond upstream): small pods fill the broken rack, the other stays whole
drasim_cli_test(NAME topology/pack-keeps-rack-whole
  COMMAND run ${_tp_src}/pack.yaml -o ${_tp_out}/pack.db
  SQL ${_tp_out}/pack.db "SELECT group_concat(p.name || '@' || n.name, ' ') FROM pods p JOIN nodes n ON n.node_id = p.node_id" "^a-0@gb-0 b-0@gb-0 c-0@gb-0$"
      ${_tp_out}/pack.db "SELECT value FROM summary WHERE grp = '' AND metric = 'topo_whole_free_domains_min'" "^1[.]0$"
      ${_tp_out}/pack.db "SELECT whole_free, broken, full, free_gpus_broken FROM topology_samples WHERE t_ms = 60000" "^1[|]1[|]0[|]6$")
# The pathology (scenarios/examples/nvl72-racks*.yaml, docs/TOPOLOGY.md): without a constraint the
# gangs span several racks; with KEP-5732 each gang is in one rack but waits; TopologyPack keeps
# racks whole so the constrained gangs wait less and fewer GPUs are stranded.
set(_ex ${CMAKE_SOURCE_DIR}/scenarios/examples)
drasim_cli_test(NAME topology/example-default
  COMMAND run ${_ex}/nvl72-racks-default.yaml -o ${_tp_out}/ex-default.db
  SQL ${_tp_out}/ex-default.db "SELECT value > 1 FROM summary WHERE grp = '' AND metric = 'gang_domains_spanned_mean'" "^1$")
drasim_cli_test(NAME topology/example-kep5732
  COMMAND run ${_ex}/nvl72-racks.yaml -o ${_tp_out}/ex-kep.db
  SQL ${_tp_out}/ex-kep.db "SELECT value FROM summary WHERE grp = '' AND metric = 'gang_domains_spanned_max'" "^1[.]0$")
drasim_cli_test(NAME topology/example-pack
  COMMAND run ${_ex}/nvl72-racks.yaml --set scheduling.topologyPack.level=cloud.provider.com/topology-rack -o ${_tp_out}/ex-pack.db
  DEPENDS topology/example-kep5732
  SQL ${_tp_out}/ex-pack.db "ATTACH '${_tp_out}/ex-kep.db' AS k; SELECT (SELECT value FROM summary WHERE grp = '' AND metric = 'gang_wait_mean_s') < (SELECT value FROM k.summary WHERE grp = '' AND metric = 'gang_wait_mean_s'), (SELECT value FROM summary WHERE grp = '' AND metric = 'topo_whole_free_domains_mean') > (SELECT value FROM k.summary WHERE grp = '' AND metric = 'topo_whole_free_domains_mean'), (SELECT value FROM summary WHERE grp = '' AND metric = 'gang_domains_spanned_max')" "^1[|]1[|]1[.]0$")
# bad input: a ComputeDomain channel claim where no node runs IMEX gets a named reason
drasim_cli_test(NAME topology/compute-domain-no-imex
  COMMAND run ${_tp_src}/cd-no-imex.yaml -o ${_tp_out}/cd.db
  EXPECT "warning: group mnnvl: 0 of 2 pods ever started; reason: 0/2 nodes are available: 2 request channel: no device of class compute-domain-default-channel[.]nvidia[.]com on the node"
  SQL ${_tp_out}/cd.db "SELECT count(*) FROM pods WHERE state = 'Pending' AND reason LIKE '%no device of class compute-domain-default-channel.nvidia.com%'" "^2$")
# ComputeDomains (model/compute_domain.h, engine/sim_cd.h; kubernetes-sigs/dra-driver-nvidia-gpu v0.4.1):
# three gangs of different ComputeDomains on 2 racks of 2 trays; every expectation is derived in the
# scenario's comment: b avoids a's rack although it has free GPUs (channel-0), c is bound where a ended
# and waits for cd-a's IMEX daemons to leave (30 s x 2 pods)
drasim_cli_test(NAME topology/cd-two-gangs
  COMMAND run ${_tp_src}/cd-two-gangs.yaml -o ${_tp_out}/cd2.db
  SQL ${_tp_out}/cd2.db "SELECT group_concat(x, ' ') FROM (SELECT p.name || '@' || n.name || '@' || p.scheduled_ms || '-' || p.completion_ms x FROM pods p JOIN nodes n ON n.node_id = p.node_id WHERE p.name NOT LIKE 'filler%' ORDER BY p.name)" "^a-0@gb-[01]@0-3600000 a-1@gb-[01]@0-3600000 b-0@gb-[23]@10000-3610000 b-1@gb-[23]@10000-3610000 c-0@gb-[01]@3600000-5430000 c-1@gb-[01]@3600000-5430000$"
      ${_tp_out}/cd2.db "SELECT group_concat(metric || '=' || value, ' ') FROM (SELECT * FROM summary WHERE grp = '' AND metric LIKE 'cd_%' ORDER BY metric)" "^cd_conflict_seconds=60[.]0 cd_daemons=6[.]0 cd_setup_conflicts=2[.]0 cd_setup_waits=2[.]0 cd_wait_seconds=60[.]0$"
      ${_tp_out}/cd2.db "SELECT count(*), min(n.name), max(n.name), min(bound_ms), min(ready_ms), max(released_ms) FROM compute_domain_daemons d JOIN nodes n ON n.node_id = d.node_id WHERE compute_domain = 'cd-c' AND prev_compute_domain = 'cd-a'" "^2[|]gb-0[|]gb-1[|]3600000[|]3630000[|]5460000$")
# the set-up conflict is a `check`able measure; with no handover there is none
drasim_cli_test(NAME topology/cd-check
  COMMAND check ${_tp_src}/cd-two-gangs.yaml --expect ${_tp_src}/cd-expect.yaml
  EXIT 1
  EXPECT "cd_setup_conflicts == 2 +2 +== 2 +pass" "cd_conflict_seconds <= 60 +60 +<= 60 +pass" "cd_setup_conflicts <= 1 +2 +<= 1 +FAIL")
drasim_cli_test(NAME topology/cd-no-handover
  COMMAND run ${_tp_src}/cd-two-gangs.yaml --set cluster.draDriver.imexHandover=0s -o ${_tp_out}/cd2-0.db
  SQL ${_tp_out}/cd2-0.db "SELECT value FROM summary WHERE grp = '' AND metric = 'cd_setup_conflicts'" "^0[.]0$"
      ${_tp_out}/cd2-0.db "SELECT max(completion_ms) FROM pods WHERE name LIKE 'c-%'" "^5400000$")
# one ComputeDomain per node at scheduling time: b waits with the DynamicResources reason while a holds
# both channels, then starts where a's daemons leave at 630 s (cd-wait.yaml)
drasim_cli_test(NAME topology/cd-wait-reason
  COMMAND run ${_tp_src}/cd-wait.yaml --set stop.time=5m -o ${_tp_out}/cdw5.db
  EXPECT "warning: group b: 0 of 2 pods ever started; reason: 0/2 nodes are available: 2 request channel: the IMEX channel-0 of every node is taken [(]one ComputeDomain per node: a node's channel-0 serves the channel claim of one pod of one ComputeDomain at a time[)]"
  SQL ${_tp_out}/cdw5.db "SELECT count(*) FROM pods WHERE name LIKE 'b-%' AND state = 'Pending'" "^2$")
drasim_cli_test(NAME topology/cd-wait-start
  COMMAND run ${_tp_src}/cd-wait.yaml -o ${_tp_out}/cdw.db
  SQL ${_tp_out}/cdw.db "SELECT count(*), min(scheduled_ms) >= 600000, max(scheduled_ms) <= 610000, min(completion_ms), max(completion_ms) FROM pods WHERE name LIKE 'b-%'" "^2[|]1[|]1[|]1830000[|]1830000$")
# bad input: ComputeDomain pods on nodes without IMEX (named reason); a gang larger than a rack can
# serve one pod per node (named reason); scenario errors with FILE:LINE:COL and no output
drasim_cli_test(NAME topology/cd-no-imex-template
  COMMAND run ${_tp_src}/cd-wait.yaml --set "cluster.nodePools[0].topology.imex=false" -o ${_tp_out}/cdni.db
  EXPECT "warning: group a: 0 of 2 pods ever started; reason: 0/2 nodes are available: 2 request channel: no device of class compute-domain-default-channel[.]nvidia[.]com on the node")
drasim_cli_test(NAME topology/cd-gang-larger-than-rack
  COMMAND run ${_tp_src}/cd-two-gangs.yaml --set workload.podGroups.c.count=3 --set workload.podGroups.c.gang.minCount=3 --set "workload.podGroups.c.arrival.times=[1h, 1h, 1h]" -o ${_tp_out}/cdbig.db
  EXPECT "warning: group c: 0 of 3 pods ever started; reason: gang larger than any domain: minCount 3 pods, but one 'cloud[.]provider[.]com/topology-rack' domain holds at most 2 of them even empty [(]2 domains[)]; a ComputeDomain's pods take a node each")
drasim_cli_test(NAME topology/cd-bad-template
  COMMAND run ${_tp_src}/cd-wait.yaml --set "workload.podGroups.a.gpu.dra.claims[1].resourceClaimTemplateName=nope" -o ${_tp_out}/cdbad1.db
  EXIT 3
  EXPECT "resourceClaimTemplateName:1:[0-9]+: gpu[.]dra claim 'channel': resourceClaimTemplateName 'nope' is not the channel template of a ComputeDomain"
  FILE_ABSENT ${_tp_out}/cdbad1.db)
drasim_cli_test(NAME topology/cd-bad-namespace
  COMMAND run ${_tp_src}/cd-wait.yaml --set "workload.computeDomains[0].metadata.namespace=team" -o ${_tp_out}/cdbad2.db
  EXIT 3
  EXPECT "cd-wait[.]yaml:[0-9]+:[0-9]+: gpu[.]dra claim 'channel': ComputeDomain cd-a's channel template 'cd-a-channel' is in namespace team, but group a's pods are in default"
  FILE_ABSENT ${_tp_out}/cdbad2.db)
drasim_cli_test(NAME topology/cd-bad-mode
  COMMAND run ${_tp_src}/cd-wait.yaml --set "workload.computeDomains[1].spec.channel.allocationMode=Many" -o ${_tp_out}/cdbad3.db
  EXIT 3
  EXPECT "ComputeDomain cd-b: spec[.]channel[.]allocationMode: expected All or Single, found Many"
  FILE_ABSENT ${_tp_out}/cdbad3.db)
drasim_cli_test(NAME topology/cd-bad-shared-template
  COMMAND run ${_tp_src}/cd-wait.yaml --set "workload.computeDomains[1].spec.channel.resourceClaimTemplate.name=cd-a-channel" -o ${_tp_out}/cdbad4.db
  EXIT 3
  EXPECT "cd-wait[.]yaml:[0-9]+:[0-9]+: ComputeDomain cd-b: channel template 'cd-a-channel' is already ComputeDomain cd-a's"
  FILE_ABSENT ${_tp_out}/cdbad4.db)
# the inventory of a scenario with ComputeDomains: compute-domain slices and the controller's channel
# and daemon ResourceClaimTemplates, valid Kubernetes
drasim_k8s_validate(NAME topology/cd-inventory-schema COMMAND inventory ${_tp_src}/cd-two-gangs.yaml)
drasim_cli_test(NAME topology/cd-inventory-templates
  COMMAND inventory ${_tp_src}/cd-two-gangs.yaml
  EXPECT "kind: ResourceClaimTemplate\nmetadata:\n  name: cd-a-channel\n  namespace: default\n  labels:\n    resource[.]nvidia[.]com/computeDomain: [0-9a-f-]+\n    resource[.]nvidia[.]com/computeDomainTarget: Workload\nspec:\n  spec:\n    devices:\n      requests:\n      - name: channel\n        exactly:\n          deviceClassName: compute-domain-default-channel[.]nvidia[.]com"
         "allocationMode: All"
         "name: computedomain-daemon-[0-9a-f-]+\n  namespace: dra-driver-nvidia-gpu"
         "deviceClassName: compute-domain-daemon[.]nvidia[.]com"
         "kind: ComputeDomainDaemonConfig")
# Lua pods naming a ComputeDomain's channel template (workload/lua_pods.c; derivation in cd-lua.yaml):
# b waits with the IMEX reason while a's pods hold both channels, then runs from 630 s to 1830 s
drasim_cli_test(NAME topology/cd-lua-wait-reason
  COMMAND run ${_tp_src}/cd-lua.yaml --set stop.time=5m -o ${_tp_out}/cdlua5.db
  SQL ${_tp_out}/cdlua5.db "SELECT group_concat(name || ':' || state, ' ') FROM (SELECT * FROM pods ORDER BY name)" "^a-0:Running a-1:Running b-0:Pending b-1:Pending$"
      ${_tp_out}/cdlua5.db "SELECT count(*) FROM pods WHERE name LIKE 'b-%' AND reason = '0/2 nodes are available: 2 request channel: the IMEX channel-0 of every node is taken (one ComputeDomain per node: a node''s channel-0 serves the channel claim of one pod of one ComputeDomain at a time).'" "^2$")
drasim_cli_test(NAME topology/cd-lua-start
  COMMAND run ${_tp_src}/cd-lua.yaml -o ${_tp_out}/cdlua.db
  SQL ${_tp_out}/cdlua.db "SELECT group_concat(x, ' ') FROM (SELECT p.name || '@' || p.scheduled_ms || '-' || p.completion_ms x FROM pods p ORDER BY p.name)" "^a-0@0-600000 a-1@0-600000 b-0@600000-1830000 b-1@600000-1830000$"
      ${_tp_out}/cdlua.db "SELECT group_concat(metric || '=' || value, ' ') FROM (SELECT * FROM summary WHERE grp = '' AND metric IN ('cd_setup_conflicts', 'cd_conflict_seconds') ORDER BY metric)" "^cd_conflict_seconds=60[.]0 cd_setup_conflicts=2[.]0$")
drasim_cli_test(NAME topology/cd-lua-bad-template
  COMMAND run ${_tp_src}/cd-lua.yaml --set "workload.computeDomains[1].spec.channel.resourceClaimTemplate.name=other" -o ${_tp_out}/cdluabad.db
  EXIT 3
  EXPECT "cd-lua[.]lua:3: drasim[.]submit: gpu[.]dra claim 'channel': resourceClaimTemplateName 'cd-b-channel' is not the channel template of a ComputeDomain of workload[.]computeDomains"
  FILE_ABSENT ${_tp_out}/cdluabad.db)
# the per-rack occupancy picture (report/report_racks.c): pack.yaml keeps c next to a on gb-0, so rack
# gb-r0 has 2 GPUs in use from 2 s and gb-r1 none (the derivation in pack.yaml); a run without racks
# has no such table and no heat map
drasim_cli_test(NAME topology/report-rack-heatmap RAW
  COMMAND sh ${_tp_src}/report_racks.sh $<TARGET_FILE:drasim> ${_tp_src} ${_tp_out}
  EXPECT "row[|]gb-r0[|]8\nrow[|]gb-r1[|]8\nuse[|]2,0\n0[.]016667 0 2\n0[.]016667 1 0\nheatmap templates: 2\nno racks: 0 tables, 0 data files")
