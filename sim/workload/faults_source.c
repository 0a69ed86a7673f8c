/*
 * faults_source.c -- when faults happen (faults.h): the scenario's failure
 * processes (Poisson: each target fails at its rate, so a process over N
 * targets fires at N x rate and picks a target uniformly; a pick that is
 * already failed is a no-op), repairs drawn from their distribution,
 * maintenance windows, DeviceTaintRules and the events file. Every event is
 * a background event (sim_schedule_background) and every draw comes from
 * the faults' own streams, so the workload's pods are those of the same
 * scenario without faults.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_evict.h"
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

static sim_time next_gap(fproc *p) {
    double rate = p->rate_ms * (double)p->n;
    double gap = rng_exponential(&p->rng, 1.0 / rate);
    if (!(gap < 9.0e15)) return SIM_TIME_NEVER;
    return gap < 1 ? 1 : (sim_time)llround(gap);
}

static void schedule_proc(faults *f, fproc *p, int kind, size_t k, sim_time t) {
    if (!p->n || !(p->rate_ms > 0)) return;
    sim_time gap = next_gap(p);
    if (gap == SIM_TIME_NEVER || t > INT64_MAX / 2 - gap) return;
    sim_schedule_background(f->r, f->src, t + gap, FAULT_ARG(kind, k));
}

static int fail_at(sim_run *r, const char *file, int line, int col, const char *fmt, const char *a) {
    sb_clear(&r->error);
    sb_printf(&r->error, "%s:%d:%d: ", file, line, col);
    sb_printf(&r->error, fmt, a);
    return -1;
}

/* Build the processes and time everything the scenario lists. */
static int faults_start(sim_run *r, void *ctx) {
    faults *f = ctx;
    const fault_spec *fs = r->sc->faults;
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
        rng_fork(&f->rng, 0x6770750000ull + k, &p->rng);
        schedule_proc(f, p, FEV_K_GPU_PROC, k, 0);
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
        rng_fork(&f->rng, 0x6e6f64650000ull + k, &p->rng);
        schedule_proc(f, p, FEV_K_NODE_PROC, k, 0);
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

/* A GPU of process k fails now; its repair and the administrator's rule are timed. */
static int gpu_proc_fire(faults *f, size_t k, sim_time t) {
    const gpu_failure_spec *g = &f->r->sc->faults->gpu[k];
    fproc *p = &f->gproc[k];
    uint32_t x = p->targets[rng_below(&p->rng, p->n)];
    sim_time repair = g->has_repair ? workload_sample_duration(&g->repair, &p->rng) : SIM_TIME_NEVER;
    schedule_proc(f, p, FEV_K_GPU_PROC, k, t);
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
    fproc *p = &f->nproc[k];
    uint32_t node = p->targets[rng_below(&p->rng, p->n)];
    sim_time repair = ns->has_repair ? workload_sample_duration(&ns->repair, &p->rng) : SIM_TIME_NEVER;
    schedule_proc(f, p, FEV_K_NODE_PROC, k, t);
    if (f->node_state[node] & NODE_DOWN) return 0;
    faults_node_fail(f->r, node, t);
    if (repair != SIM_TIME_NEVER)
        faults_schedule_action(f, &(faction){.kind = FA_NODE_REPAIR, .node = node, .epoch = f->node_epoch[node]},
                               t + repair);
    return 0;
}

/* Maintenance: drain `nodes` nodes of the pool (drawn from the nodes up and
 * not cordoned), uncordon them after the window. */
static void maintenance(faults *f, size_t k, sim_time t) {
    const maintenance_spec *m = &f->r->sc->faults->maint[k];
    uint32_t *c = xmalloc((f->nnodes ? f->nnodes : 1) * sizeof *c);
    size_t n = 0;
    for (size_t i = 0; i < f->nnodes; i++)
        if (in_pool(f->r, i, m->pool) && !f->node_state[i]) c[n++] = (uint32_t)i;
    for (int64_t j = 0; j < m->nodes && n; j++) {
        size_t pick = (size_t)rng_below(&f->rng, n);
        uint32_t node = c[pick];
        c[pick] = c[--n];
        faults_node_drain(f->r, node, t);
        faults_schedule_action(f, &(faction){.kind = FA_UNCORDON, .node = node}, t + m->duration);
    }
    free(c);
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
    default: return 0;
    }
}

int faults_source_start(sim_run *r, void *ctx) { return faults_start(r, ctx); }

int faults_attach(sim_run *r) {
    if (!r->sc->faults) return 0;
    return faults_of(r) ? 0 : -1;
}
