/*
 * kai_cycle.c -- one KAI scheduling cycle over jobs: allocate, (consolidate:
 * not modelled), reclaim, preempt, in KAI's default order
 * (pkg/operator/.../resources_test.go config "allocate,consolidation,reclaim,
 * preempt,stalegangeviction"). NVIDIA/KAI-Scheduler v0.13.0:
 *   queue order    plugins/proportion/queue_order/queue_order.go GetQueueOrderResult
 *   job order      plugins/priority/priority.go, framework/session_plugins.go JobOrderFn
 *                  (priority, then creation time, then uid)
 *   capacity       plugins/proportion/capacity_policy/{max_allowed_check,quota_check}.go
 *   reclaim        actions/reclaim/reclaim.go, plugins/proportion/reclaimable/
 *   preempt        actions/preempt/preempt.go (same queue, lower priority, preemptible)
 * Allocation is node by node (place_n: each pod on a node it fits, KAI's
 * binpack order), over the snapshot's nodes (admit) or the scheduler's live
 * nodes (runs, queue/kai_gate.c); the final binding in a run is drasim's
 * scheduler's. Victims
 * are taken one job at a time in KAI's victim order until the job fits and the
 * scenario is valid (KAI's JobsSolver also tries per-pod scenarios).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/kai.h"
#include "util/xalloc.h"

/* ---- resource vectors ----------------------------------------------------- */

static int cmpq(double a, double b) {   /* compareQuantities (-1 = unlimited) */
    if (a == KAI_UNLIMITED) return b == KAI_UNLIMITED ? 0 : 1;
    if (b == KAI_UNLIMITED) return -1;
    return (a > b) - (a < b);
}

static bool le(const double *a, const double *b) {   /* ResourceQuantities.LessEqual */
    for (int r = 0; r < KAI_NRES; r++)
        if (cmpq(a[r], b[r]) > 0) return false;
    return true;
}

static bool lt_all(const double *a, const double *b) {   /* ResourceQuantities.Less */
    for (int r = 0; r < KAI_NRES; r++)
        if (a[r] >= b[r]) return false;
    return true;
}

static void add(double *out, const double *a, const double *b) {
    for (int r = 0; r < KAI_NRES; r++) out[r] = a[r] + b[r];
}

static void allocatable(const kai_q *q, double *out) {   /* ResourceShare.GetAllocatableShare */
    for (int r = 0; r < KAI_NRES; r++) {
        if (q->deserved[r] == KAI_UNLIMITED) { out[r] = q->max_allowed[r]; continue; }
        double a = fmax(q->deserved[r], q->fair[r]);
        if (q->max_allowed[r] != KAI_UNLIMITED) a = fmin(q->max_allowed[r], a);
        out[r] = a;
    }
}

static double drf(const kai_state *s, const kai_q *q, const double *alloc) {   /* GetDominantResourceShare */
    double al[KAI_NRES], best = 0;
    allocatable(q, al);
    for (int r = 0; r < KAI_NRES; r++) {
        double a = al[r] == KAI_UNLIMITED ? s->total[r] : al[r];
        double v = a == 0 ? alloc[r] * 1000 : alloc[r] / a;
        best = fmax(best, v);
    }
    return best;
}

/* ---- capacity ------------------------------------------------------------- */

int kai_over_limit(const kai_state *s, const kai_job *j, int *at) {
    for (int qi = j->queue; qi >= 0; qi = s->q[qi].parent) {
        const kai_q *q = &s->q[qi];
        for (int r = 0; r < KAI_NRES; r++) {
            if (q->max_allowed[r] == KAI_UNLIMITED || j->req[r] == 0) continue;
            if (q->max_allowed[r] < q->allocated[r] + j->req[r]) {
                if (at) *at = qi;
                return r;
            }
        }
    }
    return -1;
}

int kai_np_over_quota(const kai_state *s, const kai_job *j, int *at) {
    if (j->preemptible) return -1;
    for (int qi = j->queue; qi >= 0; qi = s->q[qi].parent) {
        const kai_q *q = &s->q[qi];
        for (int r = 0; r < KAI_NRES; r++) {
            if (q->deserved[r] == KAI_UNLIMITED || j->req[r] == 0) continue;
            if (q->deserved[r] < q->alloc_np[r] + j->req[r]) {
                if (at) *at = qi;
                return r;
            }
        }
    }
    return -1;
}

