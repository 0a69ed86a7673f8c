/* queue_waits.c -- the wait summaries both queue gates write (queue_waits.h). */
#include "queue/queue_waits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/intern.h"

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted v, in seconds. */
static double pct(const int64_t *v, size_t n, double p) {
    size_t rank = (size_t)ceil(p * (double)n);
    if (rank < 1) rank = 1;
    return (double)v[rank - 1] / 1000.0;
}

void queue_add_waits(const char *prefix, int64_t *w, size_t n, queue_metric_fn add, void *ud, const char *grp) {
    qsort(w, n, sizeof *w, cmp_i64);
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += (double)w[i];
    static const char *const sfx[] = {"mean", "p50", "p90", "p99", "max"};
    double v[5] = {sum / (double)n / 1000.0, pct(w, n, 0.5), pct(w, n, 0.9), pct(w, n, 0.99), (double)w[n - 1] / 1000.0};
    for (int k = 0; k < 5; k++) {
        char name[96];
        snprintf(name, sizeof name, "%s_%s_s", prefix, sfx[k]);
        add(ud, intern(name), v[k], grp);
    }
}
