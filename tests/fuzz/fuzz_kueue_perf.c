/*
 * fuzz_kueue_perf.c -- libFuzzer target for the Kueue performance generator
 * config parser (model/kueue_perf.c): any byte string parses or fails with
 * a message, never crashes or leaks.
 */
#include <stddef.h>
#include <stdint.h>

#include "model/kueue_perf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    kperf_config c;
    strbuf err = {0};
    if (kperf_load_mem("fuzz.yaml", (const char *)data, size, &c, &err) == 0) kperf_free(&c);
    sb_free(&err);
    return 0;
}
