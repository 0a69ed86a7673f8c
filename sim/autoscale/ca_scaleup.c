/*
 * ca_scaleup.c -- scale-up as cluster-autoscaler 1.36 does it
 * (core/scaleup/orchestrator/orchestrator.go ScaleUp,
 * estimator/binpacking_estimator.go, expander/):
 *   1. the pending pods no node fits (classes the scheduler blocked), older
 *      than new-pod-scale-up-delay and not expendable (priority below
 *      expendable-pods-priority-cutoff);
 *      plus the pods a queue manager holds and has marked unschedulable
 *      (KAI: queue_gate.unschedulable) minus those that fit on a ready node
 *      now (core/podlistprocessor/filter_out_schedulable.go: CA drops pods
 *      kube-scheduler could place on an existing node; it knows nothing of
 *      the manager's quota);
 *   2. minus those that fit on nodes already coming up (upcoming nodes are
 *      part of CA's snapshot);
 *   3. per node group not backed off and below its max: the binpacking
 *      estimate on template nodes -- the group's absent nodes, each built
 *      from the pool's hardware with its own ResourceSlices and pool names
 *      (as simulator/dynamicresources/utils/sanitize.go suffixes them) --
 *      with drasim's own filters and DRA allocator (sched_try_bind); a pod
 *      goes on the last node opened, else on a new one; a pod that fits no
 *      empty node of the group ends the estimate for its class (CA skips the
 *      rest of its equivalence group); capped by the group's max,
 *      max-nodes-per-scaleup and the cluster limits (cores/memory/gpu-total);
 *   4. the expander chain picks one option; its nodes are provisioned.
 * What-if placements leave no trace (ca_trial_begin/_end, dra_trial.h).
 */
#include "autoscale/ca.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/gate.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

typedef struct option {
    uint32_t group;
    int64_t nodes, pods;
    int64_t cpu_req, mem_req;         /* requests of the pods it schedules */
} option;

typedef VEC(placement) placement_vec;

/* One pending pod considered: its class. */
typedef struct cand {
    uint32_t cls, count;              /* `count` pods of class cls (the queue's waiting pods) */
} cand;
typedef VEC(cand) cand_vec;

/* Nodes group g may add now: its max, max-nodes-per-scaleup, the cluster limits. */
static int64_t group_room(const ca_run *ca, const ca_group *g, double cores, double gib, double gpus) {
    const autoscaler_spec *c = ca->cfg;
    int64_t room = g->as->max - g->size;
    if (room > c->max_nodes_per_scaleup) room = c->max_nodes_per_scaleup;
    double ncores = (double)g->cpu_milli / 1000.0, ngib = (double)g->mem_bytes / (1024.0 * 1024 * 1024);
    if (ncores > 0) {
        double k = floor(((double)c->cores_max - cores) / ncores);
        if (k < (double)room) room = k < 0 ? 0 : (int64_t)k;
    }
    if (ngib > 0) {
        double k = floor(((double)c->memory_max_gib - gib) / ngib);
        if (k < (double)room) room = k < 0 ? 0 : (int64_t)k;
    }
    if (g->gpus > 0 && c->gpu_max != INT64_MAX) {
        double k = floor(((double)c->gpu_max - gpus) / g->gpus);
        if (k < (double)room) room = k < 0 ? 0 : (int64_t)k;
    }
    return room;
}

static int64_t class_cpu(const pod_class *c) {
    for (size_t i = 0; i < c->ndemand; i++)
        if (c->demand[i].res == RES_CPU) return c->demand[i].amount;
    return 0;
}

static int64_t class_mem(const pod_class *c) {
    for (size_t i = 0; i < c->ndemand; i++)
        if (c->demand[i].res == RES_MEMORY) return c->demand[i].amount;
    return 0;
}

/* Place up to `count` pods of class ci on `nodes` (in order, starting at
 * *cursor: a node a pod did not fit stays full for the identical pods after
 * it). Returns how many were placed; their placements go to `out`. */
static uint32_t place_on(ca_run *ca, uint32_t ci, uint32_t count, const uint32_t *nodes, size_t nn, size_t *cursor,
                         placement_vec *out) {
    uint32_t placed = 0;
    while (placed < count && *cursor < nn) {
        placement p;
        if (sched_try_bind(&ca->r->sched, ci, nodes[*cursor], ca_trial_pod(ca), &p)) {
            VEC_PUSH(*out, p);
            placed++;
        } else {
            (*cursor)++;
        }
    }
    return placed;
}

