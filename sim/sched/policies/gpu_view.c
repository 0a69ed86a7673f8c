/* gpu_view.c -- the scheduler's per-GPU view of the nodes (see gpu_view.h). */
#include "sched/policies/gpu_view.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void gpu_view_init(gpu_view *v, size_t nnodes) {
    memset(v, 0, sizeof *v);
    v->nnodes = nnodes;
    v->replicas = 1;
    v->nodes = xcalloc(nnodes ? nnodes : 1, sizeof *v->nodes);
    v->frag = xcalloc(nnodes ? nnodes : 1, sizeof *v->frag);
    v->dirty = xcalloc(nnodes ? nnodes : 1, sizeof *v->dirty);
    v->strand = xcalloc(nnodes ? nnodes : 1, sizeof *v->strand);
    v->fit = xcalloc(nnodes ? nnodes : 1, sizeof *v->fit);
    v->dirty_list = xmalloc((nnodes ? nnodes : 1) * sizeof *v->dirty_list);
}

void gpu_view_free(gpu_view *v) {
    free(v->nodes);
    free(v->frag);
    free(v->dirty);
    free(v->dirty_list);
    free(v->strand);
    free(v->fit);
    free(v->memo);
    memset(v, 0, sizeof *v);
}

int gpu_view_model_id(const gpu_view *v, const char *model) {
    for (int i = 0; model && i < v->nmodels; i++)
        if (v->models[i] == model) return i;
    return -1;
}

void gpu_view_set_node(gpu_view *v, size_t i, int64_t cpu_milli, int64_t mem_mib, int32_t pods, int ngpu,
                       const char *model) {
    int id = -1;
    if (model && *model) {   /* every model named gets an id, also on nodes without GPUs (trace node lists) */
        id = gpu_view_model_id(v, model);
        if (id < 0 && v->nmodels < GV_MAX_MODELS) {
            v->models[v->nmodels] = model;
            id = v->nmodels++;
        }
    }
    gs_node *n = &v->nodes[i];
    v->idle_milli -= gs_free_total(n);
    v->total_milli -= (int64_t)n->ngpu * GS_MILLI;
    gs_node_init(n, cpu_milli, mem_mib, pods, ngpu, id);
    v->idle_milli += gs_free_total(n);
    v->total_milli += (int64_t)n->ngpu * GS_MILLI;
    if (cpu_milli > v->max_cpu) v->max_cpu = cpu_milli;
    if ((int64_t)n->ngpu * GS_MILLI > v->max_gpu_milli) v->max_gpu_milli = (int64_t)n->ngpu * GS_MILLI;
}

void gpu_view_sync(gpu_view *v);

/* Node i changed by `didle` idle milli: the totals now, F_n when read. */
static void changed(gpu_view *v, size_t i, int64_t didle) {
    v->idle_milli += didle;
    v->used_milli -= didle;
    v->changes++;
    if (v->typical && !v->dirty[i]) {
        if (v->ndirty == v->nnodes) gpu_view_sync(v);   /* stale entries of nodes synced one by one */
        v->dirty[i] = 1;
        v->dirty_list[v->ndirty++] = (uint32_t)i;
    }
}

/* A node state as the measures see it, and what they gave: F_n, stranded
 * milli, fitting sizes. The memo is direct-mapped by a hash of the state and
 * checks the whole state, so a hit returns exactly what measuring gives. */
typedef struct gv_state {
    int64_t cpu_left, mem_left;
    int16_t free[GS_MAX_GPUS];
    int16_t model;
    uint8_t ngpu, pods_ok;
    uint8_t pad[4];        /* a whole number of 64-bit words, zeroed */
} gv_state;
_Static_assert(sizeof(gv_state) % 8 == 0, "gv_state is hashed as 64-bit words");
typedef struct gv_memo {
    gv_state key;
    bool used;
    double f;
    int64_t strand;
    uint8_t fit;
} gv_memo;
#define GV_MEMO_SIZE 4096

static gv_state state_of(const gs_node *n) {
    gv_state k;
    memset(&k, 0, sizeof k);   /* padding too: states are compared with memcmp */
    k.cpu_left = n->cpu_left;
    k.mem_left = n->mem_left;
    for (int g = 0; g < n->ngpu; g++) k.free[g] = n->free[g];
    k.model = (int16_t)n->model;
    k.ngpu = (uint8_t)n->ngpu;
    k.pods_ok = n->pods_left > 0;
    return k;
}

