/*
 * kq_preempt.c -- Kueue's classic preemption (kubernetes-sigs/kueue
 * ff69552e79): candidates from the own ClusterQueue and from the cohort tree
 * (pkg/scheduler/preemption/classical/hierarchical_preemption.go:
 * classifyPreemptionVariant, collectCandidatesForHierarchicalReclaim,
 * collectCandidatesInSubtree), ordered by common/ordering.go
 * CandidatesOrdering, taken greedily until the workload fits and minimised
 * by the reverse pass (preemption.go classicalPreemptions, fillBackWorkloads,
 * workloadFits; classical/candidate_generator.go candidateIsValid).
 * For a TAS Workload workloadFits also asks whether its TopologyAssignment
 * fits with the candidates' TAS usage removed (s->tas_hook, kq_tas_admit.c).
 */
#include <stdlib.h>
#include <string.h>

#include "queue/kq.h"
#include "util/xalloc.h"

typedef enum { V_NEVER, V_WITHIN_CQ, V_HIER_RECLAIM, V_RECLAIM_NO_BORROW, V_RECLAIM_WHILE_BORROW } variant;

typedef struct cand {
    kq_wl *wl;
    const kq_node *lca;
    variant v;
} cand;

typedef VEC(cand) cand_vec;

typedef struct pctx {
    kq_snapshot *s;
    const kq_wl *in;
    kq_node *cq;
    const uint32_t *need;
    size_t nneed;
    const kq_usage *usage;
    size_t nusage;
} pctx;

static const char *variant_reason(variant v) {
    switch (v) {
    case V_WITHIN_CQ: return "InClusterQueue";
    case V_HIER_RECLAIM: case V_RECLAIM_NO_BORROW: return "InCohortReclamation";
    case V_RECLAIM_WHILE_BORROW: return "InCohortReclaimWhileBorrowing";
    default: return "Unknown";
    }
}

bool kq_wl_uses(const kq_wl *w, const uint32_t *frs, size_t nfrs) {
    for (size_t i = 0; i < w->nusage; i++)
        for (size_t j = 0; j < nfrs; j++)
            if (w->usage[i].fr == frs[j]) return true;
    return false;
}

void kq_victim_usage(const kq_snapshot *s, kq_wl *w, bool add) {
    kq_wl_usage(w, add);
    if (s->tas_hook) s->tas_hook->wl_usage(s->tas_hook->ctx, w, add);
}

bool kq_tas_hook_fits(const kq_snapshot *s) { return !s->tas_hook || s->tas_hook->fits(s->tas_hook->ctx); }

static bool uses_needed(const pctx *c, const kq_wl *w) { return kq_wl_uses(w, c->need, c->nneed); }

/* The queue-order timestamp: creation time (text) or the engine's time. */
static int order_time_cmp(const kq_wl *a, const kq_wl *b) {
    if (a->queue_order_time && b->queue_order_time) return strcmp(a->queue_order_time, b->queue_order_time);
    return a->order_ms < b->order_ms ? -1 : a->order_ms > b->order_ms;
}

/* common/preemption_policy.go SatisfiesPreemptionPolicy */
bool kq_satisfies_policy(const kq_wl *preemptor, const kq_wl *cand, kq_policy p) {
    bool lower = preemptor->priority > cand->priority;
    if (p == KQ_LOWER_PRIORITY) return lower;
    if (p == KQ_LOWER_OR_NEWER_EQUAL)
        return lower || (preemptor->priority == cand->priority && order_time_cmp(preemptor, cand) < 0);
    return p == KQ_ANY;
}

static variant classify(const pctx *c, const kq_wl *w, bool hier_adv) {
    if (!uses_needed(c, w)) return V_NEVER;
    const kq_cluster_queue *q = c->cq->cq;
    bool same = w->cq == c->cq;
    if (!kq_satisfies_policy(c->in, w, same ? q->within_cluster_queue : q->reclaim_within_cohort)) return V_NEVER;
    if (same) return V_WITHIN_CQ;
    if (hier_adv) return V_HIER_RECLAIM;
    if (!q->borrow_within_cohort) return V_RECLAIM_NO_BORROW;
    /* isAboveBorrowingThreshold */
    if (w->priority >= c->in->priority) return V_RECLAIM_NO_BORROW;
    if (q->has_max_priority_threshold && w->priority > q->max_priority_threshold) return V_RECLAIM_NO_BORROW;
    return V_RECLAIM_WHILE_BORROW;
}

