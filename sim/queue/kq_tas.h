/*
 * kq_tas.h -- Kueue's Topology-Aware Scheduling: the topology tree of one
 * TAS ResourceFlavor (its Topology's levels over the Nodes that match the
 * flavor), and the search for a pod set's TopologyAssignment (domains with
 * pod counts).
 *
 * Followed release: kubernetes-sigs/kueue ff69552e79 (v0.19 line),
 *   pkg/cache/scheduler/tas_flavor_snapshot.go  findTopologyAssignment,
 *     fillInCounts/fillInCountsHelper, findLevelWithFitDomains,
 *     updateCountsToMinimumGeneric, findBestFitDomainBy, sortedDomains,
 *     buildAssignment, notFitMessage
 *   pkg/cache/scheduler/tas_nodes_cache.go      Ready, schedulable nodes
 *     whose labels match the flavor and carry every level
 *   pkg/features/kube_features.go               TASProfileMixed (beta, on since
 *     v0.15): unconstrained requests use LeastFreeCapacity, the rest BestFit;
 *     TASBalancedPlacement (alpha, off) is not modelled.
 * Not modelled: leader/worker pod set groups, multi-layer slice constraints,
 * preferred node affinity scoring, node replacement, usage of non-TAS pods.
 */
#ifndef DRASIM_QUEUE_KQ_TAS_H
#define DRASIM_QUEUE_KQ_TAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/k8s_decode.h"
#include "model/kueue.h"
#include "util/strbuf.h"

typedef struct kq_tas_dom kq_tas_dom;
struct kq_tas_dom {
    const char **values;             /* level values 0..level */
    int level;
    kq_tas_dom *parent;
    kq_tas_dom **children;
    size_t nchildren, cap;
    int32_t pods, slices;            /* the current search's state */
    int64_t *alloc, *used;           /* leaves: allocatable (summed over its nodes) and TAS usage, per resource */
    const k8s_node *node;            /* leaves of a hostname level: the node */
};

typedef struct kq_tas_snapshot {
    const char *topology;            /* the Topology's name (messages) */
    const kq_flavor *flavor;
    const char **levels;
    size_t nlevels;
    bool lowest_is_node;             /* last level kubernetes.io/hostname */
    const char **res;                /* resource names (interned) of the capacity arrays */
    size_t nres;
    kq_tas_dom **doms;               /* every domain (owned) */
    size_t ndoms, cap_doms;
    kq_tas_dom **leaves;
    size_t nleaves, cap_leaves;
} kq_tas_snapshot;

/* The tree of `flavor` (topology `t`) over `nodes`. */
void kq_tas_build(kq_tas_snapshot *s, const kq_topology *t, const kq_flavor *f, const k8s_objects *nodes);
void kq_tas_free(kq_tas_snapshot *s);
/* The same over a run's nodes (not copied; no Ready condition needed: the
 * run's scheduler keeps their presence), and the leaf (index into s->leaves)
 * node n is in, -1 when none. */
void kq_tas_build_live(kq_tas_snapshot *s, const kq_topology *t, const kq_flavor *f, const k8s_node *nodes,
                       size_t nnodes);
int kq_tas_leaf_of(const kq_tas_snapshot *s, const k8s_node *n);
/* Nodes carrying flavor f's nodeLabels but not every level of t: outside
 * TAS (tas_nodes_cache.go drops them silently; a run warns). */
size_t kq_tas_unlabelled(const kq_topology *t, const kq_flavor *f, const k8s_node *nodes, size_t nnodes);

typedef struct kq_tas_domain {
    const char **values;             /* levels[first_level..] values */
    int32_t count;
} kq_tas_domain;

typedef struct kq_tas_assignment {
    const char **levels;
    size_t nlevels;
    kq_tas_domain *domains;
    size_t ndomains;
} kq_tas_assignment;

void kq_tas_assignment_free(kq_tas_assignment *a);

/* Charge `count` pods of `pod` to the domain whose values are `values` for
 * `levels` (an admitted assignment); false when no such leaf. */
bool kq_tas_add_usage(kq_tas_snapshot *s, const char *const *levels, size_t nlevels, const char *const *values,
                      const k8s_pod *pod, int32_t count);

/* The assignment of `count` pods of `pod` with request `r` (`implied`: no
 * request on a TAS-only ClusterQueue). 0 with *out set, or -1 with Kueue's
 * reason ("topology \"default\" allows to fit only 3 out of 4 pod(s)"). */
int kq_tas_find(kq_tas_snapshot *s, const kq_topology_request *r, bool implied, const k8s_pod *pod, int32_t count,
                kq_tas_assignment *out, strbuf *reason);

#endif
