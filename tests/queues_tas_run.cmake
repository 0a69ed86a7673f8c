# Kueue Topology-Aware Scheduling inside `drasim run` (issue 28; queue/kq_tas_run.h):
# two racks of two 4-GPU hosts, small pods outside Kueue holding 2 GPUs of each
# r1 host; every expectation derived by hand in the scenario's header.
set(_ktr ${CMAKE_SOURCE_DIR}/tests/queues/run)
set(_ktr_out ${CMAKE_CURRENT_BINARY_DIR}/queues-tas-run)
file(MAKE_DIRECTORY ${_ktr_out})
set(_ktr_nodes "SELECT group_concat(p.name || '@' || coalesce(n.name, '-') || '@' || coalesce(p.scheduled_ms, -1), ' ') FROM (SELECT * FROM pods ORDER BY pod_id) p LEFT JOIN nodes n ON n.run_id = p.run_id AND n.node_id = p.node_id")
# required rack: the gang lands in r2, the only rack that holds it; the second
# gang waits (the first one's assignment is charged) until the first ends
drasim_cli_test(NAME queues/run/tas-required
  COMMAND run ${_ktr}/tas-required.yaml -o ${_ktr_out}/required.db --force
  SQL ${_ktr_out}/required.db "${_ktr_nodes}"
      "^small-a-0@r1-0@0 small-b-0@r1-1@0 train-0@r2-0@1000 train-1@r2-0@1000 train-2@r2-1@1000 train2-0@r2-0@61000 train2-1@r2-0@61000 train2-2@r2-1@61000$"
      ${_ktr_out}/required.db "SELECT group_concat(metric || '=' || printf('%.1f', value), ' ') FROM summary WHERE grp = 'train' AND metric IN ('queue_admitted', 'queue_wait_censored_max_s')"
      "^queue_admitted=2[.]0 queue_wait_censored_max_s=59[.]0$"
      ${_ktr_out}/required.db "SELECT printf('%.1f', value) FROM summary WHERE grp = '' AND metric = 'gang_domains_spanned_max'" "^1[.]0$")
# the same without TAS: each gang spans both racks
drasim_cli_test(NAME queues/run/tas-none-spreads
  COMMAND run ${_ktr}/tas-none.yaml -o ${_ktr_out}/none.db --force
  SQL ${_ktr_out}/none.db "SELECT group_concat(metric || '=' || printf('%.1f', value), ' ') FROM summary WHERE grp = '' AND metric IN ('gang_domains_spanned_mean', 'gang_domains_spanned_max')"
      "^gang_domains_spanned_mean=2[.]0 gang_domains_spanned_max=2[.]0$")
