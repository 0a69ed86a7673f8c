/*
 * dra_gpus.c -- DRA devices as the GPUs of the scheduler's GPU view
 * (gpu_view.h): which physical GPU of its node a device is, how much of it an
 * allocation takes, and a device filter that admits only chosen GPUs (the
 * placement policy's device choice, plugin_dra.c).
 *
 * A node's GPUs, in slice order: every device of `type` gpu (by its uuid),
 * then the parents (parentUUID) of its MIG devices not seen as gpu devices
 * (static MIG publishes only the MIG devices). An allocation takes of GPU g:
 * a whole gpu device 1000 milli, a MIG device profile N/7 of its parent, a
 * share of a multi-allocatable device its consumed fraction of the capacity
 * (as dra_allocation_gpu_equiv counts GPUs).
 */
#include <stdlib.h>
#include <string.h>

#include "sched/dra_internal.h"
#include "util/xalloc.h"

static const char *str_attr(const k8s_device *dev, const char *id) {
    for (size_t i = 0, n = k8s_dev_nattrs(dev); i < n; i++) {
        const k8s_attribute *a = k8s_dev_attr(dev, i);
        if (!strcmp(a->id, id)) return a->kind == ATTR_STRING ? a->s : NULL;
    }
    return NULL;
}

/* Index of uuid among node n's GPUs, adding it when `add`; -1 if absent. */
static int gpu_index(dra_node_gpus *n, const char *uuid, bool add) {
    if (!uuid) return -1;
    for (int g = 0; g < n->n; g++)
        if (n->uuid[g] == uuid || !strcmp(n->uuid[g], uuid)) return g;
    if (!add || n->n == GS_MAX_GPUS) return -1;
    n->uuid[n->n] = uuid;
    return n->n++;
}

void dra_gpus_init(dra_state *d) {
    const inventory *inv = d->inv;
    d->node_gpus = xcalloc(inv->nnodes ? inv->nnodes : 1, sizeof *d->node_gpus);
    for (size_t i = 0; i < inv->nnodes; i++) {
        dra_node_gpus *n = &d->node_gpus[i];
        const inv_node *info = &inv->info[i];
        for (int pass = 0; pass < 2; pass++)   /* gpu devices first, then MIG parents */
            for (size_t s = info->first_slice; s < info->first_slice + info->nslices; s++)
                for (size_t k = 0; k < inv->slices[s].ndevices; k++) {
                    const k8s_device *dev = &inv->slices[s].devices[k];
                    const char *type = str_attr(dev, "type");
                    if (!type) continue;
                    if (pass == 0 && !strcmp(type, "gpu")) gpu_index(n, str_attr(dev, "uuid"), true);
                    if (pass == 1 && !strcmp(type, "mig")) gpu_index(n, str_attr(dev, "parentUUID"), true);
                }
    }
}

int dra_node_gpu_count(const dra_state *d, size_t node) { return d->node_gpus ? d->node_gpus[node].n : 0; }

/* The GPU of `node` a device is (or is part of); -1 for other devices. */
static int device_gpu(const dra_state *d, size_t node, const k8s_device *dev) {
    const char *type = dev ? str_attr(dev, "type") : NULL;
    if (!type) return -1;
    dra_node_gpus *n = &d->node_gpus[node];
    if (!strcmp(type, "gpu")) return gpu_index(n, str_attr(dev, "uuid"), false);
    if (!strcmp(type, "mig")) return gpu_index(n, str_attr(dev, "parentUUID"), false);
    return -1;
}

void dra_allocation_gpu_milli(const dra_state *d, size_t node, const k8s_allocation *al, int16_t milli[GS_MAX_GPUS]) {
    for (size_t i = 0; i < al->nresults; i++) {
        const k8s_device_result *r = &al->results[i];
        if (r->admin_access) continue;
        const k8s_device *dev = allocator_find_device(d->A, r->driver, r->pool, r->device);
        int g = device_gpu(d, node, dev);
        if (g < 0) continue;
        k8s_allocation one = *al;   /* this result alone, through the GPU-equivalent rule */
        one.results = (k8s_device_result *)r;
        one.nresults = 1;
        int v = (int)(dra_allocation_gpu_equiv(d, &one) * GS_MILLI + 1e-6);   /* floor: 7 x 1g = 994 of 1000 */
        v += milli[g];
        milli[g] = (int16_t)(v > GS_MILLI ? GS_MILLI : v);
    }
}

/* Device filter: devices of the chosen GPUs on the node, and every device that is no GPU. */
bool dra_gpu_filter(void *ctx, const alloc_device_id *id) {
    const dra_gpu_pick *p = ctx;
    const k8s_device *dev = allocator_find_device(p->d->A, id->driver, id->pool, id->device);
    int g = device_gpu(p->d, p->node, dev);
    return g < 0 || ((p->mask >> g) & 1);
}