static void free_now(const kai_state *s, double *out) {
    if (s->have_free) {   /* kept by kai_cycle: only do_allocate changes a job's alloc */
        memcpy(out, s->free_agg, sizeof s->free_agg);
        return;
    }
    if (s->nodes) {   /* what the nodes have free (pods KAI does not schedule included) */
        memset(out, 0, KAI_NRES * sizeof *out);
        for (size_t n = 0; n < s->nnodes; n++)
            for (int r = 0; r < KAI_NRES; r++) out[r] += s->nodes[n].free[r];
        return;
    }
    for (int r = 0; r < KAI_NRES; r++) out[r] = s->total[r];
    for (size_t i = 0; i < s->njobs; i++)
        for (int r = 0; r < KAI_NRES; r++) out[r] -= s->jobs[i]->alloc[r];
}

static bool fits(const double *free_, const double *req) {
    for (int r = 0; r < KAI_NRES; r++)
        if (req[r] > 0 && req[r] > free_[r] + 1e-9) return false;
    return true;
}

static const double *pod_at(const kai_job *j, size_t p) { return j->pod_req ? j->pod_req[p] : j->pod_one; }

/* The node for a pod among those it fits, in KAI's node order (the default
 * binpack strategy, plugins/nodeplacement/pack.go getScoreOfCurrentNode: the
 * higher score to the node with less non-allocated of the pod's resource
 * type, GPUs for a GPU pod, else CPU); ties to the lower index. -1: none. */
int kai_pick_node(const kai_node *nodes, size_t nnodes, const double *req) {
    int r = req[KAI_GPU] > 0 ? KAI_GPU : KAI_CPU, best = -1;
    for (size_t n = 0; n < nnodes; n++)
        if (fits(nodes[n].free, req) && (best < 0 || nodes[n].free[r] < nodes[best].free[r])) best = (int)n;
    return best;
}

/* Node fit (s->nodes: the snapshot's nodes in admit, the scheduler's live
 * nodes in runs): j's pending pods one by one on the nodes' free resources
 * (common/allocate.go allocateTask: predicates, then the node order), with
 * the victims' pods given back (pipelined onto the resources they release).
 * A job fits only when every pod finds a node: the sum of the free
 * resources is not enough. With `commit` the pods are placed (slots
 * recorded, nodes charged). *placed (may be NULL): the pods that found a
 * node before the first that did not. Without nodes: the aggregate. */
static bool place_n(kai_state *s, kai_job *j, kai_job *const *vic, size_t nv, bool commit, size_t *placed) {
    if (!s->nodes || (!j->pod_req && !j->pod_one)) {
        double fr[KAI_NRES];
        free_now(s, fr);
        for (size_t a = 0; a < nv; a++)
            for (int r = 0; r < KAI_NRES; r++) fr[r] += vic[a]->alloc[r];
        if (placed) *placed = 0;
        if (!fits(fr, j->req)) return false;
        /* a topology constraint: a domain that holds the job too, with the
         * victims' pods releasing theirs (queue/kai_topology.h) */
        return !j->topo || !s->topo_place || s->topo_place(s->topo_ctx, j, vic, nv, commit);
    }
    kai_node *fr = xmalloc((s->nnodes ? s->nnodes : 1) * sizeof *fr);
    memcpy(fr, s->nodes, s->nnodes * sizeof *fr);
    for (size_t a = 0; a < nv; a++)
        for (size_t k = 0; k < vic[a]->nslots; k++)
            for (int r = 0; r < KAI_NRES; r++) fr[vic[a]->slots[k].node].free[r] += vic[a]->slots[k].v[r];
    int *at = xmalloc((j->npods ? j->npods : 1) * sizeof *at);
    bool ok = true;
    size_t p = 0;
    for (; p < j->npods; p++) {
        const double *req = pod_at(j, p);
        at[p] = kai_pick_node(fr, s->nnodes, req);
        if (at[p] < 0) { ok = false; break; }
        for (int r = 0; r < KAI_NRES; r++) fr[at[p]].free[r] -= req[r];
    }
    if (placed) *placed = p;
    /* a topology constraint (queue/kai_topology.h): a domain that holds the job
     * too, the victims' pods releasing their resources (IdleOrReleasing) */
    if (ok && j->topo && s->topo_place) ok = s->topo_place(s->topo_ctx, j, vic, nv, commit);
    if (ok && commit) {
        j->slots = xrealloc(j->slots, (j->nslots + j->npods + 1) * sizeof *j->slots);
        for (p = 0; p < j->npods; p++) {
            kai_slot *sl = &j->slots[j->nslots++];
            sl->node = at[p];
            memcpy(sl->v, pod_at(j, p), sizeof sl->v);
            for (int r = 0; r < KAI_NRES; r++) s->nodes[at[p]].free[r] -= sl->v[r];
        }
    }
    free(at);
    free(fr);
    return ok;
}

