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
    row r = {pretty(key), xstrdup(metric), a, b, NAN, NAN};
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

/* Display width: UTF-8 continuation bytes take no column ("±" is one). */
static size_t cols(const char *s) {
    size_t n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
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

void compare_dbs(const rdb *a, const rdb *b, bool csv, strbuf *out) {
    size_t nm;
    char **metrics = metric_union(a, b, &nm);
    rows rs = {0};
    if (!by_run(a, b, metrics, nm, &rs)) {
        for (size_t i = 0; i < rs.len; i++) {
            free(rs.data[i].key);
            free(rs.data[i].metric);
        }
        rs.len = 0;
        by_group(a, b, metrics, nm, &rs);
    }
    if (!csv) {
        sb_printf(out, "A = %s (%zu run%s)\nB = %s (%zu run%s)\n\n", a->path, a->nruns, a->nruns == 1 ? "" : "s",
                  b->path, b->nruns, b->nruns == 1 ? "" : "s");
    }
    /* cells as text first, then aligned */
    size_t ncol = csv ? 8 : 6;
    char **cell = xcalloc((rs.len + 1) * ncol, sizeof *cell);
    static const char *const head[] = {"run", "metric", "A", "B", "delta", "delta_pct", "A_ci95", "B_ci95"};
    for (size_t c = 0; c < ncol; c++) cell[c] = xstrdup(head[c]);
    strbuf t = {0};
    for (size_t i = 0; i < rs.len; i++) {
        const row *r = &rs.data[i];
        char **line = &cell[(i + 1) * ncol];
        if (csv) {   /* quoted by csv_text_cell (report/escape.h), kept as they are */
            line[0] = xstrdup(r->key);
            line[1] = xstrdup(r->metric);
        } else {     /* for a terminal: no control characters from a database */
            sb_clear(&t), terminal_text(&t, r->key), line[0] = xstrdup(sb_str(&t));
            sb_clear(&t), terminal_text(&t, r->metric), line[1] = xstrdup(sb_str(&t));
        }
        /* text: "mean ± half width of the 95% CI" when a side has several runs; csv: own columns */
        sb_clear(&t), num(&t, r->a);
        if (!csv && !isnan(r->a) && !isnan(r->ha)) sb_printf(&t, " ± %.3g", r->ha);
        line[2] = xstrdup(sb_str(&t));
        sb_clear(&t), num(&t, r->b);
        if (!csv && !isnan(r->b) && !isnan(r->hb)) sb_printf(&t, " ± %.3g", r->hb);
        line[3] = xstrdup(sb_str(&t));
        if (csv) {
            sb_clear(&t), num(&t, r->ha), line[6] = xstrdup(sb_str(&t));
            sb_clear(&t), num(&t, r->hb), line[7] = xstrdup(sb_str(&t));
        }
        sb_clear(&t);
        if (isnan(r->a) || isnan(r->b)) sb_puts(&t, "-");
        else sb_printf(&t, "%+.6g", r->b - r->a);
        line[4] = xstrdup(sb_str(&t));
        sb_clear(&t), delta_pct(&t, r->a, r->b), line[5] = xstrdup(sb_str(&t));
    }
    size_t width[8] = {0};
    for (size_t i = 0; i <= rs.len; i++)
        for (size_t c = 0; c < ncol; c++)
            if (cols(cell[i * ncol + c]) > width[c]) width[c] = cols(cell[i * ncol + c]);
    for (size_t i = 0; i <= rs.len; i++) {
        for (size_t c = 0; c < ncol; c++) {
            const char *s = cell[i * ncol + c];
            if (csv) {
                if (c) sb_putc(out, ',');
                csv_text_cell(out, s);
            } else if (c < 2) {
                sb_printf(out, "%s%-*s", c ? "  " : "", c == ncol - 1 ? 0 : (int)(width[c] + strlen(s) - cols(s)), s);
            } else {
                sb_printf(out, "  %*s", (int)(width[c] + strlen(s) - cols(s)), s);
            }
        }
        sb_putc(out, '\n');
    }
    sb_free(&t);
    for (size_t i = 0; i < (rs.len + 1) * ncol; i++) free(cell[i]);
    free(cell);
    for (size_t i = 0; i < rs.len; i++) {
        free(rs.data[i].key);
        free(rs.data[i].metric);
    }
    VEC_FREE(rs);
    free(metrics);
}
