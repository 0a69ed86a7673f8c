/*
 * kai_gate.c -- KAI-Scheduler's queueing in front of drasim's scheduler during
 * a run (queue/gate.h), over a scenario's `queues: {manager: kai}`.
 *
 * KAI is itself a scheduler; drasim models its queueing (fair share, queue and
 * job order, capacity checks, allocate / reclaim / preempt) and lets its own
 * kube-scheduler model place the pods KAI allocates (docs/QUEUES.md).
 * Followed release: NVIDIA/KAI-Scheduler v0.13.0 (5d35ecab74).
 *
 * - A pod of a group labelled kai.scheduler/queue belongs to that Queue
 *   (pkg/podgrouper/podgrouper/plugins/defaultgrouper/default_grouper.go
 *   CalcPodGroupQueue: the owner's or the pod's label). Each pod is one
 *   PodGroup (the pod-grouper's default for a bare pod, MinAvailable 1); a
 *   group with `gang:` is one PodGroup for all its `count` pods (minMember),
 *   allocated all together once every pod exists. A group without the label
 *   is not scheduled by KAI and goes straight to the scheduler (KAI would put
 *   it in default-queue).
 * - Priority: the label priorityClassName (constants.PriorityLabelKey), a
 *   PriorityClass of `queues` or KAI's predefined ones; else the group's
 *   `priority` when set; else train (50, calcPriorityClassWithDefaults).
 *   Preemptibility: the label kai.scheduler/preemptibility, else priority < 100
 *   (pkg/common/podgroup/preemptible.go).
 * - Each instant where an arrival or a release changed something, one KAI
 *   cycle (kai_cycle.c) runs over every PodGroup: the fair share is
 *   recomputed (kai_share.c), then allocate, reclaim, preempt. KAI's view of
 *   the cluster is the scheduler's live nodes (live_view): the total for the
 *   fair share (proportion.go setTotalResources) and each node's free
 *   resources for allocation node by node (kai_cycle.c place_n). A job
 *   allocated, or pipelined onto its victims' resources by reclaim or
 *   preempt, goes to the scheduler at once: KAI binds pipelined pods when the
 *   victims have left, and the victims hold their resources until then, so
 *   nothing else is allocated onto them. Victims are evicted whole through
 *   the engine's eviction path (grace period, the owner's replacement).
 * - A cluster.state dump's running pod with the queue label is an allocated
 *   PodGroup of its Queue from time 0 (gate_running; proportion.go
 *   updateQueuesCurrentResourceUsage).
 * - A Queue that does not exist keeps the pod pending with KAI's message
 *   ("Queue 'x' does not exist", cluster_info.go validatePodgroupQueue).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/queue_waits.h"
#include "queue/gate.h"
#include "queue/kai.h"
#include "queue/kai_snapshot.h"
#include "queue/kai_topology.h"
#include "sched/sched.h"
#include "util/intern.h"
#include "util/xalloc.h"

#define PREEMPTIBILITY_LABEL "kai.scheduler/preemptibility"   /* podgrouper constants.PreemptibilityLabelKey */
#define PRIORITY_LABEL "priorityClassName"                     /* podgrouper constants.PriorityLabelKey */

typedef struct cls_info {
    bool resolved, managed;
    int queue;                       /* leaf Queue index; -1 = does not exist */
    const char *queue_name;
    double req[KAI_NRES];            /* one pod's request in KAI's units */
    int32_t priority;
    bool preemptible;
    int32_t gang_size;               /* pods of its one PodGroup (0: a PodGroup per pod) */
    uint32_t gang_open;              /* job collecting its pods: index + 1 */
    const char *name, *ns;
    char *why;                       /* why its last pending job was not allocated */
    const kai_topo_constraint *topo; /* its pods' topology constraint (kai_topology.h), NULL = none */
} cls_info;

typedef struct gjob {
    kai_job j;
    VEC(uint32_t) pods;
    uint32_t cls;
    int64_t arrival;                 /* the PodGroup is complete: time to allocation counts from here */
    int64_t order;                   /* creation time for KAI's job order; -1 = not set */
    int64_t admitted_at, not_before;
    int32_t live, nbound;            /* admitted pods not ended; bound */
    bool pending, holding, bound;
    bool marked;                     /* a session left it pending: its pods are PodScheduled=False/Unschedulable */
} gjob;

enum { R_RECLAIM, R_PREEMPT, R_N };
static const char *const REASONS[R_N] = {"Reclaim", "Preempt"};

typedef struct q_stats {
    VEC(int64_t) waits;              /* allocated: ms from arrival to allocation */
    VEC(int64_t) unsched;            /* allocated then bound (or gone): ms from allocation */
    int64_t admitted, over_quota, preemptions[R_N], preempted;
    int64_t pending, holding, unbound;
} q_stats;