static bool place(kai_state *s, kai_job *j, kai_job *const *vic, size_t nv, bool commit) {
    return place_n(s, j, vic, nv, commit, NULL);
}

static void charge(kai_state *s, kai_job *j, const double *v, int sign) {
    for (int qi = j->queue; qi >= 0; qi = s->q[qi].parent)
        for (int r = 0; r < KAI_NRES; r++) {
            s->q[qi].allocated[r] += sign * v[r];
            if (!j->preemptible) s->q[qi].alloc_np[r] += sign * v[r];
        }
}

/* ---- order ---------------------------------------------------------------- */

static int job_cmp(const kai_job *a, const kai_job *b) {   /* priority, creation, uid */
    if (a->priority != b->priority) return a->priority > b->priority ? -1 : 1;
    if (a->created && b->created) {
        int c = strcmp(a->created, b->created);
        if (c) return c;
    } else if (a->created_ms != b->created_ms) {
        return a->created_ms < b->created_ms ? -1 : 1;
    }
    return (a->seq > b->seq) - (a->seq < b->seq);
}

static int created_cmp(const kai_q *a, const kai_q *b) {
    const char *x = a->created ? a->created : "", *y = b->created ? b->created : "";
    int c = strcmp(x, y);
    return c ? c : strcmp(a->uid, b->uid);
}

/* GetQueueOrderResult: <0 when queue a (with its best job ja) goes first. */
static int queue_cmp(const kai_state *s, const kai_q *a, const kai_job *ja, const kai_q *b, const kai_job *jb) {
    static const double zero[KAI_NRES];
    const double *ra = ja ? ja->req : zero, *rb = jb ? jb->req : zero;
    bool ao = lt_all(a->fair, a->allocated), bo = lt_all(b->fair, b->allocated);   /* prioritizeUnderUtilized */
    if (ao != bo) return ao ? 1 : -1;
    double wa[KAI_NRES], wb[KAI_NRES];
    add(wa, a->allocated, ra);
    add(wb, b->allocated, rb);
    bool as = le(wa, a->deserved), bs = le(wb, b->deserved);   /* prioritizeUnderQuotaWithJob */
    if (as != bs) return as ? -1 : 1;
    if (a->priority != b->priority) return a->priority > b->priority ? -1 : 1;   /* prioritizePrioritized */
    double la[KAI_NRES], lb[KAI_NRES];
    allocatable(a, la);
    allocatable(b, lb);
    bool av = false, bv = false;   /* penalizeZeroShareWithJob */
    for (int r = 0; r < KAI_NRES; r++) {
        if (la[r] == 0 && wa[r] > 0) av = true;
        if (lb[r] == 0 && wb[r] > 0) bv = true;
    }
    if (av != bv) return av ? 1 : -1;
    double da = drf(s, a, wa), db = drf(s, b, wb);   /* prioritizeSmallerResourceShare */
    if (da != db) return da < db ? -1 : 1;
    da = drf(s, a, a->allocated), db = drf(s, b, b->allocated);
    if (da != db) return da < db ? -1 : 1;
    bool a_lt = !le(lb, la) && le(la, lb), b_lt = !le(la, lb) && le(lb, la);   /* prioritizeBasedOnAllocatableShare */
    if (a_lt) return -1;
    if (b_lt) return 1;
    return created_cmp(a, b);
}

typedef bool (*job_filter)(const kai_state *s, const kai_job *j, const void *ud);

/* A leaf Queue's jobs in job order (kai_cycle sorts them once per cycle), with
 * a forward cursor for the pending job of the current action and a backward
 * one for the victim of the current solve. Both filters only ever turn a job
 * from eligible to ineligible while the cursor is in use (tried, allocated,
 * pipelined, evicted, chosen), so a job passed over stays passed over: the
 * first (last) eligible job is the one the linear scan in job order found. */
typedef struct kai_leaf_jobs {
    kai_job **v;
    size_t n, pend, vic;
} kai_leaf_jobs;

static int job_cmp_qsort(const void *a, const void *b) {
    return job_cmp(*(kai_job *const *)a, *(kai_job *const *)b);
}

static void reset_pending_cursors(kai_state *s) {
    for (size_t i = 0; i < s->nq; i++) s->leaf[i].pend = 0;
}

static void reset_victim_cursors(kai_state *s) {
    for (size_t i = 0; i < s->nq; i++) s->leaf[i].vic = s->leaf[i].n;
}

