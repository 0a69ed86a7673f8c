#include "util/strbuf.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(strbuf *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap) return;
    size_t nc = b->cap ? b->cap * 2 : 64;
    while (nc < b->len + extra + 1) nc *= 2;
    b->s = xrealloc(b->s, nc);
    b->cap = nc;
}
void sb_append(strbuf *b, const char *s, size_t n) {
    reserve(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}
void sb_puts(strbuf *b, const char *s) { sb_append(b, s, strlen(s)); }
void sb_putc(strbuf *b, char c) { sb_append(b, &c, 1); }
void sb_vprintf(strbuf *b, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) return;
    reserve(b, (size_t)n);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}
void sb_printf(strbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}
void sb_clear(strbuf *b) { b->len = 0; if (b->s) b->s[0] = 0; }
void sb_free(strbuf *b) { free(b->s); b->s = NULL; b->len = b->cap = 0; }
const char *sb_str(const strbuf *b) { return b->s ? b->s : ""; }

void sb_cut_echoes(strbuf *b, size_t max) {
    if (!b->s || b->len <= max) return;
    strbuf out = {0};
    size_t i = 0;
    while (i <= b->len) {
        size_t j = i;
        while (j < b->len && b->s[j] != '\'') j++;
        if (j - i > max) {
            size_t keep = max < 256 ? max : 256;
            while (keep > 0 && ((unsigned char)b->s[i + keep] & 0xC0) == 0x80) keep--;
            sb_append(&out, b->s + i, keep);
            sb_printf(&out, "\xe2\x80\xa6 (%zu bytes)", j - i);
        } else {
            sb_append(&out, b->s + i, j - i);
        }
        if (j < b->len) sb_putc(&out, '\'');
        i = j + 1;
    }
    free(b->s);
    *b = out;
}
