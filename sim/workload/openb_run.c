/* openb_run.c -- the trace-run driver and the arrival curve (see openb_run.h). */
#include "workload/openb_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/dra_openb.h"
#include "sched/policy.h"
#include "util/intern.h"
#include "util/xalloc.h"
#include "workload/openb.h"

#define OPENB_MAX_PODS 1001  /* the artifact's node YAMLs allow 1001 pods */

void openb_k8s_nodes(const trace_spec *t, arena *a, k8s_node **out, size_t *n) {
    k8s_node *nodes = ARENA_NEW(a, k8s_node, t->nnodes ? t->nnodes : 1);
    char buf[64];
    const char *qerr;
    for (size_t i = 0; i < t->nnodes; i++) {
        const openb_node *o = &t->nodes[i];
        k8s_node *k = &nodes[i];
        k->meta.name = intern(o->name);
        k->meta.file = t->nodes_file;
        if (*o->model) {
            k->meta.labels = ARENA_NEW(a, k8s_kv, 1);
            k->meta.nlabels = 1;
            k->meta.labels[0] = (k8s_kv){intern("alibabacloud.com/gpu-card-model"), intern(o->model)};
        }
        k->allocatable = ARENA_NEW(a, k8s_resource_amount, 4);
        snprintf(buf, sizeof buf, "%lldm", (long long)o->cpu_milli);
        k->allocatable[0].name = intern("cpu");
        quantity_parse(buf, strlen(buf), &k->allocatable[0].value, &qerr);
        snprintf(buf, sizeof buf, "%lldMi", (long long)o->memory_mib);
        k->allocatable[1].name = intern("memory");
        quantity_parse(buf, strlen(buf), &k->allocatable[1].value, &qerr);
        k->allocatable[2].name = intern("pods");   /* the artifact's node YAMLs allow 1001 pods */
        k->allocatable[2].value = quantity_from_int64(OPENB_MAX_PODS, QF_DECIMAL_SI);
        k->nallocatable = 3;
        if (o->gpus > 0) {
            k->allocatable[3].name = intern("alibabacloud.com/gpu-milli");
            k->allocatable[3].value = quantity_from_int64((int64_t)o->gpus * 1000, QF_DECIMAL_SI);
            k->nallocatable = 4;
        }
        k->capacity = k->allocatable;
        k->ncapacity = k->nallocatable;
    }
    *out = nodes;
    *n = t->nnodes;
}

void openb_node_info(const trace_spec *t, arena *a, inv_node **out) {
    inv_node *info = ARENA_NEW(a, inv_node, t->nnodes ? t->nnodes : 1);
    gpu_model *models = ARENA_NEW(a, gpu_model, t->nnodes ? t->nnodes : 1);
    size_t nm = 0;
    for (size_t i = 0; i < t->nnodes; i++) {
        const openb_node *o = &t->nodes[i];
        info[i].gpus = o->gpus;
        if (o->gpus <= 0 || !*o->model) continue;
        size_t m = 0;
        while (m < nm && strcmp(models[m].key, o->model)) m++;
        if (m == nm) models[nm++].key = o->model;
        info[i].gpu = &models[m];
    }
    *out = info;
}

/* Model ids: distinct node GPU models in node order (at most 64). */
static int model_id(const char **models, int *nmodels, const char *m) {
    if (!m || !*m) return -1;
    for (int i = 0; i < *nmodels; i++)
        if (!strcmp(models[i], m)) return i;
    if (*nmodels == 64) return -1;
    models[*nmodels] = m;
    return (*nmodels)++;
}

static uint64_t spec_mask(const char **models, int nmodels, const char *spec) {
    if (!spec || !*spec) return ~(uint64_t)0;
    uint64_t m = 0;
    for (int i = 0; i < nmodels; i++)
        if (openb_spec_allows(spec, models[i])) m |= (uint64_t)1 << i;
    return m;
}

void openb_arrival_curve(const openb_event *ev, size_t n, sim_run *r) {
    if (!n) return;
    int maxx = 0;
    int *rounded = xmalloc(n * sizeof *rounded);
    for (size_t i = 0; i < n; i++) {
        rounded[i] = (int)nearbyint(ev[i].arrived_pct);   /* half to even, as Python's round() */
        if (rounded[i] > maxx) maxx = rounded[i];
    }
    for (int x = 0; x <= maxx; x++) {
        double a = 0, f = 0, fr = 0;
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (rounded[i] == x) {
                a += nearbyint(ev[i].alloc_pct * 100.0) / 100.0;
                f += ev[i].frag_pct;
                fr += ev[i].frag_ratio_pct;
                k++;
            }
        if (!k)
            for (size_t i = 0; i < n; i++)
                if (ev[i].arrived_pct >= x - 1 && ev[i].arrived_pct <= x + 1) {
                    a += nearbyint(ev[i].alloc_pct * 100.0) / 100.0;
                    f += ev[i].frag_pct;
                    fr += ev[i].frag_ratio_pct;
                    k++;
                }
        if (!k) continue;
        sim_curve_point p = {x, a / (double)k, f / (double)k, fr / (double)k};
        VEC_PUSH(r->curve, p);
    }
    free(rounded);
}

