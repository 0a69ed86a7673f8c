/* intern.c -- open-addressing hash set of strings (FNV-1a), grown at 50% load. */
#include "util/intern.h"
#include "util/xalloc.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry { const char *s; size_t n; uint64_t h; } entry;
static entry *table;
static size_t cap, count;

static uint64_t hash(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) { h ^= (unsigned char)s[i]; h *= 1099511628211ULL; }
    return h;
}

static void grow(void) {
    size_t ncap = cap ? cap * 2 : 1024;
    entry *nt = xcalloc(ncap, sizeof *nt);
    for (size_t i = 0; i < cap; i++) {
        if (!table[i].s) continue;
        size_t j = table[i].h & (ncap - 1);
        while (nt[j].s) j = (j + 1) & (ncap - 1);
        nt[j] = table[i];
    }
    free(table);
    table = nt;
    cap = ncap;
}

static entry *find(const char *s, size_t n, uint64_t h) {
    size_t j = h & (cap - 1);
    while (table[j].s) {
        if (table[j].h == h && table[j].n == n && memcmp(table[j].s, s, n) == 0) return &table[j];
        j = (j + 1) & (cap - 1);
    }
    return &table[j];
}

const char *intern_lookup(const char *s, size_t n) {
    if (!cap) return NULL;
    entry *e = find(s, n, hash(s, n));
    return e->s;
}

const char *intern_n(const char *s, size_t n) {
    if (!s) return NULL;
    if (2 * (count + 1) > cap) grow();
    uint64_t h = hash(s, n);
    entry *e = find(s, n, h);
    if (!e->s) {
        e->s = xstrndup(s, n);
        e->n = n;
        e->h = h;
        count++;
    }
    return e->s;
}

const char *intern(const char *s) { return s ? intern_n(s, strlen(s)) : NULL; }

void intern_reset(void) {
    for (size_t i = 0; i < cap; i++) free((char *)table[i].s);
    free(table);
    table = NULL;
    cap = count = 0;
}
