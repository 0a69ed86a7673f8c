/*
 * fuzz_regex.c -- CEL regular expressions: PATTERN '\n' SUBJECT. The
 * linear-time matcher (cel_regex_pike.c) must never crash, and must agree with
 * PCRE2 on whether there is a match and where the leftmost one starts (match
 * ends may differ only where Perl and RE2 treat empty loop iterations
 * differently, so they are not compared).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel_internal.h"

/* Valid UTF-8, as every CEL string is. */
static bool valid_utf8(const unsigned char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t l = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (!l || i + l > n) return false;
        uint32_t cp = l == 1 ? c : c & (0x7f >> l);
        for (size_t k = 1; k < l; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if ((l == 2 && cp < 0x80) || (l == 3 && cp < 0x800) || (l == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += l;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *nl = memchr(data, '\n', size);
    if (!nl) return 0;
    size_t plen = (size_t)(nl - data), slen = size - plen - 1;
    const char *subj = (const char *)nl + 1;
    if (plen > 256 || slen > 4096 || !valid_utf8(data, plen) || !valid_utf8(nl + 1, slen)) return 0;
    strbuf err = {0};
    void *re = cel_regex_compile((const char *)data, plen, &err);
    sb_free(&err);
    if (!re) return 0;
    size_t a1 = 0, b1 = 0, a2 = 0, b2 = 0;
    const char *msg = NULL;
    int r1 = cel_regex_search(re, subj, slen, 0, &a1, &b1, &msg, NULL);
    int r2 = cel_regex_search_linear(re, subj, slen, 0, &a2, &b2);
    if (r1 >= 0 && r2 >= 0 && (r1 != r2 || (r1 == 1 && a1 != a2))) abort();
    if (r2 == 1 && (a2 > b2 || b2 > slen)) abort();
    cel_regex_free(re);
    return 0;
}
