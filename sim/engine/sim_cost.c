/* sim_cost.c -- prices, chargeback, energy and power of a run (see sim_cost.h, docs/COST.md). */
#include "engine/sim_cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_usage.h"
#include "model/cost_spec.h"
#include "model/kai.h"
#include "model/kueue.h"
#include "model/scenario.h"
#include "util/intern.h"
#include "util/xalloc.h"

#define MS_PER_H 3600000.0

struct sim_cost {
    const cluster_spec *cl;
    size_t npools, nnodes;
    int32_t *pool_of;             /* per node: its pool, -1 = none (recorded inventory) */
    uint8_t *present;             /* per node: billed and powered now */
    sim_time *since;              /* per node: present since */
    double *present_ms;           /* per node: time present up to `since` */
    int *billed;                  /* per pool: nodes present now */
    sim_time *last;               /* per pool: integrals up to here */
    double *node_ms, *over_ms;    /* per pool: integral of billed, of max(0, billed - reserved) */
    double *gmax, *gidle, *gbase; /* per pool: GPU max and idle power, node base power (W) */
    int *gpn;                     /* per pool: GPUs per node */
    double *alloc_now;            /* per pool: GPU-equivalents allocated now (without the usage model) */
    double *ca, *cu;              /* [class * npools + pool]: GPU-ms allocated, used */
    size_t ncls;
    double *busy;                 /* per node scratch: GPU-equivalents busy (usage model) */
    bool power, priced;
    VEC(sim_power_sample) ps;
    sim_cost_pool *res;
};

sim_cost *sim_cost_new(sim_run *r) {
    const cluster_spec *cl = &r->sc->cluster;
    bool priced = false;
    for (size_t p = 0; p < cl->npools; p++) priced |= cl->pools[p].price != NULL || cl->pools[p].spot != NULL;
    if (!priced && !cl->power) return NULL;
    sim_cost *c = xcalloc(1, sizeof *c);
    c->cl = cl;
    c->priced = priced;
    c->power = cl->power != NULL;
    c->npools = cl->npools;
    c->nnodes = r->nnodes;
    size_t np = c->npools ? c->npools : 1, nn = r->nnodes ? r->nnodes : 1;
    c->pool_of = xmalloc(nn * sizeof *c->pool_of);
    c->present = xmalloc(nn);
    c->since = xcalloc(nn, sizeof *c->since);
    c->present_ms = xcalloc(nn, sizeof *c->present_ms);
    c->busy = xcalloc(nn, sizeof *c->busy);
    c->billed = xcalloc(np, sizeof *c->billed);
    c->last = xcalloc(np, sizeof *c->last);
    c->node_ms = xcalloc(np, sizeof *c->node_ms);
    c->over_ms = xcalloc(np, sizeof *c->over_ms);
    c->gmax = xcalloc(np, sizeof *c->gmax);
    c->gidle = xcalloc(np, sizeof *c->gidle);
    c->gbase = xcalloc(np, sizeof *c->gbase);
    c->gpn = xcalloc(np, sizeof *c->gpn);
    c->alloc_now = xcalloc(np, sizeof *c->alloc_now);
    c->res = xcalloc(np, sizeof *c->res);
    for (size_t n = 0; n < r->nnodes; n++) {
        const inv_node *in = r->info ? &r->info[n] : NULL;
        int32_t p = in && in->pool ? (int32_t)(in->pool - cl->pools) : -1;
        if (p >= (int32_t)c->npools) p = -1;
        c->pool_of[n] = p;
        c->present[n] = 1;
        if (p < 0) continue;
        c->billed[p]++;
        c->gpn[p] = in->gpus;
        if (c->power) {   /* checked at the inventory (cost_pool_power_check) */
            const node_pool_spec *ps = &cl->pools[p];
            c->gmax[p] = in->gpus > 0 ? cost_gpu_max_w(ps, in->gpu) : 0;
            double idle = cost_gpu_idle_w(cl, ps);
            c->gidle[p] = in->gpus > 0 && idle > 0 ? idle : 0;
            c->gbase[p] = cost_node_base_w(cl, ps);
        }
    }
    return c;
}

