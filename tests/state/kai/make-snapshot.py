#!/usr/bin/env python3
"""make-snapshot.py -- writes the hand-made KAI-Scheduler snapshots of
tests/state/kai/ (run it from anywhere; the outputs are committed).

The shape follows NVIDIA/KAI-Scheduler v0.13.0 (5d35ecab74):
  pkg/scheduler/plugins/snapshot/snapshot.go -- Snapshot{config,
    schedulerParams, rawObjects, discovery}; RawKubernetesObjects lists pods,
    nodes, queues, podGroups, bindRequests, priorityClasses, configMaps,
    persistentVolumeClaims, csiStorageCapacities, storageClasses, csiDrivers,
    resourceClaims, resourceSlices, deviceClasses, topologies; json.Marshal
    (compact, one line) into the ZIP entry "snapshot.json" made with Go's
    archive/zip Writer.Create (deflate, sizes in a data descriptor).
  Objects come from informer caches: no apiVersion/kind (TypeMeta empty).
  pkg/apis/scheduling/v2/resources.go -- QueueResource quota, overQuotaWeight,
    limit have no omitempty: all three are always written.
  pkg/common/constants/constants.go -- PodGroupAnnotationForPod "pod-group-name".
zipfile writing to a stream that cannot seek writes the data descriptor, as
Go's writer does.
"""
import io
import json
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = "gpu.nvidia.com"


def node(name):
    labels = {"kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
              "nvidia.com/gpu.count": "2", "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB",
              "nvidia.com/gpu.present": "true"}
    res = {"cpu": "16", "memory": "64Gi", "pods": "110"}
    return {"metadata": {"name": name, "uid": "0d0e0000-0000-4000-8000-00000000000" + name[-1],
                         "resourceVersion": "100", "creationTimestamp": "2026-11-01T00:00:00Z", "labels": labels},
            "spec": {},
            "status": {"capacity": res, "allocatable": res,
                       "conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": "2026-12-03T07:59:00Z",
                                       "lastTransitionTime": "2026-11-01T00:01:00Z", "reason": "KubeletReady",
                                       "message": "kubelet is posting ready status"}]}}


def device(i, uuid):
    attrs = {"architecture": {"string": "Ampere"}, "brand": {"string": "Nvidia"},
             "cudaComputeCapability": {"version": "8.0.0"}, "driverVersion": {"version": "570.172.8"},
             "productName": {"string": "NVIDIA A100-SXM4-80GB"}, "type": {"string": "gpu"},
             "uuid": {"string": uuid}}
    return {"name": "gpu-%d" % i, "attributes": attrs, "capacity": {"memory": {"value": "80Gi"}}}


def slice_(nodename, suffix):
    devs = [device(i, "GPU-5a1e%04d-0000-4000-8000-%012d" % (int(nodename[-1]), i)) for i in range(2)]
    return {"metadata": {"name": "%s-%s-%s" % (nodename, GPU, suffix), "creationTimestamp": "2026-11-01T00:02:00Z"},
            "spec": {"driver": GPU, "nodeName": nodename,
                     "pool": {"name": nodename, "generation": 1, "resourceSliceCount": 1}, "devices": devs}}


def queue(name, parent, gpu_quota, gpu_limit):
    spec = {"resources": {"gpu": {"quota": gpu_quota, "overQuotaWeight": 1, "limit": gpu_limit},
                          "cpu": {"quota": -1, "overQuotaWeight": 1, "limit": -1},
                          "memory": {"quota": -1, "overQuotaWeight": 1, "limit": -1}}}
    if parent:
        spec["parentQueue"] = parent
    return {"metadata": {"name": name, "creationTimestamp": "2026-11-01T00:00:00Z"}, "spec": spec,
            "status": {"childQueues": ["team-a", "team-b"]} if not parent else {}}


def podgroup(name, ns, q, prio):
    return {"metadata": {"name": name, "namespace": ns, "creationTimestamp": "2026-12-03T07:00:00Z"},
            "spec": {"minMember": 1, "queue": q, "priorityClassName": prio, "topologyConstraint": {}},
            "status": {"resourcesStatus": {}}}


