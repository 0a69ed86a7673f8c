/*
 * framework.h -- scheduler plugins as function tables, in the shape of
 * kube-scheduler's framework extension points. Every hook is optional.
 *
 * The framework calls Filter/Score when a node's state changes, not per pod
 * (see sched.h), so a plugin's answer must depend only on the pod class and
 * the node. `why` collects failure reasons for diagnostics; it is NULL on the
 * fast path.
 */
#ifndef DRASIM_SCHED_FRAMEWORK_H
#define DRASIM_SCHED_FRAMEWORK_H

#include "sched/sched.h"

typedef struct sched_reasons {
    const char *r[SCHED_MAX_RESOURCES + 4];
    int n;
} sched_reasons;

struct sched_plugin {
    const char *name;
    int64_t weight;    /* score weight */
    /* PreFilter: once per class; false = the class can never be scheduled. */
    bool (*pre_filter)(const scheduler *s, const pod_class *c, sched_reasons *why);
    /* Filter on what never changes during a run (labels, taints, allocatable). */
    bool (*filter_static)(const scheduler *s, const pod_class *c, size_t node, sched_reasons *why);
    /* Filter on the node's current state. */
    bool (*filter)(const scheduler *s, const pod_class *c, size_t node, sched_reasons *why);
    /* Score in [0, 100] for a node that passed every filter. */
    int64_t (*score)(const scheduler *s, const pod_class *c, size_t node);
    /* Reserve / Unreserve: claim or give back what the pod takes on the node. */
    void (*reserve)(scheduler *s, const pod_class *c, size_t node, placement *p);
    void (*unreserve)(scheduler *s, const pod_class *c, size_t node, const placement *p);
};

/* The device-plugin baseline plugins (sched/plugins/plugins_*.c). */
extern const sched_plugin plugin_node_unschedulable;
extern const sched_plugin plugin_taint_toleration;
extern const sched_plugin plugin_node_affinity;
extern const sched_plugin plugin_node_resources_fit;
extern const sched_plugin plugin_balanced_allocation;
/* Placement policies over the GPU view (sched/plugins/plugin_policy.c). */
extern const sched_plugin plugin_placement_policy;
/* DRA mode (sched/dra/plugin_dra.c). */
extern const sched_plugin plugin_dynamic_resources;

/* The device plugin's failRequestsGreaterThanOne (sched/plugins/plugin_sharing.c): on
 * when some node carries its label. */
extern const sched_plugin plugin_shared_gpu_requests;
bool sched_any_fail_gt_one(const k8s_node *nodes, size_t n);

/* Helpers shared by plugins. */
bool toleration_tolerates(const k8s_toleration *t, const k8s_taint *taint);
bool node_selector_matches(const k8s_node_selector *sel, const k8s_node *node);

#endif