void sim_cost_free(sim_cost *c) {
    if (!c) return;
    free(c->pool_of);
    free(c->present);
    free(c->since);
    free(c->present_ms);
    free(c->busy);
    free(c->billed);
    free(c->last);
    free(c->node_ms);
    free(c->over_ms);
    free(c->gmax);
    free(c->gidle);
    free(c->gbase);
    free(c->gpn);
    free(c->alloc_now);
    free(c->ca);
    free(c->cu);
    free(c->res);
    VEC_FREE(c->ps);
    free(c);
}

static int reserved_of(const sim_cost *c, size_t p) {
    const pool_price *pr = c->cl->pools[p].price;
    return pr ? pr->reserved : 0;
}

/* Bring pool p's node integrals up to t. */
static void integrate(sim_cost *c, size_t p, sim_time t) {
    if (t > c->last[p]) {
        double dt = (double)(t - c->last[p]);
        int over = c->billed[p] - reserved_of(c, p);
        c->node_ms[p] += (double)c->billed[p] * dt;
        if (over > 0) c->over_ms[p] += (double)over * dt;
    }
    c->last[p] = t;
}

void sim_cost_node_present(sim_run *r, size_t node, bool present, sim_time t) {
    sim_cost *c = r->cost;
    if (!c || node >= c->nnodes || c->present[node] == present) return;
    int32_t p = c->pool_of[node];
    if (p >= 0) {
        integrate(c, (size_t)p, t);
        c->billed[p] += present ? 1 : -1;
    }
    if (present) c->since[node] = t;
    else c->present_ms[node] += (double)(t - c->since[node]);
    c->present[node] = present;
}

/* Room for class cls in the class x pool matrices. */
static void grow(sim_cost *c, const sim_run *r, size_t cls) {
    if (cls < c->ncls) return;
    size_t n = r->sched.nclasses > cls ? r->sched.nclasses : cls + 1, np = c->npools ? c->npools : 1;
    c->ca = xrealloc(c->ca, n * np * sizeof *c->ca);
    c->cu = xrealloc(c->cu, n * np * sizeof *c->cu);
    memset(c->ca + c->ncls * np, 0, (n - c->ncls) * np * sizeof *c->ca);
    memset(c->cu + c->ncls * np, 0, (n - c->ncls) * np * sizeof *c->cu);
    c->ncls = n;
}

void sim_cost_book(sim_run *r, uint32_t id, double alloc_ms, double used_ms) {
    sim_cost *c = r->cost;
    const sim_pod *pod = &r->pods.data[id];
    if (!c || pod->node < 0 || c->pool_of[pod->node] < 0) return;
    grow(c, r, pod->group);
    size_t k = (size_t)pod->group * c->npools + (size_t)c->pool_of[pod->node];
    c->ca[k] += alloc_ms;
    c->cu[k] += used_ms;
}

static double pod_equiv(const sim_run *r, uint32_t id) {
    double eq = sim_pod_gpu_equiv(r, id);
    return isnan(eq) ? 0 : eq;
}

void sim_cost_pod_start(sim_run *r, uint32_t id, sim_time t) {
    (void)t;
    sim_cost *c = r->cost;
    const sim_pod *pod = &r->pods.data[id];
    if (r->usage || pod->node < 0 || c->pool_of[pod->node] < 0) return;
    c->alloc_now[c->pool_of[pod->node]] += pod_equiv(r, id);
}

/* Without the usage model a pod is busy on all its GPU-equivalents (b = 1). */
void sim_cost_pod_end(sim_run *r, uint32_t id, sim_time t) {
    sim_cost *c = r->cost;
    const sim_pod *pod = &r->pods.data[id];
    if (r->usage || pod->node < 0 || pod->start < 0 || c->pool_of[pod->node] < 0) return;
    double eq = pod_equiv(r, id);
    c->alloc_now[c->pool_of[pod->node]] -= eq;
    double ms = eq * (double)(t - pod->start);
    sim_cost_book(r, id, ms, ms);
}

