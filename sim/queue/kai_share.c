/*
 * kai_share.c -- KAI's queue tree and fair-share division, recomputed each
 * cycle. NVIDIA/KAI-Scheduler v0.13.0:
 *   pkg/scheduler/plugins/proportion/proportion.go (createQueueResourceAttrs,
 *     updateQueuesCurrentResourceUsage, setFairShareForQueues)
 *   pkg/scheduler/plugins/proportion/resource_division/resource_division.go
 * Without time-based fair share (no usage history) KAI's kValue cancels out
 * of the normalised weights, so it does not appear here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "queue/kai.h"
#include "util/xalloc.h"

const char *const kai_res_name[KAI_NRES] = {"gpu", "cpu", "memory"};

int kai_queue_index(const kai_state *s, const char *name) {
    for (size_t i = 0; name && i < s->nq; i++)
        if (!strcmp(s->q[i].name, name)) return (int)i;
    return -1;
}

bool kai_is_leaf(const kai_state *s, int qi) { return qi >= 0 && s->q[qi].nchildren == 0; }

void kai_state_init(kai_state *s, const kai_objects *o) {
    memset(s, 0, sizeof *s);
    s->saturation_multiplier = 1.0;
    s->nq = o->queues.len;
    s->q = xcalloc(s->nq ? s->nq : 1, sizeof *s->q);
    for (size_t i = 0; i < s->nq; i++) {
        const kai_queue *k = o->queues.data[i];
        kai_q *q = &s->q[i];
        q->name = k->meta.name;
        q->uid = k->meta.uid ? k->meta.uid : k->meta.name;
        q->created = k->created;
        q->priority = k->priority;
        for (int r = 0; r < KAI_NRES; r++) {
            q->deserved[r] = k->res[r].quota;
            q->max_allowed[r] = k->res[r].limit;
            q->weight[r] = k->res[r].weight;
        }
    }
    for (size_t i = 0; i < s->nq; i++) {
        const kai_queue *k = o->queues.data[i];
        s->q[i].parent = k->parent ? kai_queue_index(s, k->parent) : -1;
        if (s->q[i].parent >= 0) {
            kai_q *p = &s->q[s->q[i].parent];
            p->children = xrealloc(p->children, (p->nchildren + 1) * sizeof *p->children);
            p->children[p->nchildren++] = (int)i;
        }
    }
}

void kai_state_free(kai_state *s) {
    for (size_t i = 0; i < s->nq; i++) free(s->q[i].children);
    free(s->q);
    free(s->jobs);
    free(s->victims);
    memset(s, 0, sizeof *s);
}

/* ResourceShare.GetRequestableShare */
static double requestable(const kai_q *q, int r) {
    return q->max_allowed[r] == KAI_UNLIMITED ? q->request[r] : fmin(q->max_allowed[r], q->request[r]);
}

static bool satisfied(const kai_q *q, int r) {   /* isQueueSatisfied */
    if (q->request[r] <= q->fair[r]) return true;
    return q->max_allowed[r] != KAI_UNLIMITED && q->max_allowed[r] <= q->fair[r];
}

static double remaining_requested(const kai_q *q, int r) {   /* getRemainingRequested */
    double req = requestable(q, r);
    return req < q->fair[r] ? 0 : req - q->fair[r];
}

/* Older creation first, then smaller uid (remainingRequestedOrderFn; also
 * prioritizeBasedOnCreationTime). Timestamps are RFC 3339 UTC, compared as text. */
static int created_cmp(const kai_q *a, const kai_q *b) {
    const char *x = a->created ? a->created : "", *y = b->created ? b->created : "";
    int c = strcmp(x, y);
    return c ? c : strcmp(a->uid, b->uid);
}

/* divideUpToFairShare for one priority level. */
static double divide_up_to_fair_share(kai_state *s, const int *idx, size_t n, int r, double total) {
    for (;;) {
        bool another = false;
        double round = total, wsum = 0, tw = 0;
        for (size_t i = 0; i < n; i++)   /* getTotalWeightsForUnsatisfied */
            if (remaining_requested(&s->q[idx[i]], r) > 0) tw += s->q[idx[i]].weight[r];
        if (tw == 0) break;
        for (size_t i = 0; i < n; i++)   /* calcShareWeights, usage 0 */
            if (!satisfied(&s->q[idx[i]], r)) wsum += fmax(0, s->q[idx[i]].weight[r] / tw);
        if (wsum == 0) break;
        for (size_t i = 0; i < n; i++) {
            kai_q *q = &s->q[idx[i]];
            if (total == 0) break;
            if (satisfied(q, r)) continue;
            double requested = remaining_requested(q, r);
            if (q->weight[r] == 0) continue;
            double fair = round * (fmax(0, q->weight[r] / tw) / wsum);
            double give = 0;
            if (requested <= fair) {       /* getResourceToGiveInCurrentRound */
                give = requested;
                q->rem_present = false;
            } else {
                double rf = floor(fair);
                if (rf > 0) give = rf;
                if (fair - give > 0) {
                    q->rem_present = true;
                    q->rem_amount = fair - give;
                }
            }
            if (give == 0) continue;
            q->fair[r] += give;
            total -= give;
            another = another || requested < fair;
        }
        if (!another || total == 0) break;
    }
    return total;
}

