/*
 * alloc_release.c -- allocator_release, the inverse of allocator_commit: a
 * finished pod's claim gives its devices back, so that later calls see the
 * snapshot as if the allocation had never been committed.
 */
#include "alloc/alloc_internal.h"
#include "util/intern.h"

/* True when some capacity of `uid` still has consumption by shares; only the
 * capacities named by the released result are looked at (a share always
 * records every capacity of its device). */
static bool still_consumed(allocator *A, uint32_t uid, const k8s_device_result *r) {
    for (size_t k = 0; k < r->nconsumed; k++) {
        uint32_t e;
        if (pmap_get(&A->consumed_map, (void *)(uintptr_t)(uid + 1), intern(r->consumed[k].qname), NULL, &e) &&
            quantity_sign(&A->consumed.data[e].value) != 0)
            return true;
    }
    return false;
}

void allocator_release(allocator *A, const k8s_allocation *al) {
    for (size_t i = 0; i < al->nresults; i++) {
        const k8s_device_result *r = &al->results[i];
        if (r->admin_access) continue;
        uint32_t u;
        if (!alloc_uid_lookup(A, r->driver, r->pool, r->device, &u)) continue;
        bool shared = r->share_id && A->f.consumable_capacity;
        if (!shared) {
            if (A->uid_allocated[u]) {
                A->uid_allocated[u] = 0;
                alloc_qnode_count(A, u, +1);
            }
        } else {
            alloc_qnode_touch(A, u);
            for (size_t k = 0; k < r->nconsumed; k++) {
                uint32_t e;
                if (pmap_get(&A->consumed_map, (void *)(uintptr_t)(u + 1), intern(r->consumed[k].qname), NULL, &e))
                    aq_sub(&A->consumed.data[e].value, &r->consumed[k].value);
            }
            /* The last share gone: no AllocatedSharedDeviceIDs / AggregatedCapacity entry any more.
             * A shared device without capacities cannot be told apart and stays marked. */
            if (r->nconsumed && !still_consumed(A, u, r)) A->uid_shared[u] = 0;
        }
        alloc_counters_stale(A, r->pool);
    }
}

void allocator_release_uid(allocator *A, uint32_t u) {
    if (A->uid_allocated[u]) {
        A->uid_allocated[u] = 0;
        alloc_qnode_count(A, u, +1);
    }
    alloc_uid_counters_stale(A, u);
}
