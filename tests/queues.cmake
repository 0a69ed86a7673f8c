# Kueue conformance through `drasim admit` (issue 27). Each case is written
# from an upstream table of kubernetes-sigs/kueue ff69552e79 (the v0.19 line);
# the expected victims, reasons and flavors are derived by hand from that
# table, not copied from drasim's output. Snapshots: tests/queues/.
set(_kq ${CMAKE_SOURCE_DIR}/tests/queues)

# ---- pkg/scheduler/preemption/preemption_test.go TestPreemption --------------
# (tests/queues/gen_preemption.py writes the snapshots). A workload that needs
# preemption is not admitted in its cycle (exit 1); "victims" are the targets
# (sorted by name), "victimReasons" Kueue's Preempted condition reasons.
function(kq_preempt name upstream victims reasons)
  drasim_cli_test(NAME queues/preemption/${name}
    COMMAND admit ${_kq}/preemption/base.yaml ${_kq}/preemption/${name}.yaml
    EXIT 1
    EXPECT "\"admitted\": false" "\"victims\": \\[${victims}\\], \"victimReasons\": \\[${reasons}\\]")
endfunction()
set(_icq [["InClusterQueue"]])
set(_icr [["InCohortReclamation"]])
set(_iwb [["InCohortReclaimWhileBorrowing"]])
kq_preempt(preempt-lowest-priority "preempt lowest priority" [["low"]] ${_icq})
kq_preempt(preempt-multiple "preempt multiple" [["low", "mid"]] "${_icq}, ${_icq}")
kq_preempt(no-preemption-for-low-priority "no preemption for low priority" "" "")
kq_preempt(not-enough-low-priority-workloads "not enough low priority workloads" "" "")
kq_preempt(some-free-quota-preempt-low-priority "some free quota, preempt low priority" [["low"]] ${_icq})
kq_preempt(minimal-set-excludes-low-priority "minimal set excludes low priority" [["mid"]] ${_icq})
kq_preempt(reclaim-quota-from-borrower "reclaim quota from borrower" [["c2-mid"]] ${_icr})
kq_preempt(not-enough-workloads-borrowing "not enough workloads borrowing" "" "")
kq_preempt(preempting-locally-and-borrowing-same-resource-in-cohort
  "preempting locally and borrowing same resource in cohort" [["c1-low"]] ${_icq})
kq_preempt(preempting-locally-no-borrowing-limit-in-cohort
  "preempting locally and borrowing same resource in cohort; no borrowing limit in the cohort" [["d1-low"]] ${_icq})
kq_preempt(preempt-newer-workloads-with-the-same-priority
  "preempt newer workloads with the same priority" [["wl2"]] ${_icq})
kq_preempt(borrowwithincohort-allow-lower-priority-while-borrowing
  "use BorrowWithinCohort; allow preempting a lower-priority workload from another ClusterQueue while borrowing"
  [["a_best_effort_low"]] ${_iwb})
kq_preempt(borrowwithincohort-not-above-threshold-when-still-borrowing
  "use BorrowWithinCohort; don't allow preempting a lower-priority workload with priority above MaxPriorityThreshold, if borrowing is required even after the preemption"
  "" "")
kq_preempt(borrowwithincohort-above-threshold-when-not-borrowing-after
  "use BorrowWithinCohort; allow preempting a lower-priority workload with priority above MaxPriorityThreshold, if borrowing is not required after the preemption"
  [["b_standard"]] ${_icr})
kq_preempt(borrowwithincohort-not-from-same-clusterqueue
  "use BorrowWithinCohort; don't allow for preemption of lower-priority workload from the same ClusterQueue" "" "")
kq_preempt(borrowwithincohort-only-from-cq-when-no-workloads-below-threshold
  "use BorrowWithinCohort; only preempt from CQ if no workloads below threshold and already above nominal"
  [["b_standard_1"]] ${_icq})
kq_preempt(borrowwithincohort-from-cq-and-other-cqs-below-threshold
  "use BorrowWithinCohort; preempt from CQ and from other CQs with workloads below threshold"
  [["a_best_effort_lower", "b_standard_mid"]] "${_iwb}, ${_icq}")
kq_preempt(reclaim-quota-from-lender "reclaim quota from lender" [["lend2-mid"]] ${_icr})
kq_preempt(preempt-from-all-clusterqueues-in-cohort-lend "preempt from all ClusterQueues in cohort-lend"
  [["lend1-low", "lend2-low"]] "${_icq}, ${_icr}")
kq_preempt(cannot-preempt-beyond-lending-limit
  "cannot preempt from other ClusterQueues if exceeds requestable quota including lending limit" "" "")

# ---- pkg/scheduler/flavorassigner/flavorassigner_test.go TestAssignFlavors ---
# "flavors" is wantAssignment's flavor per resource; "borrowing" its Borrowing
# > 0; a NoFit case prints the upstream Status message as "reason".
function(kq_flavors name upstream exit regex)
  drasim_cli_test(NAME queues/flavors/${name}
    COMMAND admit ${_kq}/flavors/${name}.yaml
    EXIT ${exit} EXPECT "${regex}")
endfunction()
kq_flavors(multiple-flavors-fits-a-node-selector "multiple flavors, fits a node selector" 0
  [["admitted": true, "flavors": {"main": {"cpu": "two"}}, "borrowing": false]])
kq_flavors(single-flavor-fits-tainted-flavor "single flavor, fits tainted flavor" 0
  [["flavors": {"main": {"cpu": "tainted"}}]])
kq_flavors(multiple-flavors-fits-while-skipping-tainted-flavor "multiple flavors, fits while skipping tainted flavor" 0
  [["flavors": {"main": {"cpu": "two"}}]])
kq_flavors(preempt-try-next-flavor "preempt try next flavor" 0
  [["flavors": {"main": {"cpu": "two", "pods": "two"}}, "borrowing": false]])
kq_flavors(borrow-try-next-flavor-found-the-first-flavor "borrow try next flavor, found the first flavor" 0
  [["flavors": {"main": {"cpu": "one", "pods": "one"}}, "borrowing": true]])
kq_flavors(borrow-try-next-flavor-found-the-second-flavor "borrow try next flavor, found the second flavor" 0
  [["flavors": {"main": {"cpu": "two", "pods": "two"}}, "borrowing": false]])
kq_flavors(borrow-before-try-next-flavor "borrow before try next flavor" 0
  [["flavors": {"main": {"cpu": "one", "pods": "one"}}, "borrowing": true]])
