/*
 * alloc_state.c -- the allocated state as the scheduler gathers it from
 * allocated claims (scheduler plugin allocateddevices.go): admin-access
 * results do not count; results with a shareID are shared allocations whose
 * consumedCapacity is summed per device; all others are dedicated (all of
 * them when ConsumableCapacity is off).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc.h"
#include "util/xalloc.h"

static void grow(void **p, size_t *cap, size_t len, size_t elem) {
    if (len < *cap) return;
    *cap = *cap ? *cap * 2 : 16;
    *p = xrealloc(*p, *cap * elem);
}

void alloc_state_add_claim(alloc_state_builder *b, const k8s_resource_claim *claim, bool consumable_capacity) {
    if (!claim->allocated) return;
    for (size_t i = 0; i < claim->allocation.nresults; i++) {
        const k8s_device_result *r = &claim->allocation.results[i];
        if (r->admin_access) continue;
        alloc_device_id id = {r->driver, r->pool, r->device};
        if (r->share_id && consumable_capacity) {
            grow((void **)&b->st.shared, &b->cap_shared, b->st.nshared, sizeof id);
            ((alloc_device_id *)b->st.shared)[b->st.nshared++] = id;
            for (size_t k = 0; k < r->nconsumed; k++) {
                grow((void **)&b->st.consumed, &b->cap_consumed, b->st.nconsumed, sizeof(alloc_consumed));
                ((alloc_consumed *)b->st.consumed)[b->st.nconsumed++] =
                    (alloc_consumed){id, r->consumed[k].qname, r->consumed[k].value};
            }
        } else {
            grow((void **)&b->st.allocated, &b->cap_alloc, b->st.nallocated, sizeof id);
            ((alloc_device_id *)b->st.allocated)[b->st.nallocated++] = id;
        }
    }
}

void alloc_state_builder_free(alloc_state_builder *b) {
    free((void *)b->st.allocated);
    free((void *)b->st.shared);
    free((void *)b->st.consumed);
    memset(b, 0, sizeof *b);
}
