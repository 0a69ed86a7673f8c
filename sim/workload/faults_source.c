/*
 * faults_source.c -- when faults happen (faults.h): the scenario's failure
 * processes (Poisson: each target fails at its rate, by a process of its
 * own; a failure of a target that is already failed is a no-op), repairs
 * drawn from their distribution,
 * maintenance windows, DeviceTaintRules and the events file. Every event is
 * a background event (sim_schedule_background) and every draw comes from
 * the faults' own streams, so the workload's pods are those of the same
 * scenario without faults.
 *
 * Common random numbers (docs/DYNAMICS.md): a target's failure times and
 * repair durations come from a stream of its own, derived from the seed and
 * its identity (node name, GPU index, process index: rng_identity), drawn in
 * a fixed order (first gap; at each failure its repair, then the next gap)
 * whatever happens to other targets. So adding nodes to a pool never changes
 * the faults of the nodes that were already there; maintenance drains the
 * nodes with the smallest identity keys, again independent of other nodes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_cost.h"
#include "engine/sim_evict.h"
#include "model/cost_spec.h"
#include "util/xalloc.h"
#include "workload/faults_internal.h"
#include "workload/workload.h"

/* Does node i belong to pool `pool` (the inventory's pool, else the name prefix "<pool>-")? */
static bool in_pool(const sim_run *r, size_t i, const char *pool) {
    if (!pool) return true;
    if (r->info && r->info[i].pool) return !strcmp(r->info[i].pool->name, pool);
    size_t n = strlen(pool);
    return !strncmp(r->nodes[i].meta.name, pool, n) && r->nodes[i].meta.name[n] == '-';
}

static bool has_model(const sim_run *r, size_t i, const char *model) {
    if (!model) return true;
    const gpu_model *g = r->info ? r->info[i].gpu : NULL;
    return g && ((g->key && !strcmp(g->key, model)) || (g->product_name && !strcmp(g->product_name, model)));
}

/* A target's next gap (ms, >= 1; NEVER beyond ~285,000 years). */
static sim_time next_gap(fproc *p, uint32_t j) {
    double gap = rng_exponential(&p->trng[j], 1.0 / p->rate_ms);
    if (!(gap < 9.0e15)) return SIM_TIME_NEVER;
    return gap < 1 ? 1 : (sim_time)llround(gap);
}

static bool due_before(const fdue *a, const fdue *b) {
    return a->t != b->t ? a->t < b->t : a->key != b->key ? a->key < b->key : a->j < b->j;
}

static void due_push(fproc *p, fdue d) {
    size_t i = p->ndue++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!due_before(&d, &p->due[up])) break;
        p->due[i] = p->due[up];
        i = up;
    }
    p->due[i] = d;
}

static fdue due_pop(fproc *p) {
    fdue top = p->due[0], last = p->due[--p->ndue];
    size_t i = 0, n = p->ndue;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && due_before(&p->due[c + 1], &p->due[c])) c++;
        if (!due_before(&p->due[c], &last)) break;
        p->due[i] = p->due[c];
        i = c;
    }
    if (n) p->due[i] = last;
    return top;
}

/* Target j's next failure after t (none when the gap overflows). */
static void due_next(fproc *p, uint32_t j, uint64_t key, sim_time t) {
    sim_time gap = next_gap(p, j);
    if (gap == SIM_TIME_NEVER || t > INT64_MAX / 2 - gap) return;
    due_push(p, (fdue){.t = t + gap, .key = key, .j = j});
}

/* The process's one engine event: its earliest target's failure. */
static void schedule_proc(faults *f, fproc *p, int kind, size_t k) {
    if (p->ndue) sim_schedule_background(f->r, f->src, p->due[0].t, FAULT_ARG(kind, k));
}

/* Every target's stream (seed, node name, GPU index or -1, process) and first failure. */
static void start_proc(faults *f, fproc *p, int kind, size_t k) {
    p->trng = xmalloc((p->n ? p->n : 1) * sizeof *p->trng);
    p->due = xmalloc((p->n ? p->n : 1) * sizeof *p->due);
    if (!(p->rate_ms > 0)) return;
    for (uint32_t j = 0; j < p->n; j++) {
        size_t node = p->targets[j];
        uint64_t gpu = UINT64_MAX;
        if (kind == FEV_K_GPU_PROC) {
            size_t lo = 0, hi = f->nnodes;   /* the node whose GPUs hold the target */
            while (hi - lo > 1) {
                size_t mid = lo + (hi - lo) / 2;
                if (f->gpu_first[mid] <= p->targets[j]) lo = mid;
                else hi = mid;
            }
            node = lo;
            gpu = p->targets[j] - f->gpu_first[node];
        }
        uint64_t proc = (uint64_t)k * 2 + (kind == FEV_K_NODE_PROC);
        rng_identity(&f->rng, f->r->nodes[node].meta.name, gpu, proc, &p->trng[j]);
        rng peek = p->trng[j];
        due_next(p, j, rng_next(&peek), 0);
    }
    schedule_proc(f, p, kind, k);
}

