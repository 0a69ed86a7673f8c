/*
 * replay_main.c -- a main() for the libFuzzer targets in the normal build:
 * every file named on the command line (or every file of a directory) is
 * passed to LLVMFuzzerTestOneInput once. The suite replays each target's
 * seed corpus with it (tests/fuzz/CMakeLists.txt), so the targets keep
 * compiling against the code they fuzz and the corpus never crashes, also
 * under ASan+UBSan; tools/fuzz/run does the fuzzing itself, with clang.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* Run one input file; 0, or -1 when it cannot be read. */
static int replay_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 4096, n = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *bigger = realloc(buf, cap *= 2);
            if (!bigger) break;
            buf = bigger;
        }
    }
    fclose(f);
    if (!buf) return -1;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    int inputs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st)) {
            fprintf(stderr, "replay: %s: cannot read\n", argv[i]);
            return 2;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (replay_file(argv[i])) return 2;
            inputs++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        char **names = NULL;
        size_t nn = 0;
        for (struct dirent *e; d && (e = readdir(d));) {
            if (e->d_name[0] == '.') continue;
            names = realloc(names, (nn + 1) * sizeof *names);
            size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
            names[nn] = malloc(len);
            snprintf(names[nn++], len, "%s/%s", argv[i], e->d_name);
        }
        if (d) closedir(d);
        qsort(names, nn, sizeof *names, cmp_str);   /* a fixed order */
        for (size_t k = 0; k < nn; k++) {
            if (replay_file(names[k])) return 2;
            inputs++;
            free(names[k]);
        }
        free(names);
    }
    printf("replay: %d inputs, no crash\n", inputs);
    return inputs ? 0 : 2;
}
