/* sim_usage.c -- the usage and contention model (see sim_usage.h). */
#include "engine/sim_usage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_cost.h"
#include "sched/dra/dra.h"
#include "util/intern.h"
#include "util/xalloc.h"

/* A GPU (device-plugin sharing) or a DRA device that pods share. */
typedef struct slot {
    uint64_t ka, kb;              /* key: (node + 1, GPU) or (pool name, device name) pointers */
    double equiv;                 /* GPUs it is (MIG device N/7) */
    sim_time last;                /* allocation attributed to its tenants up to here */
    uint32_t *ten, n, cap;        /* its tenants (pod ids) */
} slot;

/* A running pod on at least one slot. */
typedef struct upod {
    double done, speed;           /* dedicated run time done (ms); 1 / stretch */
    double alloc, used;           /* GPU-ms allocated (its share of its slots) and used so far */
    sim_time last, due;           /* progress up to `last`; its completion (or phase end) event, -1 = none */
    double busy, thread, gpus;    /* busy fraction now; MPS thread share; GPUs of its slots */
    uint32_t slot0;               /* its slots: pslots[slot0 .. slot0 + nslot) */
    uint8_t phase, mode, interval, nslot;
} upod;

struct sim_usage {
    contention_params par;
    rng base;                     /* pods' busy draws fork from it */
    VEC(upod) up;
    uint32_t *pod_ix;             /* per pod id: 1 + its upod, 0 = none (no slot) */
    size_t npod_ix;
    VEC(uint32_t) pslots;
    slot *slots;
    size_t nslots, cap;
    uint32_t *hash;               /* open addressing: 1 + slot index */
    size_t hcap;
    double *cls_alloc, *cls_used; /* GPU-ms per class, pods that ended */
    size_t ncls;
    double *node_alloc, *node_used;
    uint8_t *node_mode;           /* device plugin: the node's sharing (SHARE_*) */
    uint16_t *node_reps;          /* and its replicas */
    double *scratch;              /* tenants' caps on one slot */
    size_t nscratch;
};

/* ---- the stretch -------------------------------------------------------- */

double sim_usage_capacity(share_strategy s, int n, double D, double c, double beta) {
    if (s == SHARE_MPS) return 1 / (1 + beta * (D > 1 ? D - 1 : 0));
    return 1 / (1 + c * (n > 1 ? n - 1 : 0));
}

static int cmp_dbl(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double sim_usage_fair_share(const double *cap, size_t n, double capacity, size_t i) {
    /* water-filling: the smallest caps are met first while they are below an
     * even split of what is left; the others get that split (the level) */
    double stack[64], *v = n <= 64 ? stack : xmalloc(n * sizeof *v), left = capacity, level = INFINITY;
    memcpy(v, cap, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_dbl);
    for (size_t j = 0; j < n; j++) {
        if (v[j] > left / (double)(n - j)) {
            level = left / (double)(n - j);
            break;
        }
        left -= v[j];
    }
    if (v != stack) free(v);
    return cap[i] < level ? cap[i] : level;
}

/* ---- slots ------------------------------------------------------------- */

static uint64_t mix(uint64_t a, uint64_t b) {
    uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL + (a << 6) + (a >> 2));
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 29);
}

static void hash_grow(sim_usage *u) {
    size_t cap = u->hcap ? u->hcap * 2 : 1024;
    uint32_t *h = xcalloc(cap, sizeof *h);
    for (size_t i = 0; i < u->nslots; i++) {
        size_t k = mix(u->slots[i].ka, u->slots[i].kb) & (cap - 1);
        while (h[k]) k = (k + 1) & (cap - 1);
        h[k] = (uint32_t)i + 1;
    }
    free(u->hash);
    u->hash = h;
    u->hcap = cap;
}