/* The candidates among cq's admitted workloads (its own list, admission order). */
static void from_cq(const pctx *c, const kq_node *cq, const kq_node *lca, bool hier_adv, cand_vec *out) {
    for (size_t i = 0; i < cq->nadm; i++) {
        kq_wl *w = cq->adm[i];
        if (!w) continue;   /* a hole: gone */
        variant v = classify(c, w, hier_adv);
        if (v == V_NEVER) continue;
        cand e = {w, lca, v};
        VEC_PUSH(*out, e);
    }
}

static void in_subtree(const pctx *c, const kq_node *cur, const kq_node *root, const kq_node *skip, bool adv,
                       cand_vec *out) {
    for (size_t i = 0; i < cur->nchild_cohorts; i++) {
        const kq_node *ch = cur->child_cohorts[i];
        if (ch == skip || kq_within_nominal(ch, c->need, c->nneed)) continue;
        in_subtree(c, ch, root, skip, adv, out);
    }
    for (size_t i = 0; i < cur->nchild_cqs; i++) {
        const kq_node *ch = cur->child_cqs[i];
        if (ch == c->cq) continue;
        if (!kq_within_nominal(ch, c->need, c->nneed)) from_cq(c, ch, root, adv, out);
    }
}

/* schdcache.QuantitiesFitInQuota over a sparse request list; `rem` updated. */
static bool fit_in_quota(const kq_node *n, kq_usage *rem, size_t nrem) {
    bool fits = true;
    for (size_t i = 0; i < nrem; i++) {
        uint32_t fr = rem[i].fr;
        if (n->subtree[fr] < kq_sat_add(n->usage[fr], rem[i].amount)) fits = false;
        int64_t la = kq_local_available(n, fr);
        rem[i].amount = rem[i].amount > la ? rem[i].amount - la : 0;
    }
    return fits;
}

/* prio NULL: its candidates are not collected (kq_preempt_targets). */
static void hierarchical(const pctx *c, cand_vec *hier, cand_vec *prio) {
    if (!c->cq->parent || c->cq->cq->reclaim_within_cohort == KQ_NEVER) return;
    kq_usage *rem = xmalloc((c->nusage ? c->nusage : 1) * sizeof *rem);
    memcpy(rem, c->usage, c->nusage * sizeof *rem);
    bool adv = fit_in_quota(c->cq, rem, c->nusage);
    const kq_node *prev = NULL;
    for (const kq_node *cur = c->cq->parent; cur; cur = cur->parent) {
        if (adv || prio) in_subtree(c, cur, cur, prev, adv, adv ? hier : prio);
        adv = fit_in_quota(cur, rem, c->nusage) || adv;
        prev = cur;
    }
    free(rem);
}

static int64_t reserved_key(const kq_wl *w) { return w->reserved_ms; }

/* CandidatesOrdering: evicted first, other ClusterQueues first, lower
 * priority first, more recent quota reservation first, then uid (name). */
