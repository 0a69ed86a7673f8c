/* datadir.c -- locate data files (see datadir.h). */
#include "util/datadir.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

const char *datadir_find(const char *rel, char *buf, size_t n) {
    const char *dirs[3] = {getenv("DRASIM_DATADIR"), DRASIM_INSTALL_DATADIR, DRASIM_SOURCE_DATADIR};
    for (int i = 0; i < 3; i++) {
        if (!dirs[i] || !*dirs[i]) continue;
        struct stat st;
        snprintf(buf, n, "%s/%s", dirs[i], rel);
        if (stat(buf, &st) == 0) return buf;
    }
    return NULL;
}
