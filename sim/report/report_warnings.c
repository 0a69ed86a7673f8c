/*
 * report_warnings.c -- the run's warnings as the report shows them (issue
 * 26): what `drasim run` printed as `warning: ...`, read back from the
 * database, per configuration:
 *   - groups none of whose pods started (summary per group: pods_arrived > 0,
 *     pods_scheduled 0, in every run of the configuration);
 *   - pods pending because a CEL selector failed at run time (pending_reasons);
 *   - pods that asked for several GPUs and got fewer (summary pods_on_fewer_gpus);
 *   - preemption blocked by DRA devices, nodes without a gang's topology
 *     label, Lua pods submitted after the stop (summary);
 *   - every row of run_warnings (scoring hints, and any kind added later).
 * A warning seen in some runs of a configuration says in how many.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/xalloc.h"

static void wnum(strbuf *b, double v) {
    if (v == floor(v) && fabs(v) < 1e15) sb_printf(b, "%.0f", v);
    else sb_printf(b, "%.2f", v);
}

/* " (in K of N runs)" when not every run of configuration g warned. */
static void runs_note(const rdb *r, size_t g, size_t k, strbuf *b) {
    size_t n = 0;
    for (size_t i = 0; i < r->nruns; i++) n += r->runs[i].group == g;
    if (k < n) sb_printf(b, " (in %zu of %zu runs)", k, n);
}

/* The configuration's name after a warning, when there are several. */
static void config_note(const rdb *r, size_t g, strbuf *b) {
    if (r->ngroups < 2) return;
    sb_puts(b, " — <i>");
    html_escape(b, r->groups[g]);
    sb_puts(b, "</i>");
}

/* A summary metric of a pod group (gs; NULL: the whole run) that warns when
 * > 0: one item per configuration with such runs, "TEXT: N" (N the mean
 * over the runs that warned, "per run" when the configuration has several). */
static size_t metric_warning(const rdb *r, const rdb_gsum *gs, const char *metric, const char *text, strbuf *b) {
    const char *grp = gs ? gs->grp : "";
    double *v = xmalloc((r->nruns + 1) * sizeof *v);
    const double *gv = gs ? rdb_gsum_values(r, gs, metric) : NULL;
    int m = gs ? -1 : rdb_metric_index(r, metric);
    for (size_t i = 0; i < r->nruns; i++) v[i] = gs ? (gv ? gv[i] : NAN) : m >= 0 ? rdb_value(r, i, m) : NAN;
    size_t items = 0;
    for (size_t g = 0; g < r->ngroups; g++) {
        double sum = 0;
        size_t k = 0, n = 0;
        for (size_t i = 0; i < r->nruns; i++) {
            n += r->runs[i].group == g;
            if (r->runs[i].group == g && v[i] > 0) sum += v[i], k++;
        }
        if (!k) continue;
        sb_puts(b, "<li>");
        if (*grp) {
            sb_puts(b, "group <b>");
            html_escape(b, grp);
            sb_puts(b, "</b>: ");
        }
        html_escape(b, text);
        sb_puts(b, ": ");
        wnum(b, sum / (double)k);
        if (n > 1) sb_puts(b, " per run");
        runs_note(r, g, k, b);
        config_note(r, g, b);
        sb_puts(b, "</li>\n");
        items++;
    }
    free(v);
    return items;
}

/* Groups none of whose pods started in any run of a configuration. */
static size_t starving_groups(const rdb *r, const rdb_gsum *gs, size_t ng, strbuf *b) {
    size_t items = 0;
    for (size_t k = 0; k < ng; k++) {
        const double *arr = rdb_gsum_values(r, &gs[k], "pods_arrived"), *sch = rdb_gsum_values(r, &gs[k], "pods_scheduled");
        for (size_t g = 0; g < r->ngroups && arr; g++) {
            double arrived = 0, started = 0;
            size_t n = 0;
            for (size_t i = 0; i < r->nruns; i++)
                if (r->runs[i].group == g && !isnan(arr[i])) {
                    arrived += arr[i];
                    started += !sch || isnan(sch[i]) ? 0 : sch[i];
                    n++;
                }
            if (!n || arrived <= 0 || started > 0) continue;
            sb_puts(b, "<li>group <b>");
            html_escape(b, gs[k].grp);
            sb_puts(b, "</b>: none of its ");
            wnum(b, arrived / (double)n);
            sb_puts(b, " pods ever started (");
            html_escape(b, r->groups[g]);
            sb_puts(b, "); the reasons are in the table pending_reasons</li>\n");
            items++;
        }
    }
    return items;
}