typedef struct kai_gate {
    const scenario *sc;
    kai_state s;
    cls_info *cls;
    size_t ncls;
    VEC(gjob *) jobs;                /* every job ever (index + 1 in pod_job) */
    VEC(uint32_t) active;            /* job indices pending or holding */
    VEC(uint32_t) pod_job;           /* per pod id: job index + 1, 0 = not KAI's */
    q_stats *qs;
    bool dirty;
    int64_t now;
    int64_t missing_queue_pods;
    VEC(uint32_t) missing_pods, missing_cls;   /* pods of Queues that do not exist, and their classes */
    queue_samples samples;
    const scheduler *sched;          /* the live nodes (gate_cluster); NULL: the pools' totals, aggregate fit */
    kai_node *nodes;                 /* per scheduler node: free now (live_view) */
    int res_cpu, res_mem;            /* the scheduler's resource indices */
    uint64_t presence;               /* a hash of the nodes present at the last cycle */
    VEC(int32_t) pod_node;           /* per pod id: the node it is bound on; NODE_* */
    kai_topo *topo;                  /* topology-aware placement, made for the first constrained pod */
} kai_gate;

enum { NODE_UNBOUND = -1, NODE_GONE = -2 };

/* kai_state.topo_place: the domain of a job with a topology constraint. */
static bool topo_place(void *ctx, kai_job *kj, kai_job *const *vic, size_t nv, bool commit) {
    kai_gate *g = ctx;
    const gjob *j = (const gjob *)kj;   /* kai_job is gjob's first member */
    return kai_topo_place(g->topo, kj, (const kai_job *const *)vic, nv, g->cls[j->cls].req, j->pods.len, commit);
}

static const char *label(const pod_group_spec *ps, const char *key) {
    for (size_t i = 0; i < ps->nlabels; i++)
        if (!strcmp(ps->labels[i].key, key)) return ps->labels[i].value;
    return NULL;
}

/* A pod of the group in KAI's units: cpu millicores, memory bytes, GPUs from
 * nvidia.com/gpu (device-plugin mode) or the DRA claims as KAI counts them. */
static void pod_request(const scenario *sc, const pod_group_spec *ps, double out[KAI_NRES]) {
    k8s_pod p = {0};
    p.requests = ps->requests;
    p.nrequests = ps->nrequests;
    kai_pod_request(NULL, &p, out);
    if (sc->sched.mode == SCHED_MODE_DEVICE_PLUGIN || !ps->ndra_claims) {
        for (size_t i = 0; ps->has_dp && i < ps->ndp_resources; i++)
            if (!strcmp(ps->dp_resources[i].name, "nvidia.com/gpu"))
                out[KAI_GPU] += quantity_approx_float(&ps->dp_resources[i].value);
        return;
    }
    for (size_t i = 0; i < ps->ndra_claims; i++) {
        const dra_pod_claim *c = &ps->dra_claims[i];
        if (!c->shared) {
            out[KAI_GPU] += kai_claim_gpus(&c->spec);
            continue;
        }
        for (size_t k = 0; k < sc->nshared_claims; k++)   /* a shared claim: counted for each pod */
            if (!strcmp(sc->shared_claims[k].name, c->shared)) out[KAI_GPU] += kai_claim_gpus(&sc->shared_claims[k].spec);
    }
}

static void resolve(kai_gate *g, uint32_t c, const pod_group_spec *ps) {
    cls_info *ci = &g->cls[c];
    ci->resolved = true;
    const char *q = label(ps, KAI_QUEUE_LABEL);
    if (!q) return;
    ci->managed = true;
    ci->queue_name = q;
    ci->queue = kai_queue_index(&g->s, q);
    if (ci->queue >= 0 && !kai_is_leaf(&g->s, ci->queue)) {   /* Lua pods (groups are refused at load) */
        strbuf b = {0};
        sb_printf(&b, "Queue '%s' is a parent Queue: KAI schedules jobs in leaf Queues only", q);
        ci->why = xstrdup(sb_str(&b));
        sb_free(&b);
        ci->queue = -1;
    }
    ci->name = ps->name;
    ci->ns = ps->namespace_ ? ps->namespace_ : "default";
    const char *pc = label(ps, PRIORITY_LABEL);
    bool found = false;
    ci->priority = pc ? kai_priority_value(g->sc->kai_queues, pc, &found) : 0;
    if (!found) ci->priority = ps->priority ? ps->priority : kai_priority_value(g->sc->kai_queues, "train", &found);
    const char *pre = label(ps, PREEMPTIBILITY_LABEL);
    if (pre && !strcmp(pre, "preemptible")) ci->preemptible = true;
    else if (pre && !strcmp(pre, "non-preemptible")) ci->preemptible = false;
    else ci->preemptible = ci->priority < 100;
    ci->gang_size = ps->gang_min > 0 && c < g->sc->ngroups && ps->count > 0 ? (int32_t)ps->count : 0;
    pod_request(g->sc, ps, ci->req);
    bool constrained = false;
    for (size_t i = 0; i < ps->nannotations; i++) constrained |= !strcmp(ps->annotations[i].key, KAI_TOPOLOGY_ANN);
    if (!g->topo && constrained) {
        g->topo = kai_topo_new(g->sc->kai_queues);
        if (g->sched) kai_topo_cluster(g->topo, g->sched);
        g->s.topo_place = topo_place;
        g->s.topo_ctx = g;
    }
    if (g->topo) ci->topo = kai_topo_constraint_of(g->topo, ps->annotations, ps->nannotations);
}

