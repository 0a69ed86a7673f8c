/*
 * kq_gate.c -- Kueue in front of the scheduler during a run (queue/gate.h).
 *
 * A pod of a group labelled kueue.x-k8s.io/queue-name reaches its LocalQueue
 * in the group's namespace and so its ClusterQueue; each pod is one Kueue
 * Workload (Kueue's plain-pod integration: one Workload per pod). Pending
 * Workloads wait per ClusterQueue in Kueue's order (priority, then arrival);
 * each instant where an arrival or a release changed a cohort tree, the
 * ClusterQueues of that tree admit what fits by flavor assignment
 * (kq_assign.c): StrictFIFO stops at the first head that does not fit,
 * BestEffortFIFO goes on to the next Workload. An admitted pod holds its
 * quota until it ends; kube-scheduler then places it (or cannot: admitted
 * but unschedulable is the scheduler's pending). Not modelled yet in runs:
 * preemption of admitted Workloads, waitForPodsReady, fair sharing.
 * A group without the label is not managed by Kueue and goes straight to the
 * scheduler; a LocalQueue that does not exist keeps its pods pending with
 * Kueue's message ("LocalQueue NAME doesn't exist").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/gate.h"
#include "queue/kq_objects.h"
#include "util/intern.h"
#include "util/xalloc.h"

typedef struct cls_info {
    bool resolved, managed;
    kq_node *cq;                     /* NULL with a missing LocalQueue */
    const char *lq;
    k8s_pod spec;                    /* per-pod requests, selector, tolerations */
    int32_t priority;
    char *why;                       /* last reason its head did not fit */
    uint64_t failed_cycle;           /* cycle in which a pod of it did not fit */
} cls_info;

typedef struct pod_rec {
    int64_t arrival;
    uint32_t cls;
    int32_t cq;                      /* node index; -1 not managed */
    uint32_t usage_off;
    uint8_t nusage;
    bool admitted, pending;
} pod_rec;

typedef struct cq_state {
    VEC(uint32_t) pending;           /* pod ids, Kueue's order */
    VEC(int64_t) waits;              /* admitted: ms from arrival to admission */
    int64_t admitted, admitted_borrowing;
} cq_state;

typedef struct kq_gate {
    const scenario *sc;
    kq_loaded l;
    cls_info *cls;
    size_t ncls;
    VEC(pod_rec) pods;               /* by pod id (ids not managed stay zero) */
    VEC(kq_usage) usage;             /* pool */
    cq_state *cqs;                   /* per ClusterQueue node */
    bool *dirty;                     /* per tree root (node index) */
    bool any_dirty;
    uint64_t cycle_no;
    int64_t missing_lq_pods;
} kq_gate;

static const kq_node *root_of(const kq_node *n) {
    while (n->parent) n = n->parent;
    return n;
}

static void mark_dirty(kq_gate *g, const kq_node *cq) {
    g->dirty[root_of(cq)->index] = true;
    g->any_dirty = true;
}

/* The class's Kueue view: LocalQueue from label and namespace, requests. */
static void resolve(kq_gate *g, uint32_t c, const pod_group_spec *ps) {
    cls_info *ci = &g->cls[c];
    ci->resolved = true;
    const char *label = intern(KQ_QUEUE_LABEL), *q = NULL;
    for (size_t i = 0; i < ps->nlabels; i++)
        if (ps->labels[i].key == label) q = ps->labels[i].value;
    if (!q) return;
    ci->managed = true;
    ci->lq = q;
    const kq_local_queue *lq = kq_find_lq(g->sc->queues, ps->namespace_ ? ps->namespace_ : intern("default"), q);
    if (lq) ci->cq = kq_snapshot_cq(&g->l.s, lq->cluster_queue);
    ci->priority = ps->priority;
    size_t n = ps->nrequests + ps->ndp_resources;
    k8s_resource_amount *rq = xcalloc(n ? n : 1, sizeof *rq);
    size_t k = 0;
    for (size_t i = 0; i < ps->nrequests; i++) rq[k++] = ps->requests[i];
    for (size_t i = 0; ps->has_dp && i < ps->ndp_resources; i++) rq[k++] = ps->dp_resources[i];
    ci->spec.requests = rq;
    ci->spec.nrequests = k;
    ci->spec.node_selector = ps->node_selector;
    ci->spec.nnode_selector = ps->nnode_selector;
    ci->spec.tolerations = ps->tolerations;
    ci->spec.ntolerations = ps->ntolerations;
    ci->spec.has_affinity = ps->has_affinity;
    ci->spec.required_affinity = ps->required_affinity;
}

/* Kueue's queue order: higher priority first, then earlier arrival. */
static bool before(const kq_gate *g, uint32_t a, uint32_t b) {
    const pod_rec *pa = &g->pods.data[a], *pb = &g->pods.data[b];
    int32_t xa = g->cls[pa->cls].priority, xb = g->cls[pb->cls].priority;
    if (xa != xb) return xa > xb;
    if (pa->arrival != pb->arrival) return pa->arrival < pb->arrival;
    return a < b;
}