static const kq_node *g_cq;
static int cand_cmp(const void *pa, const void *pb) {
    const kq_wl *a = ((const cand *)pa)->wl, *b = ((const cand *)pb)->wl;
    if (a->evicted != b->evicted) return a->evicted ? -1 : 1;
    bool ao = a->cq == g_cq, bo = b->cq == g_cq;
    if (ao != bo) return ao ? 1 : -1;
    if (a->priority != b->priority) return a->priority < b->priority ? -1 : 1;
    if (a->reserved_at || b->reserved_at) {   /* text times; absent = now, the latest */
        if (!a->reserved_at) return -1;
        if (!b->reserved_at) return 1;
        int r = strcmp(b->reserved_at, a->reserved_at);
        if (r) return r;
    } else if (reserved_key(a) != reserved_key(b)) {
        return reserved_key(a) > reserved_key(b) ? -1 : 1;
    }
    const char *ua = a->obj && a->obj->meta.uid ? a->obj->meta.uid : a->name;
    const char *ub = b->obj && b->obj->meta.uid ? b->obj->meta.uid : b->name;
    int r = strcmp(ua, ub);
    if (r) return r;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int kq_candidate_cmp(const kq_wl *a, const kq_wl *b, const kq_node *preemptor_cq) {
    g_cq = preemptor_cq;
    cand x = {(kq_wl *)a, NULL, V_NEVER}, y = {(kq_wl *)b, NULL, V_NEVER};
    return cand_cmp(&x, &y);
}

/* The candidates in the order the greedy pass reads them: six segments
 * (hier, prio, same; the evicted ones first), each in CandidatesOrdering.
 * A segment is ordered only as far as the pass reads it, by a heap: the pass
 * usually stops after a few candidates out of hundreds, and sorting all of
 * them for every preempting head was a sixth of what the queue layer added at
 * 10,000 nodes (tools/bench/bench_queues.sh). Ties keep the collection order,
 * as the stable sort did, so the order is the same. */
typedef struct ordered {
    const kq_node *cq;               /* the preemptor's ClusterQueue (cand_cmp's g_cq) */
    const cand *src;                 /* the segments in collection order */
    cand *out;                       /* the ordered prefix of each segment */
    uint32_t *heap;                  /* per segment: indices (from its start) not yet in out */
    size_t lo[7];                    /* segment k is [lo[k], lo[k + 1]) */
    size_t done[6], nheap[6];        /* produced; left in its heap (heapified at first read) */
    bool started[6];
} ordered;

static bool ord_less(const cand *seg, uint32_t a, uint32_t b) {
    int r = cand_cmp(&seg[a], &seg[b]);
    return r ? r < 0 : a < b;
}

static void ord_sift(const cand *seg, uint32_t *h, size_t n, size_t i) {
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && ord_less(seg, h[l], h[m])) m = l;
        if (l + 1 < n && ord_less(seg, h[l + 1], h[m])) m = l + 1;
        if (m == i) return;
        uint32_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* The i-th candidate in order (i < lo[6]). */
static const cand *ord_at(ordered *o, size_t i) {
    g_cq = o->cq;   /* the TAS hook may have compared others' candidates since */
    size_t k = 0;
    while (i >= o->lo[k + 1]) k++;
    const cand *seg = o->src + o->lo[k];
    uint32_t *h = o->heap + o->lo[k];
    if (!o->started[k]) {
        o->started[k] = true;
        o->nheap[k] = o->lo[k + 1] - o->lo[k];
        for (size_t j = 0; j < o->nheap[k]; j++) h[j] = (uint32_t)j;
        for (size_t j = o->nheap[k] / 2; j-- > 0;) ord_sift(seg, h, o->nheap[k], j);
    }
    while (o->lo[k] + o->done[k] <= i) {
        o->out[o->lo[k] + o->done[k]++] = seg[h[0]];
        h[0] = h[--o->nheap[k]];
        ord_sift(seg, h, o->nheap[k], 0);
    }
    return &o->out[i];
}

static bool valid(const pctx *c, const cand *e, bool borrow) {
    if (e->wl->cq == c->cq) return true;
    if (borrow && e->v == V_RECLAIM_NO_BORROW) return false;
    if (kq_within_nominal(e->wl->cq, c->need, c->nneed)) return false;
    for (const kq_node *n = e->wl->cq->parent; n && n != e->lca; n = n->parent)
        if (kq_within_nominal(n, c->need, c->nneed)) return false;
    return true;
}

static bool fits(const pctx *c, bool allow_borrowing) {
    for (size_t i = 0; i < c->nusage; i++) {
        uint32_t fr = c->usage[i].fr;
        int64_t v = c->usage[i].amount;
        if (!allow_borrowing && kq_borrowing_with(c->cq, fr, v)) return false;
        if (v > kq_available(c->cq, fr)) return false;
    }
    return kq_tas_hook_fits(c->s);
}

static bool under_nominal(const pctx *c) {   /* queueUnderNominalInResourcesNeedingPreemption */
    for (size_t i = 0; i < c->nneed; i++)
        if (c->cq->nominal[c->need[i]] <= c->cq->usage[c->need[i]]) return false;
    return true;
}

static void append_split(cand_vec *all, const cand_vec *v, bool evicted) {
    for (size_t i = 0; i < v->len; i++)
        if (v->data[i].wl->evicted == evicted) VEC_PUSH(*all, v->data[i]);
}

size_t kq_preempt_targets(kq_snapshot *s, const kq_wl *in, kq_node *cq, const uint32_t *need, size_t nneed,
                          const kq_usage *usage, size_t nusage, kq_victim **out) {
    if (s->fair_sharing) return kq_fair_targets(s, in, cq, need, nneed, usage, nusage, out);
    pctx c = {s, in, cq, need, nneed, usage, nusage};
    cand_vec same = {0}, hier = {0}, prio = {0}, all = {0};
    *out = NULL;
    bool forbidden = !cq->cq->borrow_within_cohort;
    /* then the only attempt allows borrowing, which takes no V_RECLAIM_NO_BORROW
     * candidate (valid()): the prio ones need not be collected */
    bool only_borrow = forbidden && !under_nominal(&c);
    if (cq->cq->within_cluster_queue != KQ_NEVER) from_cq(&c, cq, NULL, false, &same);
    hierarchical(&c, &hier, only_borrow ? NULL : &prio);
    ordered ord = {0};
    const cand_vec *segs[6] = {&hier, &prio, &same, &hier, &prio, &same};
    for (int k = 0; k < 6; k++) {
        ord.lo[k] = all.len;
        append_split(&all, segs[k], k < 3);
    }
    ord.lo[6] = all.len;
    ord.cq = cq;
    ord.src = all.data;
    ord.out = xmalloc((all.len ? all.len : 1) * sizeof *ord.out);
    ord.heap = xmalloc((all.len ? all.len : 1) * sizeof *ord.heap);
    bool none_other = hier.len == 0 && prio.len == 0, none_hier = hier.len == 0;
    bool attempts[2];
    size_t nattempts;
    if (none_other || only_borrow) { attempts[0] = true; nattempts = 1; }
    else if (forbidden && none_hier) { attempts[0] = false; attempts[1] = true; nattempts = 2; }
    else { attempts[0] = true; attempts[1] = false; nattempts = 2; }
    size_t ntargets = 0;
    cand *targets = xmalloc((all.len ? all.len : 1) * sizeof *targets);
    bool found = false;
    for (size_t a = 0; a < nattempts && !found; a++) {
        bool borrow = attempts[a];
        ntargets = 0;
        for (size_t i = 0; i < all.len; i++) {
            const cand *e = ord_at(&ord, i);
            if (!valid(&c, e, borrow)) continue;
            kq_victim_usage(c.s, e->wl, false);
            targets[ntargets++] = *e;
            if (fits(&c, borrow)) {
                for (size_t k = ntargets - 1; k-- > 0;) {   /* fillBackWorkloads */
                    kq_victim_usage(c.s, targets[k].wl, true);
                    if (fits(&c, borrow)) targets[k] = targets[--ntargets];
                    else kq_victim_usage(c.s, targets[k].wl, false);
                }
                found = true;
                break;
            }
        }
        for (size_t k = 0; k < ntargets; k++) kq_victim_usage(c.s, targets[k].wl, true);   /* restoreSnapshot */
    }
    size_t n = 0;
    if (found && ntargets) {
        *out = xmalloc(ntargets * sizeof **out);
        for (size_t k = 0; k < ntargets; k++) (*out)[n++] = (kq_victim){targets[k].wl, variant_reason(targets[k].v)};
    }
    free(targets);
    free(ord.out);
    free(ord.heap);
    VEC_FREE(same);
    VEC_FREE(hier);
    VEC_FREE(prio);
    VEC_FREE(all);
    return n;
}