static uint32_t slot_of(sim_usage *u, uint64_t ka, uint64_t kb, double equiv) {
    if (2 * (u->nslots + 1) > u->hcap) hash_grow(u);
    size_t k = mix(ka, kb) & (u->hcap - 1);
    for (; u->hash[k]; k = (k + 1) & (u->hcap - 1)) {
        slot *s = &u->slots[u->hash[k] - 1];
        if (s->ka == ka && s->kb == kb) return u->hash[k] - 1;
    }
    if (u->nslots == u->cap) {
        u->cap = u->cap ? u->cap * 2 : 256;
        u->slots = xrealloc(u->slots, u->cap * sizeof *u->slots);
    }
    u->slots[u->nslots] = (slot){.ka = ka, .kb = kb, .equiv = equiv};
    u->hash[k] = (uint32_t)u->nslots + 1;
    return (uint32_t)u->nslots++;
}

static upod *up_of(sim_usage *u, uint32_t id) {
    return id < u->npod_ix && u->pod_ix[id] ? &u->up.data[u->pod_ix[id] - 1] : NULL;
}

/* Attribute slot s's allocation up to t to its tenants, evenly. */
static void slot_settle(sim_usage *u, slot *s, sim_time t) {
    if (s->n && t > s->last) {
        double share = s->equiv * (double)(t - s->last) / s->n;
        for (uint32_t i = 0; i < s->n; i++) up_of(u, s->ten[i])->alloc += share;
    }
    s->last = t;
}

/* ---- a pod's work ------------------------------------------------------- */

static const gpu_usage *usage_of(const sim_run *r, uint32_t c) { return sim_class_spec(r, c)->usage; }

/* Busy fraction of pod id's phase k: its own random stream (seed, class name, ordinal, phase). */
static double busy_draw(const sim_run *r, const sim_usage *u, uint32_t id, int k) {
    const sim_pod *p = &r->pods.data[id];
    const gpu_usage *g = usage_of(r, p->group);
    if (!g) return 1;
    const busy_dist *d = &g->phases[k].busy;
    if (d->kind == BUSY_FIXED) return d->a;
    rng x;
    uint64_t tag = rng_name_tag(r->sched.classes[p->group].name) ^ ((uint64_t)p->ordinal << 8 | (uint64_t)k) *
                                                                          0x9E3779B97F4A7C15ULL;
    rng_fork(&u->base, tag, &x);
    return usage_draw(d, &x);
}

/* Where phase k of pod id ends, in dedicated ms (its duration for the last). */
static double phase_end(const sim_run *r, uint32_t id, int k) {
    const sim_pod *p = &r->pods.data[id];
    const gpu_usage *g = usage_of(r, p->group);
    if (p->duration == SIM_TIME_NEVER) return INFINITY;
    if (!g || k + 1 >= (int)g->nphases) return (double)p->duration;
    double w = 0;
    for (int i = 0; i <= k; i++) w += g->phases[i].work;
    return w * (double)p->duration;
}

static int nphases(const sim_run *r, uint32_t id) {
    const gpu_usage *g = usage_of(r, r->pods.data[id].group);
    return g && r->pods.data[id].duration != SIM_TIME_NEVER ? (int)g->nphases : 1;
}

/* GPU-ms a pod without slots used over its first `done` ms of work on `eq` GPUs. */
static double used_plain(const sim_run *r, const sim_usage *u, uint32_t id, double done, double eq) {
    int np = nphases(r, id);
    double used = 0, from = 0;
    for (int k = 0; k < np && from < done; k++) {
        double to = phase_end(r, id, k);
        double span = (to < done ? to : done) - from;
        if (span > 0) used += span * busy_draw(r, u, id, k) * eq;
        from = to;
    }
    return used;
}

/* Bring pod x's progress up to t. */
static void settle(upod *x, sim_time t) {
    if (t <= x->last) return;
    double d = (double)(t - x->last) * x->speed;
    x->done += d;
    x->used += d * x->busy * x->gpus;
    x->last = t;
}

/* A tenant's cap on its GPU share: its busy fraction, and under MPS its thread share. */
static double cap_of(const upod *x) {
    return x->mode == SHARE_MPS && x->thread < x->busy ? x->thread : x->busy;
}

