/*
 * kq_fair.c -- Kueue's fair-sharing preemption (kubernetes-sigs/kueue
 * ff69552e79, v0.19 line):
 *   pkg/scheduler/preemption/preemption.go   fairPreemptions, findCandidates,
 *       runFirstFsStrategy, runSecondFsStrategy (rule S2-b),
 *       fsStrategyUnsatisfiable, workloadFitsForFairSharing, fillBackWorkloads
 *   pkg/scheduler/preemption/fairsharing/ordering.go  TargetClusterQueueOrdering
 *       (the target ClusterQueue with the highest DRS, walking the cohort tree
 *       from the root, pruning nodes that do not borrow)
 *   pkg/scheduler/preemption/fairsharing/least_common_ancestor.go, target.go,
 *       strategy.go (LessThanOrEqualToFinalShare, LessThanInitialShare)
 * Feature gates at their defaults: FairSharingPreemptWithinNominal on (a
 * preemptor within nominal on the contested resources reclaims without a
 * share check, reason InCohortReclamation), admission fair sharing off.
 */
#include <stdlib.h>
#include <string.h>

#include "queue/kq.h"
#include "util/xalloc.h"

typedef struct fctx {
    kq_snapshot *s;
    const kq_wl *in;
    kq_node *cq;
    const kq_usage *usage;
    size_t nusage;
    /* the ordering: candidates per ClusterQueue (node index), in candidate order */
    kq_wl ***per;
    size_t *len, *pos;
    bool *pruned;                    /* per node index */
    bool *on_path;                   /* cohorts from the preemptor's parent to the root */
    /* the targets so far */
    kq_victim *t;
    size_t nt;
} fctx;

static const kq_node *root_of(const kq_node *n) {
    while (n->parent) n = n->parent;
    return n;
}

static bool has_wl(const fctx *f, const kq_node *cq) { return f->pos[cq->index] < f->len[cq->index]; }
static kq_wl *peek(const fctx *f, const kq_node *cq) { return f->per[cq->index][f->pos[cq->index]]; }
static kq_wl *pop(fctx *f, const kq_node *cq) { return f->per[cq->index][f->pos[cq->index]++]; }

/* MakeClusterQueueOrdering over `c` (already in candidate order). */
static void ordering_make(fctx *f, kq_wl **c, size_t n) {
    size_t nn = f->s->nnodes;
    for (size_t i = 0; i < nn; i++) {
        free(f->per[i]);
        f->per[i] = NULL;
        f->len[i] = f->pos[i] = 0;
        f->pruned[i] = false;
    }
    for (size_t i = 0; i < n; i++) f->len[c[i]->cq->index]++;
    for (size_t i = 0; i < nn; i++)
        if (f->len[i]) f->per[i] = xmalloc(f->len[i] * sizeof **f->per);
    size_t *k = xcalloc(nn ? nn : 1, sizeof *k);
    for (size_t i = 0; i < n; i++) {
        size_t q = c[i]->cq->index;
        f->per[q][k[q]++] = c[i];
    }
    free(k);
}

static kq_drs share(const fctx *f, const kq_node *n) { return kq_dominant_share(f->s, n, NULL, 0); }

/* nextTarget: the ClusterQueue with the highest DRS under `co`, descending
 * into the child cohort with the highest DRS when it is at least as high. */
static kq_node *next_target(fctx *f, const kq_node *co) {
    const kq_drs neg = {.ratio = -1, .weight = 1};
    kq_node *hq = NULL, *hc = NULL;
    kq_drs hq_d = neg, hc_d = neg;
    for (size_t i = 0; i < co->nchild_cqs; i++) {
        kq_node *q = co->child_cqs[i];
        if (f->pruned[q->index]) continue;
        kq_drs d = share(f, q);
        int c = kq_drs_cmp(&d, &hq_d);
        if ((!d.borrowing && q != f->cq) || !has_wl(f, q)) {
            f->pruned[q->index] = true;
        } else if (c == 0) {
            if (kq_candidate_cmp(peek(f, q), peek(f, hq), f->cq) < 0) hq = q;
        } else if (c > 0) {
            hq_d = d;
            hq = q;
        }
    }
    for (size_t i = 0; i < co->nchild_cohorts; i++) {
        kq_node *c = co->child_cohorts[i];
        if (f->pruned[c->index]) continue;
        kq_drs d = share(f, c);
        if (!d.borrowing && !f->on_path[c->index]) f->pruned[c->index] = true;
        else if (kq_drs_cmp(&d, &hc_d) >= 0) {
            hc_d = d;
            hc = c;
        }
    }
    if (!hq && !hc) {
        f->pruned[co->index] = true;
        return NULL;
    }
    if (kq_drs_cmp(&hc_d, &hq_d) >= 0) return next_target(f, hc);
    return hq;
}

