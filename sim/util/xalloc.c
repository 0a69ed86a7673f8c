#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die_oom(size_t n) {
    fprintf(stderr, "drasim: out of memory (%zu bytes)\n", n);
    abort();
}
void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) die_oom(n);
    return p;
}
void *xcalloc(size_t count, size_t size) {
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) die_oom(count * size);
    return p;
}
void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) die_oom(n);
    return q;
}
char *xstrndup(const char *s, size_t n) {
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}
char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }
