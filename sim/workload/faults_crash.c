/*
 * faults_crash.c -- a fatal XID kills the CUDA process of every pod on that
 * GPU (issue 26, docs/DYNAMICS.md "Pods on a failed GPU"); what follows is
 * the pod's restartPolicy, as kubelet and the Job controller do it:
 *
 *  - Always / OnFailure: kubelet restarts the container in place, on the
 *    same devices (the device plugin's Allocate is per container start of a
 *    bound pod; it never moves a pod): while the GPU stays failed every start
 *    fails at once and kubelet backs off (engine/sim_crash.h: 10 s doubling
 *    to 5 min), until the GPU is repaired (the next start runs, from the
 *    last checkpoint) or the pod is deleted (a drain, a node failure).
 *  - Never: the pod fails and frees its devices; its owner (a Job) creates
 *    a replacement, which the device plugin's reduced allocatable keeps off
 *    the failed GPU (NVIDIA k8s-device-plugin v0.20.0 internal/rm/health.go:
 *    an XidCriticalError marks the device Unhealthy; ListAndWatch reports
 *    it and kubelet drops it from allocatable); a bare pod is just failed.
 *
 * This is the kubelet model of device-plugin mode. In DRA mode the pods'
 * fate stays the one of docs/DYNAMICS.md (they hold their devices until the
 * administrator's NoExecute rule evicts them), and so with usage profiles,
 * whose completions follow their own model: there the crash is measured only
 * (the work since the last checkpoint at the XID, the GPU-time held until
 * the pod ends or the GPU is repaired).
 */
#include "engine/sim_crash.h"
#include "workload/faults_internal.h"

/* Whether the kubelet model runs (else the crash is only measured). */
static bool kubelet_model(const faults *f) { return !f->r->dra && !f->r->usage; }

/* Whether every GPU pod `pod` holds is healthy on a node that is up. */
static bool pod_gpus_ok(const faults *f, uint32_t pod) {
    const sim_pod *p = &f->r->pods.data[pod];
    size_t node = (size_t)p->node;
    if (f->node_state[node] & NODE_DOWN) return false;   /* no kubelet to start it */
    uint32_t first = f->gpu_first[node], n = f->gpu_first[node + 1] - first;
    for (uint32_t g = 0; g < n && g < 32; g++)
        if (((p->gpus >> g) & 1) && f->gpu_state[first + g] == GPU_FAILED) return false;
    return true;
}

/* Kubelet starts pod's container at t: it runs if its GPUs are healthy; else
 * it fails at once and the next start is timed by the back-off. */
static void start(faults *f, uint32_t pod, sim_time t) {
    for (;;) {
        bool ok = pod_gpus_ok(f, pod);
        sim_crash_start(f->r, pod, ok, t);
        if (ok) return;
        sim_time at = sim_crash_restart_at(f->r, pod, t);
        if (at > t) {
            sim_schedule_background(f->r, f->src, at, FAULT_ARG(FEV_K_RESTART, pod));
            return;
        }
    }
}

void faults_crash_restart(faults *f, uint32_t pod, sim_time t) {
    if (pod >= f->r->pods.len || f->r->pods.data[pod].state != POD_RUNNING || !sim_crash_down(f->r, pod)) return;
    start(f, pod, t);
}

void faults_crash_gpu(faults *f, size_t node, int gpu, sim_time t) {
    sim_run *r = f->r;
    bool model = kubelet_model(f);
    u32list *on = &f->on_node[node];
    for (size_t i = 0; i < on->len; i++) {
        uint32_t pod = on->data[i];
        const sim_pod *p = &r->pods.data[pod];
        if (p->state != POD_RUNNING || p->node != (int32_t)node || !((p->gpus >> gpu) & 1)) continue;
        const pod_group_spec *g = sim_class_spec(r, p->group);
        if (!model) {
            sim_crash_kill(r, pod, false, t);
        } else if (pod_restart_policy(g) == RESTART_NEVER) {
            sim_crash_fail(r, pod, t);   /* may add a pod: `on` and `p` stay valid (on_node is not touched) */
        } else if (sim_crash_kill(r, pod, g->owner != POD_OWNER_SERVICE, t)) {
            sim_time at = sim_crash_restart_at(r, pod, t);   /* the container exited now */
            if (at > t) sim_schedule_background(r, f->src, at, FAULT_ARG(FEV_K_RESTART, pod));
            else start(f, pod, t);
        }
    }
}

void faults_crash_repaired(faults *f, size_t node, int gpu, sim_time t) {
    if (kubelet_model(f) || !f->r->crash) return;   /* the kubelet model: the next start finds it healthy */
    const u32list *on = &f->on_node[node];
    for (size_t i = 0; i < on->len; i++) {
        uint32_t pod = on->data[i];
        const sim_pod *p = &f->r->pods.data[pod];
        if (p->state == POD_RUNNING && p->node == (int32_t)node && ((p->gpus >> gpu) & 1) && pod_gpus_ok(f, pod))
            sim_crash_close(f->r, pod, t);
    }
}
