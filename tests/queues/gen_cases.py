#!/usr/bin/env python3
"""Writes tests/queues/preemption/*.yaml and tests/queues/flavors/*.yaml.

preemption/: the ClusterQueues of
kubernetes-sigs/kueue ff69552e79 pkg/scheduler/preemption/preemption_test.go
(TestPreemption, defaultClusterQueues) and, per case, the admitted Workloads
and the incoming one of that upstream case, as `kubectl get -o yaml` prints
them. The expected answers are in tests/queues.cmake, derived by hand from
the upstream table (wantPreempted and the victims' Preempted reasons).

flavors/: cases of pkg/scheduler/flavorassigner/flavorassigner_test.go
(TestAssignFlavors) with the same ResourceFlavors (node labels, the tainted
flavor); clusterQueueUsage becomes an admitted Workload `usage` holding it.
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

def wl(name, queue, prio, req, admitted=None, created=None, reserved=None, count=1, extra=""):
    """req: {resource: amount}; admitted: {resource: flavor} (charged req)."""
    y = f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: {name}\n  namespace: default\n"
    if created: y += f"  creationTimestamp: \"{created}\"\n"
    y += "spec:\n"
    if prio is not None: y += f"  priority: {prio}\n"
    reqs = ", ".join(f'{r}: "{a}"' for r, a in req.items())
    y += (f"  queueName: {queue}\n  podSets:\n  - name: main\n    count: {count}\n"
          f"    template: {{spec: {{{extra}containers: [{{name: c, resources: {{requests: {{{reqs}}}}}}}]}}}}\n")
    if admitted:
        fl = ", ".join(f"{r}: {f}" for r, f in admitted.items())
        y += (f"status:\n  admission:\n    clusterQueue: {queue}\n"
              f"    podSetAssignments: [{{name: main, flavors: {{{fl}}}, count: {count}}}]\n")
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
    f.write("# generated by tests/queues/gen_cases.py from preemption_test.go defaultClusterQueues\n" + base())
for name, docs in CASES.items():
    with open(f"{OUT}/{name}.yaml", "w") as f:
        f.write("# generated by tests/queues/gen_cases.py\n" + "---\n".join(docs))

# ---- flavorassigner_test.go ---------------------------------------------------
FLAVORS = """apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: one}
spec: {nodeLabels: {type: one}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: two}
spec: {nodeLabels: {type: two}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: tainted}
spec:
  nodeTaints: [{key: instance, value: spot, effect: NoSchedule}]
"""

def fcq(name, flavors, cohort=None, fung=None):
    """flavors: [(flavor, [quota...])] covering the quotas' resources in order."""
    covered = [q.split(",")[0].split(":")[1].strip() for q in flavors[0][1]]
    y = cq(name, cohort, [(covered, flavors)])
    if fung:
        y = y.replace("  resourceGroups:", f"  flavorFungibility: {fung}\n  resourceGroups:", 1)
    return y

