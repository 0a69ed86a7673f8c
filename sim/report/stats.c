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

/* The continued fraction of the incomplete beta function (modified Lentz). */
static double beta_cf(double a, double b, double x) {
    const double tiny = 1e-300;
    double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d = 1 - qab * x / qap;
    if (fabs(d) < tiny) d = tiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 1000; m++) {
        double m2 = 2.0 * m, aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1 + aa * d;
        if (fabs(d) < tiny) d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1 + aa * d;
        if (fabs(d) < tiny) d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-15) break;
    }
    return h;
}

double beta_inc(double a, double b, double x) {
    if (!(x > 0)) return 0;
    if (!(x < 1)) return 1;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1) / (a + b + 2)) return front * beta_cf(a, b, x) / a;
    return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* x with beta_inc(a, b, x) = p, by bisection (beta_inc grows with x). */
static double beta_quantile(double a, double b, double p) {
    double lo = 0, hi = 1;
    for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
        double mid = (lo + hi) / 2;
        if (beta_inc(a, b, mid) < p) lo = mid;
        else hi = mid;
    }
    return (lo + hi) / 2;
}

double clopper_pearson_lower(size_t k, size_t n, double alpha) {
    return k == 0 || n == 0 ? 0 : beta_quantile((double)k, (double)(n - k) + 1, alpha);
}

double clopper_pearson_upper(size_t k, size_t n, double alpha) {
    return k >= n ? 1 : beta_quantile((double)k + 1, (double)(n - k), 1 - alpha);
}

/* P(T <= t) for Student's t with df degrees of freedom. */
static double student_cdf(double t, double df) {
    double tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
    return t >= 0 ? 1 - tail : tail;
}

double student_t_quantile(double df, double p) {
    if (!(df >= 1) || !(p > 0 && p < 1)) return NAN;
    double lo = -1e6, hi = 1e6;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * fmax(1, fabs(hi)); i++) {
        double mid = (lo + hi) / 2;
        if (student_cdf(mid, df) < p) lo = mid;
        else hi = mid;
    }
    return (lo + hi) / 2;
}
