# Kueue TAS-aware preemption through `drasim admit` (issue 28; queue/kq_tas_admit.c):
# a Workload that fits the quota but no domain, or needs preemption for quota,
# gets the victims whose removal lets its TopologyAssignment fit
# (kubernetes-sigs/kueue ff69552e79 pkg/scheduler/preemption/preemption.go
# workloadFits -> FindTopologyAssignmentsForWorkload). Cases of
# pkg/scheduler/scheduler_tas_test.go TestScheduleForTASPreemption with the
# upstream case's preempted Workloads and QuotaReserved message, and one
# derived by hand (two racks).
set(_ktp ${CMAKE_SOURCE_DIR}/tests/queues/tas-preempt)
# "only low priority workload is preempted"
drasim_cli_test(NAME queues/tas-preempt/only-low-priority
  COMMAND admit ${_ktp}/only-low-priority.yaml EXIT 1
  EXPECT [=["victims": \["low-priority-admitted"\], "victimReasons": \["InClusterQueue"\]]=]
         [=["reason": "couldn't assign flavors to pod set one: topology \\"tas-single-level\\" doesn't allow to fit any of 1 pod\(s\)\. Total nodes: 1; excluded: resource \\"cpu\\": 1\. Pending the preemption of 1 workload\(s\)"]=])
# "low priority workload is preempted, mid-priority workload survives"
drasim_cli_test(NAME queues/tas-preempt/mid-priority-survives
  COMMAND admit ${_ktp}/mid-priority-survives.yaml EXIT 1
  EXPECT [=["victims": \["low-priority-admitted"\], "victimReasons": \["InClusterQueue"\]]=]
         [=["reason": "couldn't assign flavors to pod set one: topology \\"tas-single-level\\" doesn't allow to fit any of 1 pod\(s\)\. Total nodes: 1; excluded: resource \\"cpu\\": 1\. Pending the preemption of 1 workload\(s\)"]=])
# "low priority workload is preempted even though there is enough capacity, but fragmented"
drasim_cli_test(NAME queues/tas-preempt/fragmented
  COMMAND admit ${_ktp}/fragmented.yaml EXIT 1
  EXPECT [=["victims": \["low-priority-admitted"\], "victimReasons": \["InClusterQueue"\]]=]
         [=["reason": "couldn't assign flavors to pod set one: topology \\"tas-single-level\\" allows to fit only 1 out of 2 pod\(s\)\. Pending the preemption of 1 workload\(s\)"]=])
# "preempt in multiple flavors out of which one requires update Fit -> Preempt due to
# fragmentation": the quota needs 5Gi of memory (low-mem alone would free it),
# the topology needs 3 CPUs on one host too, so low-cpu goes as well
drasim_cli_test(NAME queues/tas-preempt/fit-to-preempt-fragmentation
  COMMAND admit ${_ktp}/fit-to-preempt-fragmentation.yaml EXIT 1
  EXPECT [=["victims": \["low-cpu", "low-mem"\], "victimReasons": \["InClusterQueue", "InClusterQueue"\]]=]
         [=["reason": "couldn't assign flavors to pod set one: insufficient unused quota for memory in flavor tas-default, 5Gi more needed\. Pending the preemption of 2 workload\(s\)"]=])
# "workload with equal priority awaits for other workloads to complete": no
# candidate (LowerPriority), Kueue's message without the preemption suffix
# (a control: drasim chose no victims before TAS-aware preemption either)
drasim_cli_test(NAME queues/tas-preempt/equal-priority-waits
  COMMAND admit ${_ktp}/equal-priority-waits.yaml EXIT 1
  EXPECT [=["victims": \[\]]=]
         [=["reason": "couldn't assign flavors to pod set one: topology \\"tas-single-level\\" allows to fit only 1 out of 2 pod\(s\)"]=])
# Hand-derived (header of the file): the gang frees rack r2 (y, z), not r1,
# although x has the lowest priority: x is dropped again by fillBackWorkloads
drasim_cli_test(NAME queues/tas-preempt/hand-two-racks
  COMMAND admit ${_ktp}/hand-two-racks.yaml EXIT 1
  EXPECT [=["victims": \["y", "z"\], "victimReasons": \["InClusterQueue", "InClusterQueue"\]]=]
         [=[Pending the preemption of 2 workload\(s\)"]=])
