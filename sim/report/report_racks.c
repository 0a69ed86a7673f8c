/*
 * report_racks.c -- the per-rack occupancy picture (issue 28): racks x time,
 * colour = GPUs in use, from tables topology_racks and topology_rack_usage
 * (engine/sim_topology.h; written only by runs whose nodes carry a rack
 * label). One heat map per database: the first run that has them.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_plot.h"
#include "util/xalloc.h"

int rp_rack_heatmap(report *rp, strbuf *err) {
    const rdb *r = rp->r;
    if (!rdb_table_has_rows(r, "topology_rack_usage")) return 0;
    sqlite3_stmt *s = rp_prep(rp, "SELECT min(run_id) FROM topology_rack_usage", err);
    if (!s) return -1;
    int64_t id = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    sqlite3_finalize(s);
    size_t run = 0;
    while (run < r->nruns && r->runs[run].id != id) run++;
    if (run == r->nruns) return 0;
    s = rp_prep(rp, "SELECT name, gpus FROM topology_racks WHERE run_id = ? ORDER BY rack", err);
    if (!s) return -1;
    sqlite3_bind_int64(s, 1, id);
    VEC(char *) names = {0};
    int64_t cb_max = 1;
    while (sqlite3_step(s) == SQLITE_ROW) {
        const char *n = (const char *)sqlite3_column_text(s, 0);
        VEC_PUSH(names, xstrdup(n ? n : ""));
        if (sqlite3_column_int64(s, 1) > cb_max) cb_max = sqlite3_column_int64(s, 1);
    }
    sqlite3_finalize(s);
    int rc = 0;
    FILE *f = names.len ? rp_open_data(rp, "rack_usage", err) : NULL;
    if (names.len && !f) rc = -1;
    if (f) {
        s = rp_prep(rp, "SELECT t_ms, gpus_used FROM topology_rack_usage WHERE run_id = ? ORDER BY t_ms", err);
        if (!s) rc = -1;
        else {
            sqlite3_bind_int64(s, 1, id);
            fputs("# hour, rack index (topology_racks.rack), GPUs in use; one block per sampled instant\n", f);
            while (sqlite3_step(s) == SQLITE_ROW) {
                double h = (double)sqlite3_column_int64(s, 0) / 3600000.0;
                const char *u = (const char *)sqlite3_column_text(s, 1);
                for (size_t k = 0; u && *u && k < names.len; k++) {
                    char *end;
                    long v = strtol(u, &end, 10);
                    fprintf(f, "%.6f %zu %ld\n", h, k, v);
                    u = *end == ',' ? end + 1 : end;
                }
                fputc('\n', f);
            }
            sqlite3_finalize(s);
        }
        fclose(f);
    }
    if (!rc && names.len) {
        strbuf title = {0}, num = {0};
        sb_printf(&title, "GPUs in use per rack over time (run %lld: %s, seed %lld)", (long long)id,
                  r->groups[r->runs[run].group], (long long)r->runs[run].seed);
        rplot *p = rp_new_plot(rp, "rack_usage", "heatmap.gp", sb_str(&title));
        rp_gp_array(&p->vars, "racks", names.data, names.len);
        sb_printf(&p->vars, "nracks = %zu\ncb_max = %lld\n", names.len, (long long)cb_max);
        rp_gp_var(&p->vars, "cb_text", "GPUs in use");
        rp_gp_var(&p->vars, "xlabel_text", "simulated time (h)");
        rp_gp_var(&p->vars, "ylabel_text", "rack");
        if (names.len > 40) p->height = 900;
        sb_free(&title);
        sb_free(&num);
    }
    rp_free_strings(names.data, names.len);
    return rc;
}
