/* fuzz_yaml_fast.c -- the fast YAML reader against libyaml: when the fast
 * reader accepts an input, libyaml must accept it too and build the very same
 * tree (kinds, values, styles, tags, marks, documents); otherwise abort. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "model/yaml_fast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    yfile a, b;
    strbuf err = {0}, why = {0};
    int fast = yfast_load("fuzz.yaml", (const char *)data, size, 10000000u, &a, NULL);
    int slow = yfile_load_mem_libyaml("fuzz.yaml", (const char *)data, size, 10000000u, &b, &err);
    if (fast == 0) {
        if (slow != 0) {
            fprintf(stderr, "fast reader accepted what libyaml refuses: %s\n", sb_str(&err));
            abort();
        }
        if (!yfile_same(&a, &b, &why)) {
            fprintf(stderr, "trees differ: %s\n", sb_str(&why));
            abort();
        }
        yfile_free(&a);
    }
    if (slow == 0) yfile_free(&b);
    sb_free(&err);
    sb_free(&why);
    return 0;
}