static gjob *new_job(kai_gate *g, uint32_t cls) {
    gjob *j = xcalloc(1, sizeof *j);
    const cls_info *ci = &g->cls[cls];
    j->cls = cls;
    j->order = -1;
    j->j.name = ci->name;
    j->j.ns = ci->ns;
    j->j.queue = ci->queue;
    j->j.queue_name = ci->queue_name;
    j->j.priority = ci->priority;
    j->j.preemptible = ci->preemptible;
    j->j.topo = ci->topo;
    VEC_PUSH(g->jobs, j);
    return j;
}

/* The job is complete (all its pods exist): it waits for KAI's allocation. */
static void job_ready(kai_gate *g, uint32_t ji, int64_t t) {
    gjob *j = g->jobs.data[ji];
    j->arrival = t;
    j->j.created_ms = j->order >= 0 ? j->order : t;
    j->j.seq = j->pods.data[0];
    j->pending = true;
    g->qs[j->j.queue].pending++;
    VEC_PUSH(g->active, ji);
    g->dirty = true;
}

static bool gate_arrive(void *ctx, uint32_t pod, uint32_t cls, const pod_group_spec *ps, int64_t t) {
    kai_gate *g = ctx;
    if (cls >= g->ncls) {   /* classes added while the run goes (Lua, traces) */
        size_t n = cls + 1;
        g->cls = xrealloc(g->cls, n * sizeof *g->cls);
        memset(g->cls + g->ncls, 0, (n - g->ncls) * sizeof *g->cls);
        g->ncls = n;
    }
    if (!g->cls[cls].resolved) resolve(g, cls, ps);
    cls_info *ci = &g->cls[cls];
    if (!ci->managed) return false;
    if (ci->queue < 0) {   /* KAI: the PodGroup stays pending, "Queue 'x' does not exist" */
        g->missing_queue_pods++;
        VEC_PUSH(g->missing_pods, pod);
        VEC_PUSH(g->missing_cls, cls);
        if (!ci->why) {
            strbuf b = {0};
            sb_printf(&b, "Queue '%s' does not exist", ci->queue_name);
            ci->why = xstrdup(sb_str(&b));
            sb_free(&b);
        }
        return true;
    }
    while (g->pod_job.len <= pod) VEC_PUSH(g->pod_job, 0);
    while (g->pod_node.len <= pod) VEC_PUSH(g->pod_node, NODE_UNBOUND);
    uint32_t ji;
    if (ci->gang_size && ci->gang_open) {
        ji = ci->gang_open - 1;
    } else {
        new_job(g, cls);
        ji = (uint32_t)g->jobs.len - 1;
        if (ci->gang_size) ci->gang_open = ji + 1;
    }
    gjob *j = g->jobs.data[ji];
    VEC_PUSH(j->pods, pod);
    g->pod_job.data[pod] = ji + 1;
    if (ci->gang_size && (int32_t)j->pods.len < ci->gang_size) return true;   /* the rest of its gang */
    ci->gang_open = 0;
    job_ready(g, ji, t);
    return true;
}

static gjob *job_of(const kai_gate *g, uint32_t pod) {
    if (pod >= g->pod_job.len || !g->pod_job.data[pod]) return NULL;
    return g->jobs.data[g->pod_job.data[pod] - 1];
}

/* The victim's replacement (its owner's new pod) belongs to the same
 * PodGroup: it keeps the PodGroup's creation time in KAI's job order, and is
 * scheduled from the next cycle on (KAI's next session). */
static void gate_requeued(void *ctx, uint32_t victim, uint32_t rep) {
    kai_gate *g = ctx;
    gjob *v = job_of(g, victim), *r = job_of(g, rep);
    if (!v || !r || v == r) return;
    int64_t old = v->j.created_ms;
    if (r->order < 0 || old < r->order) r->order = old;
    if (!r->pending) return;   /* a gang still collecting: applied when complete */
    r->j.created_ms = r->order;
    r->not_before = g->now + 1;
}

static void gate_ended(void *ctx, uint32_t pod, int64_t t) {
    kai_gate *g = ctx;
    if (g->topo) kai_topo_ended(g->topo, pod);
    gjob *j = job_of(g, pod);
    if (j) g->pod_node.data[pod] = NODE_GONE;
    else if (g->sched) g->dirty = true;   /* a pod KAI does not schedule freed its node's resources */
    if (!j || !j->holding || --j->live > 0) return;
    j->holding = false;
    q_stats *qs = &g->qs[j->j.queue];
    qs->holding--;
    if (!j->bound) {   /* gone before the scheduler placed it */
        qs->unbound--;
        VEC_PUSH(qs->unsched, t - j->admitted_at);
    }
    g->dirty = true;
}

static void gate_bound(void *ctx, uint32_t pod, int32_t node, int64_t t) {
    kai_gate *g = ctx;
    if (g->topo) kai_topo_bound(g->topo, pod);
    gjob *j = job_of(g, pod);
    if (j) g->pod_node.data[pod] = node;
    if (!j || !j->holding || j->bound || ++j->nbound < (int32_t)j->pods.len) return;
    j->bound = true;
    q_stats *qs = &g->qs[j->j.queue];
    qs->unbound--;
    VEC_PUSH(qs->unsched, t - j->admitted_at);
}

/* KAI's view of the cluster now, from the scheduler's present nodes (so the
 * nodes an autoscaler added and a recorded inventory count, absent ones do
 * not): the total (proportion.go setTotalResources: the session's nodes'
 * allocatable) and each node's free resources (node_info Idle): allocatable
 * minus what the bound pods request (every pod, KAI's or not; GPUs from the
 * scheduler's per-GPU view, both modes). */
static void live_view(kai_gate *g) {
    const scheduler *s = g->sched;
    memset(g->s.total, 0, sizeof g->s.total);
    for (size_t n = 0; n < s->nnodes; n++) {
        kai_node *kn = &g->nodes[n];
        memset(kn->free, 0, sizeof kn->free);
        if (!sched_node_present(s, n)) continue;
        const int64_t *al = s->alloc + n * s->nres, *us = s->used + n * s->nres;
        const gs_node *gn = &s->gv.nodes[n];
        g->s.total[KAI_CPU] += (double)al[g->res_cpu];
        g->s.total[KAI_MEM] += (double)al[g->res_mem];
        g->s.total[KAI_GPU] += gn->ngpu;
        kn->free[KAI_CPU] = (double)(al[g->res_cpu] - us[g->res_cpu]);
        kn->free[KAI_MEM] = (double)(al[g->res_mem] - us[g->res_mem]);
        kn->free[KAI_GPU] = (double)gs_free_total(gn) / 1000.0;
    }
}

/* A holding job's pods on the nodes (its slots, given back when it is a
 * victim): a bound pod where it is; a pod allocated but not bound yet where
 * KAI's allocate would put it (its resources taken from that node; a pod no
 * node fits, waiting for its victims to leave, holds none). */
static void holding_slots(kai_gate *g, gjob *j) {
    const double *one = g->cls[j->cls].req;
    j->j.nslots = 0;
    j->j.slots = xrealloc(j->j.slots, (j->pods.len + 1) * sizeof *j->j.slots);
    for (size_t k = 0; k < j->pods.len; k++) {
        int32_t nd = g->pod_node.data[j->pods.data[k]];
        if (nd == NODE_UNBOUND) {
            nd = kai_pick_node(g->nodes, g->sched->nnodes, one);
            if (nd < 0) continue;
            for (int r = 0; r < KAI_NRES; r++) g->nodes[nd].free[r] -= one[r];
        }
        if (nd < 0) continue;
        kai_slot *sl = &j->j.slots[j->j.nslots++];
        sl->node = nd;
        memcpy(sl->v, one, sizeof sl->v);
    }
}

/* The cycle's state: every pending job (from its not_before on) and every
 * job holding resources (victims included until their pods are gone). */
static void build_state(kai_gate *g, bool all_pending) {
    if (g->sched) live_view(g);
    size_t keep = 0;
    g->s.njobs = 0;
    if (g->s.cap_jobs < g->active.len) {
        g->s.cap_jobs = g->active.len;
        g->s.jobs = xrealloc(g->s.jobs, g->s.cap_jobs * sizeof *g->s.jobs);
    }
    for (size_t i = 0; i < g->active.len; i++) {
        gjob *j = g->jobs.data[g->active.data[i]];
        if (!j->pending && !j->holding) continue;   /* ended */
        g->active.data[keep++] = g->active.data[i];
        if (j->pending && !all_pending && j->not_before > g->now) {
            g->dirty = true;   /* its turn comes at a later instant */
            continue;
        }
        const double *one = g->cls[j->cls].req;
        double n = (double)j->pods.len;
        for (int r = 0; r < KAI_NRES; r++) {
            j->j.req[r] = j->pending ? one[r] * n : 0;
            j->j.alloc[r] = j->holding ? one[r] * n : 0;
        }
        j->j.running = j->holding;
        j->j.pod_one = g->sched ? one : NULL;
        j->j.npods = j->pending ? j->pods.len : 0;
        if (g->sched && j->holding) holding_slots(g, j);
        else j->j.nslots = 0;
        g->s.jobs[g->s.njobs++] = &j->j;
    }
    g->active.len = keep;
}

