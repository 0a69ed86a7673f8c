/*
 * report_data.c -- the data behind each plot: SQL over the results database
 * written as gnuplot data files (DIR/data/NAME.dat), plus the variables the
 * plot's template needs. Runs that differ only by seed form a group; a
 * group of several runs is drawn as its mean with a 95% confidence band
 * (bar charts: min..max whiskers).
 */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/sim.h"
#include "report/report.h"
#include "report/report_plot.h"
#include "report/stats.h"
#include "util/xalloc.h"

void rp_gp_var(strbuf *b, const char *name, const char *value) {
    sb_printf(b, "%s = ", name);
    gp_label(b, value);
    sb_putc(b, '\n');
}

/* `undefine NAME; array NAME[n] = ['a', 'b']` */
void rp_gp_array(strbuf *b, const char *name, char *const *items, size_t n) {
    sb_printf(b, "undefine %s\narray %s[%zu] = [", name, name, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        if (i) sb_puts(b, ", ");
        gp_label(b, items[i]);
    }
    if (!n) sb_puts(b, "''");
    sb_puts(b, "]\n");
}

/* "# TEXT SUFFIX" as one line of a data file, whatever TEXT holds. */
void rp_data_comment(FILE *f, const char *text, const char *suffix) {
    strbuf b = {0};
    sb_puts(&b, "# ");
    gp_comment_text(&b, text);
    sb_puts(&b, suffix);
    sb_putc(&b, '\n');
    fputs(sb_str(&b), f);
    sb_free(&b);
}

rplot *rp_new_plot(report *rp, const char *name, const char *tmpl, const char *title) {
    rplot p = {xstrdup(name), xstrdup(title), xstrdup(tmpl), {0}, 0, 0, 0};
    VEC_PUSH(rp->plots, p);
    rplot *q = &rp->plots.data[rp->plots.len - 1];
    strbuf f = {0};
    sb_printf(&f, "data/%s.dat", name);
    rp_gp_var(&q->vars, "datafile", sb_str(&f));
    rp_gp_var(&q->vars, "plot_title", title);
    sb_free(&f);
    return q;
}

FILE *rp_open_data(report *rp, const char *name, strbuf *err) {
    if (!plain_name(name)) {   /* callers skip such names; never a path outside DIR/data */
        sb_clear(err);
        sb_printf(err, "internal error: plot name '%s' is not a plain name", name);
        return NULL;
    }
    strbuf path = {0};
    sb_printf(&path, "%s/data/%s.dat.tmp-%ld", rp->dir, name, (long)getpid());
    FILE *f = report_file_create(sb_str(&path));
    if (!f) {
        sb_clear(err);
        sb_printf(err, "%s/data/%s.dat: cannot write", rp->dir, name);
    } else {
        VEC_PUSH(rp->staged, xstrdup(sb_str(&path)));
    }
    sb_free(&path);
    return f;
}

sqlite3_stmt *rp_prep(const report *rp, const char *sql, strbuf *err) {
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(rp->r->db, sql, -1, &s, NULL) != SQLITE_OK) {
        rdb_explain(rp->r->path, rp->r->db, sql, err);
        return NULL;
    }
    return s;
}

/* "1,2,5": run ids of group g (SQL-safe: integers). */
void rp_group_ids(const rdb *r, size_t g, strbuf *b) {
    for (size_t i = 0; i < r->nruns; i++)
        if (r->runs[i].group == g) sb_printf(b, "%s%lld", b->len ? "," : "", (long long)r->runs[i].id);
}

size_t rp_group_size(const rdb *r, size_t g) {
    size_t n = 0;
    for (size_t i = 0; i < r->nruns; i++) n += r->runs[i].group == g;
    return n;
}

static size_t first_run_of(const rdb *r, size_t g) {
    for (size_t i = 0; i < r->nruns; i++)
        if (r->runs[i].group == g) return i;
    return 0;
}

/* Below a bar chart: what its bars and whiskers are. */
static const char *whisker_note(const rdb *r) {
    size_t most = 0;
    for (size_t g = 0; g < r->ngroups; g++)
        if (rp_group_size(r, g) > most) most = rp_group_size(r, g);
    return most > 1 ? "bar: mean over the seeds; whiskers: min – max over the seeds (not a confidence interval)"
                    : "one run per configuration: the bar is its value (no whiskers)";
}

/* Series titles: configuration labels, with what the band or the whiskers
 * are when the configuration has N > 1 runs: "(mean, 95% CI over N seeds)"
 * for curves, "(mean, whiskers min–max over N seeds)" for bars. */
static char **series_titles(const rdb *r, bool bars) {
    char **t = xcalloc(r->ngroups + 1, sizeof *t);
    for (size_t g = 0; g < r->ngroups; g++) {
        strbuf b = {0};
        size_t n = rp_group_size(r, g);
        if (n > 1) sb_printf(&b, bars ? "%s (mean, whiskers min–max over %zu seeds)" : "%s (mean, 95%% CI over %zu seeds)",
                             r->groups[g], n);
        else sb_puts(&b, r->groups[g]);
        t[g] = xstrdup(sb_str(&b));
        sb_free(&b);
    }
    return t;
}

void rp_free_strings(char **v, size_t n) {
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}


const xaxis RP_TIME_AXIS = {"samples", "time_ms", 3600000.0, "simulated time (h)"};

/* Half width of the 95% confidence interval of a mean over n runs (Student's
 * t, sample standard deviation from the mean of squares); 0 for one run. */
static double ci95_half_width(double mean, double mean_sq, int64_t n) {
    static const double t975[] = {0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                  2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086};
    if (n < 2) return 0;
    double var = (mean_sq - mean * mean) * (double)n / (double)(n - 1);
    if (var <= 0) return 0;
    double t = n - 1 < (int64_t)(sizeof t975 / sizeof *t975) ? t975[n - 1] : n - 1 < 30 ? 2.06 : 1.96;
    return t * sqrt(var / (double)n);
}

/* One curve per group of `expr` over axis x: one data block per group with
 * columns x mean lo hi (mean over the group's runs at equal x, and its 95%
 * confidence interval). */
int rp_curve(report *rp, const char *name, const char *title, const xaxis *x, const char *expr,
                           const char *ylabel, strbuf *err) {
    const rdb *r = rp->r;
    FILE *f = rp_open_data(rp, name, err);
    if (!f) return -1;
    int rc = 0;
    /* percentages (a column or expression ending in _pct): bands clamped to [0, 100] */
    size_t el = strlen(expr);
    if (el && expr[el - 1] == '"') el--;   /* a quoted column name */
    bool pct = el >= 4 && !strncmp(expr + el - 4, "_pct", 4);
    for (size_t g = 0; g < r->ngroups && !rc; g++) {
        strbuf ids = {0}, sql = {0};
        rp_group_ids(r, g, &ids);
        sb_printf(&sql, "SELECT x, avg(v), avg(v * v), count(v) FROM (SELECT \"%s\" AS x, (%s) AS v FROM \"%s\""
                        " WHERE run_id IN (%s) AND v IS NOT NULL) GROUP BY x ORDER BY x",
                  x->column, expr, x->table, sb_str(&ids));
        sqlite3_stmt *s = rp_prep(rp, sb_str(&sql), err);
        if (!s) rc = -1;
        rp_data_comment(f, r->groups[g], "");
        while (s && sqlite3_step(s) == SQLITE_ROW) {
            double mean = sqlite3_column_double(s, 1), half = ci95_half_width(mean, sqlite3_column_double(s, 2),
                                                                             sqlite3_column_int64(s, 3));
            double lo = mean - half, hi = mean + half;
            if (pct) {   /* a percentage cannot leave [0, 100]: neither can its band */
                lo = fmax(0.0, lo);
                hi = fmin(100.0, hi);
            }
            fprintf(f, "%.6f %.6g %.6g %.6g\n", sqlite3_column_double(s, 0) / x->scale, mean, lo, hi);
        }
        fputs("\n\n", f);
        sqlite3_finalize(s);
        sb_free(&ids);
        sb_free(&sql);
    }
    fclose(f);
    if (rc) return -1;
    rplot *p = rp_new_plot(rp, name, "timeseries.gp", title);
    char **t = series_titles(r, false);
    rp_gp_array(&p->vars, "series", t, r->ngroups);
    rp_free_strings(t, r->ngroups);
    rp_gp_var(&p->vars, "xlabel_text", x->label);
    rp_gp_var(&p->vars, "ylabel_text", ylabel);
    return 0;
}

