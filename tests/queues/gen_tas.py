#!/usr/bin/env python3
"""Writes tests/queues/tas/*.yaml and tests/queues_tas.cmake.

Conformance of Kueue's Topology-Aware Scheduling through `drasim admit`.
Each case is one of kubernetes-sigs/kueue ff69552e79 (v0.19 line)
pkg/cache/scheduler/tas_cache_test.go TestFindTopologyAssignments (the table
that drives tas_flavor_snapshot.go's search): its Nodes, its Topology levels
and its pod set (count, per-pod request, topology request), as objects a
cluster would hold: a Topology "default", a ResourceFlavor "tas" naming it
(with the case's nodeLabels), a ClusterQueue whose quota never limits, and the
pending Workload with the request as pod template annotations (or, for
`field` cases, as spec.podSets[].topologyRequest). The expected assignment or
reason is the upstream case's wantAssignment / wantReason, written by hand
below. Upstream runs the search on one flavor directly; through `admit` a
reason gets Kueue's flavor-assigner prefix "couldn't assign flavors to pod set
main: ". Run from the repository root; the output is committed.
"""
import os

OUT = "tests/queues/tas"
BLOCK, RACK, HOST = "cloud.com/topology-block", "cloud.com/topology-rack", "kubernetes.io/hostname"
TWO, THREE, ONE = [BLOCK, RACK], [BLOCK, RACK, HOST], [HOST]

def node(name, labels, cpu, mem=None, pods=10, ready=True, unschedulable=False, taints=()):
    return dict(name=name, labels=labels, cpu=cpu, mem=mem, pods=pods, ready=ready,
                unschedulable=unschedulable, taints=taints)

def bh(b, r, x, cpu, mem="1Gi", pods=10):
    return node(f"{b}-{r}-{x}", {BLOCK: b, RACK: r, HOST: x}, cpu, mem, pods)

# tas_cache_test.go defaultNodes, scatteredNodes, binaryTreesNodes
DEFAULT = [bh("b1", "r1", "x3", "1"), bh("b1", "r2", "x5", "1"), bh("b1", "r2", "x1", "1"), bh("b1", "r2", "x6", "1"),
           bh("b2", "r1", "x2", "1"), bh("b2", "r2", "x4", "2", "4Gi", 40)]
SCATTERED = [bh("b1", "r1", "x3", "4"), bh("b1", "r1", "x5", "1"), bh("b1", "r1", "x1", "1"),
             bh("b2", "r1", "x6", "2"), bh("b2", "r1", "x2", "1")]
BINARY = [bh("b1", "r1", "x3", "1"), bh("b1", "r1", "x5", "1"), bh("b1", "r2", "x1", "1"), bh("b1", "r2", "x6", "1"),
          bh("b2", "r1", "x2", "1"), bh("b2", "r1", "x4", "1"), bh("b2", "r2", "x7", "1"), bh("b2", "r2", "x8", "1")]
MINRACKS = [bh("b1", "r1", "x3", "2", None), bh("b1", "r2", "x5", "2", None, 20), bh("b1", "r3", "x1", "1", None),
            bh("b1", "r3", "x6", "1", None), bh("b1", "r3", "x2", "1", None), bh("b1", "r3", "x4", "1", None)]
ONE_NODE_ALL = [bh("b1", "r1", "x3", "2", None), bh("b1", "r1", "x5", "1", None), bh("b1", "r1", "x1", "1", None)]
SLICE3 = [bh("b1", "r1", "x3", "3", None), bh("b1", "r1", "x5", "3", None), bh("b1", "r1", "x1", "3", None)]
BLOCKS = [node("b1", {BLOCK: "b1"}, "2", None, 20), node("b2", {BLOCK: "b2"}, "1", None, 10),
          node("b3", {BLOCK: "b3"}, "4", None, 40)]
ZONE_NOT_READY = [node("b1-r1-x3", {"zone": "zone-a", HOST: "x3"}, "1", "1Gi", ready=False)]
ZONE_UNSCHED = [node("b1-r1-x3", {"zone": "zone-a", HOST: "x3"}, "1", "1Gi", unschedulable=True)]
ZONE_TAINT = [node("x3", {"zone": "zone-a", HOST: "x3"}, "1", "1Gi",
                   taints=[("example.com/gpu", "present", "NoSchedule")])]

