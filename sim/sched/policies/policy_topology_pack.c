/* policy_topology_pack.c -- the TopologyPack score (see policy_topology_pack.h). */
#include "sched/policies/policy_topology_pack.h"

#include <stdlib.h>

#include "util/xalloc.h"

topology_pack *topology_pack_new(const k8s_node *nodes, size_t n, const char *key) {
    topology_pack *t = xcalloc(1, sizeof *t);
    topo_domains_build(&t->d, nodes, n, key);
    t->busy = xcalloc(t->d.ndomains + 1, sizeof *t->busy);
    return t;
}

void topology_pack_free(topology_pack *t) {
    if (!t) return;
    topo_domains_free(&t->d);
    free(t->busy);
    free(t);
}

static int64_t pods_on(const scheduler *s, size_t node) { return s->used[node * s->nres + RES_PODS]; }

static int64_t pack_score(const scheduler *s, const pod_class *c, size_t node) {
    (void)c;
    const topology_pack *t = s->cfg.extra_state;
    const gs_node *n = &s->gv.nodes[node];
    int64_t used = 0;   /* the node's used fraction, x40 */
    if (n->ngpu > 0) {
        int64_t free_milli = 0;
        for (int g = 0; g < n->ngpu && g < GS_MAX_GPUS; g++) free_milli += n->free[g];
        used = 40 - 40 * free_milli / ((int64_t)n->ngpu * GS_MILLI);
    } else if (n->cpu_cap > 0) {
        used = 40 * (n->cpu_cap - n->cpu_left) / n->cpu_cap;
    }
    int32_t dom = t->d.of_node[node];
    if (dom < 0) return 30 + used;
    return (t->busy[dom] > 0 ? 60 : 0) + used;
}

/* Node `node` of the domain turned busy (+1) or idle (-1): the domain's
 * standing may flip, and with it every node's score. */
static void domain_step(scheduler *s, size_t node, int sign) {
    topology_pack *t = s->cfg.extra_state;
    int32_t dom = t->d.of_node[node];
    if (dom < 0) return;
    t->busy[dom] += sign;
    if (!(sign > 0 ? t->busy[dom] == 1 : t->busy[dom] == 0)) return;
    for (uint32_t k = t->d.first[dom]; k < t->d.first[dom + 1]; k++)
        if (t->d.nodes[k] != node) sched_node_changed(s, t->d.nodes[k]);
}

/* Reserve runs after the pod counts on the node (sched.c bind): 1 = it was idle. */
static void pack_reserve(scheduler *s, const pod_class *c, size_t node, placement *p) {
    (void)c;
    (void)p;
    if (pods_on(s, node) == 1) domain_step(s, node, +1);
}

/* Unreserve runs before the pod leaves the count: 1 = the node becomes idle. */
static void pack_unreserve(scheduler *s, const pod_class *c, size_t node, const placement *p) {
    (void)c;
    (void)p;
    if (pods_on(s, node) == 1) domain_step(s, node, -1);
}

const sched_plugin plugin_topology_pack = {.name = "TopologyPack", .weight = 1000, .score = pack_score,
                                           .reserve = pack_reserve, .unreserve = pack_unreserve};
