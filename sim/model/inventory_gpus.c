/*
 * inventory_gpus.c -- GPU count and model of a recorded node from its
 * devices, for clusters without GPU Feature Discovery labels (a DRA-only
 * cluster has none: the labels come from NVIDIA/k8s-device-plugin's GFD,
 * not from the DRA driver).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/inventory_recorded.h"
#include "util/intern.h"
#include "util/vec.h"
#include "util/xalloc.h"

#define GPU_DRIVER "gpu.nvidia.com"

static const char *dev_string(const k8s_device *d, const char *domain, const char *id) {
    for (size_t a = 0; a < k8s_dev_nattrs(d); a++) {
        const k8s_attribute *at = k8s_dev_attr(d, a);
        if (at->id == id && at->domain == domain && at->kind == ATTR_STRING) return at->s;
    }
    return NULL;
}

/* "gpu-3" of "gpu-3-mig-1g10gb-19-0" (interned), or NULL. */
static const char *name_gpu(const char *name) {
    if (strncmp(name, "gpu-", 4) != 0 || name[4] < '0' || name[4] > '9') return NULL;
    size_t n = 4;
    while (name[n] >= '0' && name[n] <= '9') n++;
    return intern_n(name, n);
}

int recorded_gpu_count(const k8s_resource_slice *slices, size_t nslices) {
    const char *drv = intern(GPU_DRIVER), *type = intern("type"), *uuid = intern("uuid"),
               *parent = intern("parentUUID"), *gpu = intern("gpu"), *mig = intern("mig");
    VEC(const char *) seen = {0};
    for (size_t s = 0; s < nslices; s++) {
        if (slices[s].driver != drv) continue;
        for (size_t d = 0; d < slices[s].ndevices; d++) {
            const k8s_device *dev = &slices[s].devices[d];
            const char *t = dev_string(dev, drv, type), *key = NULL;
            if (t == gpu) key = dev_string(dev, drv, uuid);
            else if (t == mig) key = dev_string(dev, drv, parent);
            else continue;
            if (!key) key = name_gpu(dev->name);
            if (!key) continue;
            size_t i = 0;
            while (i < seen.len && seen.data[i] != key) i++;
            if (i == seen.len) VEC_PUSH(seen, key);
        }
    }
    int n = (int)seen.len;
    VEC_FREE(seen);
    return n;
}

static const char *label(const k8s_node *n, const char *key) {
    key = intern(key);
    for (size_t i = 0; i < n->meta.nlabels; i++)
        if (n->meta.labels[i].key == key) return n->meta.labels[i].value;
    return NULL;
}

const gpu_model *recorded_gpu_model(const gpu_catalog *cat, const k8s_node *n, const k8s_resource_slice *slices,
                                    size_t nslices, int gpus, strbuf *warn) {
    const char *product = label(n, "nvidia.com/gpu.product");
    if (product && cat) {   /* the longest gfdProduct that starts the label */
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
        if (best) return best;
    }
    const char *drv = intern(GPU_DRIVER), *pn = intern("productName"), *nvml = NULL;
    for (size_t s = 0; s < nslices && !nvml; s++)
        for (size_t d = 0; s < nslices && d < slices[s].ndevices && !nvml; d++)
            if (slices[s].driver == drv) nvml = dev_string(&slices[s].devices[d], drv, pn);
    if (nvml && cat)
        for (int i = 0; i < cat->nmodels; i++)
            if (cat->models[i].product_name && !strcmp(cat->models[i].product_name, nvml)) return &cat->models[i];
    const char *what = nvml ? nvml : product;
    if (!what || (gpus == 0 && !nvml)) return NULL;
    char needle[200];
    snprintf(needle, sizeof needle, "GPU product '%s'", what);
    if (!warn->len || !strstr(sb_str(warn), needle))
        sb_printf(warn, "%s:%d:%d: Node %s: %s is not in the GPU catalog (data/gpu-catalog.yaml or --catalog): its "
                        "%d GPU%s counted, with no model (no MIG tables, no GFD product); the run goes on\n",
                  n->meta.file ? n->meta.file : "", n->meta.line, n->meta.col, n->meta.name, needle, gpus,
                  gpus == 1 ? "" : "s");
    return NULL;
}
