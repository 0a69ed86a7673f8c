#include "util/fileio.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/input_files.h"

int file_read_all(const char *path, strbuf *out, strbuf *err) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        sb_clear(err);
        sb_printf(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(fp);
        sb_clear(err);
        sb_printf(err, "%s: is a directory, not a file", path);
        return -1;
    }
    input_files_note(path);
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, fp)) > 0) sb_append(out, buf, k);
    int bad = ferror(fp) ? errno : 0;
    fclose(fp);
    if (bad) {
        sb_clear(err);
        sb_printf(err, "%s: read error: %s", path, strerror(bad));
        return -1;
    }
    return 0;
}
