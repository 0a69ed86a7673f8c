/*
 * sched_health.c -- device-plugin mode: a GPU that turns unhealthy, as the
 * NVIDIA device plugin reports it (k8s-device-plugin internal/rm/health.go
 * marks the device Unhealthy in ListAndWatch; the kubelet's device manager
 * then counts only healthy devices in the node's allocatable and never hands
 * an unhealthy one to a new container). Pods that hold it stay bound (their
 * processes died: workload/faults_crash.c)
 * (NVIDIA/k8s-device-plugin#519); when they end its units stay out.
 *
 * A GPU's units of resource r are drasim's numbering (sched.c view_node):
 * unit u is on GPU u / per_gpu.
 */
#include "sched/framework.h"
#include "sched/sched.h"

#include "util/xalloc.h"

bool sched_set_gpu_health(scheduler *s, size_t node, int gpu, bool healthy) {
    size_t R = s->nres;
    if (node >= s->nnodes || gpu < 0 || gpu >= s->gv.nodes[node].ngpu) return false;
    if (!s->units_off) {
        s->units_off = xcalloc(s->nnodes * R, sizeof *s->units_off);
        s->units_off_idle = xcalloc(s->nnodes * R, sizeof *s->units_off_idle);
    }
    bool changed = false;
    for (size_t r = RES_PODS + 1; r < R; r++) {
        size_t cell = node * R + r;
        int64_t per = s->per_gpu[cell];
        if (per <= 0 || per * s->gv.nodes[node].ngpu > 64) continue;   /* not a GPU resource with tracked units */
        uint64_t mask = (per == 64 ? ~(uint64_t)0 : (((uint64_t)1 << per) - 1)) << (gpu * per);
        bool off = (s->units_off[cell] & mask) != 0;
        if (off == !healthy) continue;
        changed = true;
        if (!healthy) {
            s->alloc[cell] -= per;
            s->units_off[cell] |= mask;
            s->units_off_idle[cell] |= s->units_free[cell] & mask;
            s->units_free[cell] &= ~mask;
        } else {
            s->alloc[cell] += per;
            s->units_off[cell] &= ~mask;
            s->units_free[cell] |= s->units_off_idle[cell] & mask;
            s->units_off_idle[cell] &= ~mask;
        }
    }
    if (changed) sched_node_changed(s, node);
    return changed;
}

void sched_node_static_changed(scheduler *s, size_t node) {
    for (size_t ci = 0; ci < s->nclasses; ci++) {
        pod_class *c = &s->classes[ci];
        if (!c->eligible) continue;   /* before sched_prepare */
        bool ok = c->prefiltered;
        for (size_t p = 0; p < s->nplugins && ok; p++)
            if (s->plugins[p]->filter_static) ok = s->plugins[p]->filter_static(s, c, node, NULL);
        if (ok) c->eligible[node >> 6] |= (uint64_t)1 << (node & 63);
        else c->eligible[node >> 6] &= ~((uint64_t)1 << (node & 63));
    }
    sched_node_changed(s, node);
}
