/*
 * ca_util.c -- node utilization as cluster-autoscaler 1.36 computes it for
 * scale-down (simulator/utilization/info.go Calculate;
 * simulator/dynamicresources/utils/utilization.go; spec: dynamics.md 2.2):
 *   - a node with DRA ResourceSlices: the highest utilization of any
 *     (driver, pool) on it; an atomic pool (no shared counters): allocated
 *     devices / devices; a partitionable pool: per counter set the largest
 *     consumed/capacity ratio of its counters, averaged over the pool's
 *     counter sets (CA marks this calculation provisional);
 *   - a node with GPUs as an extended resource: GPU requests / allocatable
 *     (CPU and memory ignored); the GPU threshold applies;
 *   - other nodes: the larger of the CPU and memory request ratios.
 */
#include "autoscale/ca.h"

#include <stdlib.h>
#include <string.h>

#include "sched/dra/dra.h"

typedef VEC(const char *) name_vec;

/* The devices of pool (driver, pool) that pods on the node hold now (each once). */
static void held_devices(const ca_run *ca, size_t node, const char *driver, const char *pool, name_vec *out) {
    const dra_state *d = ca->r->dra;
    const ca_podvec *v = &ca->pods[node];
    out->len = 0;
    for (size_t i = 0; i < v->len; i++) {
        size_t n;
        const dra_record *rec = dra_pod_records(d, v->data[i], &n);
        for (size_t k = 0; k < n; k++) {
            if (rec[k].deleted) continue;
            const k8s_allocation *al = dra_record_allocation(d, &rec[k]);
            for (size_t j = 0; j < al->nresults; j++) {
                const k8s_device_result *res = &al->results[j];
                if (strcmp(res->pool, pool) || strcmp(res->driver, driver)) continue;
                bool dup = false;   /* a shared claim's devices appear under each of its users */
                for (size_t u = 0; u < out->len && !dup; u++) dup = !strcmp(out->data[u], res->device);
                if (!dup) VEC_PUSH(*out, res->device);
            }
        }
    }
}

static bool same_pool(const k8s_resource_slice *s, const char *driver, const char *pool) {
    return !strcmp(s->driver, driver) && !strcmp(s->pool, pool);
}

/* Utilization of the pool of slice a among slices [a, b). */
static double pool_utilization(const ca_run *ca, size_t node, const k8s_resource_slice *sl, size_t a, size_t b) {
    const char *driver = sl[a].driver, *pool = sl[a].pool;
    name_vec held = {0};
    held_devices(ca, node, driver, pool, &held);
    size_t sets = 0, devices = 0, counters = 0;
    for (size_t i = a; i < b; i++) {
        if (!same_pool(&sl[i], driver, pool)) continue;
        sets += sl[i].nshared_counters;
        devices += sl[i].ndevices;
        for (size_t c = 0; c < sl[i].nshared_counters; c++) counters += sl[i].shared_counters[c].ncounters;
    }
    double util = 0;
    if (!sets) {   /* atomic pool: allocated devices / devices */
        util = devices ? (double)held.len / (double)devices : 0;
        VEC_FREE(held);
        return util;
    }
    /* partitionable: what the held devices consume of each shared counter */
    int64_t *consumed = calloc(counters ? counters : 1, sizeof *consumed);
    for (size_t h = 0; h < held.len; h++)
        for (size_t j = a; j < b; j++) {
            if (!same_pool(&sl[j], driver, pool)) continue;
            for (size_t k = 0; k < sl[j].ndevices; k++) {
                const k8s_device *dv = &sl[j].devices[k];
                if (strcmp(dv->name, held.data[h])) continue;
                for (size_t u = 0; u < dv->nconsumes; u++) {
                    size_t off = 0;   /* find the counter set by name among the pool's slices */
                    for (size_t i = a; i < b; i++) {
                        if (!same_pool(&sl[i], driver, pool)) continue;
                        for (size_t c = 0; c < sl[i].nshared_counters; c++) {
                            const k8s_counter_set *set = &sl[i].shared_counters[c];
                            if (!strcmp(set->name, dv->consumes[u].name))
                                for (size_t w = 0; w < dv->consumes[u].ncounters; w++)
                                    for (size_t x = 0; x < set->ncounters; x++)
                                        if (!strcmp(set->counters[x].name, dv->consumes[u].counters[w].name))
                                            consumed[off + x] += quantity_value(&dv->consumes[u].counters[w].value);
                            off += set->ncounters;
                        }
                    }
                }
            }
        }
    double sum = 0;   /* per counter set its largest ratio, averaged over the sets */
    size_t off = 0;
    for (size_t i = a; i < b; i++) {
        if (!same_pool(&sl[i], driver, pool)) continue;
        for (size_t c = 0; c < sl[i].nshared_counters; c++) {
            const k8s_counter_set *set = &sl[i].shared_counters[c];
            double best = 0;
            for (size_t x = 0; x < set->ncounters; x++) {
                int64_t cap = quantity_value(&set->counters[x].value);
                if (cap > 0 && (double)consumed[off + x] / (double)cap > best) best = (double)consumed[off + x] / (double)cap;
            }
            sum += best;
            off += set->ncounters;
        }
    }
    free(consumed);
    VEC_FREE(held);
    return sum / (double)sets;
}

double ca_node_utilization(const ca_run *ca, size_t node, bool *gpu) {
    const sim_run *r = ca->r;
    const scheduler *s = &r->sched;
    size_t R = s->nres;
    *gpu = s->gv.nodes[node].ngpu > 0;
    if (r->dra && r->dra->inv && r->dra->inv->info[node].nslices) {
        const inv_node *in = &r->dra->inv->info[node];
        const k8s_resource_slice *sl = r->dra->inv->slices;
        size_t a = in->first_slice, b = in->first_slice + in->nslices;
        double best = 0;
        for (size_t i = a; i < b; i++) {
            bool first = true;   /* each (driver, pool) once: at its first slice */
            for (size_t j = a; j < i && first; j++)
                first = strcmp(sl[j].driver, sl[i].driver) || strcmp(sl[j].pool, sl[i].pool);
            if (!first) continue;
            double u = pool_utilization(ca, node, sl, i, b);
            if (u > best) best = u;
        }
        return best;
    }
    double gpu_alloc = 0, gpu_used = 0;
    for (size_t k = RES_PODS + 1; k < R; k++) {
        if (r->res_equiv[k] <= 0) continue;
        gpu_alloc += (double)s->alloc[node * R + k] * r->res_equiv[k];
        gpu_used += (double)s->used[node * R + k] * r->res_equiv[k];
    }
    if (gpu_alloc > 0) {
        *gpu = true;
        return gpu_used / gpu_alloc;
    }
    double cpu = s->alloc[node * R + RES_CPU] > 0
                     ? (double)s->used[node * R + RES_CPU] / (double)s->alloc[node * R + RES_CPU] : 0;
    double mem = s->alloc[node * R + RES_MEMORY] > 0
                     ? (double)s->used[node * R + RES_MEMORY] / (double)s->alloc[node * R + RES_MEMORY] : 0;
    return cpu > mem ? cpu : mem;
}

double ca_node_utilization_cached(ca_run *ca, size_t node, bool *gpu) {
    if (!(ca->util_ok[node] & 1)) {
        bool g;
        ca->util[node] = ca_node_utilization(ca, node, &g);
        ca->util_ok[node] = (uint8_t)(1 | (g ? 2 : 0));
    }
    *gpu = (ca->util_ok[node] & 2) != 0;
    return ca->util[node];
}