static int fail_at(sim_run *r, const char *file, int line, int col, const char *fmt, const char *a) {
    sb_clear(&r->error);
    sb_printf(&r->error, "%s:%d:%d: ", file, line, col);
    sb_printf(&r->error, fmt, a);
    return -1;
}

/* Spot pools with interruptions (issue 30, docs/COST.md): every node of the
 * pool is reclaimed by a Poisson process of its own, drawn from its own
 * stream (seed, node name, and a process id no fault process uses), so the
 * interruptions do not change any other draw. */
static void spot_start(faults *f) {
    const cluster_spec *cl = &f->r->sc->cluster;
    bool any = false;   /* none: no state, no metric (runs with faults but no spot are as before) */
    for (size_t k = 0; k < cl->npools; k++) any |= cl->pools[k].spot && cl->pools[k].spot->interrupts;
    if (!any) return;
    f->sproc = xcalloc(cl->npools, sizeof *f->sproc);
    f->nsproc = cl->npools;
    for (size_t k = 0; k < cl->npools; k++) {
        const pool_spot *sp = cl->pools[k].spot;
        fproc *p = &f->sproc[k];
        p->trng = xmalloc(sizeof *p->trng);
        p->due = xmalloc(sizeof *p->due);
        if (!sp || !sp->interrupts || !(sp->rate_per_node_ms > 0) || !f->r->info) continue;
        p->targets = xmalloc((f->nnodes ? f->nnodes : 1) * sizeof *p->targets);
        for (size_t i = 0; i < f->nnodes; i++)
            if (f->r->info[i].pool == &cl->pools[k]) p->targets[p->n++] = (uint32_t)i;
        p->rate_ms = sp->rate_per_node_ms;
        free(p->trng);
        free(p->due);
        p->trng = xmalloc((p->n ? p->n : 1) * sizeof *p->trng);
        p->due = xmalloc((p->n ? p->n : 1) * sizeof *p->due);
        for (uint32_t j = 0; j < p->n; j++) {
            rng_identity(&f->rng, f->r->nodes[p->targets[j]].meta.name, UINT64_MAX - 2, UINT64_C(0x53504f54) << 16 | k,
                         &p->trng[j]);
            rng peek = p->trng[j];
            due_next(p, j, rng_next(&peek), 0);
        }
        schedule_proc(f, p, FEV_K_SPOT_PROC, k);
    }
}

