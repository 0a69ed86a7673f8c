/* fuzz_csv_stream.c -- the streaming CSV reader (util/csv_stream.h, Lua's
 * drasim.csv_rows) must never crash, hang or leak on any file, and every
 * cell of every row it returns must be readable. It reads files only, so
 * the input is written to a temporary file first. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/csv_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[] = "/tmp/drasim-fuzz-csv-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    size_t off = 0;
    while (off < size) {
        ssize_t w = write(fd, data + off, size - off);
        if (w <= 0) break;
        off += (size_t)w;
    }
    close(fd);
    csv_stream *s = NULL;
    strbuf err = {0};
    if (csv_stream_open(path, &s, &err) == 0) {
        size_t total = 0;
        while (csv_stream_next(s, &err) == 1)
            for (size_t c = 0; c < s->ncols; c++) total += strlen(csv_stream_cell(s, c));
        (void)total;
        csv_stream_close(s);
    }
    sb_free(&err);
    unlink(path);
    return 0;
}
