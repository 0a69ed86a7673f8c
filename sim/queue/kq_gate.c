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
 * but unschedulable is the scheduler's pending).
 *
 * The cycles follow pkg/scheduler/scheduler.go (schedule, processEntry,
 * makeClassicalIterator; ff69552e79): each cycle takes the head of every
 * ClusterQueue of a changed cohort tree, orders the heads (not borrowing
 * first, higher priority, earlier arrival) and processes them against the
 * usage the earlier ones left; cycles repeat within the instant until every
 * queue is settled. A head that needs preemption (kq_preempt.c) evicts its
 * victims through the engine and waits for them to end (their quota is held
 * until then, as Kueue's cache holds an evicted Workload's usage until its
 * pods are gone); it blocks its ClusterQueue meanwhile (Kueue requeues it
 * with RequeueReasonPendingPreemption, so it stays the head). A head whose
 * victims overlap those of an earlier head in the same cycle waits too.
 * A group without the label is not managed by Kueue and goes straight to the
 * scheduler; a LocalQueue that does not exist keeps its pods pending with
 * Kueue's message ("LocalQueue NAME doesn't exist").
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/queue_waits.h"
#include "queue/gate.h"
#include "queue/kq_afs.h"
#include "queue/kq_dra.h"
#include "sched/dra/dra.h"
#include "queue/kq_fs_order.h"
#include "queue/kq_objects.h"
#include "queue/kq_tas_run.h"
#include "queue/kq_ready.h"
#include "util/intern.h"
#include "util/rng.h"
#include "util/xalloc.h"

typedef struct cls_info {
    bool resolved, managed;
    kq_node *cq;                     /* NULL with a missing LocalQueue */
    const char *lq;
    k8s_pod spec;                    /* per-pod requests, selector, tolerations */
    int64_t *amounts;                /* kq_resource_value of each of spec's requests (kq_pending.ps_amounts) */
    int32_t priority;
    char *why;                       /* last reason its head did not fit */
    uint64_t failed_cycle;           /* cycle in which a pod of it did not fit */
    int32_t gang_size;               /* a gang: its pods form one Workload (0 = one per pod) */
    bool inadmissible;               /* Kueue cannot admit it at all (why says so) */
    uint32_t gang_open;              /* gang Workload collecting its pods: index + 1, 0 = none */
    kq_topology_request tas;         /* its pods' TAS annotations (kq_tas_run.h) */
    k8s_pod tas_spec;                /* spec without the DRA charge: what TAS counts (kq_tas_run.h) */
    int64_t deactivated;             /* its pods held for a deactivated Workload (waitForPodsReady) */
    int32_t lqi;                     /* its LocalQueue's index in the objects (admission fair sharing); -1 none */
} cls_info;

/* A gang's Workload (Kueue's pod-group integration: one Workload whose pod
 * set counts every pod of the group, created once all of them exist). Its
 * first member is the leader: it stands for the Workload in the pending list
 * and holds the kq_wl. */
typedef struct gang_wl {
    VEC(uint32_t) members;           /* pod ids */
    int64_t order;                   /* queue-order timestamp; -1 = its creation */
    int32_t live;                    /* admitted members that have not ended */
    int32_t nbound;                  /* members bound to a node */
    int64_t created, not_before;     /* a requeued Workload's creation and requeue time (REQ_HELD: its
                                        old self still holds quota); -1 = none */
    int32_t requeues;                /* its requeueState.count */
    uint32_t wid;                    /* its identity (kq_ready jitter) + 1; 0 = new */
    bool deactivated;
} gang_wl;

/* One per pod id, so kept small (40 bytes: a run of 1,000,000 pods with
 * queues held 96 MB of these and wrote them all once; bench_queues.sh). What
 * only a requeued or timed-out Workload needs is in a pod_ext. */
typedef struct pod_rec {
    int64_t arrival;
    kq_wl *wl;                       /* admitted: its Workload in the snapshot (the gate's pool); its
                                        reserved_ms is the admission time */
    uint32_t cls;
    int32_t cq;                      /* node index; -1 not managed */
    uint32_t gw;                     /* gang Workload index + 1, 0 = none */
    uint32_t ext;                    /* its pod_ext index + 1, 0 = none (the defaults below) */
    bool pending, bound;             /* bound: the Workload (a gang: all its pods) placed */
    bool holds, mbound;              /* a gang member: admitted and not ended; bound */
    bool armed;                      /* waitForPodsReady (kq_ready.h): admitted, its pods not all Ready, a deadline pending */
} pod_rec;

/* A Workload's fields that differ from their defaults only once it was
 * requeued or evicted (default in brackets). */
typedef struct pod_ext {
    int64_t order;                   /* queue-order timestamp (ms) [arrival]: the requeued Workload's */
    int64_t not_before;              /* a requeued victim: not a head before this instant; REQ_HELD
                                        while its evicted self still holds quota [0] */
    int64_t created;                 /* the Workload's creationTimestamp [arrival] */
    int64_t evicted_at, requeue_at;  /* its PodsReadyTimeout eviction, the backoff's end; evicted and
                                        its quota held: the earliest requeue (requeue_released) [0] */
    int32_t requeues;                /* status.requeueState.count [0] */
    uint32_t wid;                    /* the Workload's identity: its first pod [the pod] */
    uint8_t evicted_by;              /* BY_TIMEOUT, BY_DEACTIVATION: why the gate evicted it [BY_NONE] */
    bool heirs;                      /* evicted, quota held: requeued Workloads wait for it (g->heirs) [false] */
} pod_ext;

/* The requeue time of a Workload whose evicted self still holds its quota. */
#define REQ_HELD INT64_MAX

/* An evicted Workload (its leader pod) whose quota is still held, and a
 * pod of its requeued self (a gang: one of the new gang's pods). */
typedef struct heir {
    uint32_t victim, rep;
} heir;

static const pod_ext NO_EXT = {0};

enum { BY_NONE, BY_TIMEOUT, BY_DEACTIVATION };
enum { T_DEADLINE, T_REQUEUE, T_SAMPLE };   /* kq_timer.what (T_SAMPLE: admission fair sharing, id = LocalQueue) */
/* pods.reason of the pods of an evicted Workload (workload_controller.go) */
static const char TIMEOUT_TEXT[] = "Exceeded the PodsReady timeout (Kueue waitForPodsReady)";
static const char DEACT_TEXT[] = "The workload is deactivated due to exceeding the maximum number of re-queuing retries (Kueue)";

/* Kueue's preemption reasons (kueue.InClusterQueueReason, ...), the
 * preempted pods' message as preemption.go preemptionMessage words it. */
enum { R_IN_CQ, R_RECLAIM, R_RECLAIM_BORROW, R_FAIR, R_N };
static const char *const REASONS[R_N] = {"InClusterQueue", "InCohortReclamation", "InCohortReclaimWhileBorrowing",
                                         "InCohortFairSharing"};
static const char *const REASON_TEXT[R_N] = {
    "Preempted to accommodate a workload due to prioritization in the ClusterQueue (Kueue)",
    "Preempted to accommodate a workload due to reclamation within the cohort (Kueue)",
    "Preempted to accommodate a workload due to reclamation within the cohort while borrowing (Kueue)",
    "Preempted to accommodate a workload due to Fair Sharing within the cohort (Kueue)"};

typedef struct cq_state {
    VEC(uint32_t) pending;           /* pod ids, Kueue's order */
    VEC(int64_t) waits;              /* admitted: ms from arrival to admission */
    int64_t admitted, admitted_borrowing;
    int64_t preemptions[R_N];        /* victims its heads preempted, by reason */
    int64_t preempted;               /* its Workloads preempted by others or itself */
    int64_t evicted_timeout, evicted_deactivated;   /* kueue_evicted_workloads_total{reason} */
    int64_t holding, unbound;        /* admitted Workloads holding quota; of them not bound yet */
    VEC(int64_t) unsched;            /* admitted then bound (or gone): ms from admission */
    size_t cursor;                   /* the head's index in `pending` during an instant */
    bool settled;                    /* nothing more to do in this instant */
    size_t adm_hi;                   /* in this instant: past the last admitted index of `pending` (0: none) */
    int64_t one_cls;                 /* the class of every pod it ever queued; -1: none yet, -2: several */
} cq_state;

typedef struct head {
    uint32_t pod;
    uint32_t cq;
    kq_result r;                     /* the nomination, against the cycle's starting usage */
} head;

typedef VEC(kq_wl *) wl_vec;

/* The admitted Workloads' kq_wl, with room for `cap` usage entries after
 * it: one per admission, freed when its pods end. Blocks of up to
 * WL_POOL_CAP entries come from slabs and go back to a free list per size,
 * so admitting neither calls malloc nor scatters the Workloads the
 * preemption scan reads over the heap (bench_queues.sh). */
enum { WL_POOL_CAP = 8, WL_SLAB = 256 };
typedef struct wl_block {
    union {
        struct wl_block *next;       /* free: the next free block of its size */
        uint32_t cap;                /* in use: usage entries after the kq_wl */
        max_align_t align;
    } h;
    kq_wl w;
} wl_block;
typedef struct wl_pool {
    wl_block *free[WL_POOL_CAP + 1];
    VEC(void *) slabs;
} wl_pool;