/* Build the processes and time everything the scenario lists. */
static int faults_start(sim_run *r, void *ctx) {
    faults *f = ctx;
    const fault_spec *fs = r->sc->faults;
    spot_start(f);
    if (!fs) return 0;
    f->gproc = xcalloc(fs->ngpu ? fs->ngpu : 1, sizeof *f->gproc);
    f->ngproc = fs->ngpu;
    for (size_t k = 0; k < fs->ngpu; k++) {
        const gpu_failure_spec *g = &fs->gpu[k];
        fproc *p = &f->gproc[k];
        p->targets = xmalloc((f->gpu_first[f->nnodes] ? f->gpu_first[f->nnodes] : 1) * sizeof *p->targets);
        for (size_t i = 0; i < f->nnodes; i++)
            if (in_pool(r, i, g->pool) && has_model(r, i, g->gpu_model))
                for (uint32_t x = f->gpu_first[i]; x < f->gpu_first[i + 1]; x++) p->targets[p->n++] = x;
        if (!p->n && (g->pool || g->gpu_model))
            return fail_at(r, g->where->file, g->where->line, g->where->col,
                           "faults.gpuFailures: no GPU of the cluster matches this process%s", "");
        p->rate_ms = g->rate_per_gpu_ms;
        start_proc(f, p, FEV_K_GPU_PROC, k);
    }
    f->nproc = xcalloc(fs->nnode ? fs->nnode : 1, sizeof *f->nproc);
    f->nnproc = fs->nnode;
    for (size_t k = 0; k < fs->nnode; k++) {
        const node_failure_spec *ns = &fs->node[k];
        fproc *p = &f->nproc[k];
        p->targets = xmalloc((f->nnodes ? f->nnodes : 1) * sizeof *p->targets);
        for (size_t i = 0; i < f->nnodes; i++)
            if (in_pool(r, i, ns->pool)) p->targets[p->n++] = (uint32_t)i;
        if (!p->n)
            return fail_at(r, ns->where->file, ns->where->line, ns->where->col,
                           "faults.nodeFailures: no node of the cluster is in pool '%s'", ns->pool ? ns->pool : "");
        p->rate_ms = ns->rate_per_node_ms;
        start_proc(f, p, FEV_K_NODE_PROC, k);
    }
    for (size_t k = 0; k < fs->nmaint; k++)
        faults_schedule_action(f, &(faction){.kind = FA_MAINTENANCE, .idx = (uint32_t)k}, fs->maint[k].at);
    for (size_t k = 0; k < fs->nrules; k++) {
        faults_schedule_action(f, &(faction){.kind = FA_RULE_ADD, .idx = (uint32_t)k}, fs->rules[k].at);
        if (fs->rules[k].until != SIM_TIME_NEVER)
            faults_schedule_action(f, &(faction){.kind = FA_RULE_REMOVE, .idx = (uint32_t)k}, fs->rules[k].until);
    }
    for (size_t k = 0; k < fs->nevents; k++) {   /* targets must exist: FILE:LINE:COL of the row */
        const fault_event_spec *e = &fs->events[k];
        int node = faults_node_index(r, e->node);
        if (node < 0) return fail_at(r, e->file, e->line, e->col, "target: no node named '%s' in the cluster", e->node);
        if (e->gpu >= 0 && (uint32_t)e->gpu >= f->gpu_first[node + 1] - f->gpu_first[node]) {
            sb_clear(&r->error);
            sb_printf(&r->error, "%s:%d:%d: target: node %s has %u GPUs, no GPU %d", e->file, e->line, e->col, e->node,
                      f->gpu_first[node + 1] - f->gpu_first[node], e->gpu);
            return -1;
        }
        faults_schedule_action(f, &(faction){.kind = FA_EVENT, .idx = (uint32_t)k, .node = (uint32_t)node}, e->t);
    }
    return 0;
}

/* Process p's failure due at t, if any: the target it hits and its repair
 * time (drawn from the target's own stream, SIM_TIME_NEVER without repairs),
 * after which the target's next failure is timed and the process is
 * scheduled again. false when nothing is due. */
static bool take_due(faults *f, fproc *p, int kind, size_t k, const duration_dist *rep, bool has_repair,
                     sim_time t, uint32_t *target, sim_time *repair) {
    if (!p->ndue || p->due[0].t > t) return false;
    fdue d = due_pop(p);
    *target = p->targets[d.j];
    *repair = has_repair ? workload_sample_duration(rep, &p->trng[d.j]) : SIM_TIME_NEVER;
    due_next(p, d.j, d.key, t);
    schedule_proc(f, p, kind, k);
    return true;
}

/* A GPU of process k fails now; its repair and the administrator's rule are timed. */
static int gpu_proc_fire(faults *f, size_t k, sim_time t) {
    const gpu_failure_spec *g = &f->r->sc->faults->gpu[k];
    uint32_t x;
    sim_time repair;
    if (!take_due(f, &f->gproc[k], FEV_K_GPU_PROC, k, &g->repair, g->has_repair, t, &x, &repair)) return 0;
    bool fatal = g->kind != GPU_FAULT_NONFATAL_XID;
    if (f->gpu_state[x] == GPU_FAILED || (!fatal && f->gpu_state[x] != GPU_OK)) return 0;
    size_t lo = 0, hi = f->nnodes;   /* the node whose GPUs [gpu_first[n], gpu_first[n + 1]) hold x */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->gpu_first[mid] <= x) lo = mid;
        else hi = mid;
    }
    size_t node = lo;
    int gpu = (int)(x - f->gpu_first[node]);
    if (faults_gpu_fail(f->r, node, gpu, g->kind, g->xid, t, &f->err)) return 0;
    faction a = {.node = (uint32_t)node, .gpu = (int16_t)gpu, .epoch = f->gpu_epoch[x]};
    if (g->evict && fatal) {
        a.kind = FA_GPU_ADMIN_EVICT;
        faults_schedule_action(f, &a, t + g->evict_after);
    }
    if (repair != SIM_TIME_NEVER) {
        a.kind = FA_GPU_REPAIR;
        faults_schedule_action(f, &a, t + repair);
    }
    return 0;
}

