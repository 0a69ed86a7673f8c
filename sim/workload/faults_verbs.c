/*
 * faults_verbs.c -- the faults themselves (faults.h): a GPU fails or is
 * repaired, a node fails, is repaired, drained or uncordoned, a
 * DeviceTaintRule comes or goes. Each changes the scheduler's view (device
 * taints through the allocator, allocatable in device-plugin mode, the node
 * copy's taints and cordon), recounts the GPUs' health, notes the timeline
 * and times the evictions that follow (faults_evict.c).
 */
#include <stdio.h>
#include <string.h>

#include "engine/sim_evict.h"
#include "sched/dra/dra.h"
#include "util/intern.h"
#include "util/xalloc.h"
#include "workload/faults_internal.h"

/* ---- device taints ------------------------------------------------------------------- */

static ftlist *dev_list(faults *f, fdev *d) {
    if (!d->tl) {
        ftlist empty = {0};
        VEC_PUSH(f->tl, empty);
        d->tl = (uint32_t)f->tl.len;
    }
    return &f->tl.data[d->tl - 1];
}

/* Hand device d's taints to the allocator: its slice's own, then ours in order. */
static void dev_publish(faults *f, fdev *d) {
    ftlist *l = dev_list(f, d);
    const k8s_device *kd = allocator_find_device(f->r->dra->A, d->driver, d->pool, d->name);
    l->arr.len = 0;
    for (size_t i = 0; kd && i < kd->ntaints; i++) VEC_PUSH(l->arr, kd->taints[i]);
    for (size_t i = 0; i < l->e.len; i++) VEC_PUSH(l->arr, l->e.data[i].taint);
    allocator_set_device_taints(f->r->dra->A, d->driver, d->pool, d->name, l->arr.data, l->arr.len);
}

/* Add a taint from `origin` (NULL: the driver, whose newest taint of a key
 * replaces the older one: dra-driver-nvidia-gpu device_health.go). */
static void dev_taint(faults *f, size_t node, fdev *d, const k8s_taint *t, const char *origin, sim_time now) {
    ftlist *l = dev_list(f, d);
    size_t i = 0;
    if (!origin)
        for (; i < l->e.len; i++)
            if (!l->e.data[i].origin && l->e.data[i].taint.key == t->key) break;
    if (!origin && i < l->e.len) {
        if (l->e.data[i].taint.effect == TAINT_NO_EXECUTE) f->node_noexec[node]--;
        l->e.data[i] = (ftaint){*t, now, origin};
    } else {
        ftaint e = {*t, now, origin};
        VEC_PUSH(l->e, e);
    }
    if (t->effect == TAINT_NO_EXECUTE) f->node_noexec[node]++;
    dev_publish(f, d);
}

/* Remove the taints of `origin` (NULL: the driver's; `all_origins`: the
 * driver's and the GPU-fault administrator's). True when any went. */
static bool dev_untaint(faults *f, size_t node, fdev *d, const char *origin, bool all_origins) {
    if (!d->tl) return false;
    ftlist *l = &f->tl.data[d->tl - 1];
    size_t k = 0;
    for (size_t i = 0; i < l->e.len; i++) {
        const ftaint *e = &l->e.data[i];
        bool drop = all_origins ? (!e->origin || e->origin == f->o_admin) : e->origin == origin;
        if (drop && e->taint.effect == TAINT_NO_EXECUTE) f->node_noexec[node]--;
        if (!drop) l->e.data[k++] = *e;
    }
    if (k == l->e.len) return false;
    l->e.len = k;
    dev_publish(f, d);
    return true;
}

/* ---- GPUs ------------------------------------------------------------------------------- */

static int gpu_check(faults *f, size_t node, int gpu, strbuf *err) {
    if (node >= f->nnodes || gpu < 0 || (uint32_t)gpu >= f->gpu_first[node + 1] - f->gpu_first[node]) {
        sb_clear(err);
        if (node >= f->nnodes) sb_printf(err, "no node %zu", node);
        else sb_printf(err, "node %s has no GPU %d (it has %u)", f->r->nodes[node].meta.name, gpu,
                       f->gpu_first[node + 1] - f->gpu_first[node]);
        return -1;
    }
    return 0;
}

/* The driver's health taint for a fault (spec/dynamics.md §1.5). */
static k8s_taint health_taint(faults *f, gpu_fault_kind kind, int xid) {
    char v[16];
    snprintf(v, sizeof v, "%d", xid);
    if (kind == GPU_FAULT_GPU_LOST) return (k8s_taint){.key = f->k_lost, .value = intern(""), .effect = TAINT_NO_SCHEDULE};
    return (k8s_taint){.key = f->k_xid, .value = intern(v),
                       .effect = kind == GPU_FAULT_FATAL_XID ? TAINT_NO_SCHEDULE : TAINT_NONE};
}