typedef struct kq_gate {
    const scenario *sc;
    kq_loaded l;
    kq_dra_cluster dra;              /* the run's ResourceSlices and DeviceClasses (DRA mode) */
    cls_info *cls;
    size_t ncls;
    VEC(pod_rec) pods;               /* by pod id (ids not managed stay zero) */
    VEC(pod_ext) ext;                /* pod_rec.ext */
    wl_pool pool;                    /* the admitted Workloads (pod_rec.wl) */
    cq_state *cqs;                   /* per ClusterQueue node */
    bool *dirty;                     /* per tree root (node index) */
    VEC(uint32_t) dirty_roots;       /* the roots set in `dirty`, in marking order */
    uint32_t *tree_cqs, *tree_start; /* per root (node index): its ClusterQueues, ascending, at
                                        tree_cqs[tree_start[r] .. tree_start[r + 1]) */
    uint32_t *root;                  /* per ClusterQueue: its tree root's node index */
    VEC(uint32_t) active;            /* in an instant: the ClusterQueues of the dirty trees, ascending */
    bool *round_used;                /* per tree root: usage changed in this cycle */
    bool any_dirty;
    uint64_t cycle_no;               /* instants with a cycle */
    VEC(head) heads;
    VEC(gang_wl) gangs;
    queue_samples samples;
    int64_t missing_lq_pods;
    int64_t now;                     /* the instant of the current cycle */
    kq_tas_run *tas;                 /* Kueue TAS (kq_tas_run.h), NULL without a Topology */
    /* waitForPodsReady (kq_ready.h): wr->on or not used */
    const kq_wait_ready *wr;
    kq_timers timers;
    VEC(int64_t) wakes;              /* instants to hand to the engine (take_wake) */
    VEC(heir) heirs;                 /* evicted Workloads still holding quota -> their requeued selves */
    int64_t requeues_due;            /* T_REQUEUE timers not fired yet (gate_busy) */
    int64_t awaiting;                /* armed Workloads */
    bool blocked;                    /* blockAdmission: admission waits for them */
    rng jitter;                      /* base of the per-Workload jitter streams */
    kq_afs afs;                      /* admission fair sharing (kq_afs.h) */
    bool afs_on;                     /* some LocalQueue uses it */
    const char *main_name;           /* intern("main"): the pod set's name, looked up once */
} kq_gate;

static size_t wl_block_size(uint32_t cap) {
    size_t z = sizeof(wl_block) + cap * sizeof(kq_usage);
    return (z + _Alignof(max_align_t) - 1) / _Alignof(max_align_t) * _Alignof(max_align_t);
}

/* A zeroed kq_wl with room for n usage entries at w->usage. */
static kq_wl *wl_new(kq_gate *g, size_t n) {
    uint32_t cap = n ? (uint32_t)n : 1;
    wl_block *b;
    if (cap > WL_POOL_CAP) {
        b = xcalloc(1, wl_block_size(cap));
    } else {
        if (!g->pool.free[cap]) {   /* a new slab, every block on the free list */
            size_t z = wl_block_size(cap);
            char *slab = xmalloc(z * WL_SLAB);
            VEC_PUSH(g->pool.slabs, slab);
            for (size_t i = WL_SLAB; i-- > 0;) {
                wl_block *x = (wl_block *)(slab + i * z);
                x->h.next = g->pool.free[cap];
                g->pool.free[cap] = x;
            }
        }
        b = g->pool.free[cap];
        g->pool.free[cap] = b->h.next;
        memset(b, 0, wl_block_size(cap));
    }
    b->h.cap = cap;
    b->w.usage = (kq_usage *)((char *)b + sizeof *b);
    return &b->w;
}

static wl_block *block_of(kq_wl *w) { return (wl_block *)((char *)w - offsetof(wl_block, w)); }

static void wl_release(kq_gate *g, kq_wl *w) {
    if (!w) return;
    wl_block *b = block_of(w);
    uint32_t cap = b->h.cap;
    if (cap > WL_POOL_CAP) {
        free(b);
        return;
    }
    b->h.next = g->pool.free[cap];
    g->pool.free[cap] = b;
}

/* Pod `pod`'s pod_ext, made with its defaults when it has none. */
static pod_ext *ext_of(kq_gate *g, uint32_t pod) {
    pod_rec *p = &g->pods.data[pod];
    if (!p->ext) {
        pod_ext e = {.order = p->arrival, .created = p->arrival, .wid = pod};
        VEC_PUSH(g->ext, e);
        p->ext = (uint32_t)g->ext.len;
    }
    return &g->ext.data[p->ext - 1];
}

/* Read-only: the pod's pod_ext, or NO_EXT (then order, created and wid are
 * the defaults: use order_of, created_of, wid_of). */
static const pod_ext *ext_get(const kq_gate *g, const pod_rec *p) { return p->ext ? &g->ext.data[p->ext - 1] : &NO_EXT; }
static int64_t order_of(const kq_gate *g, const pod_rec *p) { return p->ext ? g->ext.data[p->ext - 1].order : p->arrival; }
static int64_t created_of(const kq_gate *g, const pod_rec *p) { return p->ext ? g->ext.data[p->ext - 1].created : p->arrival; }
static uint32_t wid_of(const kq_gate *g, uint32_t pod) {
    const pod_rec *p = &g->pods.data[pod];
    return p->ext ? g->ext.data[p->ext - 1].wid : pod;
}

static const kq_node *root_of(const kq_node *n) {
    while (n->parent) n = n->parent;
    return n;
}

static void mark_dirty(kq_gate *g, const kq_node *cq) {
    uint32_t r = (uint32_t)root_of(cq)->index;
    if (!g->dirty[r]) {
        g->dirty[r] = true;
        VEC_PUSH(g->dirty_roots, r);
    }
    g->any_dirty = true;
}

