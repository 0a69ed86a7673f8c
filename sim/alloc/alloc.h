/*
 * alloc.h -- the DRA structured-parameters allocator, re-implemented from the
 * upstream Kubernetes "incubating" allocator of v1.36
 * (k8s.io/dynamic-resource-allocation/structured): same search order, same
 * results, same "no fit", same errors for the same inputs.
 *
 * Use: build one allocator over a snapshot (slices, classes, what is already
 * allocated) and call allocator_allocate() once per candidate node with the
 * claims a pod needs. The allocator caches compiled CEL selectors and counter
 * availability across calls; it is not thread-safe.
 */
#ifndef DRASIM_ALLOC_ALLOC_H
#define DRASIM_ALLOC_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/k8s.h"
#include "util/arena.h"
#include "util/strbuf.h"

/* The allocator's optional features (upstream structured/internal.Features). */
typedef struct alloc_features {
    bool admin_access;           /* DRAAdminAccess */
    bool prioritized_list;       /* DRAPrioritizedList */
    bool partitionable_devices;  /* DRAPartitionableDevices */
    bool device_taints;          /* DRADeviceTaints */
    bool consumable_capacity;    /* DRAConsumableCapacity */
    bool binding_conditions;     /* DRADeviceBindingConditions + DRAResourceClaimDeviceStatus */
    bool list_type_attributes;   /* DRAListTypeAttributes (alpha; only passed to CEL) */
} alloc_features;

/* "none" or a comma list of AdminAccess, PrioritizedList, PartitionableDevices,
 * DeviceTaints, ConsumableCapacity, DeviceBindingAndStatus, ListTypeAttributes.
 * Returns 0, or -1 with err set. */
int alloc_features_parse(const char *list, alloc_features *out, strbuf *err);
/* Defaults of a Kubernetes release: "1.34", "1.35" or "1.36". */
int alloc_features_for_version(const char *version, alloc_features *out, strbuf *err);
void alloc_features_format(const alloc_features *f, strbuf *out);

/* A device: driver/pool/device, interned. */
typedef struct alloc_device_id {
    const char *driver, *pool, *device;
} alloc_device_id;

/* Capacity already consumed on a shared device (summed over its shares). */
typedef struct alloc_consumed {
    alloc_device_id id;
    const char *capacity;        /* capacity name as written in the slice */
    quantity value;
} alloc_consumed;

/* What is allocated already (upstream AllocatedState). */
typedef struct alloc_state {
    const alloc_device_id *allocated;   /* AllocatedDevices (dedicated use) */
    size_t nallocated;
    const alloc_device_id *shared;      /* devices with AllocatedSharedDeviceIDs entries */
    size_t nshared;
    const alloc_consumed *consumed;     /* AggregatedCapacity */
    size_t nconsumed;
} alloc_state;

/* Builds an alloc_state from allocated claims the way the scheduler does:
 * admin-access results are ignored; with ConsumableCapacity on, results with
 * a shareID are shared allocations (their consumedCapacity summed), all
 * others dedicated; with it off every result is dedicated
 * (ListAllAllocatedDevices). */
typedef struct alloc_state_builder {
    alloc_state st;
    size_t cap_alloc, cap_shared, cap_consumed;
} alloc_state_builder;
void alloc_state_add_claim(alloc_state_builder *b, const k8s_resource_claim *claim, bool consumable_capacity);
void alloc_state_builder_free(alloc_state_builder *b);

typedef struct allocator allocator;

/* Index the snapshot. Slices and classes must outlive the allocator; `seed`
 * makes share IDs deterministic. Never fails (bad input surfaces as errors
 * of allocator_allocate, as upstream). */
allocator *allocator_new(const alloc_features *f, k8s_resource_slice *const *slices, size_t nslices,
                         k8s_device_class *const *classes, size_t nclasses, const alloc_state *state,
                         uint64_t seed);
void allocator_free(allocator *a);

/* Record an allocation made from this snapshot (a scheduled pod's claim) so
 * that later calls see its devices, shares and consumed capacity as taken,
 * exactly as if it had been in the state given to allocator_new. */
void allocator_commit(allocator *a, const k8s_allocation *al);
/* The inverse of allocator_commit (alloc_release.c): a finished pod's claim
 * gives its devices, shares and consumed capacity back. */
void allocator_release(allocator *a, const k8s_allocation *al);
/* allocator_release of one plain device result by its uid (no admin access,
 * no share, no consumed capacity): what allocator_release does for it,
 * without looking the names up (sched/dra's records keep uids). */
void allocator_release_uid(allocator *a, uint32_t uid);

typedef enum {
    ALLOC_OK = 0,            /* out[i] holds claim i's allocation */
    ALLOC_UNSATISFIABLE,     /* no fit on this node */
    ALLOC_NODE_ERROR,        /* no fit and an invalid pool was seen (ErrFailedAllocationOnNode) */
    ALLOC_ERROR,             /* the claims cannot be handled at all (bad CEL, unknown class, ...) */
    ALLOC_TIMEOUT            /* the step limit was reached (the scheduler's filter timeout) */
} alloc_status;

/* drasim-only, not upstream (alloc_prefer.c): a filter the simulator's
 * placement policies use to choose AMONG the devices that fit. When set, a
 * device the filter rejects is treated as not matching the request's
 * selectors; the search order and everything else stay upstream's. NULL
 * (the default, and always for `drasim allocate`) = upstream behaviour. */