/* Best job under queue qi (KAI's JobsOrderByQueues traversal); NULL if none. */
static kai_job *best_job(const kai_state *s, int qi, job_filter f, const void *ud, bool victim, int *leaf) {
    const kai_q *q = &s->q[qi];
    if (!q->nchildren) {
        kai_leaf_jobs *L = &s->leaf[qi];
        kai_job *best = NULL;
        if (!victim) {
            while (L->pend < L->n && !f(s, L->v[L->pend], ud)) L->pend++;
            if (L->pend < L->n) best = L->v[L->pend];
        } else {
            while (L->vic > 0 && !f(s, L->v[L->vic - 1], ud)) L->vic--;
            if (L->vic > 0) best = L->v[L->vic - 1];
        }
        if (best) *leaf = qi;
        return best;
    }
    kai_job *best = NULL;
    int bq = -1, bl = -1;
    for (size_t c = 0; c < q->nchildren; c++) {
        int l = -1;
        kai_job *j = best_job(s, q->children[c], f, ud, victim, &l);
        if (!j) continue;
        int cmp = best ? queue_cmp(s, &s->q[q->children[c]], victim ? NULL : j, &s->q[bq], victim ? NULL : best) : -1;
        if (victim && best) cmp = -cmp;
        if (!best || cmp < 0) best = j, bq = q->children[c], bl = l;
    }
    if (best) *leaf = bl;
    return best;
}

static kai_job *next_job(const kai_state *s, job_filter f, const void *ud, bool victim) {
    kai_job *best = NULL;
    int bq = -1;
    for (size_t i = 0; i < s->nq; i++) {
        if (s->q[i].parent >= 0) continue;
        int l = -1;
        kai_job *j = best_job(s, (int)i, f, ud, victim, &l);
        if (!j) continue;
        int cmp = best ? queue_cmp(s, &s->q[i], victim ? NULL : j, &s->q[bq], victim ? NULL : best) : -1;
        if (victim && best) cmp = -cmp;
        if (!best || cmp < 0) best = j, bq = (int)i;
    }
    return best;
}

/* ---- actions -------------------------------------------------------------- */

typedef struct pass {
    bool *tried;                     /* per job index */
    kai_job **index;
} pass;

static size_t job_index(const kai_state *s, const kai_job *j) {
    (void)s;
    return j->idx;   /* set by kai_cycle */
}

/* Any resource of queue qi above its quota (deserved). */
static bool queue_over_quota(const kai_state *s, int qi) {
    const kai_q *q = &s->q[qi];
    for (int r = 0; r < KAI_NRES; r++)
        if (q->deserved[r] != KAI_UNLIMITED && q->allocated[r] > q->deserved[r] + 1e-9) return true;
    return false;
}

double kai_dominant_share(const kai_state *s, int qi, int *res) {
    const kai_q *q = &s->q[qi];
    double al[KAI_NRES], best = 0;
    int at = -1;
    allocatable(q, al);
    for (int r = 0; r < KAI_NRES; r++) {
        double a = al[r] == KAI_UNLIMITED ? s->total[r] : al[r];
        double v = a == 0 ? q->allocated[r] * 1000 : q->allocated[r] / a;
        if (q->allocated[r] > 0 && (at < 0 || v > best)) best = v, at = r;
    }
    if (res) *res = at;
    return best;
}

static bool pending_untried(const kai_state *s, const kai_job *j, const void *ud) {
    const pass *p = ud;
    if (j->queue < 0 || !kai_is_leaf(s, j->queue) || j->allocated_now || j->evicted || j->pipelined) return false;
    bool any = false;
    for (int r = 0; r < KAI_NRES; r++) any |= j->req[r] > 0;
    return (any || j->npods) && !p->tried[job_index(s, j)];
}

static void do_allocate(kai_state *s, kai_job *j, int action) {
    charge(s, j, j->req, +1);
    j->over_quota = queue_over_quota(s, j->queue);
    for (int r = 0; r < KAI_NRES; r++) {
        s->free_agg[r] -= j->req[r];
        j->alloc[r] += j->req[r];
        j->req[r] = 0;
    }
    j->running = true;
    j->allocated_now = true;
    j->action = action;
}

/* Jobs that failed since the state last changed, by what their outcome
 * depends on: queue, request, priority, preemptibility (and with nodes the
 * pods' count and request). A job equal to a failed one fails too until an
 * action changes the state, so it is passed over without trying (this keeps
 * a cycle over thousands of pending jobs linear). */
