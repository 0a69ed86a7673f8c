/*
 * expect.h -- expectation files for `drasim check` (docs/CI.md):
 *
 *   apiVersion: drasim/v1
 *   kind: Expect
 *   seeds: 42..44                  # optional; --seeds wins
 *   set: ["scheduling.scoring=MostAllocated"]   # optional overrides
 *   thresholds:
 *   - gpu_alloc_pct >= 50          # mean over the runs
 *   - max(wait_p99_s) <= 600       # or min(...), mean(...)
 *   - unschedulable == 0
 *   - wait_censored_p99_s{group=train-8gpu} <= 1800   # one group's metric (summary.grp)
 *   - p90(wait_p99_s) <= 600       # a quantile over the seeds: p50, p90, pNN, quantile(0.75, m)
 *   - pass_fraction(wait_p99_s <= 600) >= 0.9   # the fraction of seeds meeting a condition
 *   baseline:                      # optional
 *     file: baseline.db            # relative to this file
 *     metrics:
 *       gpu_alloc_pct: 0.5         # no worse than the baseline by 0.5 (points)
 *       wait_p99_s: 10%            # ... by 10% of the baseline value
 *       wait_censored_p99_s{group=train}: 10%   # one group's metric
 *       events: {tolerance: 5%, better: lower}
 *
 * Parsing is strict (unknown keys, bad expressions: FILE:LINE:COL errors).
 */
#ifndef DRASIM_REPORT_EXPECT_H
#define DRASIM_REPORT_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/yaml_tree.h"
#include "report/rdb.h"
#include "util/strbuf.h"

/* Aggregators over the runs (seeds). AGG_QUANTILE: the smallest run value v
 * with at least a fraction q of the runs <= v (the inverse of the empirical
 * distribution function, no interpolation), so `quantile(q, m) <= X` holds
 * exactly when pass_fraction(m <= X) >= q. AGG_PASS_FRACTION: the fraction of
 * the runs whose value meets `inner_op inner_value`. */
typedef enum { AGG_MEAN, AGG_MIN, AGG_MAX, AGG_QUANTILE, AGG_PASS_FRACTION } expect_agg;
typedef enum { OP_GE, OP_LE, OP_GT, OP_LT, OP_EQ, OP_NE } expect_op;

typedef struct expect_threshold {
    char *text;          /* as written */
    char *metric;
    char *group;         /* `metric{group=NAME}`: that group's rows; NULL = the whole run */
    bool queue;          /* `metric{queue=NAME}`: ClusterQueue NAME's rows (metric queue_...) */
    char *where;         /* "FILE:LINE:COL" of the threshold (errors about its group) */
    expect_agg agg;
    expect_op op;
    double value;
    double q;            /* AGG_QUANTILE: in (0, 1) */
    expect_op inner_op;  /* AGG_PASS_FRACTION: the condition each run meets */
    double inner_value;
} expect_threshold;

typedef struct expect_baseline_metric {
    char *metric;
    double tolerance;
    bool relative;       /* tolerance is a percentage of the baseline value */
    int better;          /* +1 higher, -1 lower */
    char *group;         /* `metric{group=NAME}: tol`: that group's rows; NULL = the whole run */
    bool queue;          /* `metric{queue=NAME}: tol` */
} expect_baseline_metric;

typedef struct expect_spec {
    char *file;
    uint64_t *seeds;
    size_t nseeds;
    char **sets;
    char **set_origins;  /* "FILE:LINE:COL: set" of each entry: how errors name it */
    size_t nsets;
    expect_threshold *thresholds;
    size_t nthresholds;
    char *baseline_file; /* resolved against the expect file's directory, or NULL */
    expect_baseline_metric *baseline;
    size_t nbaseline;
} expect_spec;

/* Parse an expect file (from memory: `name` is used in messages). */
int expect_parse_mem(const char *name, const char *data, size_t len, expect_spec *out, strbuf *err);
int expect_load(const char *path, expect_spec *out, strbuf *err);
void expect_free(expect_spec *e);

/* One evaluated check. */
typedef struct check_result {
    char *name;          /* "gpu_alloc_pct >= 50" or "baseline: gpu_alloc_pct" */
    double value;        /* NAN when the metric is missing */
    char *expected;      /* ">= 50", ">= 56.1 (baseline 56.6 - 0.5)" */
    bool pass;
    char *message;       /* why it failed, or NULL */
} check_result;

typedef struct check_report {
    check_result *items;
    size_t n, failures;
    size_t runs;
} check_report;

/* Evaluate every threshold on `results` and every baseline metric against
 * `baseline` (may be NULL when the spec has none). */
void expect_evaluate(const expect_spec *e, const rdb *results, const rdb *baseline, check_report *out);
/* Every group a threshold names has rows in `results`; else -1 with err =
 * "FILE:LINE:COL: threshold '...': no group 'x' in the results (groups: ...)". */
int expect_check_groups(const expect_spec *e, const rdb *results, strbuf *err);
/* The baseline holds the same scenarios (metadata.name) and the same seeds
 * as the results; else -1 with err naming both (docs/CI.md). */
int expect_check_baseline(const expect_spec *e, const rdb *results, const rdb *baseline, strbuf *err);
void check_report_free(check_report *c);
/* The aligned table printed by `drasim check`. */
void check_report_table(const check_report *c, strbuf *out);
/* JUnit XML: <testsuites><testsuite name=SUITE ...><testcase .../>... */
void check_report_junit(const check_report *c, const char *suite, double seconds, strbuf *out);

const char *expect_op_text(expect_op op);
bool expect_compare(double v, expect_op op, double x);

/* The values of a threshold's metric per run of `results`, in run order
 * (NAN: the run has none); *out is malloc'ed, the count returned. */
size_t expect_threshold_values(const expect_threshold *t, const rdb *results, double **out);
/* A threshold's aggregate over the values v[0..n) (NAN skipped): *value, and
 * whether it meets the threshold; *used = the values that counted. */
bool expect_threshold_eval(const expect_threshold *t, const double *v, size_t n, double *value, size_t *used);
/* "max(", "p90(", "quantile(0.75, ", "pass_fraction(", "" (mean). */
void expect_agg_prefix(const expect_threshold *t, strbuf *out);

#endif
