/* cmd_merge.c -- `drasim merge A.db B.db ... -o ALL.db [--force] [--allow-mixed]`:
 * one results database holding the runs of several (the shards of a sweep,
 * docs/SWEEPS.md), run ids renumbered. Checked before anything is written;
 * built as ALL.db.tmp-<pid> and renamed, like every results database. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/rdb.h"
#include "store/output_path.h"
#include "store/store.h"
#include "util/xalloc.h"

static void usage(FILE *out) {
    fprintf(out, "usage: drasim merge A.db B.db ... -o ALL.db [--force] [--allow-mixed] [--quiet]\n\n"
                 "Merge results databases (e.g. the shards of `drasim sweep --shard I/N`) into\n"
                 "one: every table with a run_id column, run ids renumbered so that the runs\n"
                 "keep their order (input order, then run id). Refuses a database of another\n"
                 "results schema version, and databases of different scenarios unless\n"
                 "--allow-mixed. ALL.db must be a new path or a drasim database (--force:\n"
                 "replace another file; docs/SECURITY.md); it is never half-written.\n"
                 "exit codes: 0 ok, 2 usage or processing error, 3 unreadable or mismatched input\n");
}

int cmd_merge(int argc, char **argv) {
    const char *out = NULL;
    bool force = false, mixed = false, quiet = false;
    const char **in = xcalloc((size_t)argc + 1, sizeof *in);
    size_t n = 0;
    int rc = EXIT_OK;
    strbuf err = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            goto done;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (!strcmp(a, "--allow-mixed")) {
            mixed = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
        } else if (a[0] == '-') {
            fprintf(stderr, "drasim merge: unexpected argument '%s'\n", a);
            usage(stderr);
            rc = EXIT_ERROR;
            goto done;
        } else {
            in[n++] = a;
        }
    }
    if (!out || !n) {
        fprintf(stderr, "drasim merge: %s\n", !out ? "-o ALL.db is required" : "give at least one database");
        usage(stderr);
        rc = EXIT_ERROR;
        goto done;
    }
    output_target t = {.path = out, .kind = OUTPUT_DATABASE, .force = force, .inputs = in, .ninputs = n, .option = "-o"};
    if (output_check(&t, &err)) {
        fprintf(stderr, "drasim merge: %s\n", sb_str(&err));
        rc = EXIT_ERROR;
        goto done;
    }
    if (rdb_merge_check(in, n, mixed, &err)) {
        fprintf(stderr, "drasim merge: %s\n", sb_str(&err));
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    store st;
    if (store_open(&st, out, &err) ||
        sqlite3_exec(st.db, "CREATE TABLE sweep(run_id INTEGER NOT NULL, param TEXT NOT NULL, value TEXT NOT NULL,"
                            " PRIMARY KEY(run_id, param)); COMMIT;",
                     NULL, NULL, NULL) != SQLITE_OK) {
        if (!err.len) sb_printf(&err, "%s: cannot create the merged database", out);
        store_abort(&st);
        fprintf(stderr, "drasim merge: %s\n", sb_str(&err));
        rc = EXIT_ERROR;
        goto done;
    }
    sqlite3_db_config(st.db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
    sqlite3_db_config(st.db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
    rdb_merge_opts o = {.runs_only = true, .same_columns = true, .notes = stderr};   /* one schema version (checked) */
    int merged = rdb_merge_into(st.db, in, n, &o, &err);   /* -2: an input unlike this drasim's schema */
    if (merged || sqlite3_exec(st.db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK || store_commit(&st, &err)) {
        if (!err.len) sb_printf(&err, "%s: cannot write", out);
        store_abort(&st);
        fprintf(stderr, "drasim merge: %s\n", sb_str(&err));
        rc = merged == -2 ? EXIT_BAD_INPUT : EXIT_ERROR;
        goto done;
    }
    if (!quiet) printf("merged %zu database%s into %s\n", n, n == 1 ? "" : "s", out);
done:
    free(in);
    sb_free(&err);
    return rc;
}
