/* fuzz_openb_lists.c -- the OpenB node and pod list readers
 * (model/openb_trace.c) must never crash or leak on any file: each input is
 * written to a temporary file and read as a node list and as a pod list; a
 * list they accept must have every row's fields in range. Inputs the reader
 * caches (one per distinct content, up to its limit) are read twice, so the
 * cached copy is checked too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "model/openb_trace.h"

static char path[64];

static void read_both(void) {
    for (int pass = 0; pass < 2; pass++) {
        arena a = {0};
        strbuf err = {0};
        openb_node *nodes;
        openb_pod *pods;
        size_t n;
        if (openb_load_nodes(path, &a, &nodes, &n, &err) == 0)
            for (size_t i = 0; i < n; i++)
                if (!nodes[i].name || nodes[i].gpus < 0 || !nodes[i].model) abort();
        sb_free(&err);
        if (openb_load_pods(path, &a, &pods, &n, &err) == 0)
            for (size_t i = 0; i < n; i++)
                if (!pods[i].name || pods[i].num_gpu < 0 || pods[i].num_gpu > 8 || !pods[i].gpu_spec) abort();
        sb_free(&err);
        arena_free(&a);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!path[0]) snprintf(path, sizeof path, "/tmp/fuzz-openb-%ld.csv", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    if (size) fwrite(data, 1, size, f);
    fclose(f);
    read_both();
    unlink(path);
    return 0;
}