/* TargetClusterQueueOrdering.Iter: the next target ClusterQueue, NULL at the end. */
static kq_node *iter_next(fctx *f) {
    if (!f->cq->parent) return !f->pruned[f->cq->index] && has_wl(f, f->cq) ? f->cq : NULL;
    const kq_node *root = root_of(f->cq);
    while (!f->pruned[root->index]) {
        kq_node *t = next_target(f, root);
        if (t) return t;
    }
    return NULL;
}

/* getAlmostLCA: the node below the lowest cohort shared with the preemptor. */
static const kq_node *almost_lca(const fctx *f, const kq_node *cq, const kq_node *target) {
    const kq_node *lca = NULL;
    for (const kq_node *a = target->parent; a && !lca; a = a->parent)
        if (f->on_path[a->index]) lca = a;
    const kq_node *x = cq;
    for (const kq_node *a = cq->parent; a; a = a->parent) {
        if (a == lca) return x;
        x = a;
    }
    return x;
}

static void preemptor_usage(fctx *f, bool add) {
    for (size_t i = 0; i < f->nusage; i++) {
        if (add) kq_add_usage(f->cq, f->usage[i].fr, f->usage[i].amount);
        else kq_remove_usage(f->cq, f->usage[i].fr, f->usage[i].amount);
    }
}

/* workloadFits with borrowing allowed, against the usage without the preemptor. */
static bool fits_now(const fctx *f) {
    for (size_t i = 0; i < f->nusage; i++)
        if (f->usage[i].amount > kq_available(f->cq, f->usage[i].fr)) return false;
    return kq_tas_hook_fits(f->s);   /* workloadFits' TAS part (kq_tas_admit.c) */
}

/* workloadFitsForFairSharing: the preemptor's usage is simulated while the shares are computed. */
static bool fits_fs(fctx *f) {
    preemptor_usage(f, false);
    bool ok = fits_now(f);
    preemptor_usage(f, true);
    return ok;
}

static void take(fctx *f, kq_wl *w, const char *reason) {
    kq_victim_usage(f->s, w, false);
    f->t[f->nt++] = (kq_victim){w, reason};
}

static bool strategy(kq_fs_strategy s, const kq_drs *preemptor_new, const kq_drs *target_old, const kq_drs *target_new) {
    if (s == KQ_FS_LE_FINAL) return kq_drs_cmp(preemptor_new, target_new) <= 0;
    return kq_drs_cmp(preemptor_new, target_old) < 0;
}

static bool is_inf(const kq_drs *d) { return d->weight == 0 && d->ratio != 0; }

/* runFirstFsStrategy: true when the preemptor fits; `retry` gets the candidates that failed. */
static bool first_strategy(fctx *f, kq_fs_strategy st, bool within_nominal, kq_wl **retry, size_t *nretry) {
    kq_node *t;
    while ((t = iter_next(f))) {
        if (t == f->cq) {
            take(f, pop(f, t), "InClusterQueue");
            if (fits_fs(f)) return true;
            continue;
        }
        if (within_nominal) {
            take(f, pop(f, t), "InCohortReclamation");
            if (fits_fs(f)) return true;
            continue;
        }
        kq_drs pnew = share(f, almost_lca(f, f->cq, t)), told = share(f, almost_lca(f, t, t));
        if (is_inf(&pnew) && !is_inf(&told)) {   /* fsStrategyUnsatisfiable */
            while (has_wl(f, t)) retry[(*nretry)++] = pop(f, t);
            continue;
        }
        while (has_wl(f, t)) {
            kq_wl *w = pop(f, t);
            kq_wl_usage(w, false);
            kq_drs tnew = share(f, almost_lca(f, t, t));
            kq_wl_usage(w, true);
            if (strategy(st, &pnew, &told, &tnew)) {
                take(f, w, "InCohortFairSharing");
                if (fits_fs(f)) return true;
                break;   /* the shares changed: choose the target ClusterQueue again */
            }
            retry[(*nretry)++] = w;
        }
    }
    return false;
}

/* runSecondFsStrategy (rule S2-b): LessThanInitialShare, one workload per ClusterQueue. */
static bool second_strategy(fctx *f, kq_wl **retry, size_t nretry) {
    ordering_make(f, retry, nretry);
    kq_node *t;
    while ((t = iter_next(f))) {
        kq_drs pnew = share(f, almost_lca(f, f->cq, t)), told = share(f, almost_lca(f, t, t));
        kq_wl *w = pop(f, t);
        if (strategy(KQ_FS_LT_INITIAL, &pnew, &told, NULL)) {
            take(f, w, "InCohortFairSharing");
            if (fits_fs(f)) return true;
        }
        f->pruned[t->index] = true;   /* DropQueue */
    }
    return false;
}

