/*
 * csv.h -- RFC 4180 comma-separated tables (quoted fields, doubled quotes,
 * CRLF or LF). The first row is the header; every row must have as many
 * fields as the header. Errors name FILE:LINE:COL.
 */
#ifndef DRASIM_UTIL_CSV_H
#define DRASIM_UTIL_CSV_H
#include <stddef.h>
#include <stdint.h>
#include "util/strbuf.h"

typedef struct csv_table {
    char *name;           /* file name for messages */
    char **cells;         /* row-major, (nrows + 1) * ncols: row 0 is the header */
    int *lines;           /* line number of each row, header included */
    size_t ncols, nrows;  /* nrows excludes the header */
    char *store;          /* backing storage of the cells */
} csv_table;

int csv_parse(const char *name, const char *data, size_t len, csv_table *out, strbuf *err);
int csv_load(const char *path, csv_table *out, strbuf *err);
void csv_free(csv_table *t);

/* Column index of `header`, or -1. */
int csv_col(const csv_table *t, const char *header);
/* Cell of data row r (0-based) and column c. */
const char *csv_cell(const csv_table *t, size_t r, int c);
/* Parse a cell as an integer; empty cells give `dflt`. Returns 0 or -1 with
 * err "FILE:LINE: column NAME: expected an integer, found '...'". */
int csv_int(const csv_table *t, size_t r, int c, int64_t dflt, int64_t *out, strbuf *err);
#endif
