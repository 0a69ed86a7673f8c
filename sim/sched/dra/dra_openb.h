/*
 * dra_openb.h -- OpenB trace workloads in DRA mode: the trace's GPUs as DRA
 * devices and its pods' GPU demand as ResourceClaims, allocated by the
 * structured allocator.
 *
 * Each GPU node publishes one ResourceSlice (driver gpu.nvidia.com, pool =
 * node) with devices gpu-0..gpu-N-1: allowMultipleAllocations, a consumable
 * capacity `milli` of 1000, attributes type=gpu and productName = the
 * trace's GPU model. Pod shapes become claims of DeviceClass gpu.nvidia.com:
 * a GPU-sharing pod asks for one device with capacity {milli: X}; a
 * whole-GPU pod for N devices without a capacity request (it consumes the
 * whole 1000); a GPU-model constraint becomes the CEL selector
 * `device.attributes['gpu.nvidia.com'].productName in [...]`.
 *
 * The placement policy (score plugin) chooses the node. On that node either
 *  - the policy's GPU choice decides (default, drasim-only): the allocator
 *    runs with a device filter (alloc.h, allocator_set_device_filter) that
 *    admits only the GPUs the policy chose, so it validates and records
 *    exactly that choice; DRA mode then places like device-plugin mode;
 *  - or (`scheduling.devicePlacement: allocator`) the allocator chooses, as
 *    kube-scheduler's DynamicResources plugin does (first devices that fit,
 *    in device order).
 */
#ifndef DRASIM_SCHED_DRA_OPENB_H
#define DRASIM_SCHED_DRA_OPENB_H

#include <stdint.h>

#include "model/k8s.h"
#include "model/scenario.h"
#include "sched/policies/gpushare.h"

typedef struct dra_openb dra_openb;

/* Over the trace's nodes (k8s `nodes`, parallel to t->nodes) and pod shapes;
 * `models` are the model names the shapes' `models` bit masks refer to. */
dra_openb *dra_openb_new(const trace_spec *t, const k8s_node *nodes, const gs_pod *shapes, size_t nshapes,
                         const char *const *models, int nmodels, uint64_t seed);
void dra_openb_free(dra_openb *d);
/* Allocate shape k's claim for pod `pod` on `node` and commit it; *gpus gets
 * the devices' GPU indexes as a mask. `prefer` (mask, 0 = none) restricts
 * the allocator to those GPUs; when that finds no fit the allocator's own
 * choice is taken. False when the allocator finds no fit at all (the caller
 * keeps its own choice). CPU-only shapes allocate nothing. */
bool dra_openb_allocate(dra_openb *d, uint32_t pod, size_t k, size_t node, uint32_t prefer, uint32_t *gpus);
/* Pod `pod` ends: its claim is deleted and its devices' capacity freed. */
void dra_openb_release(dra_openb *d, uint32_t pod);
/* Allocations whose devices differed from the policy's GPU choice / failed. */
uint64_t dra_openb_calls(const dra_openb *d);

#endif
