/* dra_internal.h -- structures shared by dra.c and plugin_dra.c (see dra.h). */
#ifndef DRASIM_SCHED_DRA_INTERNAL_H
#define DRASIM_SCHED_DRA_INTERNAL_H

#include "sched/dra.h"

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
    int32_t *score;               /* per node: prioritized-list score from the last Filter */
    bool any;                     /* has claims at all */
};

struct dra_shared {
    const char *name;
    k8s_resource_claim claim;
    int32_t users;                /* pods reserving it */
    bool allocated;
    k8s_allocation al;
    double gpu_equiv;
    uint32_t *classes;            /* pod classes that use it */
    size_t nclasses;
};

/* GPUs an allocation takes (see dra.h). */
double dra_allocation_gpu_equiv(const dra_state *d, const k8s_allocation *al);
/* Append a record for pod `pod`. */
void dra_add_record(dra_state *d, const dra_record *r);

#endif
