/*
 * alloc_internal.h -- data structures shared by the allocator's files.
 *
 * Snapshot level (built once, struct allocator): every device of every slice in
 * one flat array; a dense "uid" per distinct driver/pool/device; slices indexed
 * by node; all slices of a pool; classes by name; the CEL cache; counter
 * availability per pool name.
 *
 * Call level (struct acall, one allocator_allocate): the pools relevant to the
 * node, the candidate list in search order, per-request data, the devices
 * being allocated, consumed counters and capacity, and an undo stack.
 */
#ifndef DRASIM_ALLOC_ALLOC_INTERNAL_H
#define DRASIM_ALLOC_ALLOC_INTERNAL_H

#include "alloc/alloc.h"
#include "cel/cel.h"
#include "util/intern.h"
#include "util/vec.h"

#define ALLOC_RESULTS_MAX 32

/* ---- open-addressing map from up to three pointers to a uint32 ------------- */

typedef struct pmap_entry {
    const void *k1, *k2, *k3;
    uint32_t val;
    bool used;
} pmap_entry;

typedef struct pmap {
    pmap_entry *e;
    size_t cap, len;
} pmap;

bool pmap_get(const pmap *m, const void *k1, const void *k2, const void *k3, uint32_t *val);
void pmap_put(pmap *m, const void *k1, const void *k2, const void *k3, uint32_t val);
void pmap_free(pmap *m);

typedef struct u32vec {
    uint32_t *data;
    size_t len, cap;
} u32vec;

/* ---- snapshot -------------------------------------------------------------------- */

typedef struct adev {
    const k8s_device *d;
    uint32_t slice;
    uint32_t uid;
} adev;

typedef struct aslice {
    const k8s_resource_slice *s;
    uint32_t first, n;              /* devices: devs[first .. first+n) */
    uint32_t gpool;                 /* index into allocator.gpools */
    bool binding;                   /* some device has bindingConditions */
} aslice;

typedef struct agpool {             /* all slices of one (driver, pool), input order */
    const char *driver, *pool;
    u32vec slices;
    /* its devices by name: open addressing, uid + 1 per slot (0 = free) */
    uint32_t *utab;
    uint32_t ucap, ulen;
    uint32_t ulo, usmall;           /* usmall > 0: its uids are exactly ulo .. ulo+usmall-1 (few: scanned, no table) */
    /* validation of the last slice combination seen (relevant, then other) */
    bool vc_ok, vc_invalid;
    const char *vc_reason;
    struct ccounters *vc_ctr;
    u32vec vc_key;
} agpool;

typedef struct cel_entry {
    cel_program *prog;              /* NULL when compilation failed */
    char *error;
    uint8_t *verdict;               /* per device: 0 unknown, 1 false, 2 true (CEL is pure) */
} cel_entry;

/* Pool-wide counters (1.35+ model), keyed by pool name (upstream quirk). */
typedef struct ccounters ccounters;
struct ccounters {
    const char *pool;
    size_t n;                       /* flattened (set, counter) pairs */
    const char **set, **name;
    quantity *init;                 /* counter set values */
    quantity *avail;                /* init - consumption of allocated devices */
    int neg;                        /* counters with avail < 0 */
    bool avail_ready;
    quantity *scratch;              /* per-call consumption, all zero between calls */
};

