/*
 * lua_streams.c -- the random stream of a callback a script sets (a timer:
 * drasim.every/at/after; drasim.after_schedule), one stream per purpose
 * (issue 26 item 8).
 *
 * Setting a callback draws nothing from the stream of the code that sets it:
 * the new stream is forked from that stream's current state (read, not
 * advanced) with a tag made of the callback's function prototype (its
 * script and first line), the instant, and how many callbacks of that
 * prototype were set from the same state at that instant before. So a
 * no-op `drasim.after(0, f)` inside an arrival callback changes neither the
 * callback's own draws nor the stream of the next timer of its chain (a
 * different prototype), and two timers of one prototype set in a row still
 * get different streams.
 */
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "workload/lua_internal.h"

/* splitmix64's finaliser: a well-mixed 64-bit value. */
static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The prototype of the function at idx: its source and first line (C functions: their name tag). */
static uint64_t prototype_tag(lua_State *L, int idx) {
    lua_Debug ar;
    lua_pushvalue(L, idx);
    if (!lua_getinfo(L, ">S", &ar)) return 0;
    /* The file's base name only: a script's draws must not depend on the
     * folder it is run from (a checkout elsewhere, CI's clone). */
    const char *src = ar.source ? ar.source : "?";
    const char *slash = strrchr(src, '/');
    return rng_name_tag(slash ? slash + 1 : src) ^ mix((uint64_t)(int64_t)ar.linedefined);
}

/* How many callbacks were set before under `key` at the current instant (the table is emptied when time moves). */
static uint32_t count_of(luaw *w, uint64_t key) {
    luaw_forks *f = &w->forks;
    sim_time now = luaw_now(w);
    if (now != f->t || !f->cap) {
        if (f->cap > 64) {   /* a burst made it large: start small again */
            free(f->slot);
            f->slot = NULL;
            f->cap = 0;
        }
        if (!f->cap) {
            f->cap = 64;
            f->slot = xcalloc(f->cap, sizeof *f->slot);
        } else {
            memset(f->slot, 0, f->cap * sizeof *f->slot);
        }
        f->used = 0;
        f->t = now;
    }
    if (!key) key = 1;   /* 0 marks an empty slot */
    if (2 * (f->used + 1) > f->cap) {   /* keep it at most half full */
        size_t cap = 2 * f->cap;
        luaw_fork_slot *g = xcalloc(cap, sizeof *g);
        for (size_t i = 0; i < f->cap; i++) {
            if (!f->slot[i].key) continue;
            size_t j = f->slot[i].key & (cap - 1);
            while (g[j].key) j = (j + 1) & (cap - 1);
            g[j] = f->slot[i];
        }
        free(f->slot);
        f->slot = g;
        f->cap = cap;
    }
    size_t i = key & (f->cap - 1);
    while (f->slot[i].key && f->slot[i].key != key) i = (i + 1) & (f->cap - 1);
    if (!f->slot[i].key) {
        f->slot[i].key = key;
        f->used++;
    }
    return f->slot[i].n++;
}

void luaw_child_stream(lua_State *L, luaw *w, int fn_idx, rng *out) {
    fn_idx = lua_absindex(L, fn_idx);
    uint64_t state = mix(w->rng.s[0] ^ mix(w->rng.s[1] ^ mix(w->rng.s[2] ^ mix(w->rng.s[3]))));
    uint64_t key = mix(state ^ prototype_tag(L, fn_idx)) ^ mix((uint64_t)luaw_now(w) + 0x9e3779b97f4a7c15ULL);
    uint32_t n = count_of(w, key);
    rng_fork(&w->rng, mix(key + n), out);
}

void luaw_forks_free(luaw *w) {
    free(w->forks.slot);
    memset(&w->forks, 0, sizeof w->forks);
}