typedef struct failed_set {
    const kai_job **v;
    size_t n, cap;
} failed_set;

static bool same_job(const kai_job *a, const kai_job *b) {
    if (a->pod_one && (a->npods != b->npods || !b->pod_one || memcmp(a->pod_one, b->pod_one, KAI_NRES * sizeof *a->pod_one)))
        return false;
    return a->queue == b->queue && a->priority == b->priority && a->preemptible == b->preemptible && a->topo == b->topo &&
           memcmp(a->req, b->req, sizeof a->req) == 0;
}

/* Nodes with per-pod requests that differ (admit): no memo. Uniform pods
 * (runs): equal count and pod request fail alike on the same nodes. */
static bool memo_ok(const kai_state *s, const kai_job *j) { return !s->nodes || j->pod_one; }

static bool known_failed(const kai_state *s, const failed_set *f, const kai_job *j) {
    if (!memo_ok(s, j)) return false;
    for (size_t i = 0; i < f->n; i++)
        if (same_job(f->v[i], j)) return true;
    return false;
}

static void note_failed(const kai_state *s, failed_set *f, const kai_job *j) {
    if (!memo_ok(s, j)) return;
    if (f->n == f->cap) f->v = xrealloc(f->v, (f->cap = f->cap ? 2 * f->cap : 8) * sizeof *f->v);
    f->v[f->n++] = j;
}

static void allocate_action(kai_state *s, pass *p) {
    kai_job *j;
    failed_set failed = {0};
    reset_pending_cursors(s);
    while ((j = next_job(s, pending_untried, p, false))) {
        p->tried[job_index(s, j)] = true;
        if (known_failed(s, &failed, j)) continue;
        if (kai_over_limit(s, j, NULL) >= 0 || kai_np_over_quota(s, j, NULL) >= 0 || !place(s, j, NULL, 0, true)) {
            note_failed(s, &failed, j);
            continue;
        }
        do_allocate(s, j, KAI_ACT_ALLOCATE);
        failed.n = 0;
    }
    free(failed.v);
}

/* ---- reclaim (reclaimable.go) ---------------------------------------------- */

typedef struct victim_ctx {
    const kai_job *for_job;
    bool reclaim;                    /* else preempt */
    const bool *chosen;              /* per job index */
} victim_ctx;

static bool victim_ok(const kai_state *s, const kai_job *j, const void *ud) {
    const victim_ctx *v = ud;
    if (!j->running || j->evicted || !j->preemptible || j->queue < 0) return false;
    if (v->chosen[job_index(s, j)]) return false;
    if (v->reclaim) return j->queue != v->for_job->queue;
    return j->queue == v->for_job->queue && j->priority < v->for_job->priority;
}

static bool can_reclaim(const kai_state *s, const kai_job *j) {   /* CanReclaimResources */
    const kai_q *q = &s->q[j->queue];
    double w[KAI_NRES];
    add(w, q->allocated, j->req);
    if (!le(w, q->fair)) return false;
    if (j->preemptible) return true;
    add(w, q->alloc_np, j->req);
    return le(w, q->deserved);
}

static int depth(const kai_state *s, int qi) {
    int d = 0;
    for (; qi >= 0; qi = s->q[qi].parent) d++;
    return d;
}

static int ancestor_at(const kai_state *s, int qi, int d) {   /* the path's element at depth d (1 = top) */
    for (int k = depth(s, qi); k > d; k--) qi = s->q[qi].parent;
    return qi;
}

/* getLeveledQueues: the first differing ancestors of reclaimer and reclaimee. */
static void leveled(const kai_state *s, int rq, int vq, int *out_r, int *out_v) {
    int dr = depth(s, rq), dv = depth(s, vq), m = dr < dv ? dr : dv;
    int a = -1, b = -1;
    for (int d = 1; d <= m; d++) {
        a = ancestor_at(s, rq, d);
        b = ancestor_at(s, vq, d);
        if (a != b) break;
    }
    *out_r = a;
    *out_v = b;
}