static void allocated(kai_gate *g, gjob *j, int64_t t, queue_cycle_out *out) {
    q_stats *qs = &g->qs[j->j.queue];
    j->pending = false;
    j->holding = true;
    j->bound = false;
    j->live = (int32_t)j->pods.len;
    j->nbound = 0;
    j->admitted_at = t;
    qs->pending--;
    qs->holding++;
    qs->unbound++;
    qs->admitted++;
    if (j->j.over_quota) qs->over_quota++;
    VEC_PUSH(qs->waits, t - j->arrival);
    for (size_t k = 0; k < j->pods.len; k++) VEC_PUSH(out->admitted, j->pods.data[k]);
    if (j->j.topo) {   /* KAI binds the pods to the nodes it chose in the domain (kai_topology.h) */
        if (j->j.pipelined) {   /* its domain counts its victims' pods as releasing (kai_topology.h) */
            const kai_job **vic = xmalloc((g->s.nvictims ? g->s.nvictims : 1) * sizeof *vic);
            size_t nv = 0;
            for (size_t i = 0; i < g->s.nvictims; i++)
                if (g->s.victims[i].for_job == &j->j) vic[nv++] = g->s.victims[i].job;
            kai_topo_place(g->topo, &j->j, vic, nv, g->cls[j->cls].req, j->pods.len, true);
            free(vic);
        }
        kai_topo_pins(g->topo, &j->j, j->pods.data, j->pods.len, out);
    }
}

/* A dump's running pod (cluster.state) is allocated already: it is a
 * PodGroup of its KAI Queue (the pod's kai.scheduler/queue label, as the
 * pod-grouper's CalcPodGroupQueue takes it:
 * pkg/podgrouper/podgrouper/plugins/defaultgrouper/default_grouper.go), one
 * per pod (the default grouper's bare pod), holding its requests on its node
 * from t: KAI's proportion plugin counts every task in an allocated status
 * into its queue's allocated (and allocated-not-preemptible) resources
 * (pkg/scheduler/plugins/proportion/proportion.go
 * updateQueuesCurrentResourceUsage, v0.13.0), so the queue's fair share and
 * limit see the recorded usage, and the pod can be a reclaim or preempt
 * victim. False (not charged) when the pod has no KAI queue label or its
 * Queue does not exist. */
static bool gate_running(void *ctx, uint32_t pod, uint32_t cls, const pod_group_spec *ps, int32_t node,
                         const k8s_kv *node_labels, size_t nnode_labels, int64_t t) {
    (void)node_labels;
    (void)nnode_labels;
    kai_gate *g = ctx;
    if (cls >= g->ncls) {
        size_t n = cls + 1;
        g->cls = xrealloc(g->cls, n * sizeof *g->cls);
        memset(g->cls + g->ncls, 0, (n - g->ncls) * sizeof *g->cls);
        g->ncls = n;
    }
    if (!g->cls[cls].resolved) resolve(g, cls, ps);
    const cls_info *ci = &g->cls[cls];
    if (!ci->managed || ci->queue < 0) return false;
    while (g->pod_job.len <= pod) VEC_PUSH(g->pod_job, 0);
    while (g->pod_node.len <= pod) VEC_PUSH(g->pod_node, NODE_UNBOUND);
    gjob *j = new_job(g, cls);
    uint32_t ji = (uint32_t)g->jobs.len - 1;
    VEC_PUSH(j->pods, pod);
    g->pod_job.data[pod] = ji + 1;
    g->pod_node.data[pod] = node;
    j->arrival = j->admitted_at = t;
    j->j.created_ms = t;
    j->j.seq = pod;
    j->holding = j->bound = true;
    j->live = j->nbound = 1;
    g->qs[j->j.queue].holding++;
    VEC_PUSH(g->active, ji);
    g->dirty = true;
    return true;
}

/* A hash of which nodes are present (the autoscaler's node groups): a node
 * added or removed starts a KAI cycle (a new session sees the new nodes). */
static uint64_t presence_hash(const scheduler *s) {
    uint64_t h = 1469598103934665603ull;
    for (size_t w = 0; s->absent && w < s->nwords; w++) h = (h ^ s->absent[w]) * 1099511628211ull;
    return h;
}

