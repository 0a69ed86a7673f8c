/*
 * inventory_recorded.c -- a recorded inventory: the Nodes, ResourceSlices and
 * DeviceClasses of a real (or previously generated) cluster, read back into
 * the same inventory form that node pools produce.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "model/inventory_parts.h"
#include "model/k8s_decode.h"
#include "util/intern.h"
#include "util/xalloc.h"

static const char *label(const k8s_node *n, const char *key) {
    key = intern(key);
    for (size_t i = 0; i < n->meta.nlabels; i++)
        if (n->meta.labels[i].key == key) return n->meta.labels[i].value;
    return NULL;
}

/* The catalog model whose GFD product name starts the node's
 * nvidia.com/gpu.product label (which may carry -SHARED or -MIG-... suffixes). */
static const gpu_model *model_of(const gpu_catalog *cat, const k8s_node *n) {
    const char *product = label(n, "nvidia.com/gpu.product");
    if (!product || !cat) return NULL;
    const gpu_model *best = NULL;
    size_t best_len = 0;
    for (int i = 0; i < cat->nmodels; i++) {
        const char *p = cat->models[i].gfd_product;
        size_t l = p ? strlen(p) : 0;
        if (l && strncmp(product, p, l) == 0 && (product[l] == 0 || product[l] == '-') && l > best_len) {
            best = &cat->models[i];
            best_len = l;
        }
    }
    return best;
}

/* Whole GPUs among a node's slices: devices whose `type` attribute is "gpu"
 * (the NVIDIA driver's full-GPU devices), else 0. */
static int count_gpu_devices(const inventory *inv, const inv_node *info) {
    const char *type = intern("type"), *gpu = intern("gpu");
    int n = 0;
    for (size_t s = info->first_slice; s < info->first_slice + info->nslices; s++)
        for (size_t d = 0; d < inv->slices[s].ndevices; d++) {
            const k8s_device *dev = &inv->slices[s].devices[d];
            for (size_t a = 0; a < k8s_dev_nattrs(dev); a++) {
                const k8s_attribute *at = k8s_dev_attr(dev, a);
                if (at->id == type && at->kind == ATTR_STRING && at->s == gpu) n++;
            }
        }
    return n;
}

typedef struct slice_key { const char *node; size_t slice; } slice_key;

static int by_node_then_index(const void *a, const void *b) {
    const slice_key *x = a, *y = b;
    if (x->node != y->node) return (uintptr_t)x->node < (uintptr_t)y->node ? -1 : 1;
    return x->slice < y->slice ? -1 : x->slice > y->slice;
}

static int by_ptr(const void *a, const void *b) {
    uintptr_t x = (uintptr_t) * (const char *const *)a, y = (uintptr_t) * (const char *const *)b;
    return x < y ? -1 : x > y;
}