void sim_cost_sample(sim_run *r, sim_time t) {
    sim_cost *c = r->cost;
    if (!c->power) return;
    double *busy_pool = c->alloc_now;
    double stack[16], *own = NULL;
    if (r->usage) {   /* the usage model's busy GPU-equivalents, per node and then per pool */
        own = c->npools <= 16 ? stack : xmalloc(c->npools * sizeof *own);
        memset(own, 0, c->npools * sizeof *own);
        memset(c->busy, 0, c->nnodes * sizeof *c->busy);
        sim_usage_node_busy(r, t, c->busy);
        for (size_t n = 0; n < c->nnodes; n++)
            if (c->pool_of[n] >= 0) own[c->pool_of[n]] += c->busy[n];
        busy_pool = own;
    }
    double w = 0;
    for (size_t p = 0; p < c->npools; p++) {
        double b = busy_pool[p] > 0 ? busy_pool[p] : 0;
        w += (double)c->billed[p] * (c->gbase[p] + c->gpn[p] * c->gidle[p]) + b * (c->gmax[p] - c->gidle[p]);
    }
    if (own && own != stack) free(own);
    sim_power_sample s = {t, w * c->cl->power->pue};
    if (c->ps.len && c->ps.data[c->ps.len - 1].t == t) c->ps.data[c->ps.len - 1] = s;
    else VEC_PUSH(c->ps, s);
}

static void add(sim_run *r, const char *group, const char *name, double v) {
    sim_metric m = {intern(name), v, group};
    VEC_PUSH(r->summary, m);
}

/* The ClusterQueue of class k: its LocalQueue (label kueue.x-k8s.io/queue-name
 * in its namespace, as Kueue resolves it: kq_gate.c) and that queue's
 * clusterQueue; NULL when the class is not queued or the queue is missing. */
static const char *class_cq(const sim_run *r, uint32_t k) {
    const pod_group_spec *ps = sim_class_spec(r, k);
    const char *label = intern(KQ_QUEUE_LABEL), *q = NULL;
    for (size_t i = 0; ps && i < ps->nlabels; i++)
        if (ps->labels[i].key == label) q = ps->labels[i].value;
    const kq_local_queue *lq = q ? kq_find_lq(r->sc->queues, ps->namespace_ ? ps->namespace_ : intern("default"), q)
                                 : NULL;
    return lq ? lq->cluster_queue : NULL;
}

/* The KAI Queue of class k: its label kai.scheduler/queue names it directly
 * (KAI's pod-grouper, CalcPodGroupQueue; queue/kai_gate.c resolves it the
 * same way); -1 when the class has no label or the Queue is missing. */
static int class_kai_queue(const sim_run *r, uint32_t k) {
    const pod_group_spec *ps = sim_class_spec(r, k);
    const kai_objects *o = r->sc->kai_queues;
    for (size_t i = 0; ps && i < ps->nlabels; i++)
        if (!strcmp(ps->labels[i].key, KAI_QUEUE_LABEL))
            for (size_t q = 0; q < o->queues.len; q++)
                if (!strcmp(o->queues.data[q]->meta.name, ps->labels[i].value)) return (int)q;
    return -1;
}

/* The KAI Queue's parent (spec.parentQueue), -1 for a top Queue. */
static int kai_parent(const kai_objects *o, int q) {
    const char *p = o->queues.data[q]->parent;
    for (size_t i = 0; p && i < o->queues.len; i++)
        if (!strcmp(o->queues.data[i]->meta.name, p)) return (int)i;
    return -1;
}

/* Per-queue chargeback (docs/COST.md "Per queue"): each Kueue ClusterQueue,
 * or each KAI Queue, is charged the GPU-time of its classes at the pools'
 * rates, as a group is (queue_cost, queue_cost_per_useful_gpu_hour,
 * queue_energy_kwh; grp = the queue, as the other queue_ metrics); idle
 * capacity spread by the same rule. A KAI parent Queue (a department) is
 * charged what its leaf Queues are, summed over its subtree (the parent
 * chain is acyclic: model/kai_decode's kai_objects_check). */
