/* fuzz_scenario.c -- the scenario reader (every section: cluster, scheduling,
 * profile, workload, DRA claims) must never crash or leak on any YAML; it
 * either accepts the scenario or says why with a position. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    yfile f;
    strbuf err = {0};
    if (yfile_load_mem("fuzz.yaml", (const char *)data, size, &f, &err) == 0) {
        if (f.ndocs == 1) {
            scenario sc;
            memset(&sc, 0, sizeof sc);   /* scenario_from_tree fills a zeroed scenario */
            if (scenario_from_tree(f.docs[0], &sc, &err) != 0 && err.len == 0) abort();   /* a refusal must say why */
            scenario_free(&sc);
        }
        yfile_free(&f);
    }
    sb_free(&err);
    return 0;
}