static int u32_cmp(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static double natural(const char *resource, int64_t v);

/* Admission fair sharing: Workload w of class `ci` admitted (sign +1: its
 * LocalQueue's admitted usage grows, the entry penalty is settled, the next
 * sample is due an interval later) or gone (-1). */
static void afs_charge(kq_gate *g, const cls_info *ci, const kq_wl *w, int sign, int64_t t) {
    if (ci->lqi < 0) return;
    kq_afs *a = &g->afs;
    kq_afs_lq *x = &a->lqs[ci->lqi];
    double amt[64] = {0};
    for (size_t i = 0; i < w->nusage; i++) {
        const char *res = g->l.s.frs[w->usage[i].fr].resource;
        int k = kq_afs_res(a, res);
        if (k >= 0 && k < 64) amt[k] += natural(res, w->usage[i].amount);
    }
    for (size_t k = 0; k < a->nres && k < 64; k++) x->admitted[k] += sign * amt[k];
    if (sign < 0) return;
    kq_afs_admitted(a, (size_t)ci->lqi, amt, t);
    kq_timers_push(&g->timers, t + a->cfg->sampling_ms, (uint32_t)ci->lqi, T_SAMPLE);
    VEC_PUSH(g->wakes, t + a->cfg->sampling_ms);
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
    ci->lqi = -1;
    for (size_t i = 0; lq && g->afs_on && i < g->sc->queues->lqs.len; i++)
        if (g->sc->queues->lqs.data[i] == lq && g->afs.lqs[i].on) ci->lqi = (int32_t)i;
    ci->priority = ps->priority;
    ci->gang_size = ps->gang_min > 0 && c < g->sc->ngroups && ps->count > 0 ? (int32_t)ps->count : 0;
    size_t n = ps->nrequests + ps->ndp_resources;
    k8s_resource_amount *rq = xcalloc(n ? n : 1, sizeof *rq);
    size_t k = 0;
    for (size_t i = 0; i < ps->nrequests; i++) rq[k++] = ps->requests[i];
    for (size_t i = 0; ps->has_dp && i < ps->ndp_resources; i++) rq[k++] = ps->dp_resources[i];
    size_t own = k;   /* the pod spec's own requests come first, the DRA charge after */
    if (g->sc->queues->config.ndc_mappings && ps->ndra_claims) {
        size_t extra = kq_dra_charge(&g->sc->queues->config, &g->dra, ps, &rq, k, &ci->why);   /* queue/kq_dra.c */
        if (!extra && ci->why) ci->inadmissible = true;
        k += extra;
    }
    ci->spec.requests = rq;
    ci->spec.nrequests = k;
    ci->amounts = xcalloc(k ? k : 1, sizeof *ci->amounts);
    for (size_t i = 0; i < k; i++) ci->amounts[i] = kq_resource_value(rq[i].name, &rq[i].value);
    ci->spec.node_selector = ps->node_selector;
    ci->spec.nnode_selector = ps->nnode_selector;
    ci->spec.tolerations = ps->tolerations;
    ci->spec.ntolerations = ps->ntolerations;
    ci->spec.has_affinity = ps->has_affinity;
    ci->spec.required_affinity = ps->required_affinity;
    ci->tas_spec = ci->spec;   /* with the selector, tolerations and affinity TAS filters nodes by */
    ci->tas_spec.nrequests = own;
    strbuf msg = {0};   /* checked when the scenario was read */
    if (ps->nannotations) kq_tas_request_from_kv(ps->annotations, ps->nannotations, &ci->tas, &msg);
    sb_free(&msg);
}

/* Kueue's queue order: higher priority first, then the earlier queue-order
 * timestamp (pkg/workload/workload.go GetQueueOrderTimestamp). */
static bool before(const kq_gate *g, uint32_t a, uint32_t b) {
    const pod_rec *pa = &g->pods.data[a], *pb = &g->pods.data[b];
    int32_t xa = g->cls[pa->cls].priority, xb = g->cls[pb->cls].priority;
    if (xa != xb) return xa > xb;
    int64_t oa = order_of(g, pa), ob = order_of(g, pb);
    if (oa != ob) return oa < ob;
    return a < b;
}

/* Move pending[i] toward the front to its place in Kueue's order. */
static void sift_up(kq_gate *g, cq_state *cs, size_t i) {
    uint32_t pod = cs->pending.data[i];
    for (; i > 0 && before(g, pod, cs->pending.data[i - 1]); i--) {
        cs->pending.data[i] = cs->pending.data[i - 1];
        cs->pending.data[i - 1] = pod;
    }
}

/* Pod `pod` joins its class's gang Workload; true when that completed it
 * (the leader becomes pending with the Workload's order). */
static bool gang_collect(kq_gate *g, cls_info *ci, uint32_t pod, int64_t t) {
    if (!ci->gang_open) {
        gang_wl z = {.order = -1, .created = -1, .not_before = -1};
        VEC_PUSH(g->gangs, z);
        ci->gang_open = (uint32_t)g->gangs.len;
    }
    gang_wl *gw = &g->gangs.data[ci->gang_open - 1];
    VEC_PUSH(gw->members, pod);
    g->pods.data[pod].gw = ci->gang_open;
    if ((int32_t)gw->members.len < ci->gang_size) return false;
    ci->gang_open = 0;
    uint32_t li = gw->members.data[0];
    pod_rec *lead = &g->pods.data[li];
    lead->arrival = t;   /* the Workload exists from now */
    if (lead->ext || gw->order >= 0 || gw->created >= 0 || gw->requeues || gw->wid || gw->not_before >= 0) {
        /* a requeued gang: completed after gate_requeued saw its pods, so
         * what it set (order, requeue time: a backoff, or REQ_HELD while its
         * evicted self holds quota) applies now */
        uint32_t wid = wid_of(g, li);
        pod_ext *e = ext_of(g, li);
        e->order = gw->order >= 0 ? gw->order : t;
        e->created = gw->created >= 0 ? gw->created : t;
        e->requeues = gw->requeues;
        e->wid = gw->wid ? gw->wid - 1 : wid;
        if (gw->not_before >= 0) e->not_before = gw->not_before;
        lead = &g->pods.data[li];
    }
    if (gw->deactivated) {   /* spec.active false: its pods stay held, never queued (gate_requeued) */
        g->cls[lead->cls].deactivated++;
        g->pods.data[pod].pending = false;
        return false;
    }
    lead->pending = true;
    g->pods.data[pod].pending = false;
    return true;
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
    if (!ci->cq || ci->inadmissible) {   /* Kueue: stays pending, "LocalQueue X doesn't exist" */
        if (!ci->inadmissible) g->missing_lq_pods++;
        p->cq = -1;
        if (!ci->why) {
            strbuf b = {0};
            sb_printf(&b, "LocalQueue %s doesn't exist", ci->lq);
            ci->why = xstrdup(sb_str(&b));
            sb_free(&b);
        }
        return true;
    }
    p->cq = (int32_t)ci->cq->index;   /* order, created and wid: the defaults (pod_ext) */
    if (ci->gang_size) {
        if (!gang_collect(g, ci, pod, t)) return true;   /* waits for the rest of its gang */
        pod = g->gangs.data[p->gw - 1].members.data[0];   /* the gang's leader stands for it */
    } else {
        p->pending = true;
    }
    cq_state *cs = &g->cqs[ci->cq->index];
    cs->one_cls = cs->one_cls == -1 || cs->one_cls == (int64_t)cls ? (int64_t)cls : -2;
    VEC_PUSH(cs->pending, pod);
    sift_up(g, cs, cs->pending.len - 1);
    mark_dirty(g, ci->cq);
    return true;
}

/* waitForPodsReady: Workload `pod` (a gang's leader) no longer waits for a
 * deadline (its pods are Ready, it ended or was evicted). With blockAdmission
 * the last one lifts the block: every tree cycles again at t. */
static void disarm(kq_gate *g, uint32_t pod, int64_t t) {
    pod_rec *p = &g->pods.data[pod];
    if (!p->armed) return;
    p->armed = false;
    if (--g->awaiting > 0 || !g->blocked) return;
    g->blocked = false;
    for (size_t q = 0; q < g->l.s.ncq; q++) mark_dirty(g, g->l.s.nodes[q]);
    VEC_PUSH(g->wakes, t);
}

/* A cycle of ClusterQueue `cq`'s tree at `at`: a Workload requeued then is
 * a head again (Kueue's Broadcast after the requeue). */
static void requeue_wake(kq_gate *g, int32_t cq, int64_t at) {
    kq_timers_push(&g->timers, at, (uint32_t)cq, T_REQUEUE);
    g->requeues_due++;
    if (!g->wakes.len || g->wakes.data[g->wakes.len - 1] != at) VEC_PUSH(g->wakes, at);
}

/* The requeued Workload of pod `rep` (a gang's: its gang, complete or
 * still collecting) is a head again from `at` (REQ_HELD: not yet). */
static void set_requeue(kq_gate *g, uint32_t rep, int64_t at) {
    if (g->pods.data[rep].gw) {
        gang_wl *gw = &g->gangs.data[g->pods.data[rep].gw - 1];
        gw->not_before = at;
        rep = gw->members.data[0];   /* complete: the leader stands for it; else gang_collect applies it */
    }
    if (g->pods.data[rep].pending) ext_of(g, rep)->not_before = at;
}

/* The victim's Workload requeued as its replacement: Kueue's Job integration
 * suspends the Job and requeues the same Workload, which keeps its creation
 * time as queue-order timestamp (pkg/workload/workload.go
 * GetQueueOrderTimestamp; its +1 ms for InCohortReclaimWhileBorrowing applies
 * only with PrioritySortingWithinCohort off, a feature gate on by default).
 *
 * When: kueue ff69552e79 requeues an evicted Workload when its quota is
 * released. The Job reconciler (pkg/controller/jobframework/reconciler.go,
 * "handle eviction") stops the Job and, once it is no longer active, clears
 * the quota reservation; the Workload controller's Update for that
 * QuotaReserved -> Pending transition (pkg/controller/core/
 * workload_controller.go) deletes it from the cache (its quota is free),
 * puts it back in its ClusterQueue's heap (queues.AddOrUpdateWorkloadWithoutLock,
 * pkg/cache/queue/manager.go), requeues the cohort's inadmissible Workloads
 * (QueueAssociatedInadmissibleWorkloadsAfter) and wakes the scheduler
 * (Broadcast). drasim releases an evicted Workload's quota when its pods are
 * gone (gate_ended), so the replacement becomes a head then (REQ_HELD until
 * requeue_released), and a timer wakes its tree when that instant has no
 * other event. Two floors: never in the instant that preempted it (Kueue
 * requeues it after the scheduling cycle that evicted it; drasim's next
 * instant is 1 ms later -- without this a victim deleted at once could be
 * readmitted and preempted again in the same instant forever), and for a
 * PodsReadyTimeout eviction not before RequeueState.RequeueAt (the Update
 * handler requeues at once only when the backoff is over; Reconcile does it
 * at RequeueAt otherwise). A deactivated Workload is never requeued. */
static void gate_requeued(void *ctx, uint32_t victim, uint32_t rep) {
    kq_gate *g = ctx;
    if (victim >= g->pods.len || rep >= g->pods.len) return;
    if (g->pods.data[victim].gw) victim = g->gangs.data[g->pods.data[victim].gw - 1].members.data[0];
    const pod_rec *vp = &g->pods.data[victim];
    const pod_ext *v = ext_get(g, vp);
    int64_t v_created = created_of(g, vp);
    uint32_t v_wid = wid_of(g, victim);
    /* GetQueueOrderTimestamp: the PodsReadyTimeout eviction's time with
     * requeuingStrategy.timestamp Eviction, else the creation time */
    int64_t order = v->evicted_by == BY_TIMEOUT && !g->wr->creation_timestamp ? v->evicted_at : v_created;
    int64_t floor = v->evicted_by == BY_TIMEOUT && v->requeue_at > g->now + 1 ? v->requeue_at : g->now + 1;
    bool deact = v->evicted_by == BY_DEACTIVATION;
    bool held = vp->wl != NULL && !deact;   /* its quota not released yet (its pods still terminating) */
    int64_t not_before = held ? REQ_HELD : floor;
    int32_t v_requeues = v->requeues, cq = vp->cq;
    if (held) {   /* requeue_released finishes it; one entry per requeued Workload */
        uint32_t rgw = g->pods.data[rep].gw;
        bool known = false;
        for (size_t i = 0; i < g->heirs.len && !known; i++)
            known = g->heirs.data[i].victim == victim &&
                    (rgw ? g->pods.data[g->heirs.data[i].rep].gw == rgw : g->heirs.data[i].rep == rep);
        if (!known) VEC_PUSH(g->heirs, ((heir){victim, rep}));
        pod_ext *ve = ext_of(g, victim);   /* v may move: not used below */
        ve->requeue_at = floor;
        ve->heirs = true;
    } else if (!deact) {
        requeue_wake(g, cq, floor);
    }
    if (g->pods.data[rep].gw) {   /* a gang: its new Workload keeps the old order */
        gang_wl *gw = &g->gangs.data[g->pods.data[rep].gw - 1];
        if (gw->order < 0 || order < gw->order) gw->order = order;
        gw->created = v_created;
        gw->requeues = v_requeues;
        gw->wid = v_wid + 1;
        gw->not_before = not_before;
        gw->deactivated = deact;
        rep = gw->members.data[0];
        if (!g->pods.data[rep].pending) return;   /* still collecting: applied at completion (gang_collect) */
        order = gw->order;
    }
    if (!g->pods.data[rep].pending) return;
    pod_ext *e = ext_of(g, rep);
    e->order = order;
    e->created = v_created;
    e->requeues = v_requeues;
    e->wid = v_wid;
    e->not_before = not_before;
    pod_rec *p = &g->pods.data[rep];
    if (deact) {   /* spec.active false: never queued again (left in `pending` until the cycle's clean-up) */
        p->pending = false;
        g->cqs[p->cq].adm_hi = g->cqs[p->cq].pending.len;   /* that clean-up covers the whole list */
        g->cls[p->cls].deactivated++;
        mark_dirty(g, g->l.s.nodes[p->cq]);
        return;
    }
    cq_state *cs = &g->cqs[p->cq];
    cs->adm_hi = cs->pending.len;   /* order changed: compact the whole list (gate_cycle) */
    for (size_t i = cs->pending.len; i-- > 0;)
        if (cs->pending.data[i] == rep) {
            sift_up(g, cs, i);
            break;
        }
}

/* Evicted Workload `pod` (a gang's leader) released its quota at t: the
 * Workloads it was requeued as are heads again from then (not before the
 * floor gate_requeued kept in its requeue_at); gate_ended marked its tree
 * dirty, so a requeue at t is seen in this instant's cycle, a later one
 * gets a timer. */
static void requeue_released(kq_gate *g, uint32_t pod, int64_t t) {
    pod_ext *e = ext_of(g, pod);
    e->heirs = false;
    int64_t at = e->requeue_at > t ? e->requeue_at : t;
    size_t keep = 0;
    for (size_t i = 0; i < g->heirs.len; i++) {
        heir h = g->heirs.data[i];
        if (h.victim == pod) set_requeue(g, h.rep, at);
        else g->heirs.data[keep++] = h;
    }
    g->heirs.len = keep;
    if (at > t) requeue_wake(g, g->pods.data[pod].cq, at);
}

/* TAS: any pod that ends frees node capacity: every tree tries again
 * (Kueue requeues inadmissible Workloads on such changes). */
static void tas_pod_ended(kq_gate *g, uint32_t pod) {
    kq_tas_run_ended(g->tas, pod);
    for (size_t q = 0; q < g->l.s.ncq; q++) mark_dirty(g, g->l.s.nodes[q]);
}

static void gate_ended(void *ctx, uint32_t pod, int64_t t) {
    kq_gate *g = ctx;
    if (g->tas) tas_pod_ended(g, pod);
    if (pod >= g->pods.len) return;
    if (g->pods.data[pod].gw) {   /* a gang member: the Workload ends with its last pod */
        pod_rec *m = &g->pods.data[pod];
        if (!m->holds) return;
        m->holds = false;
        gang_wl *gw = &g->gangs.data[m->gw - 1];
        if (--gw->live > 0) return;
        pod = gw->members.data[0];
    }
    if (!g->pods.data[pod].wl) return;
    disarm(g, pod, t);
    pod_rec *p = &g->pods.data[pod];
    cq_state *cs = &g->cqs[p->cq];
    cs->holding--;
    if (!p->bound) {   /* gone before kube-scheduler placed it */
        cs->unbound--;
        VEC_PUSH(cs->unsched, t - p->wl->reserved_ms);
    }
    kq_unadmit_wl(&g->l.s, p->wl);
    afs_charge(g, &g->cls[p->cls], p->wl, -1, t);
    mark_dirty(g, p->wl->cq);
    wl_release(g, p->wl);
    p->wl = NULL;
    if (p->ext && g->ext.data[p->ext - 1].heirs) requeue_released(g, pod, t);   /* evicted: requeued now */
}

/* Kueue's cycle for one pending pod against the current usage (r filled;
 * kq_result_free by the caller). */
static void evaluate(kq_gate *g, uint32_t pod, kq_result *r) {
    pod_rec *p = &g->pods.data[pod];
    cls_info *ci = &g->cls[p->cls];
    kq_node *cq = g->l.s.nodes[p->cq];
    const char *name = g->main_name;
    int32_t one = p->gw ? (int32_t)g->gangs.data[p->gw - 1].members.len : 1;   /* pods in the pod set */
    const k8s_pod *spec = &ci->spec;
    const kq_topology_request *tr = ci->tas.has ? &ci->tas : NULL;
    const int64_t *amounts = ci->amounts;   /* tas_spec's requests are a prefix of spec's */
    kq_pending pd = {.cq = cq, .ps_names = &name, .ps_counts = &one, .ps_specs = &spec, .ps_tas = &tr,
                     .ps_amounts = &amounts, .npod_sets = 1};
    pd.wl.name = name;
    pd.wl.priority = ci->priority;
    pd.wl.order_ms = order_of(g, p);
    pd.wl.reserved_ms = -1;
    pd.wl.cq = cq;
    pd.wl.seq = pod;
    kq_try_admit(&g->l.s, &pd, r);
    if (g->tas) {   /* Kueue TAS: the assignment from the live nodes, by the pod spec only (kq_tas_run.h) */
        const k8s_pod *ts = &ci->tas_spec;
        kq_pending tp = pd;
        tp.ps_specs = &ts;
        kq_tas_run_step(g->tas, &g->l.s, pod, &tp, r);
    }
}

/* The usage per (flavor, resource) of the flavors chosen in r for one pod
 * of `spec` (out has r->nchoices entries); returns how many. */
static size_t charge_of(kq_gate *g, const k8s_pod *spec, const kq_result *r, kq_usage *out) {
    size_t n = 0;
    for (size_t i = 0; i < r->nchoices; i++) {
        const kq_choice *c = &r->choices[i];
        int64_t amt = 0;
        for (size_t k = 0; k < spec->nrequests; k++)
            if (spec->requests[k].name == c->resource) amt = kq_resource_value(c->resource, &spec->requests[k].value);
        if (!strcmp(c->resource, "pods")) amt = 1;
        out[n++] = (kq_usage){kq_fr_index(&g->l.s, c->flavor, c->resource), amt};
    }
    return n;
}

/* Charge the admitted pod's usage (one Workload in the snapshot). */
static void admit(kq_gate *g, uint32_t pod, const kq_result *r, int64_t t) {
    pod_rec *p = &g->pods.data[pod];
    cls_info *ci = &g->cls[p->cls];
    const k8s_pod *spec = &ci->spec;
    kq_node *cq = g->l.s.nodes[p->cq];
    kq_wl *w = wl_new(g, r->nchoices);
    w->nusage = charge_of(g, spec, r, w->usage);
    if (p->gw) {   /* a gang: count x the pod's, all its pods admitted together */
        gang_wl *gw = &g->gangs.data[p->gw - 1];
        for (size_t i = 0; i < w->nusage; i++) w->usage[i].amount = kq_sat_add(0, w->usage[i].amount * (int64_t)gw->members.len);
        gw->live = (int32_t)gw->members.len;
        gw->nbound = 0;
        for (size_t i = 0; i < gw->members.len; i++) {
            pod_rec *m = &g->pods.data[gw->members.data[i]];
            m->holds = true;
            m->mbound = false;
        }
    }
    w->name = g->sc->ngroups > p->cls ? g->sc->groups[p->cls].name : intern("pod");
    w->priority = ci->priority;
    w->order_ms = order_of(g, p);
    w->reserved_ms = t;   /* the admission time (pod_rec.wl) */
    w->cq = cq;
    w->seq = pod;
    kq_admit_wl(&g->l.s, w);
    afs_charge(g, ci, w, +1, t);
    p->wl = w;
    p->pending = false;
    p->bound = false;
    if (g->wr->on) {   /* the PodsReady deadline (workload_controller.go admittedNotReadyWorkload) */
        p->armed = true;
        g->awaiting++;
        kq_timers_push(&g->timers, t + g->wr->timeout_ms, pod, T_DEADLINE);
        VEC_PUSH(g->wakes, t + g->wr->timeout_ms);
    }
    cq_state *cs = &g->cqs[cq->index];
    cs->holding++;
    cs->unbound++;
    VEC_PUSH(cs->waits, t - p->arrival);
    cs->admitted++;
    if (r->borrowing) cs->admitted_borrowing++;
}

/* The class's why-pending line: drasim's queue-level line (else Kueue's
 * message), and for a head waiting for its victims, how many. Called for
 * every head that does not fit in every cycle, so it takes the result's
 * buffer instead of copying it (r->why or r->reason is left empty). */
static void remember_why(kq_gate *g, uint32_t pod, kq_result *r) {
    cls_info *ci = &g->cls[g->pods.data[pod].cls];
    strbuf *src = r->why.len ? &r->why : &r->reason;
    strbuf b = *src;
    *src = (strbuf){0};
    if (!b.s) sb_puts(&b, "");
    if (r->mode == KQ_PREEMPT && r->nvictims)
        sb_printf(&b, "; waiting for %zu preempted Workload(s) to end", r->nvictims);
    free(ci->why);
    ci->why = b.s;
    ci->failed_cycle = g->cycle_no;
}

static int reason_index(const char *reason) {
    for (int i = 0; i < R_N; i++)
        if (!strcmp(reason, REASONS[i])) return i;
    return R_IN_CQ;
}

/* The pod of an admitted Workload (its seq is the pod id). */
static uint32_t wl_pod(const kq_wl *w) { return (uint32_t)w->seq; }

/* Issue the preemptions of head `pod`: victims not evicted yet are marked and
 * handed to the engine. False when a victim is already a target of another
 * head of this cycle (preemptedWorkloads.HasAny: the head is skipped). */
static bool preempt(kq_gate *g, uint32_t pod, const kq_result *r, wl_vec *targeted, queue_cycle_out *out) {
    for (size_t i = 0; i < r->nvictims; i++)
        for (size_t k = 0; k < targeted->len; k++)
            if (targeted->data[k] == r->victims[i].wl) return false;
    cq_state *cs = &g->cqs[g->pods.data[pod].cq];
    for (size_t i = 0; i < r->nvictims; i++) {
        kq_wl *w = r->victims[i].wl;
        VEC_PUSH(*targeted, w);
        if (w->evicted) continue;   /* already on its way out: wait for it */
        kq_wl_mark_evicted(w);
        disarm(g, wl_pod(w), g->now);
        int k = reason_index(r->victims[i].reason);
        cs->preemptions[k]++;
        g->cqs[w->cq->index].preempted++;
        uint32_t vp = wl_pod(w);
        if (g->pods.data[vp].gw) {   /* a gang: the whole Workload is evicted */
            const gang_wl *gw = &g->gangs.data[g->pods.data[vp].gw - 1];
            for (size_t m = 0; m < gw->members.len; m++)
                if (g->pods.data[gw->members.data[m]].holds) {
                    queue_victim v = {gw->members.data[m], REASON_TEXT[k]};
                    VEC_PUSH(out->evict, v);
                }
            continue;
        }
        queue_victim v = {vp, REASON_TEXT[k]};
        VEC_PUSH(out->evict, v);
    }
    return true;
}

/* makeClassicalIterator: not borrowing first, higher priority, earlier
 * arrival (the queue-order timestamp), then ClusterQueue order. */
static const kq_gate *g_sort;
static int head_cmp(const void *pa, const void *pb) {
    const head *a = pa, *b = pb;
    if (a->r.borrowing != b->r.borrowing) return a->r.borrowing ? 1 : -1;
    const pod_rec *x = &g_sort->pods.data[a->pod], *y = &g_sort->pods.data[b->pod];
    int32_t px = g_sort->cls[x->cls].priority, py = g_sort->cls[y->cls].priority;
    if (px != py) return px > py ? -1 : 1;
    int64_t ox = order_of(g_sort, x), oy = order_of(g_sort, y);
    if (ox != oy) return ox < oy ? -1 : 1;
    return (a->cq > b->cq) - (a->cq < b->cq);
}

/* cluster_queue.go queueOrderingFunc: the Workloads not yet tried in this
 * instant by their LocalQueue's admission-fair-sharing usage (lower first),
 * then Kueue's order; recomputed for every head, as Kueue rebuilds its heap. */
static const kq_gate *g_afs;
static double afs_usage_of(const kq_gate *g, uint32_t pod) {
    int32_t l = g->cls[g->pods.data[pod].cls].lqi;
    return l < 0 ? 0 : kq_afs_usage(&g->afs, (size_t)l);
}
static int afs_cmp(const void *pa, const void *pb) {
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    double ua = afs_usage_of(g_afs, a), ub = afs_usage_of(g_afs, b);
    if (ua != ub) return ua < ub ? -1 : 1;
    return before(g_afs, a, b) ? -1 : before(g_afs, b, a) ? 1 : 0;
}
static void afs_order(kq_gate *g, cq_state *cs) {
    if (cs->pending.len - cs->cursor < 2) return;
    g_afs = g;
    /* an entry admitted in this instant may move past adm_hi: compact the whole list */
    if (cs->adm_hi > cs->cursor) cs->adm_hi = cs->pending.len;
    qsort(cs->pending.data + cs->cursor, cs->pending.len - cs->cursor, sizeof *cs->pending.data, afs_cmp);
}

/* The heads of the ClusterQueues not settled in this instant. BestEffortFIFO
 * passes over Workloads found inadmissible in this instant (and their twins
 * of the same class); StrictFIFO settles at its first. */
static void collect_heads(kq_gate *g) {
    g->heads.len = 0;
    if (g->blocked) return;
    for (size_t a = 0; a < g->active.len; a++) {   /* the others are settled */
        uint32_t q = g->active.data[a];
        cq_state *cs = &g->cqs[q];
        if (cs->settled) continue;
        if (g->afs_on && g->l.s.nodes[q]->cq->usage_based_afs) afs_order(g, cs);
        while (cs->cursor < cs->pending.len) {
            const pod_rec *p = &g->pods.data[cs->pending.data[cs->cursor]];
            if (p->pending && g->cls[p->cls].failed_cycle != g->cycle_no && ext_get(g, p)->not_before <= g->now) break;
            cs->cursor++;
        }
        if (cs->cursor == cs->pending.len) {
            cs->settled = true;
            continue;
        }
        head h = {.pod = cs->pending.data[cs->cursor], .cq = (uint32_t)q};
        VEC_PUSH(g->heads, h);
    }
}

/* One Kueue scheduling cycle over the current heads (scheduler.go schedule:
 * nominate, order, processEntry). A head is evaluated again when an earlier
 * head of the cycle changed its cohort tree's usage (Kueue's `fits` check
 * after the others). */
static void process_head(kq_gate *g, head *h, int64_t t, wl_vec *targeted, queue_cycle_out *out);

/* The fair-sharing iterator (kq_fs_order.c): the heads in tournament order,
 * by the DRS their nominated usage would give, recomputed after each. */
static void fair_order(kq_gate *g, int64_t t, wl_vec *targeted, queue_cycle_out *out) {
    size_t n = g->heads.len;
    kq_fs_entry *e = xcalloc(n, sizeof *e);
    bool *done = xcalloc(n, sizeof *done);
    for (size_t i = 0; i < n; i++) {
        head *h = &g->heads.data[i];
        const pod_rec *p = &g->pods.data[h->pod];
        kq_usage *u = xmalloc((h->r.nchoices ? h->r.nchoices : 1) * sizeof *u);
        e[i] = (kq_fs_entry){g->l.s.nodes[h->cq], u, charge_of(g, &g->cls[p->cls].spec, &h->r, u),
                             g->cls[p->cls].priority, order_of(g, p)};
    }
    size_t k;
    while ((k = kq_fs_next(&g->l.s, e, n, done)) != SIZE_MAX) {
        done[k] = true;
        process_head(g, &g->heads.data[k], t, targeted, out);
    }
    for (size_t i = 0; i < n; i++) free((void *)e[i].usage);
    free(e);
    free(done);
}

static void one_cycle(kq_gate *g, int64_t t, wl_vec *targeted, queue_cycle_out *out) {
    targeted->len = 0;
    if (g->tas) kq_tas_run_cycle(g->tas);
    for (size_t i = 0; i < g->heads.len; i++) evaluate(g, g->heads.data[i].pod, &g->heads.data[i].r);
    memset(g->round_used, 0, g->l.s.nnodes * sizeof *g->round_used);
    if (g->l.s.fair_sharing) {
        fair_order(g, t, targeted, out);
        return;
    }
    g_sort = g;
    if (g->heads.len > 1) qsort(g->heads.data, g->heads.len, sizeof *g->heads.data, head_cmp);
    for (size_t i = 0; i < g->heads.len; i++) process_head(g, &g->heads.data[i], t, targeted, out);
}

/* processEntry for one head: admit, preempt or note why not. */
static void process_head(kq_gate *g, head *h, int64_t t, wl_vec *targeted, queue_cycle_out *out) {
    if (g->blocked) {   /* blockAdmission: the scheduler waits (Kueue's cache.WaitForPodsReady) */
        kq_result_free(&h->r);
        return;
    }
    kq_node *cq = g->l.s.nodes[h->cq];
    cq_state *cs = &g->cqs[cq->index];
    bool *used = &g->round_used[root_of(cq)->index];
    if (*used || (g->tas && kq_tas_run_changed(g->tas))) {   /* TAS: the nodes are shared by every tree */
        kq_result_free(&h->r);
        evaluate(g, h->pod, &h->r);
    }
    if (h->r.admitted && g->wr->on && g->wr->block_admission && g->awaiting > 0) {
        /* scheduler.go waitForPodsReadyIfNeeded: an entry that fits waits until
         * every admitted Workload is PodsReady; no other entry goes on meanwhile */
        cls_info *ci = &g->cls[g->pods.data[h->pod].cls];
        free(ci->why);
        ci->why = xstrdup("waiting for all admitted workloads to be in PodsReady condition");
        g->blocked = true;
        for (size_t q = 0; q < g->l.s.ncq; q++) g->cqs[q].settled = true;
    } else if (h->r.admitted) {
        if (cs->cursor + 1 > cs->adm_hi) cs->adm_hi = cs->cursor + 1;
        admit(g, h->pod, &h->r, t);
        uint32_t gwi = g->pods.data[h->pod].gw;
        if (gwi) {   /* every pod of the gang goes to the scheduler */
            const gang_wl *gw = &g->gangs.data[gwi - 1];
            for (size_t m = 0; m < gw->members.len; m++) VEC_PUSH(out->admitted, gw->members.data[m]);
            if (g->tas)
                kq_tas_run_commit(g->tas, h->pod, gw->members.data, gw->members.len,
                                  &g->cls[g->pods.data[h->pod].cls].tas_spec, out);
        } else {
            VEC_PUSH(out->admitted, h->pod);
            if (g->tas) kq_tas_run_commit(g->tas, h->pod, &h->pod, 1, &g->cls[g->pods.data[h->pod].cls].tas_spec, out);
        }
        *used = true;
    } else if (h->r.mode == KQ_PREEMPT && h->r.nvictims) {
        /* waits for its victims: it stays the head and blocks the queue;
         * overlapping another head's victims, it is tried in the next cycle */
        remember_why(g, h->pod, &h->r);
        if (preempt(g, h->pod, &h->r, targeted, out)) cs->settled = true;
    } else {
        remember_why(g, h->pod, &h->r);
        if (cq->cq->strict_fifo) cs->settled = true;   /* StrictFIFO: the head blocks the queue */
        /* BestEffortFIFO passes over the rest of the head's class in this
         * instant (collect_heads): with a single class the queue is done */
        else if (cs->one_cls >= 0) cs->settled = true;
        else cs->cursor++;
    }
    kq_result_free(&h->r);
}

/* reconcileNotReadyTimeout for Workload `pod` (a gang's leader) whose pods
 * are not all Ready at its deadline t: evicted (its pods go, its quota when
 * they are gone) and requeued after Kueue's backoff (UpdateRequeueState);
 * once requeueState.count would exceed backoffLimitCount it is deactivated
 * instead (triggerDeactivation) and never queued again. The jitter is drawn
 * from a stream of its own per (seed, Workload, count): deterministic, and
 * independent of every other draw of the run. */
static void time_out(kq_gate *g, uint32_t pod, int64_t t, queue_cycle_out *out) {
    disarm(g, pod, t);
    pod_ext *e = ext_of(g, pod);
    pod_rec *p = &g->pods.data[pod];
    cls_info *ci = &g->cls[p->cls];
    cq_state *cs = &g->cqs[p->cq];
    const kq_wait_ready *wr = g->wr;
    kq_wl_mark_evicted(p->wl);
    strbuf b = {0};
    const char *text;
    if (wr->backoff_limit >= 0 && (int64_t)e->requeues + 1 > wr->backoff_limit) {
        e->evicted_by = BY_DEACTIVATION;
        cs->evicted_deactivated++;
        text = DEACT_TEXT;
        sb_printf(&b, "ClusterQueue %s: Workload deactivated after %d PodsReady timeout(s) (backoffLimitCount %lld)",
                  g->l.s.nodes[p->cq]->name, e->requeues + 1, (long long)wr->backoff_limit);
    } else {
        e->requeues++;
        rng r;
        rng_identity(&g->jitter, "kueue.requeue", e->wid, (uint64_t)e->requeues, &r);
        int64_t wait = kq_requeue_backoff_ms(wr->backoff_base_s, wr->backoff_max_s, e->requeues, rng_uniform(&r));
        e->evicted_by = BY_TIMEOUT;
        e->evicted_at = t;
        e->requeue_at = t + wait;
        cs->evicted_timeout++;
        text = TIMEOUT_TEXT;   /* requeued at the backoff's end, once its pods are gone (gate_requeued) */
        sb_printf(&b, "ClusterQueue %s: evicted after the PodsReady timeout %.0f s (%d time(s)); requeued after a backoff of %.3f s",
                  g->l.s.nodes[p->cq]->name, (double)wr->timeout_ms / 1000.0, e->requeues, (double)wait / 1000.0);
    }
    free(ci->why);
    ci->why = xstrdup(sb_str(&b));
    sb_free(&b);
    if (p->gw) {   /* a gang: every pod of the Workload goes */
        const gang_wl *gw = &g->gangs.data[p->gw - 1];
        for (size_t m = 0; m < gw->members.len; m++)
            if (g->pods.data[gw->members.data[m]].holds) {
                queue_victim v = {gw->members.data[m], text};
                VEC_PUSH(out->evict, v);
            }
        return;
    }
    queue_victim v = {pod, text};
    VEC_PUSH(out->evict, v);
}

/* The gate's timers due at t: deadlines of Workloads still not Ready (a
 * deadline whose Workload was Ready, ended, evicted or admitted again since
 * is stale), ends of backoffs (the ClusterQueue's tree cycles again). */
static void fire_timers(kq_gate *g, int64_t t, queue_cycle_out *out) {
    kq_timer x;
    while (kq_timers_pop_due(&g->timers, t, &x)) {
        if (x.what == T_REQUEUE) {
            g->requeues_due--;
            mark_dirty(g, g->l.s.nodes[x.id]);
            continue;
        }
        if (x.what == T_SAMPLE) {   /* reconcileConsumedUsage, an interval after the last update */
            kq_afs_lq *l = &g->afs.lqs[x.id];
            if (l->last_update + g->afs.cfg->sampling_ms != x.t) continue;   /* updated since */
            kq_afs_sample(&g->afs, x.id, t);
            kq_timers_push(&g->timers, t + g->afs.cfg->sampling_ms, x.id, T_SAMPLE);
            VEC_PUSH(g->wakes, t + g->afs.cfg->sampling_ms);
            const kq_node *cq = kq_snapshot_cq(&g->l.s, g->sc->queues->lqs.data[x.id]->cluster_queue);
            if (cq) mark_dirty(g, cq);   /* the order of its pending Workloads changed */
            continue;
        }
        const pod_rec *p = &g->pods.data[x.id];
        if (p->armed && p->wl && p->wl->reserved_ms + g->wr->timeout_ms == x.t) time_out(g, x.id, t, out);
    }
}

static int64_t gate_take_wake(void *ctx) {
    kq_gate *g = ctx;
    return g->wakes.len ? g->wakes.data[--g->wakes.len] : -1;
}

/* A Workload waits for its PodsReady deadline or for its requeue. */
static bool gate_busy(void *ctx) {
    const kq_gate *g = ctx;
    return g->awaiting > 0 || g->requeues_due > 0;
}

static void gate_cycle(void *ctx, int64_t t, queue_cycle_out *out) {
    kq_gate *g = ctx;
    g->now = t;
    if (g->timers.n) fire_timers(g, t, out);
    if (!g->any_dirty) return;
    g->any_dirty = false;
    g->cycle_no++;
    g->active.len = 0;   /* only the trees an arrival or a release changed; the rest stay settled */
    for (size_t d = 0; d < g->dirty_roots.len; d++) {   /* not a scan of every ClusterQueue per instant */
        uint32_t r = g->dirty_roots.data[d];
        for (uint32_t k = g->tree_start[r]; k < g->tree_start[r + 1]; k++) {
            uint32_t q = g->tree_cqs[k];
            g->cqs[q].cursor = 0;
            g->cqs[q].settled = false;
            VEC_PUSH(g->active, q);
        }
        g->dirty[r] = false;
    }
    if (g->dirty_roots.len > 1) qsort(g->active.data, g->active.len, sizeof *g->active.data, u32_cmp);   /* ascending */
    g->dirty_roots.len = 0;
    wl_vec targeted = {0};
    for (;;) {
        collect_heads(g);
        if (!g->heads.len) break;
        one_cycle(g, t, &targeted, out);
    }
    VEC_FREE(targeted);
    for (size_t a = 0; a < g->active.len; a++) {   /* drop the admitted from the pending lists */
        cq_state *cs = &g->cqs[g->active.data[a]];
        size_t hi = cs->adm_hi < cs->pending.len ? cs->adm_hi : cs->pending.len, keep = 0;
        if (!hi) continue;   /* admitted nothing: only heads are admitted, at indices below adm_hi */
        for (size_t i = 0; i < hi; i++)
            if (g->pods.data[cs->pending.data[i]].pending) cs->pending.data[keep++] = cs->pending.data[i];
        memmove(cs->pending.data + keep, cs->pending.data + hi, (cs->pending.len - hi) * sizeof *cs->pending.data);
        cs->pending.len -= hi - keep;
        cs->adm_hi = 0;
    }
}

static void gate_bound(void *ctx, uint32_t pod, int32_t node, int64_t t) {
    (void)node;
    kq_gate *g = ctx;
    if (g->tas) kq_tas_run_bound(g->tas, pod);
    if (pod < g->pods.len && g->pods.data[pod].gw) {   /* a gang: placed once all its pods are */
        pod_rec *m = &g->pods.data[pod];
        if (!m->holds || m->mbound) return;
        m->mbound = true;
        gang_wl *gw = &g->gangs.data[m->gw - 1];
        if (++gw->nbound < (int32_t)gw->members.len) return;
        pod = gw->members.data[0];
    }
    if (pod >= g->pods.len || !g->pods.data[pod].wl || g->pods.data[pod].bound) return;
    pod_rec *p = &g->pods.data[pod];
    p->bound = true;
    disarm(g, pod, t);   /* PodsReady */
    cq_state *cs = &g->cqs[p->cq];
    cs->unbound--;
    VEC_PUSH(cs->unsched, t - p->wl->reserved_ms);
}

/* Kueue's units (cpu in millicores) as the table's (cores). */
static double natural(const char *resource, int64_t v) {
    return strcmp(resource, "cpu") == 0 ? (double)v / 1000.0 : (double)v;
}

/* Every ClusterQueue's usage per (flavor, resource) of its quota, borrowed
 * beyond nominal (Kueue's status.flavorsUsage[].resources[].borrowed), and
 * its pending, admitted, unscheduled Workloads and Dominant Resource Share. */
static void gate_sample(void *ctx, int64_t t) {
    kq_gate *g = ctx;
    const kq_snapshot *s = &g->l.s;
    for (size_t q = 0; q < s->ncq; q++) {
        const kq_node *n = s->nodes[q];
        for (uint32_t fr = 0; fr < s->nfr; fr++) {
            if (!n->declared[fr]) continue;
            const char *res = s->frs[fr].resource;
            int64_t over = n->usage[fr] - n->nominal[fr];
            queue_usage_row u = {t, n->name, s->frs[fr].flavor, res, natural(res, n->nominal[fr]),
                                 natural(res, n->usage[fr]), over > 0 ? natural(res, over) : 0};
            VEC_PUSH(g->samples.usage, u);
        }
        const cq_state *cs = &g->cqs[q];
        kq_drs d = kq_dominant_share(s, n, NULL, 0);
        queue_state_row st = {t, n->name, (int64_t)cs->pending.len, cs->holding, cs->unbound, kq_drs_value(&d),
                              d.dominant};
        VEC_PUSH(g->samples.state, st);
    }
}

static const queue_samples *gate_samples(void *ctx) { return &((kq_gate *)ctx)->samples; }

static const char *gate_why(void *ctx, uint32_t cls) {
    kq_gate *g = ctx;
    if (cls >= g->ncls || !g->cls[cls].managed) return NULL;
    cls_info *ci = &g->cls[cls];
    if (!ci->cq || ci->inadmissible) return ci->why;
    const cq_state *cs = &g->cqs[ci->cq->index];
    for (size_t i = 0; i < cs->pending.len; i++)
        if (g->pods.data[cs->pending.data[i]].cls == cls) {
            if (!ci->why) {   /* never a head: queued behind others */
                strbuf b = {0};
                sb_printf(&b, "ClusterQueue %s: queued behind %zu earlier Workload(s)", ci->cq->name, i);
                ci->why = xstrdup(sb_str(&b));
                sb_free(&b);
            }
            return ci->why;
        }
    return ci->deactivated ? ci->why : NULL;   /* held for a deactivated Workload */
}

/* Time admitted but not yet placed by kube-scheduler, per Workload admitted:
 * to its bind, to its end when it went first, censored at the end of the run. */
static void add_unscheduled(kq_gate *g, size_t q, int64_t end, queue_metric_fn add, void *ud) {
    cq_state *cs = &g->cqs[q];
    size_t n = cs->unsched.len + (size_t)cs->unbound;
    if (n == 0) return;
    int64_t *w = xmalloc(n * sizeof *w);
    if (cs->unsched.len) memcpy(w, cs->unsched.data, cs->unsched.len * sizeof *w);   /* an empty vector's data is NULL */
    size_t k = cs->unsched.len;
    for (size_t i = 0; i < g->pods.len && k < n; i++) {
        const pod_rec *p = &g->pods.data[i];
        if (p->wl && !p->bound && p->cq == (int32_t)q) w[k++] = end - p->wl->reserved_ms;
    }
    queue_add_waits("queue_unscheduled_censored", w, k, add, ud, g->l.s.nodes[q]->name);
    free(w);
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
        /* Kueue's kueue_preempted_workloads_total{preempting_cluster_queue, reason} and
         * kueue_evicted_workloads_total{cluster_queue, reason=Preempted} */
        int64_t total = 0;
        for (int k = 0; k < R_N; k++) {
            char name[64];
            snprintf(name, sizeof name, "queue_preemptions_%s", REASONS[k]);
            add(ud, intern(name), (double)cs->preemptions[k], grp);
            total += cs->preemptions[k];
        }
        add(ud, "queue_preemptions", (double)total, grp);
        add(ud, "queue_preempted", (double)cs->preempted, grp);
        if (g->wr->on) {   /* kueue_evicted_workloads_total{cluster_queue, reason} of waitForPodsReady */
            add(ud, "queue_evicted_PodsReadyTimeout", (double)cs->evicted_timeout, grp);
            add(ud, "queue_evicted_Deactivated", (double)cs->evicted_deactivated, grp);
        }
        add_unscheduled(g, q, end, add, ud);
        if (g->tas) {   /* nodes of its TAS flavors outside their Topology (a warning; only when some) */
            size_t un = 0;
            const kq_cluster_queue *cq = g->l.s.nodes[q]->cq;
            for (size_t rg = 0; rg < cq->ngroups; rg++)
                for (size_t f = 0; f < cq->groups[rg].nflavors; f++)
                    un += kq_tas_run_unlabelled(g->tas, kq_find_flavor(g->sc->queues, cq->groups[rg].flavors[f].flavor));
            if (un) add(ud, "queue_tas_unlabelled_nodes", (double)un, grp);
        }
        if (n == 0) continue;
        /* time to admission, censored: a Workload still pending counts until the end */
        int64_t *w = xmalloc(n * sizeof *w);
        if (cs->waits.len) memcpy(w, cs->waits.data, cs->waits.len * sizeof *w);   /* none admitted: data is NULL */
        for (size_t i = 0; i < cs->pending.len; i++) w[cs->waits.len + i] = end - g->pods.data[cs->pending.data[i]].arrival;
        queue_add_waits("queue_wait_censored", w, n, add, ud, grp);
        free(w);
    }
    if (g->missing_lq_pods) add(ud, "queue_missing_local_queue_pods", (double)g->missing_lq_pods, NULL);
}

