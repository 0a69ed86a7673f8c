/* fileio.h -- whole-file reads with messages that name the file. */
#ifndef DRASIM_UTIL_FILEIO_H
#define DRASIM_UTIL_FILEIO_H
#include "util/strbuf.h"
/* Append the bytes of `path` to `out`. Returns 0, or -1 with err
 * "PATH: cannot open: REASON" / "PATH: read error". */
int file_read_all(const char *path, strbuf *out, strbuf *err);
#endif
