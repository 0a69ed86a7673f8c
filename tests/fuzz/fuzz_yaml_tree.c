/* fuzz_yaml_tree.c -- YAML loading (aliases, depth, duplicate keys) must never
 * crash or leak; what loads must dump and load again. */
#include <stddef.h>
#include <stdint.h>
#include "model/yaml_tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    yfile f;
    strbuf err = {0};
    if (yfile_load_mem("fuzz.yaml", (const char *)data, size, &f, &err) == 0) {
        strbuf out = {0};
        for (size_t i = 0; i < f.ndocs && i < 4; i++) {
            sb_clear(&out);
            ydump(&out, f.docs[i]);
        }
        sb_free(&out);
        yfile_free(&f);
    }
    sb_free(&err);
    return 0;
}
