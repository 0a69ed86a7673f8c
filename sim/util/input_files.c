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
static input_file *trees;   /* directories a run may read any file of */
static size_t ntrees;

/* Add `path` to list *v (n entries) unless the same file is there already. */
static void note_in(input_file **v, size_t *n, const char *path) {
    struct stat st;
    if (!path || stat(path, &st)) return;
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i].dev == st.st_dev && (*v)[i].ino == st.st_ino) return;
    *v = xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[(*n)++] = (input_file){st.st_dev, st.st_ino, xstrdup(path)};
}

void input_files_note_tree(const char *dir) { note_in(&trees, &ntrees, dir); }
size_t input_files_tree_count(void) { return ntrees; }
const char *input_files_tree(size_t i) { return i < ntrees ? trees[i].path : NULL; }

void input_files_note(const char *path) { note_in(&files, &nfiles, path); }

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
    for (size_t i = 0; i < ntrees; i++) free(trees[i].path);
    free(trees);
    trees = NULL;
    ntrees = 0;
}
