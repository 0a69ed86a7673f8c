/* fuzz_expect.c -- the expect-file parser of `drasim check` must never crash
 * or leak, whatever the input; what parses must have a sane shape. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "report/expect.h"
#include "util/intern.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    expect_spec e;
    strbuf err = {0};
    if (expect_parse_mem("fuzz.yaml", (const char *)data, size, &e, &err) == 0) {
        if (!e.nthresholds && !e.nbaseline) abort();
        for (size_t i = 0; i < e.nthresholds; i++)
            if (!e.thresholds[i].metric[0]) abort();
        expect_free(&e);
    }
    sb_free(&err);
    intern_reset();
    return 0;
}
