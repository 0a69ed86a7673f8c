/*
 * report_mig.c -- DRA mode: MIG devices allocated per profile over time
 * (issue 26), from what the database holds: claim_allocations names each
 * device a pod's claims got, the pods table when the pod held them (bind to
 * completion, or to the end of the run). The profile comes from the device's
 * name as the NVIDIA DRA driver publishes it (model/inventory_dra.c):
 * gpu-<minor>-mig-<profile>-<GI id>-<start> from v25.12 ("1g10gb" shown as
 * 1g.10gb), gpu-<minor>-mig-<GI id>-<start>-<size> before (shown as "GI
 * profile <id>": the name does not carry the profile). One plot per database:
 * the first run with MIG allocations, a line per profile, the value at each
 * sample time.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_plot.h"
#include "util/xalloc.h"

/* The profile label of a MIG device name into out; false when not a MIG device. */
static bool mig_profile(const char *device, strbuf *out) {
    const char *m = strstr(device, "-mig-");
    if (!m || strncmp(device, "gpu-", 4)) return false;
    const char *p = m + 5, *end = strchr(p, '-');
    if (!end) return false;
    sb_clear(out);
    bool digits = true;
    for (const char *c = p; c < end; c++) digits &= isdigit((unsigned char)*c) != 0;
    if (digits) {   /* v25.3: the GI profile id */
        sb_printf(out, "GI profile %.*s", (int)(end - p), p);
        return true;
    }
    const char *g = p;   /* "1g10gb" -> "1g.10gb" */
    while (g < end && isdigit((unsigned char)*g)) g++;
    if (g < end && *g == 'g' && g + 1 < end && isdigit((unsigned char)g[1]))
        sb_printf(out, "%.*s.%.*s", (int)(g + 1 - p), p, (int)(end - g - 1), g + 1);
    else sb_append(out, p, (size_t)(end - p));
    return true;
}

typedef struct mig_step { int64_t t; int cat, delta; } mig_step;

static int cmp_step(const void *a, const void *b) {
    const mig_step *x = a, *y = b;
    return x->t < y->t ? -1 : x->t > y->t ? 1 : x->cat - y->cat;
}

int rp_mig_alloc(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    if (!rdb_table_has_rows(r, "claim_allocations") || !rdb_table_has_rows(r, "samples")) return 0;
    sqlite3_stmt *s = rp_prep(rp, "SELECT min(run_id) FROM claim_allocations WHERE device LIKE 'gpu-%-mig-%'", err);
    if (!s) return -1;
    int64_t id = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    sqlite3_finalize(s);
    size_t run = 0;
    while (run < r->nruns && r->runs[run].id != id) run++;
    if (run == r->nruns) return 0;
    s = rp_prep(rp, "SELECT c.device, p.scheduled_ms, p.completion_ms FROM claim_allocations c JOIN pods p ON"
                    " p.run_id = c.run_id AND p.pod_id = c.pod_id WHERE c.run_id = ? AND c.device LIKE 'gpu-%-mig-%'"
                    " AND p.scheduled_ms IS NOT NULL ORDER BY c.rowid", err);
    if (!s) return -1;
    sqlite3_bind_int64(s, 1, id);
    VEC(char *) cats = {0};
    VEC(mig_step) steps = {0};
    strbuf prof = {0};
    while (sqlite3_step(s) == SQLITE_ROW) {
        const char *dev = (const char *)sqlite3_column_text(s, 0);
        if (!dev || !mig_profile(dev, &prof)) continue;
        int cat = 0;
        while ((size_t)cat < cats.len && strcmp(cats.data[cat], sb_str(&prof))) cat++;
        if ((size_t)cat == cats.len) VEC_PUSH(cats, xstrdup(sb_str(&prof)));
        mig_step on = {sqlite3_column_int64(s, 1), cat, +1};
        VEC_PUSH(steps, on);
        if (sqlite3_column_type(s, 2) != SQLITE_NULL) {
            mig_step off = {sqlite3_column_int64(s, 2), cat, -1};
            VEC_PUSH(steps, off);
        }
    }
    sqlite3_finalize(s);
    sb_free(&prof);
    int rc = 0;
    if (cats.len) {
        qsort(steps.data, steps.len, sizeof *steps.data, cmp_step);
        FILE *f = rp_open_data(rp, "mig_alloc", err);
        s = f ? rp_prep(rp, "SELECT time_ms FROM samples WHERE run_id = ? ORDER BY time_ms", err) : NULL;
        if (!s) rc = -1;
        else {
            sqlite3_bind_int64(s, 1, id);
            int *now = xcalloc(cats.len, sizeof *now);
            size_t k = 0;
            fputs("# hour, then MIG devices allocated per profile (the array series in plots.gp)\n", f);
            while (sqlite3_step(s) == SQLITE_ROW) {   /* the state after every change up to the sample */
                int64_t t = sqlite3_column_int64(s, 0);
                for (; k < steps.len && steps.data[k].t <= t; k++) now[steps.data[k].cat] += steps.data[k].delta;
                fprintf(f, "%.6f", (double)t / 3600000.0);
                for (size_t c = 0; c < cats.len; c++) fprintf(f, " %d", now[c]);
                fputc('\n', f);
            }
            free(now);
            sqlite3_finalize(s);
        }
        if (f) fclose(f);
        if (!rc) {
            strbuf title = {0};
            sb_printf(&title, "MIG devices allocated per profile (run %lld: %s, seed %lld)", (long long)id,
                      r->groups[r->runs[run].group], (long long)r->runs[run].seed);
            rplot *p = rp_new_plot(rp, "mig_alloc", "columns.gp", sb_str(&title));
            sb_free(&title);
            rp_gp_array(&p->vars, "series", cats.data, cats.len);
            rp_gp_var(&p->vars, "xlabel_text", "simulated time (h)");
            rp_gp_var(&p->vars, "ylabel_text", "MIG devices allocated");
        }
    }
    rp_free_strings(cats.data, cats.len);
    VEC_FREE(steps);
    return rc;
}
