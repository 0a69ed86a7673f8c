/*
 * ca_run.c -- the autoscaler's life in a run (see ca.h): attach, node states,
 * the scan loop, node-group back-off, the event log and the size series.
 */
#include "autoscale/ca.h"
#include "engine/sim_cost.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/intern.h"
#include "util/xalloc.h"

/* Source event arguments: kind in the top bits, the node below. */
enum { ARG_SCAN = 0, ARG_REGISTERED = 1, ARG_READY = 2, ARG_PROVISION_TIMEOUT = 3 };
#define ARG(kind, node) (((uint64_t)(kind) << 40) | (uint64_t)(node))

static const char *const kind_names[] = {"scale-up", "node-ready", "provision-failed", "scale-down", "node-removed",
                                         "no-scale-up"};

const char *ca_event_kind_name(ca_event_kind k) { return kind_names[k]; }

void ca_event_add(ca_run *ca, sim_time t, uint32_t group, ca_event_kind kind, int32_t nodes, int32_t node,
                  const char *reason) {
    ca_event e = {t, group, (uint8_t)kind, nodes, node, reason ? intern(reason) : NULL};
    VEC_PUSH(ca->events, e);
}

/* Group g's size changed at t: integrate its node-time and record a point
 * (one point per group and instant: a later change at t overwrites it). */
static void group_point(ca_run *ca, uint32_t gi, sim_time t) {
    ca_group *g = &ca->groups[gi];
    if (g->size > g->peak) g->peak = g->size;
    if (ca->series.len && ca->series.data[ca->series.len - 1].t == t && ca->series.data[ca->series.len - 1].group == gi) {
        ca->series.data[ca->series.len - 1].size = g->size;
        ca->series.data[ca->series.len - 1].ready = g->ready;
        return;
    }
    ca_point p = {t, gi, g->size, g->ready};
    VEC_PUSH(ca->series, p);
}

static void integrate(ca_group *g, sim_time t) {
    if (t > g->last_t) g->node_ms += (double)g->size * (double)(t - g->last_t);
    g->last_t = t;
}

/* Node `node` leaves (sign -1) or joins (+1) the cluster totals. */
static void count_node(ca_run *ca, size_t node, int sign) {
    const scheduler *s = &ca->r->sched;
    ca->cores += sign * (double)s->alloc[node * s->nres + RES_CPU] / 1000.0;
    ca->gib += sign * (double)s->alloc[node * s->nres + RES_MEMORY] / (1024.0 * 1024 * 1024);
    ca->gpus += sign * (double)s->gv.nodes[node].ngpu;
}

void ca_set_state(ca_run *ca, size_t node, int state, sim_time t) {
    int32_t gi = ca->node_group[node];
    ca_group *g = &ca->groups[gi];
    int old = ca->state[node];
    if (old == state) return;
    integrate(g, t);
    if ((old == CA_ABSENT) != (state == CA_ABSENT)) count_node(ca, node, state == CA_ABSENT ? -1 : +1);
    if ((old == CA_ABSENT) != (state == CA_ABSENT)) sim_cost_node_present(ca->r, node, state != CA_ABSENT, t);
    if (state == CA_ABSENT && node < g->absent_hint) g->absent_hint = node;
    bool was_up = old == CA_PROVISIONING || old == CA_UNREADY, up = state == CA_PROVISIONING || state == CA_UNREADY;
    if (up && !was_up) VEC_PUSH(ca->upcoming, (uint32_t)node);
    if (was_up && !up)
        for (size_t i = 0; i < ca->upcoming.len; i++)
            if (ca->upcoming.data[i] == node) {
                ca->upcoming.data[i] = ca->upcoming.data[--ca->upcoming.len];
                break;
            }
    ca->ndraining += (state == CA_DRAINING) - (old == CA_DRAINING);
    ca->util_ok[node] = 0;
    g->size += (state != CA_ABSENT) - (old != CA_ABSENT);
    g->ready += (state == CA_READY) - (old == CA_READY);
    ca->state[node] = (uint8_t)state;
    ca->since[node] = t;
    ca->unneeded[node] = -1;
    /* the scheduler places pods on ready nodes only; a draining node is cordoned */
    sched_set_present(&ca->r->sched, node, state == CA_READY);
    group_point(ca, (uint32_t)gi, t);
}

