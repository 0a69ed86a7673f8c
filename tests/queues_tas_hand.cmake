# Kueue TAS through `drasim admit`, hand-derived (issue 28): two racks r1, r2 of
# two hosts with 4 GPUs each; a gang of 2 pods x 4 GPUs requires one rack.
set(_tash ${CMAKE_SOURCE_DIR}/tests/queues/tas-hand)
# running-0 holds r1-h1 (its topologyAssignment is charged): r1 holds 1 more pod,
# r2 holds 2; BestFit takes the smallest rack that fits, r2 (without the charge
# both hold 2 and r1 would win on its name).
drasim_cli_test(NAME queues/tas-hand/rack-avoids-used-host
  COMMAND admit ${_tash}/rack-avoids-used-host.yaml
  EXPECT [=["admitted": true]=]
         [=["topologyAssignments": \{"workers": \{"levels": \["kubernetes.io/hostname"\], "domains": \[\{"values": \["r2-h1"\], "count": 1\}, \{"values": \["r2-h2"\], "count": 1\}\]\}\}]=])
# One host used in each rack: the quota (16 GPUs, 8 used) fits, no rack holds 2
# pods now (Kueue: Preempt mode, not admitted this cycle), empty racks would.
drasim_cli_test(NAME queues/tas-hand/both-racks-broken
  COMMAND admit ${_tash}/both-racks-broken.yaml EXIT 1
  EXPECT [=["admitted": false]=]
         [=["reason": "couldn't assign flavors to pod set workers: topology \\"default\\" allows to fit only 1 out of 2 pod\(s\). Total nodes: 4; excluded: resource \\"nvidia.com/gpu\\": 2"]=]
         [=["why": "quota fits but the topology does not: ]=])
drasim_cli_test(NAME queues/tas-hand/bad-missing-topology
  COMMAND admit ${_tash}/bad-missing-topology.yaml EXIT 3
  EXPECT [=[bad-missing-topology.yaml:10:1: ResourceFlavor gb200: spec.topologyName: Topology 'nvl72' does not exist]=])
