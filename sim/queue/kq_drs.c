/*
 * kq_drs.c -- Dominant Resource Share (kubernetes-sigs/kueue ff69552e79,
 * pkg/cache/scheduler/fair_sharing.go): what a node borrows beyond its subtree
 * quota (per flavor and resource, summed per resource name) against what the
 * parent could lend (potentialAvailable summed over the root's flavors),
 * times 1000; the largest ratio is the dominant resource (ties: the smaller
 * name); divided by fairSharing.weight, reported rounded up. Nodes without a
 * parent have share 0; weight 0 while borrowing is +Inf.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "queue/kq.h"
#include "util/xalloc.h"

typedef struct by_res {
    const char *resource;
    int64_t amount;
} by_res;

static void add_res(by_res *v, size_t *n, const char *res, int64_t amt) {
    for (size_t i = 0; i < *n; i++)
        if (v[i].resource == res) { v[i].amount = kq_sat_add(v[i].amount, amt); return; }
    v[(*n)++] = (by_res){res, amt};
}

kq_drs kq_dominant_share(const kq_snapshot *s, const kq_node *n, const kq_usage *req, size_t nreq) {
    kq_drs d = {.ratio = 0, .weight = n->weight, .dominant = NULL, .borrowing = false};
    if (!n->parent || s->nfr == 0) return d;
    by_res *borrowed = xmalloc(s->nfr * sizeof *borrowed), *lendable = xmalloc(s->nfr * sizeof *lendable);
    size_t nb = 0, nl = 0;
    for (uint32_t fr = 0; fr < s->nfr; fr++) {
        if (!n->present[fr]) continue;   /* only pairs in the node's subtree quota */
        int64_t want = n->usage[fr];
        for (size_t i = 0; i < nreq; i++)
            if (req[i].fr == fr) want = kq_sat_add(want, req[i].amount);
        int64_t b = want - n->subtree[fr];
        if (b > 0) add_res(borrowed, &nb, s->frs[fr].resource, b);
    }
    if (nb) {
        d.borrowing = true;
        const kq_node *root = n->parent;
        while (root->parent) root = root->parent;
        for (uint32_t fr = 0; fr < s->nfr; fr++)
            if (root->present[fr])
                add_res(lendable, &nl, s->frs[fr].resource, kq_potential_available(n->parent, fr));
        for (size_t i = 0; i < nb; i++) {
            int64_t l = 0;
            for (size_t k = 0; k < nl; k++)
                if (lendable[k].resource == borrowed[i].resource) l = lendable[k].amount;
            if (l <= 0) continue;
            double ratio = (double)borrowed[i].amount * 1000.0 / (double)l;
            if (ratio > d.ratio || (ratio == d.ratio && d.dominant && strcmp(borrowed[i].resource, d.dominant) < 0)) {
                d.ratio = ratio;
                d.dominant = borrowed[i].resource;
            }
        }
    }
    free(borrowed);
    free(lendable);
    return d;
}

static bool zero_weight_borrows(const kq_drs *d) { return d->weight == 0 && d->ratio != 0; }

static double precise(const kq_drs *d) {
    if (d->ratio == 0) return 0;
    if (d->weight == 0) return INFINITY;
    return d->ratio / d->weight;
}

int64_t kq_drs_value(const kq_drs *d) {
    if (zero_weight_borrows(d)) return INT64_MAX;
    return (int64_t)ceil(precise(d));
}

int kq_drs_cmp(const kq_drs *a, const kq_drs *b) {
    bool za = zero_weight_borrows(a), zb = zero_weight_borrows(b);
    if (za && zb) return (a->ratio > b->ratio) - (a->ratio < b->ratio);
    if (za) return 1;
    if (zb) return -1;
    double pa = precise(a), pb = precise(b);
    return (pa > pb) - (pa < pb);
}

bool kq_borrowing_on(const kq_node *n, const kq_usage *req, size_t nreq) {
    if (!n->parent) return false;
    for (size_t i = 0; i < nreq; i++) {
        uint32_t fr = req[i].fr;
        if (req[i].amount > 0 && n->present[fr] && n->usage[fr] > n->subtree[fr]) return true;
    }
    return false;
}