static void gate_cycle(void *ctx, int64_t t, queue_cycle_out *out) {
    kai_gate *g = ctx;
    g->now = t;
    if (g->sched && g->sched->absent) {
        uint64_t h = presence_hash(g->sched);
        if (h != g->presence) g->dirty = true;
        g->presence = h;
    }
    if (!g->dirty) return;
    g->dirty = false;
    build_state(g, false);
    g->s.nvictims = 0;
    kai_cycle(&g->s);
    for (size_t i = 0; i < g->s.njobs; i++) {
        gjob *j = (gjob *)g->s.jobs[i];   /* kai_job is gjob's first member */
        if (!j->pending) continue;
        if (j->j.allocated_now || j->j.pipelined) {
            allocated(g, j, t, out);
            continue;
        }
        j->marked = true;   /* status_updater: its pending pods are marked unschedulable */
        cls_info *ci = &g->cls[j->cls];
        strbuf b = {0};
        bool topo = j->j.topo && kai_over_limit(&g->s, &j->j, NULL) < 0 && kai_np_over_quota(&g->s, &j->j, NULL) < 0;
        if (!topo || !kai_topo_why(g->topo, &j->j, &b)) {
            kai_why(&g->s, &j->j, &b);
            /* a job the cycle never tried (it waited behind another job of its queue) has no
             * topology reason yet; kai_why's trial placement runs the topology plugin when the
             * nodes alone hold every pod, and then the reason is the topology's, not "found
             * resources for 3 pods while 3 are required" */
            strbuf tb = {0};
            if (topo && kai_topo_why(g->topo, &j->j, &tb)) {
                sb_free(&b);
                b = tb;
            } else
                sb_free(&tb);
        }
        free(ci->why);
        ci->why = xstrdup(sb_str(&b));
        sb_free(&b);
    }
    for (size_t i = 0; i < g->s.nvictims; i++) {   /* evicted whole: every pod of the PodGroup */
        const kai_victim *v = &g->s.victims[i];
        gjob *vj = (gjob *)v->job, *by = (gjob *)v->for_job;
        int k = strcmp(v->reason, "Reclaim") == 0 ? R_RECLAIM : R_PREEMPT;
        g->qs[by->j.queue].preemptions[k]++;
        g->qs[vj->j.queue].preempted++;
        /* unschedule_info.go GetReclaimMessage / GetPreemptMessage, per PodGroup */
        strbuf b = {0};
        sb_printf(&b, k == R_RECLAIM ? "Pod of %s/%s was preempted by workload %s/%s. (KAI reclaim)"
                                     : "Pod of %s/%s was preempted by higher priority workload %s/%s (KAI preempt)",
                  vj->j.ns, vj->j.name, by->j.ns, by->j.name);
        const char *text = intern(sb_str(&b));
        sb_free(&b);
        for (size_t m = 0; m < vj->pods.len; m++) {
            queue_victim qv = {vj->pods.data[m], text};
            VEC_PUSH(out->evict, qv);
        }
    }
}

/* Units of the tables: cpu in cores, memory in bytes, gpu in devices. */
static double natural(int r, double v) {
    if (v == KAI_UNLIMITED) return v;
    return r == KAI_CPU ? v / 1000.0 : v;
}

/* Every Queue at t: usage against quota (queue_usage; flavor empty), its
 * jobs (queue_state, share = dominant resource share x 1000), and fair share
 * against allocation per resource (queue_fair_share). */
static void gate_sample(void *ctx, int64_t t) {
    kai_gate *g = ctx;
    build_state(g, true);
    kai_compute_shares(&g->s);
    for (size_t qi = 0; qi < g->s.nq; qi++) {
        const kai_q *q = &g->s.q[qi];
        for (int r = 0; r < KAI_NRES; r++) {
            double over = q->deserved[r] == KAI_UNLIMITED ? 0 : q->allocated[r] - q->deserved[r];
            queue_usage_row u = {t, q->name, "", kai_res_name[r], natural(r, q->deserved[r]), natural(r, q->allocated[r]),
                                 over > 0 ? natural(r, over) : 0};
            VEC_PUSH(g->samples.usage, u);
            queue_share_row sh = {t, q->name, kai_res_name[r], natural(r, q->deserved[r]), natural(r, q->max_allowed[r]),
                                  natural(r, q->fair[r]), natural(r, q->allocated[r]), natural(r, q->request[r])};
            VEC_PUSH(g->samples.share, sh);
        }
        int64_t pending = 0, holding = 0, unbound = 0;   /* a parent Queue: its subtree */
        for (size_t l = 0; l < g->s.nq; l++)
            for (int a = (int)l; a >= 0; a = g->s.q[a].parent)
                if (a == (int)qi) {
                    pending += g->qs[l].pending;
                    holding += g->qs[l].holding;
                    unbound += g->qs[l].unbound;
                    break;
                }
        int res = -1;
        double drs = kai_dominant_share(&g->s, (int)qi, &res);
        queue_state_row st = {t, q->name, pending, holding, unbound, (int64_t)llround(drs * 1000),
                              res >= 0 ? kai_res_name[res] : NULL};
        VEC_PUSH(g->samples.state, st);
    }
}

