/*
 * store.h -- the results database (docs/SCHEMA.md). A database is written
 * atomically: it is built as "OUT.tmp-<pid>" inside one transaction and
 * renamed over OUT only by store_commit(); store_abort() (or any failure)
 * removes the temporary file, so a good OUT is never replaced by a partial
 * one. `info` (node pool and GPU model per node) may be NULL. Nothing wall-clock is stored: the same scenario and seed give a
 * byte-identical file.
 */
#ifndef DRASIM_STORE_STORE_H
#define DRASIM_STORE_STORE_H

#include <signal.h>
#include <stdint.h>

#include "engine/sim.h"
#include "model/cluster.h"
#include "util/strbuf.h"

typedef struct sqlite3 sqlite3;

/* The results schema's version, stored as PRAGMA user_version (docs/SCHEMA.md);
 * `drasim merge` refuses databases of another version. Raise it whenever a
 * table or column changes meaning. Databases written before it existed say 0;
 * 2: pod_labels is a view over label_sets and pod_label_sets (issue 31);
 * 3: claim_allocations is a view over claim_sets and pod_claim_sets (issue 31). */
#define STORE_SCHEMA_VERSION 3
/* Create every table of the results schema in `db` (no sweep table). */
int store_create_schema(sqlite3 *db);
/* Does the main schema of `db` hold an object `name` of type `type` ("table", "view")? */
bool store_has_object(sqlite3 *db, const char *type, const char *name);

typedef struct store {
    sqlite3 *db;
    char *path;       /* final name */
    char *tmp;        /* name while writing */
    int64_t next_run_id;
    int lock;         /* output_lock handle while writing, else -1 */
} store;

/* Lock OUT (another process writing it: error at once), create the
 * temporary database with the schema and open its transaction. The caller
 * checks the path first (output_check in store/output_path.h). */
int store_open(store *st, const char *path, strbuf *err);
/* Write one run (runs, nodes, devices, pods, samples, summary). Returns its
 * run id (> 0), or -1 with err set; `interrupt` is polled between rows. */
int64_t store_write_run(store *st, const sim_run *run, const inv_node *info, const char *scenario_file,
                        strbuf *err, volatile sig_atomic_t *interrupt);
/* Commit, close, fsync, rename over the final name (refused when the final
 * name is a file read as input during the run). */
int store_commit(store *st, strbuf *err);
/* Roll back and remove the temporary file (safe after any failure). */
void store_abort(store *st);

#endif
