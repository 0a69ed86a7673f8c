/* plan_pareto.c -- the Pareto front of `drasim plan --minimize cost|energy`
 * (issue 30, docs/COST.md "Planning by cost or energy") outside the terminal:
 *   - in PLAN.db as the table plan_pareto (docs/SCHEMA.md): one row per probe
 *     with runs, its measured objective, its value of the SLO's first
 *     threshold and whether it is on the front (plan_pareto in plan_minimize.c);
 *   - as the plot plan_pareto (reports/plan_pareto.gp): every probe, the
 *     front as a staircase, the answer starred, the SLO's threshold as a
 *     line; drawn by `plan --report DIR` from the search and by
 *     `drasim report PLAN.db` from the table, the same data either way. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plan.h"
#include "report/report.h"
#include "report/report_plot.h"
#include "util/xalloc.h"

/* One point of the plot: a probe with runs. */
typedef struct pareto_row {
    long long probe;
    double slo, objective;
    int pass, front, answer;
} pareto_row;

/* What the plot is about: the objective, the threshold as written, its limit
 * and its direction. */
typedef struct pareto_axes {
    const char *objective, *slo;
    double limit;
    bool lower_better;
} pareto_axes;

static int by_slo(const void *a, const void *b) {
    const pareto_row *p = a, *q = b;
    if (p->slo != q->slo) return p->slo < q->slo ? -1 : 1;
    if (p->objective != q->objective) return p->objective < q->objective ? -1 : 1;
    return p->probe < q->probe ? -1 : p->probe > q->probe;
}

/* The data file: block 0 (index 0) every probe "slo objective pass front
 * answer probe", in probe order; block 1 the front's points by SLO value. */
static int write_rows(FILE *f, pareto_row *rows, size_t n, const pareto_axes *ax) {
    rp_data_comment(f, ax->slo, " (x), measured objective (y), pass, on the front, the answer, probe");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%.17g %.17g %d %d %d %lld\n", rows[i].slo, rows[i].objective, rows[i].pass, rows[i].front,
                rows[i].answer, rows[i].probe);
    fputs("\n\n# the Pareto front, by the SLO's value\n", f);
    pareto_row *front = xcalloc(n + 1, sizeof *front);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (rows[i].front) front[m++] = rows[i];
    qsort(front, m, sizeof *front, by_slo);
    for (size_t i = 0; i < m; i++) fprintf(f, "%.17g %.17g\n", front[i].slo, front[i].objective);
    free(front);
    return ferror(f) ? -1 : 0;
}

/* The template's variables (datafile and plot_title are the caller's). */
static void plot_vars(strbuf *v, const pareto_axes *ax) {
    strbuf t = {0};
    sb_printf(&t, "value of the SLO's metric at the probe, as check compares it (SLO: %s)", ax->slo);
    rp_gp_var(v, "xlabel_text", sb_str(&t));
    sb_clear(&t);
    sb_printf(&t, "measured %s (mean over the seeds)", ax->objective);
    rp_gp_var(v, "ylabel_text", sb_str(&t));
    sb_printf(v, "threshold = %.17g\n", ax->limit);
    sb_clear(&t);
    sb_printf(&t, "the SLO's limit (%s is better)", ax->lower_better ? "left" : "right");
    rp_gp_var(v, "threshold_text", sb_str(&t));
    /* the staircase bounding what the front dominates: lower-better SLO, the
     * objective falls left to right (steps); higher-better, it rises (fsteps) */
    rp_gp_var(v, "front_style", ax->lower_better ? "steps" : "fsteps");
    sb_free(&t);
}

static void title_of(const pareto_axes *ax, strbuf *t) {
    sb_printf(t, "Pareto front: %s against %s", ax->objective, ax->slo);
}

int plan_pareto_plot(const plan_ctx *c, const char *dir, report *rp, strbuf *err) {
    if (!c->objective || !c->expect->nthresholds) return 0;
    bool *on = xcalloc(c->nprobes + 1, sizeof *on);
    plan_pareto(c, on);
    pareto_row *rows = xcalloc(c->nprobes + 1, sizeof *rows);
    size_t n = 0;
    const plan_probe *at = plan_answer_probe(c);
    for (size_t i = 0; i < c->nprobes; i++) {
        const plan_probe *p = &c->probes[i];
        if (!plan_pareto_measured(c, p)) continue;
        rows[n++] = (pareto_row){(long long)i + 1, p->values[0], p->objective, p->pass, on[i], p == at};
    }
    const expect_threshold *th = &c->expect->thresholds[0];
    pareto_axes ax = {c->objective, th->text, th->value, plan_pareto_lower_better(c)};
    strbuf path = {0}, t = {0};
    int rc = 0;
    if (n) {
        sb_printf(&path, "%s/data/plan_pareto.dat", dir);
        FILE *f = report_file_create(sb_str(&path));
        if (!f || write_rows(f, rows, n, &ax) | fclose(f)) {
            sb_clear(err);
            sb_printf(err, "%s: cannot write", sb_str(&path));
            rc = -1;
        }
        title_of(&ax, &t);
        rplot pl = {0};
        pl.name = xstrdup("plan_pareto");
        pl.title = xstrdup(sb_str(&t));
        pl.tmpl = xstrdup("plan_pareto.gp");
        rp_gp_var(&pl.vars, "datafile", "data/plan_pareto.dat");
        rp_gp_var(&pl.vars, "plot_title", sb_str(&t));
        plot_vars(&pl.vars, &ax);
        VEC_PUSH(rp->plots, pl);
    }
    free(rows);
    free(on);
    sb_free(&path);
    sb_free(&t);
    return rc;
}

