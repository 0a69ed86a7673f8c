/*
 * store_cost.c -- tables cost_pools (per node pool: node-hours, reserved
 * nodes, cost, GPU-hours allocated and used, energy) and power_samples (the
 * fleet's facility power over time), docs/SCHEMA.md and docs/COST.md. Only
 * runs with prices or power (engine/sim_cost.h) write them, so databases of
 * other runs are unchanged.
 */
#include "store/store_cost.h"

#include "engine/sim_cost.h"

static const char *const cost_sql =
    "CREATE TABLE IF NOT EXISTS cost_pools(run_id INTEGER NOT NULL, pool TEXT NOT NULL, node_hours REAL NOT NULL,"
    " reserved_nodes REAL NOT NULL, cost_reserved REAL NOT NULL, cost_on_demand REAL NOT NULL, cost REAL NOT NULL,"
    " gpu_hours_allocated REAL NOT NULL, gpu_hours_used REAL NOT NULL, energy_kwh REAL);\n"
    "CREATE TABLE IF NOT EXISTS power_samples(run_id INTEGER NOT NULL, time_ms INTEGER NOT NULL, power_kw REAL NOT NULL);\n";

int store_write_cost(sqlite3 *db, int64_t run_id, const sim_run *run) {
    if (!run->cost) return 0;
    if (sqlite3_exec(db, cost_sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
    const sim_cost_pool *pools;
    const sim_power_sample *ps;
    size_t np = sim_cost_pools(run->cost, &pools), ns = sim_cost_power_samples(run->cost, &ps);
    bool power = run->sc->cluster.power != NULL;
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(db, "INSERT INTO cost_pools VALUES(?,?,?,?,?,?,?,?,?,?)", -1, &s, NULL) == SQLITE_OK
                 ? 0
                 : -1;
    for (size_t i = 0; i < np && !rc; i++) {
        const sim_cost_pool *p = &pools[i];
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, run_id);
        sqlite3_bind_text(s, 2, p->name, -1, SQLITE_STATIC);
        sqlite3_bind_double(s, 3, p->node_hours);
        sqlite3_bind_double(s, 4, p->reserved_nodes);
        sqlite3_bind_double(s, 5, p->cost_reserved);
        sqlite3_bind_double(s, 6, p->cost_on_demand);
        sqlite3_bind_double(s, 7, p->cost_reserved + p->cost_on_demand);
        sqlite3_bind_double(s, 8, p->gpu_hours_allocated);
        sqlite3_bind_double(s, 9, p->gpu_hours_used);
        if (power) sqlite3_bind_double(s, 10, p->energy_kwh);
        else sqlite3_bind_null(s, 10);
        if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
    }
    sqlite3_finalize(s);
    s = NULL;
    if (!rc && ns && sqlite3_prepare_v2(db, "INSERT INTO power_samples VALUES(?,?,?)", -1, &s, NULL) != SQLITE_OK) rc = -1;
    for (size_t i = 0; i < ns && !rc; i++) {
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, run_id);
        sqlite3_bind_int64(s, 2, ps[i].t);
        sqlite3_bind_double(s, 3, ps[i].watts / 1000.0);
        if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
    }
    sqlite3_finalize(s);
    return rc;
}
