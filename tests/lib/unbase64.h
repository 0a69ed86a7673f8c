/* unbase64.h -- RFC 4648 base64 decoding for tests (a ConfigMap's binaryData
 * read back). Header-only. */
#ifndef DRASIM_TESTS_UNBASE64_H
#define DRASIM_TESTS_UNBASE64_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Decode s (up to '=' or its end) into out (room for 3/4 of strlen(s)): the
 * number of bytes, or SIZE_MAX when s holds a character base64 does not use. */
static inline size_t unbase64(const char *s, unsigned char *out) {
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t n = 0;
    unsigned v = 0;
    int bits = 0;
    for (; *s && *s != '='; s++) {
        const char *p = strchr(t, *s);
        if (!p) return SIZE_MAX;
        v = v << 6 | (unsigned)(p - t);
        if ((bits += 6) >= 8) out[n++] = (unsigned char)(v >> (bits -= 8));
    }
    return n;
}

#endif
