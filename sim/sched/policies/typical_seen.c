/* typical_seen.c -- typical pods from the shapes seen (see typical_seen.h). */
#include "sched/policies/typical_seen.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* frag.c's shape order (cpu, milli, ngpu), then the model mask and memory
 * in place of frag.c's model text. */
static int shape_cmp(const gs_pod *a, const gs_pod *b) {
    if (a->cpu != b->cpu) return a->cpu < b->cpu ? -1 : 1;
    if (a->milli != b->milli) return a->milli < b->milli ? -1 : 1;
    if (a->ngpu != b->ngpu) return a->ngpu < b->ngpu ? -1 : 1;
    if (a->models != b->models) return a->models < b->models ? -1 : 1;
    if (a->mem != b->mem) return a->mem < b->mem ? -1 : 1;
    return 0;
}

/* Most popular first; equal counts: the larger shape first (as frag.c). */
static int cmp_popular(const void *x, const void *y) {
    const typical_seen_shape *a = x, *b = y;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    return -shape_cmp(&a->shape, &b->shape);
}

void typical_seen_init(typical_seen *ts, double threshold_pct, bool include_cpu_pods) {
    memset(ts, 0, sizeof *ts);
    ts->threshold_pct = threshold_pct;
    ts->include_cpu_pods = include_cpu_pods;
}

void typical_seen_free(typical_seen *ts) {
    free(ts->shapes);
    frag_typical_free(&ts->last);
    memset(ts, 0, sizeof *ts);
}

void typical_seen_add(typical_seen *ts, const gs_pod *shape, int64_t count) {
    if (count <= 0 || (!ts->include_cpu_pods && (shape->ngpu <= 0 || shape->milli <= 0))) return;
    size_t lo = 0, hi = ts->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = shape_cmp(&ts->shapes[mid].shape, shape);
        if (c == 0) {
            ts->shapes[mid].count += count;
            ts->total += count;
            return;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    if (ts->n == ts->cap) {
        ts->cap = ts->cap ? 2 * ts->cap : 8;
        ts->shapes = xrealloc(ts->shapes, ts->cap * sizeof *ts->shapes);
    }
    memmove(&ts->shapes[lo + 1], &ts->shapes[lo], (ts->n - lo) * sizeof *ts->shapes);
    ts->shapes[lo] = (typical_seen_shape){*shape, count};
    ts->n++;
    ts->total += count;
}

/* The typical pods of the counts now, by frag_typical_build's rule. */
static void build(const typical_seen *ts, frag_typical *out) {
    memset(out, 0, sizeof *out);
    typical_seen_shape *g = xmalloc((ts->n ? ts->n : 1) * sizeof *g);
    if (ts->n) memcpy(g, ts->shapes, ts->n * sizeof *g);
    qsort(g, ts->n, sizeof *g, cmp_popular);
    double expected = ts->threshold_pct * (double)ts->total / 100.0, cum = 0;
    size_t keep = 0;
    while (cum < expected && keep < ts->n) cum += (double)g[keep++].count;
    out->pods = xcalloc(keep ? keep : 1, sizeof *out->pods);
    out->n = keep;
    out->ndistinct = ts->n;
    out->coverage_pct = ts->total ? 100.0 * cum / (double)ts->total : 0;
    out->total = ts->total;
    out->covered = (int64_t)cum;
    for (size_t i = 0; i < keep; i++) {
        out->pods[i].shape = g[i].shape;
        out->pods[i].count = g[i].count;
        out->pods[i].p = (double)g[i].count / cum;
    }
    free(g);
}

bool typical_seen_changed(const typical_seen *ts) {
    if (!ts->built) return true;
    frag_typical now;
    build(ts, &now);
    bool same = now.n == ts->last.n;
    for (size_t i = 0; same && i < now.n; i++)
        same = shape_cmp(&now.pods[i].shape, &ts->last.pods[i].shape) == 0 && now.pods[i].p == ts->last.pods[i].p;
    frag_typical_free(&now);
    return !same;
}

void typical_seen_build(typical_seen *ts, frag_typical *out) {
    build(ts, out);
    frag_typical_free(&ts->last);
    build(ts, &ts->last);
    ts->built = true;
}