T = "test-clusterqueue"
FCASES = {
    # "multiple flavors, fits a node selector": keys no flavor sets are ignored
    "multiple-flavors-fits-a-node-selector": [
        fcq(T, [("one", [rq("cpu", 4)]), ("two", [rq("cpu", 4)])]),
        wl("in", T, None, {"cpu": 1}, extra="nodeSelector: {type: two, ignored1: foo}, ")],
    "single-flavor-fits-tainted-flavor": [
        fcq(T, [("tainted", [rq("cpu", 4)])]),
        wl("in", T, None, {"cpu": 1},
           extra="tolerations: [{key: instance, operator: Equal, value: spot, effect: NoSchedule}], ")],
    "multiple-flavors-fits-while-skipping-tainted-flavor": [
        fcq(T, [("tainted", [rq("cpu", 4)]), ("two", [rq("cpu", 4)])]), wl("in", T, None, {"cpu": 3})],
    "preempt-try-next-flavor": [
        fcq(T, [("one", [rq("pods", 10), rq("cpu", 10)]), ("two", [rq("pods", 10), rq("cpu", 10)])]),
        wl("usage", T, None, {"cpu": 2}, {"cpu": "one"}), wl("in", T, None, {"cpu": 9})],
    "borrow-try-next-flavor-found-the-first-flavor": [
        fcq(T, [("one", [rq("pods", 10), rq("cpu", 10, 1)]), ("two", [rq("pods", 10), rq("cpu", 1)])],
            "test-cohort", "{whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor}"),
        fcq("test-secondary-clusterqueue", [("one", [rq("cpu", 1)])], "test-cohort"),
        wl("usage", T, None, {"cpu": 2}, {"cpu": "one"}), wl("in", T, None, {"cpu": 9})],
    "borrow-try-next-flavor-found-the-second-flavor": [
        fcq(T, [("one", [rq("pods", 10), rq("cpu", 10, 1)]), ("two", [rq("pods", 10), rq("cpu", 10)])],
            "test-cohort", "{whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor}"),
        fcq("test-secondary-clusterqueue", [("one", [rq("cpu", 1)])], "test-cohort"),
        wl("usage", T, None, {"cpu": 2}, {"cpu": "one"}), wl("in", T, None, {"cpu": 9})],
    "borrow-before-try-next-flavor": [
        fcq(T, [("one", [rq("pods", 10), rq("cpu", 10, 1)]), ("two", [rq("pods", 10), rq("cpu", 10)])],
            "test-cohort"),
        fcq("test-secondary-clusterqueue", [("one", [rq("cpu", 1)])], "test-cohort"),
        wl("usage", T, None, {"cpu": 2}, {"cpu": "one"}), wl("in", T, None, {"cpu": 9})],
    "not-enough-space-to-borrow": [
        fcq(T, [("one", [rq("cpu", 1)])], "test-cohort"),
        fcq("test-secondary-clusterqueue", [("one", [rq("cpu", 10, None, 0)])], "test-cohort"),
        wl("in", T, None, {"cpu": 2})],
    "resource-not-listed-in-clusterqueue": [
        fcq(T, [("one", [rq("cpu", 4)])]), wl("in", T, None, {"example.com/gpu": 2})],
    "zero-resource-request-not-in-clusterqueue-should-succeed": [
        fcq(T, [("default", [rq("cpu", 4)])]), wl("in", T, None, {"cpu": 1, "example.com/gpu": 0})],
    "num-pods-fit": [
        fcq(T, [("default", [rq("pods", 3), rq("cpu", 10)])]), wl("in", T, None, {"cpu": 1}, count=3)],
    "num-pods-dont-fit": [
        fcq(T, [("default", [rq("pods", 2), rq("cpu", 10)])]), wl("in", T, None, {"cpu": 1}, count=3)],
}

os.makedirs("tests/queues/flavors", exist_ok=True)
for name, docs in FCASES.items():
    with open(f"tests/queues/flavors/{name}.yaml", "w") as f:
        f.write("# generated by tests/queues/gen_cases.py\n" + FLAVORS + "---\n" + "---\n".join(docs))

# ---- pkg/cache/scheduler/fair_sharing_test.go TestDominantResourceShare ------
# `usage` becomes an admitted Workload of cq holding it; flvResQ cases are left
# out (`admit --shares` asks about no hypothetical request).
def wcq(name, cohort, weight, quotas):
    covered = [q.split(",")[0].split(":")[1].strip() for q in quotas]
    y = cq(name, cohort, [(covered, [("default", quotas)])])
    return y.replace("spec:\n", f"spec:\n  fairSharing: {{weight: \"{weight}\"}}\n", 1)