int inventory_load_recorded(const char *path, const gpu_catalog *cat, inventory *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    k8s_objects *o = xmalloc(sizeof *o);
    k8s_objects_init(o);
    out->recorded = o;
    if (k8s_decode_file(o, path, err)) goto fail;
    for (size_t i = 0; i < o->all.len; i++) {
        k8s_kind k = o->all.data[i].kind;
        if (k == K8S_NODE || k == K8S_RESOURCE_SLICE || k == K8S_DEVICE_CLASS) continue;
        const k8s_meta *m = k == K8S_RESOURCE_CLAIM ? &((k8s_resource_claim *)o->all.data[i].obj)->meta
                            : k == K8S_CLAIM_TEMPLATE ? &((k8s_claim_template *)o->all.data[i].obj)->meta
                                                      : &((k8s_pod *)o->all.data[i].obj)->meta;
        sb_clear(err);
        sb_printf(err, "%s:%d:%d: %s %s: a recorded inventory holds only Nodes, ResourceSlices and DeviceClasses",
                  path, m->line, m->col, k8s_kind_name(k), m->name ? m->name : "");
        goto fail;
    }
    if (o->nodes.len == 0) {
        sb_clear(err);
        sb_printf(err, "%s: a recorded inventory needs at least one Node", path);
        goto fail;
    }
    strbuf warn = {0};
    if (inventory_check_recorded(o, &warn, err)) {
        sb_free(&warn);
        goto fail;
    }
    /* Pools the allocator will not use: said once, on stderr, and the run goes on
     * as the scheduler would (inventory_check.c). */
    for (const char *line = warn.len ? sb_str(&warn) : NULL; line && *line;) {
        const char *nl = strchr(line, '\n');
        fprintf(stderr, "warning: %.*s\n", (int)(nl - line), line);
        line = nl + 1;
    }
    sb_free(&warn);
    size_t nn = o->nodes.len, ns = o->slices.len;
    out->nodes = ARENA_NEW(&out->a, k8s_node, nn);
    out->info = ARENA_NEW(&out->a, inv_node, nn);
    out->slices = ARENA_NEW(&out->a, k8s_resource_slice, ns + 1);
    /* Node-local slices by node name (interned pointers), input order kept
     * within a node: O((nodes + slices) log slices), not nodes x slices. */
    slice_key *keys = xmalloc((ns + 1) * sizeof *keys);
    size_t nk = 0;
    for (size_t s = 0; s < ns; s++)
        if (o->slices.data[s]->node_name) keys[nk++] = (slice_key){o->slices.data[s]->node_name, s};
    qsort(keys, nk, sizeof *keys, by_node_then_index);
    const char **seen = xmalloc((nn + 1) * sizeof *seen);   /* node names so far, for duplicates */
    for (size_t i = 0; i < nn; i++) {
        const k8s_node *n = o->nodes.data[i];
        seen[i] = n->meta.name;
        out->nodes[i] = *n;
        inv_node *info = &out->info[i];
        info->first_slice = out->nslices;
        size_t lo = 0, hi = nk;   /* first key with this node name */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if ((uintptr_t)keys[mid].node < (uintptr_t)n->meta.name) lo = mid + 1;
            else hi = mid;
        }
        for (size_t k = lo; k < nk && keys[k].node == n->meta.name; k++)
            out->slices[out->nslices++] = *o->slices.data[keys[k].slice];
        info->nslices = out->nslices - info->first_slice;
        info->gpu = model_of(cat, n);
        const char *count = label(n, "nvidia.com/gpu.count");
        info->gpus = count ? atoi(count) : 0;
        if (!count || label(n, "nvidia.com/mig.config")) {
            int devs = count_gpu_devices(out, info);
            if (devs) info->gpus = devs;
        }
    }
    qsort(seen, nn, sizeof *seen, by_ptr);
    for (size_t i = 1; i < nn; i++)
        if (seen[i] == seen[i - 1]) {   /* report the second occurrence in input order */
            size_t first = 0;
            while (o->nodes.data[first]->meta.name != seen[i]) first++;
            size_t j = first + 1;
            while (o->nodes.data[j]->meta.name != seen[i]) j++;
            const k8s_node *n = o->nodes.data[j];
            sb_clear(err);
            sb_printf(err, "%s:%d:%d: Node %s: listed twice", path, n->meta.line, n->meta.col, n->meta.name);
            free(keys);
            free(seen);
            goto fail;
        }
    free(seen);
    free(keys);
    for (size_t s = 0; s < ns; s++)   /* slices shared by several nodes, in input order */
        if (!o->slices.data[s]->node_name) out->slices[out->nslices++] = *o->slices.data[s];
    out->nnodes = nn;
    out->nclasses = o->classes.len;
    out->classes = ARENA_NEW(&out->a, k8s_device_class, out->nclasses + 1);
    for (size_t i = 0; i < out->nclasses; i++) out->classes[i] = *o->classes.data[i];
    return 0;
fail:
    inventory_free(out);
    return -1;
}