def assignment(levels, domains):
    doms = ", ".join('{"values": [%s], "count": %d}' % (", ".join(f'"{v}"' for v in vals), c) for vals, c in domains)
    return '"topologyAssignments": {"main": {"levels": [%s], "domains": [%s]}}' % (
        ", ".join(f'"{l}"' for l in levels), doms)

# name, upstream case, nodes, levels, flavor nodeLabels, count, requests, request (kind, level[, slice level, size]),
# expected: ("fit", levels, [(values, count)]) or ("reason", text)
CASES = [
    ("minimize-racks-before-nodes", "minimize the number of used racks before optimizing the number of nodes; BestFit",
     MINRACKS, THREE, {}, 4, {"cpu": "1"}, ("required", BLOCK),
     ("fit", ONE, [(["x1"], 1), (["x2"], 1), (["x4"], 1), (["x6"], 1)])),
    ("node-holding-all-pods", "choose the node that can accommodate all Pods",
     ONE_NODE_ALL, THREE, {}, 2, {"cpu": "1"}, ("required", BLOCK), ("fit", ONE, [(["x3"], 2)])),
    ("implied-unconstrained-scattered",
     "no annotation; implied default to unconstrained; 6 pods fit into hosts scattered across the whole datacenter even they could fit into single rack; BestFit",
     SCATTERED, THREE, {}, 6, {"cpu": "1"}, None,
     ("fit", ONE, [(["x1"], 1), (["x3"], 1), (["x5"], 1), (["x2"], 1), (["x6"], 2)])),
    ("unconstrained-scattered",
     "unconstrained; 6 pods fit into hosts scattered across the whole datacenter even they could fit into single rack; BestFit",
     SCATTERED, THREE, {}, 6, {"cpu": "1"}, ("unconstrained",),
     ("fit", ONE, [(["x1"], 1), (["x3"], 1), (["x5"], 1), (["x2"], 1), (["x6"], 2)])),
    ("unconstrained-lfc-single-pod", "unconstrained; a single pod fits into each host; LeastFreeCapacity; TASProfileMixed",
     DEFAULT, THREE, {}, 1, {"cpu": "1"}, ("unconstrained",), ("fit", ONE, [(["x3"], 1)])),
    ("block-required-one-per-host", "block required; 4 pods fit into one host each; BestFit",
     BINARY, THREE, {}, 4, {"cpu": "1"}, ("required", BLOCK),
     ("fit", ONE, [(["x3"], 1), (["x5"], 1), (["x1"], 1), (["x6"], 1)])),
    ("host-required-single-pod", "host required; single Pod fits in the host; BestFit",
     DEFAULT, THREE, {}, 1, {"cpu": "1"}, ("required", HOST), ("fit", ONE, [(["x3"], 1)])),
    ("rack-required-single-pod", "rack required; single Pod fits in a rack; BestFit",
     DEFAULT, TWO, {}, 1, {"cpu": "1"}, ("required", RACK), ("fit", TWO, [(["b1", "r1"], 1)])),
    ("rack-required-multiple-pods", "rack required; multiple Pods fit in a rack; BestFit",
     DEFAULT, TWO, {}, 3, {"cpu": "1"}, ("required", RACK), ("fit", TWO, [(["b1", "r2"], 3)])),
    ("block-preferred-two-blocks", "block preferred; Pods fit in 2 blocks; BestFit",
     BLOCKS, [BLOCK], {}, 5, {"cpu": "1"}, ("preferred", BLOCK), ("fit", [BLOCK], [(["b2"], 1), (["b3"], 4)])),
    ("rack-required-some-racks", "rack required; multiple Pods fit in some racks; BestFit",
     DEFAULT, TWO, {}, 2, {"cpu": "1"}, ("required", RACK), ("fit", TWO, [(["b2", "r2"], 2)])),
    ("rack-required-too-many", "rack required; too many pods to fit in any rack; BestFit",
     DEFAULT, TWO, {}, 4, {"cpu": "1"}, ("required", RACK),
     ("reason", 'topology "default" allows to fit only 3 out of 4 pod(s)')),
    ("block-required-single-rack", "block required; single Pod fits in a block and a single rack; BestFit",
     DEFAULT, TWO, {}, 1, {"cpu": "1"}, ("required", BLOCK), ("fit", TWO, [(["b2", "r1"], 1)])),
    ("block-required-two-racks", "block required; Pods fit in a block spread across two racks; BestFit",
     DEFAULT, TWO, {}, 4, {"cpu": "1"}, ("required", BLOCK), ("fit", TWO, [(["b1", "r1"], 1), (["b1", "r2"], 3)])),
    ("block-required-cannot-split", "block required; single Pod which cannot be split; BestFit",
     DEFAULT, TWO, {}, 1, {"cpu": "4"}, ("required", BLOCK),
     ("reason", 'topology "default" doesn\'t allow to fit any of 1 pod(s). Total nodes: 4; excluded: resource "cpu": 4')),
    ("block-required-too-many", "block required; too many Pods to fit requested; BestFit",
     DEFAULT, TWO, {}, 5, {"cpu": "1"}, ("required", BLOCK),
     ("reason", 'topology "default" allows to fit only 4 out of 5 pod(s)')),
    ("rack-required-memory", "rack required; single Pod requiring memory; BestFit",
     DEFAULT, TWO, {}, 4, {"memory": "1024"}, ("required", RACK), ("fit", TWO, [(["b1", "r1"], 4)])),
    ("rack-preferred-block-holds", "rack preferred; but only block can accommodate the workload; BestFit",
     DEFAULT, TWO, {}, 4, {"cpu": "1"}, ("preferred", RACK), ("fit", TWO, [(["b1", "r1"], 1), (["b1", "r2"], 3)])),
    ("rack-preferred-multiple-blocks", "rack preferred; but only multiple blocks can accommodate the workload; BestFit",
     DEFAULT, TWO, {}, 6, {"cpu": "1"}, ("preferred", RACK),
     ("fit", TWO, [(["b1", "r1"], 1), (["b1", "r2"], 3), (["b2", "r2"], 2)])),
    ("block-preferred-multiple-blocks", "block preferred; but only multiple blocks can accommodate the workload; BestFit",
     DEFAULT, TWO, {}, 6, {"cpu": "1"}, ("preferred", BLOCK),
     ("fit", TWO, [(["b1", "r1"], 1), (["b1", "r2"], 3), (["b2", "r2"], 2)])),
    ("block-preferred-too-many", "block preferred; but the workload cannot be accommodate in entire topology; BestFit",
     DEFAULT, TWO, {}, 10, {"cpu": "1"}, ("preferred", BLOCK),
     ("reason", 'topology "default" allows to fit only 7 out of 10 pod(s)')),
    ("node-not-ready", "no assignment as node is not ready; BestFit",
     ZONE_NOT_READY, ONE, {"zone": "zone-a"}, 1, {"cpu": "1"}, ("required", HOST),
     ("reason", "no topology domains at level: kubernetes.io/hostname")),
    ("node-unschedulable", "no assignment as node is unschedulable; BestFit",
     ZONE_UNSCHED, ONE, {"zone": "zone-a"}, 1, {"cpu": "1"}, ("required", HOST),
     ("reason", "no topology domains at level: kubernetes.io/hostname")),
    ("untolerated-taint", "skip node which has untolerated taint; BestFit",
     ZONE_TAINT, ONE, {"zone": "zone-a"}, 1, {"cpu": "1"}, ("required", HOST),
     ("reason", 'topology "default" doesn\'t allow to fit any of 1 pod(s). Total nodes: 1; excluded: '
                'taint "example.com/gpu=present:NoSchedule": 1')),
    ("slices-host-in-block", "block required for podset; host required for slices; BestFit",
     SLICE3, THREE, {}, 6, {"cpu": "1"}, ("required", BLOCK, HOST, 2),
     ("fit", ONE, [(["x1"], 2), (["x3"], 2), (["x5"], 2)])),
]

