/*
 * lua_shapes.c -- the pod shapes a script has made (lua_pods.c): shape key
 * text -> scheduler class, in a C hash table (open addressing), so a
 * pod of a known shape costs one hash of its key and no Lua string or table
 * lookup. Keys live in one growing buffer; at most LUAW_MAX_CLASSES shapes.
 * lua_labels.c keeps its label sets in a table of the same kind.
 */
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "workload/lua_internal.h"

/* Eight bytes a step (a key is hashed per pod): multiply-xorshift over
 * the words, the tail zero-padded, the length mixed in. Only where a key
 * sits in the table depends on it, never an output. */
uint64_t luaw_shape_hash(const char *s, size_t n) {
    uint64_t h = 0xcbf29ce484222325ULL ^ n, w;
    for (; n >= 8; s += 8, n -= 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 32;
    }
    if (n) {
        w = 0;
        memcpy(&w, s, n);
        h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
    }
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return h ? h : 1;   /* 0 marks an empty slot */
}

uint32_t luaw_shape_find(const luaw_shapes *t, uint64_t h, const char *s, size_t n) {
    if (!t->cap) return UINT32_MAX;
    for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        const luaw_shape *e = &t->slot[i];
        if (!e->hash) return UINT32_MAX;
        if (e->hash == h && e->len == n && !memcmp(t->keys.s + e->off, s, n)) return e->cls;
    }
}

static void put(luaw_shapes *t, luaw_shape e) {
    size_t i = e.hash & (t->cap - 1);
    while (t->slot[i].hash) i = (i + 1) & (t->cap - 1);
    t->slot[i] = e;
}

void luaw_shape_add(luaw_shapes *t, uint64_t h, const char *s, size_t n, uint32_t cls) {
    if (2 * (t->n + 1) > t->cap) {   /* keep it at most half full */
        luaw_shapes g = {.cap = t->cap ? 2 * t->cap : 64, .n = t->n, .keys = t->keys};
        g.slot = xcalloc(g.cap, sizeof *g.slot);
        for (size_t i = 0; i < t->cap; i++)
            if (t->slot[i].hash) put(&g, t->slot[i]);
        free(t->slot);
        *t = g;
    }
    luaw_shape e = {h, t->keys.len, n, cls};
    sb_append(&t->keys, s, n);
    put(t, e);
    t->n++;
}

void luaw_shapes_free(luaw_shapes *t) {
    free(t->slot);
    sb_free(&t->keys);
    memset(t, 0, sizeof *t);
}
