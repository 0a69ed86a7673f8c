/* fuzz_csv.c -- the CSV reader must never crash or leak, and every cell of a
 * table it accepts must be readable. */
#include <stddef.h>
#include <stdint.h>
#include "util/csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    csv_table t;
    strbuf err = {0};
    if (csv_parse("fuzz.csv", (const char *)data, size, &t, &err) == 0) {
        size_t total = 0;
        for (size_t r = 0; r < t.nrows; r++)
            for (size_t c = 0; c < t.ncols; c++) {
                int64_t v;
                total += csv_cell(&t, r, (int)c)[0] != 0;
                (void)csv_int(&t, r, (int)c, 0, &v, &err);
            }
        (void)total;
        csv_free(&t);
    }
    sb_free(&err);
    return 0;
}
