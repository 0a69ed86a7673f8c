/*
 * resources_plain.h -- NodeResourcesFit's Filter and its LeastAllocated /
 * MostAllocated Score over cpu and memory, and NodeResourcesBalancedAllocation,
 * as inline arithmetic on one node's rows. The scheduler's refresh takes this
 * path (sched.c, s->plain) when these are its only Filter and Score plugins
 * (kube-scheduler's default profile in device-plugin mode) instead of calling
 * each plugin's hook: one refresh per (class, changed node), ~6 per pod.
 * plugins_resources.c uses the same per-resource helpers, so both paths give
 * the same scores (kubernetes v1.33 pkg/scheduler/framework/plugins/
 * noderesources: least_allocated.go, most_allocated.go,
 * balanced_allocation.go).
 */
#ifndef DRASIM_SCHED_RESOURCES_PLAIN_H
#define DRASIM_SCHED_RESOURCES_PLAIN_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "sched/plugins/score_math.h"
#include "sched/sched.h"

#define RES_MAX_NODE_SCORE 100

/* floor(a * 100 / alloc) for 0 <= a, alloc > 0: in 64 bits when the product
 * cannot wrap (always, below 92 Pi), else exactly in 128 (score_math.h). */
static inline int64_t res_pct(int64_t a, int64_t alloc) {
    if (a >= 0 && alloc > 0 && alloc <= INT64_MAX / RES_MAX_NODE_SCORE) return a * RES_MAX_NODE_SCORE / alloc;
    return score_mul_div(a, RES_MAX_NODE_SCORE, alloc);
}

/* One resource's LeastAllocated (leastRequestedScore) or MostAllocated
 * (mostRequestedScore) score, requested `req` of `alloc` (> 0). */
static inline int64_t res_fit_score(int64_t req, int64_t alloc, bool most) {
    if (most) return res_pct(req > alloc ? alloc : req, alloc);
    return req > alloc ? 0 : res_pct(alloc - req, alloc);
}

/* balancedResourceScorer from the requested fractions of cpu and memory (n of
 * them, the resources the node has): 100 * (1 - std), fractions capped at 1. */
static inline int64_t res_balanced(const double *f, int n) {
    double std = n == 2 ? fabs((f[0] - f[1]) / 2) : 0;
    return (int64_t)((1 - std) * RES_MAX_NODE_SCORE);
}
static inline double res_fraction(int64_t req, int64_t alloc) {
    double x = (double)req / (double)alloc;
    return x > 1 ? 1 : x;
}

/* NodeResourcesFit's Filter (fit_filter without reasons): class c fits `node`'s free resources. */
static inline bool res_plain_fits(const scheduler *s, const pod_class *c, size_t node) {
    const int64_t *alloc = &s->alloc[node * s->nres], *used = &s->used[node * s->nres];
    if (!(used[RES_PODS] + 1 <= alloc[RES_PODS])) return false;
    for (size_t i = 0; i < c->ndemand; i++) {
        size_t r = c->demand[i].res;
        if (c->demand[i].amount > score_add_sat(alloc[r], -used[r])) return false;
    }
    return true;
}

/* The weighted score sum of NodeResourcesFit (weight wf; cpu and memory
 * scored with weights s->score_weights, nothing else) and BalancedAllocation
 * (weight wb) for class c on `node`, as fit_score and balanced_score give. */
static inline int64_t res_plain_score(const scheduler *s, const pod_class *c, size_t node, int64_t wf, int64_t wb,
                                      bool most) {
    const int64_t *alloc = &s->alloc[node * s->nres];
    int64_t total = 0;
    if (wf) {
        int64_t sum = 0, wsum = 0;
        for (size_t r = RES_CPU; r <= RES_MEMORY; r++) {
            int64_t w = s->score_weights[r];
            if (!w || alloc[r] == 0) continue;
            int64_t req = score_add_sat(s->nz_used[node * 2 + r], r == RES_CPU ? c->nz_cpu : c->nz_mem);
            sum += res_fit_score(req, alloc[r], most) * w;
            wsum += w;
        }
        total += wf * (wsum ? sum / wsum : 0);
    }
    if (wb && (c->req_cpu || c->req_mem)) {   /* both 0: PreScore skips the plugin (score 0) */
        const int64_t *used = &s->used[node * s->nres];
        double f[2];
        int n = 0;
        if (alloc[RES_CPU] != 0) f[n++] = res_fraction(score_add_sat(used[RES_CPU], c->req_cpu), alloc[RES_CPU]);
        if (alloc[RES_MEMORY] != 0) f[n++] = res_fraction(score_add_sat(used[RES_MEMORY], c->req_mem), alloc[RES_MEMORY]);
        total += wb * res_balanced(f, n);
    }
    return total;
}

#endif