double openb_py_round2(double x) {
    char buf[64];
    snprintf(buf, sizeof buf, "%.2f", x);   /* glibc prints the exact binary value, rounded half to even */
    return strtod(buf, NULL);
}

double openb_np_sum(const double *a, size_t n) {
    if (n < 8) {
        double res = 0.;
        for (size_t i = 0; i < n; i++) res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8], res;
        size_t i;
        for (int j = 0; j < 8; j++) r[j] = a[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++) r[j] += a[i + j];
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) res += a[i];
        return res;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return openb_np_sum(a, n2) + openb_np_sum(a + n2, n - n2);
}

void openb_arrival_curve_artifact(const openb_event *ev, size_t n, int64_t gpus, sim_run *r) {
    if (!n || gpus <= 0) return;
    double g = (double)gpus;
    int *x = xmalloc(n * sizeof *x);
    double *alloc = xmalloc(n * sizeof *alloc), *va = xmalloc(n * sizeof *va), *vf = xmalloc(n * sizeof *vf);
    double *vr = xmalloc(n * sizeof *vr);
    for (size_t i = 0; i < n; i++) {
        x[i] = (int)nearbyint((double)ev[i].arrived_milli / g / 10);   /* exact value: Python's round(x, 0) */
        alloc[i] = openb_py_round2((double)ev[i].used_milli / g / 10);
    }
    for (int col = 0; col <= 130; col++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (x[i] == col) {
                va[k] = alloc[i];
                vr[k] = ev[i].frag_ratio_pct;
                vf[k++] = ev[i].frag_milli;
            }
        if (!k)
            for (size_t i = 0; i < n; i++)
                if (x[i] >= col - 1 && x[i] <= col + 1) {
                    va[k] = alloc[i];
                    vr[k] = ev[i].frag_ratio_pct;
                    vf[k++] = ev[i].frag_milli;
                }
        if (!k) continue;
        double ma = openb_np_sum(va, k) / (double)k, mf = openb_np_sum(vf, k) / (double)k;
        double fr = 100 * mf / 1000 / g;
        double mr = openb_np_sum(vr, k) / (double)k;   /* fragmentation ratio: not published, plain mean */
        sim_curve_point p = {col, nearbyint(ma * 100) / 100, nearbyint(fr * 100) / 100, mr};
        VEC_PUSH(r->curve, p);
    }
    free(x);
    free(alloc);
    free(va);
    free(vf);
    free(vr);
}

typedef struct run_state {
    sim_run *r;
    const trace_spec *t;
    policy_sched ps;
    struct dra_openb *dra;           /* DRA mode: the allocator picks the GPUs (sched/dra_openb.h) */
    uint64_t dra_moved;              /* placements whose GPUs differ from the policy's choice */
    gs_pod *shapes;
    int32_t *ordinal_next;           /* per group */
    VEC(uint32_t) waiting;           /* pod ids that found no node, in arrival order */
    VEC(openb_event) events;
    int64_t arrived_milli, total_milli;
    bool artifact;                   /* profile openb-artifact */
    gorand go;                       /* its random stream (Random's draws) */
} run_state;

static void record_event(run_state *st) {
    double cap = (double)st->total_milli;
    openb_event e = {.arrived_milli = st->arrived_milli, .used_milli = st->ps.used_milli};
    if (st->artifact) e.frag_milli = openb_py_round2(policy_sched_frag(&st->ps));   /* logged with %.2f */
    if (cap > 0) {
        e.arrived_pct = 100.0 * (double)st->arrived_milli / cap;
        e.alloc_pct = 100.0 * (double)st->ps.used_milli / cap;
        e.frag_pct = 100.0 * st->ps.frag_total / cap;
    }
    e.frag_ratio_pct = st->ps.idle_milli > 0 ? 100.0 * st->ps.frag_total / (double)st->ps.idle_milli : 0;
    VEC_PUSH(st->events, e);
}

