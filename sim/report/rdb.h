/*
 * rdb.h -- read a results database (docs/SCHEMA.md) for reports, compare
 * and check: its runs, their summary metrics, and the groups of runs that
 * differ only by seed. Tables added later (arrival_curve, sweep, ...) are
 * optional: rdb_has_table() / rdb_has_column() ask sqlite_master.
 */
#ifndef DRASIM_REPORT_RDB_H
#define DRASIM_REPORT_RDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/strbuf.h"

typedef struct sqlite3 sqlite3;

typedef struct rdb_run {
    int64_t id;
    char *scenario, *mode, *policy;
    int64_t seed, end_ms;
    char *point;          /* sweep point "k=v k2=v2", or NULL */
    size_t group;         /* index into rdb.groups */
} rdb_run;

typedef struct rdb {
    sqlite3 *db;
    char *path;
    rdb_run *runs;        /* ordered by run_id */
    size_t nruns;
    char **metrics;       /* summary metric names, first-seen order */
    size_t nmetrics;
    double *values;       /* [run * nmetrics + metric], NAN when absent */
    char **groups;        /* labels: "mode policy" (+ scenario, + sweep point when they vary) */
    char **group_keys;    /* "scenario|mode|policy|point": run key without the seed */
    size_t ngroups;
} rdb;

/* A statement over the results database `path` failed (sql: the statement,
 * or NULL): err says what is wrong with the file in drasim's words ("PATH:
 * not a drasim results database: table pods lacks column wait_ms", "(no table
 * runs)", "the database is corrupt", "not an SQLite database"), SQLite's own
 * message only as a detail when none of these fits. */
void rdb_explain(const char *path, sqlite3 *db, const char *sql, strbuf *err);
/* Open read-only and load runs and summary (every summary value a number or
 * NULL). Returns 0 or -1 with err set. */
int rdb_open(const char *path, rdb *out, strbuf *err);
void rdb_close(rdb *r);
/* Every value of table.value is a number or NULL (a text or blob value would
 * read as 0 and could pass a threshold or a baseline check): 0, or -1 with err
 * naming the run, the row's name_col (metric, series) and its group. */
int rdb_check_numbers(rdb *r, const char *table, const char *name_col, strbuf *err);
/* rdb_user.c: the series of table user_samples as metrics S:mean, S:max,
 * S:last (rdb_open calls it). 0 or -1 with err set. */
int rdb_add_user_series(rdb *r, strbuf *err);

bool rdb_has_table(const rdb *r, const char *table);
/* The table exists and holds at least one row (tables of optional features
 * are created empty by runs that do not use them). */
bool rdb_table_has_rows(const rdb *r, const char *table);
bool rdb_has_column(const rdb *r, const char *table, const char *column);
/* Index of a metric, or -1. */
int rdb_metric_index(const rdb *r, const char *metric);
double rdb_value(const rdb *r, size_t run, int metric);

/* Statistics of one metric over a set of runs (NAN values skipped). */
typedef struct rdb_stats {
    double mean, min, max;
    size_t n;
} rdb_stats;
/* Over the runs of group g (g == SIZE_MAX: every run). */
rdb_stats rdb_group_stats(const rdb *r, size_t g, int metric);

/* rdb_groups.c: summary rows of one group of pods (summary.grp; not the
 * configuration groups above). Does any run have rows of group `grp`? */
bool rdb_has_pod_group(const rdb *r, const char *grp);
/* A metric of group `grp` over every run (NULL values skipped: n counts the others). */
rdb_stats rdb_pod_group_stats(const rdb *r, const char *grp, const char *metric);
/* The value of a metric of group `grp` per run (in the order of r->runs;
 * NAN: none); out has r->nruns entries. */
void rdb_pod_group_values(const rdb *r, const char *grp, const char *metric, double *out);
/* The group names, comma-separated, in first-seen order (for messages). */
void rdb_pod_group_names(const rdb *r, strbuf *out);
/* ClusterQueues of a run with `queues:` (summary rows queue_admitted, issue 27):
 * does one named `cq` exist; their names, comma-separated, appended to out. */