static bool reclaimable(const kai_state *s, const kai_job *j, kai_job *const *vic, size_t nv) {
    size_t nq = s->nq;
    double (*rem)[KAI_NRES] = xcalloc(nq ? nq : 1, sizeof *rem);
    bool *has = xcalloc(nq ? nq : 1, sizeof *has);
    unsigned *inv = xcalloc(nq ? nq : 1, sizeof *inv);
    bool ok = true;
    unsigned mine = 0;
    for (int r = 0; r < KAI_NRES; r++)
        if (j->req[r] > 0) mine |= 1u << r;
    /* reclaimResourcesFromReclaimees: victims grouped by queue, first appearance order */
    for (size_t a = 0; a < nv && ok; a++) {
        int vq = vic[a]->queue;
        bool seen = false;
        for (size_t b = 0; b < a; b++) seen |= vic[b]->queue == vq;
        if (seen) continue;
        unsigned vinv = 0;
        for (size_t b = a; b < nv; b++)
            if (vic[b]->queue == vq)
                for (int r = 0; r < KAI_NRES; r++)
                    if (vic[b]->alloc[r] > 0) vinv |= 1u << r;
        inv[vq] = vinv;
        int lr, lv;
        leveled(s, j->queue, vq, &lr, &lv);
        if (!has[lv]) { memcpy(rem[lv], s->q[lv].allocated, sizeof rem[lv]); has[lv] = true; }
        for (size_t b = a; b < nv && ok; b++) {
            if (vic[b]->queue != vq) continue;
            /* FitsReclaimStrategy: MaintainFairShare, else GuaranteeDeservedQuota */
            double al[KAI_NRES], w[KAI_NRES];
            allocatable(&s->q[lv], al);
            bool fair_ok = !le(rem[lv], al);
            add(w, s->q[lr].allocated, j->req);
            bool quota_ok = le(w, s->q[lr].deserved) && !le(rem[lv], s->q[lv].deserved);
            if (!fair_ok && !quota_ok) { ok = false; break; }
            for (int qi = vq; qi >= 0; qi = s->q[qi].parent) {   /* subtractReclaimedResources */
                if (!has[qi]) { memcpy(rem[qi], s->q[qi].allocated, sizeof rem[qi]); has[qi] = true; }
                for (int r = 0; r < KAI_NRES; r++) rem[qi][r] -= vic[b]->alloc[r];
                inv[qi] |= inv[vq];
            }
        }
    }
    /* reclaimingQueuesRemainWithinBoundaries */
    for (int qi = j->queue; ok && qi >= 0; qi = s->q[qi].parent) {
        double mine_rem[KAI_NRES];
        add(mine_rem, has[qi] ? rem[qi] : s->q[qi].allocated, j->req);
        for (size_t sib = 0; sib < nq && ok; sib++) {
            if (!has[sib] || (int)sib == qi || s->q[sib].parent != s->q[qi].parent) continue;
            unsigned involved = inv[sib] | mine;
            for (int r = 0; r < KAI_NRES; r++) {
                if (!(involved & (1u << r))) continue;
                double rf = s->q[qi].fair[r], sf = s->q[sib].fair[r];
                double ratio_r = rf == 0 ? (mine_rem[r] > 0 ? INFINITY : 0) : mine_rem[r] / rf;
                double ratio_s = sf == 0 ? (rem[sib][r] > 0 ? INFINITY : 0) : rem[sib][r] / sf;
                if (ratio_r > 1 && sf > 0 && ratio_r * s->saturation_multiplier >= ratio_s) { ok = false; break; }
            }
        }
        if (ok && !j->preemptible) {
            double w[KAI_NRES];
            add(w, s->q[qi].alloc_np, j->req);
            if (!le(w, s->q[qi].deserved)) ok = false;
        }
    }
    free(rem);
    free(has);
    free(inv);
    return ok;
}

static void add_victim(kai_state *s, kai_job *v, kai_job *for_job, const char *reason) {
    if (s->nvictims == s->cap_victims) {
        s->cap_victims = s->cap_victims ? 2 * s->cap_victims : 8;
        s->victims = xrealloc(s->victims, s->cap_victims * sizeof *s->victims);
    }
    s->victims[s->nvictims++] = (kai_victim){v, for_job, reason};
    v->evicted = true;
}

/* Victims one job at a time in KAI's victim order until `j` fits and the
 * scenario is valid. Returns true (victims recorded) or false. */