static int node_proc_fire(faults *f, size_t k, sim_time t) {
    const node_failure_spec *ns = &f->r->sc->faults->node[k];
    uint32_t node;
    sim_time repair;
    if (!take_due(f, &f->nproc[k], FEV_K_NODE_PROC, k, &ns->repair, ns->has_repair, t, &node, &repair)) return 0;
    if (f->node_state[node] & NODE_DOWN) return 0;
    faults_node_fail(f->r, node, t);
    if (repair != SIM_TIME_NEVER)
        faults_schedule_action(f, &(faction){.kind = FA_NODE_REPAIR, .node = node, .epoch = f->node_epoch[node]},
                               t + repair);
    return 0;
}

static bool take_due(faults *f, fproc *p, int kind, size_t k, const duration_dist *rep, bool has_repair,
                     sim_time t, uint32_t *target, sim_time *repair);

/* The cloud reclaims a spot node of pool k: its pods are drained now (the
 * node termination handler cordons and evicts them on the notice, as AWS's
 * aws-node-termination-handler does), the node goes at the notice's end and
 * its capacity comes back returnAfter later. */
static int spot_fire(faults *f, size_t k, sim_time t) {
    const pool_spot *sp = f->r->sc->cluster.pools[k].spot;
    uint32_t node;
    sim_time back;
    if (!take_due(f, &f->sproc[k], FEV_K_SPOT_PROC, k, &sp->return_after, true, t, &node, &back)) return 0;
    if (f->node_state[node] & (NODE_DOWN | NODE_CORDONED)) return 0;   /* reclaimed already, or drained */
    if (!sched_node_present(&f->r->sched, node)) return 0;   /* a node group's node not provisioned: no instance */
    f->spot_interruptions++;
    faults_node_drain(f->r, node, t);
    faults_schedule_action(f, &(faction){.kind = FA_SPOT_RECLAIM, .node = node}, t + sp->notice);
    /* a node group's node is replaced by its group at the notice's end, not given back (FA_SPOT_RECLAIM) */
    if (!(f->r->spot_replace && f->r->sc->cluster.pools[k].autoscaling))
        faults_schedule_action(f, &(faction){.kind = FA_SPOT_RETURN, .node = node}, t + sp->notice + back);
    return 0;
}

/* A node's key for maintenance k: drawn from its identity's stream. */
static uint64_t maint_key(faults *f, size_t k, size_t node) {
    rng r;
    rng_identity(&f->rng, f->r->nodes[node].meta.name, UINT64_MAX - 1, k, &r);
    return rng_next(&r);
}

/* Maintenance: drain `nodes` nodes of the pool (among the nodes up and not
 * cordoned, those of the smallest keys: a uniform draw that another node's
 * presence does not change), uncordon them after the window. */
static void maintenance(faults *f, size_t k, sim_time t) {
    const maintenance_spec *m = &f->r->sc->faults->maint[k];
    uint32_t *c = xmalloc((f->nnodes ? f->nnodes : 1) * sizeof *c);
    uint64_t *key = xmalloc((f->nnodes ? f->nnodes : 1) * sizeof *key);
    size_t n = 0;
    for (size_t i = 0; i < f->nnodes; i++)
        if (in_pool(f->r, i, m->pool) && !f->node_state[i]) {
            key[n] = maint_key(f, k, i);
            c[n++] = (uint32_t)i;
        }
    for (int64_t j = 0; j < m->nodes && n; j++) {
        size_t pick = 0;
        for (size_t i = 1; i < n; i++)
            if (key[i] < key[pick]) pick = i;
        uint32_t node = c[pick];
        c[pick] = c[--n];
        key[pick] = key[n];
        faults_node_drain(f->r, node, t);
        faults_schedule_action(f, &(faction){.kind = FA_UNCORDON, .node = node}, t + m->duration);
    }
    free(c);
    free(key);
}

