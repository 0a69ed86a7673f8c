/*
 * alloc_taints.c -- device taints that change while a run goes (KEP-5055:
 * the driver republishes its ResourceSlice with health taints, an
 * administrator adds DeviceTaintRules). The allocator reads a device's taints
 * through alloc_device_taints: those set here, else the slice's own. The
 * flag byte's DEV_TAINTS follows, so untainted devices cost nothing.
 */
#include "alloc/alloc_internal.h"

#include <stdlib.h>

#include "util/xalloc.h"

struct alloc_taint_set {
    const k8s_taint *taints;
    size_t n;
    bool set;
};

const k8s_taint *alloc_device_taints(const allocator *A, uint32_t dev, size_t *n) {
    if (A->dev_taints && A->dev_taints[dev].set) {
        *n = A->dev_taints[dev].n;
        return A->dev_taints[dev].taints;
    }
    const k8s_device *d = A->devs.data[dev].d;
    *n = d->ntaints;
    return d->taints;
}

bool allocator_set_device_taints(allocator *A, const char *driver, const char *pool, const char *device,
                                 const k8s_taint *taints, size_t n) {
    uint32_t u;
    if (!alloc_uid_lookup(A, driver, pool, device, &u)) return false;
    if (!A->dev_taints) A->dev_taints = xcalloc(A->devs.len ? A->devs.len : 1, sizeof *A->dev_taints);
    /* the device's first entry: a device id listed twice makes its pool invalid (never allocated) */
    uint32_t i = A->uid_first[u];
    A->dev_taints[i] = (struct alloc_taint_set){taints, n, true};
    if (n) A->dev_flags[i] |= DEV_TAINTS;
    else A->dev_flags[i] &= (uint8_t)~DEV_TAINTS;
    return true;
}

void alloc_taints_free(allocator *A) {
    free(A->dev_taints);
    A->dev_taints = NULL;
}
