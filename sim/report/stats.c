/* stats.c -- Student's t and 95 % confidence intervals (see stats.h). */
#include "report/stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/xalloc.h"

double student_t975(double df) {
    static const double t[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                               2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
                               2.074, 2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (isnan(df) || df < 1) return NAN;
    double d = floor(df);
    if (d <= 30) return t[(int)d];
    return d < 40 ? 2.042 : d < 60 ? 2.021 : d < 120 ? 2.000 : d < 1e9 ? 1.980 : 1.960;
}

static void moments(const double *v, size_t n, double *mean, double *var) {
    double s = 0, ss = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    *mean = n ? s / (double)n : NAN;
    for (size_t i = 0; i < n; i++) ss += (v[i] - *mean) * (v[i] - *mean);
    *var = n > 1 ? ss / (double)(n - 1) : NAN;
}

mean_ci mean_ci95(const double *v, size_t n) {
    mean_ci c = {NAN, NAN, n};
    double var;
    moments(v, n, &c.mean, &var);
    if (n >= 2) c.half = student_t975((double)(n - 1)) * sqrt(var / (double)n);
    return c;
}

mean_ci diff_ci95(const double *a, size_t na, const double *b, size_t nb, int paired) {
    mean_ci c = {NAN, NAN, paired ? na : na + nb};
    if (paired) {
        if (na != nb) return c;
        double *d = xmalloc((na ? na : 1) * sizeof *d);
        for (size_t i = 0; i < na; i++) d[i] = a[i] - b[i];
        c = mean_ci95(d, na);
        free(d);
        return c;
    }
    double ma, va, mb, vb;
    moments(a, na, &ma, &va);
    moments(b, nb, &mb, &vb);
    c.mean = ma - mb;
    if (na < 2 || nb < 2) return c;
    double sa = va / (double)na, sb = vb / (double)nb, se2 = sa + sb;
    if (se2 <= 0) {   /* no spread on either side: the difference is exact */
        c.half = 0;
        return c;
    }
    double df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
    c.half = student_t975(df) * sqrt(se2);
    return c;
}

/* Pairs now[] with then[] by seed when both hold the same seeds, each once:
 * then[] is reordered to match now[]. */
bool stats_pair_by_seed(size_t n, const int64_t *sn, size_t m, double *then, int64_t *st) {
    if (n != m || n < 2) return false;
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        while (j < m && st[j] != sn[i]) j++;
        if (j == m) return false;
        double tv = then[i];
        int64_t ts = st[i];
        then[i] = then[j], st[i] = st[j];
        then[j] = tv, st[j] = ts;
    }
    for (size_t i = 1; i < n; i++)
        for (size_t k = 0; k < i; k++)
            if (sn[k] == sn[i]) return false;
    return true;
}
