/* topo_domains.c -- a topology level's domains (see topo_domains.h). */
#include "sched/topology/topo_domains.h"

#include <stdlib.h>
#include <string.h>

#include "util/intern.h"
#include "util/xalloc.h"

const char *topo_node_label(const k8s_node *node, const char *key) {
    for (size_t i = 0; i < node->meta.nlabels; i++)
        if (!strcmp(node->meta.labels[i].key, key)) return node->meta.labels[i].value;
    return NULL;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void topo_domains_build(topo_domains *d, const k8s_node *nodes, size_t n, const char *key) {
    memset(d, 0, sizeof *d);
    d->key = intern(key);
    const char **vals = xcalloc(n ? n : 1, sizeof *vals);
    size_t nv = 0;
    for (size_t i = 0; i < n; i++) {
        const char *v = topo_node_label(&nodes[i], key);
        if (v) vals[nv++] = intern(v);
    }
    qsort(vals, nv, sizeof *vals, cmp_str);
    size_t u = 0;
    for (size_t i = 0; i < nv; i++)
        if (!u || vals[u - 1] != vals[i]) vals[u++] = vals[i];
    d->names = vals;
    d->ndomains = u;
    d->of_node = xcalloc(n ? n : 1, sizeof *d->of_node);
    d->first = xcalloc(u + 2, sizeof *d->first);
    for (size_t i = 0; i < n; i++) {
        const char *v = topo_node_label(&nodes[i], key);
        if (!v) {
            d->of_node[i] = -1;
            d->unlabelled++;
            continue;
        }
        v = intern(v);
        const char **hit = bsearch(&v, vals, u, sizeof *vals, cmp_str);
        d->of_node[i] = (int32_t)(hit - vals);
        d->first[d->of_node[i] + 1]++;
    }
    for (size_t k = 0; k < u; k++) d->first[k + 1] += d->first[k];
    d->nodes = xcalloc(n ? n : 1, sizeof *d->nodes);
    uint32_t *fill = xcalloc(u + 1, sizeof *fill);
    for (size_t i = 0; i < n; i++)
        if (d->of_node[i] >= 0) {
            int32_t k = d->of_node[i];
            d->nodes[d->first[k] + fill[k]++] = (uint32_t)i;
        }
    free(fill);
}

void topo_domains_free(topo_domains *d) {
    free(d->names);
    free(d->of_node);
    free(d->first);
    free(d->nodes);
    memset(d, 0, sizeof *d);
}