static void queue_chargeback(sim_run *r, const sim_cost *c, const double *rate, double idle, double all,
                             double pue) {
    const kq_objects *o = r->sc->queues;
    const kai_objects *ko = o ? NULL : r->sc->kai_queues;
    size_t nq = o ? o->cqs.len : ko->queues.len, np = c->npools;
    double *qc = xcalloc(nq + 1, sizeof *qc), *qu = xcalloc(nq + 1, sizeof *qu), *qk = xcalloc(nq + 1, sizeof *qk);
    for (uint32_t k = 0; k < c->ncls && k < r->sched.nclasses; k++) {
        int q = -1;
        if (o) {
            const char *cq = class_cq(r, k);
            for (size_t i = 0; cq && i < nq && q < 0; i++)
                if (!strcmp(o->cqs.data[i]->meta.name, cq)) q = (int)i;
        } else {
            q = class_kai_queue(r, k);
        }
        for (; q >= 0; q = o ? -1 : kai_parent(ko, q))   /* Kueue: the ClusterQueue; KAI: the Queue and its parents */
            for (size_t p = 0; p < np; p++) {
                double a = c->ca[k * np + p], u = c->cu[k * np + p];
                qc[q] += a / MS_PER_H * rate[p];
                qu[q] += u / MS_PER_H;
                qk[q] += pue * (a * c->gidle[p] + u * (c->gmax[p] - c->gidle[p])) / 3.6e9;
            }
    }
    /* spread: idle x the queue's share of every group's charge (cost_allocated), so that a
     * queue's cost is the sum of its classes' costs as the groups get them */
    bool spread = c->cl->charge_idle == CHARGE_IDLE_SPREAD && all > 0;
    for (size_t q = 0; q < nq; q++) {
        const char *name = o ? o->cqs.data[q]->meta.name : ko->queues.data[q]->meta.name;
        if (c->priced) {
            double mine = qc[q] + (spread ? idle * qc[q] / all : 0);
            add(r, name, "queue_cost", mine);
            add(r, name, "queue_cost_per_useful_gpu_hour", qu[q] > 0 ? mine / qu[q] : NAN);
        }
        if (c->power) add(r, name, "queue_energy_kwh", qk[q]);
    }
    free(qc);
    free(qu);
    free(qk);
}