struct allocator {
    alloc_features f;
    cel_options celopts;
    VEC(aslice) slices;
    VEC(adev) devs;
    VEC(alloc_device_id) uids;
    uint8_t *uid_allocated;         /* in AllocatedDevices */
    uint8_t *uid_shared;            /* bit 1: has shared allocations; bit 2: has aggregated capacity */
    uint32_t *uid_stamp;            /* scratch for duplicate detection */
    uint32_t *uid_first;            /* per uid: its first device (index into devs) */
    int32_t *dev_ctr;               /* per device: offset into ctr_idx, -1 = not computed */
    VEC(uint16_t) ctr_idx;          /* counter indices a device consumes, in consumesCounters order */
    uint32_t stamp;
    VEC(alloc_consumed) consumed;   /* aggregated capacity, one entry per (uid, capacity) */
    VEC(uint32_t) consumed_uid;
    pmap consumed_map;              /* (uid, capacity name) -> index into consumed */
    /* (driver, pool, device) -> uid: gpool_map, then the pool's utab (see alloc_uid_find) */
    pmap node_map;                  /* node name -> index into node_slices */
    VEC(u32vec *) node_slices;
    VEC(uint32_t) shared_slices;    /* slices without nodeName, or with counters and devices */
    VEC(uint32_t) counter_slices;   /* counters-only slices (no devices): relevant to every node */
    uint32_t *gpool_stamp, *gpool_slot;   /* per gpool: its pool index in the gathering in progress */
    uint32_t gstamp;
    struct gathered *remote;        /* pools seen by every node only through counters-only slices */
    VEC(uint32_t) remote_bad;       /* their incomplete or invalid ones (indices into remote->pools) */
    pmap gpool_map;                 /* (driver, pool) -> index */
    VEC(agpool) gpools;
    pmap class_map;                 /* name -> index */
    k8s_device_class *const *classes;
    pmap cel_map;                   /* interned expression -> index */
    VEC(cel_entry) cel;
    pmap counters_map;              /* pool name -> index */
    VEC(ccounters *) counters;
    uint64_t seed, share_seq;
    uint64_t step_limit;
    alloc_device_filter dev_filter; /* drasim-only candidate filter (alloc_prefer.c), NULL = upstream */
    void *dev_filter_ctx;
    pmap combo_map;                 /* (class, request selectors) key -> index into combos */
    VEC(uint8_t *) combos;          /* per device: 0 unknown, 1 no, 2 yes (all those selectors match) */
    pmap gather_map;                /* node pointer -> index into gathered */
    VEC(struct gathered *) gathered;
    /* one-entry memos of the two lookups every call and every commit make
     * (a call's devices share one node and usually one pool) */
    struct alloc_memo *memo;
    const k8s_node *node_base;      /* allocator_set_nodes: node i -> node_gi[i] (index into gathered, or UINT32_MAX) */
    size_t nnode_base;
    uint32_t *node_gi;
    /* quick_scan's answer per node of allocator_set_nodes (alloc_search.c,
     * quick_cached): valid until a device it counted changes hands
     * (uid_qnode: 1 + that node, 0 = none) or any device's taints change (qepoch);
     * a plain device taken or given back only moves the count when it is one
     * the node's current answer counted (uid_qgen = that answer's gen) */
    /* first_uid, nuid: the remembered candidates' uids when they are first_uid, first_uid + 1, ... in
     * search order and none has binding conditions (allocator_take_plain's short way); nuid 0 = not so */
    struct alloc_qnode { const uint8_t *combo; uint32_t epoch, gen, first_uid; uint8_t usable; bool valid; uint8_t nuid; } *qnode;
    uint32_t *uid_qnode, *uid_qgen;
    uint32_t qepoch;
    /* per node of allocator_set_nodes: the node-name NodeSelector every result
     * on that node gets (made on first use, shared: it lives as long as the
     * allocator; other nodes' results get their own in the result arena) */
    struct alloc_node_sel { k8s_selector_term term; k8s_selector_req req; const char *value; } *node_sel;
    uint8_t *dev_flags;             /* per device: DEV_BINDING, DEV_NODE_SEL (is_selectable without the device) */
    struct alloc_taint_set *dev_taints;   /* per device: taints set while a run goes (alloc_taints.c), NULL = none */
    arena call_mem;                 /* a call's fixed-size scratch (alloc_search.c), reset per call */
    struct acall_spare *spare;      /* a call's growable vectors, kept between calls */
    const char *metadata_name;      /* intern("metadata.name") */
    /* the device results the last call built and their devices, so that
     * committing them (the scheduler's Reserve) needs no name lookups */
    VEC(struct built_result { const k8s_device_result *r; uint32_t dev; }) built;
};

/* Per-device facts the search asks about every candidate, kept in one byte
 * so that it need not read the device itself (a cache miss per device). */