static uint64_t state_hash(const gv_state *k) {
    uint64_t w[sizeof *k / 8], h = 0x9e3779b97f4a7c15ULL;
    memcpy(w, k, sizeof w);
    for (size_t i = 0; i < sizeof w / sizeof *w; i++) {
        h ^= w[i];
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    return h;
}

/* Node i's F_n, stranded milli and fitting sizes, and the sums, recomputed. */
static void measure_node(gpu_view *v, size_t i) {
    gv_state key = state_of(&v->nodes[i]);
    if (!v->memo) v->memo = xcalloc(GV_MEMO_SIZE, sizeof *v->memo);
    gv_memo *e = &v->memo[state_hash(&key) & (GV_MEMO_SIZE - 1)];
    if (!e->used || memcmp(&e->key, &key, sizeof key)) {
        double zero = 0;
        gpu_metrics m;
        gpu_metrics_compute(&v->nodes[i], 1, &zero, v->typical, &m);
        *e = (gv_memo){.key = key, .used = true, .f = frag_node(&v->nodes[i], v->typical),
                       .strand = (int64_t)(m.stranded_gpus * GS_MILLI + 0.5)};
        for (int k = 0; k < GPU_METRICS_NFIT; k++) e->fit += (uint8_t)m.nodes_fit[k];
        v->memo_misses++;
    } else {
        v->memo_hits++;
    }
    double f = e->f;
    v->frag_total += f - v->frag[i];
    if (v->frag_fixed_on) frag_fixed_change(&v->frag_fixed, v->frag[i], f);
    v->frag[i] = f;
    int64_t strand = e->strand;
    v->strand_total += strand - v->strand[i];
    v->strand[i] = strand;
    uint8_t fit = e->fit;
    for (int k = 0; k < GPU_METRICS_NFIT; k++) v->fit_total[k] += (k < fit) - (k < v->fit[i]);
    v->fit[i] = fit;   /* the sizes fit from the smallest up: a count says which */
}

void gpu_view_sync_node(gpu_view *v, size_t i) {
    if (!v->dirty[i]) return;
    v->dirty[i] = 0;   /* its entry in dirty_list is skipped by gpu_view_sync */
    measure_node(v, i);
}

void gpu_view_sync(gpu_view *v) {
    for (size_t k = 0; k < v->ndirty; k++) gpu_view_sync_node(v, v->dirty_list[k]);
    v->ndirty = 0;
}

void gpu_view_keep_frag_sum(gpu_view *v) {
    if (v->frag_fixed_on) return;
    v->frag_fixed_on = true;
    frag_fixed_reset(&v->frag_fixed);   /* the sum of frag[] as it stands; measure_node keeps it from here */
    for (size_t i = 0; i < v->nnodes; i++) frag_fixed_change(&v->frag_fixed, 0, v->frag[i]);
}

void gpu_view_set_typical(gpu_view *v, const frag_typical *t) {
    v->typical = t;
    if (v->memo) memset(v->memo, 0, GV_MEMO_SIZE * sizeof *v->memo);   /* measured against other typical pods */
    v->frag_total = 0;
    frag_fixed_reset(&v->frag_fixed);
    v->ndirty = 0;
    v->strand_total = 0;
    memset(v->fit_total, 0, sizeof v->fit_total);
    for (size_t i = 0; i < v->nnodes; i++) {
        v->dirty[i] = 0;
        v->frag[i] = v->strand[i] = v->fit[i] = 0;
        if (t) measure_node(v, i);
    }
}

void gpu_view_take(gpu_view *v, size_t i, const gs_pod *p, uint32_t gpus) {
    int64_t before = gs_free_total(&v->nodes[i]);
    gs_take(&v->nodes[i], p, gpus);
    changed(v, i, gs_free_total(&v->nodes[i]) - before);
}

void gpu_view_give(gpu_view *v, size_t i, const gs_pod *p, uint32_t gpus) {
    int64_t before = gs_free_total(&v->nodes[i]);
    gs_give(&v->nodes[i], p, gpus);
    changed(v, i, gs_free_total(&v->nodes[i]) - before);
}

void gpu_view_take_milli(gpu_view *v, size_t i, const gs_pod *p, const int16_t milli[GS_MAX_GPUS], int sign) {
    gs_node *n = &v->nodes[i];
    int64_t d = 0;
    n->cpu_left -= sign * p->cpu;
    n->mem_left -= sign * p->mem;
    n->pods_left -= sign;
    for (int g = 0; g < n->ngpu; g++) {
        n->free[g] = (int16_t)(n->free[g] - sign * milli[g]);
        d += milli[g];
    }
    if (p->milli > 0) {   /* the affinity kind counts the GPU pod (gs_affinity, as gs_take/gs_give) */
        int a = gs_affinity(p);
        if (a >= 0 && a <= GS_MAX_GPUS) {
            if (sign > 0 && n->aff[a]++ == 0) n->naff++;
            if (sign < 0 && n->aff[a] > 0 && --n->aff[a] == 0) n->naff--;
        }
    }
    changed(v, i, -sign * d);
}

void gpu_view_add_gpus(gpu_view *v, size_t i, const int16_t milli[GS_MAX_GPUS], int sign) {
    gs_node *n = &v->nodes[i];
    int64_t d = 0;
    for (int g = 0; g < n->ngpu; g++) {
        n->free[g] = (int16_t)(n->free[g] - sign * milli[g]);
        d += milli[g];
    }
    if (d) changed(v, i, -sign * d);
}

void gpu_view_metrics(gpu_view *v, gpu_metrics *out) {
    gpu_view_sync(v);
    memset(out, 0, sizeof *out);
    out->gpus = (double)v->total_milli / GS_MILLI;
    out->idle_gpus = (double)v->idle_milli / GS_MILLI;
    out->frag_gpus = v->frag_total / GS_MILLI;
    out->stranded_gpus = (double)v->strand_total / GS_MILLI;
    for (int k = 0; k < GPU_METRICS_NFIT; k++) out->nodes_fit[k] = v->fit_total[k];
    out->mig_frag_pct = -1;
}
