/*
 * plugins_resources.c -- NodeResourcesFit (filter + LeastAllocated /
 * MostAllocated scoring) and NodeResourcesBalancedAllocation, with
 * kube-scheduler's integer arithmetic (pkg/scheduler/framework/plugins/
 * noderesources): scores in [0, 100], weighted mean over the scored
 * resources, non-zero defaults (100m cpu, 200Mi memory) for scoring.
 */
#include <math.h>

#include "sched/framework.h"
#include "sched/plugins/resources_plain.h"
#include "sched/plugins/score_math.h"
#include "util/intern.h"

#define MAX_NODE_SCORE 100

static void add_reason(sched_reasons *why, const char *r) {
    if (why && why->n < (int)(sizeof why->r / sizeof *why->r)) why->r[why->n++] = r;
}

static int64_t class_request(const pod_class *c, size_t r) {
    for (size_t i = 0; i < c->ndemand; i++)
        if (c->demand[i].res == r) return c->demand[i].amount;
    return 0;
}

/* Requests larger than allocatable can never fit: decided once. */
static bool fit_static(const scheduler *s, const pod_class *c, size_t node, sched_reasons *why) {
    const int64_t *alloc = &s->alloc[node * s->nres];
    bool ok = alloc[RES_PODS] >= 1;
    if (!ok) add_reason(why, "Too many pods");
    for (size_t i = 0; i < c->ndemand; i++)
        if (c->demand[i].amount > alloc[c->demand[i].res]) {
            ok = false;
            if (why) {
                strbuf b = {0};
                sb_printf(&b, "Insufficient %s", s->res_names[c->demand[i].res]);
                add_reason(why, intern(sb_str(&b)));
                sb_free(&b);
            }
        }
    return ok;
}

static bool fit_filter(const scheduler *s, const pod_class *c, size_t node, sched_reasons *why) {
    const int64_t *alloc = &s->alloc[node * s->nres], *used = &s->used[node * s->nres];
    bool ok = used[RES_PODS] + 1 <= alloc[RES_PODS];
    if (!ok) {
        if (!why) return false;
        add_reason(why, "Too many pods");
    }
    for (size_t i = 0; i < c->ndemand; i++) {
        size_t r = c->demand[i].res;
        if (c->demand[i].amount > score_add_sat(alloc[r], -used[r])) {
            if (!why) return false;
            ok = false;
            strbuf b = {0};
            sb_printf(&b, "Insufficient %s", s->res_names[r]);
            add_reason(why, intern(sb_str(&b)));
            sb_free(&b);
        }
    }
    return ok;
}

/* requested/allocatable for scoring resource r, as calculateResourceAllocatableRequest:
 * cpu and memory use the non-zero sums; an extended resource the pod does not
 * request, or the node does not have, is left out (allocatable 0). */
static void alloc_request(const scheduler *s, const pod_class *c, size_t node, size_t r, bool non_zero,
                          int64_t *alloc_out, int64_t *req_out) {
    int64_t alloc = s->alloc[node * s->nres + r];
    *alloc_out = 0;
    *req_out = 0;
    if (r == RES_CPU || r == RES_MEMORY) {
        if (non_zero) *req_out = score_add_sat(s->nz_used[node * 2 + r], r == RES_CPU ? c->nz_cpu : c->nz_mem);
        else *req_out = score_add_sat(s->used[node * s->nres + r], class_request(c, r));
        *alloc_out = alloc;
        return;
    }
    int64_t pod = class_request(c, r);
    if (pod == 0 || alloc == 0) return;
    *alloc_out = alloc;
    *req_out = score_add_sat(s->used[node * s->nres + r], pod);
}

/* RequestedToCapacityRatio's broken linear function over utilization
 * 0..100, shape scores scaled from 0..10 to 0..100 (as kube-scheduler). */
static int64_t shape_score(const scheduler *s, int64_t util) {
    const shape_point *sh = s->cfg.shape;
    size_t n = s->cfg.nshape;
    for (size_t i = 0; i < n; i++)
        if (util <= sh[i].utilization) {
            if (i == 0) return sh[0].score * 10;
            return sh[i - 1].score * 10 + (sh[i].score - sh[i - 1].score) * 10 * (util - sh[i - 1].utilization) /
                                              (sh[i].utilization - sh[i - 1].utilization);
        }
    return n ? sh[n - 1].score * 10 : 0;
}

/* requestedToCapacityRatioScorer: resources scoring 0 are left out of the mean. */
static int64_t ratio_score(const scheduler *s, const pod_class *c, size_t node) {
    int64_t total = 0, wsum = 0;
    for (size_t r = 0; r < s->nres; r++) {
        int64_t w = s->score_weights[r];
        if (!w) continue;
        int64_t alloc, req;
        alloc_request(s, c, node, r, true, &alloc, &req);
        if (alloc == 0) continue;
        int64_t rs = shape_score(s, req > alloc ? 100 : score_mul_div(req, 100, alloc));
        if (rs > 0) {
            total += rs * w;
            wsum += w;
        }
    }
    return wsum ? llround((double)total / (double)wsum) : 0;
}

static int64_t fit_score(const scheduler *s, const pod_class *c, size_t node) {
    if (s->cfg.strategy == SCORE_REQUESTED_TO_CAPACITY_RATIO) return ratio_score(s, c, node);
    int64_t total = 0, wsum = 0;
    for (size_t r = 0; r < s->nres; r++) {
        int64_t w = s->score_weights[r];
        if (!w) continue;
        int64_t alloc, req;
        alloc_request(s, c, node, r, true, &alloc, &req);
        if (alloc == 0) continue;
        /* exact even where upstream's int64 product wraps (score_math.h) */
        total += res_fit_score(req, alloc, s->cfg.strategy == SCORE_MOST_ALLOCATED) * w;
        wsum += w;
    }
    return wsum ? total / wsum : 0;
}

const sched_plugin plugin_node_resources_fit = {
    .name = "NodeResourcesFit", .weight = 1, .filter_static = fit_static, .filter = fit_filter, .score = fit_score};

/* balancedResourceScorer over cpu and memory (the plugin's default resources):
 * 100 * (1 - std of the requested fractions), with the pod's real requests. */
static int64_t balanced_score(const scheduler *s, const pod_class *c, size_t node) {
    if (class_request(c, RES_CPU) == 0 && class_request(c, RES_MEMORY) == 0) return 0;   /* PreScore: Skip */
    double f[2];
    int n = 0;
    for (size_t r = RES_CPU; r <= RES_MEMORY; r++) {
        int64_t alloc, req;
        alloc_request(s, c, node, r, false, &alloc, &req);
        if (alloc == 0) continue;
        f[n++] = res_fraction(req, alloc);
    }
    return res_balanced(f, n);
}

const sched_plugin plugin_balanced_allocation = {.name = "NodeResourcesBalancedAllocation", .weight = 1,
                                                 .score = balanced_score};
