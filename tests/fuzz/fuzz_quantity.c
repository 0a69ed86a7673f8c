/* fuzz_quantity.c -- libFuzzer target for quantity_parse and semver_parse.
 * Whatever parses must format to a canonical string that parses back to an
 * equal value; formatting that again must reach a fixed point. The first byte picks
 * the parser: 0 quantity, 1 strict semver, 2 normalising semver. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/quantity.h"
#include "cel/semver.h"
#include "util/intern.h"

static void fuzz_quantity(const char *s, size_t n) {
    quantity q, r;
    const char *err = NULL;
    char a[128], b[128];
    if (quantity_parse(s, n, &q, &err) != 0) {
        if (!err) abort();
        return;
    }
    size_t la = quantity_format_str(&q, a, sizeof a);
    if (la >= sizeof a) abort();
    if (quantity_parse(a, la, &r, &err) != 0) {
        fprintf(stderr, "canonical '%s' does not parse: %s\n", a, err);
        abort();
    }
    if (quantity_cmp(&q, &r) != 0) {
        fprintf(stderr, "canonical '%s' changes the value\n", a);
        abort();
    }
    /* A BinarySI value without a suffix re-parses as DecimalSI ("62.5Ki" ->
     * "64000" -> "64k", as upstream), so only the second round must be a
     * fixed point. */
    size_t lb = quantity_format_str(&r, b, sizeof b);
    quantity t;
    char c[128];
    if (quantity_parse(b, lb, &t, &err) != 0 || quantity_cmp(&t, &q) != 0) abort();
    quantity_format_str(&t, c, sizeof c);
    if (strcmp(b, c) != 0) {
        fprintf(stderr, "canonical '%s' re-formats as '%s'\n", b, c);
        abort();
    }
    /* exercise the arithmetic and accessors on the parsed value */
    quantity sum, diff;
    if (quantity_add(&q, &r, &sum) == 0 && quantity_sub(&sum, &r, &diff) == 0 &&
        quantity_cmp(&diff, &q) != 0)
        abort();
    int64_t iv;
    (void)quantity_as_int64(&q, &iv);
    (void)quantity_approx_float(&q);
    (void)quantity_milli_value(&q);
    (void)quantity_value(&q);
}

static void fuzz_semver(const char *s, size_t n, bool normalize) {
    semver v, w;
    const char *err = NULL;
    char a[1024], b[1024];
    if (semver_parse(s, n, normalize, &v, &err) != 0) {
        if (!err) abort();
        return;
    }
    size_t la = semver_format_str(&v, a, sizeof a);
    if (la >= sizeof a) return;          /* longer than any input we feed */
    if (semver_parse(a, la, false, &w, &err) != 0) {
        fprintf(stderr, "formatted '%s' does not parse: %s\n", a, err);
        abort();
    }
    if (semver_cmp(&v, &w) != 0 || v.build != w.build) abort();
    semver_format_str(&w, b, sizeof b);
    if (strcmp(a, b) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    switch (data[0] % 3) {
    case 0: fuzz_quantity(s, n); break;
    case 1: fuzz_semver(s, n, false); break;
    default: fuzz_semver(s, n, true); break;
    }
    intern_reset();                      /* keep the intern table from growing */
    return 0;
}
