/*
 * sim_groups.c -- per-group summary metrics (docs/SCHEMA.md, summary).
 *
 * A group is every pod class with one name: a scenario pod group, a Lua
 * `group`, a trace's shape class. For each group, and for the whole run
 * (group NULL), it adds the waits at p90/p95 and the censored waits
 * (a pod that never started waits until the end of the run), and the
 * GPU-hours requested and allocated; for each group also the counts and
 * the started-only waits the whole run already has (engine/sim.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"
#include "sched/dra/dra.h"
#include "util/intern.h"
#include "util/xalloc.h"

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile q (0 < q <= 1) of n sorted values, in seconds. */
static double pct_s(const int64_t *v, size_t n, double q) {
    size_t k = (size_t)ceil(q * (double)n);
    return (double)v[k ? k - 1 : 0] / 1000.0;
}

static void add(sim_run *r, const char *group, const char *name, double v) {
    sim_metric m = {intern(name), v, group};
    VEC_PUSH(r->summary, m);
}

/* The groups in class order; cls_group[c] = index of class c's group. */
static void find_groups(sim_run *r, uint32_t *cls_group) {
    r->groups.len = 0;
    for (size_t c = 0; c < r->sched.nclasses; c++) {
        const char *name = r->sched.classes[c].name;
        size_t g = 0;
        while (g < r->groups.len && strcmp(r->groups.data[g].name, name)) g++;
        if (g == r->groups.len) {
            sim_group ng = {.name = intern(name), .first_class = (uint32_t)c};
            VEC_PUSH(r->groups, ng);
        }
        if (!r->groups.data[g].reason && r->class_reason[c]) r->groups.data[g].reason = r->class_reason[c];
        cls_group[c] = (uint32_t)g;
    }
}

typedef struct waits {
    int64_t *started, *censored;
    size_t nstarted, ncensored;
    double req_h, alloc_h;
} waits;

/* The metrics of one group (or the whole run: group NULL) from its waits. */
static void add_waits(sim_run *r, const char *group, waits *w) {
    qsort(w->started, w->nstarted, sizeof *w->started, cmp_i64);
    qsort(w->censored, w->ncensored, sizeof *w->censored, cmp_i64);
    static const double q[] = {0.50, 0.90, 0.95, 0.99};
    static const char *const sname[] = {"wait_p50_s", "wait_p90_s", "wait_p95_s", "wait_p99_s"};
    static const char *const cname[] = {"wait_censored_p50_s", "wait_censored_p90_s", "wait_censored_p95_s",
                                        "wait_censored_p99_s"};
    /* started pods only: the whole run has mean, p50, p99 and max already (engine/sim.c; 0 when
     * no pod started); a group's are NULL when none of its pods started */
    double sum = 0, none = group ? NAN : 0;
    for (size_t i = 0; i < w->nstarted; i++) sum += (double)w->started[i];
    if (group) add(r, group, "wait_mean_s", w->nstarted ? sum / (double)w->nstarted / 1000.0 : none);
    for (int k = 0; k < 4; k++)
        if (group || k == 1 || k == 2) add(r, group, sname[k], w->nstarted ? pct_s(w->started, w->nstarted, q[k]) : none);
    if (group) add(r, group, "wait_max_s", w->nstarted ? pct_s(w->started, w->nstarted, 1.0) : none);
    double csum = 0;
    for (size_t i = 0; i < w->ncensored; i++) csum += (double)w->censored[i];
    add(r, group, "wait_censored_mean_s", w->ncensored ? csum / (double)w->ncensored / 1000.0 : 0);
    for (int k = 0; k < 4; k++) add(r, group, cname[k], w->ncensored ? pct_s(w->censored, w->ncensored, q[k]) : 0);
    add(r, group, "wait_censored_max_s", w->ncensored ? pct_s(w->censored, w->ncensored, 1.0) : 0);
    add(r, group, "gpu_hours_requested", w->req_h);
    add(r, group, "gpu_hours_allocated", w->alloc_h);
}

