/* sim_gang.c -- gang scheduling (see sim_gang.h). */
#include "engine/sim_gang.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_pin.h"
#include "engine/sim_topology.h"
#include "sched/dra/dra.h"
#include "sched/topology/topo_placement.h"
#include "util/strbuf.h"
#include "util/intern.h"
#include "util/xalloc.h"

typedef struct gang {
    const char *group;
    int32_t min, size;
    sim_time timeout;
    VEC(uint32_t) pods;              /* arrived members, in arrival order */
    VEC(uint32_t) waiting;           /* bound, waiting at Permit (1.35/1.36) */
    VEC(sim_time) since;             /* ... since */
    bool queued;                     /* quorum reached and not backing off: its pods are in the queue */
    bool started;                    /* minCount bound: later pods bind when they fit */
    uint32_t attempt;                /* rejected attempts so far (timeouts carry the attempt they belong to) */
    sim_time quorum_at, started_at;
    double held_gpu_s;               /* GPU-seconds held at Permit by attempts that had not reached minCount */
    sim_time hold_max;               /* the longest a pod waited at Permit (ms) */
    sim_gang_timeout_fn on_timeout;
    void *ctx;
    char *reason;                    /* why the last attempt was rejected (sim_gang_reasons), NULL before one */
    int32_t topo;                    /* KEP-5732: index into sim_gangs.levels, -1 = no topology constraint */
    int64_t topo_most;               /* most pods of its class one empty domain holds */
    char *topo_reason;               /* why the last placement attempt failed (owned), NULL = none */
} gang;

/* name -> gang, open addressing over interned-or-stable names (Lua pods). */
typedef struct expect_slot {
    const char *name;                /* NULL: empty */
    uint32_t gang;
    bool gone;                       /* arrived: a tombstone */
} expect_slot;

typedef struct sim_gangs {
    VEC(gang) g;
    uint32_t *cls_gang;              /* per scenario pod group: gang + 1, 0 = none */
    size_t ncls;
    VEC(uint32_t) pod_gang;          /* per pod id: gang + 1, 0 = none */
    expect_slot *slots;
    size_t nslots, nused;
    int src;                         /* its sim_source (timeouts, back-off ends), -1 until needed */
    bool cycle;                      /* 1.37+: the workload scheduling cycle */
    VEC(topo_domains) levels;        /* the topology levels gangs are constrained to (sched/topology/) */
    uint64_t topo_cycles, topo_binds;/* placement cycles run, tentative reservations they made */
} sim_gangs;

enum { EV_TIMEOUT = 0, EV_REQUEUE = 1 };
#define ARG(kind, g, attempt) (((uint64_t)(kind) << 55) | ((uint64_t)(g) << 24) | ((attempt) & 0xffffffu))

static sim_gangs *gangs(sim_run *r) {
    if (!r->gangs) {
        r->gangs = xcalloc(1, sizeof *r->gangs);
        r->gangs->src = -1;
        r->gangs->cycle = r->sc->cluster.publish.k8s_minor >= 37;
    }
    return r->gangs;
}

uint32_t sim_gang_new(sim_run *r, const char *group, int32_t min, int32_t size, sim_time timeout) {
    sim_gangs *G = gangs(r);
    gang g = {.group = intern(group), .min = min, .size = size,
              .timeout = timeout > 0 ? timeout : SIM_GANG_PERMIT_TIMEOUT, .quorum_at = -1, .started_at = -1,
              .topo = -1};
    VEC_PUSH(G->g, g);
    return (uint32_t)(G->g.len - 1);
}

void sim_gang_on_timeout(sim_run *r, uint32_t g, sim_gang_timeout_fn fn, void *ctx) {
    gang *x = &gangs(r)->g.data[g];
    x->on_timeout = fn;
    x->ctx = ctx;
}

/* Gang g (pods of class c) is constrained to one domain of label `key`: its
 * level's domains (built once per key) and the most pods one domain holds. */
