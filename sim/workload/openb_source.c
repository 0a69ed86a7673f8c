/* openb_source.c -- an OpenB trace as a workload source of the engine (see
 * openb_run.h): arrivals in the trace's order and times, each tried at
 * once; after every arrival's attempt and every pod's end an event of the
 * arrival curve (the artifact's [Alloc] and [Report] lines); at the end the
 * curve and the trace's summary metrics. */
#include <stdlib.h>

#include "engine/sim.h"
#include "util/vec.h"
#include "util/xalloc.h"
#include "workload/attach.h"
#include "model/openb_trace.h"
#include "workload/openb_run.h"

typedef struct trace_source {
    int id;
    const trace_spec *t;
    VEC(openb_event) events;
    int64_t arrived_milli;
    bool artifact;
} trace_source;

/* The cluster's fragmentation now: the exact sum of F_n in node order (the
 * view's running sum drifts in the last bits; the artifact logs the sum). */
static double frag_exact(const gpu_view *v) {
    double f = 0;
    for (size_t i = 0; i < v->nnodes; i++) f += v->frag[i];
    return f;
}

/* What the artifact logs of it: Python's round(frag_exact, 2), mostly read
 * off the view's exact fixed-point sum in O(1) (frag.h frag_fixed_round2). */
static double frag_logged(const gpu_view *v) {
    double r;
    if (v->frag_fixed_on && frag_fixed_round2(&v->frag_fixed, v->nnodes, &r)) return r;
    return openb_py_round2(frag_exact(v));
}

static void record_event(sim_run *r, trace_source *ts) {
    gpu_view *v = &r->sched.gv;
    gpu_view_sync(v);
    double cap = (double)v->total_milli;
    openb_event e = {.arrived_milli = ts->arrived_milli, .used_milli = v->used_milli};
    if (ts->artifact) e.frag_milli = frag_logged(v);   /* logged with %.2f */
    if (cap > 0) {
        e.arrived_pct = 100.0 * (double)ts->arrived_milli / cap;
        e.alloc_pct = 100.0 * (double)v->used_milli / cap;
        e.frag_pct = 100.0 * v->frag_total / cap;
    }
    e.frag_ratio_pct = v->idle_milli > 0 ? 100.0 * v->frag_total / (double)v->idle_milli : 0;
    VEC_PUSH(ts->events, e);
}

static int trace_start(sim_run *r, void *ctx) {
    trace_source *ts = ctx;
    if (ts->artifact) gpu_view_keep_frag_sum(&r->sched.gv);   /* frag_logged reads it after every event */
    if (ts->t->nseq) sim_schedule_source(r, ts->id, ts->t->seq_time[0], 0);
    return 0;
}

/* Arrival k of the trace's sequence: the pod arrives and is tried at once. */
static int trace_event(sim_run *r, void *ctx, uint64_t k, sim_time now) {
    trace_source *ts = ctx;
    const trace_spec *t = ts->t;
    uint32_t tp = t->seq[k];
    sim_arrive(r, ts->id, t->pod_group[tp], NULL, t->seq_duration[k], now);
    ts->arrived_milli += openb_pod_gpu_milli(&t->pods[tp]);
    sim_schedule_now(r, now);
    record_event(r, ts);
    if (k + 1 < t->nseq) sim_schedule_source(r, ts->id, t->seq_time[k + 1], k + 1);
    return 0;
}

static int trace_finished(sim_run *r, void *ctx, uint32_t pod, sim_time t) {
    (void)pod;
    (void)t;
    record_event(r, ctx);
    return 0;
}

static void trace_summarize(sim_run *r, void *ctx) {
    trace_source *ts = ctx;
    gpu_view *v = &r->sched.gv;
    gpu_view_sync(v);
    double cap = (double)v->total_milli, frag = frag_exact(v);
    if (ts->artifact) openb_arrival_curve_artifact(ts->events.data, ts->events.len, v->total_milli / GS_MILLI, r);
    else openb_arrival_curve(ts->events.data, ts->events.len, r);
    sim_metric_add(r, "gpu_milli_alloc_pct_end", cap > 0 ? 100.0 * (double)v->used_milli / cap : 0);
    sim_metric_add(r, "frag_gpu_pct_end", cap > 0 ? 100.0 * frag / cap : 0);
    sim_metric_add(r, "frag_ratio_pct_end", v->idle_milli > 0 ? 100.0 * frag / (double)v->idle_milli : 0);
    sim_metric_add(r, "arrived_gpu_pct", cap > 0 ? 100.0 * (double)ts->arrived_milli / cap : 0);
    sim_metric_add(r, "typical_pods", (double)r->sched.typical_in->n);
    sim_metric_add(r, "typical_pods_coverage_pct", r->sched.typical_in->coverage_pct);
    sim_metric_add(r, "policy_score_calls", (double)r->sched.policy_score_calls);
}

static void trace_free(void *ctx) {
    trace_source *ts = ctx;
    VEC_FREE(ts->events);
    free(ts);
}

int trace_source_attach(sim_run *r) {
    trace_source *ts = xcalloc(1, sizeof *ts);
    ts->t = r->sc->trace;
    ts->artifact = ts->t->artifact && ts->t->node_rank;
    sim_source src = {.ctx = ts, .start = trace_start, .event = trace_event, .finished = trace_finished,
                      .summarize = trace_summarize, .free = trace_free};
    int id = ts->id = sim_add_source(r, &src);
    if (id < 0) trace_free(ts);
    return id;
}
