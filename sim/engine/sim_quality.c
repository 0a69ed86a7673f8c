/*
 * sim_quality.c -- summary metrics of the placement-quality samples
 * (sim_run.sample_gpu, sched/policies/gpu_metrics.h; docs/SCHEMA.md, summary).
 *
 * Time-weighted means treat each sample as holding until the next one (the
 * last sample, at the end of the run, has no weight); when the samples span
 * no time the plain mean is taken. A metric already in the summary (trace
 * runs write frag_gpu_pct_end and frag_ratio_pct_end, dynamic-MIG runs
 * frag_mig_pct_mean and frag_mig_pct_end) is not written again.
 */
#include <math.h>
#include <stdio.h>

#include "engine/sim.h"

static double frag_pct(const gpu_metrics *g) { return gpu_metrics_frag_pct(g); }
static double frag_ratio_pct(const gpu_metrics *g) { return gpu_metrics_frag_ratio_pct(g); }
static double stranded(const gpu_metrics *g) { return g->stranded_gpus; }
static double mig_pct(const gpu_metrics *g) { return g->mig_frag_pct; }
static double idle_total(const gpu_metrics *g) { return g->idle_total; }
static double idle_usable(const gpu_metrics *g) { return g->idle_usable; }
static double idle_mig_layout(const gpu_metrics *g) { return g->idle_mig_layout; }
static double idle_fragmented(const gpu_metrics *g) { return g->idle_fragmented; }
static double idle_unavailable(const gpu_metrics *g) { return g->idle_unavailable; }

typedef double (*measure)(const gpu_metrics *);

/* Time-weighted mean of f over the samples where it is >= 0 (all when
 * !skip_negative); NAN when there is none. */
static double time_mean(const sim_run *r, measure f, bool skip_negative) {
    size_t n = r->sample_gpu.len < r->samples.len ? r->sample_gpu.len : r->samples.len;
    double area = 0, span = 0, sum = 0;
    size_t cnt = 0;
    for (size_t i = 0; i < n; i++) {
        double v = f(&r->sample_gpu.data[i]);
        if (skip_negative && v < 0) continue;
        double w = i + 1 < n ? (double)(r->samples.data[i + 1].t - r->samples.data[i].t) : 0;
        area += v * w;
        span += w;
        sum += v;
        cnt++;
    }
    if (!cnt) return NAN;
    return span > 0 ? area / span : sum / (double)cnt;
}

static void add_new(sim_run *r, const char *name, double value) {
    if (!isnan(value) && isnan(sim_metric_get(r, name))) sim_metric_add(r, name, value);
}

void sim_quality_summary(sim_run *r) {
    size_t n = r->sample_gpu.len < r->samples.len ? r->sample_gpu.len : r->samples.len;
    if (!n) return;
    const gpu_metrics *end = &r->sample_gpu.data[n - 1];
    add_new(r, "frag_gpu_pct_mean", time_mean(r, frag_pct, false));
    add_new(r, "frag_gpu_pct_end", frag_pct(end));
    add_new(r, "frag_ratio_pct_mean", time_mean(r, frag_ratio_pct, false));
    add_new(r, "frag_ratio_pct_end", frag_ratio_pct(end));
    add_new(r, "stranded_gpus_mean", time_mean(r, stranded, false));
    double smax = 0;
    for (size_t i = 0; i < n; i++) smax = fmax(smax, r->sample_gpu.data[i].stranded_gpus);
    add_new(r, "stranded_gpus_max", smax);
    for (int k = 0; k < GPU_METRICS_NFIT; k++) {
        int64_t lo = r->sample_gpu.data[0].nodes_fit[k];
        for (size_t i = 1; i < n; i++)
            if (r->sample_gpu.data[i].nodes_fit[k] < lo) lo = r->sample_gpu.data[i].nodes_fit[k];
        char name[32];
        snprintf(name, sizeof name, "nodes_fit_%d_min", gpu_metrics_fit_size(k));
        add_new(r, name, (double)lo);
        snprintf(name, sizeof name, "nodes_fit_%d_end", gpu_metrics_fit_size(k));
        add_new(r, name, (double)end->nodes_fit[k]);
    }
    add_new(r, "idle_gpus_mean", time_mean(r, idle_total, false));
    add_new(r, "idle_usable_gpus_mean", time_mean(r, idle_usable, false));
    add_new(r, "idle_mig_layout_gpus_mean", time_mean(r, idle_mig_layout, false));
    add_new(r, "idle_fragmented_gpus_mean", time_mean(r, idle_fragmented, false));
    add_new(r, "idle_unavailable_gpus_mean", time_mean(r, idle_unavailable, false));
    add_new(r, "frag_mig_pct_mean", time_mean(r, mig_pct, true));
    if (end->mig_frag_pct >= 0) add_new(r, "frag_mig_pct_end", end->mig_frag_pct);
}
