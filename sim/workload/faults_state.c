/*
 * faults_state.c -- what a fault does to the cluster (faults.h): device
 * taints (the driver's health taints, DeviceTaintRules), unhealthy GPUs in
 * device-plugin mode, NotReady and cordoned nodes; the GPUs' health
 * categories, the timeline and the run's fault metrics.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_evict.h"
#include "sched/dra/dra.h"
#include "util/intern.h"
#include "util/xalloc.h"
#include "workload/faults_internal.h"

/* ---- health categories and the timeline --------------------------------------------- */

/* The integral of the GPUs out of use, up to t. */
static void advance(faults *f, sim_time t) {
    if (t <= f->last_t) return;
    f->unavail_area += (double)f->unavail * (double)(t - f->last_t);
    f->last_t = t;
}

void faults_note(faults *f, sim_time t) {
    fault_point p = {t, f->count[CAT_HEALTHY], f->count[CAT_TAINTED], f->count[CAT_FAILED], f->nodes_down};
    if (f->timeline.len && f->timeline.data[f->timeline.len - 1].t == t) f->timeline.data[f->timeline.len - 1] = p;
    else VEC_PUSH(f->timeline, p);
}

/* Does any device of GPU g on node carry a taint? */
static bool gpu_has_taint(const faults *f, size_t node, int g) {
    if (!f->dev) return false;
    for (uint32_t i = f->dev_first[node]; i < f->dev_first[node + 1]; i++)
        if (f->dev[i].gpu == g && f->dev[i].tl && f->tl.data[f->dev[i].tl - 1].e.len) return true;
    return false;
}

void faults_recount_node(faults *f, size_t node, sim_time t) {
    advance(f, t);
    uint8_t ns = f->node_state[node];
    for (uint32_t k = f->gpu_first[node]; k < f->gpu_first[node + 1]; k++) {
        int g = (int)(k - f->gpu_first[node]);
        uint8_t old = f->gpu_cat[k] & 3, cat;
        if (f->gpu_state[k] == GPU_FAILED || (ns & NODE_DOWN)) cat = CAT_FAILED;
        else if (f->gpu_state[k] == GPU_DEGRADED || (ns & NODE_CORDONED) || gpu_has_taint(f, node, g)) cat = CAT_TAINTED;
        else cat = CAT_HEALTHY;
        /* out of use: failed, or on a cordoned node */
        bool was_out = f->gpu_cat[k] & 4, out = cat == CAT_FAILED || (ns & NODE_CORDONED);
        f->unavail += (int32_t)out - (int32_t)was_out;
        f->count[old]--;
        f->count[cat]++;
        f->gpu_cat[k] = (uint8_t)(cat | (out ? 4 : 0));
        if (g < 8) f->gpus_out[node] = (uint8_t)(out ? f->gpus_out[node] | 1u << g : f->gpus_out[node] & ~(1u << g));
    }
}

/* ---- setup ------------------------------------------------------------------------------ */

/* Node-local DRA devices of every node and their GPU in the view (dra_node_gpus). */
static void index_devices(faults *f) {
    const dra_state *d = f->r->dra;
    const inventory *inv = d->inv;
    f->dev_first = xcalloc(f->nnodes + 1, sizeof *f->dev_first);
    size_t total = 0;
    for (size_t i = 0; i < f->nnodes; i++)
        for (size_t s = 0; s < inv->info[i].nslices; s++) total += inv->slices[inv->info[i].first_slice + s].ndevices;
    f->dev = xcalloc(total ? total : 1, sizeof *f->dev);
    size_t k = 0;
    for (size_t i = 0; i < f->nnodes; i++) {
        f->dev_first[i] = (uint32_t)k;
        const dra_node_gpus *ng = &d->node_gpus[i];
        for (size_t s = 0; s < inv->info[i].nslices; s++) {
            const k8s_resource_slice *sl = &inv->slices[inv->info[i].first_slice + s];
            for (size_t j = 0; j < sl->ndevices; j++) {
                fdev *x = &f->dev[k++];
                x->driver = intern(sl->driver);
                x->pool = intern(sl->pool);
                x->name = intern(sl->devices[j].name);
                x->gpu = -1;
                for (uint32_t m = 0; m < ng->ndev; m++)
                    if (ng->dev[m].name == x->name && ng->dev[m].pool == x->pool) x->gpu = ng->dev[m].gpu;
            }
        }
    }
    f->dev_first[f->nnodes] = (uint32_t)k;
}

static void faults_summarize(sim_run *r, void *ctx);
static void faults_free(void *ctx);

