/*
 * alloc_taints.c -- device taints that change while a run goes (KEP-5055:
 * the driver republishes its ResourceSlice with health taints, an
 * administrator adds DeviceTaintRules). The allocator reads a device's taints
 * through alloc_device_taints: those set here, else the slice's own. The
 * flag byte's DEV_TAINTS follows, so untainted devices cost nothing.
 */
#include "alloc/alloc_internal.h"

#include <stdlib.h>
#include <string.h>

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
    /* the device's first entry, the one the search and the results name */
    uint32_t i = A->uid_first[u];
    A->dev_taints[i] = (struct alloc_taint_set){taints, n, true};
    A->qepoch++;   /* every cached quick answer is stale (alloc_search.c) */
    if (n) A->dev_flags[i] |= DEV_TAINTS;
    else A->dev_flags[i] &= (uint8_t)~DEV_TAINTS;
    return true;
}

/* toleration_tolerates of kube's v1 Toleration, as alloc_search.c's taint check reads it. */
static bool tolerated(const k8s_taint *t, const k8s_toleration *tol, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (tol[i].has_effect && tol[i].effect != t->effect) continue;
        if (tol[i].key && *tol[i].key && tol[i].key != t->key) continue;
        if (tol[i].op == TOL_OP_EXISTS) return true;
        const char *tv = tol[i].value ? tol[i].value : "", *dv = t->value ? t->value : "";
        if (!strcmp(tv, dv)) return true;
    }
    return false;
}

bool allocator_result_blocked(const allocator *A, const k8s_device_result *res) {
    if (!A->dev_taints) return false;   /* only the slices' own taints, which the allocation tolerated */
    uint32_t u;
    if (!alloc_uid_lookup(A, res->driver, res->pool, res->device, &u)) return false;
    size_t n;
    const k8s_taint *t = alloc_device_taints(A, A->uid_first[u], &n);
    for (size_t i = 0; i < n; i++)
        if ((t[i].effect == TAINT_NO_SCHEDULE || t[i].effect == TAINT_NO_EXECUTE) &&
            !tolerated(&t[i], res->tolerations, res->ntolerations))
            return true;
    return false;
}

void alloc_taints_free(allocator *A) {
    free(A->dev_taints);
    A->dev_taints = NULL;
}