static int series_per_group(report *rp, const char *name, const char *title, const char *expr, const char *ylabel,
                            strbuf *err) {
    return rp_curve(rp, name, title, &RP_TIME_AXIS, expr, ylabel, err);
}

/* GPU, CPU and memory allocation of one run, % of the cluster's allocatable. */
/* A time-series plot (columns.gp) of run i's data file `stem`: hours, then
 * one column per name in `names`; the title says which run it shows. */
static void time_columns_plot(report *rp, size_t i, const char *stem, const char *what, char *const *names,
                              size_t n, const char *ylabel) {
    const rdb *r = rp->r;
    strbuf title = {0};
    sb_printf(&title, "%s (run %lld: %s, seed %lld)", what, (long long)r->runs[i].id, r->groups[r->runs[i].group],
              (long long)r->runs[i].seed);
    rplot *p = rp_new_plot(rp, stem, "columns.gp", sb_str(&title));
    sb_free(&title);
    rp_gp_array(&p->vars, "series", names, n);
    rp_gp_var(&p->vars, "xlabel_text", "simulated time (h)");
    rp_gp_var(&p->vars, "ylabel_text", ylabel);
}

static int utilization(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    size_t i = first_run_of(r, 0);
    strbuf sql = {0};
    sb_printf(&sql,
              "SELECT s.time_ms, s.gpu_alloc_pct, 100.0 * s.cpu_alloc_milli / max(1, n.cpu),"
              " 100.0 * s.memory_alloc_bytes / max(1, n.mem) FROM samples s,"
              " (SELECT sum(cpu_milli) AS cpu, sum(memory_bytes) AS mem FROM nodes WHERE run_id = %lld) n"
              " WHERE s.run_id = %lld ORDER BY s.time_ms",
              (long long)r->runs[i].id, (long long)r->runs[i].id);
    sqlite3_stmt *s = rp_prep(rp, sb_str(&sql), err);
    sb_free(&sql);
    if (!s) return -1;
    FILE *f = rp_open_data(rp, "utilization", err);
    if (!f) {
        sqlite3_finalize(s);
        return -1;
    }
    fputs("# hour gpu_pct cpu_pct memory_pct\n", f);
    while (sqlite3_step(s) == SQLITE_ROW)
        fprintf(f, "%.6f %.6g %.6g %.6g\n", sqlite3_column_double(s, 0) / 3600000.0, sqlite3_column_double(s, 1),
                sqlite3_column_double(s, 2), sqlite3_column_double(s, 3));
    sqlite3_finalize(s);
    fclose(f);
    char *names[] = {"GPU (MIG slices as fractions)", "CPU", "memory"};
    time_columns_plot(rp, i, "utilization", "Requested GPU, CPU and memory over time", names, 3,
                      "allocated (% of cluster allocatable)");
    return 0;
}

/* Runs with faults (fault_timeline, docs/DYNAMICS.md): the first such run's
 * GPUs in use, failed and tainted (the timeline's step value at each sample)
 * and its pending pods, over time. */
static int fault_timeline(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    sqlite3_stmt *q = rp_prep(rp, "SELECT min(run_id) FROM fault_timeline", err);
    if (!q) return -1;
    long long id = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_finalize(q);
    size_t i = 0;
    while (i < r->nruns && r->runs[i].id != id) i++;
    if (i == r->nruns) return 0;
    strbuf sql = {0};
    sb_printf(&sql,
              "SELECT s.time_ms, s.gpu_equiv_alloc, f.gpus_failed, f.gpus_tainted, s.pending_pods FROM samples s"
              " JOIN fault_timeline f ON f.run_id = s.run_id AND f.time_ms = (SELECT max(time_ms) FROM fault_timeline"
              " WHERE run_id = s.run_id AND time_ms <= s.time_ms) WHERE s.run_id = %lld ORDER BY s.time_ms", id);
    sqlite3_stmt *s = rp_prep(rp, sb_str(&sql), err);
    sb_free(&sql);
    if (!s) return -1;
    FILE *f = rp_open_data(rp, "faults", err);
    if (!f) {
        sqlite3_finalize(s);
        return -1;
    }
    fputs("# hour gpus_allocated gpus_failed gpus_tainted pending_pods\n", f);
    while (sqlite3_step(s) == SQLITE_ROW)
        fprintf(f, "%.6f %.6g %lld %lld %lld\n", sqlite3_column_double(s, 0) / 3600000.0, sqlite3_column_double(s, 1),
                (long long)sqlite3_column_int64(s, 2), (long long)sqlite3_column_int64(s, 3),
                (long long)sqlite3_column_int64(s, 4));
    sqlite3_finalize(s);
    fclose(f);
    char *names[] = {"GPUs allocated", "GPUs failed", "GPUs tainted (usable)", "pending pods"};
    time_columns_plot(rp, i, "faults", "Faults against allocation and pending pods", names, 4,
                      "GPUs / pods");
    return 0;
}

/* The cluster autoscaler's node groups over time (table autoscaler_nodes)
 * with the pending pods, for the first run: a column per node group (its
 * size at each sample: the last change at or before it) and one of pending
 * pods. */
static int autoscaler_nodes(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    size_t i = first_run_of(r, 0);
    long long id = (long long)r->runs[i].id;
    VEC(char *) names = {0};
    strbuf sql = {0};
    sb_printf(&sql, "SELECT DISTINCT node_group FROM autoscaler_nodes WHERE run_id = %lld ORDER BY rowid", id);
    sqlite3_stmt *s = rp_prep(rp, sb_str(&sql), err);
    while (s && sqlite3_step(s) == SQLITE_ROW) VEC_PUSH(names, xstrdup((const char *)sqlite3_column_text(s, 0)));
    sqlite3_finalize(s);
    if (!s || !names.len) {
        sb_free(&sql);
        VEC_FREE(names);
        return s ? 0 : -1;
    }
    sb_clear(&sql);
    sb_printf(&sql, "SELECT time_ms, pending_pods");
    for (size_t k = 0; k < names.len; k++) {
        char *q = sqlite3_mprintf(", (SELECT nodes FROM autoscaler_nodes a WHERE a.run_id = %lld AND a.node_group = %Q"
                                  " AND a.time_ms <= samples.time_ms ORDER BY a.time_ms DESC, a.rowid DESC LIMIT 1)",
                                  id, names.data[k]);
        sb_puts(&sql, q);
        sqlite3_free(q);
    }
    sb_printf(&sql, " FROM samples WHERE run_id = %lld ORDER BY time_ms", id);
    s = rp_prep(rp, sb_str(&sql), err);
    sb_free(&sql);
    FILE *f = s ? rp_open_data(rp, "autoscaler_nodes", err) : NULL;
    int rc = f ? 0 : -1;
    if (f) fputs("# hour pending nodes-per-group...\n", f);
    while (f && sqlite3_step(s) == SQLITE_ROW) {
        fprintf(f, "%.6f", sqlite3_column_double(s, 0) / 3600000.0);
        for (size_t k = 0; k < names.len; k++) fprintf(f, " %lld", (long long)sqlite3_column_int64(s, (int)k + 2));
        fprintf(f, " %lld\n", (long long)sqlite3_column_int64(s, 1));
    }
    sqlite3_finalize(s);
    if (f) fclose(f);
    if (!rc) {
        VEC_PUSH(names, xstrdup("pending pods"));
        for (size_t k = 0; k + 1 < names.len; k++) {
            char *t = xmalloc(strlen(names.data[k]) + 8);
            sprintf(t, "%s nodes", names.data[k]);
            free(names.data[k]);
            names.data[k] = t;
        }
        time_columns_plot(rp, i, "autoscaler_nodes", "Nodes per node group (cluster autoscaler) and pending pods",
                          names.data, names.len, "nodes / pods");
    }
    for (size_t k = 0; k < names.len; k++) free(names.data[k]);
    VEC_FREE(names);
    return rc;
}