/* One scheduling attempt for pod `id`; true when bound. */
static bool try_pod(run_state *st, uint32_t id, sim_time t) {
    sim_run *r = st->r;
    sim_pod *p = &r->pods.data[id];
    pod_class *c = &r->sched.classes[p->group];
    int32_t node;
    uint32_t gpus;
    c->attempts++;
    if (!policy_sched_place(&st->ps, p->group, &node, &gpus)) {
        c->failures++;
        return false;
    }
    if (st->dra) {   /* the allocator allocates on the policy's node: the policy's GPUs, or its own first fit */
        uint32_t dev;
        uint32_t prefer = r->sc->sched.device_by_allocator ? 0 : gpus;
        if (dra_openb_allocate(st->dra, id, p->group, (size_t)node, prefer, &dev) && dev != gpus) {
            policy_sched_move(&st->ps, p->group, node, gpus, dev);
            gpus = dev;
            st->dra_moved++;
        }
    }
    p->node = node;
    p->start = t;
    p->state = POD_RUNNING;
    if (c->next) r->units[r->units_base[p->group] + (size_t)p->ordinal * c->next] = gpus;
    r->running++;
    sim_account(r, p->group, +1);
    if (p->duration != SIM_TIME_NEVER) {
        evq_push(&r->q, t + p->duration, EV_COMPLETION, id);
        r->live_events++;
    }
    return true;
}

static void sample(sim_run *r, sim_time t, int64_t pending) {
    sim_sample s = {.t = t, .pending = pending, .running = r->running, .gpu_equiv = r->cur_gpu_equiv};
    VEC_PUSH(r->samples, s);
    for (size_t k = 0; k < r->sched.nres; k++) VEC_PUSH(r->sample_used, r->tot_used[k]);
}