static const kq_node *g_pcq;
static int wl_cmp(const void *a, const void *b) {
    return kq_candidate_cmp(*(kq_wl *const *)a, *(kq_wl *const *)b, g_pcq);
}

size_t kq_fair_targets(kq_snapshot *s, const kq_wl *in, kq_node *cq, const uint32_t *need, size_t nneed,
                       const kq_usage *usage, size_t nusage, kq_victim **out) {
    *out = NULL;
    /* findCandidates: the own ClusterQueue's (withinClusterQueue), and those of
     * every ClusterQueue of the tree borrowing on a contested resource (reclaimWithinCohort) */
    const kq_cluster_queue *q = cq->cq;
    const kq_node *root = root_of(cq);
    bool reclaim = cq->parent && q->reclaim_within_cohort != KQ_NEVER;
    size_t total = 0;
    for (size_t x = 0; x < s->ncq; x++) total += s->nodes[x]->nadm;
    kq_wl **cands = xmalloc((total ? total : 1) * sizeof *cands);
    size_t n = 0;
    /* every ClusterQueue's admitted list: the order does not matter, the
     * candidates are sorted by kq_candidate_cmp, a total order (uid order last) */
    for (size_t x = 0; x < s->ncq; x++) {
        for (size_t i = 0; i < s->nodes[x]->nadm; i++) {
            kq_wl *w = s->nodes[x]->adm[i];
            if (!w || !kq_wl_uses(w, need, nneed)) continue;   /* NULL: a hole, gone */
            if (w->cq == cq) {
                if (q->within_cluster_queue != KQ_NEVER && kq_satisfies_policy(in, w, q->within_cluster_queue)) cands[n++] = w;
                continue;
            }
            if (!reclaim || !w->cq->parent || root_of(w->cq) != root) continue;
            bool borrowing = false;   /* cqIsBorrowing */
            for (size_t k = 0; k < nneed && !borrowing; k++) borrowing = kq_borrowing_with(w->cq, need[k], 0);
            if (borrowing && kq_satisfies_policy(in, w, q->reclaim_within_cohort)) cands[n++] = w;
        }
    }
    if (n == 0) {
        free(cands);
        return 0;
    }
    g_pcq = cq;
    qsort(cands, n, sizeof *cands, wl_cmp);

    size_t nn = s->nnodes;
    fctx f = {.s = s, .in = in, .cq = cq, .usage = usage, .nusage = nusage};
    f.per = xcalloc(nn, sizeof *f.per);
    f.len = xcalloc(nn, sizeof *f.len);
    f.pos = xcalloc(nn, sizeof *f.pos);
    f.pruned = xcalloc(nn, sizeof *f.pruned);
    f.on_path = xcalloc(nn, sizeof *f.on_path);
    for (const kq_node *a = cq->parent; a; a = a->parent) f.on_path[a->index] = true;
    f.t = xmalloc(n * sizeof *f.t);
    kq_wl **retry = xmalloc(n * sizeof *retry);
    size_t nretry = 0;
    ordering_make(&f, cands, n);

    preemptor_usage(&f, true);   /* the shares include the incoming workload */
    bool within_nominal = true;  /* queueWithinNominalInResourcesNeedingPreemption */
    for (size_t k = 0; k < nneed; k++) within_nominal &= !kq_borrowing_with(cq, need[k], 0);
    kq_fs_strategy first = s->nfs_strategies ? s->fs_strategies[0] : KQ_FS_LE_FINAL;
    bool ok = first_strategy(&f, first, within_nominal, retry, &nretry);
    size_t nstrat = s->nfs_strategies ? s->nfs_strategies : 2;
    if (!ok && nstrat > 1) ok = second_strategy(&f, retry, nretry);
    preemptor_usage(&f, false);

    if (ok) {   /* fillBackWorkloads (borrowing allowed) */
        for (size_t i = f.nt >= 2 ? f.nt - 1 : 0; i-- > 0;) {
            kq_victim_usage(s, f.t[i].wl, true);
            if (fits_now(&f)) f.t[i] = f.t[--f.nt];
            else kq_victim_usage(s, f.t[i].wl, false);
        }
    }
    for (size_t i = 0; i < f.nt; i++) kq_victim_usage(s, f.t[i].wl, true);   /* restoreSnapshot */
    size_t res = 0;
    if (ok && f.nt) {
        *out = f.t;
        res = f.nt;
    } else {
        free(f.t);
    }
    for (size_t i = 0; i < nn; i++) free(f.per[i]);
    free(f.per);
    free(f.len);
    free(f.pos);
    free(f.pruned);
    free(f.on_path);
    free(retry);
    free(cands);
    return res;
}