static void gate_free(void *ctx) {
    kq_gate *g = ctx;
    for (size_t i = 0; i < g->ncls; i++) {
        free(g->cls[i].why);
        free(g->cls[i].spec.requests);
        free(g->cls[i].amounts);
    }
    free(g->cls);
    VEC_FREE(g->heads);
    for (size_t i = 0; i < g->gangs.len; i++) VEC_FREE(g->gangs.data[i].members);
    VEC_FREE(g->gangs);
    VEC_FREE(g->samples.usage);
    VEC_FREE(g->samples.state);
    free(g->round_used);
    kq_tas_run_free(g->tas);
    kq_timers_free(&g->timers);
    kq_afs_free(&g->afs);
    VEC_FREE(g->wakes);
    VEC_FREE(g->heirs);
    for (size_t i = 0; i < g->pods.len; i++)
        if (g->pods.data[i].wl && block_of(g->pods.data[i].wl)->h.cap > WL_POOL_CAP) free(block_of(g->pods.data[i].wl));
    for (size_t i = 0; i < g->pool.slabs.len; i++) free(g->pool.slabs.data[i]);
    VEC_FREE(g->pool.slabs);
    for (size_t q = 0; q < g->l.s.ncq; q++) {
        VEC_FREE(g->cqs[q].pending);
        VEC_FREE(g->cqs[q].waits);
        VEC_FREE(g->cqs[q].unsched);
    }
    free(g->cqs);
    free(g->root);
    VEC_FREE(g->active);
    free(g->dirty);
    VEC_FREE(g->dirty_roots);
    free(g->tree_cqs);
    free(g->tree_start);
    VEC_FREE(g->pods);
    VEC_FREE(g->ext);
    kq_loaded_free(&g->l);
    free(g);
}

