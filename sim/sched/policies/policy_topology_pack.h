/*
 * policy_topology_pack.h -- TopologyPack, drasim's topology-aware placement
 * score (issue 28; beyond upstream: kube-scheduler has no score that looks at
 * a node's rack). It keeps whole domains whole for the gangs that need them:
 * every pod, small, CPU-only or a gang's, goes preferably to a domain already
 * broken (some node of it in use), and within the domains of equal standing to
 * the fuller node:
 *   score = 60 if the node's domain is broken, 0 if the domain is whole free
 *         + 40 x the node's used fraction (GPUs when it has GPUs, else CPU).
 * Nodes without the level's label score 30 + the node term (between the two).
 * The idea follows the fix of marin-community/marin PR #8249 (a soft Kueue
 * preference packing CPU-only pods into domains already in use).
 * A domain's standing changes only when its first node becomes busy or its
 * last node idle; then every node of the domain is marked changed (the score
 * cache is per node). Turned on by scheduling.topologyPack: {level: KEY}.
 */
#ifndef DRASIM_SCHED_POLICY_TOPOLOGY_PACK_H
#define DRASIM_SCHED_POLICY_TOPOLOGY_PACK_H

#include "sched/framework.h"
#include "sched/topology/topo_domains.h"

typedef struct topology_pack {
    topo_domains d;
    int32_t *busy;                    /* per domain: nodes with a pod */
} topology_pack;

extern const sched_plugin plugin_topology_pack;

/* State for level `key` over the nodes (sched_config.extra_state). */
topology_pack *topology_pack_new(const k8s_node *nodes, size_t n, const char *key);
void topology_pack_free(topology_pack *t);

#endif
