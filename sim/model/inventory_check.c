/*
 * inventory_check.c -- consistency of a recorded inventory's DRA objects
 * across slices, which the API server cannot check one object at a time.
 *
 * Kubernetes accepts each ResourceSlice on its own (validation of one object:
 * unique device names within the slice, well-formed counters). Across
 * slices, the scheduler's allocator decides (k8s.io/dynamic-resource-allocation
 * structured/internal/{stable,incubating}: pools*.go GatherPools, 1.34-1.36, and drasim's
 * alloc/alloc_pools.c after it): a pool whose newest generation has fewer
 * slices than resourceSliceCount is incomplete, and a pool with a device name
 * twice or a device consuming an unknown counter set or counter is invalid,
 * so its devices are never allocated. Those are warnings here (the run
 * reproduces what the scheduler would do). A slice (or device) bound to a Node
 * that the inventory does not hold is an error: its devices could never be
 * reached, and a real cluster deletes such slices with their Node (the kubelet
 * plugin's slices are owned by the Node object).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/inventory_parts.h"
#include "model/k8s_decode.h"
#include "util/xalloc.h"

static int by_ptr(const void *a, const void *b) {
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    return x < y ? -1 : x > y;
}

/* "FILE:LINE:COL: ResourceSlice NAME: message\n" appended to out. */
static void at_slice(strbuf *out, const k8s_resource_slice *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void at_slice(strbuf *out, const k8s_resource_slice *s, const char *fmt, ...) {
    sb_printf(out, "%s:%d:%d: ResourceSlice %s: ", s->meta.file ? s->meta.file : "", s->meta.line, s->meta.col,
              s->meta.name ? s->meta.name : "");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(out, fmt, ap);
    va_end(ap);
    sb_putc(out, '\n');
}

/* Slices ordered by driver, pool, newest generation first, then input order. */
typedef struct slice_ref { const k8s_resource_slice *s; size_t idx; } slice_ref;
static int by_pool(const void *a, const void *b) {
    const slice_ref *x = a, *y = b;
    int c = strcmp(x->s->driver ? x->s->driver : "", y->s->driver ? y->s->driver : "");
    if (!c) c = strcmp(x->s->pool ? x->s->pool : "", y->s->pool ? y->s->pool : "");
    if (!c) c = x->s->generation > y->s->generation ? -1 : x->s->generation < y->s->generation;
    if (!c) c = x->idx < y->idx ? -1 : x->idx > y->idx;
    return c;
}

static const k8s_counter_set *find_set(const slice_ref *sl, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < sl[i].s->nshared_counters; c++)
            if (sl[i].s->shared_counters[c].name == name) return &sl[i].s->shared_counters[c];
    return NULL;
}

/* One pool's newest generation, sl[0..n): incomplete, duplicate devices,
 * unknown counters. Warnings only (see the top of the file). */
static void check_pool(const slice_ref *sl, size_t n, strbuf *warn) {
    const k8s_resource_slice *first = sl[0].s;
    if (first->slice_count > 0 && (int64_t)n != first->slice_count)
        at_slice(warn, first, "pool %s/%s generation %lld has %zu of its %lld slices (resourceSliceCount): "
                 "the allocator treats the pool as incomplete and allocates none of its devices",
                 first->driver, first->pool, (long long)first->generation, n, (long long)first->slice_count);
    size_t ndev = 0;
    for (size_t i = 0; i < n; i++) ndev += sl[i].s->ndevices;
    const char **names = xmalloc((ndev ? ndev : 1) * sizeof *names);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t d = 0; d < sl[i].s->ndevices; d++) names[m++] = sl[i].s->devices[d].name;
    qsort(names, m, sizeof *names, by_ptr);
    for (size_t i = 1; i < m; i++)
        if (names[i] == names[i - 1]) {
            at_slice(warn, first, "pool %s/%s lists device %s more than once: the allocator treats the pool as "
                     "invalid and allocates none of its devices", first->driver, first->pool, names[i]);
            break;
        }
    free(names);
    for (size_t i = 0; i < n; i++)
        for (size_t d = 0; d < sl[i].s->ndevices; d++) {
            const k8s_device *dev = &sl[i].s->devices[d];
            for (size_t c = 0; c < dev->nconsumes; c++) {
                const k8s_counter_set *cs = dev->consumes[c].name ? find_set(sl, n, dev->consumes[c].name) : NULL;
                if (!cs) {
                    at_slice(warn, sl[i].s, "device %s consumes counters from counter set %s, which no slice of pool "
                             "%s/%s defines: the allocator treats the pool as invalid and allocates none of its devices",
                             dev->name, dev->consumes[c].name ? dev->consumes[c].name : "", first->driver, first->pool);
                    return;
                }
                for (size_t q = 0; q < dev->consumes[c].ncounters; q++) {
                    const char *want = dev->consumes[c].counters[q].name;
                    size_t j = 0;
                    while (j < cs->ncounters && cs->counters[j].name != want) j++;
                    if (j == cs->ncounters) {
                        at_slice(warn, sl[i].s, "device %s consumes counter %s, which counter set %s of pool %s/%s "
                                 "does not define: the allocator treats the pool as invalid and allocates none of its "
                                 "devices", dev->name, want, cs->name, first->driver, first->pool);
                        return;
                    }
                }
            }
        }
}

int inventory_check_recorded(const k8s_objects *o, strbuf *warn, strbuf *err) {
    size_t nn = o->nodes.len, ns = o->slices.len;
    const char **nodes = xmalloc((nn ? nn : 1) * sizeof *nodes);
    for (size_t i = 0; i < nn; i++) nodes[i] = o->nodes.data[i]->meta.name;
    qsort(nodes, nn, sizeof *nodes, by_ptr);
    for (size_t i = 0; i < ns; i++) {
        const k8s_resource_slice *s = o->slices.data[i];
        const char *missing = NULL;
        if (s->node_name && !bsearch(&s->node_name, nodes, nn, sizeof *nodes, by_ptr)) missing = s->node_name;
        for (size_t d = 0; !missing && d < s->ndevices; d++) {
            const char *dn = s->devices[d].node_name;
            if (dn && !bsearch(&dn, nodes, nn, sizeof *nodes, by_ptr)) missing = dn;
        }
        if (missing) {
            sb_clear(err);
            at_slice(err, s, "nodeName %s: the inventory has no such Node (its devices could never be allocated)",
                     missing);
            err->s[--err->len] = 0;   /* no trailing newline in an error */
            free(nodes);
            return -1;
        }
    }
    free(nodes);
    slice_ref *refs = xmalloc((ns ? ns : 1) * sizeof *refs);
    for (size_t i = 0; i < ns; i++) refs[i] = (slice_ref){o->slices.data[i], i};
    qsort(refs, ns, sizeof *refs, by_pool);
    for (size_t i = 0; i < ns;) {
        size_t j = i + 1;   /* the newest generation of one pool: refs[i..j) */
        while (j < ns && refs[j].s->driver == refs[i].s->driver && refs[j].s->pool == refs[i].s->pool &&
               refs[j].s->generation == refs[i].s->generation)
            j++;
        check_pool(refs + i, j - i, warn);
        while (j < ns && refs[j].s->driver == refs[i].s->driver && refs[j].s->pool == refs[i].s->pool) j++;
        i = j;   /* older generations are ignored, as by the allocator */
    }
    free(refs);
    return 0;
}
