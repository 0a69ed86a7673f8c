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
#include "util/sort_i64.h"
#include "util/xalloc.h"

/* The nearest-rank index of quantile q (0 < q <= 1) among n values. */
static size_t rank_of(size_t n, double q) {
    size_t k = (size_t)ceil(q * (double)n);
    return k ? k - 1 : 0;
}

/* Nearest-rank percentile q of v[0..n) in seconds, once place_quantiles put it in place. */
static double pct_s(const int64_t *v, size_t n, double q) { return (double)v[rank_of(n, q)] / 1000.0; }

/* Puts in place the ranks pct_s reads for q[0..nq) (ascending) and the
 * maximum: a selection, not a sort (issue 31: ~40 % of a gang run's
 * instructions were sorting waits). */
static void place_quantiles(int64_t *v, size_t n, const double *q, int nq) {
    if (!n) return;
    size_t ranks[8];
    int nr = 0;
    for (int k = 0; k < nq && nr < 7; k++) ranks[nr++] = rank_of(n, q[k]);
    ranks[nr++] = n - 1;
    select_ranks_i64(v, n, ranks, (size_t)nr);
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

/* The pods of one group (ids[0..n), pod order) or of the whole run (ids NULL:
 * pods 0..n-1), and what their metrics read. */
typedef struct members {
    const uint32_t *ids;
    size_t n;
    const double *cls_eq;         /* per class: what a pod of it takes when it did not start (DRA) */
} members;

/* The sum of v[0..n) (waits in ms), exact whatever the order: the selection
 * above leaves v partly unordered (a double sum is order-free only below 2^53). */
static double exact_sum(const int64_t *v, size_t n) {
    int64_t s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    return (double)s;
}

static uint32_t member(const members *m, size_t i) { return m->ids ? m->ids[i] : (uint32_t)i; }

/* The waits of m's pods into v (started ones only, or every pod censored at
 * the run's end), in pod order; their count. With `hours`: also the GPU-hours
 * asked for within the run (from arrival, for the duration, until the end)
 * and those held, summed in pod order. */
static size_t fill_waits(const sim_run *r, const members *m, bool censored, int64_t *v, double *req_h,
                         double *alloc_h) {
    size_t k = 0;
    sim_time end = r->end_time;
    for (size_t i = 0; i < m->n; i++) {
        uint32_t id = member(m, i);
        const sim_pod *p = &r->pods.data[id];
        if (censored) v[k++] = (p->start >= 0 ? p->start : end) - p->arrival;
        else if (p->start >= 0) v[k++] = p->start - p->arrival;
        if (!req_h) continue;
        double eq = p->start >= 0 && r->dra ? sim_pod_gpu_equiv(r, id) : m->cls_eq[p->group];
        sim_time want = end - p->arrival;
        if (p->duration != SIM_TIME_NEVER && p->duration < want) want = p->duration;
        *req_h += eq * (double)(want > 0 ? want : 0) / 3600000.0;
        if (p->start >= 0) {
            sim_time stop = p->end >= 0 ? p->end : end;
            *alloc_h += eq * (double)(stop - p->start) / 3600000.0;
        }
    }
    return k;
}

/* The metrics of one group (or the whole run: group NULL) from its pods'
 * waits. One wait per pod is held at a time (started, then censored): at
 * 10M pods that is 80 MB, not the 320 MB of every array at once (issue 31). */
static void add_waits(sim_run *r, const char *group, const members *m) {
    static const double q[] = {0.50, 0.90, 0.95, 0.99};
    static const char *const sname[] = {"wait_p50_s", "wait_p90_s", "wait_p95_s", "wait_p99_s"};
    static const char *const cname[] = {"wait_censored_p50_s", "wait_censored_p90_s", "wait_censored_p95_s",
                                        "wait_censored_p99_s"};
    int64_t *v = xmalloc((m->n ? m->n : 1) * sizeof *v);
    sim_huge_pages(v, m->n * sizeof *v);
    double req_h = 0, alloc_h = 0;
    size_t n = fill_waits(r, m, false, v, &req_h, &alloc_h);
    place_quantiles(v, n, q, 4);
    /* started pods only: the whole run has mean, p50, p99 and max already (engine/sim.c; 0 when
     * no pod started); a group's are NULL when none of its pods started */
    double sum = exact_sum(v, n), none = group ? NAN : 0;
    if (group) add(r, group, "wait_mean_s", n ? sum / (double)n / 1000.0 : none);
    for (int k = 0; k < 4; k++)
        if (group || k == 1 || k == 2) add(r, group, sname[k], n ? pct_s(v, n, q[k]) : none);
    if (group) add(r, group, "wait_max_s", n ? pct_s(v, n, 1.0) : none);
    n = fill_waits(r, m, true, v, NULL, NULL);
    place_quantiles(v, n, q, 4);
    double csum = exact_sum(v, n);
    add(r, group, "wait_censored_mean_s", n ? csum / (double)n / 1000.0 : 0);
    for (int k = 0; k < 4; k++) add(r, group, cname[k], n ? pct_s(v, n, q[k]) : 0);
    add(r, group, "wait_censored_max_s", n ? pct_s(v, n, 1.0) : 0);
    add(r, group, "gpu_hours_requested", req_h);
    add(r, group, "gpu_hours_allocated", alloc_h);
    free(v);
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
    /* the pods of each group, in pod order: group g's are ids[first[g] .. first[g+1]) */
    size_t *first = xcalloc(ng + 1, sizeof *first);
    for (size_t i = 0; i < np; i++) {
        const sim_pod *p = &r->pods.data[i];
        sim_group *g = &r->groups.data[cls_group[p->group]];
        first[cls_group[p->group] + 1]++;
        g->arrived++;
        if (p->start >= 0) g->scheduled++;
        if (p->state == POD_SUCCEEDED) g->succeeded++;
        if (p->state == POD_PENDING) g->pending++;
        if (p->state == POD_RUNNING || p->state == POD_TERMINATING) g->running++;
    }
    add_waits(r, NULL, &(members){NULL, np, cls_eq});
    for (size_t g = 0; g < ng; g++) first[g + 1] += first[g];
    uint32_t *ids = xmalloc((np ? np : 1) * sizeof *ids);
    sim_huge_pages(ids, np * sizeof *ids);
    size_t *at = xmalloc((ng ? ng : 1) * sizeof *at);
    memcpy(at, first, ng * sizeof *at);
    for (size_t i = 0; i < np; i++) ids[at[cls_group[r->pods.data[i].group]]++] = (uint32_t)i;
    for (size_t g = 0; g < ng; g++) {
        const sim_group *x = &r->groups.data[g];
        add(r, x->name, "pods_arrived", (double)x->arrived);
        add(r, x->name, "pods_scheduled", (double)x->scheduled);
        add(r, x->name, "pods_succeeded", (double)x->succeeded);
        add(r, x->name, "pods_running_at_end", (double)x->running);
        add(r, x->name, "pods_pending_at_end", (double)x->pending);
        add_waits(r, x->name, &(members){ids + first[g], first[g + 1] - first[g], cls_eq});
    }
    free(ids);
    free(at);
    free(first);
    free(cls_eq);
    free(cls_group);
}