static const queue_samples *gate_samples(void *ctx) { return &((kai_gate *)ctx)->samples; }

static const char *gate_why(void *ctx, uint32_t cls) {
    kai_gate *g = ctx;
    if (cls >= g->ncls || !g->cls[cls].managed) return NULL;
    cls_info *ci = &g->cls[cls];
    if (ci->queue < 0) return ci->why;
    for (size_t i = 0; i < g->active.len; i++) {
        const gjob *j = g->jobs.data[g->active.data[i]];
        if (j->cls == cls && j->pending) {
            if (!ci->why) {
                strbuf b = {0};
                sb_printf(&b, "queue %s: not yet considered by KAI", g->s.q[ci->queue].name);
                ci->why = xstrdup(sb_str(&b));
                sb_free(&b);
            }
            return ci->why;
        }
    }
    return NULL;
}

/* Per leaf Queue, the same summary rows as Kueue's ClusterQueues (docs/QUEUES.md):
 * queue_admitted (allocated), queue_admitted_borrowing (its queue went above
 * its quota), waits, preemptions by KAI's action, unscheduled time. */
static void gate_summarize(void *ctx, int64_t end, queue_metric_fn add, void *ud) {
    kai_gate *g = ctx;
    size_t unlabelled = kai_topo_unlabelled(g->topo);   /* kai_topology.h: a warning, only when some */
    if (unlabelled) add(ud, "kai_topology_unlabelled_nodes", (double)unlabelled, NULL);
    for (size_t qi = 0; qi < g->s.nq; qi++) {
        if (!kai_is_leaf(&g->s, (int)qi)) continue;
        q_stats *qs = &g->qs[qi];
        const char *grp = intern(g->s.q[qi].name);
        add(ud, "queue_admitted", (double)qs->admitted, grp);
        add(ud, "queue_admitted_borrowing", (double)qs->over_quota, grp);
        add(ud, "queue_pending_at_end", (double)qs->pending, grp);
        int64_t total = 0;
        for (int k = 0; k < R_N; k++) {
            char name[64];
            snprintf(name, sizeof name, "queue_preemptions_%s", REASONS[k]);
            add(ud, intern(name), (double)qs->preemptions[k], grp);
            total += qs->preemptions[k];
        }
        add(ud, "queue_preemptions", (double)total, grp);
        add(ud, "queue_preempted", (double)qs->preempted, grp);
        size_t nu = qs->unsched.len + (size_t)qs->unbound, nw = qs->waits.len + (size_t)qs->pending;
        int64_t *w = xmalloc(((nu > nw ? nu : nw) + 1) * sizeof *w);
        size_t k = qs->unsched.len;
        if (k) memcpy(w, qs->unsched.data, k * sizeof *w);   /* an empty vector's data is NULL */
        for (size_t i = 0; i < g->active.len && k < nu; i++) {   /* allocated, not placed: censored */
            const gjob *j = g->jobs.data[g->active.data[i]];
            if (j->j.queue == (int)qi && j->holding && !j->bound) w[k++] = end - j->admitted_at;
        }
        if (k) queue_add_waits("queue_unscheduled_censored", w, k, add, ud, grp);
        k = qs->waits.len;
        if (k) memcpy(w, qs->waits.data, k * sizeof *w);
        for (size_t i = 0; i < g->active.len && k < nw; i++) {   /* time to allocation, censored */
            const gjob *j = g->jobs.data[g->active.data[i]];
            if (j->j.queue == (int)qi && j->pending) w[k++] = end - j->arrival;
        }
        if (k) queue_add_waits("queue_wait_censored", w, k, add, ud, grp);
        free(w);
    }
    if (g->missing_queue_pods) add(ud, "queue_missing_queue_pods", (double)g->missing_queue_pods, NULL);
}

static void gate_free(void *ctx) {
    kai_gate *g = ctx;
    for (size_t i = 0; i < g->ncls; i++) free(g->cls[i].why);
    free(g->cls);
    for (size_t i = 0; i < g->jobs.len; i++) {
        VEC_FREE(g->jobs.data[i]->pods);
        free(g->jobs.data[i]->j.slots);
        free(g->jobs.data[i]);
    }
    VEC_FREE(g->jobs);
    VEC_FREE(g->active);
    VEC_FREE(g->pod_job);
    VEC_FREE(g->pod_node);
    VEC_FREE(g->missing_pods);
    VEC_FREE(g->missing_cls);
    free(g->nodes);
    for (size_t q = 0; q < g->s.nq; q++) {
        VEC_FREE(g->qs[q].waits);
        VEC_FREE(g->qs[q].unsched);
    }
    free(g->qs);
    VEC_FREE(g->samples.usage);
    VEC_FREE(g->samples.state);
    VEC_FREE(g->samples.share);
    g->s.nodes = NULL;   /* g->nodes, freed above */
    kai_state_free(&g->s);
    kai_topo_free(g->topo);
    free(g);
}