static void topo_attach(sim_run *r, uint32_t g, uint32_t c, const char *key) {
    sim_gangs *G = r->gangs;
    size_t k = 0;
    while (k < G->levels.len && G->levels.data[k].key != key) k++;
    if (k == G->levels.len) {
        topo_domains d;
        topo_domains_build(&d, r->nodes, r->nnodes, key);
        VEC_PUSH(G->levels, d);
    }
    gang *x = &G->g.data[g];
    x->topo = (int32_t)k;
    x->topo_most = topo_max_domain_pods(&r->sched, &G->levels.data[k], c);
}

void sim_gang_init(sim_run *r) {
    const scenario *sc = r->sc;
    for (size_t i = 0; i < sc->ngroups; i++) {
        const pod_group_spec *gs = &sc->groups[i];
        if (!gs->gang_min) continue;
        sim_gangs *G = gangs(r);
        if (!G->cls_gang) {
            G->cls_gang = xcalloc(sc->ngroups, sizeof *G->cls_gang);
            G->ncls = sc->ngroups;
        }
        G->cls_gang[i] = sim_gang_new(r, gs->name, gs->gang_min, (int32_t)gs->count, gs->gang_timeout) + 1;
        if (gs->gang_topology) topo_attach(r, G->cls_gang[i] - 1, (uint32_t)i, gs->gang_topology);
    }
}

void sim_gang_free(sim_run *r) {
    sim_gangs *G = r->gangs;
    if (!G) return;
    for (size_t i = 0; i < G->g.len; i++) {
        VEC_FREE(G->g.data[i].pods);
        VEC_FREE(G->g.data[i].waiting);
        VEC_FREE(G->g.data[i].since);
        free(G->g.data[i].reason);
        free(G->g.data[i].topo_reason);
    }
    for (size_t k = 0; k < G->levels.len; k++) topo_domains_free(&G->levels.data[k]);
    VEC_FREE(G->levels);
    VEC_FREE(G->g);
    VEC_FREE(G->pod_gang);
    free(G->cls_gang);
    free(G->slots);
    free(G);
    r->gangs = NULL;
}

static uint64_t name_hash(const char *s) {
    uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ULL;
    return h;
}

void sim_gang_expect(sim_run *r, uint32_t g, const char *name) {
    sim_gangs *G = gangs(r);
    if ((G->nused + 1) * 2 > G->nslots) {   /* grow, dropping tombstones */
        size_t n = G->nslots ? G->nslots * 2 : 64;
        expect_slot *old = G->slots;
        size_t nold = G->nslots;
        G->slots = xcalloc(n, sizeof *G->slots);
        G->nslots = n;
        G->nused = 0;
        for (size_t i = 0; i < nold; i++)
            if (old[i].name && !old[i].gone) sim_gang_expect(r, old[i].gang, old[i].name);
        free(old);
    }
    size_t i = name_hash(name) & (G->nslots - 1);
    while (G->slots[i].name) i = (i + 1) & (G->nslots - 1);
    G->slots[i] = (expect_slot){.name = name, .gang = g};
    G->nused++;
}

/* The gang pod `pod` belongs to (+1), 0 = none; an expected name is used up. */
static uint32_t member_of(sim_run *r, uint32_t pod) {
    sim_gangs *G = r->gangs;
    const sim_pod *p = &r->pods.data[pod];
    uint32_t c = sim_class_origin(r, p->group);   /* a pod the queue pinned (sim_pin.h) keeps its gang */
    if (G->cls_gang && c < G->ncls && G->cls_gang[c]) return G->cls_gang[c];
    const char *name = sim_pod_name(r, pod);
    if (!G->nslots || !name) return 0;
    for (size_t i = name_hash(name) & (G->nslots - 1); G->slots[i].name; i = (i + 1) & (G->nslots - 1))
        if (!G->slots[i].gone && !strcmp(G->slots[i].name, name)) {
            G->slots[i].gone = true;
            return G->slots[i].gang + 1;
        }
    return 0;
}

static uint32_t gang_of(const sim_run *r, uint32_t pod) {
    const sim_gangs *G = r->gangs;
    return pod < G->pod_gang.len ? G->pod_gang.data[pod] : 0;
}

/* Is a pod of the gang in the scheduler's queue (pending, not bound, not deleted)? */
static bool queued_pod(const sim_run *r, uint32_t pod) {
    const sim_pod *p = &r->pods.data[pod];
    return p->state == POD_PENDING && p->node < 0 && !p->dropped;
}