/* ---- expanders (expander/<name>/<name>.go, CA 1.36) ------------------------------------------ */

/* least-waste: (unused CPU + unused memory) / what the new nodes offer; GPUs and DRA devices play no part. */
static double waste(const ca_run *ca, const option *o) {
    const ca_group *g = &ca->groups[o->group];
    double cpu = (double)g->cpu_milli * (double)o->nodes, mem = (double)g->mem_bytes * (double)o->nodes;
    double w = 0;
    if (cpu > 0) w += (cpu - (double)o->cpu_req) / cpu;
    if (mem > 0) w += (mem - (double)o->mem_req) / mem;
    return w;
}

/* price: unfitness x (node price + stabilizer) / (pod price + stabilizer)
 * (expander/price/price.go). Pods are priced by their CPU at one price per
 * CPU-hour for the whole cluster (the node groups' prices over their CPUs;
 * a cloud provider's PodPrice is also independent of the node group); the
 * stabilizer is a pod of 0.5 CPU; unfitness compares the
 * node's CPUs with the preferred node size for the cluster's size
 * (expander/price/preferred.go: 1 CPU up to 2 nodes ... 32 CPU past 200);
 * node groups with GPUs have unfitness 1000 (gpuUnfitnessOverride). */
static double price_score(const ca_run *ca, const option *o, size_t cluster_nodes) {
    const ca_group *g = &ca->groups[o->group];
    double ncpu = (double)g->cpu_milli / 1000.0;
    double pref = cluster_nodes <= 2 ? 1 : cluster_nodes <= 6 ? 2 : cluster_nodes <= 20 ? 4
                  : cluster_nodes <= 60 ? 8 : cluster_nodes <= 200 ? 16 : 32;
    double unfit = ncpu > 0 ? (pref > ncpu ? pref / ncpu : ncpu / pref) : 1;
    if (g->gpus > 0) unfit = 1000;
    double node_price = g->as->price * (double)o->nodes, price = 0, cpus = 0;
    for (size_t k = 0; k < ca->ngroups; k++) {
        price += ca->groups[k].as->price;
        cpus += (double)ca->groups[k].cpu_milli / 1000.0;
    }
    double per_cpu = cpus > 0 ? price / cpus : 0;
    double pod_price = per_cpu * (double)o->cpu_req / 1000.0, stab = per_cpu * 0.5;
    if (pod_price + stab <= 0) return unfit;
    return unfit * (node_price + stab) / (pod_price + stab);
}

static bool name_matches(const char *name, const ca_priority *p) {
    for (size_t k = 0; k < p->nregex; k++) {
        regex_t re;
        if (regcomp(&re, p->regex[k], REG_EXTENDED | REG_NOSUB)) continue;
        bool m = regexec(&re, name, 0, NULL, 0) == 0;
        regfree(&re);
        if (m) return true;
    }
    return false;
}