/* Its stretch now: busy / the share it gets, on the slowest of its slots. */
static double stretch_of(sim_usage *u, const upod *x) {
    if (x->busy <= 0) return 1;
    double worst = 1;
    for (uint32_t k = 0; k < x->nslot; k++) {
        const slot *s = &u->slots[u->pslots.data[x->slot0 + k]];
        double D = 0, *cap = u->scratch;
        size_t me = 0, n = s->n;
        if (n > u->nscratch) {
            u->nscratch = n * 2;
            cap = u->scratch = xrealloc(u->scratch, u->nscratch * sizeof *u->scratch);
        }
        for (uint32_t i = 0; i < n; i++) {
            const upod *y = up_of(u, s->ten[i]);
            D += y->busy;
            cap[i] = cap_of(y);
            if (y == x) me = i;
        }
        double C = sim_usage_capacity((share_strategy)x->mode, (int)s->n, D, u->par.switch_cost[x->interval],
                                      u->par.mps_bandwidth_penalty);
        double r = sim_usage_fair_share(cap, n, C, me);
        double st = r > 0 ? x->busy / r : 1e9;
        if (st > worst) worst = st;
    }
    return worst;
}

/* Recompute pod id's speed at t and (re)schedule its next event. */
static void reschedule(sim_run *r, uint32_t id, sim_time t) {
    sim_usage *u = r->usage;
    upod *x = up_of(u, id);
    settle(x, t);
    x->speed = 1 / stretch_of(u, x);
    if (r->pods.data[id].state != POD_RUNNING) return;   /* terminating (evicted): no completion any more */
    double target = phase_end(r, id, x->phase);
    sim_time due = -1;
    if (isfinite(target)) {
        double rem = target - x->done;
        due = t + (rem > 0 ? (sim_time)ceil(rem / x->speed - 1e-6) : 0);
        if (due < t) due = t;
    }
    if (due == x->due) return;
    if (x->due >= 0) r->live_events--;   /* its queued event is stale now: no longer a live event */
    x->due = due;
    if (due >= 0) {
        evq_push(&r->q, due, EV_COMPLETION, id);
        r->live_events++;
    }
}

/* Every tenant of pod id's slots (id included) at t. */
static void reschedule_tenants(sim_run *r, uint32_t id, sim_time t) {
    sim_usage *u = r->usage;
    const upod *x = up_of(u, id);
    uint32_t s0 = x->slot0, ns = x->nslot;
    for (uint32_t k = 0; k < ns; k++) {
        const slot *s = &u->slots[u->pslots.data[s0 + k]];
        for (uint32_t i = 0; i < s->n; i++) reschedule(r, s->ten[i], t);
    }
}

/* ---- setting up ----------------------------------------------------------- */

static const char *label(const k8s_node *n, const char *key) {
    for (size_t i = 0; i < n->meta.nlabels; i++)
        if (!strcmp(n->meta.labels[i].key, key)) return n->meta.labels[i].value;
    return NULL;
}

sim_usage *sim_usage_new(sim_run *r) {
    bool any = false;
    for (size_t c = 0; c < r->sched.nclasses && !any; c++) any = usage_of(r, (uint32_t)c) != NULL;
    if (!any) return NULL;
    sim_usage *u = xcalloc(1, sizeof *u);
    if (r->sc->contention) u->par = *r->sc->contention;
    else contention_defaults(&u->par);
    rng_seed(&u->base, r->sc->seed ^ rng_name_tag("usage"));
    u->node_alloc = xcalloc(r->nnodes + 1, sizeof *u->node_alloc);
    u->node_used = xcalloc(r->nnodes + 1, sizeof *u->node_used);
    u->node_mode = xcalloc(r->nnodes + 1, 1);
    u->node_reps = xcalloc(r->nnodes + 1, sizeof *u->node_reps);
    for (size_t i = 0; i < r->nnodes && !r->dra; i++) {   /* the device plugin's sharing, per node (its labels) */
        const char *st = label(&r->nodes[i], "nvidia.com/gpu.sharing-strategy");
        const char *reps = label(&r->nodes[i], "nvidia.com/gpu.replicas");
        int R = reps ? atoi(reps) : 1;
        if (st && R > 1) {
            u->node_mode[i] = !strcmp(st, "mps") ? SHARE_MPS : !strcmp(st, "time-slicing") ? SHARE_TIME_SLICING : 0;
            u->node_reps[i] = (uint16_t)(R < 65535 ? R : 65535);
        }
    }
    return u;
}

