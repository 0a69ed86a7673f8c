# KAI-Scheduler topology-aware placement inside `drasim run` (issue 28;
# queue/kai_topology.h, NVIDIA/KAI-Scheduler v0.13.0 plugins/topology/): every
# expectation derived by hand in the scenario's header.
set(_kt ${CMAKE_SOURCE_DIR}/tests/queues/kai/topology)
set(_kt_out ${CMAKE_CURRENT_BINARY_DIR}/kai-topology)
file(MAKE_DIRECTORY ${_kt_out})
set(_kt_nodes "SELECT group_concat(p.name || '@' || coalesce(n.name, '-') || '@' || coalesce(p.scheduled_ms, -1), ' ') FROM (SELECT * FROM pods ORDER BY pod_id) p LEFT JOIN nodes n ON n.run_id = p.run_id AND n.node_id = p.node_id")
set(_kt_span "SELECT group_concat(metric || '=' || printf('%.1f', value), ' ') FROM summary WHERE grp = '' AND metric IN ('gang_domains_spanned_mean', 'gang_domains_spanned_max')")
# required rack: the gang goes to r2, the only rack that holds it; the second
# waits (KAI's aggregate fit passes, no rack holds it) until the first ends
drasim_cli_test(NAME queues/kai/topology/required
  COMMAND run ${_kt}/required.yaml -o ${_kt_out}/required.db --force
  SQL ${_kt_out}/required.db "${_kt_nodes}"
      "^small-a-0@r1-0@0 small-b-0@r1-1@0 train-0@r2-0@1000 train-1@r2-0@1000 train-2@r2-1@1000 train2-0@r2-0@61000 train2-1@r2-0@61000 train2-2@r2-1@61000$"
      ${_kt_out}/required.db "SELECT group_concat(metric || '=' || printf('%.1f', value), ' ') FROM summary WHERE grp = 'team' AND metric IN ('queue_admitted', 'queue_wait_censored_max_s')"
      "^queue_admitted=2[.]0 queue_wait_censored_max_s=59[.]0$"
      ${_kt_out}/required.db "${_kt_span}" "^gang_domains_spanned_mean=1[.]0 gang_domains_spanned_max=1[.]0$")
# the control: without the constraint the same gangs span both racks
drasim_cli_test(NAME queues/kai/topology/none-spreads
  COMMAND run ${_kt}/none.yaml -o ${_kt_out}/none.db --force
  SQL ${_kt_out}/none.db "${_kt_span}" "^gang_domains_spanned_mean=2[.]0 gang_domains_spanned_max=2[.]0$")
