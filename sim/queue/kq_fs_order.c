/*
 * kq_fs_order.c -- the order in which a scheduling cycle processes the
 * ClusterQueue heads when fair sharing is on (kubernetes-sigs/kueue
 * ff69552e79, pkg/scheduler/fair_sharing_iterator.go): a head without a
 * cohort goes as it is; otherwise a tournament over its root cohort, each
 * cohort choosing among its child cohorts' winners and its ClusterQueues'
 * heads by, at that level, the DRS of the child node on the head's path with
 * the head's nominated usage added (computeDRS), compared by
 * entryComparer.less: not borrowing on the requested flavor-resources first
 * (FairSharingPrioritizeNonBorrowing, on by default), lower DRS, higher
 * priority (PrioritySortingWithinCohort), earlier queue-order timestamp.
 * The shares are computed again at every pop: earlier heads of the cycle
 * changed the usage.
 */
#include <stdlib.h>

#include "queue/kq_fs_order.h"
#include "util/xalloc.h"

typedef struct level {               /* one (parent cohort, head) DRS value */
    const kq_node *parent;
    kq_drs drs;
    bool borrowing_on;
} level;

typedef struct tctx {
    const kq_fs_entry *e;
    const bool *done;
    level **lv;                      /* per entry: its levels (NULL when not in this tree) */
    size_t *nlv;
} tctx;

static const level *at(const tctx *t, size_t i, const kq_node *parent) {
    for (size_t k = 0; k < t->nlv[i]; k++)
        if (t->lv[i][k].parent == parent) return &t->lv[i][k];
    return NULL;
}

/* entryComparer.less(a, b, parent) */
static bool less(const tctx *t, size_t a, size_t b, const kq_node *parent) {
    const level *la = at(t, a, parent), *lb = at(t, b, parent);
    if (la->borrowing_on != lb->borrowing_on) return !la->borrowing_on;
    int c = kq_drs_cmp(&la->drs, &lb->drs);
    if (c) return c < 0;
    const kq_fs_entry *x = &t->e[a], *y = &t->e[b];
    if (x->priority != y->priority) return x->priority > y->priority;
    return x->order < y->order;
}

/* runTournament: the winning entry under `co`, or SIZE_MAX. */
static size_t tournament(const tctx *t, const kq_node *co, const size_t *by_cq) {
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < co->nchild_cohorts; i++) {
        size_t c = tournament(t, co->child_cohorts[i], by_cq);
        if (c == SIZE_MAX) continue;
        if (best == SIZE_MAX || less(t, c, best, co)) best = c;
    }
    for (size_t i = 0; i < co->nchild_cqs; i++) {
        size_t c = by_cq[co->child_cqs[i]->index];
        if (c == SIZE_MAX) continue;
        if (best == SIZE_MAX || less(t, c, best, co)) best = c;
    }
    return best;
}

size_t kq_fs_next(kq_snapshot *s, const kq_fs_entry *e, size_t n, const bool *done) {
    size_t first = 0;
    while (first < n && done[first]) first++;
    if (first == n) return SIZE_MAX;
    const kq_node *root = e[first].cq;
    if (!root->parent) return first;
    while (root->parent) root = root->parent;
    tctx t = {.e = e, .done = done};
    t.lv = xcalloc(n, sizeof *t.lv);
    t.nlv = xcalloc(n, sizeof *t.nlv);
    size_t *by_cq = xmalloc((s->nnodes ? s->nnodes : 1) * sizeof *by_cq);
    for (size_t i = 0; i < s->nnodes; i++) by_cq[i] = SIZE_MAX;
    for (size_t i = first; i < n; i++) {   /* computeDRS */
        if (done[i]) continue;
        const kq_node *r = e[i].cq;
        while (r->parent) r = r->parent;
        if (r != root) continue;
        by_cq[e[i].cq->index] = i;
        size_t depth = 0;
        for (const kq_node *a = e[i].cq->parent; a; a = a->parent) depth++;
        t.lv[i] = xmalloc(depth * sizeof **t.lv);
        for (size_t k = 0; k < e[i].nusage; k++) kq_add_usage(e[i].cq, e[i].usage[k].fr, e[i].usage[k].amount);
        const kq_node *child = e[i].cq;
        for (const kq_node *a = child->parent; a; child = a, a = a->parent)
            t.lv[i][t.nlv[i]++] = (level){a, kq_dominant_share(s, child, NULL, 0),
                                          kq_borrowing_on(child, e[i].usage, e[i].nusage)};
        for (size_t k = 0; k < e[i].nusage; k++) kq_remove_usage(e[i].cq, e[i].usage[k].fr, e[i].usage[k].amount);
    }
    size_t win = tournament(&t, root, by_cq);
    for (size_t i = 0; i < n; i++) free(t.lv[i]);
    free(t.lv);
    free(t.nlv);
    free(by_cq);
    return win;
}
