/*
 * dra_gpus.c -- DRA devices as the GPUs of the scheduler's GPU view
 * (gpu_view.h): which physical GPU of its node a device is, how much of it an
 * allocation takes, and a device filter that admits only chosen GPUs (the
 * placement policy's device choice, plugin_dra.c).
 *
 * A node's GPUs: every device of `type` gpu (by its uuid), then the parents
 * (parentUUID) of its MIG devices not seen as gpu devices (static MIG
 * publishes only the MIG devices), numbered by their minor number (the N of
 * the "gpu-N" their device names start with) when the names have one: the
 * driver publishes devices in an arbitrary order, the GPUs' numbers do not
 * depend on it. An allocation takes of GPU g:
 * a whole gpu device 1000 milli, a MIG device profile N/7 of its parent, a
 * share of a multi-allocatable device its consumed fraction of the capacity
 * (as dra_allocation_gpu_equiv counts GPUs).
 */
#include <stdlib.h>
#include <string.h>

#include "sched/dra/dra_internal.h"
#include "util/intern.h"
#include "util/vec.h"
#include "util/xalloc.h"

/* String attribute `id` (interned: attribute ids are, model/k8s_decode.c and
 * model/inventory_dra.c) of dev, or NULL. */
static const char *str_attr(const k8s_device *dev, const char *id) {
    for (size_t i = 0, n = k8s_dev_nattrs(dev); i < n; i++) {
        const k8s_attribute *a = k8s_dev_attr(dev, i);
        if (a->id == id) return a->kind == ATTR_STRING ? a->s : NULL;
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

/* N of a device name "gpu-N..." (the GPU's minor number), or -1. */
static int name_minor(const char *name) {
    if (strncmp(name, "gpu-", 4) != 0 || name[4] < '0' || name[4] > '9') return -1;
    return atoi(name + 4);
}

/* Renumber node n's GPUs by minor number (those without one after, in the
 * order they came). */
static void number_by_minor(dra_node_gpus *n) {
    int key[GS_MAX_GPUS], order[GS_MAX_GPUS], newi[GS_MAX_GPUS];
    const char *uuid[GS_MAX_GPUS];
    for (int g = 0; g < n->n; g++) key[g] = -1;
    for (uint32_t k = 0; k < n->ndev; k++)
        if (key[n->dev[k].gpu] < 0) key[n->dev[k].gpu] = name_minor(n->dev[k].name);
    for (int g = 0; g < n->n; g++) {   /* stable insertion sort of indexes by key, -1 last */
        int j = g;
        while (j > 0 && (unsigned)key[order[j - 1]] > (unsigned)key[g]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = g;
    }
    for (int g = 0; g < n->n; g++) {
        newi[order[g]] = g;
        uuid[g] = n->uuid[order[g]];
    }
    for (int g = 0; g < n->n; g++) n->uuid[g] = uuid[g];
    for (uint32_t k = 0; k < n->ndev; k++) n->dev[k].gpu = (int8_t)newi[n->dev[k].gpu];
}

/* What taking device dev whole takes of its GPU, in milli (floor: 7 x 1g = 994). */
static int16_t whole_milli(const k8s_device *dev, bool gpu) {
    if (gpu) return GS_MILLI;
    const char *p = str_attr(dev, intern("profile"));
    int g = p ? atoi(p) : 0;
    return (int16_t)(g > 0 && g <= 7 ? g * GS_MILLI / 7 : 0);
}

void dra_gpus_init(dra_state *d) {
    const inventory *inv = d->inv;
    const char *type_id = intern("type"), *uuid_id = intern("uuid"), *parent_id = intern("parentUUID");
    const char *gpu_s = intern("gpu"), *mig_s = intern("mig");
    d->node_gpus = xcalloc(inv->nnodes ? inv->nnodes : 1, sizeof *d->node_gpus);
    VEC(const char *) parents = {0};   /* per MIG entry of the node: its parent's uuid */
    for (size_t i = 0; i < inv->nnodes; i++) {
        dra_node_gpus *n = &d->node_gpus[i];
        const inv_node *info = &inv->info[i];
        size_t cap = 0;
        parents.len = 0;
        for (size_t s = info->first_slice; s < info->first_slice + info->nslices; s++) {
            const k8s_resource_slice *sl = &inv->slices[s];
            for (size_t k = 0; k < sl->ndevices; k++) {
                const k8s_device *dev = &sl->devices[k];
                const char *type = str_attr(dev, type_id);
                bool gpu = type == gpu_s, mig = type == mig_s;
                if (!gpu && !mig) continue;
                if (n->ndev == cap) {
                    cap = cap ? cap * 2 : 16;
                    n->dev = xrealloc(n->dev, cap * sizeof *n->dev);
                }
                /* gpu devices number the GPUs as they come; MIG devices wait for their parent (below) */
                int g = gpu ? gpu_index(n, str_attr(dev, uuid_id), true) : -1;
                n->dev[n->ndev++] = (dra_gpu_device){sl->pool, dev->name, whole_milli(dev, gpu), (int8_t)g};
                VEC_PUSH(parents, mig ? str_attr(dev, parent_id) : NULL);
            }
        }
        /* MIG parents not published as gpu devices (static MIG) get the next indexes, in order */
        for (uint32_t k = 0; k < n->ndev; k++)
            if (parents.data[k]) n->dev[k].gpu = (int8_t)gpu_index(n, parents.data[k], true);
        uint32_t keep = 0;   /* devices whose GPU has no index (more than 8) are not in the view */
        for (uint32_t k = 0; k < n->ndev; k++)
            if (n->dev[k].gpu >= 0) n->dev[keep++] = n->dev[k];
        n->ndev = keep;
        if (keep && keep < cap) n->dev = xrealloc(n->dev, keep * sizeof *n->dev);   /* kept for the run: no spare room */
        number_by_minor(n);
    }
    VEC_FREE(parents);
}

void dra_gpus_free(dra_state *d) {
    for (size_t i = 0; d->node_gpus && i < d->inv->nnodes; i++) free(d->node_gpus[i].dev);
    free(d->node_gpus);
}

/* The node's entry for device (pool, name) (interned), or NULL. */
static const dra_gpu_device *gpu_device(const dra_state *d, size_t node, const char *pool, const char *name) {
    const dra_node_gpus *n = &d->node_gpus[node];
    for (uint32_t k = 0; k < n->ndev; k++)
        if (n->dev[k].name == name && n->dev[k].pool == pool) return &n->dev[k];
    return NULL;
}

const dra_gpu_device *dra_node_gpu_device(const dra_state *d, size_t node, const char *pool, const char *name) {
    return gpu_device(d, node, pool, name);
}

int dra_node_gpu_count(const dra_state *d, size_t node) { return d->node_gpus ? d->node_gpus[node].n : 0; }

void dra_allocation_gpu_milli(const dra_state *d, size_t node, const k8s_allocation *al, int16_t milli[GS_MAX_GPUS]) {
    for (size_t i = 0; i < al->nresults; i++) {
        const k8s_device_result *r = &al->results[i];
        if (r->admin_access) continue;
        const dra_gpu_device *gd = gpu_device(d, node, r->pool, r->device);
        if (!gd) continue;
        int g = gd->gpu, v = gd->milli;
        if (r->share_id && r->nconsumed) {   /* a share: its consumed fraction, through the GPU-equivalent rule */
            k8s_allocation one = *al;
            one.results = (k8s_device_result *)r;
            one.nresults = 1;
            v = (int)(dra_allocation_gpu_equiv(d, &one) * GS_MILLI + 1e-6);   /* floor */
        }
        v += milli[g];
        milli[g] = (int16_t)(v > GS_MILLI ? GS_MILLI : v);
    }
}

/* Device filter: devices of the chosen GPUs on the node, and every device that is no GPU. */
bool dra_gpu_filter(void *ctx, const alloc_device_id *id) {
    const dra_gpu_pick *p = ctx;
    const dra_gpu_device *gd = gpu_device(p->d, p->node, id->pool, id->device);
    return !gd || ((p->mask >> gd->gpu) & 1);
}
