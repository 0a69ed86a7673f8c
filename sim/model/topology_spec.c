/* topology_spec.c -- a node pool's racks and blocks as node labels (see topology_spec.h). */
#include "model/topology_spec.h"

#include <stdio.h>

#include "util/intern.h"

static int get_count(const ynode *m, const char *key, int lo, int hi, bool need, int *out, strbuf *err) {
    const ynode *v = ymap_get(m, key);
    if (!v) {
        if (need) {
            yerr(err, m, "missing field '%s' in topology", key);
            return -1;
        }
        return 0;
    }
    int64_t x;
    if (y_int(v, key, &x, err)) return -1;
    if (x < lo || x > hi) {
        yerr(err, v, "topology.%s: expected %d to %d, found %lld", key, lo, hi, (long long)x);
        return -1;
    }
    *out = (int)x;
    return 0;
}

int pool_topology_parse(const ynode *n, arena *a, node_pool_spec *p, bool count_given, strbuf *err) {
    static const char *const keys[] = {"racks", "nodesPerRack", "racksPerBlock", "imex", NULL};
    if (y_expect(n, YN_MAP, "topology", err) || ymap_check_keys(n, keys, "topology", err)) return -1;
    pool_topology *t = ARENA_NEW(a, pool_topology, 1);
    t->where = n;
    t->imex = true;
    if (get_count(n, "racks", 1, 100000, true, &t->racks, err) ||
        get_count(n, "nodesPerRack", 1, 10000, true, &t->nodes_per_rack, err) ||
        get_count(n, "racksPerBlock", 1, 100000, false, &t->racks_per_block, err))
        return -1;
    const ynode *v = ymap_get(n, "imex");
    if (v && y_bool(v, "topology.imex", &t->imex, err)) return -1;
    int64_t nodes = (int64_t)t->racks * t->nodes_per_rack;
    if (nodes > 1000000) {
        yerr(err, n, "topology: racks x nodesPerRack = %lld nodes, more than 1000000", (long long)nodes);
        return -1;
    }
    if (!count_given) p->count = (int)nodes;
    else if (p->count != nodes) {
        yerr(err, n, "topology: racks x nodesPerRack = %d x %d = %lld nodes, but the pool's count is %d", t->racks,
             t->nodes_per_rack, (long long)nodes, p->count);
        return -1;
    }
    p->topology = t;
    return 0;
}

/* A UUID (version 4 layout) drawn from the pool name and rack: the rack's NVLink fabric. */
void fabric_uuid(const char *pool, int rack, char out[37]) {
    uint64_t h1 = 1469598103934665603ULL, h2;
    for (const char *s = pool; *s; s++) h1 = (h1 ^ (uint8_t)*s) * 1099511628211ULL;
    h1 = (h1 ^ (uint64_t)rack) * 1099511628211ULL;
    h2 = (h1 ^ 0x9e3779b97f4a7c15ULL) * 0xbf58476d1ce4e5b9ULL;
    h2 ^= h2 >> 31;
    snprintf(out, 37, "%08x-%04x-4%03x-%04x-%012llx", (unsigned)(h1 >> 32), (unsigned)(h1 >> 16) & 0xffff,
             (unsigned)h1 & 0xfff, 0x8000 | ((unsigned)(h2 >> 48) & 0x3fff),
             (unsigned long long)(h2 & 0xffffffffffffULL));
}

void pool_topology_labels(const node_pool_spec *p, const gpu_model *m, int idx, kv_vec *labels) {
    const pool_topology *t = p->topology;
    int rack = idx / t->nodes_per_rack;
    kv_setf(labels, TOPO_RACK_KEY, "%s-r%d", p->name, rack);
    if (t->racks_per_block) kv_setf(labels, TOPO_BLOCK_KEY, "%s-b%d", p->name, rack / t->racks_per_block);
    if (m && m->nvlink_domain_gpus > (m->node_gpus ? m->node_gpus : p->gpus)) {   /* multi-node NVLink */
        char uuid[37];
        fabric_uuid(p->name, rack, uuid);
        kv_setf(labels, TOPO_CLIQUE_KEY, "%s.1", uuid);
    }
}
