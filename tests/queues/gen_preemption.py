#!/usr/bin/env python3
"""Writes tests/queues/preemption/*.yaml: the ClusterQueues of
kubernetes-sigs/kueue ff69552e79 pkg/scheduler/preemption/preemption_test.go
(TestPreemption, defaultClusterQueues) and, per case, the admitted Workloads
and the incoming one of that upstream case, as `kubectl get -o yaml` prints
them. The expected answers are in tests/queues.cmake, derived by hand from
the upstream table (wantPreempted and the victims' Preempted reasons).
Run from the repository root; the output is committed."""
import os

OUT = "tests/queues/preemption"

def rq(name, nominal, borrow=None, lend=None):
    s = f'{{name: {name}, nominalQuota: "{nominal}"'
    if borrow is not None: s += f', borrowingLimit: "{borrow}"'
    if lend is not None: s += f', lendingLimit: "{lend}"'
    return s + "}"

def cq(name, cohort, groups, within=None, reclaim=None, bwc=None):
    y = f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {{name: {name}}}\nspec:\n"
    if cohort: y += f"  cohortName: {cohort}\n"
    y += "  resourceGroups:\n"
    for covered, flavors in groups:
        y += f"  - coveredResources: [{', '.join(covered)}]\n    flavors:\n"
        for fl, res in flavors:
            y += f"    - name: {fl}\n      resources: [{', '.join(res)}]\n"
    if within or reclaim or bwc:
        y += "  preemption:\n"
        if within: y += f"    withinClusterQueue: {within}\n"
        if reclaim: y += f"    reclaimWithinCohort: {reclaim}\n"
        if bwc is not None: y += f"    borrowWithinCohort: {{policy: LowerPriority, maxPriorityThreshold: {bwc}}}\n"
    y += (f"---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {{name: {name}, namespace: default}}\n"
          f"spec: {{clusterQueue: {name}}}\n")
    return y

def base():
    docs = [f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {{name: {f}}}\n"
            for f in ("default", "alpha", "beta")]
    cpu_mem = lambda c, m, bc=None, bm=None: [(["cpu", "memory"], [("default", [rq("cpu", c, bc), rq("memory", m, bm)])])]
    cpu = lambda c, b=None, l=None: [(["cpu"], [("default", [rq("cpu", c, b, l)])])]
    docs.append(cq("standalone", None, [(["cpu"], [("default", [rq("cpu", 6)])]),
                                        (["memory"], [("alpha", [rq("memory", "3Gi")]), ("beta", [rq("memory", "3Gi")])])],
                   within="LowerPriority"))
    docs.append(cq("c1", "cohort", cpu_mem(6, "3Gi", 6, "3Gi"), "LowerPriority", "LowerPriority"))
    docs.append(cq("c2", "cohort", cpu_mem(6, "3Gi", 6, "3Gi"), "Never", "Any"))
    docs.append(cq("d1", "cohort-no-limits", cpu_mem(6, "3Gi"), "LowerPriority", "LowerPriority"))
    docs.append(cq("d2", "cohort-no-limits", cpu_mem(6, "3Gi"), "Never", "Any"))
    docs.append(cq("l1", "legion", cpu_mem(6, "3Gi", 12, "6Gi"), "LowerPriority", "LowerPriority"))
    docs.append(cq("preventStarvation", None, cpu(6), "LowerOrNewerEqualPriority"))
    docs.append(cq("a_standard", "with_shared_cq", cpu(1, 12), "Never", "LowerPriority", 0))
    docs.append(cq("b_standard", "with_shared_cq", cpu(1, 12), "LowerPriority", "Any", 0))
    docs.append(cq("a_best_effort", "with_shared_cq", cpu(1, 12), "Never", "LowerPriority", 0))
    docs.append(cq("b_best_effort", "with_shared_cq", cpu(0, 13), "Never", "LowerPriority", 0))
    docs.append(cq("shared", "with_shared_cq", cpu(10)))
    docs.append(cq("lend1", "cohort-lend", cpu(6, None, 4), "LowerPriority", "LowerPriority"))
    docs.append(cq("lend2", "cohort-lend", cpu(6, None, 2), "LowerPriority", "LowerPriority"))
    return "---\n".join(docs)

def wl(name, queue, prio, req, admitted=None, created=None, reserved=None):
    """req: {resource: amount}; admitted: {resource: flavor} (charged req)."""
    y = f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: {name}\n  namespace: default\n"
    if created: y += f"  creationTimestamp: \"{created}\"\n"
    y += "spec:\n"
    if prio is not None: y += f"  priority: {prio}\n"
    reqs = ", ".join(f'{r}: "{a}"' for r, a in req.items())
    y += (f"  queueName: {queue}\n  podSets:\n  - name: main\n    count: 1\n"
          f"    template: {{spec: {{containers: [{{name: c, resources: {{requests: {{{reqs}}}}}}}]}}}}\n")
    if admitted:
        fl = ", ".join(f"{r}: {f}" for r, f in admitted.items())
        y += (f"status:\n  admission:\n    clusterQueue: {queue}\n"
              f"    podSetAssignments: [{{name: main, flavors: {{{fl}}}, count: 1}}]\n")
        if reserved:
            y += (f"  conditions:\n  - {{type: QuotaReserved, status: \"True\", reason: QuotaReserved,"
                  f" message: reserved, lastTransitionTime: \"{reserved}\"}}\n")
    return y

D = {"cpu": "default"}
def adm(name, q, prio, cpu, **kw):
    return wl(name, q, prio, {"cpu": cpu}, D, **kw)