static bool solve(kai_state *s, kai_job *j, bool reclaim) {
    bool *chosen = xcalloc(s->njobs ? s->njobs : 1, sizeof *chosen);
    kai_job **vic = xcalloc(s->njobs ? s->njobs : 1, sizeof *vic);
    size_t nv = 0;
    victim_ctx vc = {j, reclaim, chosen};
    bool ok = false;
    kai_job *v;
    reset_victim_cursors(s);
    while ((v = next_job(s, victim_ok, &vc, true))) {
        chosen[job_index(s, v)] = true;
        vic[nv++] = v;
        charge(s, v, v->alloc, -1);   /* the victims' queues as the order sees them */
        if (!place(s, j, vic, nv, false)) continue;
        if (kai_over_limit(s, j, NULL) >= 0) continue;
        for (size_t a = 0; a < nv; a++) charge(s, vic[a], vic[a]->alloc, +1);
        bool valid = !reclaim || reclaimable(s, j, vic, nv);
        for (size_t a = 0; a < nv; a++) charge(s, vic[a], vic[a]->alloc, -1);
        if (valid) { ok = true; break; }
    }
    for (size_t a = 0; a < nv; a++) charge(s, vic[a], vic[a]->alloc, +1);
    if (ok) {
        /* evict no job that is not needed (KAI's solver tries smaller
         * scenarios first): drop each victim whose removal keeps a valid fit */
        for (size_t a = 0; a < nv && nv > 1;) {
            kai_job *keep = vic[a];
            memmove(vic + a, vic + a + 1, (nv - a - 1) * sizeof *vic);
            nv--;
            bool still = place(s, j, vic, nv, false);
            if (still) {
                for (size_t b = 0; b < nv; b++) charge(s, vic[b], vic[b]->alloc, -1);
                still = kai_over_limit(s, j, NULL) < 0;
                for (size_t b = 0; b < nv; b++) charge(s, vic[b], vic[b]->alloc, +1);
                still = still && (!reclaim || reclaimable(s, j, vic, nv));
            }
            if (still) continue;
            memmove(vic + a + 1, vic + a, (nv - a) * sizeof *vic);
            vic[a] = keep;
            nv++;
            a++;
        }
        for (size_t a = 0; a < nv; a++)
            add_victim(s, vic[a], j, reclaim ? "Reclaim" : "Preempt");
        j->action = reclaim ? KAI_ACT_RECLAIM : KAI_ACT_PREEMPT;
        charge(s, j, j->req, +1);   /* pipelined: its queue holds the resources from now on */
        j->over_quota = queue_over_quota(s, j->queue);
        j->pipelined = true;
    }
    free(chosen);
    free(vic);
    return ok;
}

static bool waiting(const kai_state *s, const kai_job *j) {
    for (size_t i = 0; i < s->nvictims; i++)
        if (s->victims[i].for_job == j) return true;
    return false;
}

static void victims_action(kai_state *s, pass *p, bool reclaim) {
    memset(p->tried, 0, s->njobs * sizeof *p->tried);
    kai_job *j;
    failed_set failed = {0};
    reset_pending_cursors(s);
    while ((j = next_job(s, pending_untried, p, false))) {
        p->tried[job_index(s, j)] = true;
        if (waiting(s, j) || known_failed(s, &failed, j)) continue;
        if ((reclaim && !can_reclaim(s, j)) || (!reclaim && kai_np_over_quota(s, j, NULL) >= 0) ||
            !solve(s, j, reclaim)) {
            note_failed(s, &failed, j);
            continue;
        }
        failed.n = 0;
    }
    free(failed.v);
}

void kai_cycle(kai_state *s) {
    for (size_t i = 0; i < s->njobs; i++) {
        s->jobs[i]->allocated_now = false;
        s->jobs[i]->pipelined = false;
        s->jobs[i]->over_quota = false;
        s->jobs[i]->action = KAI_ACT_NONE;
        s->jobs[i]->idx = i;
    }
    kai_compute_shares(s);
    /* the leaf Queues' jobs in job order, and the aggregate free resources */
    s->leaf = xcalloc(s->nq ? s->nq : 1, sizeof *s->leaf);
    for (size_t i = 0; i < s->njobs; i++) {
        int qi = s->jobs[i]->queue;
        if (qi >= 0 && kai_is_leaf(s, qi)) s->leaf[qi].n++;
    }
    for (size_t q = 0; q < s->nq; q++) s->leaf[q].v = xmalloc((s->leaf[q].n ? s->leaf[q].n : 1) * sizeof *s->leaf[q].v);
    for (size_t q = 0; q < s->nq; q++) s->leaf[q].n = 0;
    for (size_t i = 0; i < s->njobs; i++) {
        int qi = s->jobs[i]->queue;
        if (qi >= 0 && kai_is_leaf(s, qi)) s->leaf[qi].v[s->leaf[qi].n++] = s->jobs[i];
    }
    for (size_t q = 0; q < s->nq; q++)
        if (s->leaf[q].n > 1) qsort(s->leaf[q].v, s->leaf[q].n, sizeof *s->leaf[q].v, job_cmp_qsort);
    s->have_free = false;
    free_now(s, s->free_agg);
    s->have_free = true;
    pass p = {xcalloc(s->njobs ? s->njobs : 1, sizeof *p.tried), NULL};
    allocate_action(s, &p);
    victims_action(s, &p, true);
    victims_action(s, &p, false);
    free(p.tried);
    for (size_t q = 0; q < s->nq; q++) free(s->leaf[q].v);
    free(s->leaf);
    s->leaf = NULL;
    s->have_free = false;
}

