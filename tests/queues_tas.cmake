# Kueue Topology-Aware Scheduling through `drasim admit` (issue 28): cases of
# kubernetes-sigs/kueue ff69552e79 pkg/cache/scheduler/tas_cache_test.go TestFindTopologyAssignments
# with the upstream case's wantAssignment / wantReason. Written by tests/queues/gen_tas.py.
set(_tas ${CMAKE_SOURCE_DIR}/tests/queues/tas)
# minimize the number of used racks before optimizing the number of nodes; BestFit
drasim_cli_test(NAME queues/tas/minimize-racks-before-nodes COMMAND admit ${_tas}/minimize-racks-before-nodes.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["kubernetes\.io/hostname"\], "domains": \[\{"values": \["x1"\], "count": 1\}, \{"values": \["x2"\], "count": 1\}, \{"values": \["x4"\], "count": 1\}, \{"values": \["x6"\], "count": 1\}\]\}\}]=])
# choose the node that can accommodate all Pods
drasim_cli_test(NAME queues/tas/node-holding-all-pods COMMAND admit ${_tas}/node-holding-all-pods.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["kubernetes\.io/hostname"\], "domains": \[\{"values": \["x3"\], "count": 2\}\]\}\}]=])
# no annotation; implied default to unconstrained; 6 pods fit into hosts scattered across the whole datacenter even they could fit into single rack; BestFit
drasim_cli_test(NAME queues/tas/implied-unconstrained-scattered COMMAND admit ${_tas}/implied-unconstrained-scattered.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["kubernetes\.io/hostname"\], "domains": \[\{"values": \["x1"\], "count": 1\}, \{"values": \["x3"\], "count": 1\}, \{"values": \["x5"\], "count": 1\}, \{"values": \["x2"\], "count": 1\}, \{"values": \["x6"\], "count": 2\}\]\}\}]=])
# unconstrained; 6 pods fit into hosts scattered across the whole datacenter even they could fit into single rack; BestFit
drasim_cli_test(NAME queues/tas/unconstrained-scattered COMMAND admit ${_tas}/unconstrained-scattered.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["kubernetes\.io/hostname"\], "domains": \[\{"values": \["x1"\], "count": 1\}, \{"values": \["x3"\], "count": 1\}, \{"values": \["x5"\], "count": 1\}, \{"values": \["x2"\], "count": 1\}, \{"values": \["x6"\], "count": 2\}\]\}\}]=])
# unconstrained; a single pod fits into each host; LeastFreeCapacity; TASProfileMixed
drasim_cli_test(NAME queues/tas/unconstrained-lfc-single-pod COMMAND admit ${_tas}/unconstrained-lfc-single-pod.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["kubernetes\.io/hostname"\], "domains": \[\{"values": \["x3"\], "count": 1\}\]\}\}]=])
# block required; 4 pods fit into one host each; BestFit
drasim_cli_test(NAME queues/tas/block-required-one-per-host COMMAND admit ${_tas}/block-required-one-per-host.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["kubernetes\.io/hostname"\], "domains": \[\{"values": \["x3"\], "count": 1\}, \{"values": \["x5"\], "count": 1\}, \{"values": \["x1"\], "count": 1\}, \{"values": \["x6"\], "count": 1\}\]\}\}]=])
# host required; single Pod fits in the host; BestFit
drasim_cli_test(NAME queues/tas/host-required-single-pod COMMAND admit ${_tas}/host-required-single-pod.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["kubernetes\.io/hostname"\], "domains": \[\{"values": \["x3"\], "count": 1\}\]\}\}]=])
# rack required; single Pod fits in a rack; BestFit
drasim_cli_test(NAME queues/tas/rack-required-single-pod COMMAND admit ${_tas}/rack-required-single-pod.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["cloud\.com/topology-block", "cloud\.com/topology-rack"\], "domains": \[\{"values": \["b1", "r1"\], "count": 1\}\]\}\}]=])
# rack required; multiple Pods fit in a rack; BestFit
drasim_cli_test(NAME queues/tas/rack-required-multiple-pods COMMAND admit ${_tas}/rack-required-multiple-pods.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["cloud\.com/topology-block", "cloud\.com/topology-rack"\], "domains": \[\{"values": \["b1", "r2"\], "count": 3\}\]\}\}]=])
# block preferred; Pods fit in 2 blocks; BestFit
drasim_cli_test(NAME queues/tas/block-preferred-two-blocks COMMAND admit ${_tas}/block-preferred-two-blocks.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["cloud\.com/topology-block"\], "domains": \[\{"values": \["b2"\], "count": 1\}, \{"values": \["b3"\], "count": 4\}\]\}\}]=])
# rack required; multiple Pods fit in some racks; BestFit
drasim_cli_test(NAME queues/tas/rack-required-some-racks COMMAND admit ${_tas}/rack-required-some-racks.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["cloud\.com/topology-block", "cloud\.com/topology-rack"\], "domains": \[\{"values": \["b2", "r2"\], "count": 2\}\]\}\}]=])
# rack required; too many pods to fit in any rack; BestFit
drasim_cli_test(NAME queues/tas/rack-required-too-many COMMAND admit ${_tas}/rack-required-too-many.yaml EXIT 1
  EXPECT [=["admitted": false]=] [=["reason": "couldn't assign flavors to pod set main: topology \\"default\\" allows to fit only 3 out of 4 pod\(s\)"]=])