uint32_t ca_trial_pod(ca_run *ca) { return (uint32_t)ca->r->pods.len + ca->trial_pods++; }

void ca_trial_begin(ca_run *ca) {
    ca->trial_pods = 0;
    ca->sched_rng = ca->r->sched.rng;   /* a policy drawing GPUs at Reserve (random) must not see what-ifs */
    if (ca->r->dra) dra_trial_begin(ca->r->dra, &ca->trial);
}

void ca_trial_end(ca_run *ca) {
    ca->r->sched.rng = ca->sched_rng;
    if (ca->r->dra) dra_trial_end(ca->r->dra, &ca->trial);
}

/* The engine's bind/end notifications: per-node pod lists of group nodes. */
static void pod_node(sim_run *r, uint32_t pod, int32_t node, int sign) {
    ca_run *ca = r->ca;
    if (node < 0 || ca->node_group[node] < 0) return;
    ca_podvec *v = &ca->pods[node];
    ca->util_ok[node] = 0;
    if (sign > 0) {
        VEC_PUSH(*v, pod);
        return;
    }
    for (size_t i = 0; i < v->len; i++)
        if (v->data[i] == pod) {
            v->data[i] = v->data[--v->len];
            return;
        }
}

/* Scans keep the run alive while they have work to finish (ca.h `busy`). */
static void schedule_scan(ca_run *ca, sim_time t) {
    if (ca->busy) sim_schedule_source(ca->r, ca->src, t, ARG(ARG_SCAN, 0));
    else sim_schedule_background(ca->r, ca->src, t, ARG(ARG_SCAN, 0));
}

static int ca_start(sim_run *r, void *ctx) {
    ca_run *ca = ctx;
    (void)r;
    ca->busy = true;   /* the first scan decides */
    schedule_scan(ca, 0);
    return 0;
}

/* Pods the scheduler will still try (not blocked): the next scan knows more. */
static bool untried_pods(const ca_run *ca) {
    const scheduler *s = &ca->r->sched;
    for (size_t c = 0; c < s->nclasses; c++)
        if (sched_waiting(s, (uint32_t)c) && !s->classes[c].blocked) return true;
    return false;
}

/* A group whose nodes can never register within max-node-provision-time
 * (its shortest provisioning time is longer): scans for it alone do not keep
 * a `stop: allPodsDone` run going (it would retry forever, as CA does). */
static bool hopeless(const ca_run *ca, uint32_t gi) {
    const duration_dist *d = &ca->groups[gi].as->provisioning;
    return (d->kind == DIST_FIXED || d->kind == DIST_UNIFORM) && d->a > ca->cfg->max_node_provision_time;
}

static void scan(ca_run *ca, sim_time t) {
    ca->scans++;
    size_t before = ca->events.len;
    for (size_t gi = 0; gi < ca->ngroups; gi++) {   /* back-off forgotten after node-group-backoff-reset-timeout */
        ca_group *g = &ca->groups[gi];
        if (g->backoff_len && t - g->last_failure >= ca->cfg->backoff_reset) g->backoff_len = 0;
    }
    ca_scale_up(ca, t);
    bool scaled_up = false;
    for (size_t i = before; i < ca->events.len; i++)
        scaled_up |= ca->events.data[i].kind == CAE_SCALE_UP && !hopeless(ca, ca->events.data[i].group);
    if (ca->cfg->scale_down_enabled) ca_scale_down(ca, t);
    bool in_flight = ca->ndraining > 0, backoff = false;
    for (size_t i = 0; i < ca->upcoming.len && !in_flight; i++)
        in_flight = !hopeless(ca, (uint32_t)ca->node_group[ca->upcoming.data[i]]);
    for (size_t gi = 0; gi < ca->ngroups; gi++) backoff |= ca->groups[gi].backoff_until > t && !hopeless(ca, (uint32_t)gi);
    bool pending = false;
    for (size_t c = 0; c < ca->r->sched.nclasses && !pending; c++) pending = sched_waiting(&ca->r->sched, (uint32_t)c) > 0;
    ca->busy = in_flight || scaled_up || untried_pods(ca) || (backoff && pending);
}