def pod(name, ns, group, node_name, phase, claim, annotations, uid):
    ann = {"pod-group-name": group}
    ann.update(annotations)
    spec = {"schedulerName": "kai-scheduler", "restartPolicy": "Never",
            "containers": [{"name": "main", "image": "nvcr.io/nvidia/pytorch:25.01-py3",
                            "resources": {"requests": {"cpu": "4", "memory": "8Gi"}, "claims": [{"name": "gpus"}]}}],
            "resourceClaims": [{"name": "gpus", "resourceClaimTemplateName": "one-gpu"}]}
    if node_name:
        spec["nodeName"] = node_name
    status = {"phase": phase, "resourceClaimStatuses": [{"name": "gpus", "resourceClaimName": claim}]}
    if phase == "Running":
        status["startTime"] = "2026-12-03T07:00:05Z"
    return {"metadata": {"name": name, "namespace": ns, "uid": uid, "creationTimestamp": "2026-12-03T07:00:00Z",
                         "annotations": ann}, "spec": spec, "status": status}


def claim(name, ns, count, results, reserved):
    c = {"metadata": {"name": name, "namespace": ns, "annotations": {"resource.kubernetes.io/pod-claim-name": "gpus"}},
         "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": GPU,
                                                                        "allocationMode": "ExactCount",
                                                                        "count": count}}]}},
         "status": {}}
    if results:
        node_name = results[0][0]
        c["status"] = {"allocation": {"devices": {"results": [
            {"request": "gpu", "driver": GPU, "pool": p, "device": d} for p, d in results]},
            "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
                {"key": "metadata.name", "operator": "In", "values": [node_name]}]}]}},
            "reservedFor": [{"resource": "pods", "name": r[0], "uid": r[1]} for r in reserved]}
    return c


def dclass(name, driver, typ, extended=None, extra=""):
    expr = "device.driver == '%s' && device.attributes['%s'].type == '%s'%s" % (driver, driver, typ, extra)
    c = {"metadata": {"name": name}, "spec": {"selectors": [{"cel": {"expression": expr}}]}}
    if extended:
        c["spec"]["extendedResourceName"] = extended
    return c


UID_A = "6f1c2a8e-0001-4a6b-9c1d-00000000000a"
UID_B = "6f1c2a8e-0002-4a6b-9c1d-00000000000b"
UID_E = "6f1c2a8e-0003-4a6b-9c1d-00000000000e"
UID_D = "6f1c2a8e-0004-4a6b-9c1d-00000000000d"


def snapshot(variant=None):
    nodes = [node("dgx-0"), node("dgx-1"), node("dgx-2")]
    pods = [
        # team-a's training job: PodGroup pg-train-a (Queue team-a), both GPUs of dgx-0, 1h left
        pod("train-a", "team-a", "pg-train-a", "dgx-0", "Running", "train-a-gpus",
            {"drasim.io/remaining": "1h"}, UID_A),
        # team-b's server: PodGroup pg-serve-b (Queue team-b), dgx-1 gpu-0, 3h left
        pod("serve-b", "team-b", "pg-serve-b", "dgx-1", "Running", "serve-b-gpu",
            {"drasim.io/remaining": "3h"}, UID_B),
        # team-b's evaluation, pending: PodGroup pg-eval-b (Queue team-b), runs 1h once started
        pod("eval-b", "team-b", "pg-eval-b", None, "Pending", "eval-b-gpu", {"drasim.io/duration": "1h"}, UID_E),
        # finished: ignored
        pod("done-c", "team-a", "pg-done-c", "dgx-2", "Succeeded", "done-c-gpu", {}, UID_D),
    ]
    claims = [
        claim("train-a-gpus", "team-a", 2, [("dgx-0", "gpu-0"), ("dgx-0", "gpu-1")], [("train-a", UID_A)]),
        claim("serve-b-gpu", "team-b", 1, [("dgx-1", "gpu-0")], [("serve-b", UID_B)]),
        claim("eval-b-gpu", "team-b", 1, [], []),
    ]
    if variant == "lost-node":   # a running pod on a node that is not in the snapshot's inventory
        pods[1]["spec"]["nodeName"] = "dgx-9"
    if variant == "ghost-device":   # an allocated device that no ResourceSlice publishes
        claims[1]["status"]["allocation"]["devices"]["results"][0]["device"] = "gpu-7"
    if variant == "twice":   # serve-b's claim allocated train-a's device too
        claims[1]["status"]["allocation"]["devices"]["results"][0] = {
            "request": "gpu", "driver": GPU, "pool": "dgx-0", "device": "gpu-1"}
        claims[1]["status"]["allocation"]["nodeSelector"]["nodeSelectorTerms"][0]["matchFields"][0]["values"] = ["dgx-0"]
        pods[1]["spec"]["nodeName"] = "dgx-0"
    raw = {
        "pods": pods,
        "nodes": nodes,
        "queues": [queue("org", None, 4, -1), queue("team-a", "org", 2, 2), queue("team-b", "org", 2, -1)],
        "podGroups": [podgroup("pg-train-a", "team-a", "team-a", "train"),
                      podgroup("pg-serve-b", "team-b", "team-b", "inference"),
                      podgroup("pg-eval-b", "team-b", "team-b", "train"),
                      podgroup("pg-done-c", "team-a", "team-a", "train")],
        "bindRequests": [],
        "priorityClasses": [{"metadata": {"name": "inference"}, "value": 125, "globalDefault": False,
                             "description": "KAI inference", "preemptionPolicy": "PreemptLowerPriority"},
                            {"metadata": {"name": "train"}, "value": 50, "preemptionPolicy": "PreemptLowerPriority"}],
        "configMaps": [],
        "persistentVolumeClaims": [],
        "csiStorageCapacities": [],
        "storageClasses": [],
        "csiDrivers": [],
        "resourceClaims": claims,
        "resourceSlices": [slice_("dgx-0", "a1b2c"), slice_("dgx-1", "d3e4f"), slice_("dgx-2", "g5h6i")],
        # the five classes the NVIDIA DRA driver's chart installs (as drasim's own inventory writes them)
        "deviceClasses": [dclass(GPU, "gpu.nvidia.com", "gpu", "nvidia.com/gpu"),
                          dclass("mig.nvidia.com", "gpu.nvidia.com", "mig"),
                          dclass("vfio.gpu.nvidia.com", "gpu.nvidia.com", "vfio"),
                          dclass("compute-domain-daemon.nvidia.com", "compute-domain.nvidia.com", "daemon"),
                          dclass("compute-domain-default-channel.nvidia.com", "compute-domain.nvidia.com", "channel",
                                 extra=" && device.attributes['compute-domain.nvidia.com'].id == 0")],
        "topologies": [],
    }
    snap = {
        "config": {"actions": "allocate, consolidation, reclaim, preempt, stalegangeviction",
                   "tiers": [{"plugins": [{"name": "predicates"}, {"name": "proportion"}, {"name": "priority"},
                                          {"name": "snapshot"}]}]},
        "schedulerParams": {"SchedulerName": "kai-scheduler", "PartitionParams": {}},
        "rawObjects": raw,
        "discovery": {"serverVersion": {"major": "1", "minor": "35", "gitVersion": "v1.35.0"}, "resources": None},
    }
    return json.dumps(snap, separators=(",", ":"))   # json.Marshal: compact, one line


