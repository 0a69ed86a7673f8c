/*
 * ca_scaledown.c -- scale-down as cluster-autoscaler 1.36 does it
 * (core/scaledown/planner/planner.go, core/scaledown/eligibility/eligibility.go,
 * core/scaledown/unneeded/nodes.go, core/scaledown/actuation/actuator.go):
 *   - not while in cool-down: scale-down-delay-after-add since the last
 *     scale-up, -after-delete since the last removal, -after-failure since
 *     the last failed provisioning (unneeded times are forgotten meanwhile);
 *   - a ready node of a node group is a candidate when its utilization
 *     (ca_util.c) is below scale-down-utilization-threshold (the GPU one for
 *     GPU nodes) and either it has no pods or -- for up to
 *     scale-down-non-empty-candidates-count nodes per scan -- every pod on it
 *     fits on some other ready node (simulated with the scheduler's filters
 *     and the DRA allocator; nodes chosen before in the scan are no
 *     destination) -- and no pod on it lacks a controller (owner none:
 *     CA's drainability rule NotReplicated blocks the node);
 *   - a candidate unneeded for scale-down-unneeded-time is removed, the group
 *     staying at or above its min and the cluster above cores/memory-total
 *     min: empty nodes up to max-scale-down-parallelism at once, nodes with
 *     pods up to max-drain-parallelism (drained: pods evicted, the node goes
 *     when they are gone).
 */
#include "autoscale/ca.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void ca_evict(ca_run *ca, uint32_t pod, sim_time t);

/* Would every pod on `node` fit elsewhere (not on `skip` nodes)? What-if only. */
static bool pods_fit_elsewhere(ca_run *ca, size_t node, const uint64_t *skip) {
    sim_run *r = ca->r;
    scheduler *s = &r->sched;
    const ca_podvec *v = &ca->pods[node];
    VEC(placement) done = {0};
    VEC(uint32_t) cls = {0};
    bool ok = true;
    ca_trial_begin(ca);
    for (size_t i = 0; i < v->len && ok; i++) {
        const sim_pod *p = &r->pods.data[v->data[i]];
        if (p->state != POD_RUNNING) continue;   /* terminating: leaving anyway */
        uint32_t c = p->group;
        sched_flush_class(s, c);
        const pod_class *pc = &s->classes[c];
        bool placed = false;
        for (size_t w = 0; w < s->nwords && !placed; w++)
            for (uint64_t bits = pc->fits[w] & ~skip[w]; bits && !placed; bits &= bits - 1) {
                size_t n = (w << 6) + (size_t)__builtin_ctzll(bits);
                if (n == node) continue;
                placement pl;
                if (sched_try_bind(s, c, n, ca_trial_pod(ca), &pl)) {
                    VEC_PUSH(done, pl);
                    VEC_PUSH(cls, c);
                    placed = true;
                }
            }
        ok = placed;
    }
    for (size_t k = done.len; k-- > 0;) sched_release(s, cls.data[k], &done.data[k]);
    ca_trial_end(ca);
    VEC_FREE(done);
    VEC_FREE(cls);
    return ok;
}

/* Does a running pod on `node` have no controller? cluster-autoscaler never
 * drains such a pod, so it blocks the node's scale-down (the drainability
 * rule "replicated": a pod without a controller reference is BlockingPod
 * NotReplicated unless annotated cluster-autoscaler.kubernetes.io/safe-to-evict
 * "true" -- cluster-autoscaler simulator/drainability/rules/replicated/rule.go
 * and utils/drain/drain.go, 1.36). drasim's pods have no annotations: a pod
 * group or Lua pod with owner none always blocks. */
static bool has_unreplicated_pod(const ca_run *ca, size_t node) {
    const sim_run *r = ca->r;
    for (size_t i = 0; i < ca->pods[node].len; i++) {
        const sim_pod *p = &r->pods.data[ca->pods[node].data[i]];
        if (p->state == POD_RUNNING && sim_class_spec(r, p->group)->owner == POD_OWNER_NONE) return true;
    }
    return false;
}

