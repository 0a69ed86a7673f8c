/* compare.c -- summary metrics of two results databases (see compare.h). */
#include "report/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"
#include "report/stats.h"
#include "util/vec.h"
#include "util/xalloc.h"

typedef struct row {
    char *key, *metric;
    double a, b;
    double ha, hb;   /* 95% CI half widths of the means (NAN: one run, or per-run rows) */
    double d, hd;    /* group rows: B - A (mean of paired differences, or of means) and its CI half width */
    char *stat;      /* group rows: the statistic of d ± hd ("paired t, n=3"), else NULL */
} row;

typedef VEC(row) rows;

static char *run_key(const rdb *r, size_t i) {
    strbuf b = {0};
    sb_printf(&b, "%s seed=%lld", r->group_keys[r->runs[i].group], (long long)r->runs[i].seed);
    char *s = xstrdup(sb_str(&b));
    sb_free(&b);
    return s;
}

/* Readable form of a key "scenario|mode|policy|point[ seed=N]". */
static char *pretty(const char *key) {
    strbuf b = {0};
    for (const char *p = key; *p; p++) {
        if (*p == '|') {
            if (p[1] && p[1] != '|' && p[1] != ' ') sb_putc(&b, ' ');
            continue;
        }
        sb_putc(&b, *p);
    }
    char *s = xstrdup(sb_str(&b));
    sb_free(&b);
    return s;
}

/* Union of metric names, A's order first. */
static char **metric_union(const rdb *a, const rdb *b, size_t *n) {
    char **m = xcalloc(a->nmetrics + b->nmetrics + 1, sizeof *m);
    *n = 0;
    for (size_t i = 0; i < a->nmetrics; i++) m[(*n)++] = a->metrics[i];
    for (size_t i = 0; i < b->nmetrics; i++)
        if (rdb_metric_index(a, b->metrics[i]) < 0) m[(*n)++] = b->metrics[i];
    return m;
}

static void push(rows *out, const char *key, const char *metric, double a, double b) {
    row r = {pretty(key), xstrdup(metric), a, b, NAN, NAN, NAN, NAN, NULL};
    VEC_PUSH(*out, r);
}

