/*
 * output_path.h -- where a command may write (`-o`, `--junit`), one set of
 * rules for every command (docs/SECURITY.md):
 *
 *   - a new path in an existing, writable directory, or an existing regular
 *     file; never a directory, device, pipe or socket (as root, rename over
 *     /dev/null would replace the device);
 *   - an existing file is replaced only when it is empty or is what the
 *     command writes (a drasim results database; a file starting with the
 *     command's signature), or with --force;
 *   - never a file this command reads (the scenario, its Lua script, trace,
 *     inventory, catalog, expect file, baseline): checked before the run for
 *     the inputs named on the command line, and again before the final rename
 *     for every file read during the run (util/input_files.h);
 *   - a report directory: new, empty, or holding a drasim report (or --force);
 *   - checked before any work, so a bad target fails in milliseconds.
 *
 * Files are written as PATH.tmp-<pid> and renamed; temporary files are
 * tracked so that a signal or abort() removes them (output_tmp_*). A results
 * database is locked while it is written (PATH.lock, flock): a second
 * command writing the same path fails at once instead of silently replacing
 * the first one's results.
 */
#ifndef DRASIM_STORE_OUTPUT_PATH_H
#define DRASIM_STORE_OUTPUT_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

typedef enum output_kind {
    OUTPUT_DATABASE,    /* a results database */
    OUTPUT_FILE,        /* a text file starting with `signature` */
    OUTPUT_DIRECTORY,   /* a report directory */
} output_kind;

typedef struct output_target {
    const char *path;
    output_kind kind;
    const char *signature;       /* OUTPUT_FILE: first bytes of a file this command wrote */
    bool force;                  /* replace any regular file / non-empty directory */
    const char *const *inputs;   /* files named on the command line (NULL entries ignored) */
    size_t ninputs;
    const char *option;          /* "-o", "--junit": for messages */
} output_target;

/* 0 when the target may be written, else -1 with err "PATH: why; what to do". */
int output_check(const output_target *t, strbuf *err);
/* -1 with err when `path` is a file this process read as input (final check
 * before a rename replaces it). */
int output_not_input(const char *path, strbuf *err);

/* Write data to path through path.tmp-<pid> + fsync + rename (after
 * output_not_input); the temporary file is removed on failure or signal. */
int output_write_file(const char *path, const void *data, size_t len, strbuf *err);

/* Temporary files to remove on a signal or abort(): at most 16 at a time. */
void output_tmp_track(const char *path);
void output_tmp_untrack(const char *path);
/* Remove every tracked file; async-signal-safe (unlink only). */
void output_tmp_remove_all(void);

/* Exclusive lock of `path` while a command writes it: PATH.lock held with
 * flock (released by the kernel when the process dies, so a stale lock file
 * never blocks). Returns a handle >= 0, or -1 with err when another process
 * holds it. */
int output_lock(const char *path, strbuf *err);
void output_unlock(int handle);

#endif
