/*
 * store_usage.c -- table usage_pools: per node pool, the GPU-hours allocated,
 * used and idle while allocated (engine/sim_usage.h, docs/SHARING.md). Only
 * runs with the usage model on write it, so databases of other runs are
 * unchanged.
 */
#include "store/store_usage.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_usage.h"
#include "util/xalloc.h"

static const char *const usage_sql =
    "CREATE TABLE IF NOT EXISTS usage_pools(run_id INTEGER NOT NULL, pool TEXT, gpus REAL NOT NULL,"
    " gpu_hours_allocated REAL NOT NULL, gpu_hours_used REAL NOT NULL, gpu_hours_idle REAL NOT NULL);\n";

int store_write_usage(sqlite3 *db, int64_t run_id, const sim_run *run, const inv_node *info) {
    if (!run->usage) return 0;
    if (sqlite3_exec(db, usage_sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
    size_t n = run->nnodes, np = 0;
    const char **pool = xcalloc(n + 1, sizeof *pool);
    double *gpus = xcalloc(n + 1, sizeof *gpus), *alloc = xcalloc(n + 1, sizeof *alloc),
           *used = xcalloc(n + 1, sizeof *used);
    const double *na = sim_usage_node_alloc(run->usage), *nu = sim_usage_node_used(run->usage);
    for (size_t i = 0; i < n; i++) {
        const char *p = info && info[i].pool ? info[i].pool->name : NULL;
        size_t g = 0;
        while (g < np && !(pool[g] == p || (pool[g] && p && !strcmp(pool[g], p)))) g++;
        if (g == np) pool[np++] = p;
        gpus[g] += sim_node_gpus(run, i);
        alloc[g] += na[i];
        used[g] += nu[i];
    }
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(db, "INSERT INTO usage_pools VALUES(?,?,?,?,?,?)", -1, &s, NULL) == SQLITE_OK ? 0 : -1;
    for (size_t g = 0; g < np && !rc; g++) {
        if (gpus[g] <= 0) continue;
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, run_id);
        if (pool[g]) sqlite3_bind_text(s, 2, pool[g], -1, SQLITE_STATIC);
        else sqlite3_bind_null(s, 2);
        sqlite3_bind_double(s, 3, gpus[g]);
        sqlite3_bind_double(s, 4, alloc[g] / 3600000.0);
        sqlite3_bind_double(s, 5, used[g] / 3600000.0);
        sqlite3_bind_double(s, 6, (alloc[g] > used[g] ? alloc[g] - used[g] : 0) / 3600000.0);
        if (sqlite3_step(s) != SQLITE_DONE) rc = -1;
    }
    sqlite3_finalize(s);
    free(pool);
    free(gpus);
    free(alloc);
    free(used);
    return rc;
}
