/* compare_fleet.c -- `drasim compare`: an autoscaled run against a fixed
 * fleet (see compare.h): node-hours, cost, peak nodes and GPU allocation
 * against the GPUs provisioned, per side, mean over its runs. */
#include "report/compare.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

typedef struct fleet_side {
    double node_hours, cost, peak_nodes, alloc_pct;
    size_t n;
} fleet_side;

/* Price per node-hour of the node group named `pool` in the autoscaled
 * database (0: not a node group there, or unpriced). */
static double group_price(const rdb *as, const char *pool) {
    sqlite3_stmt *s;
    double price = 0;
    if (sqlite3_prepare_v2(as->db, "SELECT price FROM autoscaler_groups WHERE node_group = ? LIMIT 1", -1, &s, NULL))
        return 0;
    sqlite3_bind_text(s, 1, pool, -1, SQLITE_STATIC);
    if (sqlite3_step(s) == SQLITE_ROW) price = sqlite3_column_double(s, 0);
    sqlite3_finalize(s);
    return price;
}

/* The means over the runs of r. Autoscaled (r == as): the node groups'
 * ca_node_hours, ca_cost, ca_peak_nodes plus its fixed pools' nodes all the
 * time; fixed: every node all the time, priced by the node group of the
 * same name in `as`. */
static fleet_side side(const rdb *r, const rdb *as) {
    fleet_side f = {0, 0, 0, 0, 0};
    bool scaled = r == as;
    const char *sql = scaled ? "SELECT pool, count(*) FROM nodes WHERE run_id = ? AND pool NOT IN "
                               "(SELECT node_group FROM autoscaler_groups WHERE run_id = ?1) GROUP BY pool"
                             : "SELECT pool, count(*) FROM nodes WHERE run_id = ? GROUP BY pool";
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(r->db, sql, -1, &s, NULL)) return f;
    int mh = rdb_metric_index(r, "ca_node_hours"), mc = rdb_metric_index(r, "ca_cost"),
        mp = rdb_metric_index(r, "ca_peak_nodes"),
        ma = rdb_metric_index(r, scaled ? "gpu_alloc_provisioned_pct" : "gpu_alloc_pct");
    for (size_t i = 0; i < r->nruns; i++) {
        double hours = (double)r->runs[i].end_ms / 3.6e6, nodes = 0, cost = 0;
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, r->runs[i].id);
        while (sqlite3_step(s) == SQLITE_ROW) {
            double n = sqlite3_column_double(s, 1);
            nodes += n;
            cost += n * hours * group_price(as, (const char *)sqlite3_column_text(s, 0));
        }
        double nh = scaled ? rdb_value(r, i, mh) : 0, nc = scaled ? rdb_value(r, i, mc) : 0;
        double np = scaled ? rdb_value(r, i, mp) : 0;
        f.node_hours += (isnan(nh) ? 0 : nh) + nodes * hours;
        f.cost += (isnan(nc) ? 0 : nc) + cost;
        f.peak_nodes += (isnan(np) ? 0 : np) + nodes;
        f.alloc_pct += rdb_value(r, i, ma);
        f.n++;
    }
    sqlite3_finalize(s);
    if (f.n) f.node_hours /= (double)f.n, f.cost /= (double)f.n, f.peak_nodes /= (double)f.n, f.alloc_pct /= (double)f.n;
    return f;
}

bool compare_fleet(const rdb *a, const rdb *b, fleet_row *rows) {
    bool sa = rdb_metric_index(a, "ca_node_hours") >= 0, sb = rdb_metric_index(b, "ca_node_hours") >= 0;
    if (sa == sb || !a->nruns || !b->nruns) return false;
    const rdb *as = sa ? a : b;
    fleet_side x = side(a, as), y = side(b, as);
    static const char *const names[] = {"node_hours", "cost", "peak_nodes", "gpu_alloc_provisioned_pct"};
    double va[] = {x.node_hours, x.cost, x.peak_nodes, x.alloc_pct}, vb[] = {y.node_hours, y.cost, y.peak_nodes, y.alloc_pct};
    for (int k = 0; k < FLEET_ROWS; k++) rows[k] = (fleet_row){names[k], va[k], vb[k]};
    return true;
}
