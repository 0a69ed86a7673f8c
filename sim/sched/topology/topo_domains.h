/*
 * topo_domains.h -- the domains of one topology level: the distinct values of
 * a node label (a rack, a block, an NVLink clique), each with its nodes. The
 * order is the sorted order of the values, as KEP-5732's TopologyPlacement
 * plugin generates its placements (kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/topologyplacement/topologyplacement.go:
 * sets.NewString(...).List()); nodes without the label belong to no domain.
 */
#ifndef DRASIM_SCHED_TOPO_DOMAINS_H
#define DRASIM_SCHED_TOPO_DOMAINS_H

#include <stddef.h>
#include <stdint.h>

#include "model/k8s.h"

typedef struct topo_domains {
    const char *key;                  /* the label key (interned) */
    size_t ndomains;
    const char **names;               /* the label values, sorted */
    int32_t *of_node;                 /* per node: its domain, -1 = no label */
    uint32_t *first;                  /* [ndomains + 1]: domain d's nodes are nodes[first[d] .. first[d+1]) */
    uint32_t *nodes;                  /* node indexes grouped by domain, in node order within one */
    size_t unlabelled;                /* nodes without the label */
} topo_domains;

/* Group `n` nodes by the value of label `key`. */
void topo_domains_build(topo_domains *d, const k8s_node *nodes, size_t n, const char *key);
void topo_domains_free(topo_domains *d);
static inline size_t topo_domain_size(const topo_domains *d, size_t dom) { return d->first[dom + 1] - d->first[dom]; }
/* The value of label `key` on node `node`, NULL when absent. */
const char *topo_node_label(const k8s_node *node, const char *key);

#endif
