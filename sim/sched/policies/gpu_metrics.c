/* gpu_metrics.c -- placement-quality measures of one GPU view (see gpu_metrics.h). */
#include "sched/policies/gpu_metrics.h"

#include <string.h>

static bool is_gpu_shape(const gs_pod *m) { return m->ngpu > 0 && m->milli > 0; }

/* Does shape m (NULL: any pod at all) have CPU, memory and a pod slot on n?
 * A request of 0 still needs something left (gpu_metrics.h). */
static bool has_room(const gs_node *n, const gs_pod *m) {
    int64_t cpu = m && m->cpu > 1 ? m->cpu : 1, mem = m && m->mem > 1 ? m->mem : 1;
    return n->cpu_left >= cpu && n->mem_left >= mem && n->pods_left > 0;
}

/* Is node n stranded: no GPU shape of t has room (no GPU shape: nothing left)? */
static bool stranded(const gs_node *n, const frag_typical *t) {
    bool any = false;
    for (size_t i = 0; t && i < t->n; i++) {
        const gs_pod *m = &t->pods[i].shape;
        if (!is_gpu_shape(m)) continue;
        any = true;
        if (has_room(n, m)) return false;
    }
    return any || !has_room(n, NULL);
}

/* The GPU shape with the least CPU, then the least memory, first in t on
 * ties; NULL when t has none. */
static const gs_pod *smallest_gpu_shape(const frag_typical *t) {
    const gs_pod *best = NULL;
    for (size_t i = 0; t && i < t->n; i++) {
        const gs_pod *m = &t->pods[i].shape;
        if (!is_gpu_shape(m)) continue;
        if (!best || m->cpu < best->cpu || (m->cpu == best->cpu && m->mem < best->mem)) best = m;
    }
    return best;
}

void gpu_metrics_compute(const gs_node *nodes, size_t n, const double *node_frag, const frag_typical *t,
                         gpu_metrics *out) {
    memset(out, 0, sizeof *out);
    out->mig_frag_pct = -1;
    const gs_pod *small = smallest_gpu_shape(t);
    int64_t gpus = 0, idle = 0, strand = 0;
    double frag = 0;
    for (size_t i = 0; i < n; i++) {
        const gs_node *nd = &nodes[i];
        int64_t free = gs_free_total(nd);
        gpus += nd->ngpu;
        idle += free;
        if (node_frag) frag += node_frag[i];
        else if (t && free > 0) frag += frag_node(nd, t);
        if (free > 0 && stranded(nd, t)) strand += free;
        if (nd->ngpu > 0 && has_room(nd, small)) {
            int whole = gs_fully_free(nd);
            for (int k = 0; k < GPU_METRICS_NFIT; k++) out->nodes_fit[k] += whole >= gpu_metrics_fit_size(k);
        }
    }
    out->gpus = (double)gpus;
    out->idle_gpus = (double)idle / GS_MILLI;
    out->frag_gpus = frag / GS_MILLI;
    out->stranded_gpus = (double)strand / GS_MILLI;
}

double gpu_metrics_mig_static_pct(size_t nprof, const int *slices, const double *demand, const int64_t *free,
                                  size_t nnodes, int64_t total_slices) {
    if (total_slices <= 0) return -1;
    double wsum = 0, free_all = 0, usable = 0;
    for (size_t k = 0; k < nprof; k++) wsum += demand[k] > 0 ? demand[k] : 0;
    for (size_t k = 0; k < nprof; k++) {
        int64_t inst = 0;
        for (size_t i = 0; i < nnodes; i++) inst += free[i * nprof + k];
        double s = (double)inst * (double)slices[k];
        free_all += s;
        if (wsum > 0 && demand[k] > 0) usable += demand[k] / wsum * s;   /* sum_m p_m * free slices of m */
    }
    return 100.0 * (free_all - usable) / (double)total_slices;
}