faults *faults_of(sim_run *r) {
    if (r->faults) return r->faults;
    faults *f = xcalloc(1, sizeof *f);
    sim_source src = {.ctx = f, .start = faults_limited_start, .event = faults_limited_event, .summarize = faults_summarize,
                      .after_pass = faults_limited_after_pass, .free = faults_free};
    f->src = sim_add_source(r, &src);
    if (f->src < 0) {
        free(f);
        return NULL;
    }
    f->r = r;
    f->nnodes = r->nnodes;
    rng base;
    rng_seed(&base, r->sc->seed);
    rng_fork(&base, rng_name_tag("faults"), &f->rng);
    f->gpu_first = xcalloc(f->nnodes + 1, sizeof *f->gpu_first);
    for (size_t i = 0; i < f->nnodes; i++) f->gpu_first[i + 1] = f->gpu_first[i] + (uint32_t)r->sched.gv.nodes[i].ngpu;
    uint32_t ng = f->gpu_first[f->nnodes];
    f->gpu_state = xcalloc(ng ? ng : 1, 1);
    f->gpu_cat = xcalloc(ng ? ng : 1, 1);
    f->gpu_epoch = xcalloc(ng ? ng : 1, sizeof *f->gpu_epoch);
    f->count[CAT_HEALTHY] = (int32_t)ng;
    f->node_state = xcalloc(f->nnodes ? f->nnodes : 1, 1);
    f->gpus_out = xcalloc(f->nnodes ? f->nnodes : 1, 1);
    r->gpus_out = f->gpus_out;
    f->node_down_since = xcalloc(f->nnodes ? f->nnodes : 1, sizeof *f->node_down_since);
    f->node_epoch = xcalloc(f->nnodes ? f->nnodes : 1, sizeof *f->node_epoch);
    f->on_node = xcalloc(f->nnodes ? f->nnodes : 1, sizeof *f->on_node);
    f->node_noexec = xcalloc(f->nnodes ? f->nnodes : 1, sizeof *f->node_noexec);
    /* the scheduler reads the nodes from a copy whose taints and cordon the faults change */
    f->nodes = xmalloc((f->nnodes ? f->nnodes : 1) * sizeof *f->nodes);
    memcpy(f->nodes, r->nodes, f->nnodes * sizeof *f->nodes);
    r->sched.nodes = f->nodes;
    if (r->dra) {
        allocator_set_nodes(r->dra->A, f->nodes, f->nnodes);
        index_devices(f);
    }
    f->k_xid = intern("gpu.nvidia.com/xid");
    f->k_lost = intern("gpu.nvidia.com/gpu-lost");
    f->k_unreachable = intern("node.kubernetes.io/unreachable");
    f->k_unschedulable = intern("node.kubernetes.io/unschedulable");
    f->o_admin = intern("drasim-gpu-fault-evict");
    r->on_bind = faults_on_bind;
    r->on_bind_ctx = f;
    for (size_t i = 0; i < r->pods.len; i++)   /* created while the run goes (Lua): the pods bound so far */
        if (r->pods.data[i].state == POD_RUNNING) VEC_PUSH(f->on_node[r->pods.data[i].node], (uint32_t)i);
    r->faults = f;
    faults_note(f, 0);
    return f;
}

static void faults_summarize(sim_run *r, void *ctx) {
    faults *f = ctx;
    advance(f, r->end_time);
    sim_metric_add(r, "fault_gpu_failures", (double)f->gpu_failures);
    sim_metric_add(r, "fault_gpu_repairs", (double)f->gpu_repairs);
    sim_metric_add(r, "fault_node_failures", (double)f->node_failures);
    sim_metric_add(r, "fault_node_repairs", (double)f->node_repairs);
    sim_metric_add(r, "fault_node_drains", (double)f->drains);
    sim_metric_add(r, "fault_taint_rules", (double)f->rules_added);
    if (f->nsproc) sim_metric_add(r, "spot_interruptions", (double)f->spot_interruptions);
    sim_metric_add(r, "gpu_hours_unavailable", f->unavail_area / 3.6e6);
    double total = r->total_gpu_equiv, span = (double)r->end_time;
    sim_metric_add(r, "gpu_unavailable_pct", total > 0 && span > 0 ? 100.0 * f->unavail_area / (total * span) : 0);
}

static void faults_free(void *ctx) {
    faults *f = ctx;
    for (size_t i = 0; i < f->tl.len; i++) {
        VEC_FREE(f->tl.data[i].e);
        VEC_FREE(f->tl.data[i].arr);
    }
    VEC_FREE(f->tl);
    VEC_FREE(f->rules);
    for (size_t i = 0; i < f->nnodes; i++) VEC_FREE(f->on_node[i]);
    free(f->on_node);
    free(f->node_noexec);
    for (size_t i = 0; i < f->ngproc; i++) free(f->gproc[i].targets), free(f->gproc[i].trng), free(f->gproc[i].due);
    for (size_t i = 0; i < f->nnproc; i++) free(f->nproc[i].targets), free(f->nproc[i].trng), free(f->nproc[i].due);
    for (size_t i = 0; i < f->nsproc; i++) free(f->sproc[i].targets), free(f->sproc[i].trng), free(f->sproc[i].due);
    free(f->gproc);
    free(f->nproc);
    free(f->sproc);
    VEC_FREE(f->actions);
    VEC_FREE(f->timeline);
    sb_free(&f->err);
    arena_free(&f->a);
    free(f->gpu_first);
    free(f->gpu_state);
    free(f->gpu_cat);
    free(f->gpu_epoch);
    free(f->dev);
    free(f->dev_first);
    free(f->nodes);
    free(f->node_state);
    if (f->r->gpus_out == f->gpus_out) f->r->gpus_out = NULL;
    free(f->gpus_out);
    free(f->node_down_since);
    free(f->node_epoch);
    free(f);
}

const fault_point *faults_timeline(const sim_run *r, size_t *n) {
    *n = r->faults ? r->faults->timeline.len : 0;
    return *n ? r->faults->timeline.data : NULL;
}

int faults_node_index(const sim_run *r, const char *name) {
    for (size_t i = 0; i < r->nnodes; i++)
        if (!strcmp(r->nodes[i].meta.name, name)) return (int)i;
    return -1;
}

sim_time faults_schedule_action(faults *f, const faction *a, sim_time t) {
    VEC_PUSH(f->actions, *a);
    sim_schedule_background(f->r, f->src, t, FAULT_ARG(FEV_K_ACTION, f->actions.len - 1));
    return t;
}
