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
    uint32_t src, pos;               /* collection order: its source in the segment, its index in the source's list */
} cand;

typedef VEC(cand) cand_vec;

/* A ClusterQueue whose admitted workloads are candidates of one segment
 * (hierarchical.go collectCandidates...: lca and the hierarchical advantage). */
typedef struct source {
    const kq_node *cq, *lca;
    bool adv;
} source;

typedef VEC(source) source_vec;

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

/* The ClusterQueues whose admitted workloads are candidates, in the order
 * collectCandidatesInSubtree visits them. */
static void in_subtree(const pctx *c, const kq_node *cur, const kq_node *root, const kq_node *skip, bool adv,
                       source_vec *out) {
    for (size_t i = 0; i < cur->nchild_cohorts; i++) {
        const kq_node *ch = cur->child_cohorts[i];
        if (ch == skip || kq_within_nominal(ch, c->need, c->nneed)) continue;
        in_subtree(c, ch, root, skip, adv, out);
    }
    for (size_t i = 0; i < cur->nchild_cqs; i++) {
        const kq_node *ch = cur->child_cqs[i];
        if (ch == c->cq) continue;
        if (!kq_within_nominal(ch, c->need, c->nneed)) {
            source x = {ch, root, adv};
            VEC_PUSH(*out, x);
        }
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
static void hierarchical(const pctx *c, source_vec *hier, source_vec *prio) {
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
static int wl_order(const kq_wl *a, const kq_wl *b, const kq_node *cq) {
    if (a->evicted != b->evicted) return a->evicted ? -1 : 1;
    bool ao = a->cq == cq, bo = b->cq == cq;
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
    int r = ua == ub ? 0 : strcmp(ua, ub);
    if (r) return r;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int kq_candidate_cmp(const kq_wl *a, const kq_wl *b, const kq_node *preemptor_cq) { return wl_order(a, b, preemptor_cq); }

/* ---- the candidates in order, produced as the greedy pass reads them -------
 *
 * Six segments (hier, prio, same; the evicted ones first), each in
 * CandidatesOrdering, ties in collection order (the stable sort Kueue's
 * slices.SortFunc is not, but drasim's order is total but for ties of equal
 * workloads, which keep their collection order). The pass usually stops
 * after one or two candidates out of hundreds, and collecting and ordering
 * all of them for every preempting head was a tenth of what the queue layer
 * added at 10,000 nodes (tools/bench/bench_queues.sh). So a ClusterQueue
 * whose list is in order (kq_adm_ordered: one priority, reserved_ms rising)
 * gives its candidates by reading its list backwards, each run of equal
 * reserved_ms sorted in place; any other ClusterQueue's candidates and the
 * evicted ones are collected into a bag read through a heap; a segment
 * merges its readers by a heap of their next candidates. */

typedef struct reader {
    const pctx *c;
    const source *sc;                /* a list reader's source */
    uint32_t src;
    size_t pos;                      /* list reader: entries [0, pos) not read yet */
    cand_vec run;                    /* list reader: the current run of equal reserved_ms, in order */
    size_t irun;
    cand_vec bag;                    /* bag: its candidates in collection order */
    uint32_t *heap;                  /* bag: indices into bag not produced yet */
    size_t nheap;
    bool is_bag, heaped;
} reader;

/* The order of two candidates of one segment: CandidatesOrdering, then
 * collection order. */
static int cand_cmp(const cand *a, const cand *b, const kq_node *cq) {
    int r = a->wl == b->wl ? 0 : wl_order(a->wl, b->wl, cq);
    if (r) return r;
    if (a->src != b->src) return a->src < b->src ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

static void bag_sift(reader *r, size_t i, const kq_node *cq) {
    uint32_t *h = r->heap;
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < r->nheap && cand_cmp(&r->bag.data[h[l]], &r->bag.data[h[m]], cq) < 0) m = l;
        if (l + 1 < r->nheap && cand_cmp(&r->bag.data[h[l + 1]], &r->bag.data[h[m]], cq) < 0) m = l + 1;
        if (m == i) return;
        uint32_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* The list reader's next run: the next workloads (backwards) of one
 * reserved_ms that are candidates of its segment, sorted. */
static void list_refill(reader *r, bool evicted) {
    const kq_node *cq = r->sc->cq;
    r->run.len = r->irun = 0;
    bool have = false;
    int64_t at = 0;
    while (r->pos > 0) {
        kq_wl *w = cq->adm[r->pos - 1];
        if (!w) {   /* a hole: gone */
            r->pos--;
            continue;
        }
        if (have && w->reserved_ms != at) break;   /* an older run */
        r->pos--;
        if (w->evicted != evicted) continue;
        variant v = classify(r->c, w, r->sc->adv);
        if (v == V_NEVER) continue;
        have = true;
        at = w->reserved_ms;
        cand e = {w, r->sc->lca, v, r->src, (uint32_t)r->pos};
        VEC_PUSH(r->run, e);
    }
    for (size_t i = 1; i < r->run.len; i++) {   /* insertion sort: runs are short */
        cand x = r->run.data[i];
        size_t j = i;
        for (; j > 0 && cand_cmp(&r->run.data[j - 1], &x, r->c->cq) > 0; j--) r->run.data[j] = r->run.data[j - 1];
        r->run.data[j] = x;
    }
}

/* The reader's next candidate, NULL when it has none left. */
static const cand *reader_peek(reader *r, bool evicted) {
    if (r->is_bag) {
        if (!r->heaped) {
            r->heaped = true;
            r->nheap = r->bag.len;
            r->heap = xmalloc((r->nheap ? r->nheap : 1) * sizeof *r->heap);
            for (size_t j = 0; j < r->nheap; j++) r->heap[j] = (uint32_t)j;
            for (size_t j = r->nheap / 2; j-- > 0;) bag_sift(r, j, r->c->cq);
        }
        return r->nheap ? &r->bag.data[r->heap[0]] : NULL;
    }
    if (r->irun == r->run.len) list_refill(r, evicted);
    return r->irun < r->run.len ? &r->run.data[r->irun] : NULL;
}

static void reader_pop(reader *r) {
    if (!r->is_bag) {
        r->irun++;
        return;
    }
    r->heap[0] = r->heap[--r->nheap];
    bag_sift(r, 0, r->c->cq);
}

/* Candidates of cq's list that are evicted (or not) into bag r. */
static void bag_add(reader *r, const source *x, uint32_t src, bool evicted) {
    const kq_node *cq = x->cq;
    if (evicted) {   /* the few evicted ones, listed apart (pos: their place in the list) */
        for (size_t i = 0; i < cq->nevl; i++) {
            kq_wl *w = cq->evl[i];
            variant v = classify(r->c, w, x->adv);
            if (v == V_NEVER) continue;
            cand e = {w, x->lca, v, src, (uint32_t)w->cq_slot};
            VEC_PUSH(r->bag, e);
        }
        return;
    }
    for (size_t i = 0; i < cq->nadm; i++) {
        kq_wl *w = cq->adm[i];
        if (!w || w->evicted) continue;   /* NULL: a hole, gone */
        variant v = classify(r->c, w, x->adv);
        if (v == V_NEVER) continue;
        cand e = {w, x->lca, v, src, (uint32_t)i};
        VEC_PUSH(r->bag, e);
    }
}

typedef struct segment {
    VEC(reader) readers;             /* readers[0] is the bag */
    uint32_t *heap;                  /* readers with candidates left, by their next one */
    size_t nheap;
    bool evicted;
} segment;

static bool seg_less(segment *g, const kq_node *cq, uint32_t a, uint32_t b) {
    return cand_cmp(reader_peek(&g->readers.data[a], g->evicted), reader_peek(&g->readers.data[b], g->evicted), cq) < 0;
}

static void seg_sift(segment *g, const kq_node *cq, size_t i) {
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < g->nheap && seg_less(g, cq, g->heap[l], g->heap[m])) m = l;
        if (l + 1 < g->nheap && seg_less(g, cq, g->heap[l + 1], g->heap[m])) m = l + 1;
        if (m == i) return;
        uint32_t t = g->heap[i];
        g->heap[i] = g->heap[m];
        g->heap[m] = t;
        i = m;
    }
}

/* The segment over `srcs`: evicted candidates (from the ClusterQueues'
 * eviction lists) or not (read from ordered lists, else collected). */
static void seg_build(segment *g, const pctx *c, const source_vec *srcs, bool evicted) {
    g->evicted = evicted;
    reader bag = {.c = c, .is_bag = true};
    VEC_PUSH(g->readers, bag);
    for (size_t i = 0; i < srcs->len; i++) {
        const source *x = &srcs->data[i];
        if (x->cq->nadm == x->cq->holes_adm) continue;   /* nothing admitted */
        if (evicted) {
            if (x->cq->nevl) bag_add(&g->readers.data[0], x, (uint32_t)i, true);
        } else if (kq_adm_ordered(x->cq)) {
            reader r = {.c = c, .sc = x, .src = (uint32_t)i, .pos = x->cq->nadm};
            VEC_PUSH(g->readers, r);
        } else {
            bag_add(&g->readers.data[0], x, (uint32_t)i, false);
        }
    }
    g->heap = xmalloc(g->readers.len * sizeof *g->heap);
    for (size_t i = 0; i < g->readers.len; i++)
        if (reader_peek(&g->readers.data[i], evicted)) g->heap[g->nheap++] = (uint32_t)i;
    for (size_t j = g->nheap / 2; j-- > 0;) seg_sift(g, c->cq, j);
}

static bool seg_empty(const segment *g) { return g->nheap == 0; }

/* Move the segment's next candidate to *out; false when none is left. */
static bool seg_next(segment *g, const kq_node *cq, cand *out) {
    if (!g->nheap) return false;
    reader *r = &g->readers.data[g->heap[0]];
    *out = *reader_peek(r, g->evicted);
    reader_pop(r);
    if (!reader_peek(r, g->evicted)) g->heap[0] = g->heap[--g->nheap];
    seg_sift(g, cq, 0);
    return true;
}

static void seg_free(segment *g) {
    for (size_t i = 0; i < g->readers.len; i++) {
        VEC_FREE(g->readers.data[i].run);
        VEC_FREE(g->readers.data[i].bag);
        free(g->readers.data[i].heap);
    }
    VEC_FREE(g->readers);
    free(g->heap);
}

typedef struct ordered {
    const kq_node *cq;               /* the preemptor's ClusterQueue */
    segment seg[6];
    size_t k;                        /* the segment being read */
    cand_vec out;                    /* the candidates produced so far, in order */
} ordered;

/* The i-th candidate in order; NULL past the last. */
static const cand *ord_at(ordered *o, size_t i) {
    while (o->out.len <= i) {
        cand e;
        while (o->k < 6 && !seg_next(&o->seg[o->k], o->cq, &e)) o->k++;
        if (o->k == 6) return NULL;
        VEC_PUSH(o->out, e);
    }
    return &o->out.data[i];
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

size_t kq_preempt_targets(kq_snapshot *s, const kq_wl *in, kq_node *cq, const uint32_t *need, size_t nneed,
                          const kq_usage *usage, size_t nusage, kq_victim **out) {
    if (s->fair_sharing) return kq_fair_targets(s, in, cq, need, nneed, usage, nusage, out);
    pctx c = {s, in, cq, need, nneed, usage, nusage};
    source_vec same = {0}, hier = {0}, prio = {0};
    *out = NULL;
    bool forbidden = !cq->cq->borrow_within_cohort;
    /* then the only attempt allows borrowing, which takes no V_RECLAIM_NO_BORROW
     * candidate (valid()): the prio ones need not be collected */
    bool only_borrow = forbidden && !under_nominal(&c);
    if (cq->cq->within_cluster_queue != KQ_NEVER) {
        source x = {cq, NULL, false};
        VEC_PUSH(same, x);
    }
    hierarchical(&c, &hier, only_borrow ? NULL : &prio);
    if (!same.len && !hier.len && !prio.len) return 0;   /* no candidates (attempts would find none) */
    ordered ord = {.cq = cq};
    const source_vec *segs[6] = {&hier, &prio, &same, &hier, &prio, &same};
    for (int k = 0; k < 6; k++) seg_build(&ord.seg[k], &c, segs[k], k < 3);
    bool none_hier = seg_empty(&ord.seg[0]) && seg_empty(&ord.seg[3]);
    bool none_other = none_hier && seg_empty(&ord.seg[1]) && seg_empty(&ord.seg[4]);
    bool attempts[2];
    size_t nattempts;
    if (none_other || only_borrow) { attempts[0] = true; nattempts = 1; }
    else if (forbidden && none_hier) { attempts[0] = false; attempts[1] = true; nattempts = 2; }
    else { attempts[0] = true; attempts[1] = false; nattempts = 2; }
    size_t ntargets = 0;
    VEC(cand) targets = {0};
    bool found = false;
    for (size_t a = 0; a < nattempts && !found; a++) {
        bool borrow = attempts[a];
        ntargets = 0;
        const cand *e;
        for (size_t i = 0; (e = ord_at(&ord, i)); i++) {
            if (!valid(&c, e, borrow)) continue;
            kq_victim_usage(c.s, e->wl, false);
            VEC_RESERVE(targets, ntargets + 1);
            targets.data[ntargets++] = *e;
            if (fits(&c, borrow)) {
                for (size_t k = ntargets - 1; k-- > 0;) {   /* fillBackWorkloads */
                    kq_victim_usage(c.s, targets.data[k].wl, true);
                    if (fits(&c, borrow)) targets.data[k] = targets.data[--ntargets];
                    else kq_victim_usage(c.s, targets.data[k].wl, false);
                }
                found = true;
                break;
            }
        }
        for (size_t k = 0; k < ntargets; k++) kq_victim_usage(c.s, targets.data[k].wl, true);   /* restoreSnapshot */
    }
    size_t n = 0;
    if (found && ntargets) {
        *out = xmalloc(ntargets * sizeof **out);
        for (size_t k = 0; k < ntargets; k++) (*out)[n++] = (kq_victim){targets.data[k].wl, variant_reason(targets.data[k].v)};
    }
    VEC_FREE(targets);
    for (int k = 0; k < 6; k++) seg_free(&ord.seg[k]);
    VEC_FREE(ord.out);
    VEC_FREE(same);
    VEC_FREE(hier);
    VEC_FREE(prio);
    return n;
}