int plan_pareto_store(const plan_ctx *c, void *dst_db, strbuf *err) {
    if (!c->objective || !c->expect->nthresholds) return 0;
    sqlite3 *db = dst_db;
    char *msg = NULL;
    if (sqlite3_exec(db,
                     "CREATE TABLE plan_pareto(probe INTEGER PRIMARY KEY, objective TEXT NOT NULL, value REAL NOT NULL,"
                     " slo TEXT NOT NULL, slo_value REAL NOT NULL, slo_limit REAL NOT NULL,"
                     " lower_better INTEGER NOT NULL, front INTEGER NOT NULL);",
                     NULL, NULL, &msg) != SQLITE_OK) {
        sb_clear(err);
        sb_printf(err, "cannot write the plan database: %s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return -1;
    }
    bool *on = xcalloc(c->nprobes + 1, sizeof *on);
    plan_pareto(c, on);
    const expect_threshold *th = &c->expect->thresholds[0];
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(db, "INSERT INTO plan_pareto VALUES(?,?,?,?,?,?,?,?)", -1, &s, NULL) == SQLITE_OK ? 0 : -1;
    for (size_t i = 0; i < c->nprobes && !rc; i++) {
        const plan_probe *p = &c->probes[i];
        if (!plan_pareto_measured(c, p)) continue;
        sqlite3_bind_int64(s, 1, (sqlite3_int64)i + 1);
        sqlite3_bind_text(s, 2, c->objective, -1, SQLITE_STATIC);
        sqlite3_bind_double(s, 3, p->objective);
        sqlite3_bind_text(s, 4, th->text, -1, SQLITE_STATIC);
        sqlite3_bind_double(s, 5, p->values[0]);
        sqlite3_bind_double(s, 6, th->value);
        sqlite3_bind_int(s, 7, plan_pareto_lower_better(c));
        sqlite3_bind_int(s, 8, on[i]);
        if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
        sqlite3_reset(s);
    }
    if (rc) {
        sb_clear(err);
        sb_printf(err, "cannot write the plan database: %s", sqlite3_errmsg(db));
    }
    sqlite3_finalize(s);
    free(on);
    return rc;
}

int rp_plan_pareto(report *rp, strbuf *err) {
    sqlite3_stmt *s = rp_prep(rp,
                              "SELECT f.probe, f.slo_value, f.value, p.pass, f.front, p.answer, f.objective, f.slo,"
                              " f.slo_limit, f.lower_better FROM plan_pareto f JOIN plan p ON p.probe = f.probe"
                              " ORDER BY f.probe",
                              err);
    if (!s) return -1;
    VEC(pareto_row) rows = {0};
    char *objective = NULL, *slo = NULL;
    pareto_axes ax = {0};
    while (sqlite3_step(s) == SQLITE_ROW) {
        pareto_row r = {sqlite3_column_int64(s, 0), sqlite3_column_double(s, 1), sqlite3_column_double(s, 2),
                        sqlite3_column_int(s, 3), sqlite3_column_int(s, 4), sqlite3_column_int(s, 5)};
        VEC_PUSH(rows, r);
        if (!objective) {
            const char *o = (const char *)sqlite3_column_text(s, 6), *t = (const char *)sqlite3_column_text(s, 7);
            objective = xstrdup(o ? o : "?");
            slo = xstrdup(t ? t : "?");
            ax.limit = sqlite3_column_double(s, 8);
            ax.lower_better = sqlite3_column_int(s, 9) != 0;
        }
    }
    sqlite3_finalize(s);
    int rc = 0;
    if (rows.len) {
        ax.objective = objective;
        ax.slo = slo;
        strbuf t = {0};
        title_of(&ax, &t);
        FILE *f = rp_open_data(rp, "plan_pareto", err);
        if (!f) rc = -1;
        else if (write_rows(f, rows.data, rows.len, &ax) | fclose(f)) {
            sb_clear(err);
            sb_printf(err, "%s/data/plan_pareto.dat: cannot write", rp->dir);
            rc = -1;
        }
        if (!rc) plot_vars(&rp_new_plot(rp, "plan_pareto", "plan_pareto.gp", sb_str(&t))->vars, &ax);
        sb_free(&t);
    }
    VEC_FREE(rows);
    free(objective);
    free(slo);
    return rc;
}