void sim_usage_class(sim_run *r, uint32_t c) {
    if (!r->usage && usage_of(r, c)) r->usage = sim_usage_new(r);
}

void sim_usage_free(sim_usage *u) {
    if (!u) return;
    for (size_t i = 0; i < u->nslots; i++) free(u->slots[i].ten);
    free(u->slots);
    free(u->hash);
    free(u->pod_ix);
    VEC_FREE(u->up);
    VEC_FREE(u->pslots);
    free(u->cls_alloc);
    free(u->cls_used);
    free(u->node_alloc);
    free(u->node_used);
    free(u->node_mode);
    free(u->node_reps);
    free(u->scratch);
    free(u);
}

/* The sharing of DRA claim `name` of class c (template or shared): strategy, interval, thread share. */
static const gpu_sharing *claim_sharing(const sim_run *r, uint32_t c, const char *name, bool shared) {
    if (shared) {
        for (size_t i = 0; i < r->sc->nshared_claims; i++)
            if (r->sc->shared_claims[i].name == name) return &r->sc->shared_claims[i].sharing;
        return NULL;
    }
    const pod_group_spec *g = sim_class_spec(r, c);
    for (size_t i = 0; i < g->ndra_claims; i++)
        if (g->dra_claims[i].name == name && !g->dra_claims[i].shared) return &g->dra_claims[i].sharing;
    return NULL;
}

/* A DRA device's GPUs (GPU 1, MIG N/7); 0 = not a GPU of the view. */
static double device_equiv(const dra_state *d, size_t node, const char *pool, const char *dev) {
    const dra_node_gpus *n = d->node_gpus ? &d->node_gpus[node] : NULL;
    for (uint32_t i = 0; n && i < n->ndev; i++)
        if (n->dev[i].pool == pool && n->dev[i].name == dev) return n->dev[i].milli / 1000.0;
    return 0;
}

static void add_tenant(slot *s, uint32_t id) {
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 4;
        s->ten = xrealloc(s->ten, s->cap * sizeof *s->ten);
    }
    s->ten[s->n++] = id;
}