/* Mean and 95% CI of a metric over the runs of configuration g. */
static mean_ci group_ci(const rdb *r, size_t g, const char *metric) {
    int m = rdb_metric_index(r, metric);
    double *v = xmalloc((r->nruns + 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < r->nruns && m >= 0; i++)
        if (r->runs[i].group == g && !isnan(rdb_value(r, i, m))) v[n++] = rdb_value(r, i, m);
    mean_ci c = mean_ci95(v, n);
    free(v);
    return c;
}

/* Per-run rows when the run keys of A and B are the same set and every
 * configuration has one run (several seeds: mean ± CI per configuration). */
static bool by_run(const rdb *a, const rdb *b, char **metrics, size_t nm, rows *out) {
    if (a->nruns != b->nruns || !a->nruns || a->ngroups != a->nruns || b->ngroups != b->nruns) return false;
    size_t *match = xmalloc(a->nruns * sizeof *match);
    bool ok = true;
    for (size_t i = 0; i < a->nruns && ok; i++) {
        char *ka = run_key(a, i);
        ok = false;
        for (size_t j = 0; j < b->nruns && !ok; j++) {
            char *kb = run_key(b, j);
            if (!strcmp(ka, kb)) {
                match[i] = j;
                ok = true;
            }
            free(kb);
        }
        free(ka);
    }
    for (size_t i = 0; i < a->nruns && ok; i++) {
        char *k = run_key(a, i);
        for (size_t m = 0; m < nm; m++)
            push(out, k, metrics[m], rdb_value(a, i, rdb_metric_index(a, metrics[m])),
                 rdb_value(b, match[i], rdb_metric_index(b, metrics[m])));
        free(k);
    }
    free(match);
    return ok;
}

/* Per-configuration means; configurations found in one database only are
 * listed with the other side missing. One configuration each: compared. */
static void by_group(const rdb *a, const rdb *b, char **metrics, size_t nm, rows *out) {
    bool single = a->ngroups == 1 && b->ngroups == 1 && strcmp(a->group_keys[0], b->group_keys[0]);
    for (size_t g = 0; g < a->ngroups; g++) {
        size_t h = 0;
        while (h < b->ngroups && strcmp(a->group_keys[g], b->group_keys[h])) h++;
        if (single) h = 0;
        strbuf k = {0};
        if (single) sb_printf(&k, "all runs (mean of %zu vs %zu)", a->nruns, b->nruns);
        else sb_printf(&k, "%s (mean)", a->group_keys[g]);
        for (size_t m = 0; m < nm; m++) {
            mean_ci sa = group_ci(a, g, metrics[m]);
            mean_ci sb = h < b->ngroups ? (single ? group_ci(b, 0, metrics[m]) : group_ci(b, h, metrics[m]))
                                        : (mean_ci){NAN, NAN, 0};
            if (single) sa = group_ci(a, 0, metrics[m]);
            push(out, sb_str(&k), metrics[m], sa.n ? sa.mean : NAN, sb.n ? sb.mean : NAN);
            out->data[out->len - 1].ha = sa.half;
            out->data[out->len - 1].hb = sb.half;
        }
        sb_free(&k);
    }
    if (single) return;
    for (size_t h = 0; h < b->ngroups; h++) {
        size_t g = 0;
        while (g < a->ngroups && strcmp(a->group_keys[g], b->group_keys[h])) g++;
        if (g < a->ngroups) continue;
        strbuf k = {0};
        sb_printf(&k, "%s (mean)", b->group_keys[h]);
        for (size_t m = 0; m < nm; m++) {
            mean_ci sb = group_ci(b, h, metrics[m]);
            push(out, sb_str(&k), metrics[m], NAN, sb.n ? sb.mean : NAN);
            out->data[out->len - 1].hb = sb.half;
        }
        sb_free(&k);
    }
}

/* The per-group metrics compared (summary.grp, engine/sim_groups.c): the SLO view;
 * then a Kueue ClusterQueue's (its grp rows, queue/kq_gate.c; docs/QUEUES.md): a
 * name has the rows it has, absent metrics give no row. */
static const char *const group_metrics[] = {"pods_arrived", "pods_scheduled", "pods_pending_at_end",
                                            "wait_censored_p50_s", "wait_censored_p99_s", "gpu_hours_allocated",
                                            "queue_admitted", "queue_admitted_borrowing", "queue_pending_at_end",
                                            "queue_wait_censored_p50_s", "queue_wait_censored_p99_s",
                                            "queue_unscheduled_censored_p99_s", "queue_preempted",
                                            "queue_preemptions"};

/* The values (and seeds) of one pod group's metric over the runs of configuration g. */
static size_t group_values(const rdb *r, size_t g, const double *all, double *v, int64_t *seeds) {
    size_t n = 0;
    for (size_t i = 0; i < r->nruns; i++)
        if (r->runs[i].group == g && !isnan(all[i])) {
            v[n] = all[i];
            seeds[n++] = r->runs[i].seed;
        }
    return n;
}

/* Rows of pod group `grp` for configuration ga of A against gb of B: the
 * means of each side and B - A with its 95 % CI: paired by seed (Student's t
 * on the per-seed differences) when both sides hold the same seeds, each
 * once; else Welch's t on the two means; one run on a side: no interval. */
static void group_pair_rows(const rdb *a, size_t ga, const rdb *b, size_t gb, const char *label, const char *grp,
                            rows *out) {
    double *all_a = xmalloc((a->nruns + 1) * sizeof *all_a), *all_b = xmalloc((b->nruns + 1) * sizeof *all_b);
    double *va = xmalloc((a->nruns + 1) * sizeof *va), *vb = xmalloc((b->nruns + 1) * sizeof *vb);
    int64_t *sa = xmalloc((a->nruns + 1) * sizeof *sa), *sb = xmalloc((b->nruns + 1) * sizeof *sb);
    for (size_t m = 0; m < sizeof group_metrics / sizeof *group_metrics; m++) {
        rdb_pod_group_values(a, grp, group_metrics[m], all_a);
        rdb_pod_group_values(b, grp, group_metrics[m], all_b);
        size_t na = group_values(a, ga, all_a, va, sa), nb = group_values(b, gb, all_b, vb, sb);
        if (!na && !nb) continue;
        mean_ci ma = mean_ci95(va, na), mb = mean_ci95(vb, nb);
        push(out, label, group_metrics[m], na ? ma.mean : NAN, nb ? mb.mean : NAN);
        row *r = &out->data[out->len - 1];
        r->ha = ma.half, r->hb = mb.half;
        if (!na || !nb) continue;
        strbuf st = {0};
        bool paired = stats_pair_by_seed(nb, sb, na, va, sa);   /* va reordered to vb's seeds */
        mean_ci d = diff_ci95(vb, nb, va, na, paired);          /* B - A */
        r->d = d.mean;
        r->hd = d.half;
        if (paired) sb_printf(&st, "paired t, n=%zu", nb);
        else if (na >= 2 && nb >= 2) sb_printf(&st, "Welch t, n=%zu+%zu", na, nb);
        else sb_puts(&st, "one run: no CI");
        r->stat = xstrdup(sb_str(&st));
        sb_free(&st);
    }
    free(all_a), free(all_b), free(va), free(vb), free(sa), free(sb);
}

/* Per-group rows for every pod group of both databases, per pair of
 * configurations (as by_group pairs them). */
static void group_rows(const rdb *a, const rdb *b, rows *out) {
    size_t nga, ngb;
    char **ga = rdb_pod_groups(a, &nga), **gb = rdb_pod_groups(b, &ngb);
    bool single = a->ngroups == 1 && b->ngroups == 1;
    for (size_t g = 0; g < a->ngroups; g++) {
        size_t h = 0;
        while (!single && h < b->ngroups && strcmp(a->group_keys[g], b->group_keys[h])) h++;
        if (h == b->ngroups) continue;
        for (size_t k = 0; k < nga; k++) {
            size_t j = 0;
            while (j < ngb && strcmp(ga[k], gb[j])) j++;
            if (j == ngb) continue;
            strbuf label = {0};
            if (!single) sb_printf(&label, "%s: ", a->group_keys[g]);
            sb_puts(&label, ga[k]);
            group_pair_rows(a, g, b, h, sb_str(&label), ga[k], out);
            sb_free(&label);
        }
    }
    for (size_t k = 0; k < nga; k++) free(ga[k]);
    for (size_t k = 0; k < ngb; k++) free(gb[k]);
    free(ga);
    free(gb);
}

/* Display width: UTF-8 continuation bytes take no column ("±" is one). */
static size_t cols(const char *s) {
    size_t n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Text output: a run key or metric name wider than this many columns is cut
 * (ending in "…"), so one huge name cannot pad every row to its width; csv
 * keeps every name whole. */
#define COMPARE_NAME_COLS 200

/* b = s cut to at most max columns at a UTF-8 character boundary, "…" last when cut. */
static void cut_cols(strbuf *b, const char *s, size_t max) {
    if (cols(s) <= max) {
        sb_puts(b, s);
        return;
    }
    size_t n = 0, i = 0;
    for (; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80 && n++ == max - 1) break;
    }
    sb_printf(b, "%.*s\xe2\x80\xa6", (int)i, s);   /* max - 1 columns, then the ellipsis */
}

static void num(strbuf *b, double v) {
    if (isnan(v)) sb_puts(b, "-");
    else sb_printf(b, "%.6g", v);
}

static void delta_pct(strbuf *b, double a, double v) {
    if (isnan(a) || isnan(v)) sb_puts(b, "-");
    else if (a == v) sb_puts(b, "0%");
    else if (a == 0) sb_puts(b, v > 0 ? "+inf" : "-inf");
    else sb_printf(b, "%+.2f%%", 100.0 * (v - a) / fabs(a));
}

/* The cells of one row, as text: "mean ± half width of the 95% CI" when a
 * side has several runs (text) or in their own columns (csv). */
static void row_cells(const row *r, bool csv, bool groups, char **line) {
    strbuf t = {0};
    if (csv) {   /* quoted by csv_text_cell (report/escape.h), kept as they are */
        line[0] = xstrdup(r->key);
        line[1] = xstrdup(r->metric);
    } else {     /* for a terminal: no control characters from a database */
        for (int k = 0; k < 2; k++) {   /* cut to COMPARE_NAME_COLS columns */
            sb_clear(&t), terminal_text(&t, k ? r->metric : r->key);
            strbuf c = {0};
            cut_cols(&c, sb_str(&t), COMPARE_NAME_COLS);
            line[k] = xstrdup(sb_str(&c));
            sb_free(&c);
        }
    }
    sb_clear(&t), num(&t, r->a);
    if (!csv && !isnan(r->a) && !isnan(r->ha)) sb_printf(&t, " ± %.3g", r->ha);
    line[2] = xstrdup(sb_str(&t));
    sb_clear(&t), num(&t, r->b);
    if (!csv && !isnan(r->b) && !isnan(r->hb)) sb_printf(&t, " ± %.3g", r->hb);
    line[3] = xstrdup(sb_str(&t));
    double d = r->stat ? r->d : r->b - r->a;
    sb_clear(&t);
    if (isnan(r->a) || isnan(r->b) || isnan(d)) sb_puts(&t, "-");
    else sb_printf(&t, "%+.6g", d);
    if (!csv && groups && r->stat && !isnan(r->hd)) sb_printf(&t, " ± %.3g", r->hd);
    line[4] = xstrdup(sb_str(&t));
    sb_clear(&t), delta_pct(&t, r->a, r->b), line[5] = xstrdup(sb_str(&t));
    if (csv) {
        sb_clear(&t), num(&t, r->ha), line[6] = xstrdup(sb_str(&t));
        sb_clear(&t), num(&t, r->hb), line[7] = xstrdup(sb_str(&t));
        sb_clear(&t), num(&t, r->hd), line[8] = xstrdup(sb_str(&t));
        line[9] = xstrdup(r->stat ? r->stat : "");
    } else if (groups) {
        line[6] = xstrdup(r->stat ? r->stat : "-");
    }
    sb_free(&t);
}

/* Rows rs[0..n) as an aligned text table or CSV lines (header: head[0..ncol)). */
static void render(const row *rs, size_t n, bool csv, bool groups, const char *const *head, size_t ncol, strbuf *out) {
    char **cell = xcalloc((n + 1) * ncol, sizeof *cell);
    for (size_t c = 0; c < ncol; c++) cell[c] = xstrdup(head[c]);
    for (size_t i = 0; i < n; i++) row_cells(&rs[i], csv, groups, &cell[(i + 1) * ncol]);
    size_t width[10] = {0};
    for (size_t i = 0; i <= n; i++)
        for (size_t c = 0; c < ncol; c++)
            if (cols(cell[i * ncol + c]) > width[c]) width[c] = cols(cell[i * ncol + c]);
    for (size_t i = 0; i <= n; i++) {
        if (csv && !i && groups) continue;   /* one header for the whole CSV */
        for (size_t c = 0; c < ncol; c++) {
            const char *s = cell[i * ncol + c];
            if (csv) {
                if (c) sb_putc(out, ',');
                csv_text_cell(out, s);
            } else if (c < 2) {
                sb_printf(out, "%s%-*s", c ? "  " : "", c == ncol - 1 ? 0 : (int)(width[c] + strlen(s) - cols(s)), s);
            } else if (c == 6) {   /* the statistic: text, left-aligned, last */
                sb_printf(out, "  %s", s);
            } else {
                sb_printf(out, "  %*s", (int)(width[c] + strlen(s) - cols(s)), s);
            }
        }
        sb_putc(out, '\n');
    }
    for (size_t i = 0; i < (n + 1) * ncol; i++) free(cell[i]);
    free(cell);
}

static void rows_free(rows *rs) {
    for (size_t i = 0; i < rs->len; i++) {
        free(rs->data[i].key);
        free(rs->data[i].metric);
        free(rs->data[i].stat);
    }
    VEC_FREE(*rs);
}

void compare_dbs(const rdb *a, const rdb *b, bool csv, strbuf *out) {
    size_t nm;
    char **metrics = metric_union(a, b, &nm);
    rows rs = {0}, gs = {0};
    if (!by_run(a, b, metrics, nm, &rs)) {
        rows_free(&rs);
        by_group(a, b, metrics, nm, &rs);
    }
    group_rows(a, b, &gs);
    if (!csv) {
        sb_printf(out, "A = %s (%zu run%s)\nB = %s (%zu run%s)\n\n", a->path, a->nruns, a->nruns == 1 ? "" : "s",
                  b->path, b->nruns, b->nruns == 1 ? "" : "s");
    }
    static const char *const head[] = {"run", "metric", "A", "B", "delta", "delta_pct", "A_ci95", "B_ci95",
                                       "delta_ci95", "statistic"};
    render(rs.data, rs.len, csv, false, head, csv ? 10 : 6, out);
    if (gs.len && !csv) {
        sb_puts(out, "\nper group (summary.grp; a Kueue ClusterQueue: its queue_* rows; waits censored: a pod that "
                     "never started waits until the end). A, B: "
                     "means over the runs; delta: B - A, the mean of the per-seed differences (paired t) when both "
                     "hold the same seeds, else of the means (Welch t), ± the half width of its 95 % CI\n");
        static const char *const ghead[] = {"group", "metric", "A", "B", "delta", "delta_pct", "statistic"};
        render(gs.data, gs.len, false, true, ghead, 7, out);
    } else if (gs.len) {
        for (size_t i = 0; i < gs.len; i++) {   /* "group NAME" in the run column */
            char *k = gs.data[i].key;
            strbuf t = {0};
            sb_printf(&t, "group %s", k);
            gs.data[i].key = xstrdup(sb_str(&t));
            free(k);
            sb_free(&t);
        }
        render(gs.data, gs.len, true, true, head, 10, out);
    }
    fleet_row fr[FLEET_ROWS];
    if (compare_fleet(a, b, fr)) {   /* autoscaling against a fixed fleet */
        rows fs = {0};
        const char *key = rdb_metric_index(a, "ca_node_hours") >= 0 ? "fleet (A autoscaled, B fixed)"
                                                                     : "fleet (A fixed, B autoscaled)";
        for (int k = 0; k < FLEET_ROWS; k++) push(&fs, key, fr[k].metric, fr[k].a, fr[k].b);
        if (!csv)
            sb_puts(out, "\nautoscaling against a fixed fleet (means over the runs; node_hours and peak_nodes count "
                         "every node, a fixed pool's all the time; the fixed fleet priced by the node group of its "
                         "pool's name; GPU allocation against the GPUs provisioned):\n");
        render(fs.data, fs.len, csv, csv, csv ? head : (const char *const[]){"fleet", "metric", "A", "B", "delta",
                                                                              "delta_pct"}, csv ? 10 : 6, out);
        rows_free(&fs);
    }
    rows_free(&rs);
    rows_free(&gs);
    free(metrics);
}