enum {
    DEV_BINDING = 1,                /* has bindingConditions */
    DEV_NODE_SEL = 2,               /* its slice selects nodes per device */
    DEV_CONSUMES = 4,               /* consumes counters */
    DEV_MULTI = 8,                  /* allowMultipleAllocations */
    DEV_TAINTS = 16,                /* has taints */
    DEV_CAP_POLICY = 32,            /* some capacity has a request policy */
    DEV_BINDS_NODE = 64,            /* bindsToNode */
    DEV_SLICE_NODE = 128            /* its slice has a nodeName (and no per-device node selection) */
};

/* ---- call level ---------------------------------------------------------------- */

typedef struct cpool {
    const char *driver, *name;
    u32vec slices;                  /* node-relevant slices, sorted by name */
    u32vec other;                   /* slices of the pool on other nodes (counter accounting) */
    int64_t generation;
    bool incomplete, invalid, binding;
    const char *invalid_reason;
    ccounters *ctr;                 /* NULL without counter sets */
    uint32_t state;                 /* index into acall.cstates, for counters */
} cpool;

typedef struct cand {
    uint32_t dev;                   /* index into allocator.devs */
    uint32_t pool;                  /* index into acall.pools */
} cand;

/* Pools and candidates of one node: they depend only on the slices and the
 * node, so they are computed once per node and allocator. */
typedef struct gathered {
    VEC(cpool) pools;
    VEC(cand) cands;
    bool saw_invalid;
} gathered;

/* One-entry memos of the allocator (struct allocator.memo). */
struct alloc_memo {
    const char *driver, *pool;      /* (driver, pool) -> gpool index */
    uint32_t gpool;
    const void *node;               /* node pointer -> its gathered pools and candidates (a copy) */
    bool has_node;
    gathered g;
    /* a request's DeviceClass name and at most one selector -> its class and
     * selector verdict cache (both fixed for the allocator's life) */
    const char *req_class, *req_sel;
    size_t req_nsel;
    const k8s_device_class *req_cls;
    uint8_t *req_combo;
};

typedef struct rdata {
    const k8s_device_request_spec *spec;
    const k8s_device_request *req;
    const char *name;               /* result name: "req" or "req/sub" */
    bool sub;
    const k8s_device_class *cls;
    int num_devices;
    VEC(uint32_t) all;              /* mode All: candidate indices */
    uint8_t *combo;                 /* the class and request selectors' verdicts per device (allocator-wide) */
    uint32_t index;                 /* row in the selectable cache */
} rdata;

typedef struct creq {
    rdata *subs;                    /* one entry for `exactly` */
    size_t nsubs;
    bool has_subs;
    size_t selected;
} creq;

typedef struct cclaim {
    const k8s_resource_claim *claim;
    creq *reqs;
    size_t nreqs;
    struct constraint_state *cons;
    size_t ncons;
} cclaim;

typedef struct taken {              /* a device in this attempt's result */
    uint32_t cand;
    uint32_t claim;
    const rdata *rd;
    bool marked;                    /* counts as "in use" (not multi-allocatable) */
    bool admin;
    bool multi;
    uint32_t cap_first, ncap;       /* consumed capacity entries in acall.capvals */
    uint32_t nalloc;                /* entries pushed onto acall.allocating */
} taken;

typedef struct ccstate {            /* per-call counter consumption of one pool name */
    ccounters *ctr;
    quantity *consumed;
    int violated;                   /* counters with avail < consumed */
} ccstate;

typedef struct allocating_cap {     /* capacity being consumed on a shared device */
    uint32_t uid;
    const char *cap;
    quantity value;
} allocating_cap;

typedef struct acall {
    allocator *A;
    const k8s_node *node;
    k8s_resource_claim *const *claims;
    size_t nclaims;
    strbuf *err;
    uint64_t steps;
    bool timed_out;
    VEC(cpool) pools;               /* borrowed from the allocator's per-node cache */
    bool saw_invalid;
    VEC(cand) cands;                /* borrowed too */
    bool borrowed;
    VEC(ccstate) cstates;
    cclaim *cc;
    size_t nrdata;
    uint8_t *selectable;            /* [rdata.index * ncands + cand]: 0 unknown, 1 no, 2 yes */
    VEC(taken) results;             /* all claims, in order; per-claim ranges below */
    size_t *claim_first;            /* results index where each claim starts */
    VEC(allocating_cap) allocating;
    VEC(taken) leaked;              /* "allocating" marks upstream never undoes */
    VEC(quantity) capvals;          /* consumed capacity per result (parallel to device caps) */
} acall;