bool sim_gang_hold(sim_run *r, uint32_t pod, sim_time t) {
    sim_gangs *G = r->gangs;
    uint32_t g1 = member_of(r, pod);
    if (!g1) return false;
    while (G->pod_gang.len <= pod) VEC_PUSH(G->pod_gang, 0);
    G->pod_gang.data[pod] = g1;
    gang *x = &G->g.data[g1 - 1];
    VEC_PUSH(x->pods, pod);
    if (x->queued || x->started) return false;
    if (x->quorum_at >= 0) return true;   /* backing off: it comes back with the others */
    if ((int32_t)x->pods.len < x->min) return true;
    x->queued = true;   /* PreEnqueue: the quorum exists */
    x->quorum_at = t;
    for (size_t i = 0; i + 1 < x->pods.len; i++) {
        uint32_t q = x->pods.data[i];
        if (queued_pod(r, q)) sched_enqueue(&r->sched, r->pods.data[q].group, q);
    }
    return false;
}

/* The GPUs pod `pod` holds (bound, maybe not started). */
static double held_gpus(const sim_run *r, uint32_t pod) {
    if (r->dra) {
        size_t n;
        const dra_record *rec = dra_pod_records(r->dra, pod, &n);
        double eq = 0;
        for (size_t i = 0; i < n; i++)
            if (!rec[i].deleted) eq += rec[i].gpu_equiv;
        return eq;
    }
    const pod_class *c = &r->sched.classes[r->pods.data[pod].group];
    double eq = 0;
    for (size_t i = 0; i < c->ndemand; i++) eq += (double)c->demand[i].amount * r->res_equiv[c->demand[i].res];
    return eq;
}

static int gang_event(sim_run *r, void *ctx, uint64_t arg, sim_time t);

static void schedule(sim_run *r, uint64_t arg, sim_time at) {
    sim_gangs *G = r->gangs;
    if (G->src < 0) {
        sim_source src = {.ctx = G, .event = gang_event};
        G->src = sim_add_source(r, &src);
    }
    /* background: a gang retrying on its own does not keep a `stop: allPodsDone` run alive, as a
     * blocked pod class does not (its Permit timeout and back-off end fire while anything else runs) */
    sim_schedule_background(r, G->src, at, arg);
}

static double held_gpus(const sim_run *r, uint32_t pod);

/* Waiting pod i of gang x held its resources until t. */
static void held(const sim_run *r, gang *x, size_t i, sim_time t) {
    sim_time d = t - x->since.data[i];
    x->held_gpu_s += held_gpus(r, x->waiting.data[i]) * (double)d / 1000.0;
    if (d > x->hold_max) x->hold_max = d;
}

/* minCount reached: every waiting pod binds (starts) now. */
static void start_waiting(sim_run *r, gang *x, sim_time t) {
    for (size_t i = 0; i < x->waiting.len; i++) {   /* what each held while the gang was partial */
        uint32_t pod = x->waiting.data[i];
        held(r, x, i, t);
        if (r->pods.data[pod].state == POD_PENDING) sim_pod_start(r, pod, t);
        else sim_pod_unbind(r, pod);   /* deleted or evicted while it waited: it only gives back what it held */
    }
    if (r->topo) sim_topo_gang_started(r, x->waiting.data, x->waiting.len);   /* racks it spans */
    x->waiting.len = x->since.len = 0;
    x->started = true;
    x->started_at = t;
}

typedef struct gang_pick {
    const sim_run *r;
    uint32_t g1;   /* gang + 1 */
} gang_pick;

static bool queued_member(void *ctx, uint32_t pod) {
    const gang_pick *k = ctx;
    return gang_of(k->r, pod) == k->g1 && queued_pod(k->r, pod);
}

/* Take every queued pod of gang g out of the scheduler's queue: one pass per
 * class its pods belong to (O(pods), not a search and a move per pod). */
