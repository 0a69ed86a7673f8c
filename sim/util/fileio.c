/* fileio.c -- whole-file reads: refuse what never ends (devices) or is not a
 * file (directories), cap the size, name the file in every message. */
#include "util/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/input_files.h"

size_t file_max_input_bytes(void) {
    size_t mib = FILE_MAX_INPUT_MIB_DEFAULT;
    const char *env = getenv("DRASIM_MAX_INPUT_MIB");
    if (env && *env) {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (*end == 0 && v > 0 && v < ((size_t)-1 >> 20)) mib = (size_t)v;
    }
    return mib << 20;
}

/* "a character device" etc. for a file type that is neither regular, a
 * directory nor a pipe. */
static const char *kind_name(mode_t m) {
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "a special file";
}

static int too_large(const char *path, size_t limit, strbuf *err) {
    sb_clear(err);
    sb_printf(err, "%s: larger than the %zu MiB input limit (set DRASIM_MAX_INPUT_MIB to raise it)", path,
              limit >> 20);
    return -1;
}

int file_read_all(const char *path, strbuf *out, strbuf *err) {
    struct stat st;
    /* Look before opening: opening a FIFO or a terminal may block. */
    if (stat(path, &st) != 0) {
        sb_clear(err);
        sb_printf(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        sb_clear(err);
        sb_printf(err, "%s: is a directory", path);
        return -1;
    }
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
        sb_clear(err);
        sb_printf(err, "%s: is not a regular file (%s)", path, kind_name(st.st_mode));
        return -1;
    }
    size_t limit = file_max_input_bytes();
    if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > limit) return too_large(path, limit, err);
    input_files_note(path);   /* never an output of this run (store/output_path.c) */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        sb_clear(err);
        sb_printf(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    size_t start = out->len;
    char buf[65536];
    for (;;) {
        ssize_t k = read(fd, buf, sizeof buf);
        if (k == 0) break;
        if (k < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            close(fd);
            if (out->s) out->s[out->len = start] = 0;
            sb_clear(err);
            sb_printf(err, "%s: read error: %s", path, strerror(e));
            return -1;
        }
        if (out->len - start + (size_t)k > limit) {   /* a pipe, or a file still growing */
            close(fd);
            if (out->s) out->s[out->len = start] = 0;
            return too_large(path, limit, err);
        }
        sb_append(out, buf, (size_t)k);
    }
    close(fd);
    return 0;
}