/* A node failed to come up within max-node-provision-time: it is given up
 * and its group backs off (initial-node-group-backoff-duration, doubling up
 * to max-node-group-backoff-duration; clusterstate/clusterstate.go). */
static void provision_failed(ca_run *ca, size_t node, sim_time t) {
    uint32_t gi = (uint32_t)ca->node_group[node];
    ca_group *g = &ca->groups[gi];
    ca_set_state(ca, node, CA_ABSENT, t);
    g->failures++;
    g->backoff_len = g->backoff_len ? g->backoff_len * 2 : ca->cfg->initial_backoff;
    if (g->backoff_len > ca->cfg->max_backoff) g->backoff_len = ca->cfg->max_backoff;
    g->backoff_until = t + g->backoff_len;
    g->last_failure = t;
    ca->last_failure = t;
    char why[160];
    snprintf(why, sizeof why, "%s did not register within max-node-provision-time; group backs off %llds",
             ca->r->nodes[node].meta.name, (long long)(g->backoff_len / 1000));
    ca_event_add(ca, t, gi, CAE_PROVISION_FAILED, 1, (int32_t)node, why);
}

static int ca_on_event(sim_run *r, void *ctx, uint64_t arg, sim_time t) {
    ca_run *ca = ctx;
    (void)r;
    size_t node = (size_t)(arg & (((uint64_t)1 << 40) - 1));
    switch ((int)(arg >> 40)) {
    case ARG_SCAN:
        scan(ca, t);
        schedule_scan(ca, t + ca->cfg->scan_interval);
        break;
    case ARG_REGISTERED:   /* the node joined; its driver publishes the slices after driverReadyDelay */
        if (ca->state[node] != CA_PROVISIONING) break;
        ca_set_state(ca, node, CA_UNREADY, t);
        sim_schedule_source(r, ca->src, t + ca->groups[ca->node_group[node]].as->driver_ready_delay, ARG(ARG_READY, node));
        break;
    case ARG_READY:
        if (ca->state[node] != CA_UNREADY) break;
        ca_set_state(ca, node, CA_READY, t);
        ca_event_add(ca, t, (uint32_t)ca->node_group[node], CAE_NODE_READY, 1, (int32_t)node, "slices published");
        break;
    case ARG_PROVISION_TIMEOUT:
        if (ca->state[node] == CA_PROVISIONING) provision_failed(ca, node, t);
        break;
    default: break;
    }
    return 0;
}

/* Draw a node's provisioning time from its group's distribution (the autoscaler's own stream). */
static sim_time draw(rng *g, const duration_dist *d) {
    double v;
    switch (d->kind) {
    case DIST_FIXED: return d->a;
    case DIST_UNIFORM: return d->a + (sim_time)rng_below(g, (uint64_t)(d->b - d->a) + 1);
    case DIST_EXPONENTIAL: v = rng_exponential(g, (double)d->a); break;
    case DIST_LOGNORMAL: v = rng_lognormal(g, log((double)d->a), d->sigma); break;
    default: return d->a;
    }
    return v > 0 ? (v > 9.0e15 ? (sim_time)9.0e15 : (sim_time)llround(v)) : 0;
}

/* Start provisioning `node` at t (scale-up). */
void ca_provision(ca_run *ca, size_t node, sim_time t) {
    ca_group *g = &ca->groups[ca->node_group[node]];
    ca_set_state(ca, node, CA_PROVISIONING, t);
    sim_time d = draw(&ca->rng, &g->as->provisioning);
    if (d > ca->cfg->max_node_provision_time)
        sim_schedule_source(ca->r, ca->src, t + ca->cfg->max_node_provision_time, ARG(ARG_PROVISION_TIMEOUT, node));
    else
        sim_schedule_source(ca->r, ca->src, t + d, ARG(ARG_REGISTERED, node));
}

static void ca_summarize(sim_run *r, void *ctx);

/* A spot node of a node group was reclaimed (workload/faults_source.c, after
 * the notice; its pods were drained at the notice). The cloud's node group
 * keeps its size: an EC2 Auto Scaling group "maintains this number of
 * instances ... terminates the unhealthy instance and launches another
 * instance to replace it" (AWS EC2 Auto Scaling User Guide, "Auto Scaling
 * groups"), and cluster-autoscaler's AWS provider only sets the group's
 * DesiredCapacity (EKS Best Practices, "Cluster Autoscaler"), which the
 * interruption does not change. So the node leaves (not billed) and the same
 * slot is provisioned anew, as after a scale-up, with the group's
 * provisioningTime; the size (target) stays. */
static void spot_replace(sim_run *r, size_t node, sim_time t) {
    ca_run *ca = r->ca;
    if (!ca || node >= r->nnodes || ca->node_group[node] < 0 || ca->state[node] == CA_ABSENT) return;
    uint32_t gi = (uint32_t)ca->node_group[node];
    ca_event_add(ca, t, gi, CAE_NODE_REMOVED, 1, (int32_t)node,
                 "spot interruption: reclaimed by the cloud; its node group launches a replacement");
    ca->unneeded[node] = -1;
    ca_set_state(ca, node, CA_ABSENT, t);
    ca_provision(ca, node, t);
}

/* A dump's running pod (cluster.state) is on group node `node`: the recorded
 * cluster had it up, so it is ready at once (an autoscaled group's nodes
 * beyond its `count` start absent otherwise; docs/STATE.md). The scans then
 * treat it as any ready node (it may be scaled down when unneeded). */
static bool node_recorded(sim_run *r, size_t node, sim_time t) {
    ca_run *ca = r->ca;
    if (!ca || node >= r->nnodes || ca->node_group[node] < 0) return false;
    if (ca->state[node] == CA_READY) return true;
    ca_set_state(ca, node, CA_READY, t);
    ca_event_add(ca, t, (uint32_t)ca->node_group[node], CAE_NODE_READY, 1, (int32_t)node,
                 "in the recorded cluster (cluster.state)");
    return true;
}

static void ca_free(void *ctx) {
    ca_run *ca = ctx;
    for (size_t n = 0; ca->pods && n < ca->r->nnodes; n++) VEC_FREE(ca->pods[n]);
    free(ca->pods);
    free(ca->groups);
    free(ca->node_group);
    free(ca->state);
    free(ca->since);
    free(ca->unneeded);
    free(ca->util);
    free(ca->util_ok);
    free(ca->hint);
    VEC_FREE(ca->hinted);
    VEC_FREE(ca->upcoming);
    VEC_FREE(ca->events);
    VEC_FREE(ca->series);
    VEC_FREE(ca->no_scale_up);
    dra_trial_free(&ca->trial);
    if (ca->r->ca == ca) {
        ca->r->ca = NULL;
        ca->r->pod_node = NULL;
        ca->r->spot_replace = NULL;
        ca->r->node_recorded = NULL;
    }
    free(ca);
}