static void dequeue_all(sim_run *r, uint32_t g) {
    gang *x = &r->gangs->g.data[g];
    gang_pick k = {r, g + 1};
    uint32_t last = UINT32_MAX;   /* usually one class: skip the set below */
    bool *seen = NULL;
    for (size_t i = 0; i < x->pods.len; i++) {
        uint32_t q = x->pods.data[i], c = r->pods.data[q].group;
        if (c == last || !queued_pod(r, q)) continue;
        if (last != UINT32_MAX && !seen) {
            seen = xcalloc(r->sched.nclasses, sizeof *seen);
            seen[last] = true;
        }
        last = c;
        if (seen && seen[c]) continue;
        if (seen) seen[c] = true;
        sched_remove_if(&r->sched, c, queued_member, &k);
    }
    free(seen);
}

/* Why attempt of gang x fails, while its placed pods still hold their
 * resources: the FitError of its first pod still in the queue (kube-
 * scheduler's message for it), then what the gang had. Kept for the pods'
 * pending reason: between attempts (group back-off) they are out of the queue,
 * and the end of the run would otherwise find no reason for them. */
static void note_rejection(sim_run *r, gang *x, const char *how) {
    strbuf b = {0};
    for (size_t i = 0; i < x->pods.len; i++) {
        uint32_t q = x->pods.data[i];
        if (!queued_pod(r, q)) continue;
        sched_flush_class(&r->sched, r->pods.data[q].group);
        sched_explain(&r->sched, r->pods.data[q].group, &b);
        break;
    }
    sb_printf(&b, "%sgang: %zu of minCount %d pods placed, %s; it is retried after the group back-off",
              b.len ? " " : "", x->waiting.len, x->min, how);
    free(x->reason);
    x->reason = xstrdup(sb_str(&b));
    sb_free(&b);
}

/* The attempt failed: release what its pods hold, take the gang's pods out
 * of the queue, retry after the group back-off. */
static int reject(sim_run *r, uint32_t g, sim_time t, bool call_hook, const char *how) {
    sim_gangs *G = r->gangs;
    gang *x = &G->g.data[g];
    note_rejection(r, x, how);
    for (size_t i = x->waiting.len; i-- > 0;) {
        uint32_t pod = x->waiting.data[i];
        held(r, x, i, t);
        sim_pod_unbind(r, pod);
    }
    x->waiting.len = x->since.len = 0;
    dequeue_all(r, g);
    x->queued = false;
    x->attempt++;
    sim_time d = r->sc->sched.backoff_initial_ms;   /* podInitialBackoffSeconds * 2^(attempt-1), capped */
    for (uint32_t k = 1; k < x->attempt && d < r->sc->sched.backoff_max_ms; k++) d *= 2;
    if (d > r->sc->sched.backoff_max_ms) d = r->sc->sched.backoff_max_ms;
    schedule(r, ARG(EV_REQUEUE, g, x->attempt), t + d);
    if (call_hook && x->on_timeout) return x->on_timeout(r, x->ctx, g, t);
    return 0;
}

static int gang_event(sim_run *r, void *ctx, uint64_t arg, sim_time t) {
    (void)ctx;
    sim_gangs *G = r->gangs;
    uint32_t g = (uint32_t)((arg >> 24) & 0x7fffffffu), attempt = (uint32_t)(arg & 0xffffffu);
    gang *x = &G->g.data[g];
    if (arg >> 55 == EV_REQUEUE) {   /* the group back-off ended: its pods queue again */
        if (x->queued || x->started || (x->attempt & 0xffffffu) != attempt) return 0;
        x->queued = true;
        for (size_t i = 0; i < x->pods.len; i++) {
            uint32_t q = x->pods.data[i];
            if (queued_pod(r, q)) sched_enqueue(&r->sched, r->pods.data[q].group, q);
        }
        return 0;
    }
    if (x->started || (x->attempt & 0xffffffu) != attempt || !x->waiting.len) return 0;
    return reject(r, g, t, true, "the others did not fit before the Permit timeout");   /* of the attempt's first waiting pod */
}

bool sim_gang_reject_waiting(sim_run *r, uint32_t pod, sim_time t) {
    if (!r->gangs) return false;
    uint32_t g1 = gang_of(r, pod);
    if (!g1) return false;
    gang *x = &r->gangs->g.data[g1 - 1];
    for (size_t i = 0; i < x->waiting.len; i++)
        if (x->waiting.data[i] == pod) {
            reject(r, g1 - 1, t, false, "one of them was deleted or evicted while it waited at Permit");
            return true;
        }
    return false;
}