/* A dump's running pod (cluster.state) is an admitted Workload already:
 * charge its requests to its ClusterQueue at t, bound, so the queue starts
 * with the usage the recorded cluster had (Kueue's cache counts the usage of
 * every admitted Workload: pkg/cache/scheduler/cache.go addOrUpdateWorkload,
 * kueue ff69552e79). The dump has Pods, not Workloads, so the flavor per
 * resource is the first of the covering resource group whose ResourceFlavor
 * nodeLabels the pod's node carries (an admitted pod is pinned to its
 * flavor's nodeLabels), else the group's first; resources no group covers
 * are not charged. Returns false when the pod's class is not Kueue's or its
 * LocalQueue does not exist (the pod is not charged). */
static bool node_has(const k8s_kv *labels, size_t n, const k8s_kv *want) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(labels[i].key, want->key)) return !strcmp(labels[i].value, want->value);
    return false;
}
static bool gate_running(void *ctx, uint32_t pod, uint32_t cls, const pod_group_spec *ps, int32_t node,
                         const k8s_kv *node_labels, size_t nnode_labels, int64_t t) {
    (void)node;
    kq_gate *g = ctx;
    if (cls >= g->ncls) {
        g->cls = xrealloc(g->cls, (cls + 1) * sizeof *g->cls);
        memset(g->cls + g->ncls, 0, (cls + 1 - g->ncls) * sizeof *g->cls);
        g->ncls = cls + 1;
    }
    if (!g->cls[cls].resolved) resolve(g, cls, ps);
    cls_info *ci = &g->cls[cls];
    if (!ci->managed || !ci->cq) return false;
    while (g->pods.len <= pod) {
        pod_rec z = {0};
        z.cq = -1;
        VEC_PUSH(g->pods, z);
    }
    const kq_cluster_queue *cq = ci->cq->cq;
    const k8s_pod *spec = &ci->spec;
    kq_wl *w = wl_new(g, spec->nrequests + 1);
    for (size_t k = 0; k < spec->nrequests; k++)
        for (size_t gi = 0; gi < cq->ngroups; gi++) {
            const kq_resource_group *rg = &cq->groups[gi];
            bool covers = false;
            for (size_t c = 0; c < rg->ncovered; c++) covers |= rg->covered[c] == spec->requests[k].name;
            if (!covers || !rg->nflavors) continue;
            const char *flavor = rg->flavors[0].flavor;
            for (size_t f = 0; f < rg->nflavors; f++) {
                const kq_flavor *fl = kq_find_flavor(g->sc->queues, rg->flavors[f].flavor);
                bool match = fl != NULL;
                for (size_t l = 0; fl && l < fl->nnode_labels; l++)
                    match &= node_has(node_labels, nnode_labels, &fl->node_labels[l]);
                if (match) {
                    flavor = rg->flavors[f].flavor;
                    break;
                }
            }
            w->usage[w->nusage++] = (kq_usage){kq_fr_index(&g->l.s, flavor, spec->requests[k].name),
                                               kq_resource_value(spec->requests[k].name, &spec->requests[k].value)};
            break;
        }
    pod_rec *p = &g->pods.data[pod];
    p->arrival = t;   /* order, created, wid: the defaults (pod_ext); admitted at t (w->reserved_ms) */
    p->cls = cls;
    p->cq = (int32_t)ci->cq->index;
    p->bound = true;
    w->name = intern("pod");
    w->priority = ci->priority;
    w->order_ms = w->reserved_ms = t;
    w->cq = ci->cq;
    w->seq = pod;
    kq_admit_wl(&g->l.s, w);
    afs_charge(g, ci, w, +1, t);
    p->wl = w;
    g->cqs[ci->cq->index].holding++;
    mark_dirty(g, ci->cq);
    return true;
}