static int wait_cdf(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    FILE *f = rp_open_data(rp, "wait_cdf", err);
    if (!f) return -1;
    int rc = 0;
    double y_min = 1;
    for (size_t g = 0; g < r->ngroups && !rc; g++) {
        strbuf ids = {0}, sql = {0};
        rp_group_ids(r, g, &ids);
        sb_printf(&sql, "SELECT wait_ms FROM pods WHERE wait_ms IS NOT NULL AND run_id IN (%s) ORDER BY wait_ms",
                  sb_str(&ids));
        sqlite3_stmt *s = rp_prep(rp, sb_str(&sql), err);
        sb_free(&ids);
        sb_free(&sql);
        if (!s) {
            rc = -1;
            break;
        }
        VEC(int64_t) w = {0};
        while (sqlite3_step(s) == SQLITE_ROW) VEC_PUSH(w, sqlite3_column_int64(s, 0));
        sqlite3_finalize(s);
        char n[48];
        snprintf(n, sizeof n, ": %zu scheduled pods", w.len);
        rp_data_comment(f, r->groups[g], n);
        /* one point per distinct wait: fraction of pods that waited at most that long */
        for (size_t k = 0; k < w.len; k++)
            if (k + 1 == w.len || w.data[k + 1] != w.data[k]) {
                double frac = (double)(k + 1) / (double)w.len;
                if (frac < y_min) y_min = frac;
                fprintf(f, "%.6g %.6f\n", (double)w.data[k] / 60000.0, frac);
            }
        if (!w.len) fputs("0 0\n", f);
        fputs("\n\n", f);
        VEC_FREE(w);
    }
    fclose(f);
    if (rc) return -1;
    rplot *p = rp_new_plot(rp, "wait_cdf", "cdf.gp", "Scheduling wait (arrival to bind), cumulative distribution");
    char **t = xcalloc(r->ngroups + 1, sizeof *t);
    for (size_t g = 0; g < r->ngroups; g++) t[g] = xstrdup(r->groups[g]);
    rp_gp_array(&p->vars, "series", t, r->ngroups);
    rp_free_strings(t, r->ngroups);
    rp_gp_var(&p->vars, "xlabel_text", "wait (min)");
    rp_gp_var(&p->vars, "ylabel_text", "fraction of scheduled pods that waited at most x");
    /* start the y axis just below the smallest fraction: on a 0.01 grid above
     * 0.9, else on a 0.05 grid */
    double grid = y_min > 0.9 ? 100.0 : 20.0;
    sb_printf(&p->vars, "y_min = %.2f\n", floor(y_min * grid - 1e-9) / grid);
    return 0;
}

/* A bar chart: categories x groups, mean/min/max over each group's runs.
 * values[run * ncat + c] (NAN = not present in that run). Each row starts
 * with the category's number (1..): its name is in the script's array
 * `categories`, never in the data file. */
static void write_bars(report *rp, FILE *f, size_t ncat, const double *values) {
    const rdb *r = rp->r;
    fputs("# category", f);
    for (size_t g = 0; g < r->ngroups; g++) fprintf(f, " mean%zu min max", g + 1);
    fputc('\n', f);
    for (size_t c = 0; c < ncat; c++) {
        fprintf(f, "%zu", c + 1);
        for (size_t g = 0; g < r->ngroups; g++) {
            double sum = 0, lo = NAN, hi = NAN;
            size_t n = 0;
            for (size_t i = 0; i < r->nruns; i++) {
                double v = values[i * ncat + c];
                if (r->runs[i].group != g || isnan(v)) continue;
                sum += v;
                lo = n && lo < v ? lo : v;
                hi = n && hi > v ? hi : v;
                n++;
            }
            if (n) fprintf(f, " %.6g %.6g %.6g", sum / (double)n, lo, hi);
            else fputs(" 0 0 0", f);
        }
        fputc('\n', f);
    }
}

static int cat_index(char ***cats, size_t *ncat, const char *name) {
    for (size_t c = 0; c < *ncat; c++)
        if (!strcmp((*cats)[c], name)) return (int)c;
    *cats = xrealloc(*cats, (*ncat + 1) * sizeof **cats);
    (*cats)[*ncat] = xstrdup(name);
    return (int)(*ncat)++;
}

int rp_bar_plot(report *rp, const char *name, const char *title, const char *ylabel, char **cats,
                        size_t ncat, const double *values, strbuf *err) {
    FILE *f = rp_open_data(rp, name, err);
    if (!f) return -1;
    write_bars(rp, f, ncat, values);
    fclose(f);
    rplot *p = rp_new_plot(rp, name, "bars.gp", title);
    rp_gp_array(&p->vars, "categories", cats, ncat);
    char **t = series_titles(rp->r, true);
    rp_gp_array(&p->vars, "series", t, rp->r->ngroups);
    rp_free_strings(t, rp->r->ngroups);
    rp_gp_var(&p->vars, "ylabel_text", ylabel);
    rp_gp_var(&p->vars, "xlabel_text", whisker_note(rp->r));
    return 0;
}

/* Time-weighted mean allocation of each extended resource (GPUs, each MIG
 * profile), % of its allocatable units, from sample_resources. */