/* Pods of gang g in the queue behind (and including) the head. */
static int32_t remaining(const sim_run *r, const gang *x) {
    int32_t n = 0;
    for (size_t i = 0; i < x->pods.len; i++) n += queued_pod(r, x->pods.data[i]);
    return n;
}

/* 1.35/1.36: one pod, then Permit. */
static void permit_cycle(sim_run *r, uint32_t g, uint32_t c, uint32_t pod, sim_time t) {
    gang *x = &r->gangs->g.data[g];
    placement pl;
    if (!sched_schedule_head(&r->sched, c, &pl)) return;   /* PostFilter victims: schedule_pass evicts them */
    sim_pod_bound(r, c, pod, &pl);
    VEC_PUSH(x->waiting, pod);
    VEC_PUSH(x->since, t);
    if ((int32_t)x->waiting.len >= x->min) {
        start_waiting(r, x, t);
        return;
    }
    if (x->waiting.len == 1) schedule(r, ARG(EV_TIMEOUT, g, x->attempt), t + x->timeout);
}

/* 1.37+, a gang whose pods the queue pinned to different domains (Kueue TAS,
 * sim_pin.h): they are in several classes; after class c's, the workload
 * cycle goes on with the gang's other queued pods in order, each the head of
 * its class, while placed + remaining can still reach minCount. Returns the
 * pods it placed. */
static int32_t pinned_rest(sim_run *r, gang *x, uint32_t g, uint32_t c, int32_t placed, int32_t *rem, sim_time t) {
    int32_t more = 0;
    for (size_t i = 0; i < x->pods.len && placed + more < x->min && placed + more + *rem >= x->min; i++) {
        uint32_t q = x->pods.data[i], qc = r->pods.data[q].group;
        if (qc == c || !queued_pod(r, q) || !sched_waiting(&r->sched, qc)) continue;
        pod_class *cl = &r->sched.classes[qc];
        if (cl->pending[cl->head] != q) continue;
        bool never = cl->preempt_never;
        cl->preempt_never = true;
        sched_take_class(&r->sched, qc);
        placement pl;
        bool ok = sched_schedule_head(&r->sched, qc, &pl);
        cl = &r->sched.classes[qc];
        cl->preempt_never = never;
        (*rem)--;
        if (!ok) continue;
        sim_pod_bound(r, qc, q, &pl);
        VEC_PUSH(x->waiting, q);
        VEC_PUSH(x->since, t);
        more++;
    }
    (void)g;
    return more;
}

/* 1.37+: the workload scheduling cycle over the gang's queued pods. */
static void workload_cycle(sim_run *r, uint32_t g, uint32_t c, sim_time t) {
    gang *x = &r->gangs->g.data[g];
    pod_class *cl = &r->sched.classes[c];
    int32_t rem = remaining(r, x), placed = 0;
    bool never = cl->preempt_never;
    cl->preempt_never = true;   /* workload-aware preemption (KEP-5710) is not modelled: no per-pod PostFilter */
    while (sched_waiting(&r->sched, c) && placed + rem >= x->min) {
        uint32_t head = cl->pending[cl->head];
        if (gang_of(r, head) != g + 1) break;
        placement pl;
        if (placed) sched_take_class(&r->sched, c);   /* the last success queued the class again */
        if (!sched_schedule_head(&r->sched, c, &pl)) break;   /* the rest are the same pods: none fits */
        sim_pod_bound(r, c, head, &pl);
        VEC_PUSH(x->waiting, head);
        VEC_PUSH(x->since, t);
        placed++;
        rem--;
    }
    cl->preempt_never = never;
    if (placed < x->min && r->pins) placed += pinned_rest(r, x, g, c, placed, &rem, t);
    if (placed >= x->min) start_waiting(r, x, t);
    else reject(r, g, t, false, "the workload cycle found no room for the others");   /* early stop or too few: the whole group is rejected */
}

