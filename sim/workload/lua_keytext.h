/*
 * lua_keytext.h -- appending to a shape key (lua_pods.c, lua_walk.c): built
 * per pod, so in place while the buffer has room and without printf.
 */
#ifndef DRASIM_WORKLOAD_LUA_KEYTEXT_H
#define DRASIM_WORKLOAD_LUA_KEYTEXT_H

#include <string.h>

#include "util/strbuf.h"

/* Append n bytes: in place while the buffer has room, sb_append to grow it. */
static inline void kput(strbuf *b, const char *s, size_t n) {
    if (b->len + n >= b->cap) {
        sb_append(b, s, n);
        return;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static inline void kputc(strbuf *b, char c) {
    if (b->len + 1 >= b->cap) {
        sb_putc(b, c);
        return;
    }
    b->s[b->len++] = c;
    b->s[b->len] = 0;
}

/* Append the decimal text of v (sb_printf's "%lld", without printf), after `tag` (0: none) and
 * before `end`, in one append. */
static __attribute__((noinline, unused)) void put_int_any(strbuf *b, char tag, long long v, char end) {
    char tmp[28];
    int n = (int)sizeof tmp;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    tmp[--n] = end;
    do tmp[--n] = (char)('0' + u % 10); while ((u /= 10) && n > 3);
    if (v < 0) tmp[--n] = '-';
    if (tag) tmp[--n] = tag;
    kput(b, tmp + n, sizeof tmp - (size_t)n);
}

/* put_int_any, with the common case inline: 0 .. 99 (lengths of keys and names, counts) while the
 * buffer has room. The same text. */
static inline void put_int(strbuf *b, char tag, long long v, char end) {
    if ((unsigned long long)v >= 100 || b->len + 5 >= b->cap) {
        put_int_any(b, tag, v, end);
        return;
    }
    char *p = b->s + b->len;
    if (tag) *p++ = tag;
    if (v >= 10) *p++ = (char)('0' + v / 10);
    *p++ = (char)('0' + v % 10);
    *p++ = end;
    *p = 0;
    b->len = (size_t)(p - b->s);
}

#endif
