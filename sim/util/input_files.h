/*
 * input_files.h -- the files this process has read as input (scenario, Lua
 * script, trace, inventory, catalog, expect file...), by device and inode,
 * so that an output path can be refused when it names one of them
 * (sim/store/output_path.c). file_read_all() and the Lua loader note every
 * file they read; commands note inputs they open otherwise (a database).
 */
#ifndef DRASIM_UTIL_INPUT_FILES_H
#define DRASIM_UTIL_INPUT_FILES_H

#include <stdbool.h>
#include <stddef.h>

/* Remember `path` (if it exists) as an input. */
void input_files_note(const char *path);
/* True when `path` exists and is the same file as a noted input; `which`
 * (may be NULL) gets the path under which it was noted. */
bool input_files_has(const char *path, const char **which);
/* The inputs noted so far, in the order they were first read. */
size_t input_files_count(void);
const char *input_files_path(size_t i);
/* Remember directory `dir` (if it exists) as one the run may read any file
 * below at any time (a Lua generator's directory: drasim.csv*, require), so
 * that `sweep --emit-job` ships all of it. */
void input_files_note_tree(const char *dir);
size_t input_files_tree_count(void);
const char *input_files_tree(size_t i);
/* Forget every input (tests; commands that run several times). */
void input_files_reset(void);

#endif