static bool gate_arrive(void *ctx, uint32_t pod, uint32_t cls, const pod_group_spec *ps, int64_t t) {
    kq_gate *g = ctx;
    if (cls >= g->ncls) {   /* classes added while the run goes (Lua, traces) */
        size_t n = cls + 1;
        g->cls = xrealloc(g->cls, n * sizeof *g->cls);
        memset(g->cls + g->ncls, 0, (n - g->ncls) * sizeof *g->cls);
        g->ncls = n;
    }
    if (!g->cls[cls].resolved) resolve(g, cls, ps);
    cls_info *ci = &g->cls[cls];
    if (!ci->managed) return false;
    while (g->pods.len <= pod) {
        pod_rec z = {0};
        z.cq = -1;
        VEC_PUSH(g->pods, z);
    }
    pod_rec *p = &g->pods.data[pod];
    p->arrival = t;
    p->cls = cls;
    if (!ci->cq) {   /* Kueue: stays pending, "LocalQueue X doesn't exist" */
        g->missing_lq_pods++;
        p->cq = -1;
        if (!ci->why) {
            strbuf b = {0};
            sb_printf(&b, "LocalQueue %s doesn't exist", ci->lq);
            ci->why = xstrdup(sb_str(&b));
            sb_free(&b);
        }
        return true;
    }
    p->cq = (int32_t)ci->cq->index;
    p->pending = true;
    cq_state *cs = &g->cqs[ci->cq->index];
    VEC_PUSH(cs->pending, pod);
    for (size_t i = cs->pending.len - 1; i > 0 && before(g, pod, cs->pending.data[i - 1]); i--) {
        cs->pending.data[i] = cs->pending.data[i - 1];
        cs->pending.data[i - 1] = pod;
    }
    mark_dirty(g, ci->cq);
    return true;
}

static void gate_ended(void *ctx, uint32_t pod, int64_t t) {
    (void)t;
    kq_gate *g = ctx;
    if (pod >= g->pods.len || !g->pods.data[pod].admitted) return;
    pod_rec *p = &g->pods.data[pod];
    kq_node *cq = g->l.s.nodes[p->cq];
    for (uint8_t i = 0; i < p->nusage; i++) {
        kq_usage u = g->usage.data[p->usage_off + i];
        kq_remove_usage(cq, u.fr, u.amount);
    }
    p->admitted = false;
    mark_dirty(g, cq);
}

/* Try one pending pod; true when admitted (usage charged). */
static bool try_pod(kq_gate *g, uint32_t pod, int64_t t) {
    pod_rec *p = &g->pods.data[pod];
    cls_info *ci = &g->cls[p->cls];
    kq_node *cq = g->l.s.nodes[p->cq];
    const char *name = intern("main");
    int32_t one = 1;
    const k8s_pod *spec = &ci->spec;
    kq_pending pd = {.cq = cq, .ps_names = &name, .ps_counts = &one, .ps_specs = &spec, .npod_sets = 1};
    pd.wl.name = name;
    pd.wl.priority = ci->priority;
    pd.wl.order_ms = p->arrival;
    pd.wl.cq = cq;
    kq_result r;
    kq_try_admit(&g->l.s, &pd, &r);
    bool ok = r.admitted;
    if (ok) {
        p->usage_off = (uint32_t)g->usage.len;
        p->nusage = 0;
        for (size_t i = 0; i < r.nchoices && p->nusage < 255; i++) {
            const kq_choice *c = &r.choices[i];
            int64_t amt = 0;
            for (size_t k = 0; k < spec->nrequests; k++)
                if (spec->requests[k].name == c->resource) amt = kq_resource_value(c->resource, &spec->requests[k].value);
            if (!strcmp(c->resource, "pods")) amt = 1;
            kq_usage u = {kq_fr_index(&g->l.s, c->flavor, c->resource), amt};
            kq_add_usage(cq, u.fr, u.amount);
            VEC_PUSH(g->usage, u);
            p->nusage++;
        }
        p->admitted = true;
        p->pending = false;
        cq_state *cs = &g->cqs[cq->index];
        VEC_PUSH(cs->waits, t - p->arrival);
        cs->admitted++;
        if (r.borrowing) cs->admitted_borrowing++;
    } else {
        free(ci->why);
        ci->why = xstrdup(r.why.len ? sb_str(&r.why) : sb_str(&r.reason));
        ci->failed_cycle = g->cycle_no;
    }
    kq_result_free(&r);
    return ok;
}