/* The growable vectors of acall, handed from call to call (emptied) so a
 * call does not allocate them again. */
typedef struct acall_spare {
    VEC(ccstate) cstates;
    VEC(taken) results, leaked;
    VEC(allocating_cap) allocating;
    VEC(quantity) capvals;
    VEC(cpool) gpools;              /* a node's gathering in progress (alloc_gather_pools) */
    VEC(cand) gcands;
} acall_spare;

/* Quantity arithmetic for hot loops: exact, with a shortcut when both sides
 * have the same decimal exponent (the common case); the representation of a
 * sum may differ from quantity_add's, its value never does. Results of these
 * are only compared, never printed. */
static inline int aq_cmp(const quantity *a, const quantity *b) {
    if (a->exp10 == b->exp10) return a->mant < b->mant ? -1 : a->mant > b->mant;
    return quantity_cmp(a, b);
}
static inline void aq_add(quantity *acc, const quantity *b) {
    if (acc->exp10 == b->exp10) acc->mant += b->mant;
    else if (acc->mant == 0) *acc = *b;
    else quantity_add(acc, b, acc);
}
static inline void aq_sub(quantity *acc, const quantity *b) {
    if (acc->exp10 == b->exp10) acc->mant -= b->mant;
    else quantity_sub(acc, b, acc);
}

/* alloc_build.c */
const k8s_device_class *alloc_find_class(const allocator *A, const char *name);
/* The uid of device (driver, pool, dev) (interned strings); false if unknown. */
bool alloc_uid_find(const allocator *A, const char *driver, const char *pool, const char *dev, uint32_t *uid);
/* The same for strings that need not be interned. */
bool alloc_uid_lookup(const allocator *A, const char *driver, const char *pool, const char *dev, uint32_t *uid);
/* The verdict cache of "class cls's and these request selectors all match"
 * per device: CEL is pure, so it holds for the allocator's lifetime. */
uint8_t *alloc_selector_combo(allocator *A, const k8s_device_class *cls, const char *const *sel, size_t nsel);
cel_entry *alloc_cel_get(allocator *A, const char *expr);
const alloc_consumed *alloc_aggregated(const allocator *A, uint32_t uid, const char *cap);

/* alloc_pools.c */
typedef VEC(const cpool *) cpool_refs;
/* The incomplete or invalid pools the call sees, in pool order: the node's
 * own and those only reached through other nodes' counters-only slices. */
void alloc_bad_pools(const acall *c, cpool_refs *out);
int alloc_node_matches(const k8s_node *node, const char *node_name, bool all_nodes, bool has_sel,
                       const k8s_node_selector *sel, bool *match, strbuf *err);
int alloc_gather_pools(acall *c);

/* alloc_capacity.c */
/* Consumable-capacity fit of rd on the device; fills vals (device cap order)
 * with the amounts it would consume. */
bool alloc_capacity_fits(acall *c, const rdata *rd, const adev *d, quantity *vals);
/* alloc_capacity_fits(c, rd, d, NULL) with its common case (nothing asked,
 * consumed or being consumed, no policy: it fits) decided here, without
 * a call per candidate. */
static inline bool alloc_capacity_fits_quick(acall *c, const rdata *rd, const adev *d) {
    const allocator *A = c->A;
    if (!rd->spec->ncapacity && !(A->uid_shared[d->uid] & 2) && !c->allocating.len &&
        !(A->dev_flags[d - A->devs.data] & DEV_CAP_POLICY))
        return true;
    return alloc_capacity_fits(c, rd, d, NULL);
}
bool alloc_counters_take(acall *c, const cpool *p, const adev *d);
void alloc_counters_release(acall *c, const cpool *p, const adev *d);
bool alloc_uid_capacity_in_use(const acall *c, uint32_t uid);
const char *alloc_cap_name(const k8s_capacity *cap, const char *driver);
void alloc_ccounters_free(ccounters *cc);
void alloc_gathered_free(gathered *g);