void sim_cost_summary(sim_run *r) {
    sim_cost *c = r->cost;
    if (!c) return;
    sim_time T = r->end_time;
    if (!r->usage)   /* pods still running: their GPU-time up to the end of the run */
        for (size_t i = 0; i < r->pods.len; i++)
            if (r->pods.data[i].state == POD_RUNNING && r->pods.data[i].start >= 0) {
                double ms = pod_equiv(r, (uint32_t)i) * (double)(T - r->pods.data[i].start);
                sim_cost_book(r, (uint32_t)i, ms, ms);
            }
    grow(c, r, r->sched.nclasses ? r->sched.nclasses - 1 : 0);
    size_t np = c->npools;
    double Th = (double)T / MS_PER_H, pue = c->power ? c->cl->power->pue : 1;
    for (size_t n = 0; n < c->nnodes; n++)
        if (c->present[n]) {
            c->present_ms[n] += (double)(T - c->since[n]);
            c->since[n] = T;
        }
    double *rate = xcalloc(np ? np : 1, sizeof *rate), *base_wms = xcalloc(np ? np : 1, sizeof *base_wms);
    for (size_t n = 0; n < c->nnodes; n++)
        if (c->pool_of[n] >= 0) {
            size_t p = (size_t)c->pool_of[n];
            base_wms[p] += c->present_ms[n] * (c->gbase[p] + c->gpn[p] * c->gidle[p]);
        }
    double cost_res = 0, cost_od = 0, alloc_ms = 0, used_ms = 0, energy = 0;
    for (size_t p = 0; p < np; p++) {
        const node_pool_spec *ps = &c->cl->pools[p];
        integrate(c, p, T);
        sim_cost_pool *o = &c->res[p];
        o->name = ps->name;
        o->node_hours = c->node_ms[p] / MS_PER_H;
        o->reserved_nodes = reserved_of(c, p);
        o->cost_reserved = ps->price ? o->reserved_nodes * ps->price->reserved_price * Th : 0;
        o->cost_on_demand = c->over_ms[p] / MS_PER_H * cost_on_demand(ps);
        for (size_t k = 0; k < c->ncls; k++) {
            o->gpu_hours_allocated += c->ca[k * np + p] / MS_PER_H;
            o->gpu_hours_used += c->cu[k * np + p] / MS_PER_H;
        }
        double gpu_h = o->node_hours * c->gpn[p];
        rate[p] = gpu_h > 0 ? (o->cost_reserved + o->cost_on_demand) / gpu_h : 0;
        o->energy_kwh = pue * (base_wms[p] + o->gpu_hours_used * MS_PER_H * (c->gmax[p] - c->gidle[p])) / 3.6e9;
        cost_res += o->cost_reserved;
        cost_od += o->cost_on_demand;
        alloc_ms += o->gpu_hours_allocated * MS_PER_H;
        used_ms += o->gpu_hours_used * MS_PER_H;
        energy += o->energy_kwh;
    }
    /* per group: its classes' GPU-time at its pools' rates (chargeback) and energy */
    size_t ng = r->groups.len;
    double *charge = xcalloc(ng ? ng : 1, sizeof *charge), *gused = xcalloc(ng ? ng : 1, sizeof *gused),
           *gkwh = xcalloc(ng ? ng : 1, sizeof *gkwh), charged = 0;
    for (size_t g = 0; g < ng; g++) {
        for (size_t k = 0; k < c->ncls && k < r->sched.nclasses; k++) {
            if (strcmp(r->sched.classes[k].name, r->groups.data[g].name)) continue;
            for (size_t p = 0; p < np; p++) {
                double a = c->ca[k * np + p], u = c->cu[k * np + p];
                charge[g] += a / MS_PER_H * rate[p];
                gused[g] += u / MS_PER_H;
                gkwh[g] += pue * (a * c->gidle[p] + u * (c->gmax[p] - c->gidle[p])) / 3.6e9;
            }
        }
        charged += charge[g];
    }
    double total = cost_res + cost_od, idle = total - charged;
    if (idle < 0) idle = 0;   /* rounding */
    if (c->priced) {
        add(r, NULL, "cost_total", total);
        add(r, NULL, "cost_reserved", cost_res);
        add(r, NULL, "cost_on_demand", cost_od);
        add(r, NULL, "cost_allocated", charged);
        add(r, NULL, "cost_idle", idle);
        add(r, NULL, "cost_per_gpu_hour_allocated", alloc_ms > 0 ? total / (alloc_ms / MS_PER_H) : NAN);
        add(r, NULL, "cost_per_useful_gpu_hour", used_ms > 0 ? total / (used_ms / MS_PER_H) : NAN);
        bool spread = c->cl->charge_idle == CHARGE_IDLE_SPREAD && charged > 0;
        for (size_t g = 0; g < ng; g++) {
            double mine = charge[g] + (spread ? idle * charge[g] / charged : 0);
            add(r, r->groups.data[g].name, "cost", mine);
            add(r, r->groups.data[g].name, "cost_per_useful_gpu_hour", gused[g] > 0 ? mine / gused[g] : NAN);
        }
    }
    if (c->power) {
        double peak = 0, over_ms = 0, env = c->cl->power->envelope_w;
        for (size_t i = 0; i < c->ps.len; i++) {
            if (c->ps.data[i].watts > peak) peak = c->ps.data[i].watts;
            sim_time to = i + 1 < c->ps.len ? c->ps.data[i + 1].t : T;
            if (env > 0 && c->ps.data[i].watts > env && to > c->ps.data[i].t) over_ms += (double)(to - c->ps.data[i].t);
        }
        add(r, NULL, "energy_kwh", energy);
        add(r, NULL, "power_mean_kw", Th > 0 ? energy / Th : NAN);
        add(r, NULL, "power_peak_kw", peak / 1000);
        if (env > 0) {
            add(r, NULL, "power_envelope_kw", env / 1000);
            add(r, NULL, "power_peak_envelope_pct", 100 * peak / env);
            add(r, NULL, "power_over_envelope_s", over_ms / 1000);
        }
        for (size_t g = 0; g < ng; g++) add(r, r->groups.data[g].name, "energy_kwh", gkwh[g]);
    }
    if (r->sc->queues || r->sc->kai_queues) queue_chargeback(r, c, rate, idle, charged, pue);
    free(rate);
    free(base_wms);
    free(charge);
    free(gused);
    free(gkwh);
}

size_t sim_cost_pools(const sim_cost *c, const sim_cost_pool **out) {
    *out = c ? c->res : NULL;
    return c ? c->npools : 0;
}

size_t sim_cost_power_samples(const sim_cost *c, const sim_power_sample **out) {
    *out = c ? c->ps.data : NULL;
    return c ? c->ps.len : 0;
}