static void gate_cycle(void *ctx, int64_t t, uint32_t **out, size_t *len, size_t *cap) {
    kq_gate *g = ctx;
    if (!g->any_dirty) return;
    g->any_dirty = false;
    g->cycle_no++;
    for (size_t q = 0; q < g->l.s.ncq; q++) {
        kq_node *cq = g->l.s.nodes[q];
        if (!g->dirty[root_of(cq)->index]) continue;
        cq_state *cs = &g->cqs[q];
        size_t keep = 0;
        bool blocked = false;
        for (size_t i = 0; i < cs->pending.len; i++) {
            uint32_t pod = cs->pending.data[i];
            cls_info *ci = &g->cls[g->pods.data[pod].cls];
            /* the same class did not fit in this cycle: its twin will not either */
            bool skip = blocked || ci->failed_cycle == g->cycle_no;
            if (!skip && try_pod(g, pod, t)) {
                if (*len == *cap) {
                    *cap = *cap ? *cap * 2 : 64;
                    *out = xrealloc(*out, *cap * sizeof **out);
                }
                (*out)[(*len)++] = pod;
                continue;
            }
            if (cq->cq->strict_fifo) blocked = true;   /* StrictFIFO: the head blocks the queue */
            cs->pending.data[keep++] = pod;
        }
        cs->pending.len = keep;
    }
    memset(g->dirty, 0, g->l.s.nnodes * sizeof *g->dirty);
}

static const char *gate_why(void *ctx, uint32_t cls) {
    kq_gate *g = ctx;
    if (cls >= g->ncls || !g->cls[cls].managed) return NULL;
    cls_info *ci = &g->cls[cls];
    if (!ci->cq) return ci->why;
    for (size_t i = 0; i < g->cqs[ci->cq->index].pending.len; i++)
        if (g->pods.data[g->cqs[ci->cq->index].pending.data[i]].cls == cls) return ci->why;
    return NULL;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted v (as sim_groups.c computes waits). */
static double pct(const int64_t *v, size_t n, double p) {
    size_t rank = (size_t)ceil(p * (double)n);
    if (rank < 1) rank = 1;
    return (double)v[rank - 1] / 1000.0;
}

static void gate_summarize(void *ctx, int64_t end, queue_metric_fn add, void *ud) {
    kq_gate *g = ctx;
    for (size_t q = 0; q < g->l.s.ncq; q++) {
        cq_state *cs = &g->cqs[q];
        const char *grp = g->l.s.nodes[q]->name;
        size_t n = cs->waits.len + cs->pending.len;
        add(ud, "queue_admitted", (double)cs->admitted, grp);
        add(ud, "queue_admitted_borrowing", (double)cs->admitted_borrowing, grp);
        add(ud, "queue_pending_at_end", (double)cs->pending.len, grp);
        if (n == 0) continue;
        /* time to admission, censored: a Workload still pending counts until the end */
        int64_t *w = xmalloc(n * sizeof *w);
        memcpy(w, cs->waits.data, cs->waits.len * sizeof *w);
        for (size_t i = 0; i < cs->pending.len; i++) w[cs->waits.len + i] = end - g->pods.data[cs->pending.data[i]].arrival;
        qsort(w, n, sizeof *w, cmp_i64);
        double sum = 0;
        for (size_t i = 0; i < n; i++) sum += (double)w[i];
        add(ud, "queue_wait_censored_mean_s", sum / (double)n / 1000.0, grp);
        add(ud, "queue_wait_censored_p50_s", pct(w, n, 0.5), grp);
        add(ud, "queue_wait_censored_p90_s", pct(w, n, 0.9), grp);
        add(ud, "queue_wait_censored_p99_s", pct(w, n, 0.99), grp);
        add(ud, "queue_wait_censored_max_s", (double)w[n - 1] / 1000.0, grp);
        free(w);
    }
    if (g->missing_lq_pods) add(ud, "queue_missing_local_queue_pods", (double)g->missing_lq_pods, NULL);
}

static void gate_free(void *ctx) {
    kq_gate *g = ctx;
    for (size_t i = 0; i < g->ncls; i++) {
        free(g->cls[i].why);
        free(g->cls[i].spec.requests);
    }
    free(g->cls);
    for (size_t q = 0; q < g->l.s.ncq; q++) {
        VEC_FREE(g->cqs[q].pending);
        VEC_FREE(g->cqs[q].waits);
    }
    free(g->cqs);
    free(g->dirty);
    VEC_FREE(g->pods);
    VEC_FREE(g->usage);
    kq_loaded_free(&g->l);
    free(g);
}

queue_gate *kq_gate_new(const scenario *sc) {
    if (!sc->queues) return NULL;
    kq_gate *g = xcalloc(1, sizeof *g);
    g->sc = sc;
    kq_load_admitted(&g->l, sc->queues);
    g->ncls = sc->ngroups;
    g->cls = xcalloc(g->ncls ? g->ncls : 1, sizeof *g->cls);
    g->cqs = xcalloc(g->l.s.ncq ? g->l.s.ncq : 1, sizeof *g->cqs);
    g->dirty = xcalloc(g->l.s.nnodes ? g->l.s.nnodes : 1, sizeof *g->dirty);
    queue_gate *q = xcalloc(1, sizeof *q);
    *q = (queue_gate){g, gate_arrive, gate_ended, gate_cycle, gate_why, gate_summarize, gate_free};
    return q;
}

void queue_gate_free(queue_gate *q) {
    if (!q) return;
    q->free(q->ctx);
    free(q);
}