/* alloc_constraints.c */
struct constraint_state;
int alloc_constraints_init(acall *c, cclaim *cc, strbuf *err);
bool alloc_constraints_add(cclaim *cc, const rdata *rd, const adev *d, const char *driver);
void alloc_constraints_remove(cclaim *cc, const rdata *rd, const adev *d, const char *driver);
void alloc_constraints_free(cclaim *cc);

/* alloc_result.c */
int alloc_build_results(acall *c, arena *ar, k8s_allocation *out);
/* Would alloc_build_results succeed without a trace (no share ID drawn, no
 * node selector that can fail)? Then a status-only call may skip it. */
bool alloc_results_traceless(const acall *c);
/* Index of `node` in the array of allocator_set_nodes, or SIZE_MAX. */
static inline size_t alloc_node_index(const allocator *A, const k8s_node *node) {   /* inline: ~650,000 calls per 100,000 pods */
    uintptr_t np = (uintptr_t)node, nb = (uintptr_t)A->node_base;
    if (A->nnode_base && np >= nb && np - nb < A->nnode_base * sizeof(k8s_node) && (np - nb) % sizeof(k8s_node) == 0)
        return (np - nb) / sizeof(k8s_node);
    return SIZE_MAX;
}
/* Device `uid` changed hands (taken or given back): the quick answer of its node is stale. */
static inline void alloc_qnode_touch(allocator *A, uint32_t uid) {
    if (A->uid_qnode && A->uid_qnode[uid]) A->qnode[A->uid_qnode[uid] - 1].valid = false;
}
/* Plain device `uid` was taken (uid_allocated 0 -> 1: delta -1) or given
 * back (1 -> 0: +1). Its node's quick answer counts the usable devices
 * among those it remembered (uid_allocated 0), nothing else of them
 * changed: the count follows, and the answer stays valid (issue 31: a
 * Filter after every bind and every pod's end otherwise recounted). */
static inline void alloc_qnode_count(allocator *A, uint32_t uid, int delta) {
    if (!A->uid_qnode || !A->uid_qnode[uid]) return;
    struct alloc_qnode *q = &A->qnode[A->uid_qnode[uid] - 1];
    int u = (int)q->usable + delta;
    if (A->uid_qgen[uid] != q->gen || u < 0 || u > ALLOC_RESULTS_MAX) q->valid = false;   /* an earlier answer's: recount */
    else q->usable = (uint8_t)u;
}
/* A device of pool `pool` was taken or given back: the pool's counter
 * availability must be recomputed. */
static inline void alloc_counters_stale(allocator *A, const char *pool) {
    uint32_t ci;
    if (A->counters.len && pmap_get(&A->counters_map, intern(pool), NULL, NULL, &ci))
        A->counters.data[ci]->avail_ready = false;
}
/* alloc_counters_stale of device `uid`'s pool; its name is read only when
 * some pool has counters (issue 31: a cache miss per device otherwise). */
static inline void alloc_uid_counters_stale(allocator *A, uint32_t uid) {
    if (A->counters.len) alloc_counters_stale(A, A->uids.data[uid].pool);
}
/* Dedicated device `uid` is taken (allocator_commit's plain result). */
static inline void alloc_uid_take(allocator *A, uint32_t uid) {
    if (!A->uid_allocated[uid]) {
        A->uid_allocated[uid] = 1;
        alloc_qnode_count(A, uid, -1);
    }
}
/* alloc_taints.c: device `dev`'s taints now (those set while a run goes, else its slice's). */
const k8s_taint *alloc_device_taints(const allocator *A, uint32_t dev, size_t *n);
void alloc_taints_free(allocator *A);

/* alloc_search.c helpers used elsewhere */
const char *alloc_claim_name(const k8s_resource_claim *claim, char *buf, size_t n);

#endif
