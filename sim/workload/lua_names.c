/*
 * lua_names.c -- the names of the pods a script submitted -> their
 * submission number (luaw.podref), in a C hash table over the names' copies
 * in the run's arena: 4 bytes per slot and 8 per pod, where a Lua table
 * would hold a Lua string and a node per pod (a million-row replay must fit
 * in 200 MB, issue 20). Also the groups' counters of automatic names
 * ("<group>-<n>"), in a table of the same kind (one lookup per submit, no
 * Lua string or table access).
 */
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "util/huge_vec.h"
#include "workload/lua_internal.h"

static uint64_t name_hash(const char *s, size_t n) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    return h;
}

static void put(luaw_names *t, const char *s, size_t n, uint32_t k1) {
    size_t i = name_hash(s, n) & (t->cap - 1);
    while (t->slot[i]) i = (i + 1) & (t->cap - 1);
    t->slot[i] = k1;
}

/* Put name[k] into the hash, growing it to stay at most half full. */
static void index_name(luaw_names *t, uint32_t k) {
    if (2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        uint32_t *old = t->slot;
        size_t ocap = t->cap;
        t->slot = xcalloc(cap, sizeof *t->slot);
        t->cap = cap;
        for (size_t i = 0; i < ocap; i++)
            if (old[i]) put(t, t->name.data[old[i] - 1], strlen(t->name.data[old[i] - 1]), old[i]);
        free(old);
    }
    put(t, t->name.data[k], strlen(t->name.data[k]), k + 1);
    t->n++;
}

/* The hash is built at the first lookup and kept up to date from then on:
 * a script that never looks a name up (no drasim.pod, delete, on_finish,
 * name= of its own) pays no hash insert per pod, a random access into a
 * table of millions of slots (issue 31: ~6 % of a 400k-pod generator's CPU). */
uint32_t luaw_name_find(luaw *w, const char *s, size_t n) {
    luaw_names *t = &w->names;
    for (; t->indexed < t->name.len; t->indexed++)
        if (t->name.data[t->indexed]) index_name(t, (uint32_t)t->indexed);
    if (!t->cap) return UINT32_MAX;
    for (size_t i = name_hash(s, n) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        uint32_t k = t->slot[i];
        if (!k) return UINT32_MAX;
        const char *x = t->name.data[k - 1];
        if (!strncmp(x, s, n) && x[n] == 0) return k - 1;
    }
}

void luaw_name_add(luaw *w, const char *s, uint32_t k) {
    luaw_names *t = &w->names;
    while (t->name.len <= k) HUGE_VEC_PUSH(t->name, NULL);
    t->name.data[k] = s;
}

/* Names' text, packed one after another (no alignment, no clearing) in
 * chunks that grow fourfold from 64 KiB to 4 MiB (huge pages from 1 MiB,
 * util/huge_vec.h): a made-up name is ~10 bytes, which the run's arena would
 * round up to 16 and clear. A chunk starts with its size and the previous chunk. */
typedef struct name_chunk {
    struct name_chunk *prev;
    size_t size;
} name_chunk;

const char *luaw_name_keep(luaw *w, const char *s, size_t n) {
    luaw_names *t = &w->names;
    if (t->pool_left < n + 1) {
        name_chunk *last = (name_chunk *)t->pool_chunks;
        size_t size = last ? (last->size < ((size_t)4 << 20) ? 4 * last->size : last->size) : (size_t)64 << 10;
        while (size < sizeof(name_chunk) + n + 1) size *= 2;
        size_t cap = 0;
        name_chunk *c = huge_vec_grow(NULL, &cap, size, 0);
        c->prev = last;
        c->size = cap;
        t->pool_chunks = (char *)c;
        t->pool_next = (char *)(c + 1);
        t->pool_left = cap - sizeof *c;
    }
    char *d = t->pool_next;
    memcpy(d, s, n);
    d[n] = 0;
    t->pool_next += n + 1;
    t->pool_left -= n + 1;
    return d;
}

void luaw_names_free(luaw *w) {
    for (name_chunk *c = (name_chunk *)w->names.pool_chunks, *prev; c; c = prev) {
        prev = c->prev;
        huge_vec_release(c, c->size);
    }
    free(w->names.slot);
    HUGE_VEC_FREE(w->names.name);
    memset(&w->names, 0, sizeof w->names);
    free(w->counters.slot);
    sb_free(&w->counters.keys);
    memset(&w->counters, 0, sizeof w->counters);
    VEC_FREE(w->class_counter);
}

static void counter_put(luaw_counters *t, luaw_counter e) {
    size_t i = e.hash & (t->cap - 1);
    while (t->slot[i].hash) i = (i + 1) & (t->cap - 1);
    t->slot[i] = e;
}

/* At most one group per class (LUAW_MAX_CLASSES): a handful of entries. */
luaw_counter *luaw_group_counter(luaw *w, const char *s, size_t n) {
    luaw_counters *t = &w->counters;
    uint64_t h = name_hash(s, n) | 1;   /* never 0: 0 marks an empty slot */
    if (t->cap)
        for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
            luaw_counter *e = &t->slot[i];
            if (!e->hash) break;
            if (e->hash == h && e->len == n && !memcmp(t->keys.s + e->off, s, n)) return e;
        }
    if (2 * (t->n + 1) > t->cap) {   /* at most half full */
        luaw_counters g = {.cap = t->cap ? 2 * t->cap : 16, .n = t->n, .keys = t->keys};
        g.slot = xcalloc(g.cap, sizeof *g.slot);
        for (size_t i = 0; i < t->cap; i++)
            if (t->slot[i].hash) counter_put(&g, t->slot[i]);
        free(t->slot);
        *t = g;
    }
    luaw_counter e = {h, t->keys.len, n, 0};
    sb_append(&t->keys, s, n);
    counter_put(t, e);
    t->n++;
    for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1))
        if (t->slot[i].hash == h && t->slot[i].off == e.off) return &t->slot[i];
}