void ca_scale_down(ca_run *ca, sim_time t) {
    sim_run *r = ca->r;
    const autoscaler_spec *cfg = ca->cfg;
    size_t N = r->nnodes, draining = 0;
    for (size_t n = 0; n < N && ca->ndraining; n++) {   /* drained nodes leave */
        if (ca->node_group[n] < 0 || ca->state[n] != CA_DRAINING) continue;
        if (ca->pods[n].len == 0) {
            ca_set_state(ca, n, CA_ABSENT, t);
            ca_event_add(ca, t, (uint32_t)ca->node_group[n], CAE_NODE_REMOVED, 1, (int32_t)n, "drained");
        } else {
            draining++;
        }
    }
    bool cool = t < ca->last_scale_up + cfg->scale_down_delay_after_add ||
                t < ca->last_delete + cfg->scale_down_delay_after_delete ||
                t < ca->last_failure + cfg->scale_down_delay_after_failure;
    if (cool) {
        for (size_t n = 0; n < N && ca->any_unneeded; n++) ca->unneeded[n] = -1;
        ca->any_unneeded = false;
        return;
    }
    size_t nw = r->sched.nwords ? r->sched.nwords : 1;
    uint64_t *skip = xcalloc(nw, sizeof *skip);   /* unneeded nodes: no destination for the others' pods */
    int64_t checked = 0;
    for (size_t n = 0; n < N; n++) {
        if (ca->node_group[n] < 0 || ca->state[n] != CA_READY) continue;
        if (ca->hint && ca->hint[n]) {   /* a held pod would go here (ca_scaleup.c add_held): needed */
            ca->unneeded[n] = -1;
            continue;
        }
        bool gpu;
        double u = ca_node_utilization_cached(ca, n, &gpu);
        double thr = gpu ? cfg->gpu_utilization_threshold : cfg->utilization_threshold;
        bool unneeded = false;
        if (u < thr) {
            bool empty = true;
            for (size_t i = 0; i < ca->pods[n].len && empty; i++) empty = r->pods.data[ca->pods[n].data[i]].state != POD_RUNNING;
            if (empty) unneeded = true;
            else if (has_unreplicated_pod(ca, n)) unneeded = false;   /* blocked: NotReplicated */
            else if (checked < cfg->non_empty_candidates) {
                checked++;
                unneeded = pods_fit_elsewhere(ca, n, skip);
            }
        }
        if (!unneeded) {
            ca->unneeded[n] = -1;
            continue;
        }
        skip[n >> 6] |= (uint64_t)1 << (n & 63);
        if (ca->unneeded[n] < 0) ca->unneeded[n] = t;
        ca->any_unneeded = true;
    }
    free(skip);
    if (!ca->any_unneeded) return;
    /* removal: nodes unneeded long enough, within the group's min and the parallelism caps */
    int64_t removed = 0, drained = 0, budget = cfg->max_scale_down_parallelism - (int64_t)draining;
    double cores = ca->cores, gib = ca->gib;
    for (size_t n = 0; n < N && removed < budget; n++) {
        if (ca->node_group[n] < 0 || ca->state[n] != CA_READY || ca->unneeded[n] < 0) continue;
        if (t - ca->unneeded[n] < cfg->scale_down_unneeded_time) continue;
        uint32_t gi = (uint32_t)ca->node_group[n];
        ca_group *g = &ca->groups[gi];
        if (g->size - 1 < g->as->min) continue;
        double nc = (double)g->cpu_milli / 1000.0, ng = (double)g->mem_bytes / (1024.0 * 1024 * 1024);
        if (cores - nc < (double)cfg->cores_min || gib - ng < (double)cfg->memory_min_gib) continue;
        bool empty = true;
        for (size_t i = 0; i < ca->pods[n].len && empty; i++) empty = r->pods.data[ca->pods[n].data[i]].state != POD_RUNNING;
        if (!empty && drained + (int64_t)draining >= cfg->max_drain_parallelism) continue;
        bool gpu;
        double u = ca_node_utilization_cached(ca, n, &gpu);
        char why[200];
        snprintf(why, sizeof why, "%s %s: utilization %.2f below %.2f for %llds", r->nodes[n].meta.name,
                 empty ? "empty" : "drained", u, gpu ? cfg->gpu_utilization_threshold : cfg->utilization_threshold,
                 (long long)((t - ca->unneeded[n]) / 1000));
        cores -= nc;
        gib -= ng;
        removed++;
        g->nodes_removed++;
        ca->last_delete = t;
        if (empty) {
            ca_set_state(ca, n, CA_ABSENT, t);
            ca_event_add(ca, t, gi, CAE_SCALE_DOWN, 1, (int32_t)n, why);
            continue;
        }
        drained++;
        ca_set_state(ca, n, CA_DRAINING, t);   /* cordoned */
        ca_event_add(ca, t, gi, CAE_SCALE_DOWN, 1, (int32_t)n, why);
        size_t npods = ca->pods[n].len;
        uint32_t *pods = xmalloc((npods ? npods : 1) * sizeof *pods);
        memcpy(pods, ca->pods[n].data, npods * sizeof *pods);   /* evictions change the list */
        for (size_t i = 0; i < npods; i++) ca_evict(ca, pods[i], t);
        free(pods);
        if (ca->pods[n].len == 0) {   /* gone at once (no grace period) */
            ca_set_state(ca, n, CA_ABSENT, t);
            ca_event_add(ca, t, gi, CAE_NODE_REMOVED, 1, (int32_t)n, "drained");
        }
    }
}
