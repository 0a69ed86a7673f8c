/*
 * sched_states.c -- node states interned for refresh's inlined plugins
 * (s->plain, plugins/resources_plain.h). There, whether class c fits a node
 * and its score depend only on the node's allocatable row, its requested row
 * and its non-zero cpu/memory sums; a fleet of like nodes running like pods
 * goes through few such states (12,500 H100 nodes under 1/2/4/8-GPU jobs: a
 * few dozen). node_changed gives the node the id of its state (s->node_sid,
 * the rows are in cache then), and refresh reads class c's answer for that
 * state from c->memo, computing it only the first time: one table read
 * instead of the Filter and two Scores over three rows per (class, changed
 * node). The answer is the one computed for the same rows, so results are
 * unchanged. Bounded: past SCHED_STATES_MAX states a node gets no id (its
 * answers are computed each time), and past SCHED_MEMO_CLASSES classes a
 * class gets no table.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "util/xalloc.h"

#define SCHED_STATES_MAX 16384
#define SCHED_MEMO_CLASSES 64

/* Words multiplied into a hash, alternating constants (cheap: a node's
 * state is hashed at every bind and release). */
static inline uint64_t hash_words(uint64_t h, const int64_t *k, size_t n) {
    for (size_t j = 0; j < n; j++) h = (h ^ (uint64_t)k[j]) * (j & 1 ? 0x9e3779b97f4a7c15ull : 0xbf58476d1ce4e5b9ull);
    return h;
}

/* A state's hash: its allocatable row's hash (kept per node, s->node_ahash:
 * a bind or release leaves it), then the requested row and non-zero sums. */
static inline uint64_t state_hash(uint64_t ahash, const int64_t *used, const int64_t *nz, size_t R) {
    uint64_t h = hash_words(hash_words(ahash, used, R), nz, 2);
    return h ^ (h >> 31);
}

static inline bool words_eq(const int64_t *a, const int64_t *b, size_t n) {
    for (size_t j = 0; j < n; j++)
        if (a[j] != b[j]) return false;
    return true;
}

/* Room for twice the states: keys, the hash table (rebuilt) and every class's table. */
static void grow(scheduler *s) {
    size_t cap = s->st_cap ? 2 * s->st_cap : 64;
    s->st_keys = xrealloc(s->st_keys, cap * s->st_klen * sizeof *s->st_keys);
    free(s->st_hash);
    s->st_hmask = 2 * cap - 1;
    s->st_hash = xcalloc(2 * cap, sizeof *s->st_hash);
    for (uint32_t id = 0; id < s->nstates; id++) {
        const int64_t *k = &s->st_keys[id * s->st_klen];
        size_t R = s->nres;
        size_t slot = state_hash(hash_words(0, k, R), k + R, k + 2 * R, R) & s->st_hmask;
        while (s->st_hash[slot]) slot = (slot + 1) & s->st_hmask;
        s->st_hash[slot] = id + 1;
    }
    for (size_t ci = 0; ci < s->nclasses; ci++) {
        pod_class *c = &s->classes[ci];
        if (!c->memo) continue;
        c->memo = xrealloc(c->memo, cap * sizeof *c->memo);
        for (size_t i = s->st_cap; i < cap; i++) c->memo[i] = SCHED_MEMO_UNKNOWN;
    }
    s->st_cap = cap;
}

void sched_states_note(scheduler *s, size_t node, bool alloc_changed) {
    size_t R = s->nres;
    const int64_t *alloc = &s->alloc[node * R], *used = &s->used[node * R], *nz = &s->nz_used[node * 2];
    if (alloc_changed) s->node_ahash[node] = hash_words(0, alloc, R);
    uint64_t h = state_hash(s->node_ahash[node], used, nz, R);
    for (size_t slot = h & s->st_hmask;; slot = (slot + 1) & s->st_hmask) {
        uint32_t id = s->st_hash[slot];
        if (!id) break;
        const int64_t *k = &s->st_keys[(id - 1) * s->st_klen];
        if (words_eq(k + R, used, R) && words_eq(k + 2 * R, nz, 2) && words_eq(k, alloc, R)) {
            s->node_sid[node] = id - 1;
            return;
        }
    }
    if (s->nstates == SCHED_STATES_MAX) {   /* full: this node's answers are computed each time */
        s->node_sid[node] = SCHED_SID_NONE;
        return;
    }
    if (s->nstates == s->st_cap) grow(s);
    uint32_t id = (uint32_t)s->nstates++;
    int64_t *k = &s->st_keys[id * s->st_klen];
    memcpy(k, alloc, R * sizeof *k);
    memcpy(k + R, used, R * sizeof *k);
    memcpy(k + 2 * R, nz, 2 * sizeof *k);
    size_t slot = h & s->st_hmask;
    while (s->st_hash[slot]) slot = (slot + 1) & s->st_hmask;
    s->st_hash[slot] = id + 1;
    s->node_sid[node] = id;
}

void sched_states_class(scheduler *s, pod_class *c) {
    if (!s->node_sid || s->nclasses > SCHED_MEMO_CLASSES) return;
    c->memo = xmalloc(s->st_cap * sizeof *c->memo);
    for (size_t i = 0; i < s->st_cap; i++) c->memo[i] = SCHED_MEMO_UNKNOWN;
}

void sched_states_init(scheduler *s) {
    /* none when nothing scores (a refresh is then one fit test, cheaper than hashing the state at every
     * bind and release: bench_dp) or no class would have a table */
    if (!s->plain || !s->nscorers || !s->nnodes || s->nclasses > SCHED_MEMO_CLASSES) return;
    s->st_klen = 2 * s->nres + 2;
    s->node_sid = xmalloc(s->nnodes * sizeof *s->node_sid);
    s->node_ahash = xmalloc(s->nnodes * sizeof *s->node_ahash);
    grow(s);
    for (size_t i = 0; i < s->nnodes; i++) sched_states_note(s, i, true);
}

void sched_states_free(scheduler *s) {
    free(s->node_sid);
    free(s->node_ahash);
    free(s->st_keys);
    free(s->st_hash);
}