int faults_gpu_fail(sim_run *r, size_t node, int gpu, gpu_fault_kind kind, int xid, sim_time t, strbuf *err) {
    faults *f = faults_of(r);
    if (!f || gpu_check(f, node, gpu, err)) return -1;
    uint32_t k = f->gpu_first[node] + (uint32_t)gpu;
    bool fatal = kind != GPU_FAULT_NONFATAL_XID;
    if (f->gpu_state[k] == GPU_FAILED && !fatal) return 0;   /* a failed GPU stays failed */
    f->gpu_state[k] = fatal ? GPU_FAILED : GPU_DEGRADED;
    f->gpu_epoch[k]++;
    f->gpu_failures++;
    if (r->dra) {
        k8s_taint ht = health_taint(f, kind, xid);
        for (uint32_t i = f->dev_first[node]; i < f->dev_first[node + 1]; i++)
            if (f->dev[i].gpu == gpu) dev_taint(f, node, &f->dev[i], &ht, NULL, t);
        sched_node_changed(&r->sched, node);
    } else if (fatal) {
        sched_set_gpu_health(&r->sched, node, gpu, false);   /* the device plugin skips the non-fatal XIDs */
    }
    if (fatal) faults_crash_gpu(f, node, gpu, t);   /* the CUDA processes on it die (faults_crash.c) */
    faults_recount_node(f, node, t);
    faults_note(f, t);
    return 0;
}

/* The administrator's answer to a GPU fault (gpuFailures[].evictAfter): a
 * NoExecute DeviceTaintRule on the GPU's devices, with the health taint's key. */
void faults_gpu_admin_evict(faults *f, size_t node, int gpu, sim_time t) {
    uint32_t k = f->gpu_first[node] + (uint32_t)gpu;
    if (f->gpu_state[k] == GPU_OK || !f->r->dra) return;
    bool any = false;
    for (uint32_t i = f->dev_first[node]; i < f->dev_first[node + 1]; i++) {
        fdev *d = &f->dev[i];
        if (d->gpu != gpu || !d->tl) continue;
        const ftlist *l = &f->tl.data[d->tl - 1];
        k8s_taint nt = {0};
        for (size_t j = 0; j < l->e.len; j++)
            if (!l->e.data[j].origin) nt = l->e.data[j].taint;
        if (!nt.key) continue;
        nt.effect = TAINT_NO_EXECUTE;
        dev_taint(f, node, d, &nt, f->o_admin, t);
        any = true;
    }
    if (!any) return;
    f->rules_added++;
    sched_node_changed(&f->r->sched, node);
    faults_check_node(f, node, true, t);
    faults_note(f, t);
}

int faults_gpu_repair(sim_run *r, size_t node, int gpu, sim_time t, strbuf *err) {
    faults *f = faults_of(r);
    if (!f || gpu_check(f, node, gpu, err)) return -1;
    uint32_t k = f->gpu_first[node] + (uint32_t)gpu;
    if (f->gpu_state[k] == GPU_OK) return 0;
    bool fatal = f->gpu_state[k] == GPU_FAILED;
    f->gpu_state[k] = GPU_OK;
    f->gpu_epoch[k]++;
    f->gpu_repairs++;
    if (r->dra) {
        for (uint32_t i = f->dev_first[node]; i < f->dev_first[node + 1]; i++)
            if (f->dev[i].gpu == gpu) dev_untaint(f, node, &f->dev[i], NULL, true);
        sched_node_changed(&r->sched, node);
    } else if (fatal) {
        sched_set_gpu_health(&r->sched, node, gpu, true);
    }
    if (fatal) faults_crash_repaired(f, node, gpu, t);
    faults_recount_node(f, node, t);
    faults_note(f, t);
    return 0;
}

/* ---- nodes -------------------------------------------------------------------------------- */

int faults_node_fail(sim_run *r, size_t node, sim_time t) {
    faults *f = faults_of(r);
    if (!f || node >= f->nnodes) return -1;
    if (f->node_state[node] & NODE_DOWN) return 0;
    /* the node lifecycle controller: Ready Unknown -> unreachable NoSchedule + NoExecute */
    const k8s_node *base = &r->nodes[node];
    k8s_taint *tt = ARENA_NEW(&f->a, k8s_taint, base->ntaints + 2);
    if (base->ntaints) memcpy(tt, base->taints, base->ntaints * sizeof *tt);
    tt[base->ntaints] = (k8s_taint){.key = f->k_unreachable, .effect = TAINT_NO_SCHEDULE};
    tt[base->ntaints + 1] = (k8s_taint){.key = f->k_unreachable, .effect = TAINT_NO_EXECUTE};
    f->nodes[node].taints = tt;
    f->nodes[node].ntaints = base->ntaints + 2;
    f->node_state[node] |= NODE_DOWN;
    f->node_down_since[node] = t;
    f->node_epoch[node]++;
    f->node_failures++;
    f->nodes_down++;
    sched_node_static_changed(&r->sched, node);
    faults_recount_node(f, node, t);
    faults_check_node(f, node, false, t);
    faults_note(f, t);
    return 0;
}

