/* store_autoscaler.c -- the autoscaler's tables (see store_autoscaler.h). */
#include "store/store_autoscaler.h"

#include <sqlite3.h>

#include "autoscale/ca.h"

static const char *const ca_sql =
    "CREATE TABLE IF NOT EXISTS autoscaler_groups(run_id INTEGER NOT NULL, node_group TEXT NOT NULL,"
    " min_nodes INTEGER NOT NULL, max_nodes INTEGER NOT NULL, price REAL NOT NULL, node_hours REAL NOT NULL,"
    " cost REAL NOT NULL, scale_ups INTEGER NOT NULL, nodes_added INTEGER NOT NULL, nodes_removed INTEGER NOT NULL,"
    " provision_failures INTEGER NOT NULL, peak_nodes INTEGER NOT NULL);\n"
    "CREATE TABLE IF NOT EXISTS autoscaler_nodes(run_id INTEGER NOT NULL, time_ms INTEGER NOT NULL,"
    " node_group TEXT NOT NULL, nodes INTEGER NOT NULL, ready INTEGER NOT NULL);\n"
    "CREATE TABLE IF NOT EXISTS autoscaler_events(run_id INTEGER NOT NULL, time_ms INTEGER NOT NULL,"
    " node_group TEXT NOT NULL, event TEXT NOT NULL, nodes INTEGER NOT NULL, node TEXT, reason TEXT);\n";

static int exec_stmt(sqlite3_stmt *s) {
    int rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
    sqlite3_reset(s);
    return rc;
}

int store_write_autoscaler(sqlite3 *db, int64_t id, const sim_run *run) {
    const ca_run *ca = run->ca;
    if (!ca) return 0;
    if (sqlite3_exec(db, ca_sql, NULL, NULL, NULL) != SQLITE_OK) return -1;
    sqlite3_stmt *g = NULL, *n = NULL, *e = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(db, "INSERT INTO autoscaler_groups VALUES(?,?,?,?,?,?,?,?,?,?,?,?)", -1, &g, NULL) ||
        sqlite3_prepare_v2(db, "INSERT INTO autoscaler_nodes VALUES(?,?,?,?,?)", -1, &n, NULL) ||
        sqlite3_prepare_v2(db, "INSERT INTO autoscaler_events VALUES(?,?,?,?,?,?,?)", -1, &e, NULL))
        rc = -1;
    for (size_t i = 0; !rc && i < ca->ngroups; i++) {
        const ca_group *x = &ca->groups[i];
        double hours = x->node_ms / 3.6e6;   /* integrated to the end by the summary */
        sqlite3_bind_int64(g, 1, id);
        sqlite3_bind_text(g, 2, x->pool->name, -1, SQLITE_STATIC);
        sqlite3_bind_int64(g, 3, x->as->min);
        sqlite3_bind_int64(g, 4, x->as->max);
        sqlite3_bind_double(g, 5, x->as->price);
        sqlite3_bind_double(g, 6, hours);
        sqlite3_bind_double(g, 7, hours * x->as->price);
        sqlite3_bind_int64(g, 8, x->scale_ups);
        sqlite3_bind_int64(g, 9, x->nodes_added);
        sqlite3_bind_int64(g, 10, x->nodes_removed);
        sqlite3_bind_int64(g, 11, x->failures);
        sqlite3_bind_int64(g, 12, x->peak);
        rc = exec_stmt(g);
    }
    for (size_t i = 0; !rc && i < ca->series.len; i++) {
        const ca_point *p = &ca->series.data[i];
        sqlite3_bind_int64(n, 1, id);
        sqlite3_bind_int64(n, 2, p->t);
        sqlite3_bind_text(n, 3, ca->groups[p->group].pool->name, -1, SQLITE_STATIC);
        sqlite3_bind_int64(n, 4, p->size);
        sqlite3_bind_int64(n, 5, p->ready);
        rc = exec_stmt(n);
    }
    for (size_t i = 0; !rc && i < ca->events.len; i++) {
        const ca_event *x = &ca->events.data[i];
        sqlite3_bind_int64(e, 1, id);
        sqlite3_bind_int64(e, 2, x->t);
        sqlite3_bind_text(e, 3, x->group == CA_NO_GROUP ? "" : ca->groups[x->group].pool->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(e, 4, ca_event_kind_name((ca_event_kind)x->kind), -1, SQLITE_STATIC);
        sqlite3_bind_int64(e, 5, x->nodes);
        if (x->node >= 0) sqlite3_bind_text(e, 6, run->nodes[x->node].meta.name, -1, SQLITE_STATIC);
        else sqlite3_bind_null(e, 6);
        if (x->reason) sqlite3_bind_text(e, 7, x->reason, -1, SQLITE_STATIC);
        else sqlite3_bind_null(e, 7);
        rc = exec_stmt(e);
    }
    sqlite3_finalize(g);
    sqlite3_finalize(n);
    sqlite3_finalize(e);
    return rc;
}