# preferred rack falls back to two racks; required 5 pods fit no rack: pending
# with Kueue's TAS reason
drasim_cli_test(NAME queues/run/tas-preferred-unfit
  COMMAND run ${_ktr}/tas-preferred.yaml -o ${_ktr_out}/preferred.db --force
  EXPECT [=[big: 5 pods: the topology cannot hold it even on empty nodes: couldn't assign flavors to pod set main: topology "default" allows to fit only 4 out of 5 pod\(s\)]=]
  SQL ${_ktr_out}/preferred.db "${_ktr_nodes}"
      "^small-a-0@r1-0@0 small-b-0@r1-1@0 big-0@-@-1 big-1@-@-1 big-2@-@-1 big-3@-@-1 big-4@-@-1 pref-0@r1-0@2000 pref-1@r2-0@2000 pref-2@r2-0@2000 pref-3@r2-1@2000 pref-4@r2-1@2000$")
drasim_cli_test(NAME queues/run/bad-tas-annotations
  COMMAND run ${_ktr}/bad-tas-annotations.yaml -o ${_ktr_out}/bad.db
  EXIT 3 EXPECT [=[bad-tas-annotations.yaml:46:18: pod group 'pref': annotations: must not contain more than one topology annotation]=]
  FILE_ABSENT ${_ktr_out}/bad.db)
# implied TAS (a ClusterQueue whose every flavor has a topology): LeastFreeCapacity
drasim_cli_test(NAME queues/run/tas-implied
  COMMAND run ${_ktr}/tas-implied.yaml -o ${_ktr_out}/implied.db --force
  SQL ${_ktr_out}/implied.db "${_ktr_nodes}"
      "^small-a-0@r1-0@0 small-b-0@r1-1@0 train-0@r1-0@1000 train-1@r1-1@1000 train-2@r2-0@1000 train2-0@r2-0@2000 train2-1@r2-1@2000 train2-2@r2-1@2000$")
# the NVL72 pathology with every pod behind Kueue TAS (docs/TOPOLOGY.md): small
# pods packed by implied LeastFreeCapacity, every gang admitted at once into one
# rack (Kubernetes 1.37: the workload cycle over a gang pinned to several hosts)
drasim_cli_test(NAME queues/run/tas-nvl72-example
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/nvl72-racks-kueue-tas.yaml -o ${_ktr_out}/nvl72.db --force
  SQL ${_ktr_out}/nvl72.db "SELECT group_concat(metric || '=' || printf('%.2f', value), ' ') FROM summary WHERE grp = '' AND metric IN ('gangs_started', 'gang_domains_spanned_max', 'topo_whole_free_domains_mean')"
      "^gangs_started=12[.]00 topo_whole_free_domains_mean=7[.]96 gang_domains_spanned_max=1[.]00$"
      ${_ktr_out}/nvl72.db "SELECT printf('%.1f', value) FROM summary WHERE grp = 'fleet' AND metric = 'queue_wait_censored_max_s'" "^0[.]0$")
# GPUs stranded while a gang waits in Kueue's queue (queue_gate.held_gangs):
# tas-required.yaml sampled every 10 s; train2 (6 GPUs) is held from 2 s to
# 61 s while r1 has 4 and r2 2 free GPUs: 6 stranded at 10 .. 60 s = 0.10
# GPU-hours (0 before: only gangs in the scheduler counted)
drasim_cli_test(NAME queues/run/tas-stranded-held
  COMMAND run ${_ktr}/tas-required.yaml --set output.sampleInterval=10s -o ${_ktr_out}/stranded.db --force
  SQL ${_ktr_out}/stranded.db "SELECT printf('%.2f', value) FROM summary WHERE grp = '' AND metric = 'topo_stranded_gpu_hours'" "^0[.]10$")
# DRA claims with TAS (Kueue ff69552e79 counts a TAS pod set by its pod spec
# only, tas_flavorassigner.go NewRequestsFromPodSpec): the Workload is admitted
# and pinned to r1 (BestFit on CPUs) although r1's GPUs are taken; its pod
# waits in the scheduler until they are free (before the fix drasim put the
# DRA-mapped quota resource into TAS's request and never admitted it)
drasim_cli_test(NAME queues/run/tas-dra-claims
  COMMAND run ${_ktr}/tas-dra.yaml -o ${_ktr_out}/dra.db --force
  SQL ${_ktr_out}/dra.db "${_ktr_nodes}" "^small-0@r1-0@0 train-0@r1-0@100000$"
      ${_ktr_out}/dra.db "SELECT group_concat(metric || '=' || printf('%.1f', value), ' ') FROM summary WHERE grp = 'train' AND metric IN ('queue_admitted', 'queue_wait_censored_max_s', 'queue_unscheduled_censored_max_s')"
      "^queue_admitted=1[.]0 queue_unscheduled_censored_max_s=99[.]0 queue_wait_censored_max_s=0[.]0$")
# TAS-aware preemption (kueue ff69552e79 preemption.go workloadFits with
# FindTopologyAssignmentsForWorkload): the rack gang preempts y and z (rack r2),
# not the lowest-priority x (fillBackWorkloads), and starts in r2 once they
# are gone; x and w keep their hosts (TAS honours each pod's own nodeSelector)
drasim_cli_test(NAME queues/run/tas-preempt
  COMMAND run ${_ktr}/tas-preempt.yaml -o ${_ktr_out}/preempt.db --force
  SQL ${_ktr_out}/preempt.db "${_ktr_nodes}"
      "^x-0@r1-0@0 y-0@r2-0@0 z-0@r2-1@0 w-0@r1-1@0 gang-0@r2-0@15000 gang-1@r2-1@15000$"
      ${_ktr_out}/preempt.db "SELECT group_concat(name || '=' || state, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^x-0=Running y-0=Deleted z-0=Deleted w-0=Running gang-0=Succeeded gang-1=Succeeded$"
      ${_ktr_out}/preempt.db "SELECT group_concat(metric || '=' || printf('%.1f', value), ' ') FROM summary WHERE grp = 'train' AND metric IN ('queue_preemptions_InClusterQueue', 'queue_preempted', 'queue_wait_censored_max_s')"
      "^queue_preemptions_InClusterQueue=2[.]0 queue_preempted=2[.]0 queue_wait_censored_max_s=5[.]0$")
# bad input: a topology level missing on some nodes: Kueue's reason plus a warning naming them
drasim_cli_test(NAME queues/run/tas-unlabelled-nodes
  COMMAND run ${_ktr}/tas-unlabelled.yaml -o ${_ktr_out}/unlabelled.db --force
  EXPECT [=[train: 3 pods: quota fits but the topology does not: couldn't assign flavors to pod set main: topology "default" allows to fit only 2 out of 3 pod\(s\)]=]
         [=[warning: ClusterQueue train: 2 nodes of its TAS flavors lack a level label of the flavor's Topology; Kueue TAS never places a Workload on them]=]
  SQL ${_ktr_out}/unlabelled.db "SELECT value FROM summary WHERE grp = 'train' AND metric = 'queue_tas_unlabelled_nodes'" "^2[.]0$")