# KAI's docs example: required zone, preferred rack; a gang larger than any
# rack and a Topology that does not exist stay pending with KAI's reasons
drasim_cli_test(NAME queues/kai/topology/preferred
  COMMAND run ${_kt}/preferred.yaml -o ${_kt_out}/preferred.db --force
  EXPECT [=[big: 3 pods: topology cluster-topology, requirement cloud.provider.com/topology-rack couldn't be satisfied for job <default/big> \(drasim: gang larger than any domain: 3 pods, but one 'cloud.provider.com/topology-rack' domain holds at most 2 even when empty\)]=]
         [=[ghost: 1 pod: Requested topology missing does not exist]=]
  SQL ${_kt_out}/preferred.db "${_kt_nodes}"
      "^dist-0@a1-0@1000 dist-1@a1-1@1000 dist-2@a4-0@1000 big-0@-@-1 ghost-0@-@-1 big-1@-@-1 big-2@-@-1$")
drasim_cli_test(NAME queues/kai/topology/bad-levels
  COMMAND run ${_kt}/bad-levels.yaml -o ${_kt_out}/bad-levels.db
  EXIT 3 EXPECT [=[bad-levels.yaml:21:28: .*the kubernetes.io/hostname label can only be used at the lowest level of topology]=]
  FILE_ABSENT ${_kt_out}/bad-levels.db)
# the NVL72 example (docs/TOPOLOGY.md): gangs required in one rack behind KAI;
# with the small pods unconstrained they scatter and the gangs wait in KAI's
# queue (as under KEP-5732 or Kueue TAS with gangs only); with the small pods
# preferring a rack KAI packs them and every gang starts at once
drasim_cli_test(NAME queues/kai/topology/nvl72-example
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/nvl72-racks-kai.yaml -o ${_kt_out}/nvl72.db --force
  SQL ${_kt_out}/nvl72.db "SELECT group_concat(metric || '=' || printf('%.2f', value), ' ') FROM summary WHERE grp = '' AND metric IN ('gangs_started', 'topo_whole_free_domains_mean', 'gang_domains_spanned_max')"
      "^gangs_started=12[.]00 topo_whole_free_domains_mean=0[.]17 gang_domains_spanned_max=1[.]00$"
      ${_kt_out}/nvl72.db "SELECT printf('%.2f', value) FROM summary WHERE grp = 'fleet' AND metric = 'queue_wait_censored_max_s'" "^29632[.]34$")
drasim_cli_test(NAME queues/kai/topology/nvl72-example-all
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/nvl72-racks-kai-all.yaml -o ${_kt_out}/nvl72-all.db --force
  SQL ${_kt_out}/nvl72-all.db "SELECT group_concat(metric || '=' || printf('%.2f', value), ' ') FROM summary WHERE grp = '' AND metric IN ('gangs_started', 'topo_whole_free_domains_mean', 'gang_domains_spanned_max')"
      "^gangs_started=12[.]00 topo_whole_free_domains_mean=7[.]79 gang_domains_spanned_max=1[.]00$"
      ${_kt_out}/nvl72-all.db "SELECT printf('%.2f', value) FROM summary WHERE grp = 'fleet' AND metric = 'queue_wait_censored_max_s'" "^0[.]00$")
# GPUs stranded while a gang waits in KAI's queue (engine/sim_topology.c,
# queue_gate.held_gangs): required.yaml sampled every 10 s. train2 (6 GPUs)
# waits from 2 s to 61 s; meanwhile r1 has 4 free GPUs and r2 2, both broken
# and below 6: 6 GPUs stranded at the samples 10 s .. 60 s (6 x 10 s) = 360
# GPU-seconds = 0.10 GPU-hours (0 before the fix: the scheduler sees no gang)
drasim_cli_test(NAME queues/kai/topology/stranded-held
  COMMAND run ${_kt}/required.yaml --set output.sampleInterval=10s -o ${_kt_out}/stranded.db --force
  SQL ${_kt_out}/stranded.db "SELECT printf('%.2f', value) FROM summary WHERE grp = '' AND metric = 'topo_stranded_gpu_hours'" "^0[.]10$"
      ${_kt_out}/stranded.db "SELECT group_concat(stranded_gpus, ' ') FROM (SELECT * FROM topology_samples ORDER BY t_ms) WHERE t_ms <= 70000" "^0 6 6 6 6 6 6 0$")
# topology-aware preemption (KAI v0.13.0 actions/preempt through plugins/topology,
# the victims' pods releasing): the rack gang preempts y and z (rack r2), not
# the lowest-priority x, and runs in r2 once they are gone (preempt.yaml)
drasim_cli_test(NAME queues/kai/topology/preempt
  COMMAND run ${_kt}/preempt.yaml -o ${_kt_out}/preempt.db --force
  SQL ${_kt_out}/preempt.db "${_kt_nodes}"
      "^x-0@r1-0@0 y-0@r2-0@0 z-0@r2-1@0 w-0@r1-1@0 gang-0@r2-0@15000 gang-1@r2-1@15000$"
      ${_kt_out}/preempt.db "SELECT group_concat(name || '=' || state, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^x-0=Running y-0=Deleted z-0=Deleted w-0=Running gang-0=Succeeded gang-1=Succeeded$"
      ${_kt_out}/preempt.db "SELECT count(*) FROM pods WHERE reason LIKE '%preempted by higher priority workload default/gang (KAI preempt)'" "^2$")
# bad input: a topology level missing on some nodes: KAI's reason plus a warning naming them
drasim_cli_test(NAME queues/kai/topology/unlabelled-nodes
  COMMAND run ${_kt}/unlabelled.yaml -o ${_kt_out}/unlabelled.db --force
  EXPECT [=[train: 3 pods: topology cluster-topology, requirement cloud.provider.com/topology-rack couldn't be satisfied for job <default/train>: not enough resources in the cluster to allocate the job]=]
         # train2 waits behind train (never tried by a cycle): its reason is the topology's too
         [=[train2: 3 pods: topology cluster-topology, requirement cloud.provider.com/topology-rack couldn't be satisfied for job <default/train2>: not enough resources in the cluster to allocate the job]=]
         [=[warning: 2 nodes lack a level label of a KAI Topology that jobs ask for; KAI never places a topology-constrained job on them]=]
  SQL ${_kt_out}/unlabelled.db "SELECT value FROM summary WHERE grp = '' AND metric = 'kai_topology_unlabelled_nodes'" "^2[.]0$")
