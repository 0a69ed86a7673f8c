/* bench_util.h -- what every benchmark needs: a monotonic clock and a
 * comparator for taking medians with qsort. */
#ifndef DRASIM_BENCH_UTIL_H
#define DRASIM_BENCH_UTIL_H
#include <time.h>

static inline double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
#endif
