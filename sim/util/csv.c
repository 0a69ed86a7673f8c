/* csv.c -- a single pass over the bytes: fields are copied (unquoted) into one
 * backing store, cell pointers are fixed up once the store stops moving. */
#include "util/csv.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/fileio.h"
#include "util/xalloc.h"

int csv_parse(const char *name, const char *data, size_t len, csv_table *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    out->name = xstrdup(name);
    strbuf store = {0};
    size_t *offs = NULL, noffs = 0, capoffs = 0;   /* cell start offsets in store */
    int *lines = NULL;
    size_t nlines = 0, caplines = 0;
    size_t ncols = 0, fields_in_row = 0;
    int line = 1, col = 1, row_line = 1;
    size_t i = 0;
    if (len >= 3 && (unsigned char)data[0] == 0xEF && (unsigned char)data[1] == 0xBB && (unsigned char)data[2] == 0xBF)
        i = 3;   /* UTF-8 byte order mark */
    while (i < len) {   /* one row per iteration */
        row_line = line;
        for (;;) {      /* one field per iteration; a ',' always opens one more (maybe empty, maybe at EOF) */
            if (noffs == capoffs) { capoffs = capoffs ? capoffs * 2 : 256; offs = xrealloc(offs, capoffs * sizeof *offs); }
            offs[noffs++] = store.len;
            if (i < len && data[i] == '"') {
                int qline = line, qcol = col;
                i++; col++;
                for (;;) {
                    if (i >= len) {
                        sb_clear(err);
                        sb_printf(err, "%s:%d:%d: unterminated quoted field", name, qline, qcol);
                        goto fail;
                    }
                    char c = data[i];
                    if (c == 0) goto nul;
                    if (c == '"') {
                        if (i + 1 < len && data[i + 1] == '"') { sb_putc(&store, '"'); i += 2; col += 2; continue; }
                        i++; col++;
                        break;
                    }
                    if (c == '\n') { line++; col = 1; } else col++;
                    sb_putc(&store, c);
                    i++;
                }
                if (i < len && data[i] != ',' && data[i] != '\n' && data[i] != '\r') {
                    sb_clear(err);
                    sb_printf(err, "%s:%d:%d: unexpected character after a quoted field", name, line, col);
                    goto fail;
                }
            } else {
                while (i < len && data[i] != ',' && data[i] != '\n' && data[i] != '\r') {
                    if (data[i] == '"') {
                        sb_clear(err);
                        sb_printf(err, "%s:%d:%d: quote inside an unquoted field", name, line, col);
                        goto fail;
                    }
                    if (data[i] == 0) goto nul;
                    sb_putc(&store, data[i]);
                    i++; col++;
                }
            }
            sb_putc(&store, 0);
            fields_in_row++;
            if (i < len && data[i] == ',') { i++; col++; continue; }
            break;
        }
        /* end of row: CRLF, LF, a lone CR, or the end of the data */
        if (i < len && data[i] == '\r') i++;
        if (i < len && data[i] == '\n') i++;
        if (nlines == 0) ncols = fields_in_row;
        else if (fields_in_row != ncols) {
            sb_clear(err);
            sb_printf(err, "%s:%d:1: row has %zu fields, the header has %zu", name, row_line, fields_in_row, ncols);
            goto fail;
        }
        if (nlines == caplines) { caplines = caplines ? caplines * 2 : 256; lines = xrealloc(lines, caplines * sizeof *lines); }
        lines[nlines++] = row_line;
        fields_in_row = 0;
        line++; col = 1;
    }
    if (nlines == 0) {
        sb_clear(err);
        sb_printf(err, "%s:1:1: empty file: expected a header row", name);
        goto fail;
    }
    out->ncols = ncols;
    out->nrows = nlines - 1;
    out->lines = lines;
    out->store = store.s ? store.s : xstrdup("");
    out->cells = xmalloc(noffs * sizeof *out->cells);
    for (size_t k = 0; k < noffs; k++) out->cells[k] = out->store + offs[k];
    free(offs);
    return 0;
nul:   /* a NUL would end the cell's C string early: "node/a\0b" read as node/a */
    sb_clear(err);
    sb_printf(err, "%s:%d:%d: a NUL byte in a field (expected text)", name, line, col);
fail:
    free(offs);
    free(lines);
    sb_free(&store);
    free(out->name);
    memset(out, 0, sizeof *out);
    return -1;
}

int csv_load(const char *path, csv_table *out, strbuf *err) {
    strbuf data = {0};
    if (file_read_all(path, &data, err)) {
        memset(out, 0, sizeof *out);
        sb_free(&data);
        return -1;
    }
    int rc = csv_parse(path, sb_str(&data), data.len, out, err);
    sb_free(&data);
    return rc;
}

void csv_free(csv_table *t) {
    free(t->name);
    free(t->cells);
    free(t->lines);
    free(t->store);
    memset(t, 0, sizeof *t);
}

int csv_col(const csv_table *t, const char *header) {
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->cells[c], header) == 0) return (int)c;
    return -1;
}

const char *csv_cell(const csv_table *t, size_t r, int c) { return t->cells[(r + 1) * t->ncols + (size_t)c]; }

int csv_int(const csv_table *t, size_t r, int c, int64_t dflt, int64_t *out, strbuf *err) {
    const char *s = csv_cell(t, r, c);
    if (!*s) { *out = dflt; return 0; }
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (*end || errno == ERANGE) {
        sb_clear(err);
        sb_printf(err, "%s:%d: column %s: expected an integer, found '%s'", t->name, t->lines[r + 1], t->cells[c], s);
        return -1;
    }
    *out = v;
    return 0;
}
