/*
 * dra_free.c -- read-only: which devices of a DeviceClass (and a CEL
 * selector) one claim could get on a node now (drasim.nodes /
 * drasim.free_devices of a Lua generator, docs/LUA.md).
 *
 * The allocator answers, so "free" means what the scheduler would see:
 * devices held by running pods, exhausted shared counters (a dynamic-MIG
 * GPU whose memory slices are taken) and consumed capacity all count. The
 * query enumerates like place_mig.c: allocate a claim for one device of the
 * class; exclude the device it got (through the device filter of alloc.h);
 * again, until nothing fits. Nothing is committed, so the run is unchanged.
 * For partitionable devices each answer is a device that could be carved
 * ALONE: two MIG placements that share memory slices are both listed.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/dra/dra_free.h"
#include "sched/dra/dra_internal.h"
#include "util/intern.h"
#include "util/xalloc.h"

/* The work of a query in the allocator's unit (a search step, charged to a
 * Lua callback as one VM instruction): measured on 20 dynamic-MIG H100x8
 * nodes, where a device offered to the filter (two interned names, a set
 * lookup, the allocator's per-device checks) costs about as much as 8 VM
 * instructions and an allocator call about 64, so a loop over drasim.nodes{}
 * reaches the instruction limit in about the time a Lua loop does. */
#define DRA_FREE_DEVICE_WORK 8
#define DRA_FREE_CALL_WORK 64

/* Excluded devices: an open-addressing set of interned (pool, device) pairs. */
typedef struct excl_set {
    const char **slot;   /* 2 per entry: pool, device; NULL = empty */
    size_t cap, n;
    uint64_t asked;      /* devices the allocator offered the filter: the work of the query */
} excl_set;

static size_t hash_pair(const char *p, const char *d) {
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(uintptr_t)d * 0xC2B2AE3D27D4EB4FULL;
    return (size_t)(h ^ (h >> 29));
}

static bool excl_has(const excl_set *s, const char *pool, const char *dev) {
    if (!s->n) return false;
    for (size_t i = hash_pair(pool, dev) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
        if (!s->slot[2 * i]) return false;
        if (s->slot[2 * i] == pool && s->slot[2 * i + 1] == dev) return true;
    }
}

static void excl_add(excl_set *s, const char *pool, const char *dev) {
    if (2 * (s->n + 1) > s->cap) {
        excl_set g = {xcalloc(2 * (s->cap ? 2 * s->cap : 64), sizeof *g.slot), s->cap ? 2 * s->cap : 64, 0, s->asked};
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[2 * i]) excl_add(&g, s->slot[2 * i], s->slot[2 * i + 1]);
        free(s->slot);
        *s = g;
    }
    size_t i = hash_pair(pool, dev) & (s->cap - 1);
    while (s->slot[2 * i]) i = (i + 1) & (s->cap - 1);
    s->slot[2 * i] = pool;
    s->slot[2 * i + 1] = dev;
    s->n++;
}

static bool excl_filter(void *ctx, const alloc_device_id *id) {
    excl_set *s = ctx;
    s->asked++;
    return !excl_has(s, intern(id->pool), intern(id->device));
}

bool dra_has_class(const dra_state *d, const char *cls) {
    for (size_t i = 0; i < d->nclasses; i++)
        if (!strcmp(d->classes[i]->meta.name, cls)) return true;
    return false;
}

int dra_free_devices(dra_state *d, const k8s_node *node, const char *cls, const char *selector, size_t max,
                     dra_free_fn fn, void *ctx, uint64_t *steps, strbuf *err) {
    const char *sel[1] = {selector};
    k8s_device_request q = {.name = intern("free"), .has_exactly = true};
    q.exactly = (k8s_device_request_spec){.name = q.name, .device_class_name = intern(cls), .selectors = sel,
                                          .nselectors = selector ? 1 : 0, .mode = ALLOC_MODE_EXACT_COUNT,
                                          .mode_text = intern("ExactCount"), .count = 1};
    k8s_resource_claim claim = {.meta = {.name = intern("drasim-free-devices")}, .spec = {.requests = &q, .nrequests = 1}};
    k8s_resource_claim *claims[1] = {&claim};
    excl_set ex = {0};
    arena scratch = {0};
    int found = 0;
    allocator_set_device_filter(d->A, excl_filter, &ex);
    while ((size_t)found < max) {
        k8s_allocation out;
        uint64_t s1 = 0;
        alloc_status st = allocator_allocate(d->A, node, claims, 1, &scratch, &out, &s1, err);
        if (steps) *steps += s1;
        if (steps) *steps += DRA_FREE_CALL_WORK;   /* the call itself: a claim set up, the node's pools looked up */
        if (st == ALLOC_ERROR) {
            found = -1;
            break;
        }
        if (st != ALLOC_OK || out.nresults < 1) break;
        const k8s_device_result *r = &out.results[0];
        const k8s_device *dev = allocator_find_device(d->A, r->driver, r->pool, r->device);
        excl_add(&ex, intern(r->pool), intern(r->device));
        found++;
        if (fn && dev) fn(ctx, dev, r->driver, r->pool, r->device);
        arena_free(&scratch);
    }
    allocator_set_device_filter(d->A, NULL, NULL);
    arena_free(&scratch);
    free(ex.slot);
    if (steps) *steps += ex.asked * DRA_FREE_DEVICE_WORK;   /* each step walks the devices not yet excluded again */
    return found;
}
