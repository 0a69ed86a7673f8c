/*
 * faults_evict.c -- when the pods on a tainted device or a failed node go.
 *
 * Device taints (kubernetes pkg/controller/devicetainteviction/
 * device_taint_eviction.go, KEP-5055 "Design Details"): a pod's eviction
 * time is the earliest, over its claims' allocated devices and their
 * NoExecute taints, of timeAdded when the taint is not tolerated by the
 * tolerations copied into the allocation result, timeAdded + the smallest
 * tolerationSeconds of the matching tolerations (<= 0: at once), or never
 * when no matching toleration gives seconds (getMinTolerationTime). Only
 * pods bound to a node count. The controller DELETEs the pod (no disruption
 * budget) with reason DeletionByDeviceTaintManager.
 *
 * Node taints (pkg/controller/tainteviction): the same rule over the pod's
 * tolerations, plus the DefaultTolerationSeconds admission plugin's
 * node.kubernetes.io/unreachable:NoExecute for 300 s unless the pod
 * tolerates that key already (plugin/pkg/admission/defaulttolerationseconds);
 * reason DeletionByTaintManager.
 *
 * A check is timed for the eviction time; it computes the time again, so a
 * taint removed (or a node repaired) in between cancels it.
 */
#include "engine/sim_evict.h"
#include "sched/dra/dra.h"
#include "sched/framework.h"
#include "workload/faults_internal.h"

#define DEFAULT_NOT_READY_SECONDS 300

/* The eviction time of a NoExecute taint added at `added`, for tolerations tol[0..n). */
static sim_time taint_deadline(const k8s_taint *t, sim_time added, const k8s_toleration *tol, size_t n,
                               int64_t default_seconds) {
    bool matched = default_seconds >= 0;
    int64_t min = default_seconds >= 0 ? default_seconds : INT64_MAX;
    for (size_t i = 0; i < n; i++) {
        if (!toleration_tolerates(&tol[i], t)) continue;
        matched = true;
        if (tol[i].has_seconds && tol[i].seconds < min) min = tol[i].seconds;
    }
    if (!matched) return added;
    if (min == INT64_MAX) return SIM_TIME_NEVER;
    if (min <= 0) return added;
    return added + min * 1000;
}

static const fdev *find_dev(const faults *f, size_t node, const k8s_device_result *res) {
    for (uint32_t i = f->dev_first[node]; i < f->dev_first[node + 1]; i++) {
        const fdev *d = &f->dev[i];
        if (d->name == res->device && d->pool == res->pool && d->driver == res->driver) return d;
    }
    return NULL;
}

/* Pod `pod`'s eviction time (NEVER: none) and whether a node taint sets it. */
static sim_time pod_deadline(const faults *f, uint32_t pod, bool *by_node) {
    const sim_run *r = f->r;
    const sim_pod *p = &r->pods.data[pod];
    size_t node = (size_t)p->node;
    sim_time best = SIM_TIME_NEVER;
    *by_node = false;
    if (r->dra && f->node_noexec[node]) {
        size_t nrec;
        const dra_record *rec = dra_pod_records(r->dra, pod, &nrec);
        for (size_t i = 0; i < nrec; i++) {
            if (rec[i].deleted) continue;
            const k8s_allocation *al = dra_record_allocation(r->dra, &rec[i]);
            for (size_t j = 0; j < al->nresults; j++) {
                const k8s_device_result *res = &al->results[j];
                const fdev *d = find_dev(f, node, res);
                if (!d || !d->tl) continue;
                const ftlist *l = &f->tl.data[d->tl - 1];
                for (size_t k = 0; k < l->e.len; k++) {
                    const ftaint *e = &l->e.data[k];
                    if (e->taint.effect != TAINT_NO_EXECUTE) continue;
                    sim_time at = taint_deadline(&e->taint, e->added, res->tolerations, res->ntolerations, -1);
                    if (at < best) best = at;
                }
            }
        }
    }
    if (f->node_state[node] & NODE_DOWN) {
        const pod_class *c = &r->sched.classes[p->group];
        k8s_taint t = {.key = f->k_unreachable, .effect = TAINT_NO_EXECUTE};
        int64_t dflt = DEFAULT_NOT_READY_SECONDS;
        for (size_t i = 0; i < c->ntolerations; i++) {
            const k8s_toleration *tol = &c->tolerations[i];
            bool key = !tol->key || !*tol->key || tol->key == f->k_unreachable;
            if (key && (!tol->has_effect || tol->effect == TAINT_NO_EXECUTE)) dflt = -1;
        }
        sim_time at = taint_deadline(&t, f->node_down_since[node], c->tolerations, c->ntolerations, dflt);
        if (at < best) {
            best = at;
            *by_node = true;
        }
    }
    return best;
}

/* Evict pod now if its time has come, else time a check for it. */
static void consider(faults *f, uint32_t pod, sim_time t) {
    bool by_node;
    sim_time at = pod_deadline(f, pod, &by_node);
    if (at == SIM_TIME_NEVER) return;
    if (at > t) {
        sim_schedule_background(f->r, f->src, at, FAULT_ARG(FEV_K_EVICT_CHECK, pod));
        return;
    }
    sim_evict(f->r, pod, EVICT_FAULT, by_node ? "DeletionByTaintManager" : "DeletionByDeviceTaintManager", -1, t);
}

void faults_check_node(faults *f, size_t node, bool devices_only, sim_time t) {
    if (devices_only && !f->node_noexec[node]) return;
    u32list *on = &f->on_node[node];
    size_t k = 0;
    for (size_t i = 0; i < on->len; i++) {   /* keep the pods still running there */
        uint32_t pod = on->data[i];
        const sim_pod *p = &f->r->pods.data[pod];
        if (p->state == POD_RUNNING && p->node == (int32_t)node) on->data[k++] = pod;
    }
    on->len = k;
    for (size_t i = 0; i < on->len; i++) consider(f, on->data[i], t);
}

void faults_evict_check(faults *f, uint32_t pod, sim_time t) {
    if (pod >= f->r->pods.len || f->r->pods.data[pod].state != POD_RUNNING) return;
    consider(f, pod, t);
}

void faults_on_bind(sim_run *r, void *ctx, uint32_t pod, sim_time t) {
    faults *f = ctx;
    size_t node = (size_t)r->pods.data[pod].node;
    u32list *on = &f->on_node[node];
    if (on->len >= 64 && (on->len & (on->len - 1)) == 0) {   /* prune the ended ones now and then */
        size_t k = 0;
        for (size_t i = 0; i < on->len; i++) {
            const sim_pod *p = &r->pods.data[on->data[i]];
            if (p->state == POD_RUNNING && p->node == (int32_t)node) on->data[k++] = on->data[i];
        }
        on->len = k;
    }
    VEC_PUSH(*on, pod);
    /* bound onto a NoExecute-tainted device or a failed node: the clock started at timeAdded */
    if (f->node_noexec[node] || (f->node_state[node] & NODE_DOWN))
        sim_schedule_background(r, f->src, t, FAULT_ARG(FEV_K_EVICT_CHECK, pod));
}
