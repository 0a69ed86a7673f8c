/* input_files.c -- registry of the files read as input (see input_files.h). */
#include "util/input_files.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "util/xalloc.h"

typedef struct input_file {
    dev_t dev;
    ino_t ino;
    char *path;
} input_file;

static input_file *files;
static size_t nfiles;

void input_files_note(const char *path) {
    struct stat st;
    if (!path || stat(path, &st)) return;
    for (size_t i = 0; i < nfiles; i++)
        if (files[i].dev == st.st_dev && files[i].ino == st.st_ino) return;
    files = xrealloc(files, (nfiles + 1) * sizeof *files);
    files[nfiles++] = (input_file){st.st_dev, st.st_ino, xstrdup(path)};
}

bool input_files_has(const char *path, const char **which) {
    struct stat st;
    if (!path || stat(path, &st)) return false;
    for (size_t i = 0; i < nfiles; i++)
        if (files[i].dev == st.st_dev && files[i].ino == st.st_ino) {
            if (which) *which = files[i].path;
            return true;
        }
    return false;
}

size_t input_files_count(void) { return nfiles; }
const char *input_files_path(size_t i) { return i < nfiles ? files[i].path : NULL; }

void input_files_reset(void) {
    for (size_t i = 0; i < nfiles; i++) free(files[i].path);
    free(files);
    files = NULL;
    nfiles = 0;
}
