/*
 * dra.h -- the simulator's DRA bookkeeping behind the DynamicResources
 * scheduler plugin (plugin_dra.c): one structured allocator over the whole
 * inventory, maintained incrementally (allocator_commit at Reserve,
 * allocator_release when a pod ends), the claims of every pod class, the
 * shared claims, and what each scheduled pod's claims got.
 *
 * Claims of a pod class (one per pod group):
 *  - template claims (`gpu.dra.claims[].spec`): a ResourceClaim is created
 *    for each pod when it is scheduled, allocated at Reserve and deleted
 *    when the pod ends (its devices are freed);
 *  - shared claims (`resourceClaimName`): allocated by the first pod that
 *    uses them, then only reserved by later pods (which must land on a node
 *    the allocation's node selector allows); freed when the last user ends;
 *  - extended resources backed by DRA: a group with only `gpu.devicePlugin`
 *    demand gets one claim with a request `container-0-request-<j>` per
 *    resource, of the DeviceClass whose extendedResourceName (or implicit
 *    `deviceclass.resource.kubernetes.io/<class>`) names it (KEP-5004).
 */
#ifndef DRASIM_SCHED_DRA_H
#define DRASIM_SCHED_DRA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc/alloc.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "sched/policies/gpushare.h"
#include "util/vec.h"

/* One claim allocation a scheduled pod holds. */
typedef struct dra_record {
    uint32_t pod;
    const char *claim;            /* the pod's name for the claim */
    bool shared;                  /* a shared claim (reserved, allocated by the first user) */
    bool deleted;                 /* template claim deleted / shared reservation dropped */
    k8s_allocation al;            /* results live in dra_state.keep */
    double gpu_equiv;             /* GPUs it takes (MIG N/7, shares by consumed fraction); 0 for reservations */
} dra_record;

typedef struct dra_class dra_class;

/* A node's physical GPUs as the GPU view numbers them (dra_gpus.c): their uuids. */
typedef struct dra_gpu_device {
    const char *pool, *name;      /* interned: compared by pointer with allocation results */
    int16_t milli;                /* what taking it whole takes of its GPU (gpu 1000, MIG N/7) */
    int8_t gpu;                   /* its GPU's index in the view */
} dra_gpu_device;
typedef struct dra_node_gpus {
    const char *uuid[GS_MAX_GPUS];
    uint8_t n;
    dra_gpu_device *dev;          /* the node's GPU and MIG devices (dra_gpus.c) */
    uint32_t ndev;
} dra_node_gpus;
typedef struct dra_shared dra_shared;

typedef struct dra_state {
    allocator *A;
    alloc_features features;
    int k8s_minor;                /* the cluster's Kubernetes version (34, 35, 36) */
    const inventory *inv;
    k8s_resource_slice **slices;
    k8s_device_class **classes;
    size_t nslices, nclasses;
    dra_class *cls;               /* per pod class (= pod group, then Lua classes) */
    size_t ncls, cls_cap;         /* grown geometrically (Lua adds classes one by one) */
    size_t nnodes;
    dra_shared *shared;           /* per workload.resourceClaims entry */
    size_t nshared;
    arena keep;                   /* allocations of scheduled pods (kept for the results) */
    arena scratch;                /* Filter's results, reset per call */
    strbuf err;
    VEC(dra_record) records;      /* in scheduling order */
    VEC(uint32_t) pod_first;      /* per pod id: 1 + index of its first record, 0 = none */
    double total_gpus;            /* physical GPUs of the inventory */
    double cur_gpu_equiv, peak_gpu_equiv;   /* GPUs taken by live allocations */
    int64_t cur_mig_devices;      /* MIG devices (type mig) held by live allocations (samples.mig_alloc) */
    struct place_mig *mig;        /* dynamic-MIG fragmentation and placement (place_mig.h); NULL = none */
    dra_node_gpus *node_gpus;     /* per node: its GPUs in the scheduler's GPU view */
    struct dra_equiv_memo *equiv; /* dra_allocation_gpu_equiv's last shared attribute run (dra.c) */
    allocator *explain_empty;     /* dra_explain.c: the inventory with no device in use; NULL until needed */
    uint64_t claims_created, claims_deleted, shared_allocated, shared_freed, allocate_calls, steps;
} dra_state;

/* Set up over the inventory's DRA view and the scenario's claims. Returns
 * NULL with err = "FILE:LINE:COL: ..." when a group asks for an extended
 * resource that no DeviceClass serves. */
dra_state *dra_new(const scenario *sc, const inventory *inv, strbuf *err);
void dra_free(dra_state *d);
/* Set up the claims of the next pod class (index d->ncls) for pod group g;
 * for classes added while a run goes (Lua generators). Returns 0, or -1
 * with err set (an unknown shared claim, an unserved extended resource). */
int dra_add_class(dra_state *d, const pod_group_spec *g, strbuf *err);

/* The records of pod `pod` (NULL/0 when it holds none). */
const dra_record *dra_pod_records(const dra_state *d, uint32_t pod, size_t *n);
/* Does any pod currently hold device (driver, pool, device)? */
bool dra_device_in_use(const dra_state *d, const char *driver, const char *pool, const char *device);
struct scheduler;
/* Class ci's GPU demand as the GPU view sees it, from a first allocation on
 * an eligible node (not committed, not counted): GPUs and milli per GPU in
 * shape; *mig when it took MIG devices. False when it takes no GPU. */
bool dra_probe_shape(struct scheduler *s, uint32_t ci, gs_pod *shape, bool *mig);
/* Diagnostics only (dra_explain.c), around sched_explain's filter pass for
 * class ci: _begin finds, over the eligible nodes, the first request of the
 * class's own claims that fits on no node alone and words why ("request gpu
 * needs 8 devices on one node; the largest free block on any node is 5",
 * "request gpu: no device matches selector ..."); the DynamicResources
 * Filter then gives that text instead of "cannot allocate all claims".
 * Nothing is committed or counted; _end clears it. */
void dra_explain_begin(const struct scheduler *s, uint32_t ci);
void dra_explain_end(const struct scheduler *s, uint32_t ci);
/* GPUs of `node` in the GPU view (devices of type gpu, and static-MIG parents). */
int dra_node_gpu_count(const dra_state *d, size_t node);
/* Number of claims class c uses (template + shared + extended-resource). */
size_t dra_class_claims(const dra_state *d, size_t c);
/* Pods currently reserving shared claim `name` (-1 if unknown) and whether it is allocated. */
int dra_shared_users(const dra_state *d, const char *name, bool *allocated);

#endif
