/*
 * plugin_sharing.c -- the device plugin's failRequestsGreaterThanOne as a
 * static Filter (drasim-only, issue 17, docs/SHARING.md).
 *
 * With `failRequestsGreaterThanOne` the NVIDIA device plugin refuses, at
 * Allocate, a container asking for more than one replica of a time-sliced
 * (or MPS) GPU (NVIDIA/k8s-device-plugin README, "Shared Access to GPUs"):
 * the kubelet fails such a pod on that node. kube-scheduler does not know the
 * setting; drasim keeps such pods off those nodes, so they wait with a reason
 * instead of binding and failing. The inventory marks the nodes with
 * drasim's own label below (the plugin's config map is not a node label).
 */
#include <string.h>

#include "sched/framework.h"
#include "util/intern.h"

#define FAIL_GT_ONE_LABEL "drasim.io/device-plugin.fail-requests-greater-than-one"

static bool node_fails_gt_one(const k8s_node *n) {
    for (size_t i = 0; i < n->meta.nlabels; i++)
        if (!strcmp(n->meta.labels[i].key, FAIL_GT_ONE_LABEL)) return !strcmp(n->meta.labels[i].value, "true");
    return false;
}

bool sched_any_fail_gt_one(const k8s_node *nodes, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (node_fails_gt_one(&nodes[i])) return true;
    return false;
}

static bool filter_static(const scheduler *s, const pod_class *c, size_t node, sched_reasons *why) {
    if (c->gpu_res < 0 || c->gpu_units <= 1) return true;
    const char *res = s->res_names[c->gpu_res];
    if (res != intern("nvidia.com/gpu") && res != intern("nvidia.com/gpu.shared")) return true;
    if (!node_fails_gt_one(&s->nodes[node])) return true;
    if (why && why->n < (int)(sizeof why->r / sizeof *why->r))
        why->r[why->n++] = "node(s) refuse requests for more than one shared GPU (failRequestsGreaterThanOne)";
    return false;
}

const sched_plugin plugin_shared_gpu_requests = {.name = "SharedGPURequests", .filter_static = filter_static};