/* One expander over options [0, n): keeps the best ones (in order); returns how many. */
static size_t expand(ca_run *ca, ca_expander e, option *o, size_t n, size_t cluster_nodes) {
    if (n <= 1) return n;
    double *score = xmalloc(n * sizeof *score);
    for (size_t i = 0; i < n; i++) {
        const ca_group *g = &ca->groups[o[i].group];
        switch (e) {
        case EXP_MOST_PODS: score[i] = -(double)o[i].pods; break;
        case EXP_LEAST_WASTE: score[i] = waste(ca, &o[i]); break;
        case EXP_LEAST_NODES: score[i] = (double)o[i].nodes; break;
        case EXP_PRICE: score[i] = price_score(ca, &o[i], cluster_nodes); break;
        case EXP_PRIORITY: {   /* the highest priority whose regexes match the group; none = dropped */
            double best = INFINITY;
            for (size_t k = 0; k < ca->cfg->npriorities; k++)
                if (name_matches(g->pool->name, &ca->cfg->priorities[k]) && -(double)ca->cfg->priorities[k].priority < best)
                    best = -(double)ca->cfg->priorities[k].priority;
            score[i] = best;
            break;
        }
        case EXP_RANDOM:
        default: score[i] = 0; break;
        }
    }
    if (e == EXP_RANDOM) {   /* one option, drawn from the autoscaler's own stream */
        size_t k = (size_t)rng_below(&ca->rng, n);
        o[0] = o[k];
        free(score);
        return 1;
    }
    double best = INFINITY;
    for (size_t i = 0; i < n; i++)
        if (score[i] < best) best = score[i];
    size_t m = 0;
    if (best == INFINITY) m = n;   /* priority: no option matches any regex -- keep them all */
    else
        for (size_t i = 0; i < n; i++)
            if (fabs(score[i] - best) <= 1e-12 * (fabs(best) > 1 ? fabs(best) : 1)) o[m++] = o[i];
    free(score);
    return m;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Pods a queue manager holds and marked unschedulable, counted per class
 * (held_pod): pending, older than new-pod-scale-up-delay, not expendable. */
typedef struct held_acc {
    const ca_run *ca;
    sim_time t;
    uint32_t *count;                  /* per class */
    bool any;
} held_acc;

static void held_pod(void *ud, uint32_t cls, const uint32_t *pods, size_t n) {
    held_acc *h = ud;
    const sim_run *r = h->ca->r;
    const scheduler *s = &r->sched;
    if (cls >= s->nclasses || s->classes[cls].priority < h->ca->cfg->expendable_priority_cutoff) return;
    for (size_t i = 0; i < n; i++) {
        const sim_pod *p = &r->pods.data[pods[i]];
        if (p->state != POD_PENDING || h->t - p->arrival < h->ca->cfg->new_pod_scale_up_delay) continue;
        h->count[cls]++;
        h->any = true;
    }
}

/* The held pods that fit on no ready node now join the candidates (their
 * what-if placements on the ready nodes go to `kept`, undone with the
 * trial); CA's FilterOutSchedulable drops the others. It schedules them into
 * its cluster snapshot (filterOutSchedulableByPacking -> TrySchedulePods on
 * autoscalingCtx.ClusterSnapshot, not reverted) and RunOnce plans scale-down
 * on that snapshot after scale-up (core/static_autoscaler.go): a node a held
 * pod was placed on is marked (ca->hint) and is not unneeded in this scan. */
static void add_held(ca_run *ca, held_acc *h, cand_vec *cands, placement_vec *kept, ca_podvec *kcls) {
    scheduler *s = &ca->r->sched;
    ca_podvec ready = {0};
    for (size_t n = 0; n < s->nnodes; n++)
        if (sched_node_present(s, n)) VEC_PUSH(ready, (uint32_t)n);
    for (uint32_t c = 0; c < s->nclasses; c++) {
        if (!h->count[c]) continue;
        size_t cursor = 0, before = kept->len;
        uint32_t left = h->count[c] - place_on(ca, c, h->count[c], ready.data, ready.len, &cursor, kept);
        for (size_t k = before; k < kept->len; k++) {
            VEC_PUSH(*kcls, c);
            uint32_t n = (uint32_t)kept->data[k].node;
            if (!ca->hint) ca->hint = xcalloc(s->nnodes ? s->nnodes : 1, 1);
            if (!ca->hint[n]) {
                ca->hint[n] = 1;
                VEC_PUSH(ca->hinted, n);
            }
        }
        if (left) {
            cand cd = {c, left};
            VEC_PUSH(*cands, cd);
        }
    }
    VEC_FREE(ready);
}

/* Pending pods no node group took get one no-scale-up event per class (not
 * while every group is backed off, which passes; CA records
 * NotTriggerScaleUp on the pod: "pod didn't trigger scale-up",
 * core/scaleup/orchestrator/orchestrator.go, 1.36), so a run where the
 * autoscaler could not help says so. The reason: every group is at its max
 * or the cluster limits; or a group would take them on an empty node but
 * its room went to other pending pods first (out_of_room); or they fit no
 * group's empty template node. */
static void note_no_scale_up(ca_run *ca, const cand *cands, size_t n, const uint8_t *placed_any,
                             const uint8_t *out_of_room, size_t groups_tried, sim_time t) {
    const scheduler *s = &ca->r->sched;
    while (ca->no_scale_up.len < s->nclasses) VEC_PUSH(ca->no_scale_up, 0);
    for (size_t i = 0; i < n; i++) {
        uint32_t c = cands[i].cls;
        if (!cands[i].count || placed_any[i] || ca->no_scale_up.data[c]) continue;
        ca->no_scale_up.data[c] = 1;
        strbuf why = {0};
        sb_printf(&why, "%u pending pod(s) of %s didn't trigger scale-up: %s", cands[i].count, s->classes[c].name,
                  !groups_tried     ? "no node group could grow (at its max size or the cluster limits)"
                  : out_of_room[i] ? "the room of the node groups that fit them (max size, max-nodes-per-scaleup, "
                                     "cluster limits) went to other pending pods"
                                   : "they fit no node group's template node");
        ca_event_add(ca, t, CA_NO_GROUP, CAE_NO_SCALE_UP, 0, -1, sb_str(&why));
        sb_free(&why);
    }
}

void ca_scale_up(ca_run *ca, sim_time t) {
    sim_run *r = ca->r;
    scheduler *s = &r->sched;
    const autoscaler_spec *cfg = ca->cfg;
    cand_vec cands = {0};
    for (size_t c = 0; c < s->nclasses; c++) {
        pod_class *pc = &s->classes[c];
        if (!sched_waiting(s, (uint32_t)c) || !pc->blocked || !pc->prefiltered) continue;
        if (pc->priority < cfg->expendable_priority_cutoff) continue;   /* expendable pods never scale up */
        uint32_t count = cfg->new_pod_scale_up_delay ? 0 : (uint32_t)sched_waiting(s, (uint32_t)c);
        for (size_t k = pc->head; cfg->new_pod_scale_up_delay && k < pc->len; k++) {
            const sim_pod *p = &r->pods.data[pc->pending[k]];
            if (p->state == POD_PENDING && t - p->arrival >= cfg->new_pod_scale_up_delay) count++;
        }
        if (count) {
            cand cd = {(uint32_t)c, count};
            VEC_PUSH(cands, cd);
        }
    }
    for (size_t i = 0; i < ca->hinted.len; i++) ca->hint[ca->hinted.data[i]] = 0;   /* this scan's hints only */
    ca->hinted.len = 0;
    held_acc held = {ca, t, NULL, false};
    if (r->gate && r->gate->unschedulable) {
        held.count = xcalloc(s->nclasses ? s->nclasses : 1, sizeof *held.count);
        r->gate->unschedulable(r->gate->ctx, held_pod, &held);
    }
    if (!cands.len && !held.any) {
        free(held.count);
        VEC_FREE(cands);
        return;
    }
    ca_trial_begin(ca);
    placement_vec upcoming = {0}, trial = {0};
    ca_podvec up_cls = {0};
    VEC(uint32_t) tr_cls = {0};
    if (held.any) add_held(ca, &held, &cands, &upcoming, &up_cls);
    free(held.count);
    /* pods that fit on nodes already coming up do not ask for more */
    VEC(uint32_t) upn = {0};
    for (size_t i = 0; i < ca->upcoming.len; i++) VEC_PUSH(upn, ca->upcoming.data[i]);
    if (upn.len > 1) qsort(upn.data, upn.len, sizeof *upn.data, cmp_u32);   /* in node order */
    for (size_t i = 0; i < cands.len && upn.len; i++) {
        size_t cursor = 0, before = upcoming.len;
        cands.data[i].count -= place_on(ca, cands.data[i].cls, cands.data[i].count, upn.data, upn.len, &cursor, &upcoming);
        for (size_t k = before; k < upcoming.len; k++) VEC_PUSH(up_cls, cands.data[i].cls);
    }
    double cores = ca->cores, gib = ca->gib, gpus = ca->gpus;
    VEC(option) opts = {0};
    VEC(uint32_t) absent = {0};
    int64_t wanted = 0;
    for (size_t i = 0; i < cands.len; i++) wanted += cands.data[i].count;
    uint8_t *placed_any = xcalloc(cands.len, 1), *out_of_room = xcalloc(cands.len, 1);
    size_t groups_tried = 0, groups_full = 0;
    for (size_t gi = 0; gi < ca->ngroups && wanted > 0; gi++) {
        ca_group *g = &ca->groups[gi];
        if (g->backoff_until > t) continue;
        int64_t room = group_room(ca, g, cores, gib, gpus);
        if (room <= 0) {
            groups_full++;
            continue;
        }
        groups_tried++;
        absent.len = 0;
        while (g->absent_hint < g->first + g->n && ca->state[g->absent_hint] != CA_ABSENT) g->absent_hint++;
        for (size_t n = g->absent_hint; n < g->first + g->n && (int64_t)absent.len < room; n++)
            if (ca->state[n] == CA_ABSENT) VEC_PUSH(absent, (uint32_t)n);
        option o = {.group = (uint32_t)gi};
        size_t opened = 0;   /* nodes [0, opened) of `absent` hold pods; the last one is the open bin */
        for (size_t i = 0; i < cands.len; i++) {
            uint32_t ci = cands.data[i].cls, left = cands.data[i].count;
            while (left > 0) {
                placement p;
                if (opened && sched_try_bind(s, ci, absent.data[opened - 1], ca_trial_pod(ca), &p)) {
                    VEC_PUSH(trial, p);
                    VEC_PUSH(tr_cls, ci);
                    left--;
                    continue;
                }
                if (opened == absent.len) {   /* the group's room is used up */
                    out_of_room[i] = 1;
                    break;
                }
                if (!sched_try_bind(s, ci, absent.data[opened], ca_trial_pod(ca), &p)) break;   /* not even an empty node */
                opened++;
                VEC_PUSH(trial, p);
                VEC_PUSH(tr_cls, ci);
                left--;
            }
            uint32_t placed = cands.data[i].count - left;
            if (placed) placed_any[i] = 1;
            o.pods += placed;
            o.cpu_req += (int64_t)placed * class_cpu(&s->classes[ci]);
            o.mem_req += (int64_t)placed * class_mem(&s->classes[ci]);
        }
        o.nodes = (int64_t)opened;
        for (size_t k = trial.len; k-- > 0;) sched_release(s, tr_cls.data[k], &trial.data[k]);
        trial.len = tr_cls.len = 0;
        if (o.pods > 0) VEC_PUSH(opts, o);
    }
    for (size_t k = upcoming.len; k-- > 0;) sched_release(s, up_cls.data[k], &upcoming.data[k]);
    ca_trial_end(ca);
    if (groups_tried || groups_full) note_no_scale_up(ca, cands.data, cands.len, placed_any, out_of_room, groups_tried, t);
    free(placed_any);
    free(out_of_room);
    if (opts.len) {
        size_t n = opts.len, cluster_nodes = 0;
        if (opts.len > 1)
            for (size_t i = 0; i < r->nnodes; i++) cluster_nodes += ca->node_group[i] < 0 || ca->state[i] != CA_ABSENT;
        for (size_t k = 0; k < cfg->nexpanders && n > 1; k++) n = expand(ca, cfg->expanders[k], opts.data, n, cluster_nodes);
        if (n > 1) n = expand(ca, EXP_RANDOM, opts.data, n, cluster_nodes);   /* a remaining tie: at random */
        option *o = &opts.data[0];
        ca_group *g = &ca->groups[o->group];
        int64_t added = 0;
        for (size_t i = g->absent_hint; i < g->first + g->n && added < o->nodes; i++)
            if (ca->state[i] == CA_ABSENT) {
                ca_provision(ca, i, t);
                added++;
            }
        g->scale_ups++;
        g->nodes_added += added;
        ca->last_scale_up = t;
        strbuf why = {0};
        sb_printf(&why, "%lld pending pod(s) fit no node; %lld fit %lld new node(s) of %s (expander %s",
                  (long long)wanted, (long long)o->pods, (long long)added, g->pool->name,
                  ca_expander_name(cfg->expanders[0]));
        for (size_t k = 1; k < cfg->nexpanders; k++) sb_printf(&why, ",%s", ca_expander_name(cfg->expanders[k]));
        sb_printf(&why, ", %zu option(s))", opts.len);
        ca_event_add(ca, t, o->group, CAE_SCALE_UP, (int32_t)added, -1, sb_str(&why));
        sb_free(&why);
    }
    VEC_FREE(opts);
    VEC_FREE(absent);
    VEC_FREE(upn);
    VEC_FREE(upcoming);
    VEC_FREE(trial);
    VEC_FREE(up_cls);
    VEC_FREE(tr_cls);
    VEC_FREE(cands);
}
