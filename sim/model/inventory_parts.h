/*
 * inventory_parts.h -- internal interface between the inventory builders:
 * inventory.c (nodes), inventory_dp.c (device-plugin resources and GPU
 * Feature Discovery labels), inventory_dra.c (DeviceClasses, ResourceSlices).
 */
#ifndef DRASIM_MODEL_INVENTORY_PARTS_H
#define DRASIM_MODEL_INVENTORY_PARTS_H

#include "model/cluster.h"
#include "util/vec.h"

typedef VEC(k8s_kv) kv_vec;
typedef VEC(k8s_resource_amount) amount_vec;
typedef VEC(k8s_resource_slice) slice_vec;

/* Set key=value (interned), replacing an earlier value of the same key. */
void kv_set(kv_vec *v, const char *key, const char *value);
void kv_setf(kv_vec *v, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Add (or replace) a resource amount. */
void amount_set(amount_vec *v, const char *name, quantity q);

/* Cross-slice consistency of a recorded inventory (inventory_check.c):
 * -1 with err for a slice bound to a Node the inventory lacks; warnings
 * (one "FILE:LINE:COL: ..." line each) for incomplete or invalid pools. */
struct k8s_objects;
int inventory_check_recorded(const struct k8s_objects *o, strbuf *warn, strbuf *err);

/* Everything a node's GPUs look like; MIG placements for static MIG. */
typedef struct node_gpus {
    const gpu_model *model;
    int count;
    mig_mode mig;
    const mig_layout *layout;         /* MIG_STATIC */
    const mig_placement *placements;  /* MIG_STATIC: layout->nprofiles entries, same on every GPU */
    const char *driver_version;       /* NVIDIA driver ("570.172.8"): the pool's, else the catalog's */
    const char *cuda_version;         /* CUDA driver version ("12.8.0") */
    const dra_publish *pub;           /* how the driver publishes (release, Kubernetes version, order) */
} node_gpus;

/* GFD labels and device-plugin extended resources (dp may be NULL: labels only). */
void dp_node_view(const gpu_catalog *cat, const node_gpus *g, const device_plugin_opts *dp, kv_vec *labels,
                  amount_vec *resources);

/* Equal attribute/capacity/counter arrays are stored once per inventory. */
typedef struct dra_dedup dra_dedup;
dra_dedup *dra_dedup_new(void);
void dra_dedup_free(dra_dedup *dd);

/* The node's ResourceSlices, appended to `out` (allocated in `a`): named
 * and ordered as g->pub's driver release publishes them, the random parts
 * drawn from `seed` and the node's name. */
void dra_node_slices(arena *a, dra_dedup *dd, const gpu_catalog *cat, const char *node, const node_gpus *g,
                     uint64_t seed, slice_vec *out);

/* The node's compute-domain.nvidia.com slice (channel-0, daemon-0), appended
 * to `out` (inventory_cd.c). */
void dra_compute_domain_slice(arena *a, const char *node, dra_driver_version v, uint64_t seed, slice_vec *out);

#endif
