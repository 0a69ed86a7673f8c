/* store_rows.h -- millions of rows into a table in one statement step
 * (issue 31): the rows come from a writer's callbacks through an eponymous
 * virtual table, `INSERT INTO t SELECT c0.. FROM drasim_rows`, so no
 * parameter is bound per value and no statement is stepped per row batch.
 * The table gets the same rows, values and rowids as one INSERT per row. */
#ifndef DRASIM_STORE_STORE_ROWS_H
#define DRASIM_STORE_STORE_ROWS_H

#include <stdbool.h>

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_context sqlite3_context;

enum { STORE_ROWS_MAX_COLS = 16 };

typedef struct store_rows {
    int ncols;                                             /* columns of the target table, <= STORE_ROWS_MAX_COLS */
    /* the SELECT's column list, e.g. "1,c1,c2" for a constant first column that
     * then costs no call per row; NULL: c0, c1, ... c<ncols-1> */
    const char *select;
    void *ctx;
    bool (*next)(void *ctx);                               /* move to the next row; false after the last */
    void (*column)(void *ctx, sqlite3_context *out, int col);   /* the current row's column col (sqlite3_result_*) */
} store_rows;

/* INSERT every row of `rows` into `table` in order; 0, or -1 on an SQLite error. */
int store_rows_insert(sqlite3 *db, const char *table, store_rows *rows);

#endif
