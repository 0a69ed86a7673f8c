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