/* The slots of pod id (appended to pslots); its mode, interval and thread share into x. */
static uint32_t find_slots(sim_run *r, uint32_t id, upod *x) {
    sim_usage *u = r->usage;
    const sim_pod *p = &r->pods.data[id];
    uint32_t n = 0;
    x->mode = SHARE_TIME_SLICING;
    x->interval = TS_DEFAULT;
    x->thread = 1;
    if (!r->dra) {
        size_t node = (size_t)p->node;
        if (!u->node_mode[node] || !p->gpus) return 0;
        x->mode = u->node_mode[node];
        if (x->mode == SHARE_MPS) x->thread = 1.0 / u->node_reps[node];   /* NVDP: 100 / replicas % of threads */
        for (int g = 0; g < 8; g++)
            if ((p->gpus >> g) & 1) {
                uint32_t s = slot_of(u, (uint64_t)node + 1, (uint64_t)g, 1.0);
                VEC_PUSH(u->pslots, s);
                n++;
            }
        return n;
    }
    size_t nrec;
    const dra_record *rec = dra_pod_records(r->dra, id, &nrec);
    bool set = false;
    for (size_t i = 0; i < nrec; i++) {
        const gpu_sharing *sh = claim_sharing(r, p->group, rec[i].claim, rec[i].shared);
        if (sh && sh->strategy != SHARE_NONE && !set) {
            set = true;
            x->mode = sh->strategy;
            x->interval = sh->interval;
            x->thread = sh->thread_pct > 0 ? sh->thread_pct / 100.0 : sh->thread_pct < 0 ? 0.01 : 1.0;
        }
        /* a device of its own (a template claim, no MPS thread cap) that no other claim may get
         * (no allowMultipleAllocations) never has co-tenants: no slot, as on whole GPUs */
        bool own = !rec[i].shared && !(sh && sh->strategy == SHARE_MPS);
        const k8s_allocation *al = dra_record_allocation(r->dra, &rec[i]);
        for (size_t k = 0; k < al->nresults; k++) {
            const k8s_device_result *res = &al->results[k];
            if (own) {
                const k8s_device *dev = allocator_find_device(r->dra->A, res->driver, res->pool, res->device);
                if (!dev || !dev->allow_multiple) continue;
            }
            double eq = device_equiv(r->dra, (size_t)p->node, res->pool, res->device);
            if (eq <= 0) continue;
            uint32_t s = slot_of(u, (uint64_t)(uintptr_t)res->pool, (uint64_t)(uintptr_t)res->device, eq);
            bool dup = false;
            for (uint32_t j = 0; j < n; j++) dup |= u->pslots.data[u->pslots.len - n + j] == s;
            if (dup) continue;
            VEC_PUSH(u->pslots, s);
            n++;
        }
    }
    return n;
}

void sim_usage_start(sim_run *r, uint32_t id, sim_time t) {
    sim_usage *u = r->usage;
    sim_pod *p = &r->pods.data[id];
    upod x = {.last = t, .due = -1, .speed = 1};
    x.slot0 = (uint32_t)u->pslots.len;
    x.nslot = (uint8_t)find_slots(r, id, &x);
    if (!x.nslot) {   /* alone on its GPUs: runs for its duration, as without the model */
        u->pslots.len = x.slot0;
        if (p->duration != SIM_TIME_NEVER) {
            evq_push(&r->q, t + p->duration, EV_COMPLETION, id);
            r->live_events++;
        }
        return;
    }
    x.busy = busy_draw(r, u, id, 0);
    for (uint32_t k = 0; k < x.nslot; k++) x.gpus += u->slots[u->pslots.data[x.slot0 + k]].equiv;
    if (id >= u->npod_ix) {
        size_t n = u->npod_ix ? u->npod_ix : 1024;
        while (n <= id) n *= 2;
        u->pod_ix = xrealloc(u->pod_ix, n * sizeof *u->pod_ix);
        memset(u->pod_ix + u->npod_ix, 0, (n - u->npod_ix) * sizeof *u->pod_ix);
        u->npod_ix = n;
    }
    VEC_PUSH(u->up, x);
    u->pod_ix[id] = (uint32_t)u->up.len;
    for (uint32_t k = 0; k < x.nslot; k++) {
        slot *s = &u->slots[u->pslots.data[x.slot0 + k]];
        slot_settle(u, s, t);
        add_tenant(s, id);
    }
    reschedule_tenants(r, id, t);
}

/* Add an ended (or, at the end of the run, running) pod's GPU-ms to its class and node. */
static void book(sim_usage *u, const sim_run *r, uint32_t id, double alloc, double used) {
    const sim_pod *p = &r->pods.data[id];
    if (p->group >= u->ncls) {
        size_t n = r->sched.nclasses > p->group ? r->sched.nclasses : p->group + 1;
        u->cls_alloc = xrealloc(u->cls_alloc, n * sizeof *u->cls_alloc);
        u->cls_used = xrealloc(u->cls_used, n * sizeof *u->cls_used);
        for (size_t c = u->ncls; c < n; c++) u->cls_alloc[c] = u->cls_used[c] = 0;
        u->ncls = n;
    }
    u->cls_alloc[p->group] += alloc;
    u->cls_used[p->group] += used;
    if (r->cost) sim_cost_book((sim_run *)r, id, alloc, used);   /* chargeback, energy (issue 30) */
    if (p->node >= 0) {
        u->node_alloc[p->node] += alloc;
        u->node_used[p->node] += used;
    }
}