/* Stable insertion sort of queue indices by descending priority (getQueuesByPriority). */
static void sort_by_priority(const kai_state *s, int *v, size_t n) {
    for (size_t i = 1; i < n; i++) {
        int x = v[i];
        size_t k = i;
        while (k > 0 && s->q[v[k - 1]].priority < s->q[x].priority) { v[k] = v[k - 1]; k--; }
        v[k] = x;
    }
}

/* divideRemainingResource: one unit (or the last fraction) at a time to the
 * largest remainder, then older, then smaller uid. */
static double divide_remaining(kai_state *s, const int *idx, size_t n, int r, double total) {
    for (;;) {
        if (total == 0) break;
        int best = -1;
        for (size_t i = 0; i < n; i++) {
            kai_q *q = &s->q[idx[i]];
            if (!q->rem_present) continue;
            if (best < 0 || q->rem_amount > s->q[best].rem_amount ||
                (q->rem_amount == s->q[best].rem_amount && created_cmp(q, &s->q[best]) < 0))
                best = idx[i];
        }
        if (best < 0) break;
        s->q[best].rem_present = false;
        double give = fmin(1, total);
        s->q[best].fair[r] += give;
        total -= give;
    }
    return total;
}

double kai_divide(kai_state *s, const int *idx, size_t n, int r, double total) {
    double remaining = total;   /* setDeservedResource */
    for (size_t i = 0; i < n; i++) {
        kai_q *q = &s->q[idx[i]];
        double d = q->deserved[r] == KAI_UNLIMITED ? total : q->deserved[r];
        double amount = fmin(d, requestable(q, r));
        q->fair[r] += amount;
        remaining -= amount;
    }
    if (remaining <= 0) return 0;
    /* divideOverQuotaResource: priority levels in descending order */
    int *order = xmalloc((n ? n : 1) * sizeof *order);
    memcpy(order, idx, n * sizeof *order);
    sort_by_priority(s, order, n);
    for (size_t i = 0; i < n; i++) s->q[order[i]].rem_present = false;
    size_t lo = 0;
    while (lo < n) {
        size_t hi = lo;
        while (hi < n && s->q[order[hi]].priority == s->q[order[lo]].priority) hi++;
        remaining = divide_up_to_fair_share(s, order + lo, hi - lo, r, remaining);
        lo = hi;
    }
    lo = 0;
    while (lo < n && remaining > 0) {
        size_t hi = lo;
        while (hi < n && s->q[order[hi]].priority == s->q[order[lo]].priority) hi++;
        remaining = divide_remaining(s, order + lo, hi - lo, r, remaining);
        lo = hi;
    }
    free(order);
    return remaining;
}

/* setFairShareForQueues: the level's division, then each queue's children
 * with that queue's fair share as their total. */
static void share_level(kai_state *s, const int *idx, size_t n, const double total[KAI_NRES]) {
    if (!n) return;
    for (int r = 0; r < KAI_NRES; r++) kai_divide(s, idx, n, r, total[r]);
    for (size_t i = 0; i < n; i++) {
        kai_q *q = &s->q[idx[i]];
        share_level(s, q->children, q->nchildren, q->fair);
    }
}

void kai_compute_shares(kai_state *s) {
    for (size_t i = 0; i < s->nq; i++) {
        kai_q *q = &s->q[i];
        for (int r = 0; r < KAI_NRES; r++) q->fair[r] = q->allocated[r] = q->alloc_np[r] = q->request[r] = 0;
    }
    for (size_t j = 0; j < s->njobs; j++) {   /* updateQueuesCurrentResourceUsage */
        const kai_job *jb = s->jobs[j];
        for (int qi = jb->queue; qi >= 0; qi = s->q[qi].parent)
            for (int r = 0; r < KAI_NRES; r++) {
                kai_q *q = &s->q[qi];
                q->allocated[r] += jb->alloc[r];
                q->request[r] += jb->alloc[r] + jb->req[r];
                if (!jb->preemptible) q->alloc_np[r] += jb->alloc[r];
            }
    }
    int *top = xmalloc((s->nq ? s->nq : 1) * sizeof *top);
    size_t nt = 0;
    for (size_t i = 0; i < s->nq; i++)
        if (s->q[i].parent < 0) top[nt++] = (int)i;
    share_level(s, top, nt, s->total);
    free(top);
}