static int alloc_by_resource(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    char **cats = NULL;
    size_t ncat = 0;
    sqlite3_stmt *s = rp_prep(rp, "SELECT resource, time_ms, allocated, allocatable FROM sample_resources"
                               " WHERE run_id = ? ORDER BY resource, time_ms", err);
    if (!s) return -1;
    typedef struct { int run, cat; double used, cap; } cell;
    VEC(cell) cells = {0};
    for (size_t i = 0; i < r->nruns; i++) {
        sqlite3_bind_int64(s, 1, r->runs[i].id);
        char prev[256] = "";
        int64_t pt = 0, pa = 0, pc = 0;
        cell cur = {(int)i, -1, 0, 0};
        while (sqlite3_step(s) == SQLITE_ROW) {
            const char *res = (const char *)sqlite3_column_text(s, 0);
            int64_t t = sqlite3_column_int64(s, 1), a = sqlite3_column_int64(s, 2), c = sqlite3_column_int64(s, 3);
            if (strcmp(res, prev)) {
                if (cur.cat >= 0) VEC_PUSH(cells, cur);
                snprintf(prev, sizeof prev, "%s", res);
                cur.cat = cat_index(&cats, &ncat, res);
                cur.used = cur.cap = 0;
            } else {
                cur.used += (double)pa * (double)(t - pt);
                cur.cap += (double)pc * (double)(t - pt);
            }
            pt = t;
            pa = a;
            pc = c;
        }
        if (cur.cat >= 0) VEC_PUSH(cells, cur);
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    int rc = 0;
    if (ncat) {
        double *values = xmalloc(r->nruns * ncat * sizeof *values);
        for (size_t k = 0; k < r->nruns * ncat; k++) values[k] = NAN;
        for (size_t k = 0; k < cells.len; k++)
            if (cells.data[k].cap > 0)
                values[(size_t)cells.data[k].run * ncat + (size_t)cells.data[k].cat] =
                    100.0 * cells.data[k].used / cells.data[k].cap;
        rc = rp_bar_plot(rp, "alloc_by_resource", "Mean allocation by device resource (GPU and MIG profile)",
                          "allocated, time-weighted mean (% of its units)", cats, ncat, values, err);
        free(values);
    }
    VEC_FREE(cells);
    rp_free_strings(cats, ncat);
    return rc;
}

/* GPU-equivalents of one unit of each resource of one run (from the devices
 * table, loaded once per run; else the engine's rule). */
typedef struct equiv_table {
    VEC(char *) res;
    VEC(double) equiv;
} equiv_table;

static void equiv_load(sqlite3_stmt *eq, int64_t id, equiv_table *t) {
    for (size_t i = 0; i < t->res.len; i++) free(t->res.data[i]);
    t->res.len = t->equiv.len = 0;
    sqlite3_bind_int64(eq, 1, id);
    while (sqlite3_step(eq) == SQLITE_ROW) {
        VEC_PUSH(t->res, xstrdup((const char *)sqlite3_column_text(eq, 0)));
        VEC_PUSH(t->equiv, sqlite3_column_double(eq, 1));
    }
    sqlite3_reset(eq);
}

static void equiv_free(equiv_table *t) {
    for (size_t i = 0; i < t->res.len; i++) free(t->res.data[i]);
    VEC_FREE(t->res);
    VEC_FREE(t->equiv);
}

static double unit_equiv(const equiv_table *t, const char *res) {
    for (size_t i = 0; i < t->res.len; i++)
        if (!strcmp(t->res.data[i], res)) return t->equiv.data[i];
    return sim_gpu_equiv(res, 1);
}

/* GPU-equivalents a pod held: "nvidia.com/gpu=0,1;nvidia.com/mig-1g.10gb=3". */
static double pod_equiv(const equiv_table *t, const char *devices) {
    double total = 0;
    const char *p = devices;
    while (*p) {
        const char *e = strchr(p, '='), *end = strchr(p, ';');
        if (!end) end = p + strlen(p);
        if (!e || e > end) break;
        char res[256];
        snprintf(res, sizeof res, "%.*s", (int)(e - p), p);
        size_t units = 1;
        for (const char *c = e + 1; c < end; c++) units += *c == ',';
        total += (double)units * unit_equiv(t, res);
        p = *end ? end + 1 : end;
    }
    return total;
}

/* Mean allocation of each GPU model's GPUs over the run: GPU-hours held by
 * pods on nodes of that model / (its GPUs * run length). */
static int alloc_by_model(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    /* alloc_groups (both modes, GPU-equivalents as gpu_total): the GPU-hours are exact; older
     * databases: from the pods' device-plugin units */
    bool groups = rdb_has_table(r, "alloc_groups");
    sqlite3_stmt *cap = rp_prep(rp, groups ? "SELECT gpu_model, sum(gpus), sum(gpu_hours_allocated) * 3600000.0"
                                          " FROM alloc_groups WHERE run_id = ? AND gpus > 0 AND gpu_model IS NOT NULL"
                                          " GROUP BY gpu_model ORDER BY gpu_model"
                                        : "SELECT gpu_model, sum(gpus), 0 FROM nodes WHERE run_id = ? AND gpus > 0"
                                          " AND gpu_model IS NOT NULL GROUP BY gpu_model ORDER BY gpu_model", err);
    sqlite3_stmt *use = rp_prep(rp, "SELECT n.gpu_model, p.devices, p.scheduled_ms, coalesce(p.completion_ms, ?)"
                                 " FROM pods p JOIN nodes n ON n.run_id = p.run_id AND n.node_id = p.node_id"
                                 " WHERE p.run_id = ? AND p.scheduled_ms IS NOT NULL AND p.devices IS NOT NULL"
                                 " AND n.gpu_model IS NOT NULL", err);
    sqlite3_stmt *eq = rp_prep(rp, "SELECT resource, avg(gpu_equiv) FROM devices WHERE run_id = ? GROUP BY resource", err);
    equiv_table et = {0};
    int rc = cap && use && eq ? 0 : -1;
    char **cats = NULL;
    size_t ncat = 0;
    typedef struct { size_t run; int cat; double gpus, held; } cell;
    VEC(cell) cells = {0};
    for (size_t i = 0; i < r->nruns && !rc; i++) {
        size_t base = cells.len;
        sqlite3_bind_int64(cap, 1, r->runs[i].id);
        while (sqlite3_step(cap) == SQLITE_ROW) {
            cell c = {i, cat_index(&cats, &ncat, (const char *)sqlite3_column_text(cap, 0)),
                      sqlite3_column_double(cap, 1), sqlite3_column_double(cap, 2)};
            VEC_PUSH(cells, c);
        }
        sqlite3_reset(cap);
        if (groups) continue;
        equiv_load(eq, r->runs[i].id, &et);
        sqlite3_bind_int64(use, 1, r->runs[i].end_ms);
        sqlite3_bind_int64(use, 2, r->runs[i].id);
        while (sqlite3_step(use) == SQLITE_ROW) {
            const char *model = (const char *)sqlite3_column_text(use, 0);
            double ms = (double)(sqlite3_column_int64(use, 3) - sqlite3_column_int64(use, 2));
            double e = pod_equiv(&et, (const char *)sqlite3_column_text(use, 1));
            for (size_t k = base; k < cells.len; k++)
                if (!strcmp(cats[cells.data[k].cat], model)) cells.data[k].held += e * ms;
        }
        sqlite3_reset(use);
    }
    sqlite3_finalize(cap);
    sqlite3_finalize(use);
    sqlite3_finalize(eq);
    equiv_free(&et);
    if (!rc && ncat) {
        double *values = xmalloc(r->nruns * ncat * sizeof *values);
        for (size_t k = 0; k < r->nruns * ncat; k++) values[k] = NAN;
        for (size_t k = 0; k < cells.len; k++) {
            double span = (double)r->runs[cells.data[k].run].end_ms;
            if (cells.data[k].gpus > 0 && span > 0)
                values[cells.data[k].run * ncat + (size_t)cells.data[k].cat] =
                    100.0 * cells.data[k].held / (cells.data[k].gpus * span);
        }
        rc = rp_bar_plot(rp, "alloc_by_model", "Mean GPU allocation by GPU model",
                          "allocated GPUs, time-weighted mean (% of the model's GPUs)", cats, ncat, values, err);
        free(values);
    }
    VEC_FREE(cells);
    rp_free_strings(cats, ncat);
    return rc;
}

/* Where idle GPU capacity goes (samples.idle_*, stranded_gpus; docs/SCHEMA.md):
 * one configuration: the five causes over time, in GPUs, of its first run;
 * several: each cause's time-weighted mean (summary idle_*_gpus_mean,
 * stranded_gpus_mean) per configuration, bars with min..max whiskers. */
static const char *const IDLE_COLS[] = {"idle_usable_gpus", "stranded_gpus", "idle_mig_layout_gpus",
                                        "idle_fragmented_gpus", "idle_unavailable_gpus"};
static char *IDLE_NAMES[] = {"usable", "stranded (CPU, memory, pod slots)", "static MIG layout", "fragmented",
                             "unavailable"};
#define NIDLE (sizeof IDLE_COLS / sizeof *IDLE_COLS)

static int idle_capacity(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    if (r->ngroups > 1) {
        double *values = xmalloc(r->nruns * NIDLE * sizeof *values);
        bool any = false;
        for (size_t c = 0; c < NIDLE; c++) {
            strbuf m = {0};
            sb_printf(&m, "%s_mean", IDLE_COLS[c]);
            int mi = rdb_metric_index(r, sb_str(&m));
            sb_free(&m);
            for (size_t i = 0; i < r->nruns; i++) {
                values[i * NIDLE + c] = mi >= 0 ? rdb_value(r, i, mi) : NAN;
                if (!isnan(values[i * NIDLE + c])) any = true;
            }
        }
        int rc = any ? rp_bar_plot(rp, "idle_capacity", "Where idle GPU capacity goes (time-weighted mean per cause)",
                                    "idle GPUs, time-weighted mean", IDLE_NAMES, NIDLE, values, err)
                     : 0;
        free(values);
        return rc;
    }
    size_t i = first_run_of(r, 0);
    strbuf sql = {0};
    sb_puts(&sql, "SELECT time_ms");
    for (size_t c = 0; c < NIDLE; c++) sb_printf(&sql, ", coalesce(\"%s\", 0)", IDLE_COLS[c]);
    sb_printf(&sql, " FROM samples WHERE run_id = %lld AND idle_gpus IS NOT NULL ORDER BY time_ms",
              (long long)r->runs[i].id);
    sqlite3_stmt *s = rp_prep(rp, sb_str(&sql), err);
    sb_free(&sql);
    if (!s) return -1;
    FILE *f = rp_open_data(rp, "idle_capacity", err);
    if (!f) {
        sqlite3_finalize(s);
        return -1;
    }
    fputs("# hour idle_usable_gpus stranded_gpus idle_mig_layout_gpus idle_fragmented_gpus idle_unavailable_gpus\n", f);
    while (sqlite3_step(s) == SQLITE_ROW) {
        fprintf(f, "%.6f", sqlite3_column_double(s, 0) / 3600000.0);
        for (size_t c = 0; c < NIDLE; c++) fprintf(f, " %.6g", sqlite3_column_double(s, (int)c + 1));
        fputc('\n', f);
    }
    sqlite3_finalize(s);
    fclose(f);
    time_columns_plot(rp, i, "idle_capacity", "Where idle GPU capacity goes over time", IDLE_NAMES, NIDLE,
                      "idle GPUs (GPU-equivalents)");
    return 0;
}

/* Mean allocation of each node pool's GPUs (alloc_groups, both modes):
 * GPU-hours allocated / (its GPUs x run length), % per configuration. */
static int alloc_by_pool(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    sqlite3_stmt *s = rp_prep(rp, "SELECT pool, sum(gpus), sum(gpu_hours_allocated) FROM alloc_groups"
                               " WHERE run_id = ? AND gpus > 0 AND pool IS NOT NULL GROUP BY pool ORDER BY pool", err);
    if (!s) return -1;
    char **cats = NULL;
    size_t ncat = 0;
    typedef struct { size_t run; int cat; double pct; } cell;
    VEC(cell) cells = {0};
    for (size_t i = 0; i < r->nruns; i++) {
        sqlite3_bind_int64(s, 1, r->runs[i].id);
        double hours = (double)r->runs[i].end_ms / 3600000.0;
        while (sqlite3_step(s) == SQLITE_ROW) {
            double gpus = sqlite3_column_double(s, 1);
            cell c = {i, cat_index(&cats, &ncat, (const char *)sqlite3_column_text(s, 0)),
                      hours > 0 ? 100.0 * sqlite3_column_double(s, 2) / (gpus * hours) : NAN};
            VEC_PUSH(cells, c);
        }
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    int rc = 0;
    if (ncat) {
        double *values = xmalloc(r->nruns * ncat * sizeof *values);
        for (size_t k = 0; k < r->nruns * ncat; k++) values[k] = NAN;
        for (size_t k = 0; k < cells.len; k++)
            values[cells.data[k].run * ncat + (size_t)cells.data[k].cat] = cells.data[k].pct;
        rc = rp_bar_plot(rp, "alloc_by_pool", "Mean GPU allocation by node pool",
                          "allocated GPUs, time-weighted mean (% of the pool's GPU-hours)", cats, ncat, values, err);
        free(values);
    }
    VEC_FREE(cells);
    rp_free_strings(cats, ncat);
    return rc;
}

/* Bars from `sql` (bound to each run's id; rows: category, value), a bar per
 * configuration and category (as alloc_by_pool). */
int rp_sql_bars(report *rp, const char *name, const char *title, const char *ylabel, const char *sql,
                    strbuf *err) {
    const rdb *r = rp->r;
    sqlite3_stmt *s = rp_prep(rp, sql, err);
    if (!s) return -1;
    char **cats = NULL;
    size_t ncat = 0;
    typedef struct { size_t run; int cat; double v; } cell;
    VEC(cell) cells = {0};
    for (size_t i = 0; i < r->nruns; i++) {
        sqlite3_bind_int64(s, 1, r->runs[i].id);
        while (sqlite3_step(s) == SQLITE_ROW) {
            const char *c = (const char *)sqlite3_column_text(s, 0);
            cell x = {i, cat_index(&cats, &ncat, c ? c : "(none)"),
                      sqlite3_column_type(s, 1) == SQLITE_NULL ? NAN : sqlite3_column_double(s, 1)};
            VEC_PUSH(cells, x);
        }
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    int rc = 0;
    if (ncat) {
        double *values = xmalloc(r->nruns * ncat * sizeof *values);
        for (size_t k = 0; k < r->nruns * ncat; k++) values[k] = NAN;
        for (size_t k = 0; k < cells.len; k++) values[cells.data[k].run * ncat + (size_t)cells.data[k].cat] = cells.data[k].v;
        rc = rp_bar_plot(rp, name, title, ylabel, cats, ncat, values, err);
        free(values);
    }
    VEC_FREE(cells);
    rp_free_strings(cats, ncat);
    return rc;
}

/* Runs with the usage model (docs/SHARING.md): GPU-hours allocated, used and
 * idle while allocated, the slowdown sharing cost, and the used share of
 * allocated GPU time per group and per node pool; bars per configuration. */
static int usage_plots(report *rp, strbuf *err) {
    static const char *const hours[] = {"usage_gpu_hours_allocated", "usage_gpu_hours_used", "usage_gpu_hours_idle"};
    static const char *const slow[] = {"slowdown_mean", "slowdown_p95", "slowdown_max"};
    static const char *const ncat[] = {"allocated", "used", "idle while allocated", "mean", "p95", "max"};
    strbuf q = {0};
    int rc = 0;
    for (int plot = 0; plot < 2 && !rc; plot++) {
        const char *const *m = plot ? slow : hours;
        sb_clear(&q);
        sb_puts(&q, "SELECT CASE metric");
        for (int k = 0; k < 3; k++) sb_printf(&q, " WHEN '%s' THEN '%s'", m[k], ncat[plot * 3 + k]);
        sb_printf(&q, " END, value FROM summary WHERE run_id = ? AND grp = '' AND metric IN ('%s', '%s', '%s')"
                      " ORDER BY CASE metric WHEN '%s' THEN 0 WHEN '%s' THEN 1 ELSE 2 END", m[0], m[1], m[2], m[0], m[1]);
        rc = plot ? rp_sql_bars(rp, "slowdown", "Slowdown from sharing GPUs", "run time / duration", sb_str(&q), err)
                  : rp_sql_bars(rp, "usage", "GPU-hours allocated versus used", "GPU-hours", sb_str(&q), err);
    }
    sb_free(&q);
    if (!rc)
        rc = rp_sql_bars(rp, "usage_by_group", "Used share of allocated GPU time, by group",
                      "GPU-hours used (% of allocated)",
                      "SELECT grp, value FROM summary WHERE run_id = ? AND grp != '' AND metric = 'usage_used_pct'"
                      " ORDER BY grp", err);
    if (!rc && rdb_has_table(rp->r, "usage_pools"))
        rc = rp_sql_bars(rp, "usage_by_pool", "Used share of allocated GPU time, by node pool",
                      "GPU-hours used (% of allocated)",
                      "SELECT pool, CASE WHEN sum(gpu_hours_allocated) > 0 THEN 100.0 * sum(gpu_hours_used) /"
                      " sum(gpu_hours_allocated) END FROM usage_pools WHERE run_id = ? GROUP BY pool ORDER BY pool", err);
    return rc;
}

/* With several runs: one bar chart per key metric, a bar per group. */
/* The value of `key` in a sweep point "k=v k2=v2", copied into out; false when absent. */
static bool point_value(const char *point, const char *key, strbuf *out) {
    size_t kl = strlen(key);
    for (const char *p = point; p && *p;) {
        size_t n = strcspn(p, " ");
        if (n > kl && !strncmp(p, key, kl) && p[kl] == '=') {
            sb_clear(out);
            sb_append(out, p + kl + 1, n - kl - 1);
            return true;
        }
        p += n + (p[n] == ' ');
    }
    return false;
}

static bool numeric(const char *s, double *v) {
    char *end;
    *v = strtod(s, &end);
    return *s && !*end && isfinite(*v);
}

/* The first swept parameter that every run has with a numeric value, and
 * that takes at least two values; NULL when none. */
static char *numeric_sweep_param(const rdb *r) {
    if (!r->nruns || !r->runs[0].point) return NULL;
    strbuf v = {0};
    char *found = NULL;
    for (const char *p = r->runs[0].point; *p && !found;) {
        size_t n = strcspn(p, " ");
        const char *eq = memchr(p, '=', n);
        if (eq) {
            char *key = xstrndup(p, (size_t)(eq - p));
            bool ok = true, two = false;
            double first = 0, x;
            for (size_t i = 0; i < r->nruns && ok; i++) {
                ok = r->runs[i].point && point_value(r->runs[i].point, key, &v) && numeric(sb_str(&v), &x);
                if (ok && i == 0) first = x;
                if (ok && x != first) two = true;
            }
            if (ok && two) found = key;
            else free(key);
        }
        p += n + (p[n] == ' ');
    }
    sb_free(&v);
    return found;
}

/* A summary metric against the numeric swept parameter: one curve per
 * configuration of everything else, mean and 95% CI over seeds at each value.
 * The axis names the parameter in full (cluster.nodePools.h100.count). */
static int sweep_metrics(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    char *key = numeric_sweep_param(r);
    if (!key) return 0;
    /* series: the runs' configuration keys without the parameter */
    size_t *series = xcalloc(r->nruns, sizeof *series);
    double *xs = xcalloc(r->nruns, sizeof *xs);
    VEC(char *) skeys = {0};
    VEC(char *) labels = {0};
    strbuf v = {0}, k = {0}, lab = {0};
    bool vary_sc = false, vary_mode = false, vary_pol = false;
    for (size_t i = 1; i < r->nruns; i++) {
        vary_sc |= strcmp(r->runs[i].scenario, r->runs[0].scenario) != 0;
        vary_mode |= strcmp(r->runs[i].mode, r->runs[0].mode) != 0;
        vary_pol |= strcmp(r->runs[i].policy, r->runs[0].policy) != 0;
    }
    size_t kl = strlen(key);
    for (size_t i = 0; i < r->nruns; i++) {
        const rdb_run *u = &r->runs[i];
        point_value(u->point, key, &v);
        numeric(sb_str(&v), &xs[i]);
        sb_clear(&k);
        sb_clear(&lab);
        sb_printf(&k, "%s|%s|%s|", u->scenario, u->mode, u->policy);
        if (vary_sc) sb_printf(&lab, "%s", u->scenario);
        /* a swept scheduling.mode / scoring / policy already shows in the point */
        if (vary_mode && !strstr(u->point, "scheduling.mode=")) sb_printf(&lab, "%s%s", lab.len ? " " : "", u->mode);
        if (vary_pol && !strstr(u->point, "scheduling.scoring=") && !strstr(u->point, "scheduling.policy="))
            sb_printf(&lab, "%s%s", lab.len ? " " : "", u->policy);
        for (const char *p = u->point; *p;) {   /* the other parameters */
            size_t n = strcspn(p, " ");
            if (!(n > kl && !strncmp(p, key, kl) && p[kl] == '=')) {
                sb_append(&k, p, n), sb_putc(&k, ' ');
                if (lab.len) sb_putc(&lab, ' ');
                sb_append(&lab, p, n);
            }
            p += n + (p[n] == ' ');
        }
        size_t s = 0;
        while (s < skeys.len && strcmp(skeys.data[s], sb_str(&k))) s++;
        if (s == skeys.len) {
            VEC_PUSH(skeys, xstrdup(sb_str(&k)));
            VEC_PUSH(labels, xstrdup(lab.len ? sb_str(&lab) : key));
        }
        series[i] = s;
    }
    static const char *const wanted[] = {"gpu_alloc_pct", "wait_mean_s", "wait_p99_s", "wait_censored_p99_s",
                                         "pods_pending_at_end"};
    int rc = 0;
    double *vals = xcalloc(r->nruns + 1, sizeof *vals);
    bool *done = xcalloc(r->nruns + 1, sizeof *done);
    for (size_t w = 0; w < sizeof wanted / sizeof *wanted && !rc; w++) {
        int m = rdb_metric_index(r, wanted[w]);
        if (m < 0) continue;
        strbuf stem = {0}, title = {0}, ylabel = {0};
        sb_printf(&stem, "sweep_%s", wanted[w]);
        sb_printf(&title, "%s vs the swept parameter (mean, 95%% CI over seeds)", wanted[w]);
        FILE *f = rp_open_data(rp, sb_str(&stem), err);
        if (!f) {
            rc = -1;
            break;
        }
        bool pct = strstr(wanted[w], "_pct") != NULL;
        for (size_t s = 0; s < skeys.len; s++) {
            rp_data_comment(f, labels.data[s], "");
            memset(done, 0, r->nruns * sizeof *done);
            for (;;) {   /* the next smallest x of this series */
                size_t at = SIZE_MAX;
                for (size_t i = 0; i < r->nruns; i++)
                    if (series[i] == s && !done[i] && (at == SIZE_MAX || xs[i] < xs[at])) at = i;
                if (at == SIZE_MAX) break;
                size_t n = 0;
                for (size_t i = 0; i < r->nruns; i++)
                    if (series[i] == s && !done[i] && xs[i] == xs[at]) {
                        done[i] = true;
                        if (!isnan(rdb_value(r, i, m))) vals[n++] = rdb_value(r, i, m);
                    }
                if (!n) continue;
                mean_ci c = mean_ci95(vals, n);
                double half = isnan(c.half) ? 0 : c.half, lo = c.mean - half, hi = c.mean + half;
                lo = fmax(0.0, lo);   /* none of these metrics is negative */
                if (pct) hi = fmin(100.0, hi);
                fprintf(f, "%.6g %.6g %.6g %.6g\n", xs[at], c.mean, lo, hi);
            }
            fputs("\n\n", f);
        }
        fclose(f);
        rplot *p = rp_new_plot(rp, sb_str(&stem), "timeseries.gp", sb_str(&title));
        rp_gp_array(&p->vars, "series", labels.data, labels.len);
        rp_gp_var(&p->vars, "xlabel_text", key);
        sb_printf(&ylabel, "%s (%s)", wanted[w], pct ? "%" : strstr(wanted[w], "_s") ? "s" : "pods");
        rp_gp_var(&p->vars, "ylabel_text", sb_str(&ylabel));
        sb_free(&stem);
        sb_free(&title);
        sb_free(&ylabel);
    }
    free(vals);
    free(done);
    free(series);
    free(xs);
    rp_free_strings(skeys.data, skeys.len);
    rp_free_strings(labels.data, labels.len);
    sb_free(&v);
    sb_free(&k);
    sb_free(&lab);
    free(key);
    return rc;
}

static int compare_metrics(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    for (size_t m = 0; m < r->nmetrics; m++) {
        const char *name = r->metrics[m];
        if (strcmp(name, "gpu_alloc_pct") && strcmp(name, "wait_mean_s") && strcmp(name, "wait_p99_s") &&
            strcmp(name, "pods_pending_at_end") && strncmp(name, "frag", 4) && strcmp(name, "stranded_gpus_mean") &&
            strcmp(name, "nodes_fit_8_min") && strcmp(name, "ca_cost") && strcmp(name, "ca_node_hours"))
            continue;
        if (!plain_name(name)) continue;   /* a stem, never a path */
        strbuf stem = {0}, title = {0}, file = {0};
        sb_printf(&stem, "compare_%s", name);
        sb_printf(&title, "%s by configuration", name);
        FILE *f = rp_open_data(rp, sb_str(&stem), err);
        if (!f) return -1;
        fputs("# group mean min max (group names: the array categories in plots.gp)\n", f);
        for (size_t g = 0; g < r->ngroups; g++) {
            rdb_stats st = rdb_group_stats(r, g, (int)m);
            if (st.n) fprintf(f, "%zu %.6g %.6g %.6g\n", g + 1, st.mean, st.min, st.max);
            else fprintf(f, "%zu 0 0 0\n", g + 1);
        }
        fclose(f);
        rplot *p = rp_new_plot(rp, sb_str(&stem), "bars.gp", sb_str(&title));
        rp_gp_array(&p->vars, "categories", r->groups, r->ngroups);
        char *series[] = {(char *)name};
        rp_gp_array(&p->vars, "series", series, 1);
        const char *unit = strstr(name, "_pct") ? "%" : !strcmp(name, "ca_cost") ? "price units" : !strcmp(name, "ca_node_hours") ? "node-hours" : strstr(name, "_s") ? "s" : "pods";
        sb_printf(&file, "%s (%s)", name, unit);
        rp_gp_var(&p->vars, "ylabel_text", sb_str(&file));
        rp_gp_var(&p->vars, "xlabel_text", whisker_note(r));
        sb_free(&stem);
        sb_free(&title);
        sb_free(&file);
    }
    return 0;
}

/* arrival_curve (when the table exists, trace replays): each of its value
 * columns against the arrived demand (arrived_pct) or time, one curve per
 * configuration (mean, min..max over seeds): "GPU allocation vs arrived
 * demand" as in the FGD paper. */
static int arrival_curves(report *rp, strbuf *err) {
    sqlite3_stmt *cols = rp_prep(rp, "SELECT name FROM pragma_table_info('arrival_curve') ORDER BY cid", err);
    if (!cols) return -1;
    VEC(char *) names = {0};
    char *xcol = NULL;
    while (sqlite3_step(cols) == SQLITE_ROW) {
        const char *c = (const char *)sqlite3_column_text(cols, 0);
        if (!c || !plain_name(c) || !strcmp(c, "run_id")) continue;   /* a stem and an SQL name, never code */
        if (!xcol && (!strcmp(c, "arrived_pct") || !strcmp(c, "time_ms"))) xcol = xstrdup(c);
        else VEC_PUSH(names, xstrdup(c));
    }
    sqlite3_finalize(cols);
    int rc = 0;
    bool by_time = xcol && !strcmp(xcol, "time_ms");
    xaxis x = {"arrival_curve", xcol, by_time ? 3600000.0 : 1.0,
               by_time ? "simulated time (h)" : "arrived GPU demand (% of the cluster's GPUs)"};
    for (size_t k = 0; k < names.len && xcol && !rc; k++) {
        const char *c = names.data[k];
        strbuf stem = {0}, title = {0}, expr = {0}, ylabel = {0};
        sb_printf(&stem, "arrival_%s", c);
        const char *human = !strcmp(c, "gpu_alloc_pct")    ? "GPU allocation"
                            : !strcmp(c, "frag_gpu_pct")   ? "Fragmented GPUs (% of all GPUs)"
                            : !strcmp(c, "frag_ratio_pct") ? "Fragmentation ratio (% of idle GPUs)"
                                                           : c;
        sb_printf(&title, "%s vs arrived GPU demand", human);
        sb_printf(&expr, "\"%s\"", c);
        sb_printf(&ylabel, "%s%s", c, strstr(c, "_pct") ? " (%)" : "");
        rc = rp_curve(rp, sb_str(&stem), sb_str(&title), &x, sb_str(&expr), sb_str(&ylabel), err);
        sb_free(&stem);
        sb_free(&title);
        sb_free(&expr);
        sb_free(&ylabel);
    }
    for (size_t k = 0; k < names.len; k++) free(names.data[k]);
    VEC_FREE(names);
    free(xcol);
    return rc;
}

/* Does samples have column `col` with at least one value (placement-quality
 * columns are NULL in runs that did not measure them)? `col` is a constant. */
static bool samples_have(report *rp, const char *col) {
    if (!rdb_has_column(rp->r, "samples", col)) return false;
    strbuf sql = {0};
    sb_printf(&sql, "SELECT 1 FROM samples WHERE \"%s\" IS NOT NULL LIMIT 1", col);
    sqlite3_stmt *s = NULL;
    bool yes = sqlite3_prepare_v2(rp->r->db, sb_str(&sql), -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW;
    sqlite3_finalize(s);
    sb_free(&sql);
    return yes;
}

/* Nodes that could take a pod of 1, 2, 4, 8 GPUs over time: one
 * configuration: the four lines of its first run; several: the 8-GPU line
 * per configuration. */
static int nodes_fit(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    if (r->ngroups > 1)
        return series_per_group(rp, "nodes_fit", "Nodes that could take an 8-GPU pod over time", "nodes_fit_8",
                                "nodes with 8 free GPUs and room for the smallest GPU pod", err);
    size_t i = first_run_of(r, 0);
    strbuf sql = {0};
    sb_printf(&sql, "SELECT time_ms, nodes_fit_1, nodes_fit_2, nodes_fit_4, nodes_fit_8 FROM samples"
                    " WHERE run_id = %lld AND nodes_fit_1 IS NOT NULL ORDER BY time_ms", (long long)r->runs[i].id);
    sqlite3_stmt *s = rp_prep(rp, sb_str(&sql), err);
    sb_free(&sql);
    if (!s) return -1;
    FILE *f = rp_open_data(rp, "nodes_fit", err);
    if (!f) {
        sqlite3_finalize(s);
        return -1;
    }
    fputs("# hour nodes_fit_1 nodes_fit_2 nodes_fit_4 nodes_fit_8\n", f);
    while (sqlite3_step(s) == SQLITE_ROW)
        fprintf(f, "%.6f %lld %lld %lld %lld\n", sqlite3_column_double(s, 0) / 3600000.0,
                (long long)sqlite3_column_int64(s, 1), (long long)sqlite3_column_int64(s, 2),
                (long long)sqlite3_column_int64(s, 3), (long long)sqlite3_column_int64(s, 4));
    sqlite3_finalize(s);
    fclose(f);
    char *names[] = {"1 GPU", "2 GPUs", "4 GPUs", "8 GPUs"};
    time_columns_plot(rp, i, "nodes_fit", "Nodes that could take an N-GPU pod over time", names, 4,
                      "nodes with N free GPUs and room for the smallest GPU pod");
    return 0;
}

/* Placement quality over time (samples' frag_gpu_pct ... frag_mig_pct, when
 * the run measured them): FGD fragmentation, stranded GPUs, nodes that fit
 * an N-GPU pod, MIG fragmentation. */
static int quality(report *rp, strbuf *err) {
    int rc = 0;
    if (samples_have(rp, "frag_gpu_pct"))
        rc = series_per_group(rp, "frag_over_time", "FGD fragmentation over time", "frag_gpu_pct",
                              "fragmented GPUs (% of all GPUs)", err);
    if (!rc && samples_have(rp, "stranded_gpus"))
        rc = series_per_group(rp, "stranded_gpus", "Stranded GPUs over time (idle, on nodes out of CPU, memory or pod slots)",
                              "stranded_gpus", "stranded GPUs", err);
    if (!rc && samples_have(rp, "nodes_fit_8")) rc = nodes_fit(rp, err);
    if (!rc && samples_have(rp, "idle_gpus")) rc = idle_capacity(rp, err);
    if (!rc && samples_have(rp, "frag_mig_pct"))
        rc = series_per_group(rp, "frag_mig_over_time", "MIG fragmentation over time", "frag_mig_pct",
                              "fragmented MIG slices (% of the MIG GPUs' slices)", err);
    return rc;
}

/* The staged data files: renamed to their names (ok) or removed. */
static int finish_staged(report *rp, bool ok, strbuf *err) {
    int rc = 0;
    for (size_t i = 0; i < rp->staged.len; i++) {
        char *tmp = rp->staged.data[i], *cut = strrchr(tmp, '.');   /* ".tmp-PID" */
        if (ok && !rc) {
            strbuf to = {0};
            sb_append(&to, tmp, (size_t)(cut - tmp));
            if (rename(tmp, sb_str(&to))) {
                sb_clear(err);
                sb_printf(err, "%s: cannot write: %s", sb_str(&to), strerror(errno));
                rc = -1;
            }
            sb_free(&to);
        }
        if (!ok || rc) unlink(tmp);
        free(tmp);
    }
    VEC_FREE(rp->staged);
    return rc;
}

static int collect_all(report *rp, strbuf *err);
int report_collect(report *rp, strbuf *err) {
    int rc = collect_all(rp, err);
    rc = finish_staged(rp, rc == 0, err) || rc ? -1 : 0;
    if (!rc) report_prune_empty(rp);   /* reads the data files under their names */
    return rc;
}

static int collect_all(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    if (!r->nruns) return 0;
    /* every plot is optional: a database may lack tables (hand-made, older,
     * or written by parts that do not fill them) */
    bool samples = rdb_table_has_rows(r, "samples"), pods = rdb_table_has_rows(r, "pods"),
         nodes = rdb_has_table(r, "nodes");
    /* an empty table draws nothing (gnuplot would fail on an empty data file): say what is missing */
    if (!samples)
        sb_printf(&rp->data_note, "%s: no time series plots: the database has no samples (table samples is %s).",
                  r->path, rdb_has_table(r, "samples") ? "empty" : "missing");
    if (!pods)
        sb_printf(&rp->data_note, "%s%s: no wait-time plot: the database has no pods (table pods is %s).",
                  rp->data_note.len ? " " : "", r->path, rdb_has_table(r, "pods") ? "empty" : "missing");
    int rc = 0;
    if (samples) {
        strbuf ylabel = {0};
        rdb_stats tot = rdb_group_stats(r, SIZE_MAX, rdb_metric_index(r, "gpu_total"));
        if (tot.n && tot.min == tot.max) sb_printf(&ylabel, "allocated GPUs (%% of %.4g GPUs)", tot.mean);
        else sb_puts(&ylabel, "allocated GPUs (% of all GPUs)");
        rc = series_per_group(rp, "gpu_alloc", "GPU allocation over time", "gpu_alloc_pct", sb_str(&ylabel), err);
        sb_free(&ylabel);
        if (!rc && nodes) rc = utilization(rp, err);
        if (!rc) rc = quality(rp, err);
        if (!rc) rc = series_per_group(rp, "pending", "Pending pods over time", "pending_pods", "pending pods", err);
        if (!rc && rdb_table_has_rows(r, "autoscaler_nodes")) rc = autoscaler_nodes(rp, err);
        if (!rc && rdb_table_has_rows(r, "fault_timeline")) rc = fault_timeline(rp, err);
    }
    if (!rc && pods) rc = wait_cdf(rp, err);
    if (!rc && pods && rdb_table_has_rows(r, "pod_groups")) rc = rp_wait_cdf_by_group(rp, err);
    if (!rc && pods && nodes && (rdb_has_table(r, "devices") || rdb_has_table(r, "alloc_groups")))
        rc = alloc_by_model(rp, err);
    if (!rc && rdb_table_has_rows(r, "alloc_groups")) rc = alloc_by_pool(rp, err);
    if (!rc && rdb_table_has_rows(r, "sample_resources")) rc = alloc_by_resource(rp, err);
    if (!rc && rdb_metric_index(r, "usage_gpu_hours_used") >= 0) rc = usage_plots(rp, err);
    if (!rc && rdb_table_has_rows(r, "arrival_curve")) rc = arrival_curves(rp, err);
    if (!rc && (r->ngroups > 1 || r->nruns > 1)) rc = compare_metrics(rp, err);
    if (!rc && r->ngroups > 1) rc = sweep_metrics(rp, err);
    if (!rc && rdb_metric_index(r, "evictions") >= 0)
        rc = rp_sql_bars(rp, "evictions", "Evictions by cause", "pods evicted per run",
                         "SELECT CASE metric WHEN 'evictions_fault' THEN 'fault' WHEN 'evictions_preemption' THEN"
                         " 'preemption' ELSE 'drain' END, value FROM summary WHERE run_id = ? AND grp = '' AND metric IN"
                         " ('evictions_fault', 'evictions_preemption', 'evictions_drain') ORDER BY CASE metric WHEN"
                         " 'evictions_fault' THEN 0 WHEN 'evictions_preemption' THEN 1 ELSE 2 END", err);
    if (!rc) rc = rp_user_plots(rp, err);
    if (!rc) rc = rp_mig_alloc(rp, err);
    if (!rc) rc = rp_rack_heatmap(rp, err);
    if (!rc && (rdb_table_has_rows(r, "queue_usage") || rdb_table_has_rows(r, "queue_state")))
        rc = rp_queue_plots(rp, err);
    if (!rc && rdb_table_has_rows(r, "power_samples")) rc = rp_power(rp, err);
    if (!rc && rdb_table_has_rows(r, "plan_pareto") && rdb_has_table(r, "plan")) rc = rp_plan_pareto(rp, err);
    return rc;
}