kq_flavors(not-enough-space-to-borrow "not enough space to borrow" 1
  [[insufficient quota for cpu in flavor one, previously considered podsets requests [(]0[)] [+] current podset request [(]2[)] > maximum capacity [(]1[)]"]])
kq_flavors(resource-not-listed-in-clusterqueue "resource not listed in clusterQueue" 1
  [[resource example.com/gpu unavailable in ClusterQueue]])
kq_flavors(zero-resource-request-not-in-clusterqueue-should-succeed
  "zero resource request not in clusterQueue should succeed" 0 [["flavors": {"main": {"cpu": "default"}}]])
kq_flavors(num-pods-fit "num pods fit" 0 [["flavors": {"main": {"cpu": "default", "pods": "default"}}]])
kq_flavors(num-pods-dont-fit "num pods don't fit" 1
  [[insufficient quota for pods in flavor default, previously considered podsets requests [(]0[)] [+] current podset request [(]3[)] > maximum capacity [(]2[)]"]])

# ---- pkg/cache/scheduler/fair_sharing_test.go TestDominantResourceShare ------
# want[].DrValue / DrName of the ClusterQueue "cq" and of the cohorts.
function(kq_drs name upstream regex)
  drasim_cli_test(NAME queues/drs/${name}
    COMMAND admit --shares ${_kq}/drs/${name}.yaml
    EXPECT "${regex}")
endfunction()
set(_g [["example.com/gpu"]])
kq_drs(usage-above-nominal "usage above nominal"
  "\"cq\": {\"share\": 200, \"dominantResource\": ${_g}}.*\"test-cohort\": {\"share\": 0,")
kq_drs(usage-slightly-above-nominal-large-quotas "usage slightly above nominal in a cohort with large quotas"
  "\"cq\": {\"share\": 1, \"dominantResource\": ${_g}}")
kq_drs(usage-way-above-nominal-large-quotas-and-weights
  "usage way above nominal in a cohort with large quotas and weights" "\"cq\": {\"share\": 1, \"dominantResource\": ${_g}}")
kq_drs(one-resource-above-nominal "one resource above nominal" [["cq": {"share": 100, "dominantResource": "cpu"}]])
kq_drs(above-nominal-with-integer-weight "above nominal with integer weight" "\"cq\": {\"share\": 100, ")
kq_drs(above-nominal-with-decimal-weight "above nominal with decimal weight" "\"cq\": {\"share\": 400, ")
kq_drs(above-nominal-with-zero-weight "above nominal with zero weight" "\"cq\": {\"share\": 9223372036854775807, ")
kq_drs(cohort-has-resource-share "cohort has resource share"
  "\"cq\": {\"share\": 100, .*\"child-cohort\": {\"share\": 50, \"dominantResource\": ${_g}}, \"root\": {\"share\": 0,")
kq_drs(resource-share-only-at-the-root-cohort "resource share defined for resources only available at the root cohort"
  "\"cq\": {\"share\": 200, .*\"child-cohort\": {\"share\": 100, ")
kq_drs(resource-share-affected-by-borrowing-limit "resource share affected by borrowing limit"
  "\"cq\": {\"share\": 1000, .*\"child-cohort\": {\"share\": 200, ")

# ---- pkg/scheduler/preemption/preemption_fair_test.go TestFairPreemptions ----
# Fair sharing on by a Kueue Configuration document in the snapshot
# (tests/queues/fair/, written by gen_cases.py); victims and reasons are the
# upstream case's wantPreempted (targetKeyReason), sorted by name.
function(kq_fair name upstream victims reasons)
  drasim_cli_test(NAME queues/fair/${name}
    COMMAND admit ${_kq}/fair/${name}.yaml
    EXIT 1
    EXPECT "\"admitted\": false" "\"victims\": \\[${victims}\\], \"victimReasons\": \\[${reasons}\\]")
endfunction()
set(_ifs [["InCohortFairSharing"]])
kq_fair(reclaim-nominal-from-user-using-the-most "reclaim nominal from user using the most" [["b1"]] ${_icr})
kq_fair(can-reclaim-from-queue-using-less
  "can reclaim from queue using less, if taking the latest workload from user using the most isn't enough" [["a1"]] ${_icr})
kq_fair(reclaim-borrowable-quota-from-user-using-the-most "reclaim borrowable quota from user using the most" [["b1"]] ${_ifs})
kq_fair(preempt-one-from-each-cq-borrowing "preempt one from each CQ borrowing" [["a1", "b1"]] "${_icr}, ${_icr}")
kq_fair(cant-preempt-when-everyone-under-nominal "can't preempt when everyone under nominal" "" "")
kq_fair(cant-preempt-when-it-would-switch-the-imbalance "can't preempt when it would switch the imbalance" "" "")
kq_fair(can-preempt-lower-priority-workloads-from-same-cq "can preempt lower priority workloads from same CQ"
  [["a1_low", "a2_low"]] "${_icq}, ${_icq}")
kq_fair(can-preempt-a-combination-of-same-cq-and-highest-user "can preempt a combination of same CQ and highest user"
  [["a_low", "b1"]] "${_icq}, ${_ifs}")
kq_fair(preempt-huge-workload-if-there-is-no-other-option
  "preempt huge workload if there is no other option, as long as the target CQ gets a lower share" [["b1"]] ${_icr})
kq_fair(cant-preempt-huge-workload-if-the-incoming-is-also-huge "can't preempt huge workload if the incoming is also huge" "" "")
kq_fair(cant-preempt-2-smaller-workloads-if-the-incoming-is-huge "can't preempt 2 smaller workloads if the incoming is huge" "" "")
kq_fair(preempt-from-target-and-others-even-if-over-nominal "preempt from target and others even if over nominal"
  [["a1_low", "b1"]] "${_icq}, ${_ifs}")
kq_fair(prefer-to-preempt-workloads-that-dont-make-the-target-cq-have-the-biggest-share
  "prefer to preempt workloads that don't make the target CQ have the biggest share" [["b2"]] ${_ifs})
kq_fair(preempt-from-different-cluster-queues-if-the-end-result-has-a-smaller-max-share
  "preempt from different cluster queues if the end result has a smaller max share" [["b1", "c1"]] "${_ifs}, ${_ifs}")
kq_fair(scenario-above-does-not-flap "scenario above does not flap" "" "")
kq_fair(cannot-preempt-if-it-would-make-the-candidate-cq-go-under-nominal
  "cannot preempt if it would make the candidate CQ go under nominal after preempting one element" "" "")
kq_fair(workloads-under-priority-threshold-not-capriciously-preempted
  "workloads under priority threshold not capriciously preempted" "" "")
kq_fair(preempt-lower-priority-first-even-if-big "preempt lower priority first, even if big" [["b_low"]] ${_ifs})
kq_fair(preempt-workload-that-doesnt-transfer-the-imbalance-even-if-high-priority
  "preempt workload that doesn't transfer the imbalance, even if high priority" [["b_high"]] ${_ifs})
kq_fair(cq-with-higher-weight-can-preempt-more "CQ with higher weight can preempt more" [["b1", "b2"]] "${_ifs}, ${_ifs}")
kq_fair(can-preempt-anything-borrowing-from-cq-with-0-weight "can preempt anything borrowing from CQ with 0 weight"
  [["b1", "b2", "b3"]] "${_ifs}, ${_ifs}, ${_ifs}")
kq_fair(cant-preempt-nominal-from-cq-with-0-weight "can't preempt nominal from CQ with 0 weight" "" "")
kq_fair(cant-preempt-nominal-from-cohort-with-0-weight "can't preempt nominal from Cohort with 0 weight" "" "")

# ---- bad input: FILE:LINE:COL, exit 3, nothing printed on stdout --------------
function(kq_bad name regex)
  drasim_cli_test(NAME queues/bad/${name}
    COMMAND admit --no-implicit-cohorts --shares ${_kq}/bad/${name}.yaml
    EXIT 3 EXPECT "${regex}" REJECT "clusterQueues")
endfunction()
kq_bad(missing-flavor [[missing-flavor.yaml:12:7: ClusterQueue team-a: spec.resourceGroups\[0\].flavors\[0\].name: ResourceFlavor 'a100' does not exist]])
kq_bad(cohort-cycle [[cohort-cycle.yaml:4:20: Cohort org: spec.parentName: cohort cycle through 'dept']])
kq_bad(missing-cluster-queue [[missing-cluster-queue.yaml:4:22: LocalQueue team-a/team-a: spec.clusterQueue: ClusterQueue 'team-a-cq' does not exist]])
kq_bad(undeclared-resource [[undeclared-resource.yaml:13:19: .*'nvidia.com/gpu' must match the name in coveredResources [(]'cpu'[)]: a quota on an undeclared resource]])
kq_bad(missing-cohort [[missing-cohort.yaml:5:15: ClusterQueue team-a: spec.cohortName: Cohort 'gpu-pool' does not exist]])
kq_bad(borrowing-without-cohort [[borrowing-without-cohort.yaml:13:19: .*borrowingLimit: must be nil when cohort is empty]])
kq_bad(bad-fs-strategy [[bad-fs-strategy.yaml:4:25: fairSharing.preemptionStrategies: supported values: ]])
kq_bad(bad-policy [[bad-policy.yaml:5:36: ClusterQueue team-a: spec.preemption: withinClusterQueue: unsupported value 'Any']])
# Kueue's implicit cohorts: the same file is fine without --no-implicit-cohorts
drasim_cli_test(NAME queues/implicit-cohort COMMAND admit --shares ${_kq}/bad/missing-cohort.yaml
  EXPECT [["cohorts": {"gpu-pool": {"share": 0,]])
drasim_cli_test(NAME queues/missing-local-queue COMMAND admit ${_kq}/missing-local-queue.yaml
  EXIT 1 EXPECT [["admitted": false.*"reason": "LocalQueue team-a-typo doesn't exist"]])
drasim_cli_test(NAME queues/usage COMMAND admit EXIT 2 EXPECT "usage: drasim admit")

# ---- Kueue in front of the scheduler in a run (queue/gate.h) ------------------
# tests/queues/run/borrowing.yaml derives every number by hand.
set(_kq_out ${CMAKE_CURRENT_BINARY_DIR}/queues-run)
file(MAKE_DIRECTORY ${_kq_out})
drasim_cli_test(NAME queues/run/borrowing
  COMMAND run ${_kq}/run/borrowing.yaml -o ${_kq_out}/borrowing.db --force
  EXPECT "c: 1 pod: LocalQueue team-c doesn't exist"
  SQL ${_kq_out}/borrowing.db "SELECT group_concat(metric || '=' || printf('%.2f', value), ' ') FROM summary WHERE grp = 'team-a' AND metric LIKE 'queue%' AND metric NOT LIKE 'queue_preempt%' AND metric NOT LIKE 'queue_unscheduled%'"
      "^queue_admitted=4[.]00 queue_admitted_borrowing=2[.]00 queue_pending_at_end=0[.]00 queue_wait_censored_mean_s=1[.]75 queue_wait_censored_p50_s=0[.]00 queue_wait_censored_p90_s=7[.]00 queue_wait_censored_p99_s=7[.]00 queue_wait_censored_max_s=7[.]00$"
      ${_kq_out}/borrowing.db "SELECT group_concat(metric || '=' || printf('%.2f', value), ' ') FROM summary WHERE grp = 'team-b' AND metric IN ('queue_admitted', 'queue_wait_censored_max_s')"
      "^queue_admitted=1[.]00 queue_wait_censored_max_s=0[.]00$"
      ${_kq_out}/borrowing.db "SELECT value FROM summary WHERE metric = 'queue_missing_local_queue_pods'" "^1[.]0$")
drasim_cli_test(NAME queues/run/missing-flavor
  COMMAND run ${_kq}/run/missing-flavor.yaml -o ${_kq_out}/missing-flavor.db
  EXIT 3 EXPECT [[missing-flavor.yaml:[0-9]+:[0-9]+: ClusterQueue team-b: spec.resourceGroups\[0\].flavors\[0\].name: ResourceFlavor 'a100' does not exist]]
  FILE_ABSENT ${_kq_out}/missing-flavor.db)
# a run without queues is unchanged: no queue metrics at all
drasim_cli_test(NAME queues/run/no-queues-no-rows
  COMMAND run ${CMAKE_SOURCE_DIR}/tests/groups/waits.yaml -o ${_kq_out}/plain.db --force
  SQL ${_kq_out}/plain.db "SELECT count(*) FROM summary WHERE metric LIKE 'queue%'" "^0$")
# the same objects from a file, the Cohort implicit (queues.implicitCohorts: true)
drasim_cli_test(NAME queues/run/files-implicit-cohort
  COMMAND run ${_kq}/run/files.yaml -o ${_kq_out}/files.db --force
  SQL ${_kq_out}/files.db "SELECT group_concat(metric || '=' || printf('%.2f', value), ' ') FROM summary WHERE grp = 'team-a' AND metric IN ('queue_admitted_borrowing', 'queue_wait_censored_mean_s')"
      "^queue_admitted_borrowing=2[.]00 queue_wait_censored_mean_s=1[.]75$")

# ---- Kueue's preemption in a run (issue 27 step 1): victims evicted through
# the engine, quota held until they are gone; each number derived by hand in
# the scenario's header.
set(_kq_sum "SELECT group_concat(metric || '=' || printf('%.3f', value), ' ') FROM summary WHERE metric IN ('queue_admitted', 'queue_admitted_borrowing', 'queue_preemptions_InClusterQueue', 'queue_preemptions_InCohortReclamation', 'queue_preempted', 'queue_wait_censored_mean_s', 'queue_wait_censored_max_s') AND grp =")
drasim_cli_test(NAME queues/run/preempt-reclaim
  COMMAND run ${_kq}/run/reclaim.yaml -o ${_kq_out}/reclaim.db --force
  SQL ${_kq_out}/reclaim.db "${_kq_sum} 'team-a'"
      "^queue_admitted=4.000 queue_admitted_borrowing=0.000 queue_preemptions_InClusterQueue=0.000 queue_preemptions_InCohortReclamation=2.000 queue_preempted=0.000 queue_wait_censored_mean_s=3.750 queue_wait_censored_max_s=10.000$"
      ${_kq_out}/reclaim.db "${_kq_sum} 'team-b'"
      "^queue_admitted=8.000 queue_admitted_borrowing=4.000 queue_preemptions_InClusterQueue=0.000 queue_preemptions_InCohortReclamation=0.000 queue_preempted=2.000 queue_wait_censored_mean_s=11.875 queue_wait_censored_max_s=50.000$"
      ${_kq_out}/reclaim.db "SELECT group_concat(name || '@' || scheduled_ms || '-' || completion_ms, ' ') FROM (SELECT * FROM pods WHERE state = 'Deleted' OR name LIKE 'a-%' ORDER BY pod_id)"
      "^b-4@4000-20000 b-5@5000-15000 a-0@10000-60000 a-1@10000-60000 a-2@15000-65000 a-3@20000-70000$"
      ${_kq_out}/reclaim.db "SELECT value FROM summary WHERE grp = '' AND metric = 'evictions_preemption'" "^2[.]0$")
drasim_cli_test(NAME queues/run/preempt-within-cq
  COMMAND run ${_kq}/run/within-cq.yaml -o ${_kq_out}/within-cq.db --force
  SQL ${_kq_out}/within-cq.db "${_kq_sum} 'solo'"
      "^queue_admitted=5.000 queue_admitted_borrowing=0.000 queue_preemptions_InClusterQueue=1.000 queue_preemptions_InCohortReclamation=0.000 queue_preempted=1.000 queue_wait_censored_mean_s=24.000 queue_wait_censored_max_s=90.000$"
      ${_kq_out}/within-cq.db "SELECT group_concat(name || '@' || scheduled_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^l-0@0 l-1@1000 h-0@15000 m-0@100000 l-2@35000$"
      ${_kq_out}/within-cq.db "SELECT reason FROM pods WHERE name = 'l-1'"
      "^Preempted to accommodate a workload due to prioritization in the ClusterQueue [(]Kueue[)]$")
# A preempted Workload is requeued when its quota is released and the
# scheduler runs then (kueue ff69552e79 workload_controller.go Update ->
# AddOrUpdateWorkload -> Broadcast); by hand in run/requeue.yaml. Before,
# the victim waited for the next event in its cohort (grace 0: b-2, b-3 at
# 12 s) or was a head while its old self still held quota (grace 5: b-2 at 12 s).
set(_kq_rq "SELECT group_concat(t_ms || ':' || flavor || '=' || usage, ' ') FROM queue_usage WHERE cluster_queue = 'team-b' AND resource = 'nvidia.com/gpu' AND t_ms IN (15000, 20000)")
set(_kq_rqw "SELECT group_concat(metric || '=' || printf('%.3f', value), ' ') FROM summary WHERE grp = 'team-b' AND metric IN ('queue_admitted', 'queue_admitted_borrowing', 'queue_preempted', 'queue_wait_censored_max_s')")
drasim_cli_test(NAME queues/run/requeue-grace-0
  COMMAND run ${_kq}/run/requeue.yaml -o ${_kq_out}/requeue-0.db --force
  SQL ${_kq_out}/requeue-0.db "SELECT group_concat(name || '@' || scheduled_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^b-0@0 b-1@1000 a-0@10000 a-1@10000 a-2@10000 a-3@10000 b-2@10001 b-3@10001 c-0@12000$"
      ${_kq_out}/requeue-0.db "${_kq_rqw}"
      "^queue_admitted=4.000 queue_admitted_borrowing=2.000 queue_preempted=2.000 queue_wait_censored_max_s=0.001$"
      ${_kq_out}/requeue-0.db "${_kq_rq}"
      "^15000:h100=0[.]0 15000:a100=2[.]0 20000:h100=0[.]0 20000:a100=2[.]0$")
drasim_cli_test(NAME queues/run/requeue-grace-5
  COMMAND run ${_kq}/run/requeue.yaml -o ${_kq_out}/requeue-5.db --force
          --set workload.podGroups.b.terminationGracePeriodSeconds=5
  SQL ${_kq_out}/requeue-5.db "SELECT group_concat(name || '@' || arrival_ms || '-' || scheduled_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^b-0@0-0 b-1@1000-1000 a-0@10000-10000 a-1@10000-10000 a-2@10000-15000 a-3@10000-20000 b-2@10000-15000 c-0@12000-12000 b-3@15000-20000$"
      ${_kq_out}/requeue-5.db "${_kq_rqw}"
      "^queue_admitted=4.000 queue_admitted_borrowing=2.000 queue_preempted=2.000 queue_wait_censored_max_s=5.000$"
      ${_kq_out}/requeue-5.db "${_kq_rq}"
      "^15000:h100=1[.]0 15000:a100=1[.]0 20000:h100=0[.]0 20000:a100=2[.]0$")
# kueue ff69552e79 scheduler_test.go TestSchedule "preemption while borrowing,
# workload waiting for preemption should not block a borrowing workload in another CQ"
drasim_cli_test(NAME queues/run/upstream-borrow-not-blocked
  COMMAND run ${_kq}/run/upstream-borrow-not-blocked.yaml -o ${_kq_out}/borrow-not-blocked.db --force
  SQL ${_kq_out}/borrow-not-blocked.db "SELECT group_concat(name || '=' || state, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^admitted-a-0=Running a-0=Pending b-0=Running$"
      ${_kq_out}/borrow-not-blocked.db "SELECT value FROM summary WHERE grp = 'cq_b' AND metric = 'queue_admitted_borrowing'" "^1[.]0$")

# ---- per ClusterQueue over time (issue 27 step 3): queue_usage, queue_state,
# time admitted but not placed; `check` with {queue=NAME}
drasim_cli_test(NAME queues/run/unscheduled
  COMMAND run ${_kq}/run/unscheduled.yaml -o ${_kq_out}/unscheduled.db --force
  SQL ${_kq_out}/unscheduled.db "SELECT group_concat(metric || '=' || printf('%.1f', value), ' ') FROM summary WHERE grp = 'big' AND metric IN ('queue_unscheduled_censored_mean_s', 'queue_unscheduled_censored_p50_s', 'queue_unscheduled_censored_max_s', 'queue_wait_censored_mean_s')"
      "^queue_unscheduled_censored_mean_s=15.0 queue_unscheduled_censored_p50_s=15.0 queue_unscheduled_censored_max_s=30.0 queue_wait_censored_mean_s=6.0$"
      ${_kq_out}/unscheduled.db "SELECT group_concat(t_ms || ':' || pending || '/' || admitted || '/' || unscheduled, ' ') FROM queue_state WHERE cluster_queue = 'big'"
      "^0:1/4/2 15000:1/4/2 30000:0/3/1 45000:0/3/1$"
      ${_kq_out}/unscheduled.db "SELECT group_concat(t_ms || ':' || usage || '/' || nominal || '/' || borrowed, ' ') FROM queue_usage WHERE resource = 'nvidia.com/gpu'"
      "^0:4[.]0/4[.]0/0[.]0 15000:4[.]0/4[.]0/0[.]0 30000:3[.]0/4[.]0/0[.]0 45000:3[.]0/4[.]0/0[.]0$")
# reclaim.yaml at 60 s: team-b holds 6 GPUs, 2 borrowed of the cohort's 8: share 2 * 1000 / 8
drasim_cli_test(NAME queues/run/usage-share
  COMMAND run ${_kq}/run/reclaim.yaml -o ${_kq_out}/reclaim-share.db --force
  SQL ${_kq_out}/reclaim-share.db "SELECT usage || '/' || borrowed FROM queue_usage WHERE t_ms = 60000 AND cluster_queue = 'team-b' AND resource = 'nvidia.com/gpu'" "^6[.]0/2[.]0$"
      ${_kq_out}/reclaim-share.db "SELECT share || ' ' || dominant_resource FROM queue_state WHERE t_ms = 60000 AND cluster_queue = 'team-b'" "^250 nvidia.com/gpu$")
drasim_cli_test(NAME queues/check/pass
  COMMAND check ${_kq}/run/reclaim.yaml --expect ${_kq}/run/expect-queue.yaml
  EXPECT [[preempted{queue=team-b} == 2 +2 +== 2 +pass]])
drasim_cli_test(NAME queues/check/fail
  COMMAND check ${_kq}/run/reclaim.yaml --expect ${_kq}/run/expect-queue-fail.yaml
  EXIT 1 EXPECT [[max[(]wait_censored_max_s{queue=team-a}[)] <= 5 +10 +<= 5 +FAIL]])
drasim_cli_test(NAME queues/check/missing-queue
  COMMAND check ${_kq}/run/reclaim.yaml --expect ${_kq}/run/expect-queue-missing.yaml
  EXIT 3 EXPECT "expect-queue-missing.yaml:4:3: threshold 'preemptions{queue=team-z} == 0': no ClusterQueue 'team-z' in the results [(]ClusterQueues: team-a, team-b[)]")

# ---- why-pending at the queue level (issue 27 step 5)
# upstream-borrow-not-blocked.yaml: cq_a holds 2 cpu, borrowing limit 3: 1 left, the limit binds
drasim_cli_test(NAME queues/run/why-borrowing-limit
  COMMAND run ${_kq}/run/upstream-borrow-not-blocked.yaml -o ${_kq_out}/why-limit.db --force
  SQL ${_kq_out}/why-limit.db "SELECT reason FROM pods WHERE name = 'a-0'"
      "^ClusterQueue cq_a: 3 cpu requested in flavor default, 1 left, borrowing limit 3 reached$")
# within-cq.yaml stopped at 12 s: h-0 waits for its victim l-1 (terminating until 15 s);
# in Kueue's order behind it: l-2 (requeued, created at 1 s), then m-0 (10 s)
drasim_cli_test(NAME queues/run/why-waiting-preemption
  COMMAND run ${_kq}/run/within-cq.yaml --set stop.time=12s -o ${_kq_out}/why-preempt.db --force
  SQL ${_kq_out}/why-preempt.db "SELECT group_concat(name || '=' || state || ': ' || reason, ' | ') FROM (SELECT * FROM pods WHERE state != 'Running' ORDER BY pod_id)"
      "^l-1=Terminating: Preempted to accommodate a workload due to prioritization in the ClusterQueue [(]Kueue[)] [|] h-0=Pending: ClusterQueue solo: 1 nvidia.com/gpu requested in flavor h100, 0 left, no cohort to borrow from; waiting for 1 preempted Workload[(]s[)] to end [|] m-0=Pending: ClusterQueue solo: queued behind 2 earlier Workload[(]s[)] [|] l-2=Pending: ClusterQueue solo: queued behind 1 earlier Workload[(]s[)]$")

# ---- fair sharing in a run (queues.fairSharing): the DRS tournament orders the
# heads, fair preemption with Kueue's strategies; each number derived by hand in
# tests/queues/run/fair-sharing.yaml's header
set(_kq_fs "SELECT group_concat(metric || '=' || printf('%.3f', value), ' ') FROM summary WHERE metric IN ('queue_admitted', 'queue_admitted_borrowing', 'queue_preemptions_InCohortReclamation', 'queue_preemptions_InCohortFairSharing', 'queue_preempted', 'queue_wait_censored_mean_s', 'queue_wait_censored_max_s') AND grp =")
drasim_cli_test(NAME queues/run/fair-sharing
  COMMAND run ${_kq}/run/fair-sharing.yaml -o ${_kq_out}/fair-sharing.db --force
  SQL ${_kq_out}/fair-sharing.db "${_kq_fs} 'x'"
      "^queue_admitted=9.000 queue_admitted_borrowing=7.000 queue_preemptions_InCohortReclamation=0.000 queue_preemptions_InCohortFairSharing=0.000 queue_preempted=3.000 queue_wait_censored_mean_s=23.889 queue_wait_censored_max_s=95.000$"
      ${_kq_out}/fair-sharing.db "${_kq_fs} 'y'"
      "^queue_admitted=4.000 queue_admitted_borrowing=2.000 queue_preemptions_InCohortReclamation=2.000 queue_preemptions_InCohortFairSharing=1.000 queue_preempted=0.000 queue_wait_censored_mean_s=21.250 queue_wait_censored_max_s=55.000$"
      ${_kq_out}/fair-sharing.db "SELECT group_concat(name || '@' || scheduled_ms || '-' || completion_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^x-0@0-15000 x-1@0-20000 x-2@0-25000 x-3@0-200000 x-4@0-200000 x-5@0-200000 y-0@15000-65000 y-1@20000-70000 y-2@25000-75000 y-3@65000-115000 x-6@70000-270000 x-7@75000-275000 x-8@115000-315000$"
      ${_kq_out}/fair-sharing.db "SELECT reason FROM pods WHERE name = 'x-2'"
      "^Preempted to accommodate a workload due to Fair Sharing within the cohort [(]Kueue[)]$")
drasim_cli_test(NAME queues/run/bad-fair-sharing
  COMMAND run ${_kq}/run/bad-fair-sharing.yaml -o ${_kq_out}/bad-fs.db
  EXIT 3 EXPECT [[bad-fair-sharing.yaml:37:5: unknown field 'preemptionStrategy' in fairSharing]]
  FILE_ABSENT ${_kq_out}/bad-fs.db)
# a gang behind Kueue is one Workload (pod set count = its pods): admitted all
# or nothing, preempted whole; numbers derived by hand in run/gang.yaml
drasim_cli_test(NAME queues/run/gang
  COMMAND run ${_kq}/run/gang.yaml -o ${_kq_out}/gang.db --force
  SQL ${_kq_out}/gang.db "SELECT group_concat(metric || '=' || printf('%.3f', value), ' ') FROM summary WHERE grp = 'team' AND metric IN ('queue_admitted', 'queue_preemptions_InClusterQueue', 'queue_preempted', 'queue_wait_censored_mean_s', 'queue_wait_censored_max_s')"
      "^queue_admitted=4.000 queue_preemptions_InClusterQueue=1.000 queue_preempted=1.000 queue_wait_censored_mean_s=36.250 queue_wait_censored_max_s=105.000$"
      ${_kq_out}/gang.db "SELECT group_concat(name || '@' || scheduled_ms || '-' || completion_ms, ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^g1-0@115000-175000 g2-0@3000-25000 g2-1@3000-25000 g2-2@3000-25000 g1-1@115000-175000 g1-2@115000-175000 h-0@25000-55000 g2-3@55000-115000 g2-4@55000-115000 g2-5@55000-115000$"
      ${_kq_out}/gang.db "SELECT value FROM summary WHERE grp = '' AND metric = 'evictions_preemption'" "^3[.]0$")

# DRA claims charged by Kueue's resources.deviceClassMappings (devices per
# request); numbers derived by hand in run/dra-mappings.yaml
drasim_cli_test(NAME queues/run/dra-mappings
  COMMAND run ${_kq}/run/dra-mappings.yaml -o ${_kq_out}/dra-mappings.db --force
  EXPECT "f: 1 pod: ResourceClaimTemplate gpus: devices.requests[[]0[]]: FirstAvailable device selection is not supported"
  SQL ${_kq_out}/dra-mappings.db "SELECT group_concat(metric || '=' || printf('%.3f', value), ' ') FROM summary WHERE grp = 'team' AND metric IN ('queue_admitted', 'queue_wait_censored_mean_s', 'queue_wait_censored_max_s')"
      "^queue_admitted=3.000 queue_wait_censored_mean_s=20.000 queue_wait_censored_max_s=60.000$"
      ${_kq_out}/dra-mappings.db "SELECT group_concat(name || '@' || scheduled_ms, ' ') FROM (SELECT * FROM pods WHERE name LIKE 'a-%' ORDER BY pod_id)"
      "^a-0@0 a-1@0 a-2@60000$")
drasim_cli_test(NAME queues/run/bad-dra-sources
  COMMAND run ${_kq}/run/bad-dra-sources.yaml -o ${_kq_out}/bad-dra.db
  EXIT 3 EXPECT [=[bad-dra-sources.yaml:[0-9]+:[0-9]+: deviceClassMappings: sources[[]0[]].capacity: capacity sources require KueueDRAIntegrationConsumableCapacity to be enabled]=]
  FILE_ABSENT ${_kq_out}/bad-dra.db)
drasim_cli_test(NAME queues/run/bad-dra-counter-selector
  COMMAND run ${_kq}/run/bad-dra-sources.yaml -o ${_kq_out}/bad-dra-selector.db
          --set "queues.objects[0].resources.deviceClassMappings[0].sources=[{counter: {name: memory, driver: gpu.nvidia.com}}]"
  EXIT 3 EXPECT [=[sources:1:[0-9]+: deviceClassMappings: sources[[][]][.]counter[.]deviceSelector[.]cel[.]expression: Required value]=]
  FILE_ABSENT ${_kq_out}/bad-dra-selector.db)

# Kueue's counter quota for partitionable devices (MIG; pkg/dra/counters.go):
# a dynamic-MIG request is charged the `memory` counter its profile's devices
# consume; numbers derived by hand in run/mig-counters.yaml. The control
# (sources removed: one unit per device) admits s-1 at once.
drasim_cli_test(NAME queues/run/mig-counters
  COMMAND run ${_kq}/run/mig-counters.yaml -o ${_kq_out}/mig-counters.db --force
  EXPECT "n: 1 pod: spec[.]podSets[[]0[]][.]template[.]spec[.]resourceClaims[[]0[]][.]devices[.]requests[[]0[]][.]exactly[.]selectors: Internal error: ResourceClaimTemplate mig: insufficient matching devices for CEL selector in DeviceClass mig[.]nvidia[.]com: 0 device[(]s[)] match in the cluster but 1 requested"
  SQL ${_kq_out}/mig-counters.db "SELECT group_concat(metric || '=' || printf('%.3f', value), ' ') FROM summary WHERE grp = 'team' AND metric IN ('queue_admitted', 'queue_wait_censored_mean_s', 'queue_wait_censored_max_s')"
      "^queue_admitted=3.000 queue_wait_censored_mean_s=20.000 queue_wait_censored_max_s=60.000$"
      ${_kq_out}/mig-counters.db "SELECT group_concat(name || '@' || scheduled_ms, ' ') FROM (SELECT * FROM pods WHERE name NOT LIKE 'n-%' ORDER BY pod_id)"
      "^b-0@0 s-0@0 s-1@60000$"
      ${_kq_out}/mig-counters.db "SELECT group_concat(t_ms || ':' || CAST(usage AS INTEGER), ' ') FROM (SELECT * FROM queue_usage WHERE resource = 'gpu.memory' AND t_ms <= 120000 ORDER BY t_ms)"
      "^0:52881784832 60000:52881784832 120000:42412802048$")
drasim_cli_test(NAME queues/run/mig-counters-per-device
  COMMAND run ${_kq}/run/mig-counters.yaml -o ${_kq_out}/mig-counters-none.db --force
          --set "queues.objects[0].resources.deviceClassMappings[0].sources=[]"
  SQL ${_kq_out}/mig-counters-none.db "SELECT group_concat(name || '@' || scheduled_ms, ' ') FROM (SELECT * FROM pods WHERE name NOT LIKE 'n-%' ORDER BY pod_id)"
      "^b-0@0 s-0@0 s-1@0$")

# Lua pods reach their LocalQueue by label and namespace, as pod groups do
# (issue 27); by hand in run/lua-queue.yaml. Before, the label was ignored and
# all three team-a pods ran at 0.
drasim_cli_test(NAME queues/run/lua-queue
  COMMAND run ${_kq}/run/lua-queue.yaml -o ${_kq_out}/lua-queue.db --force
  EXPECT "lua: 1 pod: LocalQueue nope doesn't exist"
  SQL ${_kq_out}/lua-queue.db "SELECT group_concat(name || '@' || ifnull(scheduled_ms, '-'), ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^a-0@0 a-1@3600000 a-2@7200000 free-0@0 lost-0@-$"
      ${_kq_out}/lua-queue.db "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM pod_labels WHERE pod_id = 0 ORDER BY key)"
      "^app=train kueue[.]x-k8s[.]io/queue-name=team-a$")
# the LocalQueue is namespaced: the same pods in namespace default find none
drasim_cli_test(NAME queues/run/lua-queue-namespace
  COMMAND run ${_kq}/run/lua-queue.yaml -o ${_kq_out}/lua-queue-ns.db --force --set workload.lua.args.ns=default
  EXPECT "lua: 3 pods: LocalQueue team-a doesn't exist" "lua: 1 pod: LocalQueue nope doesn't exist")
drasim_cli_test(NAME queues/run/lua-queue-bad-namespace
  COMMAND run ${_kq}/run/lua-queue.yaml -o ${_kq_out}/lua-queue-bad.db --force --set workload.lua.args.ns=Team_A
  EXIT 3 FILE_ABSENT ${_kq_out}/lua-queue-bad.db
  EXPECT "lua-queue[.]lua:8: drasim[.]submit: pod group 'lua': namespace 'Team_A' is not a valid namespace name")

# waitForPodsReady (Kueue Configuration): a gang the quota admits but the node
# never holds is evicted at its PodsReady timeout (PodsReadyTimeout), requeued
# after Kueue's backoff, deactivated past backoffLimitCount; numbers derived
# by hand in run/pods-ready.yaml and run/pods-ready-block.yaml
drasim_cli_test(NAME queues/run/pods-ready
  COMMAND run ${_kq}/run/pods-ready.yaml -o ${_kq_out}/pods-ready.db --force
  EXPECT "big: 2 pods: ClusterQueue team: Workload deactivated after 3 PodsReady timeout[(]s[)] [(]backoffLimitCount 2[)]"
  SQL ${_kq_out}/pods-ready.db "SELECT group_concat(metric || '=' || printf('%.1f', value), ' ') FROM summary WHERE grp = 'team' AND metric IN ('queue_admitted', 'queue_pending_at_end', 'queue_evicted_PodsReadyTimeout', 'queue_evicted_Deactivated', 'queue_wait_censored_mean_s', 'queue_wait_censored_max_s')"
      "^queue_admitted=4.0 queue_pending_at_end=0.0 queue_evicted_PodsReadyTimeout=2.0 queue_evicted_Deactivated=1.0 queue_wait_censored_mean_s=19.5 queue_wait_censored_max_s=50.0$"
      ${_kq_out}/pods-ready.db "SELECT group_concat(name || '@' || arrival_ms || '-' || ifnull(scheduled_ms, '') || '-' || ifnull(completion_ms, ''), ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^big-0@0--60000 big-1@0--60000 small-0@10000-60000-80000 big-2@60000--140000 big-3@60000--140000 big-4@140000--208000 big-5@140000--208000 big-6@208000-- big-7@208000--$")
drasim_cli_test(NAME queues/run/pods-ready-block
  COMMAND run ${_kq}/run/pods-ready-block.yaml -o ${_kq_out}/pods-ready-block.db --force
  SQL ${_kq_out}/pods-ready-block.db "SELECT group_concat(metric || '=' || printf('%.1f', value), ' ') FROM summary WHERE grp = 'team' AND metric IN ('queue_admitted', 'queue_evicted_PodsReadyTimeout', 'queue_evicted_Deactivated', 'queue_wait_censored_mean_s', 'queue_wait_censored_max_s')"
      "^queue_admitted=2.0 queue_evicted_PodsReadyTimeout=0.0 queue_evicted_Deactivated=1.0 queue_wait_censored_mean_s=25.0 queue_wait_censored_max_s=50.0$"
      ${_kq_out}/pods-ready-block.db "SELECT scheduled_ms FROM pods WHERE name = 'small-0'" "^60000$")
# a timed-out gang with running pods: requeued when its backoff (35 s) is
# over and its pods are gone (50 s), not at 35 s while they still hold its
# quota; by hand in run/pods-ready-held.yaml (before: admitted at 35 s, wait
# 5 s, deactivated at 65 s)
drasim_cli_test(NAME queues/run/pods-ready-held
  COMMAND run ${_kq}/run/pods-ready-held.yaml -o ${_kq_out}/pods-ready-held.db --force
  EXPECT "big: 3 pods: ClusterQueue team: Workload deactivated after 2 PodsReady timeout[(]s[)] [(]backoffLimitCount 1[)]"
  SQL ${_kq_out}/pods-ready-held.db "SELECT group_concat(metric || '=' || printf('%.1f', value), ' ') FROM summary WHERE grp = 'team' AND metric IN ('queue_admitted', 'queue_evicted_PodsReadyTimeout', 'queue_evicted_Deactivated', 'queue_wait_censored_mean_s', 'queue_wait_censored_max_s')"
      "^queue_admitted=2[.]0 queue_evicted_PodsReadyTimeout=1[.]0 queue_evicted_Deactivated=1[.]0 queue_wait_censored_mean_s=10[.]0 queue_wait_censored_max_s=20[.]0$"
      ${_kq_out}/pods-ready-held.db "SELECT group_concat(name || '@' || arrival_ms || '-' || ifnull(scheduled_ms, '') || '-' || ifnull(completion_ms, ''), ' ') FROM (SELECT * FROM pods ORDER BY pod_id)"
      "^big-0@0-0-50000 big-1@0-0-50000 big-2@0--30000 big-3@30000-50000-100000 big-4@30000-50000-100000 big-5@30000--80000 big-6@80000-- big-7@80000-- big-8@80000--$")
drasim_cli_test(NAME queues/run/bad-pods-ready
  COMMAND run ${_kq}/run/bad-pods-ready.yaml -o ${_kq_out}/bad-pods-ready.db
  EXIT 3 EXPECT [[bad-pods-ready.yaml:41:38: waitForPodsReady.requeuingStrategy.timestamp: supported values: "Creation", "Eviction"]]
  FILE_ABSENT ${_kq_out}/bad-pods-ready.db)

# admission fair sharing (Configuration admissionFairSharing, ClusterQueue
# admissionScope UsageBasedAdmissionFairSharing): pending Workloads ordered by
# their LocalQueue's decayed usage; numbers derived by hand in run/afs.yaml
drasim_cli_test(NAME queues/run/admission-fair-sharing
  COMMAND run ${_kq}/run/afs.yaml -o ${_kq_out}/afs.db --force
  SQL ${_kq_out}/afs.db "SELECT group_concat(name || '@' || scheduled_ms, ' ') FROM (SELECT * FROM pods ORDER BY scheduled_ms, pod_id)"
      "^a-0@0 b-0@60000 a-1@120000 b-1@180000 a-2@240000$"
      ${_kq_out}/afs.db "SELECT printf('%.1f', value) FROM summary WHERE grp = 'shared' AND metric = 'queue_wait_censored_mean_s'" "^119[.]6$")
drasim_cli_test(NAME queues/run/bad-afs
  COMMAND run ${_kq}/run/bad-afs.yaml -o ${_kq_out}/bad-afs.db
  EXIT 3 EXPECT [[bad-afs.yaml:[0-9]+:[0-9]+: .*admissionScope.admissionMode: supported values]]
  FILE_ABSENT ${_kq_out}/bad-afs.db)

# ---- pkg/scheduler/scheduler_afs_test.go TestScheduleForAFS (admission fair sharing) ----
# One snapshot per upstream case and asked Workload (tests/queues/afs/, written by
# gen_afs.py): the LocalQueues' consumedResources order the ClusterQueue's pending
# Workloads (queue/kq_ahead.c, kq_afs.c); the ones ahead that fit are admitted first
# and their LocalQueue gets the entry penalty. Expected: the upstream wantWorkloads
# (QuotaReserved True = admitted; else its QuotaReserved False message).
function(kq_afs_case file admitted reason)
  if(admitted)
    drasim_cli_test(NAME queues/afs/${file} COMMAND admit ${_kq}/afs/${file}.yaml EXPECT "\"admitted\": true")
  elseif(reason STREQUAL "")
    drasim_cli_test(NAME queues/afs/${file} COMMAND admit ${_kq}/afs/${file}.yaml EXIT 1 EXPECT "\"admitted\": false")
  else()
    drasim_cli_test(NAME queues/afs/${file} COMMAND admit ${_kq}/afs/${file}.yaml EXIT 1
      EXPECT "\"admitted\": false" "\"reason\": \"${reason}\"")
  endif()
endfunction()
set(_afs8 "couldn't assign flavors to pod set one: insufficient unused quota for cpu in flavor default, 8 more needed")
set(_afs4 "couldn't assign flavors to pod set one: insufficient unused quota for cpu in flavor default, 4 more needed")
kq_afs_case(less-active-localqueue--wl-b1 TRUE "")        # "admits workload from less active localqueue"
kq_afs_case(less-active-localqueue--wl-a1 FALSE "${_afs8}")
kq_afs_case(zero-weight-localqueue--wl-a1 TRUE "")        # "does not prioritize a zero-weight localqueue"
kq_afs_case(zero-weight-localqueue--wl-z1 FALSE "${_afs8}")
kq_afs_case(without-afs--wl-a1 TRUE "")                   # "without AFS: classic admission decision ignores queue usage"
kq_afs_case(without-afs--wl-b1 FALSE "${_afs8}")
kq_afs_case(one-from-each-localqueue--wl-a1 TRUE "")      # "admits one workload from each localqueue when quota is limited"
kq_afs_case(one-from-each-localqueue--wl-b1 TRUE "")
kq_afs_case(one-from-each-localqueue--wl-a2 FALSE "${_afs4}")
kq_afs_case(one-from-each-localqueue--wl-b2 FALSE "")     # upstream: not admitted (set aside without a message)
kq_afs_case(equal-usage--wl-a1 TRUE "")                   # "schedules normally when queues have equal usage"
kq_afs_case(equal-usage--wl-b1 TRUE "")
kq_afs_case(equal-usage--wl-c1 TRUE "")
kq_afs_case(uninitialized-cache--wl-b1 TRUE "")           # "admits workload from lq-b with uninitialized cache"
kq_afs_case(uninitialized-cache--wl-a1 FALSE "${_afs8}")

# drasim admit with pending Workloads ahead (queue/kq_ahead.c) and
# waitForPodsReady.blockAdmission; derived by hand in tests/queues/admit/
drasim_cli_test(NAME queues/admit/strict-fifo COMMAND admit ${_kq}/admit/strict-fifo.yaml EXIT 1
  EXPECT "\"admitted\": false" "queued behind Workload big, which does not fit")
drasim_cli_test(NAME queues/admit/best-effort-fifo COMMAND admit ${_kq}/admit/best-effort-fifo.yaml
  EXPECT "\"admitted\": true")
drasim_cli_test(NAME queues/admit/pods-ready-block COMMAND admit ${_kq}/admit/pods-ready-block.yaml EXIT 1
  EXPECT "\"admitted\": false" "\"reason\": \"waiting for all admitted workloads to be in PodsReady condition\"")
drasim_cli_test(NAME queues/admit/pods-ready-ok COMMAND admit ${_kq}/admit/pods-ready-ok.yaml
  EXPECT "\"admitted\": true")
# KAI or Kueue is told from the parsed apiVersions (one parse per snapshot),
# not from the text: an escaped KAI apiVersion is KAI's, a Kueue file naming
# KAI's group in a comment and a string value stays Kueue's
drasim_cli_test(NAME queues/admit/kai-escaped-api COMMAND admit --shares ${_kq}/admit/kai-escaped-api.yaml
  EXPECT [["queue-1": {"gpu": {"fairShare": 0, "deserved": 0, "allocated": 0, "requested": 2}]])
drasim_cli_test(NAME queues/admit/kueue-names-kai COMMAND admit ${_kq}/admit/kueue-names-kai.yaml
  EXPECT [=["admitted": true, "flavors": {"main": {"cpu": "default"}}]=])

# a pod group's namespace is a Namespace name (RFC 1123 label), as the API server checks it
drasim_cli_test(NAME queues/run/bad-group-namespace
  COMMAND run ${CMAKE_SOURCE_DIR}/scenarios/examples/three-teams-kueue.yaml -o ${_kq_out}/bad-ns.db --force
          --set "workload.podGroups[0].namespace=Team_A"
  EXIT 3 FILE_ABSENT ${_kq_out}/bad-ns.db
  EXPECT "workload[.]podGroups[[]0[]][.]namespace:1:39: pod group 'a-train': namespace 'Team_A' is not a valid namespace name")