CASES = {
    "preempt-lowest-priority": [adm("low", "standalone", -1, 2), adm("mid", "standalone", None, 2),
                                adm("high", "standalone", 1, 2), wl("in", "standalone", 1, {"cpu": 2})],
    "preempt-multiple": [adm("low", "standalone", -1, 2), adm("mid", "standalone", None, 2),
                         adm("high", "standalone", 1, 2), wl("in", "standalone", 1, {"cpu": 3})],
    "no-preemption-for-low-priority": [adm("low", "standalone", -1, 3), adm("mid", "standalone", None, 3),
                                       wl("in", "standalone", -1, {"cpu": 1})],
    "not-enough-low-priority-workloads": [adm("low", "standalone", -1, 3), adm("mid", "standalone", None, 3),
                                          wl("in", "standalone", None, {"cpu": 4})],
    "some-free-quota-preempt-low-priority": [adm("low", "standalone", -1, 1), adm("mid", "standalone", None, 1),
                                             adm("high", "standalone", 1, 3), wl("in", "standalone", 1, {"cpu": 2})],
    "minimal-set-excludes-low-priority": [adm("low", "standalone", -1, 1), adm("mid", "standalone", None, 2),
                                          adm("high", "standalone", 1, 3), wl("in", "standalone", 1, {"cpu": 2})],
    "reclaim-quota-from-borrower": [adm("c1-low", "c1", -1, 3), adm("c2-mid", "c2", None, 3),
                                    adm("c2-high", "c2", 1, 6), wl("in", "c1", 1, {"cpu": 3})],
    "not-enough-workloads-borrowing": [adm("c1-high", "c1", 1, 4), adm("c2-low-1", "c2", -1, 4),
                                       adm("c2-low-2", "c2", -1, 4), wl("in", "c1", 1, {"cpu": 4})],
    "preempting-locally-and-borrowing-same-resource-in-cohort": [
        adm("c1-med", "c1", 0, 4), adm("c1-low", "c1", -1, 4), adm("c2-low-1", "c2", -1, 4),
        wl("in", "c1", 1, {"cpu": 4})],
    "preempting-locally-no-borrowing-limit-in-cohort": [
        adm("d1-med", "d1", 0, 4), adm("d1-low", "d1", -1, 4), adm("d2-low-1", "d2", -1, 4),
        wl("in", "d1", 1, {"cpu": 4})],
    "preempt-newer-workloads-with-the-same-priority": [
        adm("wl1", "preventStarvation", 2, 2, reserved="2026-01-01T00:00:00Z"),
        adm("wl2", "preventStarvation", 1, 2, created="2026-01-01T00:00:00Z", reserved="2026-01-01T00:00:01Z"),
        adm("wl3", "preventStarvation", 1, 2, created="2026-01-01T00:00:00Z", reserved="2026-01-01T00:00:00Z"),
        wl("in", "preventStarvation", 1, {"cpu": 2}, created="2025-12-31T23:59:45Z")],
    "borrowwithincohort-allow-lower-priority-while-borrowing": [
        adm("a_best_effort_low", "a_best_effort", -1, 10), adm("b_best_effort_low", "b_best_effort", -1, 1),
        wl("in", "a_standard", None, {"cpu": 10})],
    "borrowwithincohort-not-above-threshold-when-still-borrowing": [
        adm("b_standard", "b_standard", 1, 10), wl("in", "a_standard", 2, {"cpu": 10})],
    "borrowwithincohort-above-threshold-when-not-borrowing-after": [
        adm("b_standard", "b_standard", 1, 13), wl("in", "a_standard", 2, {"cpu": 1})],
    "borrowwithincohort-not-from-same-clusterqueue": [
        adm("a_standard", "a_standard", 1, 13), wl("in", "a_standard", 2, {"cpu": 1})],
    "borrowwithincohort-only-from-cq-when-no-workloads-below-threshold": [
        adm("a_standard_1", "a_standard", 1, 10), adm("a_standard_2", "a_standard", 1, 1),
        adm("b_standard_1", "b_standard", 1, 1), adm("b_standard_2", "b_standard", 2, 1),
        wl("in", "b_standard", 3, {"cpu": 1})],
    "borrowwithincohort-from-cq-and-other-cqs-below-threshold": [
        adm("b_standard_high", "b_standard", 2, 10), adm("b_standard_mid", "b_standard", 1, 1),
        adm("a_best_effort_low", "a_best_effort", -1, 1), adm("a_best_effort_lower", "a_best_effort", -2, 1),
        wl("in", "b_standard", 2, {"cpu": 2})],
    "reclaim-quota-from-lender": [adm("lend1-low", "lend1", -1, 3), adm("lend2-mid", "lend2", None, 3),
                                  adm("lend2-high", "lend2", 1, 4), wl("in", "lend1", 1, {"cpu": 3})],
    "preempt-from-all-clusterqueues-in-cohort-lend": [
        adm("lend1-low", "lend1", -1, 3), adm("lend1-mid", "lend1", None, 2), adm("lend2-low", "lend2", -1, 3),
        adm("lend2-mid", "lend2", None, 4), wl("in", "lend1", None, {"cpu": 4})],
    "cannot-preempt-beyond-lending-limit": [adm("lend2-low", "lend2", -1, 10), wl("in", "lend1", None, {"cpu": 9})],
}

os.makedirs(OUT, exist_ok=True)
with open(f"{OUT}/base.yaml", "w") as f:
    f.write("# generated by tests/queues/gen_preemption.py from preemption_test.go defaultClusterQueues\n" + base())
for name, docs in CASES.items():
    with open(f"{OUT}/{name}.yaml", "w") as f:
        f.write("# generated by tests/queues/gen_preemption.py\n" + "---\n".join(docs))