/* PodGroups of gangs pending in KAI's queues (queue_gate.held_gangs). */
static void gate_held_gangs(void *ctx, void (*fn)(void *ud, uint32_t cls, int32_t pods), void *ud) {
    kai_gate *g = ctx;
    for (size_t i = 0; i < g->active.len; i++) {
        const gjob *j = g->jobs.data[g->active.data[i]];
        if (j->pending && g->cls[j->cls].gang_size) fn(ud, j->cls, (int32_t)j->pods.len);
    }
}

/* The pods KAI has marked unschedulable (queue_gate.unschedulable). At the
 * close of every session KAI's status updater marks each pending pod of
 * every PodGroup that is ready for scheduling (its minMember pods exist) and
 * was not allocated -- whatever held it: capacity, the Queue's quota or
 * limit, a missing Queue -- with PodScheduled=False, reason Unschedulable
 * (pkg/scheduler/framework/session.go closeSession -> RecordJobStatusEvent;
 * pkg/scheduler/cache/status_updater/default_status_updater.go
 * recordUnschedulablePodsEvents, markTaskUnschedulable; PodGroup
 * spec.markUnschedulable defaults to true, pkg/scheduler/utils/
 * pod_group_utils.go DefaultMarkUnschedulable; NVIDIA/KAI-Scheduler
 * v0.13.0). The cluster autoscaler lists exactly such pods. A job counts
 * once a cycle has left it pending (j->marked); a pod of a missing Queue at
 * once (its PodGroup carries the QueueDoesNotExist fit error from the first
 * session, cluster_info.go). */
static void gate_unschedulable(void *ctx, void (*fn)(void *ud, uint32_t cls, const uint32_t *pods, size_t n),
                               void *ud) {
    kai_gate *g = ctx;
    for (size_t i = 0; i < g->active.len; i++) {
        const gjob *j = g->jobs.data[g->active.data[i]];
        if (j->pending && j->marked) fn(ud, j->cls, j->pods.data, j->pods.len);
    }
    for (size_t i = 0; i < g->missing_pods.len; i++) fn(ud, g->missing_cls.data[i], &g->missing_pods.data[i], 1);
}

/* The scheduler's nodes, read in each cycle (live_view). */
static void gate_cluster(void *ctx, const scheduler *s) {
    kai_gate *g = ctx;
    g->sched = s;
    g->nodes = xcalloc(s->nnodes ? s->nnodes : 1, sizeof *g->nodes);
    g->res_cpu = sched_res_index(s, "cpu");
    g->res_mem = sched_res_index(s, "memory");
    g->s.nodes = g->nodes;
    g->s.nnodes = s->nnodes;
    if (g->topo) kai_topo_cluster(g->topo, s);
}

queue_gate *kai_gate_new(const scenario *sc) {
    if (!sc->kai_queues) return NULL;
    kai_gate *g = xcalloc(1, sizeof *g);
    g->sc = sc;
    kai_state_init(&g->s, sc->kai_queues);
    for (size_t i = 0; i < sc->cluster.npools; i++) {   /* until gate_cluster: the pools at the start */
        const node_pool_spec *p = &sc->cluster.pools[i];
        g->s.total[KAI_GPU] += (double)p->count * (p->gpu_model ? p->gpus : 0);
        g->s.total[KAI_CPU] += (double)p->count * (double)p->cpu_milli;
        g->s.total[KAI_MEM] += (double)p->count * (double)p->memory_bytes;
    }
    g->ncls = sc->ngroups;
    g->cls = xcalloc(g->ncls ? g->ncls : 1, sizeof *g->cls);
    g->qs = xcalloc(g->s.nq ? g->s.nq : 1, sizeof *g->qs);
    queue_gate *q = xcalloc(1, sizeof *q);
    *q = (queue_gate){.ctx = g, .arrive = gate_arrive, .requeued = gate_requeued, .ended = gate_ended,
                      .cycle = gate_cycle, .bound = gate_bound, .sample = gate_sample, .samples = gate_samples,
                      .why = gate_why, .summarize = gate_summarize, .free = gate_free,
                      .cluster = gate_cluster, .held_gangs = gate_held_gangs, .running = gate_running,
                      .unschedulable = gate_unschedulable};
    return q;
}
