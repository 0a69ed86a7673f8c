/*
 * stats.h -- small statistics shared by `drasim check`, `compare` and the
 * report: Student's t quantiles and 95 % confidence intervals of means and of
 * differences of means (docs/CI.md, "Baselines and noise").
 */
#ifndef DRASIM_REPORT_STATS_H
#define DRASIM_REPORT_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The 97.5 % quantile of Student's t with df degrees of freedom (two-sided
 * 95 %): exact table for df 1..30, then 40, 60, 120, and 1.96; a fractional
 * df (Welch) is rounded down (the wider interval). NAN for df < 1. */
double student_t975(double df);

/* Mean and the half width of its 95 % confidence interval (Student's t, the
 * sample standard deviation); half = NAN when n < 2. */
typedef struct mean_ci {
    double mean, half;
    size_t n;
} mean_ci;
mean_ci mean_ci95(const double *v, size_t n);

/* 95 % confidence interval of mean(a) - mean(b): paired (a[i] - b[i], same
 * seeds; na == nb required) or Welch's (unequal variances, Welch-Satterthwaite
 * df). half = NAN when either side has fewer than 2 values (or, paired, when
 * na != nb). */
mean_ci diff_ci95(const double *a, size_t na, const double *b, size_t nb, int paired);

/* Pairs now[0..n) (seeds sn) with then[0..m) (seeds st) by seed when both
 * hold the same seeds, each once (n >= 2): then[] and st[] are reordered to
 * match now[]. false (order unspecified) when they cannot be paired. */
bool stats_pair_by_seed(size_t n, const int64_t *sn, size_t m, double *then, int64_t *st);

#endif