static void amount(strbuf *out, int r, double v) {
    if (r == KAI_CPU) sb_printf(out, "%g cpu", v / 1000);
    else if (r == KAI_MEM) sb_printf(out, "%g GB memory", v / 1e9);
    else sb_printf(out, "%g GPUs", v);
}

void kai_why(const kai_state *s, const kai_job *j, strbuf *out) {
    if (j->queue < 0) {
        sb_printf(out, "Queue '%s' does not exist", j->queue_name ? j->queue_name : "");
        return;
    }
    int at = -1, r = kai_over_limit(s, j, &at);
    if (r >= 0) {   /* api.GetJobOverMaxAllowedMessageForQueue */
        const kai_q *q = &s->q[at];
        sb_printf(out, "%s quota has reached the allowable limit of %s. Limit is ", q->name,
                  r == KAI_GPU ? "GPUs" : r == KAI_CPU ? "CPUs" : "memory");
        amount(out, r, q->max_allowed[r]);
        sb_puts(out, ", currently ");
        amount(out, r, q->allocated[r]);
        sb_puts(out, " allocated and workload requested ");
        amount(out, r, j->req[r]);
        return;
    }
    r = kai_np_over_quota(s, j, &at);
    if (r >= 0) {   /* api.GetBuildOverCapacityMessageForQueue */
        const kai_q *q = &s->q[at];
        sb_puts(out, "Non-preemptible workload is over quota. Workload requested ");
        amount(out, r, j->req[r]);
        sb_printf(out, ", but %s quota is ", q->name);
        amount(out, r, q->deserved[r]);
        sb_puts(out, ", while ");
        amount(out, r, q->alloc_np[r]);
        sb_puts(out, " are already allocated for non-preemptible pods. Use a preemptible workload to go over quota.");
        return;
    }
    const kai_q *q = &s->q[j->queue];
    double fr[KAI_NRES];
    free_now(s, fr);
    for (r = 0; r < KAI_NRES; r++)
        if (j->req[r] > fr[r] + 1e-9) break;
    size_t placed = 0;
    if (r == KAI_NRES && s->nodes && (j->pod_req || j->pod_one) &&
        !place_n((kai_state *)s, (kai_job *)j, NULL, 0, false, &placed)) {   /* no commit: s is not changed */
        /* the sum fits, the nodes do not (common/allocate.go handleFailedTaskAllocation) */
        const double *one = pod_at(j, placed);
        int k = one[KAI_GPU] > 0 ? KAI_GPU : one[KAI_CPU] > 0 ? KAI_CPU : KAI_MEM;
        if (j->npods > 1)
            sb_printf(out, "queue %s: Resources were found for %zu pods while %zu are required for gang scheduling: ", q->name,
                      placed, j->npods);
        else
            sb_printf(out, "queue %s: Resources were not found for pod %s/%s: ", q->name, j->ns ? j->ns : "", j->name ? j->name : "");
        sb_puts(out, "no node has ");
        amount(out, k, one[k]);
        sb_puts(out, " free (");
        amount(out, k, fr[k] > 0 ? fr[k] : 0);
        sb_puts(out, " free in the cluster)");
        return;
    }
    if (r == KAI_NRES) {
        sb_printf(out, "queue %s: waiting behind other jobs in KAI's order", q->name);
        return;
    }
    sb_printf(out, "queue %s: ", q->name);
    amount(out, r, j->req[r]);
    sb_puts(out, " requested, ");
    amount(out, r, fr[r] > 0 ? fr[r] : 0);
    sb_puts(out, " free; queue allocated ");
    amount(out, r, q->allocated[r]);
    sb_puts(out, " of fair share ");
    amount(out, r, q->fair[r]);
    sb_puts(out, " (deserved ");
    amount(out, r, q->deserved[r]);
    sb_puts(out, ")");
    double w = q->allocated[r] + j->req[r];
    if (w > q->fair[r]) sb_puts(out, ": cannot reclaim beyond its fair share, and no lower-priority job of the queue to preempt");
    else sb_puts(out, ": no job of a queue over its fair share to reclaim from");
}