bool rdb_has_queue(const rdb *r, const char *cq);
void rdb_queue_names(const rdb *r, strbuf *out);
/* What the results call a queue: "Queue" (KAI-Scheduler) or "ClusterQueue" (Kueue). */
const char *rdb_queue_kind(const rdb *r);
/* The group names in first-seen order (*n of them; free each and the array). */
char **rdb_pod_groups(const rdb *r, size_t *n);

/* Every pod group's summary rows, read in one pass: the groups in
 * first-seen order (as rdb_pod_groups), each with its metrics in first-seen
 * order and their values per run (v[m * (nruns + 1) + run], NAN: none). */
typedef struct rdb_gsum {
    char *grp;
    size_t nmetrics;
    char **metrics;
    double *v;
} rdb_gsum;
rdb_gsum *rdb_group_summaries(const rdb *r, size_t *n);
/* The values of `metric` per run (nruns of them), or NULL when the group has none. */
const double *rdb_gsum_values(const rdb *r, const rdb_gsum *g, const char *metric);
void rdb_group_summaries_free(rdb_gsum *gs, size_t n);

/* rdb_merge.c: write into the new database `out` every run of the results
 * databases paths[0..n) (run ids shifted; with n > 1 each run's scenario is
 * prefixed with its file name, "dra.db: quickstart", so that labels say which
 * file a configuration comes from). 0, or -1 with err. */
int rdb_merge(const char *const *paths, size_t n, const char *out, FILE *notes, strbuf *err);
/* PRAGMA user_version: the results schema version (store/store.h), 0 before versions were stored. */
int rdb_schema_version(const rdb *r);

/* `drasim merge`: how rdb_merge_into copies. */
typedef struct rdb_merge_opts {
    bool label_files;   /* prefix each run's scenario with its file name */
    bool runs_only;     /* leave out tables without a run_id column (a note on `notes`) */
    bool same_columns;  /* databases of one schema version: a table lacking a column the merged one has is refused */
    FILE *notes;        /* what is left out (tables, columns), one line each; NULL: nothing said */
} rdb_merge_opts;
/* Copy the runs of paths[0..n) into the open database `db` (its tables may
 * exist already: rows are inserted by column name), attaching as many files
 * at a time as SQLite allows, one transaction per batch; run ids shifted so
 * that the runs keep their order (input order, then run id). The caller
 * checked the files (rdb_open / rdb_merge_check). 0, or -1 with err; -2 when
 * an input's table lacks a column the merged one has (o->same_columns). */
int rdb_merge_into(sqlite3 *db, const char *const *paths, size_t n, const rdb_merge_opts *o, strbuf *err);
/* Before anything is written (report/rdb_merge_check.c): every file a results
 * database of this drasim's schema version, no file twice (the same file
 * under two names included), no run id twice in a file, only tables and
 * columns rdb_merge_into copies (names rdb_merge_plain accepts), no run in
 * two files (the same scenario, mode, policy, sweep point and seed:
 * overlapping shards) and, unless allow_mixed, all runs of one scenario:
 * 0, or -1 with err naming the file(s) and run(s). */
int rdb_merge_check(const char *const *paths, size_t n, bool allow_mixed, strbuf *err);
/* Databases of one schema version have the same columns in every table they
 * share: else -1 with err naming the file that lacks a column and the one
 * that has it (its rows would read NULL once merged). */
int rdb_merge_same_columns(const char *const *paths, size_t n, strbuf *err);
/* The first column of the list `have` ("\1a\1b\1") that `got` lacks,
 * appended to missing; false if none. */
bool rdb_merge_missing_column(const char *have, const char *got, strbuf *missing);
/* A table or column name rdb_merge_into copies: [A-Za-z_][A-Za-z0-9_]*, at most 64 bytes. */
bool rdb_merge_plain(const char *s);

/* Better direction of a known summary metric: +1 higher is better, -1 lower
 * is better, 0 neither (counters, sizes). */
int metric_direction(const char *metric);

#endif