int faults_node_repair(sim_run *r, size_t node, sim_time t) {
    faults *f = faults_of(r);
    if (!f || node >= f->nnodes) return -1;
    if (!(f->node_state[node] & NODE_DOWN)) return 0;
    f->nodes[node].taints = r->nodes[node].taints;
    f->nodes[node].ntaints = r->nodes[node].ntaints;
    f->node_state[node] &= (uint8_t)~NODE_DOWN;
    f->node_epoch[node]++;
    f->node_repairs++;
    f->nodes_down--;
    sched_node_static_changed(&r->sched, node);
    faults_recount_node(f, node, t);
    faults_note(f, t);
    return 0;
}

int faults_node_drain(sim_run *r, size_t node, sim_time t) {
    faults *f = faults_of(r);
    if (!f || node >= f->nnodes) return -1;
    if (!(f->node_state[node] & NODE_CORDONED)) {
        f->node_state[node] |= NODE_CORDONED;
        f->nodes[node].unschedulable = true;   /* kubectl drain: cordon, then evict */
        f->drains++;
        sched_node_static_changed(&r->sched, node);
    }
    u32list *on = &f->on_node[node];
    for (size_t i = 0; i < on->len; i++) {
        uint32_t pod = on->data[i];
        if (r->pods.data[pod].state == POD_RUNNING && r->pods.data[pod].node == (int32_t)node)
            sim_evict(r, pod, EVICT_DRAIN, "EvictionByEvictionAPI", -1, t);
    }
    on->len = 0;
    faults_recount_node(f, node, t);
    faults_note(f, t);
    return 0;
}

int faults_node_uncordon(sim_run *r, size_t node, sim_time t) {
    faults *f = faults_of(r);
    if (!f || node >= f->nnodes) return -1;
    if (!(f->node_state[node] & NODE_CORDONED)) return 0;
    f->node_state[node] &= (uint8_t)~NODE_CORDONED;
    f->nodes[node].unschedulable = r->nodes[node].unschedulable;
    sched_node_static_changed(&r->sched, node);
    faults_recount_node(f, node, t);
    faults_note(f, t);
    return 0;
}

/* ---- DeviceTaintRules ------------------------------------------------------------------ */

static bool rule_matches(const frule *ru, const fdev *d) {
    return (!ru->driver || ru->driver == d->driver) && (!ru->pool || ru->pool == d->pool) &&
           (!ru->device || ru->device == d->name);
}

int faults_rule_add(sim_run *r, const char *name, const char *driver, const char *pool, const char *device,
                    const k8s_taint *taint, sim_time t, strbuf *err) {
    faults *f = faults_of(r);
    if (!f) return -1;
    if (!r->dra) {
        sb_clear(err);
        sb_printf(err, "DeviceTaintRule %s: device taints need scheduling.mode: dra", name);
        return -1;
    }
    name = intern(name);
    for (size_t i = 0; i < f->rules.len; i++)
        if (f->rules.data[i].active && f->rules.data[i].name == name) {
            sb_clear(err);
            sb_printf(err, "DeviceTaintRule %s exists already", name);
            return -1;
        }
    frule ru = {name, driver ? intern(driver) : NULL, pool ? intern(pool) : NULL, device ? intern(device) : NULL,
                *taint, true};
    ru.taint.key = intern(taint->key);
    ru.taint.value = intern(taint->value ? taint->value : "");
    VEC_PUSH(f->rules, ru);
    f->rules_added++;
    int matched = 0;
    for (size_t n = 0; n < f->nnodes; n++) {
        bool any = false;
        for (uint32_t i = f->dev_first[n]; i < f->dev_first[n + 1]; i++)
            if (rule_matches(&ru, &f->dev[i])) {
                dev_taint(f, n, &f->dev[i], &ru.taint, name, t);
                any = true;
                matched++;
            }
        if (!any) continue;
        sched_node_changed(&r->sched, n);
        faults_recount_node(f, n, t);
        if (ru.taint.effect == TAINT_NO_EXECUTE) faults_check_node(f, n, true, t);
    }
    faults_note(f, t);
    return matched;
}

int faults_rule_remove(sim_run *r, const char *name, sim_time t) {
    faults *f = faults_of(r);
    if (!f || !r->dra) return -1;
    name = intern(name);
    size_t k = 0;
    for (; k < f->rules.len; k++)
        if (f->rules.data[k].active && f->rules.data[k].name == name) break;
    if (k == f->rules.len) return -1;
    f->rules.data[k].active = false;
    for (size_t n = 0; n < f->nnodes; n++) {
        bool any = false;
        for (uint32_t i = f->dev_first[n]; i < f->dev_first[n + 1]; i++) any |= dev_untaint(f, n, &f->dev[i], name, false);
        if (!any) continue;
        sched_node_changed(&r->sched, n);
        faults_recount_node(f, n, t);
    }
    faults_note(f, t);
    return 0;
}
