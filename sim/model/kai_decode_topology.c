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

int kai_decode_topology(dctx *c, kai_objects *o, const ynode *root) {
    kai_topology *t = ARENA_NEW(c->a, kai_topology, 1);
    memset(t, 0, sizeof *t);
    t->where = root;
    if (dmeta(c, root, &t->meta, true)) return -1;
    const ynode *spec, *seq;
    if (dmap(c, root, "spec", 1000, &spec)) return -1;
    if (!spec) return derr(c, root, "spec: required field is missing");
    size_t m = dpush(c, "spec");
    static const char *const allowed[] = {"levels", NULL};
    if (dkeys(c, spec, allowed)) return -1;
    if (dseq(c, spec, "levels", 16, &seq)) return -1;
    if (!seq || seq->n == 0) return derr(c, spec, "levels: required field is missing or empty");
    t->levels = ARENA_NEW(c->a, const char *, seq->n);
    t->nlevels = seq->n;
    for (size_t i = 0; i < seq->n; i++) {
        size_t m2 = dpush(c, ".levels[%zu]", i);
        const ynode *e = seq->vals[i];
        static const char *const lk[] = {"nodeLabel", NULL};
        if (y_expect(e, YN_MAP, dwhat(c), c->err) || dkeys(c, e, lk)) return -1;
        if (dstr(c, e, "nodeLabel", true, &t->levels[i])) return -1;
        if (!t->levels[i][0]) return derr(c, ymap_get(e, "nodeLabel"), "nodeLabel: must not be empty");
        for (size_t j = 0; j < i; j++)
            if (!strcmp(t->levels[j], t->levels[i]))
                return derr(c, ymap_get(e, "nodeLabel"), "nodeLabel: must be unique ('%s' twice)", t->levels[i]);
        if (!strcmp(t->levels[i], "kubernetes.io/hostname") && i + 1 < seq->n)
            return derr(c, ymap_get(e, "nodeLabel"),
                        "nodeLabel: the kubernetes.io/hostname label can only be used at the lowest level of topology");
        dpop(c, m2);
    }
    dpop(c, m);
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
