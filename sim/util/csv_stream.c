/* csv_stream.c -- RFC 4180 rows read one at a time through a 64 KiB buffer
 * (see csv_stream.h): the same grammar as csv.c (quoted fields, doubled
 * quotes, CRLF, LF or a lone CR), without holding the file in memory. */
#include "util/csv_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/input_files.h"
#include "util/xalloc.h"

static int fill(csv_stream *s, strbuf *err) {
    if (s->eof) return 0;
    for (;;) {
        ssize_t k = read(s->fd, s->buf, sizeof s->buf);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            sb_clear(err);
            sb_printf(err, "%s: read error: %s", s->name, strerror(errno));
            return -1;
        }
        s->pos = 0;
        s->len = (size_t)k;
        if (k == 0) s->eof = true;
        return k > 0;
    }
}

/* The next byte (advancing), or -1 at the end of the file; -2 on a read error. */
static int getb(csv_stream *s, strbuf *err) {
    if (s->pos == s->len) {
        int r = fill(s, err);
        if (r < 0) return -2;
        if (r == 0) return -1;
    }
    return (unsigned char)s->buf[s->pos++];
}

static int peekb(csv_stream *s, strbuf *err) {
    if (s->pos == s->len) {
        int r = fill(s, err);
        if (r < 0) return -2;
        if (r == 0) return -1;
    }
    return (unsigned char)s->buf[s->pos];
}

/* A NUL would end the cell's C string early ("node/a\0b" read as node/a):
 * refused like csv.c refuses it. */
static int nul_byte(csv_stream *s, strbuf *err) {
    sb_clear(err);
    sb_printf(err, "%s:%d:%d: a NUL byte in a field (expected text)", s->name, s->line, s->col);
    return -1;
}

static int too_long(csv_stream *s, strbuf *err) {
    sb_clear(err);
    sb_printf(err, "%s:%d:1: row longer than %d bytes", s->name, s->row_line, CSV_STREAM_MAX_ROW);
    return -1;
}

/* Read one row into s->row / s->offs. 1 = a row, 0 = end of file, -1 = error. */
static int read_row(csv_stream *s, strbuf *err) {
    sb_clear(&s->row);
    s->nfields = 0;
    int c = peekb(s, err);
    if (c == -2) return -1;
    if (c == -1) return 0;
    s->row_line = s->line;
    for (;;) {   /* one field per iteration */
        if (s->nfields == s->cap) {
            s->cap = s->cap ? 2 * s->cap : 16;
            s->offs = xrealloc(s->offs, s->cap * sizeof *s->offs);
            s->fcols = xrealloc(s->fcols, s->cap * sizeof *s->fcols);
        }
        s->fcols[s->nfields] = s->col;
        s->offs[s->nfields++] = s->row.len;
        c = peekb(s, err);
        if (c == -2) return -1;
        if (c == '"') {
            int qline = s->line, qcol = s->col;
            getb(s, err);
            s->col++;
            for (;;) {
                c = getb(s, err);
                if (c == -2) return -1;
                if (c == -1) {
                    sb_clear(err);
                    sb_printf(err, "%s:%d:%d: unterminated quoted field", s->name, qline, qcol);
                    return -1;
                }
                if (c == 0) return nul_byte(s, err);
                if (c == '"') {
                    int n = peekb(s, err);
                    if (n == -2) return -1;
                    if (n == '"') {
                        getb(s, err);
                        s->col += 2;
                        sb_putc(&s->row, '"');
                        continue;
                    }
                    s->col++;
                    break;
                }
                if (c == '\n') {
                    s->line++;
                    s->col = 1;
                } else {
                    s->col++;
                }
                sb_putc(&s->row, (char)c);
                if (s->row.len > CSV_STREAM_MAX_ROW) return too_long(s, err);
            }
            c = peekb(s, err);
            if (c == -2) return -1;
            if (c != -1 && c != s->sep && c != '\n' && c != '\r') {
                sb_clear(err);
                sb_printf(err, "%s:%d:%d: unexpected character after a quoted field", s->name, s->line, s->col);
                return -1;
            }
        } else {
            for (;;) {
                c = peekb(s, err);
                if (c == -2) return -1;
                if (c == -1 || c == s->sep || c == '\n' || c == '\r') break;
                if (c == '"') {
                    sb_clear(err);
                    sb_printf(err, "%s:%d:%d: quote inside an unquoted field", s->name, s->line, s->col);
                    return -1;
                }
                if (c == 0) return nul_byte(s, err);
                getb(s, err);
                s->col++;
                sb_putc(&s->row, (char)c);
                if (s->row.len > CSV_STREAM_MAX_ROW) return too_long(s, err);
            }
        }
        sb_putc(&s->row, 0);
        c = peekb(s, err);
        if (c == s->sep) {
            getb(s, err);
            s->col++;
            continue;
        }
        break;
    }
    /* end of row: CRLF, LF, a lone CR, or the end of the data */
    if (peekb(s, err) == '\r') getb(s, err);
    if (peekb(s, err) == '\n') getb(s, err);
    s->line++;
    s->col = 1;
    return 1;
}