def yaml_nodes(nodes):
    out = []
    for n in nodes:
        y = f"apiVersion: v1\nkind: Node\nmetadata:\n  name: {n['name']}\n  labels:\n"
        for k, v in n["labels"].items():
            y += f"    {k}: {v}\n"
        if n["unschedulable"] or n["taints"]:
            y += "spec:\n"
            if n["unschedulable"]:
                y += "  unschedulable: true\n"
            if n["taints"]:
                y += "  taints:\n" + "".join(f"  - {{key: {k}, value: {v}, effect: {e}}}\n" for k, v, e in n["taints"])
        alloc = {"cpu": n["cpu"], "pods": str(n["pods"])}
        if n["mem"]:
            alloc["memory"] = n["mem"]
        y += "status:\n  allocatable:\n" + "".join(f'    {k}: "{v}"\n' for k, v in alloc.items())
        y += f"  conditions:\n  - {{type: Ready, status: \"{'True' if n['ready'] else 'False'}\"}}\n"
        out.append(y)
    return out

ANN = {"required": "kueue.x-k8s.io/podset-required-topology", "preferred": "kueue.x-k8s.io/podset-preferred-topology",
       "unconstrained": "kueue.x-k8s.io/podset-unconstrained-topology"}

def snapshot(case):
    name, upstream, nodes, levels, labels, count, req, request, _ = case
    docs = [f"# kubernetes-sigs/kueue ff69552e79 pkg/cache/scheduler/tas_cache_test.go TestFindTopologyAssignments\n"
            f"# case \"{upstream}\"\n"
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Topology\nmetadata: {name: default}\nspec:\n  levels:\n" +
            "".join(f"  - nodeLabel: {l}\n" for l in levels)]
    fl = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: tas}\nspec:\n  topologyName: default\n"
    if labels:
        fl += "  nodeLabels:\n" + "".join(f"    {k}: {v}\n" for k, v in labels.items())
    docs.append(fl)
    docs.append("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: tas-cq}\nspec:\n"
                "  resourceGroups:\n  - coveredResources: [cpu, memory]\n    flavors:\n    - name: tas\n"
                "      resources: [{name: cpu, nominalQuota: \"1000\"}, {name: memory, nominalQuota: 1000Gi}]\n")
    docs.append("apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: main, namespace: default}\n"
                "spec: {clusterQueue: tas-cq}\n")
    docs += yaml_nodes(nodes)
    wl = ("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: wl, namespace: default}\n"
          f"spec:\n  queueName: main\n  podSets:\n  - name: main\n    count: {count}\n    template:\n")
    if request:
        wl += "      metadata:\n        annotations:\n"
        if request[0] == "unconstrained":
            wl += f"          {ANN['unconstrained']}: \"true\"\n"
        else:
            wl += f"          {ANN[request[0]]}: {request[1]}\n"
        if len(request) > 2:
            wl += (f"          kueue.x-k8s.io/podset-slice-required-topology: {request[2]}\n"
                   f"          kueue.x-k8s.io/podset-slice-size: \"{request[3]}\"\n")
    wl += ("      spec:\n        containers:\n        - name: c\n          resources:\n            requests: {" +
           ", ".join(f'{k}: "{v}"' for k, v in req.items()) + "}\n")
    docs.append(wl)
    return "---\n".join(docs)