void ca_attach(sim_run *r, const inv_node *info) {
    const scenario *sc = r->sc;
    ca_run *ca = xcalloc(1, sizeof *ca);
    ca->r = r;
    ca->cfg = sc->autoscaler;
    size_t N = r->nnodes;
    ca->node_group = xmalloc((N ? N : 1) * sizeof *ca->node_group);
    ca->state = xcalloc(N ? N : 1, 1);
    ca->since = xcalloc(N ? N : 1, sizeof *ca->since);
    ca->unneeded = xmalloc((N ? N : 1) * sizeof *ca->unneeded);
    ca->pods = xcalloc(N ? N : 1, sizeof *ca->pods);
    ca->util = xcalloc(N ? N : 1, sizeof *ca->util);
    ca->util_ok = xcalloc(N ? N : 1, 1);
    ca->groups = xcalloc(sc->cluster.npools ? sc->cluster.npools : 1, sizeof *ca->groups);
    rng base;
    rng_seed(&base, sc->seed);
    rng_fork(&base, rng_name_tag("cluster-autoscaler"), &ca->rng);
    ca->last_scale_up = ca->last_delete = ca->last_failure = INT64_MIN / 4;
    const node_pool_spec *cur = NULL;
    for (size_t n = 0; n < N; n++) {
        ca->unneeded[n] = -1;
        ca->node_group[n] = -1;
        const node_pool_spec *p = info[n].pool;
        if (!p || !p->autoscaling) {
            count_node(ca, n, +1);
            continue;
        }
        if (p != cur) {   /* a pool's nodes are consecutive */
            ca_group *g = &ca->groups[ca->ngroups++];
            g->pool = p;
            g->as = p->autoscaling;
            g->first = n;
            g->absent_hint = n;
            g->cpu_milli = p->cpu_milli;
            g->mem_bytes = p->memory_bytes;
            g->gpus = info[n].gpus;
            g->backoff_until = INT64_MIN / 4;
            g->last_failure = INT64_MIN / 4;
            cur = p;
        }
        ca_group *g = &ca->groups[ca->ngroups - 1];
        ca->node_group[n] = (int32_t)(ca->ngroups - 1);
        size_t k = g->n++;
        if ((int)k < p->count) {   /* present from the start */
            count_node(ca, n, +1);
            g->absent_hint = n + 1;
            ca->state[n] = CA_READY;
            g->size++;
            g->ready++;
        } else {
            ca->state[n] = CA_ABSENT;
            sched_set_present(&r->sched, n, false);
            sim_cost_node_present(r, n, false, 0);   /* not billed until it is provisioned (issue 30) */
        }
    }
    for (size_t gi = 0; gi < ca->ngroups; gi++) group_point(ca, (uint32_t)gi, 0);
    sim_source src = {.ctx = ca, .start = ca_start, .event = ca_on_event, .summarize = ca_summarize, .free = ca_free};
    ca->src = sim_add_source(r, &src);
    if (ca->src < 0) {
        ca_free(ca);
        return;
    }
    r->ca = ca;
    r->pod_node = pod_node;
    r->spot_replace = spot_replace;
    r->node_recorded = node_recorded;
}

/* The largest number of group nodes at once (not absent), from the series:
 * the groups' sizes summed after the last change of each instant. */
static int peak_total(const ca_run *ca) {
    int *size = xcalloc(ca->ngroups ? ca->ngroups : 1, sizeof *size), total = 0, peak = 0;
    for (size_t i = 0; i < ca->series.len; i++) {
        const ca_point *p = &ca->series.data[i];
        total += p->size - size[p->group];
        size[p->group] = p->size;
        if (i + 1 == ca->series.len || ca->series.data[i + 1].t != p->t)
            if (total > peak) peak = total;
    }
    free(size);
    return peak;
}

