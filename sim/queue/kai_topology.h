/*
 * kai_topology.h -- KAI-Scheduler's topology-aware placement of a PodGroup in
 * a run (queues: {manager: kai}): a job whose pods carry
 * kai.scheduler/topology and kai.scheduler/topology-required-placement and/or
 * -preferred-placement is allocated only inside one domain of a Topology
 * (kai.scheduler/v1alpha1; model/kai.h), and its pods are bound to the nodes
 * KAI chose there.
 *
 * Followed release: NVIDIA/KAI-Scheduler v0.13.0 (5d35ecab74):
 *  - pkg/podgrouper/podgrouper/plugins/defaultgrouper/default_grouper.go: the
 *    three annotations of the owner (here: of the pod group) become the
 *    PodGroup's topology constraint;
 *  - pkg/scheduler/plugins/topology/topology_plugin.go: one domain tree per
 *    Topology over the nodes that carry every level's label (common.go
 *    isNodePartOfTopology), a domain's id the values from the top level down
 *    joined by "." (topology_structs.go calcDomainId), a root above all;
 *  - job_filtering.go subSetNodesFn: the pods a domain can take
 *    (calcNodeAccommodation: copies of the pod that fit each node's idle
 *    resources, summed); the whole cluster first ("not enough resources in
 *    the cluster"); the relevant levels from the preferred (or required)
 *    level up to the required level (or the root); the domains there that
 *    hold every pod, ordered bottom-up (topology_utils.go reverseLevelOrder)
 *    over the tree sorted by the job's request to the domain's free
 *    resources, largest first, then id (sortTree, getJobRatioToFreeResources:
 *    bin packing); the first domain where the pods are placed wins;
 *  - node_scoring.go calculateNodeScores: within it, nodes of the
 *    preferred-level domains later in that order (more free) score higher,
 *    floor((i+1)/n*10); drasim breaks ties by KAI's default GPU bin packing
 *    (fewer free GPUs first), then node order.
 * drasim's model: the fit is counted on the scheduler's nodes (allocatable
 * minus bound pods, minus the pods KAI placed that are not bound yet), in
 * cpu, memory, pod slots and whole GPUs (the scheduler's GPU view: devices
 * in DRA mode); each pod is then pinned to its node by a
 * kubernetes.io/hostname nodeSelector (KAI binds the pods itself).
 *  - reclaim and preempt (actions/common/allocate.go: the solver's scenario
 *    evicts the victims in the session, then allocates the job through the
 *    same subSetNodesFn; job_filtering.go counts a node's Idle plus Releasing,
 *    calcNodeAccommodation IsTaskAllocatableOnReleasingOrIdle): a domain's
 *    nodes get back the victims' pods (their slots: bound pods where they run)
 *    while the victims are tried, so KAI reclaims in the domain it can free.
 * Not modelled: heterogeneous pods and sub-groups (segment-* annotations),
 * fractional GPUs (counted as whole).
 */
#ifndef DRASIM_QUEUE_KAI_TOPOLOGY_H
#define DRASIM_QUEUE_KAI_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/kai.h"
#include "queue/gate.h"
#include "queue/kai.h"
#include "util/strbuf.h"

#define KAI_TOPOLOGY_ANN "kai.scheduler/topology"
#define KAI_TOPOLOGY_REQUIRED_ANN "kai.scheduler/topology-required-placement"
#define KAI_TOPOLOGY_PREFERRED_ANN "kai.scheduler/topology-preferred-placement"

struct scheduler;

typedef struct kai_topo_constraint {  /* a PodGroup's TopologyConstraint */
    const char *topology, *required, *preferred;   /* interned; level NULL = none */
} kai_topo_constraint;

typedef struct kai_topo kai_topo;

kai_topo *kai_topo_new(const kai_objects *o);
void kai_topo_free(kai_topo *t);
/* The scheduler's nodes (read only), before the run. */
void kai_topo_cluster(kai_topo *t, const struct scheduler *s);
/* The constraint of pods with annotations kv[0..n): NULL when they have no
 * kai.scheduler/topology (a stable pointer per distinct constraint). */
const kai_topo_constraint *kai_topo_constraint_of(kai_topo *t, const k8s_kv *kv, size_t n);

/* Job j (its constraint in j->topo) of `npods` pods, each requesting `req`
 * (KAI's units: gpu devices, cpu millicores, memory bytes): true when a
 * domain holds it now, the pods of victims vic[0..nv) (their slots)
 * releasing their resources (reclaim and preempt); with `commit` its pods'
 * nodes are kept (and counted as taken) for kai_topo_pins. False records
 * KAI's reason (kai_topo_why). */
bool kai_topo_place(kai_topo *t, const kai_job *j, const kai_job *const *vic, size_t nv, const double req[KAI_NRES],
                    size_t npods, bool commit);
/* Pin pods[0..n) of committed job j to their nodes (out->pins). */
void kai_topo_pins(kai_topo *t, const kai_job *j, const uint32_t *pods, size_t n, queue_cycle_out *out);
/* The reason j's last placement failed; false when it did not fail there. */
bool kai_topo_why(const kai_topo *t, const kai_job *j, strbuf *out);
/* A pinned pod was bound (now among its node's pods) or ended. */
void kai_topo_bound(kai_topo *t, uint32_t pod);
void kai_topo_ended(kai_topo *t, uint32_t pod);
/* The most nodes that lack a level label of a Topology a job asked for
 * (KAI leaves them out of its tree, common.go isNodePartOfTopology; a run
 * warns); 0 when none or no tree was built. */
size_t kai_topo_unlabelled(const kai_topo *t);

#endif