# block required; single Pod fits in a block and a single rack; BestFit
drasim_cli_test(NAME queues/tas/block-required-single-rack COMMAND admit ${_tas}/block-required-single-rack.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["cloud\.com/topology-block", "cloud\.com/topology-rack"\], "domains": \[\{"values": \["b2", "r1"\], "count": 1\}\]\}\}]=])
# block required; Pods fit in a block spread across two racks; BestFit
drasim_cli_test(NAME queues/tas/block-required-two-racks COMMAND admit ${_tas}/block-required-two-racks.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["cloud\.com/topology-block", "cloud\.com/topology-rack"\], "domains": \[\{"values": \["b1", "r1"\], "count": 1\}, \{"values": \["b1", "r2"\], "count": 3\}\]\}\}]=])
# block required; single Pod which cannot be split; BestFit
drasim_cli_test(NAME queues/tas/block-required-cannot-split COMMAND admit ${_tas}/block-required-cannot-split.yaml EXIT 1
  EXPECT [=["admitted": false]=] [=["reason": "couldn't assign flavors to pod set main: topology \\"default\\" doesn't allow to fit any of 1 pod\(s\)\. Total nodes: 4; excluded: resource \\"cpu\\": 4"]=])
# block required; too many Pods to fit requested; BestFit
drasim_cli_test(NAME queues/tas/block-required-too-many COMMAND admit ${_tas}/block-required-too-many.yaml EXIT 1
  EXPECT [=["admitted": false]=] [=["reason": "couldn't assign flavors to pod set main: topology \\"default\\" allows to fit only 4 out of 5 pod\(s\)"]=])
# rack required; single Pod requiring memory; BestFit
drasim_cli_test(NAME queues/tas/rack-required-memory COMMAND admit ${_tas}/rack-required-memory.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["cloud\.com/topology-block", "cloud\.com/topology-rack"\], "domains": \[\{"values": \["b1", "r1"\], "count": 4\}\]\}\}]=])
# rack preferred; but only block can accommodate the workload; BestFit
drasim_cli_test(NAME queues/tas/rack-preferred-block-holds COMMAND admit ${_tas}/rack-preferred-block-holds.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["cloud\.com/topology-block", "cloud\.com/topology-rack"\], "domains": \[\{"values": \["b1", "r1"\], "count": 1\}, \{"values": \["b1", "r2"\], "count": 3\}\]\}\}]=])
# rack preferred; but only multiple blocks can accommodate the workload; BestFit
drasim_cli_test(NAME queues/tas/rack-preferred-multiple-blocks COMMAND admit ${_tas}/rack-preferred-multiple-blocks.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["cloud\.com/topology-block", "cloud\.com/topology-rack"\], "domains": \[\{"values": \["b1", "r1"\], "count": 1\}, \{"values": \["b1", "r2"\], "count": 3\}, \{"values": \["b2", "r2"\], "count": 2\}\]\}\}]=])
# block preferred; but only multiple blocks can accommodate the workload; BestFit
drasim_cli_test(NAME queues/tas/block-preferred-multiple-blocks COMMAND admit ${_tas}/block-preferred-multiple-blocks.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["cloud\.com/topology-block", "cloud\.com/topology-rack"\], "domains": \[\{"values": \["b1", "r1"\], "count": 1\}, \{"values": \["b1", "r2"\], "count": 3\}, \{"values": \["b2", "r2"\], "count": 2\}\]\}\}]=])
# block preferred; but the workload cannot be accommodate in entire topology; BestFit
drasim_cli_test(NAME queues/tas/block-preferred-too-many COMMAND admit ${_tas}/block-preferred-too-many.yaml EXIT 1
  EXPECT [=["admitted": false]=] [=["reason": "couldn't assign flavors to pod set main: topology \\"default\\" allows to fit only 7 out of 10 pod\(s\)"]=])
# no assignment as node is not ready; BestFit
drasim_cli_test(NAME queues/tas/node-not-ready COMMAND admit ${_tas}/node-not-ready.yaml EXIT 1
  EXPECT [=["admitted": false]=] [=["reason": "couldn't assign flavors to pod set main: no topology domains at level: kubernetes\.io/hostname"]=])
# no assignment as node is unschedulable; BestFit
drasim_cli_test(NAME queues/tas/node-unschedulable COMMAND admit ${_tas}/node-unschedulable.yaml EXIT 1
  EXPECT [=["admitted": false]=] [=["reason": "couldn't assign flavors to pod set main: no topology domains at level: kubernetes\.io/hostname"]=])
# skip node which has untolerated taint; BestFit
drasim_cli_test(NAME queues/tas/untolerated-taint COMMAND admit ${_tas}/untolerated-taint.yaml EXIT 1
  EXPECT [=["admitted": false]=] [=["reason": "couldn't assign flavors to pod set main: topology \\"default\\" doesn't allow to fit any of 1 pod\(s\)\. Total nodes: 1; excluded: taint \\"example\.com/gpu=present:NoSchedule\\": 1"]=])
# block required for podset; host required for slices; BestFit
drasim_cli_test(NAME queues/tas/slices-host-in-block COMMAND admit ${_tas}/slices-host-in-block.yaml EXIT 0
  EXPECT [=["admitted": true]=] [=["topologyAssignments": \{"main": \{"levels": \["kubernetes\.io/hostname"\], "domains": \[\{"values": \["x1"\], "count": 2\}, \{"values": \["x3"\], "count": 2\}, \{"values": \["x5"\], "count": 2\}\]\}\}]=])