static void explicit_event(faults *f, const faction *a, sim_time t) {
    const fault_event_spec *e = &f->r->sc->faults->events[a->idx];
    sim_run *r = f->r;
    switch (e->kind) {
    case FEV_GPU_FAIL: faults_gpu_fail(r, a->node, e->gpu, e->gpu_kind, e->gpu_kind == GPU_FAULT_NONFATAL_XID ? 13 : 79,
                                       t, &f->err); break;
    case FEV_GPU_REPAIR: faults_gpu_repair(r, a->node, e->gpu, t, &f->err); break;
    case FEV_NODE_FAIL: faults_node_fail(r, a->node, t); break;
    case FEV_NODE_REPAIR: faults_node_repair(r, a->node, t); break;
    case FEV_NODE_DRAIN: faults_node_drain(r, a->node, t); break;
    case FEV_NODE_UNCORDON: faults_node_uncordon(r, a->node, t); break;
    }
}

static int action(faults *f, size_t idx, sim_time t) {
    faction a = f->actions.data[idx];
    sim_run *r = f->r;
    switch ((faction_kind)a.kind) {
    case FA_GPU_REPAIR:
        if (f->gpu_epoch[f->gpu_first[a.node] + (uint32_t)a.gpu] == a.epoch) faults_gpu_repair(r, a.node, a.gpu, t, &f->err);
        break;
    case FA_GPU_ADMIN_EVICT:
        if (f->gpu_epoch[f->gpu_first[a.node] + (uint32_t)a.gpu] == a.epoch) faults_gpu_admin_evict(f, a.node, a.gpu, t);
        break;
    case FA_NODE_REPAIR:
        if (f->node_epoch[a.node] == a.epoch) faults_node_repair(r, a.node, t);
        break;
    case FA_UNCORDON: faults_node_uncordon(r, a.node, t); break;
    case FA_RULE_ADD: {
        const taint_rule_spec *ru = &r->sc->faults->rules[a.idx];
        if (faults_rule_add(r, ru->name, ru->driver, ru->pool, ru->device, &ru->taint, t, &f->err) < 0) {
            sb_clear(&r->error);
            sb_printf(&r->error, "%s:%d:%d: %s", ru->where->file, ru->where->line, ru->where->col, sb_str(&f->err));
            return -1;
        }
        break;
    }
    case FA_RULE_REMOVE: faults_rule_remove(r, r->sc->faults->rules[a.idx].name, t); break;
    case FA_EVENT: explicit_event(f, &a, t); break;
    case FA_MAINTENANCE: maintenance(f, a.idx, t); break;
    case FA_SPOT_RECLAIM:   /* gone: not billed, not powered (engine/sim_cost.c) */
        if (r->spot_replace && r->info && r->info[a.node].pool && r->info[a.node].pool->autoscaling) {
            /* a spot node group: the instance is gone and the group launches another (autoscale/ca_run.c) */
            faults_node_uncordon(r, a.node, t);
            r->spot_replace(r, a.node, t);
            break;
        }
        faults_node_fail(r, a.node, t);
        sim_cost_node_present(r, a.node, false, t);
        break;
    case FA_SPOT_RETURN:
        faults_node_repair(r, a.node, t);
        faults_node_uncordon(r, a.node, t);
        sim_cost_node_present(r, a.node, true, t);
        break;
    }
    return 0;
}

int faults_source_event(sim_run *r, void *ctx, uint64_t arg, sim_time t) {
    faults *f = ctx;
    (void)r;
    uint64_t payload = arg & (((uint64_t)1 << 48) - 1);
    switch ((int)(arg >> 48)) {
    case FEV_K_GPU_PROC: return gpu_proc_fire(f, (size_t)payload, t);
    case FEV_K_NODE_PROC: return node_proc_fire(f, (size_t)payload, t);
    case FEV_K_ACTION: return action(f, (size_t)payload, t);
    case FEV_K_EVICT_CHECK: faults_evict_check(f, (uint32_t)payload, t); return 0;
    case FEV_K_RESTART: faults_crash_restart(f, (uint32_t)payload, t); return 0;
    case FEV_K_SPOT_PROC: return spot_fire(f, (size_t)payload, t);
    default: return 0;
    }
}

int faults_source_start(sim_run *r, void *ctx) { return faults_start(r, ctx); }

int faults_attach(sim_run *r) {
    bool spot = false;   /* spot pools that interrupt need the fault machinery too (issue 30) */
    for (size_t k = 0; k < r->sc->cluster.npools; k++)
        spot |= r->sc->cluster.pools[k].spot && r->sc->cluster.pools[k].spot->interrupts;
    if (!r->sc->faults && !spot) return 0;
    return faults_of(r) ? 0 : -1;
}