/* Pod id at t: its allocation and use so far (no slot: its GPU-equivalents all along). */
static void measure(sim_run *r, uint32_t id, sim_time t, double *alloc, double *used) {
    sim_usage *u = r->usage;
    const sim_pod *p = &r->pods.data[id];
    upod *x = up_of(u, id);
    if (!x) {
        double eq = sim_pod_gpu_equiv(r, id);
        if (isnan(eq)) eq = 0;
        double ran = (double)(t - p->start);
        *alloc = eq * ran;
        *used = used_plain(r, u, id, ran, eq);
        return;
    }
    settle(x, t);
    for (uint32_t k = 0; k < x->nslot; k++) slot_settle(u, &u->slots[u->pslots.data[x->slot0 + k]], t);
    *alloc = x->alloc;
    *used = x->used;
}

void sim_usage_stop(sim_run *r, uint32_t id, sim_time t) {
    sim_usage *u = r->usage;
    double alloc, used;
    measure(r, id, t, &alloc, &used);
    book(u, r, id, alloc, used);
    upod *x = up_of(u, id);
    if (!x) return;
    x->due = -1;   /* consumed (sim_usage_due) or cancelled (sim_usage_cancel) before */
    for (uint32_t k = 0; k < x->nslot; k++) {   /* leave its slots; the others speed up */
        slot *s = &u->slots[u->pslots.data[x->slot0 + k]];
        for (uint32_t i = 0; i < s->n; i++)
            if (s->ten[i] == id) {
                memmove(&s->ten[i], &s->ten[i + 1], (s->n - i - 1) * sizeof *s->ten);
                s->n--;
                break;
            }
        for (uint32_t i = 0; i < s->n; i++) reschedule(r, s->ten[i], t);
    }
    /* its upod stays (due -1): its completion events still queued are stale (sim_usage_skip_stale) */
}

bool sim_usage_cancel(sim_run *r, uint32_t id) {
    upod *x = up_of(r->usage, id);
    if (!x) return false;
    if (x->due >= 0) r->live_events--;   /* its queued completion is stale now */
    x->due = -1;
    return true;
}

bool sim_usage_skip_stale(sim_run *r) {
    const event *e = evq_peek(&r->q);
    if (ev_kind(e) != EV_COMPLETION) return false;
    const upod *x = up_of(r->usage, (uint32_t)e->arg);
    if (!x || x->due == e->time) return false;
    evq_pop(&r->q);   /* not live: counted out when it went stale */
    return true;
}

bool sim_usage_due(sim_run *r, uint32_t id, sim_time t) {
    sim_usage *u = r->usage;
    upod *x = up_of(u, id);
    if (!x) return true;   /* no slot: its one completion event */
    if (x->due != t) return false;   /* stale: rescheduled since (sim_usage_skip_stale drops most) */
    settle(x, t);
    int last = nphases(r, id) - 1;
    if (x->phase >= last) {
        x->due = -1;   /* consumed */
        return true;
    }
    /* a phase ends: exactly at its boundary, the next busy fraction, new speeds all round */
    double end = phase_end(r, id, x->phase);
    x->used += (end - x->done) * x->busy * x->gpus;
    x->done = end;
    x->phase++;
    x->busy = busy_draw(r, u, id, x->phase);
    x->due = -2;   /* consumed; forces a new event */
    for (uint32_t k = 0; k < x->nslot; k++) slot_settle(u, &u->slots[u->pslots.data[x->slot0 + k]], t);
    reschedule_tenants(r, id, t);
    return false;
}

/* Busy GPU-equivalents per node at t: a pod on slots runs at speed x busy on
 * its slots' GPUs (its share of them); a pod alone on its GPUs, busy x its
 * GPU-equivalents in the phase its elapsed run time is in. */
