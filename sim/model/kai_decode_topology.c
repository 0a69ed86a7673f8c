/*
 * kai_decode_topology.c -- KAI-Scheduler's Topology object (kai.scheduler/v1alpha1),
 * as NVIDIA/KAI-Scheduler v0.13.0 (5d35ecab74) defines it in
 * pkg/apis/kai/v1alpha1/topology_types.go: spec.levels[].nodeLabel, top level
 * first, 1..16 levels (MinItems, MaxItems), unique ("must be unique"), and
 * kubernetes.io/hostname only as the lowest level ("the kubernetes.io/hostname
 * label can only be used at the lowest level of topology"). The placement that
 * reads it is queue/kai_topology.c.
 */
#include <string.h>

#include "model/k8s_decode_internal.h"
#include "model/kai.h"

/* KAI's rules for a level: not empty, unique, kubernetes.io/hostname only lowest. */
static int kai_level_ok(dctx *c, const ynode *label, const char *const *levels, size_t i, size_t n) {
    if (!levels[i][0]) return derr(c, label, "nodeLabel: must not be empty");
    for (size_t j = 0; j < i; j++)
        if (!strcmp(levels[j], levels[i]))
            return derr(c, label, "nodeLabel: must be unique ('%s' twice)", levels[i]);
    if (!strcmp(levels[i], "kubernetes.io/hostname") && i + 1 < n)
        return derr(c, label, "nodeLabel: the kubernetes.io/hostname label can only be used at the lowest level of topology");
    return 0;
}

int kai_decode_topology(dctx *c, kai_objects *o, const ynode *root) {
    kai_topology *t = ARENA_NEW(c->a, kai_topology, 1);
    memset(t, 0, sizeof *t);
    t->where = root;
    if (dmeta(c, root, &t->meta, true)) return -1;
    if (dtopology_levels(c, root, &t->levels, &t->nlevels, kai_level_ok)) return -1;
    for (size_t i = 0; i < o->topologies.len; i++)
        if (!strcmp(o->topologies.data[i]->meta.name, t->meta.name))
            return derr(c, root, "Topology '%s' is declared twice", t->meta.name);
    VEC_PUSH(o->topologies, t);
    return 0;
}

const kai_topology *kai_find_topology(const kai_objects *o, const char *name) {
    for (size_t i = 0; o && name && i < o->topologies.len; i++)
        if (!strcmp(o->topologies.data[i]->meta.name, name)) return o->topologies.data[i];
    return NULL;
}
