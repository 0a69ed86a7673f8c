/* fileio.h -- the one whole-file reader for every input file (scenarios,
 * inventories, traces, Lua scripts, expect files), with a size limit and
 * messages that name the file. */
#ifndef DRASIM_UTIL_FILEIO_H
#define DRASIM_UTIL_FILEIO_H
#include <stddef.h>
#include "util/strbuf.h"

/* Default cap on one input file: 256 MiB. The environment variable
 * DRASIM_MAX_INPUT_MIB (a positive integer) overrides it. */
#define FILE_MAX_INPUT_MIB_DEFAULT 256

/* The cap in bytes now in force. */
size_t file_max_input_bytes(void);

/* Append the bytes of `path` to `out`. Regular files and pipes/FIFOs are
 * read; directories, devices (/dev/zero, a terminal) and sockets are refused
 * before any read, and so is anything larger than file_max_input_bytes()
 * (pipes are cut off as soon as they pass it). Returns 0, or -1 with err
 * "PATH: cannot open: REASON", "PATH: is a directory", "PATH: is not a
 * regular file (a character device)", "PATH: larger than the N MiB input
 * limit ..." or "PATH: read error: REASON". */
int file_read_all(const char *path, strbuf *out, strbuf *err);
#endif
