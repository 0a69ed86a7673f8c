/*
 * csv_stream.h -- an RFC 4180 CSV file read row by row (csv.h's grammar:
 * quoted fields, doubled quotes, CRLF or LF; the first row is the header and
 * every row has as many fields), holding one row and a 64 KiB buffer, so a
 * file of any length costs the same memory. Errors name FILE:LINE:COL.
 */
#ifndef DRASIM_UTIL_CSV_STREAM_H
#define DRASIM_UTIL_CSV_STREAM_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

#define CSV_STREAM_MAX_ROW (1 << 20)   /* bytes of one row */

typedef struct csv_stream {
    int fd;
    char *name;
    char buf[65536];
    size_t pos, len;
    bool eof;
    int line, col, row_line;
    strbuf row;              /* the current row's fields, each NUL-terminated */
    size_t *offs, nfields, cap;
    int *fcols;              /* the column where each field of the current row starts */
    char sep;                /* the field separator: ',' (RFC 4180) or e.g. '|' (sacct --parsable2) */
    char **header;
    size_t ncols;
} csv_stream;

/* Open a regular file and read its header. 0, or -1 with err set. */
int csv_stream_open(const char *path, csv_stream **out, strbuf *err);
/* The same with another field separator (quoting rules unchanged). */
int csv_stream_open_sep(const char *path, char sep, csv_stream **out, strbuf *err);
/* The same for a file without a header row: `names` (comma-separated) are the
 * columns, and the first row is data. */
int csv_stream_open_names(const char *path, char sep, const char *names, csv_stream **out, strbuf *err);
/* Read the next row: 1, 0 at the end of the file, -1 with err set. */
int csv_stream_next(csv_stream *s, strbuf *err);
/* Field c (< ncols) of the current row. */
const char *csv_stream_cell(const csv_stream *s, size_t c);
void csv_stream_close(csv_stream *s);

#endif
