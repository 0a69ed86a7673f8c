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

/* One claim allocation a scheduled pod holds. Records stay for the results
 * (claim_allocations) after the pod ends, so they are compact: the device
 * results live in dra_state.results (dra_records.c); read them with
 * dra_record_allocation, never through the layout. */
typedef struct dra_record {
    const char *claim;            /* the pod's name for the claim */
    uint32_t pod;
    uint32_t first;               /* its first device result in dra_state.results */
    double gpu_equiv;             /* GPUs it takes (MIG N/7, shares by consumed fraction); 0 for reservations */
    uint16_t nresults;            /* at most ALLOC_RESULTS_MAX (32) */
    uint16_t mig_devices;         /* MIG devices among its results (0 for reservations): cur_mig_devices' share */
    bool shared;                  /* a shared claim (reserved, allocated by the first user) */
    bool deleted;                 /* template claim deleted / shared reservation dropped */
} dra_record;

/* A device result of a record, one word: the device's uid in the allocator
 * (high 24 bits) and the request's name (low 8 bits: index into
 * dra_state.req_names); DRA_RESULT_RARE in the low bits: the result has more
 * (share ID, consumed capacity, tolerations, admin access, binding
 * conditions) or does not fit the word (a uid of 2^24 or more, the 255th
 * request name), kept whole in dra_state.rare. Issue 31: 4 bytes instead of
 * 8 for each of ~2.4 results per pod, kept until the results are written. */
typedef uint32_t dra_result;
#define DRA_RESULT_RARE 0xFFu
#define DRA_RESULT_REQ(x) ((x) & 0xFFu)
#define DRA_RESULT_UID(x) ((x) >> 8)
typedef struct dra_rare {
    uint32_t at;                  /* index in dra_state.results */
    k8s_device_result r;
} dra_rare;

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
    VEC(dra_result) results;      /* every record's device results, in record order (dra_records.c) */
    VEC(dra_rare) rare;           /* the results with more than request and device, by index */
    VEC(const char *) req_names;  /* request names (interned), indexed by DRA_RESULT_REQ */
    uint32_t *req_tab;            /* req_names' open-addressing index: 1 + position, 0 = empty */
    size_t req_cap;
    struct dra_view *view;        /* dra_record_allocation's buffer */
    VEC(uint32_t) pod_first;      /* per pod id: 1 + index of its first record, 0 = none */
    double total_gpus;            /* physical GPUs of the inventory */
    double cur_gpu_equiv, peak_gpu_equiv;   /* GPUs taken by live allocations */
    int64_t cur_mig_devices;      /* MIG devices (type mig) held by live allocations (samples.mig_alloc) */
    struct place_mig *mig;        /* dynamic-MIG fragmentation and placement (place_mig.h); NULL = none */
    dra_node_gpus *node_gpus;     /* per node: its GPUs in the scheduler's GPU view */
    struct dra_equiv_memo *equiv; /* dra_allocation_gpu_equiv's memo of shared attribute runs (dra.c) */
    struct dra_uid_facts *facts;  /* per allocator uid (dra_uid.c), grown on demand */
    size_t nfacts;
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
/* Cache hints for pod `pod`'s coming Unreserve, for the engine to give as
 * the pod's completion comes near (issue 31: its records are two cache
 * misses, one after the other, at 1M pods): stage 1 hints where its records
 * start, stage 2 (an event later, when that has arrived) its first record.
 * Nothing changes. */
void dra_prefetch_pod(const dra_state *d, uint32_t pod, int stage);
/* Record r's allocation as the allocator made it: its device results
 * (request, driver, pool, device and, where there were any, share ID,
 * consumed capacity, tolerations, admin access, binding conditions); no
 * config or node selector (not kept). Valid until the next call. */
const k8s_allocation *dra_record_allocation(const dra_state *d, const dra_record *r);
/* Record r's results as compact words (1 per result: device uid and request
 * index, dra_result) when every result is plain: two records with equal claim names and
 * equal words have equal allocations (the results database stores each such
 * set once, store_dra.c). 0 words (*words NULL) when some result is kept whole. */
size_t dra_record_words(const dra_state *d, const dra_record *r, const uint32_t **words);
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
/* A claim allocated before the run (cluster.state; dra_held.c): its devices
 * are taken (sign +1: allocator_commit) or given back (-1) and counted among
 * the live allocations' GPUs. The caller wakes the nodes concerned. */
void dra_hold(dra_state *d, const k8s_allocation *al, int sign);
/* The claim object behind record r of a pod of class c (dra_held.c): the
 * class's own claim (spec; its name is "<group>-<claim>") or the shared
 * claim (name, spec). *extended: it is the KEP-5004 claim of the class's
 * extended resources. NULL when unknown. */
const k8s_resource_claim *dra_record_claim(const dra_state *d, uint32_t c, const dra_record *r, bool *extended);
/* A running pod of cluster.state reserves held claim `claim` (dra_hold'ed
 * already): a record of it, so that claim_allocations lists it and the pod's
 * GPU-hours count it; `first`: the first pod reserving it, whose record
 * carries the claim's GPUs (later ones 0, as for a shared claim). Called
 * between the pod's binding and its start. */
void dra_hold_record(dra_state *d, uint32_t pod, const k8s_resource_claim *claim, bool first);
/* That pod ended: its held records are deleted (the claims are given back by the caller). */
void dra_hold_records_end(dra_state *d, uint32_t pod);
/* Pods currently reserving shared claim `name` (-1 if unknown) and whether it is allocated. */
int dra_shared_users(const dra_state *d, const char *name, bool *allocated);

#endif
