/* store_labels.c -- the labels a Lua generator or a job trace gave its pods
 * (docs/SCHEMA.md), stored as the run's label sets (engine/sim_labels.h):
 *   label_sets(run_id, set_id, key, value)   one row per label of each set;
 *   pod_label_sets(run_id, pod_id, set_id)   one row per labelled pod, in pod order;
 *   pod_labels(run_id, pod_id, key, value)   a VIEW joining the two: one row
 *                                             per label of each labelled pod.
 * Pods mostly share a few sets, so a labelled pod costs one row of three
 * integers instead of a text row (and an index entry) per label (issue 31:
 * ~12,000 instructions per pod_labels row). Like user_samples, the tables are
 * created by the first run that has labels, so databases of runs without
 * labels are unchanged byte for byte. */
#include <sqlite3.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_labels.h"
#include "store/store.h"
#include "store/store_labels.h"
#include "store/store_rows.h"
#include "util/xalloc.h"

/* The view's definition. pod_label_sets has no key (a rowid table appended
 * in pod order: ~1,500 instructions a row against ~2,500 with a primary key
 * on (run_id, pod_id)); read whole, the view's rows come out by run, pod and
 * key (each set's rows in label_sets' key order). */
#define POD_LABELS_VIEW                                                                                               \
    "CREATE VIEW pod_labels(run_id, pod_id, key, value) AS SELECT p.run_id, p.pod_id, s.key, s.value"              \
    " FROM pod_label_sets p JOIN label_sets s ON s.run_id = p.run_id AND s.set_id = p.set_id"

int store_label_view(sqlite3 *db) {
    if (!store_has_object(db, "table", "label_sets") || !store_has_object(db, "table", "pod_label_sets")) return 0;
    if (!store_has_object(db, "table", "pod_labels") && !store_has_object(db, "view", "pod_labels"))
        return sqlite3_exec(db, POD_LABELS_VIEW, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
    if (!store_has_object(db, "table", "pod_labels")) return 0;
    /* a table pod_labels from a database of schema version 1 (merged by `report A.db B.db`): it gets the
     * label-set runs' rows too, so it holds every run's labels */
    return sqlite3_exec(db,
                        "INSERT OR IGNORE INTO pod_labels SELECT p.run_id, p.pod_id, s.key, s.value FROM pod_label_sets p"
                        " JOIN label_sets s ON s.run_id = p.run_id AND s.set_id = p.set_id",
                        NULL, NULL, NULL) == SQLITE_OK
               ? 0
               : -1;
}

/* Rows of label_sets: each label of each set some pod carries (a set a pod
 * no longer carries, its labels replaced, is left out). */
typedef struct set_rows {
    int64_t run_id;
    const sim_labels *l;
    const bool *used;   /* per set id - 1 */
    size_t set, i;      /* the current row: label i of set index `set`; set == SIZE_MAX before the first */
} set_rows;

static bool set_rows_next(void *ctx) {
    set_rows *c = ctx;
    if (c->set != SIZE_MAX && ++c->i < c->l->sets.data[c->set].n) return true;
    for (c->set = c->set == SIZE_MAX ? 0 : c->set + 1; c->set < c->l->sets.len; c->set++)
        if (c->used[c->set] && c->l->sets.data[c->set].n) {
            c->i = 0;
            return true;
        }
    return false;
}

static void set_rows_column(void *ctx, sqlite3_context *out, int col) {
    set_rows *c = ctx;
    const k8s_kv *kv = &c->l->kv.data[c->l->sets.data[c->set].off + c->i];
    switch (col) {
    case 0: sqlite3_result_int64(out, c->run_id); break;
    case 1: sqlite3_result_int64(out, (int64_t)c->set + 1); break;
    case 2: sqlite3_result_text(out, kv->key, -1, SQLITE_STATIC); break;
    default: sqlite3_result_text(out, kv->value, -1, SQLITE_STATIC); break;
    }
}

/* Rows of pod_label_sets: each pod with a set, by pod id. */
typedef struct pod_rows {
    int64_t run_id;
    const sim_labels *l;
    size_t pod;   /* the current pod; SIZE_MAX before the first */
} pod_rows;

static bool pod_rows_next(void *ctx) {
    pod_rows *c = ctx;
    for (c->pod = c->pod == SIZE_MAX ? 0 : c->pod + 1; c->pod < c->l->pod_set.len; c->pod++)
        if (c->l->pod_set.data[c->pod]) return true;
    return false;
}

static void pod_rows_column(void *ctx, sqlite3_context *out, int col) {
    pod_rows *c = ctx;
    sqlite3_result_int64(out, col == 0 ? c->run_id : col == 1 ? (int64_t)c->pod : (int64_t)c->l->pod_set.data[c->pod]);
}

int store_write_pod_labels(sqlite3 *db, int64_t run_id, const sim_run *run) {
    const sim_labels *l = run->labels;
    if (!l || !l->npods) return 0;
    if (sqlite3_exec(db,
                     "CREATE TABLE IF NOT EXISTS label_sets(run_id INTEGER NOT NULL, set_id INTEGER NOT NULL,"
                     " key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY(run_id, set_id, key)) WITHOUT ROWID;"
                     "CREATE TABLE IF NOT EXISTS pod_label_sets(run_id INTEGER NOT NULL, pod_id INTEGER NOT NULL,"
                     " set_id INTEGER NOT NULL);",
                     NULL, NULL, NULL) != SQLITE_OK ||
        store_label_view(db))
        return -1;
    bool *used = xcalloc(l->sets.len + 1, sizeof *used);
    for (size_t p = 0; p < l->pod_set.len; p++)
        if (l->pod_set.data[p]) used[l->pod_set.data[p] - 1] = true;
    set_rows sr = {run_id, l, used, SIZE_MAX, 0};
    store_rows srows = {.ncols = 4, .ctx = &sr, .next = set_rows_next, .column = set_rows_column};
    pod_rows pr = {run_id, l, SIZE_MAX};
    store_rows prows = {.ncols = 3, .ctx = &pr, .next = pod_rows_next, .column = pod_rows_column};
    int rc = store_rows_insert(db, "label_sets", &srows) || store_rows_insert(db, "pod_label_sets", &prows) ? -1 : 0;
    free(used);
    return rc;
}