void sim_usage_node_busy(sim_run *r, sim_time t, double *busy) {
    sim_usage *u = r->usage;
    for (size_t i = 0; i < r->pods.len; i++) {
        const sim_pod *p = &r->pods.data[i];
        if (p->state != POD_RUNNING || p->node < 0) continue;
        const upod *x = up_of(u, (uint32_t)i);
        if (x) {
            busy[p->node] += x->speed * x->busy * x->gpus;
            continue;
        }
        double eq = sim_pod_gpu_equiv(r, (uint32_t)i), done = (double)(t - p->start);
        if (isnan(eq) || eq <= 0) continue;
        int np = nphases(r, (uint32_t)i), k = 0;
        while (k + 1 < np && phase_end(r, (uint32_t)i, k) <= done) k++;
        busy[p->node] += eq * busy_draw(r, u, (uint32_t)i, k);
    }
}

const double *sim_usage_node_alloc(const sim_usage *u) { return u->node_alloc; }
const double *sim_usage_node_used(const sim_usage *u) { return u->node_used; }

/* ---- summary -------------------------------------------------------------- */


static void add(sim_run *r, const char *group, const char *name, double v) {
    sim_metric m = {intern(name), v, group};
    VEC_PUSH(r->summary, m);
}

/* Slowdowns of ended pods (run time / duration) of group name (NULL = all), sorted into v. */
static size_t slowdowns(const sim_run *r, const char *name, double *v) {
    size_t n = 0;
    for (size_t i = 0; i < r->pods.len; i++) {
        const sim_pod *p = &r->pods.data[i];
        if (p->state != POD_SUCCEEDED || p->duration <= 0 || p->duration == SIM_TIME_NEVER) continue;
        if (name && strcmp(r->sched.classes[p->group].name, name)) continue;
        v[n++] = (double)(p->end - p->start) / (double)p->duration;
    }
    qsort(v, n, sizeof *v, cmp_dbl);
    return n;
}

static void add_usage(sim_run *r, const char *group, double alloc, double used, double *v) {
    add(r, group, "usage_gpu_hours_allocated", alloc / 3600000.0);
    add(r, group, "usage_gpu_hours_used", used / 3600000.0);
    add(r, group, "usage_gpu_hours_idle", (alloc > used ? alloc - used : 0) / 3600000.0);
    add(r, group, "usage_used_pct", alloc > 0 ? 100.0 * used / alloc : 0);
    size_t n = slowdowns(r, group, v);
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += v[i];
    add(r, group, "slowdown_mean", n ? sum / (double)n : NAN);
    add(r, group, "slowdown_p95", n ? v[(size_t)ceil(0.95 * (double)n) - 1] : NAN);
    add(r, group, "slowdown_max", n ? v[n - 1] : NAN);
}

void sim_usage_summary(sim_run *r) {
    sim_usage *u = r->usage;
    if (!u) return;
    for (size_t i = 0; i < r->pods.len; i++)   /* pods still running: up to the end of the run */
        if (r->pods.data[i].state == POD_RUNNING) {
            double alloc, used;
            measure(r, (uint32_t)i, r->end_time, &alloc, &used);
            book(u, r, (uint32_t)i, alloc, used);
        }
    double *v = xmalloc((r->pods.len ? r->pods.len : 1) * sizeof *v);
    double ta = 0, tu = 0;
    for (size_t c = 0; c < u->ncls; c++) ta += u->cls_alloc[c], tu += u->cls_used[c];
    add_usage(r, NULL, ta, tu, v);
    for (size_t g = 0; g < r->groups.len; g++) {
        const char *name = r->groups.data[g].name;
        double a = 0, us = 0;
        for (size_t c = 0; c < u->ncls; c++)
            if (!strcmp(r->sched.classes[c].name, name)) a += u->cls_alloc[c], us += u->cls_used[c];
        add_usage(r, name, a, us, v);
    }
    free(v);
}