int csv_stream_open(const char *path, csv_stream **out, strbuf *err) { return csv_stream_open_sep(path, ',', out, err); }

int csv_stream_open_sep(const char *path, char sep, csv_stream **out, strbuf *err) {
    return csv_stream_open_names(path, sep, NULL, out, err);
}

/* The header from a comma-separated list of names (no quoting). */
static void names_header(csv_stream *s, const char *names) {
    s->ncols = 1;
    for (const char *p = names; *p; p++) s->ncols += *p == ',';
    s->header = xmalloc(s->ncols * sizeof *s->header);
    for (size_t i = 0; i < s->ncols; i++) {
        size_t n = strcspn(names, ",");
        s->header[i] = xstrndup(names, n);
        names += n + (names[n] == ',');
    }
}

int csv_stream_open_names(const char *path, char sep, const char *names, csv_stream **out, strbuf *err) {
    *out = NULL;
    struct stat st;
    if (stat(path, &st) != 0) {
        sb_clear(err);
        sb_printf(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {   /* a FIFO or a device could block or never end */
        sb_clear(err);
        sb_printf(err, "%s: %s", path, S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file");
        return -1;
    }
    input_files_note(path);   /* never an output of this run (store/output_path.c) */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        sb_clear(err);
        sb_printf(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    csv_stream *s = xcalloc(1, sizeof *s);
    s->fd = fd;
    s->sep = sep;
    s->name = xstrdup(path);
    s->line = s->col = 1;
    if (fill(s, err) < 0) {
        csv_stream_close(s);
        return -1;
    }
    if (s->len >= 3 && (unsigned char)s->buf[0] == 0xEF && (unsigned char)s->buf[1] == 0xBB &&
        (unsigned char)s->buf[2] == 0xBF)
        s->pos = 3;   /* UTF-8 byte order mark */
    if (names) {
        names_header(s, names);
        *out = s;
        return 0;
    }
    int r = read_row(s, err);
    if (r <= 0) {
        if (r == 0) {
            sb_clear(err);
            sb_printf(err, "%s:1:1: empty file: expected a header row", path);
        }
        csv_stream_close(s);
        return -1;
    }
    s->ncols = s->nfields;
    s->header = xmalloc(s->ncols * sizeof *s->header);
    for (size_t i = 0; i < s->ncols; i++) s->header[i] = xstrdup(s->row.s + s->offs[i]);
    *out = s;
    return 0;
}

int csv_stream_next(csv_stream *s, strbuf *err) {
    int r = read_row(s, err);
    if (r <= 0) return r;
    if (s->nfields != s->ncols) {
        sb_clear(err);
        sb_printf(err, "%s:%d:1: row has %zu fields, the header has %zu", s->name, s->row_line, s->nfields, s->ncols);
        return -1;
    }
    return 1;
}

const char *csv_stream_cell(const csv_stream *s, size_t c) { return s->row.s + s->offs[c]; }

void csv_stream_close(csv_stream *s) {
    if (!s) return;
    if (s->fd >= 0) close(s->fd);
    for (size_t i = 0; s->header && i < s->ncols; i++) free(s->header[i]);
    free(s->header);
    free(s->offs);
    free(s->fcols);
    free(s->name);
    sb_free(&s->row);
    free(s);
}