/* Add pod `id` to w: its waits, the GPU-hours it asked for within the run
 * (from arrival, for its duration, until the end) and those it held. */
static void add_pod(const sim_run *r, uint32_t id, double eq, waits *w) {
    const sim_pod *p = &r->pods.data[id];
    sim_time end = r->end_time;
    if (p->start >= 0) w->started[w->nstarted++] = p->start - p->arrival;
    w->censored[w->ncensored++] = (p->start >= 0 ? p->start : end) - p->arrival;
    sim_time want = end - p->arrival;
    if (p->duration != SIM_TIME_NEVER && p->duration < want) want = p->duration;
    w->req_h += eq * (double)(want > 0 ? want : 0) / 3600000.0;
    if (p->start >= 0) {
        sim_time stop = p->end >= 0 ? p->end : end;
        w->alloc_h += eq * (double)(stop - p->start) / 3600000.0;
    }
}

void sim_group_summary(sim_run *r) {
    size_t np = r->pods.len, nc = r->sched.nclasses;
    uint32_t *cls_group = xmalloc((nc ? nc : 1) * sizeof *cls_group);
    find_groups(r, cls_group);
    size_t ng = r->groups.len;
    /* a DRA pod that never started takes what a started pod of its class took */
    double *cls_eq = xmalloc((nc ? nc : 1) * sizeof *cls_eq);
    for (size_t c = 0; c < nc; c++) cls_eq[c] = NAN;
    for (size_t i = 0; i < np; i++) {
        uint32_t c = r->pods.data[i].group;
        if (isnan(cls_eq[c])) cls_eq[c] = sim_pod_gpu_equiv(r, (uint32_t)i);
    }
    waits all = {xmalloc((np ? np : 1) * sizeof(int64_t)), xmalloc((np ? np : 1) * sizeof(int64_t)), 0, 0, 0, 0};
    waits *gw = xcalloc(ng ? ng : 1, sizeof *gw);
    size_t *count = xcalloc(ng ? ng : 1, sizeof *count);
    for (size_t i = 0; i < np; i++) count[cls_group[r->pods.data[i].group]]++;
    for (size_t g = 0; g < ng; g++) {
        gw[g].started = xmalloc((count[g] ? count[g] : 1) * sizeof(int64_t));
        gw[g].censored = xmalloc((count[g] ? count[g] : 1) * sizeof(int64_t));
    }
    for (size_t i = 0; i < np; i++) {
        const sim_pod *p = &r->pods.data[i];
        sim_group *g = &r->groups.data[cls_group[p->group]];
        double eq = p->start >= 0 && r->dra ? sim_pod_gpu_equiv(r, (uint32_t)i) : cls_eq[p->group];
        g->arrived++;
        if (p->start >= 0) g->scheduled++;
        if (p->state == POD_SUCCEEDED) g->succeeded++;
        if (p->state == POD_PENDING) g->pending++;
        if (p->state == POD_RUNNING || p->state == POD_TERMINATING) g->running++;
        add_pod(r, (uint32_t)i, eq, &all);
        add_pod(r, (uint32_t)i, eq, &gw[cls_group[p->group]]);
    }
    add_waits(r, NULL, &all);
    for (size_t g = 0; g < ng; g++) {
        const sim_group *x = &r->groups.data[g];
        add(r, x->name, "pods_arrived", (double)x->arrived);
        add(r, x->name, "pods_scheduled", (double)x->scheduled);
        add(r, x->name, "pods_succeeded", (double)x->succeeded);
        add(r, x->name, "pods_running_at_end", (double)x->running);
        add(r, x->name, "pods_pending_at_end", (double)x->pending);
        add_waits(r, x->name, &gw[g]);
        free(gw[g].started);
        free(gw[g].censored);
    }
    free(all.started);
    free(all.censored);
    free(gw);
    free(count);
    free(cls_eq);
    free(cls_group);
}
