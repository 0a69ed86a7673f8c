/*
 * kq_afs.c -- admission fair sharing's decayed LocalQueue usage (queue/kq_afs.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "queue/kq_afs.h"
#include "util/xalloc.h"

double kq_afs_alpha(double sampling_ms, double half_life_ms) {
    if (half_life_ms == 0) return 0.0;
    return 1.0 - pow(0.5, sampling_ms / half_life_ms);
}

static int cmp_str(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

int kq_afs_res(const kq_afs *a, const char *resource) {
    for (size_t i = 0; i < a->nres; i++)
        if (a->res[i] == resource) return (int)i;
    return -1;
}

void kq_afs_init(kq_afs *a, const kq_objects *o) {
    memset(a, 0, sizeof *a);
    a->cfg = &o->config.afs;
    size_t cap = 0;
    for (size_t q = 0; q < o->cqs.len; q++)
        for (size_t g = 0; g < o->cqs.data[q]->ngroups; g++) {
            const kq_resource_group *rg = &o->cqs.data[q]->groups[g];
            for (size_t k = 0; k < rg->ncovered; k++) {
                if (kq_afs_res(a, rg->covered[k]) >= 0) continue;
                if (a->nres == cap) a->res = xrealloc(a->res, (cap = cap ? cap * 2 : 8) * sizeof *a->res);
                a->res[a->nres++] = rg->covered[k];
            }
        }
    if (a->nres > 1) qsort(a->res, a->nres, sizeof *a->res, cmp_str);
    a->res_weight = xcalloc(a->nres ? a->nres : 1, sizeof *a->res_weight);
    for (size_t i = 0; i < a->nres; i++) {
        a->res_weight[i] = 1.0;   /* a resource not in resourceWeights weighs 1 */
        for (size_t k = 0; k < a->cfg->nweights; k++)
            if (!strcmp(a->cfg->weight_names[k], a->res[i])) a->res_weight[i] = a->cfg->weights[k];
    }
    a->nlq = o->lqs.len;
    a->lqs = xcalloc(a->nlq ? a->nlq : 1, sizeof *a->lqs);
    for (size_t l = 0; l < a->nlq; l++) {
        kq_afs_lq *x = &a->lqs[l];
        const kq_local_queue *lq = o->lqs.data[l];
        x->weight = lq->fair_weight;
        for (size_t q = 0; q < o->cqs.len && a->cfg->on; q++)
            if (!strcmp(o->cqs.data[q]->meta.name, lq->cluster_queue)) x->on = o->cqs.data[q]->usage_based_afs;
        x->consumed = xcalloc(a->nres ? a->nres : 1, sizeof *x->consumed);
        x->admitted = xcalloc(a->nres ? a->nres : 1, sizeof *x->admitted);
    }
}

void kq_afs_free(kq_afs *a) {
    for (size_t l = 0; l < a->nlq; l++) {
        free(a->lqs[l].consumed);
        free(a->lqs[l].admitted);
    }
    free(a->lqs);
    free(a->res);
    free(a->res_weight);
    memset(a, 0, sizeof *a);
}

/* CalculateDecayedConsumed: old * (1 - alpha) + admitted * alpha, alpha of
 * the time since the last update (0 with halfLife 0: the history is kept). */
static void decay(kq_afs *a, kq_afs_lq *x, int64_t now) {
    double elapsed = now > x->last_update ? (double)(now - x->last_update) : 0;
    double alpha = kq_afs_alpha(elapsed, (double)a->cfg->half_life_ms);
    for (size_t i = 0; i < a->nres; i++) x->consumed[i] = x->consumed[i] * (1 - alpha) + x->admitted[i] * alpha;
    if (now > x->last_update) x->last_update = now;
}

/* reconcileConsumedUsage: halfLife 0 resets the history at each sample;
 * an admission in between keeps it (updateAfsConsumedUsage decays with
 * alpha 0 and folds a zero penalty). */
void kq_afs_sample(kq_afs *a, size_t lq, int64_t now) {
    kq_afs_lq *x = &a->lqs[lq];
    if (a->cfg->half_life_ms == 0) {
        memset(x->consumed, 0, a->nres * sizeof *x->consumed);
        if (now > x->last_update) x->last_update = now;
        return;
    }
    decay(a, x, now);
}

void kq_afs_admitted(kq_afs *a, size_t lq, const double *amt, int64_t now) {
    kq_afs_lq *x = &a->lqs[lq];
    /* CalculateEntryPenalty: the request x alpha(samplingInterval, halfLife) */
    double alpha = kq_afs_alpha((double)a->cfg->sampling_ms, (double)a->cfg->half_life_ms);
    decay(a, x, now);
    for (size_t i = 0; i < a->nres; i++) x->consumed[i] += amt[i] * alpha;
}

double kq_afs_usage(const kq_afs *a, size_t lq) {
    const kq_afs_lq *x = &a->lqs[lq];
    double u = 0;
    for (size_t i = 0; i < a->nres; i++) u += a->res_weight[i] * x->consumed[i];
    if (x->weight <= 0) return INFINITY;
    return u / x->weight;
}
