#include "util/fileio.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

int file_read_all(const char *path, strbuf *out, strbuf *err) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        sb_clear(err);
        sb_printf(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, fp)) > 0) sb_append(out, buf, k);
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        sb_clear(err);
        sb_printf(err, "%s: read error", path);
        return -1;
    }
    return 0;
}