def cohort(name, parent=None, weight=None, quotas=None):
    y = f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {{name: {name}}}\nspec:\n"
    if parent: y += f"  parentName: {parent}\n"
    if weight: y += f"  fairSharing: {{weight: \"{weight}\"}}\n"
    if quotas:
        covered = [q.split(",")[0].split(":")[1].strip() for q in quotas]
        y += (f"  resourceGroups:\n  - coveredResources: [{', '.join(covered)}]\n    flavors:\n"
              f"    - name: default\n      resources: [{', '.join(quotas)}]\n")
    if not (parent or weight or quotas): y += "  {}\n"
    return y

G = "example.com/gpu"
DEF = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: default}\n"
def use(q, req):
    return wl("usage", q, None, req, {r: "default" for r in req})
TC = "test-cohort"
DCASES = {
    "usage-above-nominal": [wcq("cq", TC, 1, [rq("cpu", 2), rq(G, 5)]), wcq("lending-cq", TC, 1, [rq("cpu", 8), rq(G, 5)]),
                            use("cq", {"cpu": 3, G: 7})],
    "usage-slightly-above-nominal-large-quotas": [wcq("cq", TC, 1, [rq(G, 500)]), wcq("lending-cq", TC, 300, [rq(G, 1000)]),
                                                  use("cq", {G: 501})],
    "usage-way-above-nominal-large-quotas-and-weights": [wcq("cq", TC, 300, [rq(G, 500)]),
                                                         wcq("lending-cq", TC, 300, [rq(G, 1000)]), use("cq", {G: 800})],
    "one-resource-above-nominal": [wcq("cq", TC, 1, [rq("cpu", 2), rq(G, 5)]), wcq("lending-cq", TC, 1, [rq("cpu", 8), rq(G, 5)]),
                                   use("cq", {"cpu": 3, G: 3})],
    "above-nominal-with-integer-weight": [wcq("cq", TC, 2, [rq(G, 5)]), wcq("lending-cq", TC, 1, [rq(G, 5)]), use("cq", {G: 7})],
    "above-nominal-with-decimal-weight": [wcq("cq", TC, "0.5", [rq(G, 5)]), wcq("lending-cq", TC, 1, [rq(G, 5)]),
                                          use("cq", {G: 7})],
    "above-nominal-with-zero-weight": [wcq("cq", TC, 0, [rq(G, 5)]), wcq("lending-cq", TC, 1, [rq(G, 10)]), use("cq", {G: 7})],
    "cohort-has-resource-share": [wcq("cq", "child-cohort", 1, [rq(G, 5)]), cohort("child-cohort", "root", 2),
                                  cohort("root", quotas=[rq(G, 45)]), use("cq", {G: 10})],
    "resource-share-only-at-the-root-cohort": [wcq("cq", "child-cohort", 1, [rq(G, 0)]), cohort("child-cohort", "root", 2),
                                               cohort("root", quotas=[rq(G, 50)]), use("cq", {G: 10})],
    "resource-share-affected-by-borrowing-limit": [wcq("cq", "child-cohort", 1, [rq(G, 0)]),
                                                   cohort("child-cohort", "root", None, [rq(G, 0, 10)]),
                                                   cohort("root", quotas=[rq(G, 50)]), use("cq", {G: 10})],
}
os.makedirs("tests/queues/drs", exist_ok=True)
for name, docs in DCASES.items():
    with open(f"tests/queues/drs/{name}.yaml", "w") as f:
        f.write("# generated by tests/queues/gen_cases.py\n" + DEF + "---\n" + "---\n".join(docs))

# ---- pkg/scheduler/preemption/preemption_fair_test.go TestFairPreemptions ----
# Fair sharing on through a Kueue Configuration document in the snapshot
# (preemptionStrategies as the upstream case sets them, else Kueue's default).
# baseCQs: a, b, c (3 cpu each) and preemptible (0 cpu) in cohort "all".
def config(strategies=None):
    y = "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfairSharing:\n"
    if strategies: y += f"  preemptionStrategies: [{', '.join(strategies)}]\n"
    else: y += "  preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]\n"
    return y