typedef bool (*alloc_device_filter)(void *ctx, const alloc_device_id *id);
void allocator_set_device_filter(allocator *a, alloc_device_filter fn, void *ctx);

/* The nodes later calls will name, as one array (the scheduler's): a call for
 * &nodes[i] then finds the node's pools by index instead of a map lookup.
 * Any other node pointer still works. Optional; nodes must outlive it. */
void allocator_set_nodes(allocator *a, const k8s_node *nodes, size_t n);

/* The device (driver, pool, device) of the snapshot, first in slice order;
 * NULL when there is none. */
const k8s_device *allocator_find_device(const allocator *a, const char *driver, const char *pool, const char *device);

/* A device's index in the snapshot (dense, stable for the allocator's life)
 * and back: the device result `r` names (found without a lookup when the
 * last call built r), or (driver, pool, device); false when there is none.
 * Lets a caller keep a device as 4 bytes (sched/dra/dra_records.c). */
bool allocator_result_uid(const allocator *a, const k8s_device_result *r, uint32_t *uid);
bool allocator_device_uid(const allocator *a, const char *driver, const char *pool, const char *device, uint32_t *uid);
const alloc_device_id *allocator_uid_device(const allocator *a, uint32_t uid);
/* The device of that uid first in slice order (as allocator_find_device). */
const k8s_device *allocator_uid_first_device(const allocator *a, uint32_t uid);

/* drasim's cluster dynamics (engine/sim_faults.c): device (driver, pool,
 * device) now carries `taints` (n of them, not copied: they must stay valid
 * until replaced; n = 0 clears them) instead of its slice's own, as a
 * ResourceSlice republished by the driver plus the DeviceTaintRules
 * (KEP-5055) would show it. False when there is no such device. */
bool allocator_set_device_taints(allocator *a, const char *driver, const char *pool, const char *device,
                                 const k8s_taint *taints, size_t n);
/* Does the device of allocation result `res` now carry a NoSchedule or
 * NoExecute taint that the result's tolerations (its request's) do not
 * tolerate? Then the claim accepts no new pods (KEP-5055: the scheduler lets
 * no pod reserve it). Always false until allocator_set_device_taints was used. */
bool allocator_result_blocked(const allocator *a, const k8s_device_result *res);

/* The search budget: stop one allocator_allocate after `steps` search steps
 * (0 = no limit, the allocator's own default) with ALLOC_TIMEOUT. It stands
 * for upstream's DynamicResources filter timeout (DynamicResourcesArgs
 * .FilterTimeout, default 10 s since 1.34: Filter gives the allocator a
 * context with that deadline and reports "timed out trying to allocate
 * devices"; pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go,
 * pkg/scheduler/apis/config/types_pluginargs.go), but counted in search
 * steps (upstream's NumAllocateOneInvocations) so that results do not depend
 * on the machine. The commands' default, ALLOC_SEARCH_BUDGET_DEFAULT, is
 * 10 s at roughly 10^5 steps/s: an estimate of the Go allocator's rate on
 * counter-heavy searches, not a measurement (docs/SCENARIOS.md). */
#define ALLOC_SEARCH_BUDGET_DEFAULT 1000000
void allocator_set_step_limit(allocator *a, uint64_t steps);

/* Allocate all `claims` together for `node`. On ALLOC_OK, out[0..n) are
 * filled (their arrays live in `result_arena`). On the error statuses, err
 * holds the message. *steps receives the number of search steps (upstream's
 * NumAllocateOneInvocations) of this call. With no result_arena the caller
 * wants the status only: out[] may come back empty (no results), unless
 * building them has effects (share IDs drawn) or can fail, as with one. */
alloc_status allocator_allocate(allocator *a, const k8s_node *node, k8s_resource_claim *const *claims, size_t n,
                                arena *result_arena, k8s_allocation *out, uint64_t *steps, strbuf *err);

/* Cache hints for a coming allocator_take_plain or allocator_release_uid on
 * `node` (issue 31: at 10,000 nodes each per-node and per-device array a
 * Reserve or release reads is a cache miss, one after another). Stage 1
 * hints the node's remembered quick answer; stage 2 reads it and hints the
 * per-device flags of the devices it names, giving their uids as
 * [*first, *first + *n) (false: no such answer). Nothing changes: only the
 * cache is warmed. */
void allocator_prefetch_node(const allocator *a, const k8s_node *node);
bool allocator_prefetch_uids(const allocator *a, const k8s_node *node, uint32_t *first, uint32_t *n);
/* drasim-only shortcut of allocator_allocate + allocator_commit for the
 * scheduler's Reserve (issue 31), when the caller keeps device uids only:
 * for one claim with one ExactCount request of N <= max devices, no
 * tolerations, constraints or capacity requests, on a node whose candidates
 * are plain (no counters, shares, taints, binding conditions, per-device
 * node selection; no device filter set), the devices the search would take
 * (the first N usable candidates in search order) are committed and their
 * uids written to uids[0..N); returns N, and *steps gets the search's N + 3 steps. It
 * stands for upstream's Reserve taking the allocation its Filter found for
 * the node (stateData.nodeAllocations, kubernetes v1.33
 * pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go)
 * instead of searching again. 0, with nothing changed, when the call is
 * not of that kind or does not fit: then allocator_allocate decides. */
size_t allocator_take_plain(allocator *a, const k8s_node *node, k8s_resource_claim *const *claims, size_t n,
                            uint32_t *uids, size_t max, uint64_t *steps);

#endif