/* Gang Workloads pending in a ClusterQueue (queue_gate.held_gangs). */
static void gate_held_gangs(void *ctx, void (*fn)(void *ud, uint32_t cls, int32_t pods), void *ud) {
    kq_gate *g = ctx;
    for (size_t q = 0; q < g->l.s.ncq; q++)
        for (size_t i = 0; i < g->cqs[q].pending.len; i++) {
            const pod_rec *p = &g->pods.data[g->cqs[q].pending.data[i]];
            if (p->pending && p->gw) fn(ud, p->cls, (int32_t)g->gangs.data[p->gw - 1].members.len);
        }
}

static void gate_cluster(void *ctx, const scheduler *s) {
    kq_gate *g = ctx;
    g->tas = kq_tas_run_new(g->sc->queues, s);
    if (s->dra) {   /* the ResourceSlices and DeviceClasses Kueue's DRA integration reads */
        const dra_state *d = s->dra;
        g->dra = (kq_dra_cluster){(const k8s_resource_slice *const *)d->slices, d->nslices,
                                  (const k8s_device_class *const *)d->classes, d->nclasses,
                                  {.consumable_capacity = d->features.consumable_capacity,
                                   .list_attributes = d->features.list_type_attributes, .device_env = true}};
    }
}

queue_gate *kq_gate_new(const scenario *sc) {
    if (!sc->queues) return NULL;
    kq_gate *g = xcalloc(1, sizeof *g);
    g->sc = sc;
    kq_load_admitted(&g->l, sc->queues);
    g->wr = &sc->queues->config.wait_ready;
    g->main_name = intern("main");
    rng_seed(&g->jitter, sc->seed);
    kq_afs_init(&g->afs, sc->queues);
    for (size_t l = 0; l < g->afs.nlq; l++)
        if (g->afs.lqs[l].on) {   /* Kueue's LocalQueue reconciler: an entry at the start, sampled an interval later */
            g->afs_on = true;
            kq_timers_push(&g->timers, g->afs.cfg->sampling_ms, (uint32_t)l, T_SAMPLE);
            VEC_PUSH(g->wakes, g->afs.cfg->sampling_ms);
        }
    g->ncls = sc->ngroups;
    g->cls = xcalloc(g->ncls ? g->ncls : 1, sizeof *g->cls);
    g->cqs = xcalloc(g->l.s.ncq ? g->l.s.ncq : 1, sizeof *g->cqs);
    g->root = xcalloc(g->l.s.ncq ? g->l.s.ncq : 1, sizeof *g->root);
    for (size_t q = 0; q < g->l.s.ncq; q++) {
        g->cqs[q].one_cls = -1;
        g->cqs[q].settled = true;   /* until an instant changes its tree (gate_cycle) */
        g->root[q] = (uint32_t)root_of(g->l.s.nodes[q])->index;
    }
    g->dirty = xcalloc(g->l.s.nnodes ? g->l.s.nnodes : 1, sizeof *g->dirty);
    g->tree_start = xcalloc(g->l.s.nnodes + 1, sizeof *g->tree_start);   /* counting sort of the CQs by root */
    g->tree_cqs = xcalloc(g->l.s.ncq ? g->l.s.ncq : 1, sizeof *g->tree_cqs);
    for (size_t q = 0; q < g->l.s.ncq; q++) g->tree_start[g->root[q] + 1]++;
    for (size_t r = 0; r < g->l.s.nnodes; r++) g->tree_start[r + 1] += g->tree_start[r];
    {
        uint32_t *fill = xcalloc(g->l.s.nnodes ? g->l.s.nnodes : 1, sizeof *fill);
        for (size_t q = 0; q < g->l.s.ncq; q++) {
            uint32_t r = g->root[q];
            g->tree_cqs[g->tree_start[r] + fill[r]++] = (uint32_t)q;
        }
        free(fill);
    }
    g->round_used = xcalloc(g->l.s.nnodes ? g->l.s.nnodes : 1, sizeof *g->round_used);
    queue_gate *q = xcalloc(1, sizeof *q);
    *q = (queue_gate){.ctx = g, .arrive = gate_arrive, .requeued = gate_requeued, .ended = gate_ended,
                      .cycle = gate_cycle, .bound = gate_bound, .sample = gate_sample, .samples = gate_samples,
                      .why = gate_why, .summarize = gate_summarize, .free = gate_free, .cluster = gate_cluster,
                      .running = gate_running, .held_gangs = gate_held_gangs, .take_wake = gate_take_wake,
                      .busy = gate_busy};   /* timers: requeues, waitForPodsReady, admission fair sharing */
    return q;
}

void queue_gate_free(queue_gate *q) {
    if (!q) return;
    q->free(q->ctx);
    free(q);
}