def fs_base():
    docs = [DEF]
    for n in ("a", "b", "c"):
        docs.append(cq(n, "all", [(["cpu"], [("default", [rq("cpu", 3)])])], "LowerPriority", "Any", -3))
    docs.append(cq("preemptible", "all", [(["cpu"], [("default", [rq("cpu", 0)])])]))
    return docs

def wcq2(name, cohort, weight, cpu, within="LowerPriority"):
    y = cq(name, cohort, [(["cpu"], [("default", [rq("cpu", cpu)])])], within, "Any")
    if weight is None: return y
    return y.replace("spec:\n", f"spec:\n  fairSharing: {{weight: \"{weight}\"}}\n", 1)

def units(prefix, q, n, start=1, prio=None):
    return [adm(f"{prefix}{i}", q, prio, 1) for i in range(start, start + n)]

def fin(name, q, cpu, prio=None):
    return wl(name, q, prio, {"cpu": cpu})

FS = {
    "reclaim-nominal-from-user-using-the-most": (None, fs_base() + units("a", "a", 3) + units("b", "b", 5) + units("c", "c", 1) + [fin("c_incoming", "c", 1)]),
    "can-reclaim-from-queue-using-less": (None, fs_base() + [adm("a1", "a", None, 3), adm("a2", "a", None, 1), adm("b1", "b", None, 2),
                                                          adm("b2", "b", None, 3), fin("c_incoming", "c", 3)]),
    "reclaim-borrowable-quota-from-user-using-the-most": (None, fs_base() + units("a", "a", 3) + units("b", "b", 5) + units("c", "c", 1) + [fin("a_incoming", "a", 1)]),
    "preempt-one-from-each-cq-borrowing": (None, fs_base() + [adm("a1", "a", None, "0.5"), adm("a2", "a", None, "0.5"), adm("a3", "a", None, 3),
                                                           adm("b1", "b", None, "0.5"), adm("b2", "b", None, "0.5"), adm("b3", "b", None, 3),
                                                           fin("c_incoming", "c", 2)]),
    "cant-preempt-when-everyone-under-nominal": (None, fs_base() + units("a", "a", 3) + units("b", "b", 3) + units("c", "c", 3) + [fin("c_incoming", "c", 1)]),
    "cant-preempt-when-it-would-switch-the-imbalance": (None, fs_base() + units("a", "a", 3) + units("b", "b", 5) + [fin("a_incoming", "a", 2)]),
    "can-preempt-lower-priority-workloads-from-same-cq": (None, fs_base() + [adm("a1_low", "a", -1, 1), adm("a2_low", "a", -1, 1)] + units("a", "a", 2, 3)
                                                          + units("b", "b", 5) + [fin("a_incoming", "a", 2)]),
    "can-preempt-a-combination-of-same-cq-and-highest-user": (None, fs_base() + [adm("a_low", "a", -1, 1)] + units("a", "a", 2, 2) + units("b", "b", 6)
                                                              + [fin("a_incoming", "a", 2)]),
    "preempt-huge-workload-if-there-is-no-other-option": (None, fs_base() + [adm("b1", "b", None, 9), fin("a_incoming", "a", 2)]),
    "cant-preempt-huge-workload-if-the-incoming-is-also-huge": (None, fs_base() + [adm("a1", "a", None, 2), adm("b1", "b", None, 7), fin("a_incoming", "a", 5)]),
    "cant-preempt-2-smaller-workloads-if-the-incoming-is-huge": (None, fs_base() + [adm("b1", "b", None, 2), adm("b2", "b", None, 2), adm("b3", "b", None, 3),
                                                                                 fin("a_incoming", "a", 6)]),
    "preempt-from-target-and-others-even-if-over-nominal": (None, fs_base() + [adm("a1_low", "a", -1, 2), adm("a2_low", "a", -1, 1), adm("b1", "b", None, 3),
                                                                            adm("b2", "b", None, 3), fin("a_incoming", "a", 4)]),
    "prefer-to-preempt-workloads-that-dont-make-the-target-cq-have-the-biggest-share": (None, fs_base() + [
        adm("b1", "b", None, 2), adm("b2", "b", None, 1), adm("b3", "b", None, 2), adm("c1", "c", None, 1), fin("a_incoming", "a", "3.5")]),
    "preempt-from-different-cluster-queues-if-the-end-result-has-a-smaller-max-share": (None, fs_base() + [
        adm("b1", "b", None, 2), adm("b2", "b", None, "2.5"), adm("c1", "c", None, 2), adm("c2", "c", None, "2.5"), fin("a_incoming", "a", "3.5")]),
    "scenario-above-does-not-flap": (None, fs_base() + [adm("a1", "a", None, "3.5"), adm("b2", "b", None, "2.5"), adm("c2", "c", None, "2.5"),
                                                      fin("b_incoming", "b", 2)]),
    "cannot-preempt-if-it-would-make-the-candidate-cq-go-under-nominal": (None, fs_base() + [
        adm("b1", "b", None, 3), adm("b2", "b", None, 3), adm("c1", "c", None, 3), fin("a_incoming", "a", 4)]),
    "workloads-under-priority-threshold-not-capriciously-preempted": (None, fs_base() + units("a", "a", 3) + units("b", "b", 3)
                                                                       + units("preemptible", "preemptible", 3, prio=-3) + [fin("a_incoming", "a", 2)]),
    "preempt-lower-priority-first-even-if-big": (["LessThanInitialShare"], fs_base() + [
        adm("a1", "a", None, 3), adm("b_low", "b", 0, 5), adm("b_high", "b", 1, 1), fin("a_incoming", "a", 1)]),
    "preempt-workload-that-doesnt-transfer-the-imbalance-even-if-high-priority": (["LessThanOrEqualToFinalShare"], fs_base() + [
        adm("a1", "a", None, 3), adm("b_low", "b", 0, 5), adm("b_high", "b", 1, 1), fin("a_incoming", "a", 1)]),
    "cq-with-higher-weight-can-preempt-more": (None, [DEF, wcq2("a", "all", 2, 3), wcq2("b", "all", None, 3), wcq2("c", "all", None, 3)]
                                               + units("a", "a", 3) + units("b", "b", 6) + [fin("a_incoming", "a", 2)]),
    "can-preempt-anything-borrowing-from-cq-with-0-weight": (None, [DEF, wcq2("a", "all", None, 3), wcq2("b", "all", 0, 3), wcq2("c", "all", None, 3)]
                                                             + units("a", "a", 3) + units("b", "b", 6) + [fin("a_incoming", "a", 3)]),
    "cant-preempt-nominal-from-cq-with-0-weight": (None, [DEF, wcq2("a", "all", None, 3), wcq2("b", "all", 0, 3)]
                                                   + units("a", "a", 3) + units("b", "b", 3) + [fin("a_incoming", "a", 1)]),
    "cant-preempt-nominal-from-cohort-with-0-weight": (None, [DEF,
        cq("left-cq", "root", [(["cpu"], [("default", [rq("cpu", 0)])])], None, "Any"),
        wcq2("right-cq", "right-cohort", 0, 0, within=None),
        cohort("right-cohort", "root", 0, [rq("cpu", 1)]), cohort("root"),
        adm("right-1", "right-cq", None, 1), fin("left-1", "left-cq", 1)]),
}
os.makedirs("tests/queues/fair", exist_ok=True)
for name, (strategies, docs) in FS.items():
    with open(f"tests/queues/fair/{name}.yaml", "w") as f:
        f.write("# generated by tests/queues/gen_cases.py\n" + config(strategies) + "---\n" + "---\n".join(docs))