def cmake_regex(s):
    out = ""
    for ch in s:
        out += "\\" + ch if ch in "[]().*+?^$|\\{}" else ch
    return out

def main():
    os.makedirs(OUT, exist_ok=True)
    cm = ["# Kueue Topology-Aware Scheduling through `drasim admit` (issue 28): cases of",
          "# kubernetes-sigs/kueue ff69552e79 pkg/cache/scheduler/tas_cache_test.go TestFindTopologyAssignments",
          "# with the upstream case's wantAssignment / wantReason. Written by tests/queues/gen_tas.py.",
          "set(_tas ${CMAKE_SOURCE_DIR}/tests/queues/tas)"]
    for case in CASES:
        name, upstream, *_, want = case
        with open(f"{OUT}/{name}.yaml", "w") as f:
            f.write(snapshot(case))
        if want[0] == "fit":
            exit_code, expect = 0, ['"admitted": true', assignment(want[1], want[2])]
        else:
            exit_code, expect = 1, ['"admitted": false',
                                    '"reason": "couldn\'t assign flavors to pod set main: ' + want[1].replace('"', '\\"') + '"']
        cm.append(f"# {upstream}")
        cm.append(f"drasim_cli_test(NAME queues/tas/{name} COMMAND admit ${{_tas}}/{name}.yaml EXIT {exit_code}")
        cm.append("  EXPECT " + " ".join(f"[=[{cmake_regex(e)}]=]" for e in expect) + ")")
    with open("tests/queues_tas.cmake", "w") as f:
        f.write("\n".join(cm) + "\n")

main()