/* Summary metrics: node-hours and cost per group and in all, pods that waited for a new node. */
static void ca_summarize(sim_run *r, void *ctx) {
    ca_run *ca = ctx;
    double hours = 0, cost = 0;
    int64_t ups = 0, added = 0, removed = 0, failed = 0;
    for (size_t gi = 0; gi < ca->ngroups; gi++) {
        ca_group *g = &ca->groups[gi];
        integrate(g, r->end_time);
        double h = g->node_ms / 3.6e6;
        hours += h;
        cost += h * g->as->price;
        ups += g->scale_ups;
        added += g->nodes_added;
        removed += g->nodes_removed;
        failed += g->failures;
    }
    sim_metric_add(r, "ca_node_hours", hours);
    sim_metric_add(r, "ca_cost", cost);
    sim_metric_add(r, "ca_scale_ups", (double)ups);
    sim_metric_add(r, "ca_nodes_added", (double)added);
    sim_metric_add(r, "ca_nodes_removed", (double)removed);
    sim_metric_add(r, "ca_provision_failures", (double)failed);
    sim_metric_add(r, "ca_scans", (double)ca->scans);
    /* what a planner asks (issue 26): the largest number of group nodes at once,
     * and GPU allocation against the GPUs provisioned (group nodes while not
     * absent, fixed pools all the time) rather than against every group at max */
    double gpu_ms = 0, alloc_ms = sim_metric_get(r, "gpu_alloc_pct") / 100.0 * r->total_gpu_equiv * (double)r->end_time;
    for (size_t gi = 0; gi < ca->ngroups; gi++) gpu_ms += ca->groups[gi].node_ms * ca->groups[gi].gpus;
    for (size_t n = 0; n < r->nnodes; n++)
        if (ca->node_group[n] < 0) gpu_ms += (double)r->sched.gv.nodes[n].ngpu * (double)r->end_time;
    int peak = peak_total(ca);
    sim_metric_add(r, "ca_peak_nodes", (double)peak);
    sim_metric_add(r, "ca_gpu_hours_provisioned", gpu_ms / 3.6e6);
    sim_metric_add(r, "gpu_alloc_provisioned_pct", gpu_ms > 0 ? 100.0 * alloc_ms / gpu_ms : 0);
    /* a pod still pending that no node group could take: its reason says so */
    for (size_t c = 0; c < ca->no_scale_up.len && c < r->sched.nclasses; c++) {
        if (!ca->no_scale_up.data[c] || !r->class_reason[c] || !sched_waiting(&r->sched, (uint32_t)c)) continue;
        strbuf b = {0};
        size_t len = strlen(r->class_reason[c]);
        bool sentence = len && r->class_reason[c][len - 1] == '.';
        sb_printf(&b, "%s%s cluster autoscaler did not scale up for it (autoscaler_events: no-scale-up)",
                  r->class_reason[c], sentence ? " The" : "; the");
        free(r->class_reason[c]);
        r->class_reason[c] = xstrdup(sb_str(&b));
        sb_free(&b);
    }
    /* pods that waited for a new node: started on a group node that became
     * ready after the pod arrived (its latest ready event before the start) */
    size_t N = r->nnodes;
    VEC(sim_time) *ready = xcalloc(N ? N : 1, sizeof *ready);
    for (size_t i = 0; i < ca->events.len; i++)
        if (ca->events.data[i].kind == CAE_NODE_READY) VEC_PUSH(ready[ca->events.data[i].node], ca->events.data[i].t);
    VEC(int64_t) waits = {0};
    for (size_t i = 0; i < r->pods.len; i++) {
        const sim_pod *p = &r->pods.data[i];
        if (p->start < 0 || p->node < 0 || ca->node_group[p->node] < 0) continue;
        sim_time last = -1;
        for (size_t k = 0; k < ready[p->node].len && ready[p->node].data[k] <= p->start; k++) last = ready[p->node].data[k];
        if (last >= 0 && p->arrival < last) VEC_PUSH(waits, p->start - p->arrival);
    }
    double sum = 0, mx = 0;
    for (size_t i = 0; i < waits.len; i++) {
        sum += (double)waits.data[i];
        if ((double)waits.data[i] > mx) mx = (double)waits.data[i];
    }
    sim_metric_add(r, "ca_pods_waited_for_new_node", (double)waits.len);
    sim_metric_add(r, "ca_new_node_wait_mean_s", waits.len ? sum / (double)waits.len / 1000.0 : 0);
    sim_metric_add(r, "ca_new_node_wait_max_s", mx / 1000.0);
    VEC_FREE(waits);
    for (size_t n = 0; n < N; n++) VEC_FREE(ready[n]);
    free(ready);
}
