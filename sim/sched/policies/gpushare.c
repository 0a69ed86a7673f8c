/* gpushare.c -- milli-GPU accounting per GPU (see gpushare.h). */
#include "sched/policies/gpushare.h"

#include "model/openb_trace.h"

#include <string.h>

void gs_node_init(gs_node *n, int64_t cpu_milli, int64_t mem_mib, int32_t max_pods, int ngpu, int model) {
    memset(n, 0, sizeof *n);
    n->cpu_cap = n->cpu_left = cpu_milli;
    n->mem_left = mem_mib;
    n->pods_left = max_pods;
    n->ngpu = ngpu > GS_MAX_GPUS ? GS_MAX_GPUS : ngpu;
    n->model = n->ngpu > 0 ? model : -1;
    for (int g = 0; g < n->ngpu; g++) n->free[g] = GS_MILLI;
}

int64_t gs_free_total(const gs_node *n) {
    int64_t t = 0;
    for (int g = 0; g < n->ngpu; g++) t += n->free[g];
    return t;
}

int gs_fully_free(const gs_node *n) {
    int k = 0;
    for (int g = 0; g < n->ngpu; g++) k += n->free[g] == GS_MILLI;
    return k;
}

bool gs_gpu_room(const gs_node *n, const gs_pod *p) {
    if (p->milli <= 0) return true;
    if (n->ngpu == 0 || !gs_model_ok(n, p)) return false;
    if (gs_is_share(p)) {
        for (int g = 0; g < n->ngpu; g++)
            if (n->free[g] >= p->milli) return true;
        return false;
    }
    return gs_fully_free(n) >= p->ngpu;
}

bool gs_fits(const gs_node *n, const gs_pod *p) {
    if (n->cpu_left < p->cpu || n->mem_left < p->mem || n->pods_left <= 0) return false;
    return gs_gpu_room(n, p);
}

int gs_best_gpu(const gs_node *n, const gs_pod *p) {
    int best = -1;
    for (int g = 0; g < n->ngpu; g++)
        if (n->free[g] >= p->milli && (best < 0 || n->free[g] < n->free[best])) best = g;
    return best;
}

uint32_t gs_exclusive(const gs_node *n, int k) {
    uint32_t m = 0;
    for (int g = 0; g < n->ngpu && k > 0; g++)
        if (n->free[g] == GS_MILLI) {
            m |= 1u << g;
            k--;
        }
    return k > 0 ? 0 : m;
}

uint32_t gs_default_gpus(const gs_node *n, const gs_pod *p) {
    if (p->milli <= 0) return 0;
    if (gs_is_share(p)) {
        int g = gs_best_gpu(n, p);
        return g < 0 ? 0 : 1u << g;
    }
    return gs_exclusive(n, p->ngpu);
}

static void affinity_add(gs_node *n, const gs_pod *p, int d) {
    int a = gs_affinity(p);
    if (a < 0 || a > GS_MAX_GPUS) return;
    if (d > 0 && n->aff[a]++ == 0) n->naff++;
    if (d < 0 && n->aff[a] > 0 && --n->aff[a] == 0) n->naff--;
}

void gs_take(gs_node *n, const gs_pod *p, uint32_t gpus) {
    n->cpu_left -= p->cpu;
    n->mem_left -= p->mem;
    n->pods_left--;
    for (int g = 0; g < n->ngpu; g++)
        if ((gpus >> g) & 1) n->free[g] = (int16_t)(n->free[g] - p->milli);
    affinity_add(n, p, +1);
}

void gs_give(gs_node *n, const gs_pod *p, uint32_t gpus) {
    n->cpu_left += p->cpu;
    n->mem_left += p->mem;
    n->pods_left++;
    for (int g = 0; g < n->ngpu; g++)
        if ((gpus >> g) & 1) n->free[g] = (int16_t)(n->free[g] + p->milli);
    affinity_add(n, p, -1);
}

bool gs_spec_allows(const char *spec, const char *model) { return openb_spec_allows(spec, model); }
