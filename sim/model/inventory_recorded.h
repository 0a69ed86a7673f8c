/*
 * inventory_recorded.h -- what a recorded inventory's devices say about a
 * node's GPUs when its labels do not (inventory_gpus.c).
 */
#ifndef DRASIM_MODEL_INVENTORY_RECORDED_H
#define DRASIM_MODEL_INVENTORY_RECORDED_H

#include "model/cluster.h"

/* Physical GPUs among a node's slices: distinct GPUs of the gpu.nvidia.com
 * devices of every kind -- a full GPU by its uuid, a MIG device (static or
 * dynamic) by its parentUUID, else by the "gpu-<minor>" its name starts with.
 * 0 when the slices hold no such device. */
int recorded_gpu_count(const k8s_resource_slice *slices, size_t nslices);

/* The catalog model of a node's GPUs: from the GFD label
 * nvidia.com/gpu.product (a model's gfdProduct, possibly with -SHARED or
 * -MIG-... suffixes), else from the devices' productName attribute (a
 * model's productName). A node with GPUs whose product the catalog does not
 * know gets NULL and one warning line per product in `warn`. */
const gpu_model *recorded_gpu_model(const gpu_catalog *cat, const k8s_node *n, const k8s_resource_slice *slices,
                                    size_t nslices, int gpus, strbuf *warn);

#endif
