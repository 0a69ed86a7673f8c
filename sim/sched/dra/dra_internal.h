/* dra_internal.h -- structures shared by dra.c and plugin_dra.c (see dra.h). */
#ifndef DRASIM_SCHED_DRA_INTERNAL_H
#define DRASIM_SCHED_DRA_INTERNAL_H

#include "sched/dra/dra.h"

struct dra_class {
    k8s_resource_claim *own;      /* template and extended-resource claims (one object, reused per pod) */
    const char **own_names;       /* the pod's name for each */
    size_t nown;
    uint32_t *shared;             /* indexes into dra_state.shared */
    size_t nshared;
    k8s_resource_claim **call;    /* scratch: the claims to allocate now */
    int32_t *call_shared;         /* per call entry: shared index, -1 for own claims */
    k8s_allocation *out;          /* scratch: results */
    const char *never;            /* PreFilter failure (missing DeviceClass), interned */
    const char *error;            /* the allocator's last error for this class, interned */
    const char *explain;          /* while sched_explain runs: why the allocator finds no fit (dra_explain.c) */
    int32_t *score;               /* per node: prioritized-list score from the last Filter */
    bool any;                     /* has claims at all */
    bool lone;                    /* one own claim, no shared ones, no firstAvailable: dra_filter's short way */
};

struct dra_shared {
    const char *name;
    k8s_resource_claim claim;
    int32_t users;                /* pods reserving it */
    size_t node;                  /* where its allocation was made (the GPU view's node) */
    bool allocated;
    k8s_allocation al;
    double gpu_equiv;
    uint32_t *classes;            /* pod classes that use it */
    size_t nclasses;
};

/* The GPU view's GPUs of DRA nodes (dra_gpus.c). */
void dra_gpus_init(dra_state *d);
void dra_gpus_free(dra_state *d);
/* Milli of each GPU of `node` that allocation al takes (added to milli[]). */
void dra_allocation_gpu_milli(const dra_state *d, size_t node, const k8s_allocation *al, int16_t milli[GS_MAX_GPUS]);
typedef struct dra_gpu_pick {
    const dra_state *d;
    size_t node;
    uint32_t mask;
} dra_gpu_pick;
/* allocator device filter (alloc.h) for a dra_gpu_pick context. */
bool dra_gpu_filter(void *ctx, const alloc_device_id *id);

/* The node's GPU-view entry for device (pool, name) (interned), or NULL. */
const dra_gpu_device *dra_node_gpu_device(const dra_state *d, size_t node, const char *pool, const char *name);
/* Device `uid`'s GPU-equivalents and MIG flag, as dra_allocation_gpu_equiv
 * and dra_allocation_mig_devices count a whole device; false (0, false)
 * when the snapshot has no such device. */
bool dra_uid_device_facts(const dra_state *d, uint32_t uid, double *equiv, bool *mig);
/* What Reserve and Unreserve read of a device for every plain result (no
 * admin access, no share), looked up once per device (dra_uid.c). */
typedef struct dra_uid_facts {
    double equiv;                 /* GPU-equivalents of the whole device (0 when none) */
    uint32_t node1;               /* 1 + the node gpu and milli were looked up for; 0 = not yet */
    int16_t milli;                /* what it takes of its GPU in the view */
    int8_t gpu;                   /* its GPU's index in the node's view, -1 = none */
    bool present, mig;            /* the snapshot has it; it is a MIG device */
} dra_uid_facts;
const dra_uid_facts *dra_uid_facts_of(dra_state *d, uint32_t uid, size_t node);
/* The uids of allocation al's results when every one is plain (no admin
 * access, no share ID, no consumed capacity), at most `max`, and they name
 * devices by the snapshot's own strings; else false. */
bool dra_plain_uids(const dra_state *d, const k8s_allocation *al, uint32_t *uids, size_t max);
/* GPUs an allocation takes (see dra.h). */
double dra_allocation_gpu_equiv(const dra_state *d, const k8s_allocation *al);
/* MIG devices (devices with attribute type = "mig") among its results, admin access not counted. */
int64_t dra_allocation_mig_devices(const dra_state *d, const k8s_allocation *al);
/* Append record r (its pod, claim, flags and GPU-equivalents) with the
 * device results of allocation al, kept compact (dra_records.c); uids:
 * its results' devices when the caller has them (dra_plain_uids), or NULL. */
void dra_add_record(dra_state *d, const dra_record *r, const k8s_allocation *al, const uint32_t *uids);
/* dra_add_record for n plain results (no admin access, share, tolerations or
 * binding conditions) of devices uids[0..n), all of request `request` (interned). */
void dra_add_record_uids(dra_state *d, const dra_record *r, const uint32_t *uids, size_t n, const char *request);
void dra_records_init(dra_state *d);
void dra_records_free(dra_state *d);

/* dra_selectors.c: CEL selectors that do not compile are input errors (0, or -1 with err set). */
struct ynode;
int dra_check_selector_tree(const dra_state *d, const struct ynode *n, const char *what, strbuf *err);
int dra_check_class_selectors(const dra_state *d, strbuf *err);

#endif