int openb_execute(sim_run *r, volatile sig_atomic_t *interrupt) {
    const scenario *sc = r->sc;
    const trace_spec *t = sc->trace;
    const policy *pol = policy_find(sc->sched.policy ? sc->sched.policy : "fgd");
    run_state st = {.r = r, .t = t};
    /* models, nodes, shapes, typical pods */
    const char *models[64];
    int nmodels = 0;
    gs_node *nodes = xmalloc((t->nnodes ? t->nnodes : 1) * sizeof *nodes);
    const char **names = xmalloc((t->nnodes ? t->nnodes : 1) * sizeof *names);
    for (size_t i = 0; i < t->nnodes; i++) {
        const openb_node *o = &t->nodes[i];
        gs_node_init(&nodes[i], o->cpu_milli, o->memory_mib, OPENB_MAX_PODS, o->gpus, model_id(models, &nmodels, o->model));
        names[i] = o->name;
        st.total_milli += (int64_t)nodes[i].ngpu * GS_MILLI;
    }
    st.shapes = xcalloc(sc->ngroups ? sc->ngroups : 1, sizeof *st.shapes);
    for (size_t g = 0; g < sc->ngroups; g++) {
        const openb_pod *p = &t->pods[t->group_pod[g]];
        st.shapes[g] = (gs_pod){.cpu = p->cpu_milli ? p->cpu_milli : 100, .mem = p->memory_mib, .ngpu = p->num_gpu,
                                .milli = p->gpu_milli, .models = spec_mask(models, nmodels, p->gpu_spec)};
    }
    frag_pod_in *in = xmalloc((t->npods ? t->npods : 1) * sizeof *in);
    for (size_t i = 0; i < t->npods; i++) {
        const gs_pod *s = &st.shapes[t->pod_group[i]];
        in[i] = (frag_pod_in){s->cpu, s->milli, s->ngpu, t->pods[i].gpu_spec, s->models};
    }
    frag_typical typical;
    frag_typical_build(in, t->npods, t->typical_pct, true, &typical);
    free(in);
    st.artifact = t->artifact && t->node_rank;
    if (st.artifact) frag_typical_artifact(&typical);
    policy_sched_init(&st.ps, pol, nodes, names, t->nnodes, st.shapes, sc->ngroups, &typical, sc->seed);
    if (st.artifact) {
        policy_sched_set_tie_order(&st.ps, t->node_rank);
        st.go = *t->go_after;
        policy_sched_use_gorand(&st.ps, &st.go);
    }
    if (sc->sched.mode == SCHED_MODE_DRA)
        st.dra = dra_openb_new(t, r->nodes, st.shapes, sc->ngroups, models, nmodels, sc->seed);
    free(nodes);
    free(names);
    st.ordinal_next = xcalloc(sc->ngroups ? sc->ngroups : 1, sizeof *st.ordinal_next);

    /* the event loop */
    size_t next = 0;
    sim_time next_sample = 0;
    bool stopped = false;
    int rc = 0;
    if (t->nseq) {
        evq_push(&r->q, t->seq_time[0], EV_ARRIVAL, 0);
        r->live_events++;
    }
    while (!evq_empty(&r->q)) {
        if (interrupt && *interrupt) { rc = -1; goto out; }
        sim_time now = evq_peek(&r->q)->time;
        if (now >= sc->stop_time) { stopped = true; break; }
        while (next_sample < now) {   /* samples due before now see the state before now's events */
            sim_advance(r, next_sample);
            sample(r, next_sample, (int64_t)st.waiting.len);
            next_sample += sc->sample_interval;
        }
        sim_advance(r, now);
        bool freed = false;
        while (!evq_empty(&r->q) && evq_peek(&r->q)->time == now && evq_peek(&r->q)->kind == EV_COMPLETION) {
            event e = evq_pop(&r->q);
            r->nevents++;
            r->live_events--;
            sim_pod *p = &r->pods.data[e.arg];
            const pod_class *c = &r->sched.classes[p->group];
            uint32_t gpus = c->next ? (uint32_t)r->units[r->units_base[p->group] + (size_t)p->ordinal * c->next] : 0;
            policy_sched_release(&st.ps, p->group, p->node, gpus);
            if (st.dra) dra_openb_release(st.dra, (uint32_t)e.arg);
            p->state = POD_SUCCEEDED;
            p->end = now;
            r->running--;
            sim_account(r, p->group, -1);
            record_event(&st);
            freed = true;
        }
        if (freed && st.waiting.len) {   /* retry the waiting pods, oldest first */
            size_t keep = 0;
            for (size_t i = 0; i < st.waiting.len; i++)
                if (!try_pod(&st, st.waiting.data[i], now)) st.waiting.data[keep++] = st.waiting.data[i];
            st.waiting.len = keep;
        }
        while (!evq_empty(&r->q) && evq_peek(&r->q)->time == now && evq_peek(&r->q)->kind == EV_ARRIVAL) {
            event e = evq_pop(&r->q);
            r->nevents++;
            r->live_events--;
            size_t k = (size_t)e.arg;
            uint32_t tp = t->seq[k], g = t->pod_group[tp];
            sim_pod p = {.arrival = now, .start = -1, .end = -1, .duration = t->seq_duration[k], .node = -1,
                         .group = g, .ordinal = (uint32_t)st.ordinal_next[g]++, .state = POD_PENDING};
            VEC_PUSH(r->pods, p);
            uint32_t id = (uint32_t)(r->pods.len - 1);
            st.arrived_milli += openb_pod_gpu_milli(&t->pods[tp]);
            if (!try_pod(&st, id, now)) VEC_PUSH(st.waiting, id);
            record_event(&st);
            if (++next < t->nseq) {
                evq_push(&r->q, t->seq_time[next], EV_ARRIVAL, next);
                r->live_events++;
            }
        }
    }
    r->end_time = stopped ? sc->stop_time : r->last_t;
    while (next_sample < r->end_time) {
        sim_advance(r, next_sample);
        sample(r, next_sample, (int64_t)st.waiting.len);
        next_sample += sc->sample_interval;
    }
    sim_advance(r, r->end_time);
    sample(r, r->end_time, (int64_t)st.waiting.len);
    for (size_t i = 0; i < st.waiting.len; i++) {
        uint32_t g = r->pods.data[st.waiting.data[i]].group;
        r->sched.classes[g].blocked = true;
        if (!r->class_reason[g]) {
            char buf[160];
            snprintf(buf, sizeof buf, "0/%zu nodes are available: no node has the CPU, memory and GPU room "
                     "(model, free milli-GPU) for this pod", t->nnodes);
            r->class_reason[g] = xstrdup(buf);
        }
    }
    if (st.artifact) openb_arrival_curve_artifact(st.events.data, st.events.len, st.total_milli / GS_MILLI, r);
    else openb_arrival_curve(st.events.data, st.events.len, r);
    sim_summarize(r);
    {
        double cap = (double)st.total_milli;
        sim_metric_add(r, "gpu_milli_alloc_pct_end", cap > 0 ? 100.0 * (double)st.ps.used_milli / cap : 0);
        sim_metric_add(r, "frag_gpu_pct_end", cap > 0 ? 100.0 * policy_sched_frag(&st.ps) / cap : 0);
        sim_metric_add(r, "frag_ratio_pct_end",
                       st.ps.idle_milli > 0 ? 100.0 * policy_sched_frag(&st.ps) / (double)st.ps.idle_milli : 0);
        sim_metric_add(r, "arrived_gpu_pct", cap > 0 ? 100.0 * (double)st.arrived_milli / cap : 0);
        sim_metric_add(r, "typical_pods", (double)typical.n);
        sim_metric_add(r, "typical_pods_coverage_pct", typical.coverage_pct);
        sim_metric_add(r, "policy_score_calls", (double)st.ps.score_calls);
        if (st.dra) {
            sim_metric_add(r, "dra_allocate_calls", (double)dra_openb_calls(st.dra));
            sim_metric_add(r, "dra_device_choice_differs", (double)st.dra_moved);
        }
    }
out:
    policy_sched_free(&st.ps);
    dra_openb_free(st.dra);
    frag_typical_free(&typical);
    free(st.shapes);
    free(st.ordinal_next);
    VEC_FREE(st.waiting);
    VEC_FREE(st.events);
    return rc;
}