/* Why the gang's last placement attempt failed (the pods' pending reason). */
static void topo_why(gang *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void topo_why(gang *x, const char *fmt, ...) {
    strbuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    free(x->topo_reason);
    x->topo_reason = xstrdup(sb_str(&b));
    sb_free(&b);
}

/* KEP-5732 (1.36 alpha, 1.37 beta): the pod group cycle over placements, one
 * per domain of the gang's level (sched/topology/topo_placement.h); the
 * chosen placement's pods bind, or the whole group is rejected. */
static void topology_cycle(sim_run *r, uint32_t g, uint32_t c, sim_time t) {
    sim_gangs *G = r->gangs;
    gang *x = &G->g.data[g];
    const topo_domains *d = &G->levels.data[x->topo];
    int32_t rem = remaining(r, x), placed = 0;
    if (!d->ndomains) {   /* topologyplacement.go: Unschedulable */
        topo_why(x, "no nodes found with topology label '%s'", d->key);
        reject(r, g, t, false, x->topo_reason ? x->topo_reason : "no topology placement fits");
        return;
    }
    if (x->topo_most < x->min) {
        topo_why(x, "gang larger than any domain: minCount %d pods, but one '%s' domain holds at most %lld of them "
                 "even empty (%zu domains)%s", x->min, d->key, (long long)x->topo_most, d->ndomains,
                 r->sched.classes[c].one_per_node ? "; a ComputeDomain's pods take a node each (one IMEX channel-0 per "
                 "node)" : "");
        reject(r, g, t, false, x->topo_reason ? x->topo_reason : "no topology placement fits");
        return;
    }
    topo_choice ch;
    topo_choose(&r->sched, d, c, rem, x->min, (uint32_t)r->pods.len, &ch);
    G->topo_binds += ch.trial_binds;
    G->topo_cycles++;
    if (ch.domain < 0) {
        topo_why(x, "0/%zu placements are feasible: no '%s' domain fits minCount %d pods now (the best fits %d)",
                 d->ndomains, d->key, x->min, ch.best_fit);
        reject(r, g, t, false, x->topo_reason ? x->topo_reason : "no topology placement fits");
        return;
    }
    for (int32_t k = 0; k < ch.fit; k++) {
        int64_t node = topo_best_node(&r->sched, d, (size_t)ch.domain, c);
        placement pl;
        if (placed) sched_take_class(&r->sched, c);   /* the last bind queued the class again */
        if (node < 0 || !sched_bind_head_at(&r->sched, c, (size_t)node, &pl)) break;
        sim_pod_bound(r, c, pl.pod, &pl);
        VEC_PUSH(x->waiting, pl.pod);
        VEC_PUSH(x->since, t);
        placed++;
    }
    if (placed >= x->min) {
        free(x->topo_reason);
        x->topo_reason = NULL;
        start_waiting(r, x, t);
    } else {
        reject(r, g, t, false, x->topo_reason ? x->topo_reason : "no topology placement fits");
    }
}

bool sim_gang_cycle(sim_run *r, uint32_t c, uint32_t pod, sim_time t) {
    uint32_t g1 = gang_of(r, pod);
    if (!g1) return false;
    gang *x = &r->gangs->g.data[g1 - 1];
    if (x->started) return false;   /* the gang runs: its later pods bind when they fit */
    if (x->topo >= 0) topology_cycle(r, g1 - 1, c, t);
    else if (r->gangs->cycle) workload_cycle(r, g1 - 1, c, t);
    else permit_cycle(r, g1 - 1, c, pod, t);
    return true;
}

static void topology_reasons(sim_run *r);

void sim_gang_reasons(sim_run *r) {
    sim_gangs *G = r->gangs;
    if (!G) return;
    topology_reasons(r);
    for (size_t g = 0; g < G->g.len; g++) {
        gang *x = &G->g.data[g];
        for (size_t i = 0; i < x->pods.len && !x->started; i++) {
            uint32_t q = x->pods.data[i], c = r->pods.data[q].group;
            if (!queued_pod(r, q) || r->class_reason[c]) continue;
            strbuf b = {0};
            if (x->quorum_at < 0)
                sb_printf(&b, "gang: %zu of minCount %d pods have arrived; none is tried before the quorum (PreEnqueue)",
                          x->pods.len, x->min);
            else if (x->reason) sb_puts(&b, x->reason);
            else sb_printf(&b, "gang: %zu of minCount %d pods wait at Permit for the others", x->waiting.len, x->min);
            r->class_reason[c] = xstrdup(sb_str(&b));
            sb_free(&b);
        }
    }
}

int64_t sim_gang_waiting_gpus(const sim_run *r) {
    const sim_gangs *G = r->gangs;
    int64_t need = 0;
    if (!G || !G->cls_gang) return 0;
    for (size_t c = 0; c < G->ncls; c++) {
        if (!G->cls_gang[c]) continue;
        const gang *x = &G->g.data[G->cls_gang[c] - 1];
        const gs_pod *shape = &r->sched.classes[c].shape;
        if (x->started || x->quorum_at < 0 || shape->ngpu <= 0) continue;
        int64_t gpus = (int64_t)x->min * shape->ngpu;
        if (!need || gpus < need) need = gpus;
    }
    return need;
}

void sim_gang_counts(const sim_run *r, uint32_t g, int32_t *arrived, int32_t *waiting, bool *started) {
    const gang *x = &r->gangs->g.data[g];
    *arrived = (int32_t)x->pods.len;
    *waiting = (int32_t)x->waiting.len;
    *started = x->started;
}

static void add(sim_run *r, const char *group, const char *name, double v) {
    sim_metric m = {intern(name), v, group};
    VEC_PUSH(r->summary, m);
}

/* Per group (and whole run: group NULL): gangs, started, rejected attempts,
 * waits from quorum to start (a gang that never started waits until the end),
 * GPU-seconds held at Permit by partial gangs (those still waiting at the end
 * count until the end). */
static void summarize(sim_run *r, const char *group) {
    sim_gangs *G = r->gangs;
    int64_t n = 0, started = 0, failed = 0;
    double wait_sum = 0, wait_max = 0, held = 0;
    sim_time hold_max = 0;
    int32_t topo_level = -1;
    for (size_t i = 0; i < G->g.len; i++) {
        gang *x = &G->g.data[i];
        if (group && x->group != group) continue;
        n++;
        if (x->topo >= 0) topo_level = x->topo;
        failed += x->attempt;
        held += x->held_gpu_s;
        if (x->hold_max > hold_max) hold_max = x->hold_max;
        for (size_t k = 0; k < x->waiting.len; k++) {
            sim_time d = r->end_time - x->since.data[k];
            held += held_gpus(r, x->waiting.data[k]) * (double)d / 1000.0;
            if (d > hold_max) hold_max = d;
        }
        if (x->quorum_at < 0) continue;
        started += x->started;
        double w = (double)((x->started ? x->started_at : r->end_time) - x->quorum_at) / 1000.0;
        wait_sum += w;
        if (w > wait_max) wait_max = w;
    }
    if (!n) return;
    if (group && topo_level >= 0)
        add(r, group, "topology_unlabelled_nodes", (double)G->levels.data[topo_level].unlabelled);
    add(r, group, "gangs", (double)n);
    add(r, group, "gangs_started", (double)started);
    add(r, group, "gang_attempts_failed", (double)failed);
    add(r, group, "gang_wait_mean_s", wait_sum / (double)n);
    add(r, group, "gang_wait_max_s", wait_max);
    add(r, group, "gang_held_gpu_s", held);
    add(r, group, "gang_hold_max_s", (double)hold_max / 1000.0);
}

/* Pods of a topology-constrained gang that could not be placed get the
 * reason of its last placement attempt (KEP-5732's message, undecorated). */
static void topology_reasons(sim_run *r) {
    sim_gangs *G = r->gangs;
    if (!G || !G->cls_gang) return;
    for (size_t c = 0; c < G->ncls; c++) {
        if (!G->cls_gang[c]) continue;
        gang *x = &G->g.data[G->cls_gang[c] - 1];
        if (!x->topo_reason || x->started) continue;
        free(r->class_reason[c]);
        r->class_reason[c] = xstrdup(x->topo_reason);
    }
}

void sim_gang_summary(sim_run *r) {
    if (!r->gangs || !r->gangs->g.len) return;
    if (r->gangs->levels.len) {
        add(r, NULL, "topology_placement_cycles", (double)r->gangs->topo_cycles);
        add(r, NULL, "topology_trial_binds", (double)r->gangs->topo_binds);
    }
    summarize(r, NULL);
    for (size_t g = 0; g < r->groups.len; g++) summarize(r, r->groups.data[g].name);
}