/* Index of the run with id `id` in r->runs (ordered by id), or r->nruns. */
static size_t run_index(const rdb *r, int64_t id) {
    size_t lo = 0, hi = r->nruns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->runs[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < r->nruns && r->runs[lo].id == id ? lo : r->nruns;
}

/* Rows (run_id, kind, grp, text, pods) of `sql`, one item per configuration
 * and distinct (kind, grp, text): how many runs said it, and the pods summed
 * over them when the query counts pods (column 4 not NULL). */
static size_t table_warnings(const rdb *r, const char *sql, const char *kind_label, strbuf *b) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(r->db, sql, -1, &s, NULL) != SQLITE_OK) return 0;
    typedef struct item { size_t g; char *kind, *grp, *text; size_t runs; double pods; bool counted; } item;
    VEC(item) items = {0};
    while (sqlite3_step(s) == SQLITE_ROW) {
        size_t i = run_index(r, sqlite3_column_int64(s, 0));
        if (i == r->nruns) continue;
        const char *kind = (const char *)sqlite3_column_text(s, 1), *grp = (const char *)sqlite3_column_text(s, 2),
                   *text = (const char *)sqlite3_column_text(s, 3);
        if (!kind) kind = "";
        if (!grp) grp = "";
        if (!text) text = "";
        size_t k = 0;
        for (; k < items.len; k++) {
            item *x = &items.data[k];
            if (x->g == r->runs[i].group && !strcmp(x->kind, kind) && !strcmp(x->grp, grp) && !strcmp(x->text, text))
                break;
        }
        if (k == items.len) {
            item x = {r->runs[i].group, xstrdup(kind), xstrdup(grp), xstrdup(text), 0, 0, false};
            VEC_PUSH(items, x);
        }
        items.data[k].runs++;
        if (sqlite3_column_type(s, 4) != SQLITE_NULL) {
            items.data[k].pods += sqlite3_column_double(s, 4);
            items.data[k].counted = true;
        }
    }
    sqlite3_finalize(s);
    for (size_t k = 0; k < items.len; k++) {
        item *x = &items.data[k];
        sb_puts(b, "<li>");
        if (kind_label) html_escape(b, kind_label);
        else if (!strcmp(x->kind, "scoring-spreads")) sb_puts(b, "scoring hint");   /* engine/sim_hints.c */
        else {
            sb_puts(b, "<code>");
            html_escape(b, x->kind);
            sb_puts(b, "</code>");
        }
        size_t gl = strlen(x->grp);   /* a message that starts "group NAME" names it already */
        if (*x->grp && !(!strncmp(x->text, "group ", 6) && !strncmp(x->text + 6, x->grp, gl) && x->text[6 + gl] == ':')) {
            sb_puts(b, ", group <b>");
            html_escape(b, x->grp);
            sb_puts(b, "</b>");
        }
        sb_puts(b, ": ");
        if (x->counted) {
            wnum(b, x->pods / (double)x->runs);
            sb_puts(b, x->pods == x->runs ? " pod: " : " pods: ");
        }
        html_escape(b, x->text);
        runs_note(r, x->g, x->runs, b);
        config_note(r, x->g, b);
        sb_puts(b, "</li>\n");
        free(x->kind);
        free(x->grp);
        free(x->text);
    }
    size_t n = items.len;
    VEC_FREE(items);
    return n;
}

size_t report_warnings_html(const rdb *r, strbuf *b) {
    strbuf w = {0};
    size_t n = 0, ng;
    rdb_gsum *gs = rdb_group_summaries(r, &ng);
    n += starving_groups(r, gs, ng, &w);
    if (rdb_has_table(r, "pending_reasons"))   /* sched/dra: the allocator's "CEL runtime error" as a reason */
        n += table_warnings(r,
                            "SELECT run_id, '', grp, reason, pods FROM pending_reasons WHERE reason LIKE '%CEL %error%'"
                            " ORDER BY run_id, rowid",
                            "pods pending on a CEL error", &w);
    for (size_t k = 0; k < ng; k++) {
        n += metric_warning(r, &gs[k], "pods_on_fewer_gpus",
                            "pods that asked for several GPUs and got shared replicas of fewer physical GPUs "
                            "(device-plugin time-slicing or MPS)", &w);
        n += metric_warning(r, &gs[k], "topology_unlabelled_nodes",
                            "nodes without its gang's topology label (KEP-5732 never places the gang on them)", &w);
        n += metric_warning(r, &gs[k], "queue_tas_unlabelled_nodes",
                            "nodes of its TAS flavors without a level label of the flavor's Topology (Kueue TAS "
                            "never places a Workload on them)", &w);
    }
    n += metric_warning(r, NULL, "kai_topology_unlabelled_nodes",
                        "nodes without a level label of a KAI Topology that jobs ask for (KAI never places a "
                        "topology-constrained job on them)", &w);
    n += metric_warning(r, NULL, "preemption_blocked_by_dra",
                        "preemption attempts that found only DRA devices in the way (in Kubernetes 1.36 the "
                        "preemption dry run does not free victims' devices)", &w);
    n += metric_warning(r, NULL, "pods_after_stop",
                        "pods the Lua generator submitted for an arrival at or after the stop time (they never "
                        "arrive)", &w);
    if (rdb_has_table(r, "run_warnings"))   /* engine/sim_hints.c and any later kind */
        n += table_warnings(r, "SELECT run_id, kind, grp, message, NULL FROM run_warnings ORDER BY run_id, rowid", NULL,
                            &w);
    sb_puts(b, "<h3 id=\"warnings\">Warnings</h3>\n");
    if (n) {
        sb_puts(b, "<ul class=\"warnings\">\n");
        sb_append(b, w.s, w.len);
        sb_puts(b, "</ul>\n");
    } else {
        sb_puts(b, "<p class=\"meta\">No warnings: every group started pods, and the runs stored no warning.</p>\n");
    }
    sb_free(&w);
    rdb_group_summaries_free(gs, ng);
    return n;
}