class NoSeek(io.RawIOBase):
    """A write-only stream without seek: zipfile then writes data descriptors."""

    def __init__(self):
        self.buf = bytearray()

    def writable(self):
        return True

    def write(self, b):
        self.buf += b
        return len(b)


def write_zip(path, entries, method=zipfile.ZIP_DEFLATED):
    out = NoSeek()
    with zipfile.ZipFile(out, "w", compression=method) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = method
            z.writestr(info, data)
    with open(path, "wb") as f:
        f.write(bytes(out.buf))


def main():
    good = snapshot()
    with open(os.path.join(HERE, "snapshot.json"), "w") as f:
        f.write(good + "\n")
    write_zip(os.path.join(HERE, "snapshot.zip"), [("snapshot.json", good)])
    write_zip(os.path.join(HERE, "snapshot-stored.zip"), [("snapshot.json", good)], zipfile.ZIP_STORED)
    for v in ("lost-node", "ghost-device", "twice"):
        write_zip(os.path.join(HERE, "bad-%s.zip" % v), [("snapshot.json", snapshot(v))])
    write_zip(os.path.join(HERE, "bad-no-entry.zip"), [("README.txt", "not a snapshot\n"), ("cluster.json", good)])
    bad_json = good.replace('"queues":[', '"queues":[,', 1)
    write_zip(os.path.join(HERE, "bad-json.zip"), [("snapshot.json", bad_json)])
    # a deflate stream damaged in its middle (the CRC and sizes stay as written)
    data = bytearray(open(os.path.join(HERE, "snapshot.zip"), "rb").read())
    start = 30 + len("snapshot.json")
    for i in range(start + 200, start + 240):
        data[i] ^= 0x5A
    with open(os.path.join(HERE, "bad-deflate.zip"), "wb") as f:
        f.write(bytes(data))
    # a stored entry with one byte changed: the CRC-32 no longer matches
    data = bytearray(open(os.path.join(HERE, "snapshot-stored.zip"), "rb").read())
    data[start + 100] ^= 0x01
    with open(os.path.join(HERE, "bad-crc.zip"), "wb") as f:
        f.write(bytes(data))
    with open(os.path.join(HERE, "bad-not-zip.zip"), "w") as f:
        f.write(good[:200] + "\n")


if __name__ == "__main__":
    main()
