/*
 * dra_records.c -- what each scheduled pod's claims got, kept compact (issue
 * 31): records stay until the results are written, so a device result is 4
 * bytes (the device's uid in the allocator, the request's name by index)
 * instead of a k8s_device_result and its allocation's node selector. The
 * rare results with more (a share's ID and consumed capacity, tolerations,
 * admin access, binding conditions) are kept whole in a side table.
 * dra_record_allocation gives a record's allocation back as the allocator
 * made it, so readers never depend on this layout.
 */
#include <stdlib.h>

#include "sched/dra/dra_internal.h"
#include "util/xalloc.h"

/* dra_record_allocation's buffer (its results grow to the largest record). */
struct dra_view {
    k8s_allocation al;
    k8s_device_result *res;
    size_t cap;
};

static size_t ptr_hash(const void *p, size_t cap) {
    uint64_t x = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ULL;
    return (size_t)(x >> 32) & (cap - 1);
}

/* The index of request name `name` (interned) in d->req_names, added when new. */
static uint32_t req_index(dra_state *d, const char *name) {
    if (2 * (d->req_names.len + 1) > d->req_cap) {   /* load factor under 1/2 */
        free(d->req_tab);
        d->req_cap = d->req_cap ? 2 * d->req_cap : 64;
        d->req_tab = xcalloc(d->req_cap, sizeof *d->req_tab);
        for (size_t i = 0; i < d->req_names.len; i++) {
            size_t h = ptr_hash(d->req_names.data[i], d->req_cap);
            while (d->req_tab[h]) h = (h + 1) & (d->req_cap - 1);
            d->req_tab[h] = (uint32_t)i + 1;
        }
    }
    size_t h = ptr_hash(name, d->req_cap);
    for (; d->req_tab[h]; h = (h + 1) & (d->req_cap - 1))
        if (d->req_names.data[d->req_tab[h] - 1] == name) return d->req_tab[h] - 1;
    VEC_PUSH(d->req_names, name);
    d->req_tab[h] = (uint32_t)d->req_names.len;
    return (uint32_t)d->req_names.len - 1;
}

static bool is_rare(const k8s_device_result *r) {
    return r->admin_access || r->ntolerations || r->nbinding_conditions || r->nbinding_failure_conditions ||
           r->share_id || r->nconsumed;
}

/* Record r's pod gets its first record (the next one) when it has none live. */
static void note_pod_first(dra_state *d, const dra_record *r) {
    while (d->pod_first.len <= r->pod) VEC_PUSH(d->pod_first, 0);
    uint32_t *first = &d->pod_first.data[r->pod];
    /* a pod reserved again (a gang rejected at Permit, engine/sim_gang.c): its records are the new ones */
    if (!*first || d->records.data[*first - 1].deleted) *first = (uint32_t)d->records.len + 1;
}

/* Result x (device uid `uid`, found in the allocator) as one word, or kept
 * whole in the side table when it has more than request and device or its
 * uid or request index does not fit the word. */
static void push_result(dra_state *d, const k8s_device_result *x, bool found, uint32_t uid) {
    uint32_t req = found && !is_rare(x) && uid < (1u << 24) ? req_index(d, x->request) : DRA_RESULT_RARE;
    if (req < DRA_RESULT_RARE) {
        VEC_PUSH(d->results, uid << 8 | req);
        return;
    }
    /* kept whole; its arrays outlive the call's arena (consumed is the call's own) */
    dra_rare e = {(uint32_t)d->results.len, *x};
    if (x->nconsumed) e.r.consumed = arena_memdup(&d->keep, x->consumed, x->nconsumed * sizeof *x->consumed);
    VEC_PUSH(d->rare, e);
    VEC_PUSH(d->results, DRA_RESULT_RARE);
}

void dra_add_record_uids(dra_state *d, const dra_record *r, const uint32_t *uids, size_t n, const char *request) {
    note_pod_first(d, r);
    dra_record rec = *r;
    rec.first = (uint32_t)d->results.len;
    rec.nresults = (uint16_t)n;
    uint32_t req = req_index(d, request);
    for (size_t k = 0; k < n; k++) {
        if (uids[k] < (1u << 24) && req < DRA_RESULT_RARE) {
            VEC_PUSH(d->results, uids[k] << 8 | req);
            continue;
        }
        const alloc_device_id *id = allocator_uid_device(d->A, uids[k]);
        k8s_device_result x = {.request = request, .driver = id->driver, .pool = id->pool, .device = id->device};
        push_result(d, &x, true, uids[k]);
    }
    VEC_PUSH(d->records, rec);
}

void dra_add_record(dra_state *d, const dra_record *r, const k8s_allocation *al, const uint32_t *uids) {
    note_pod_first(d, r);
    dra_record rec = *r;
    rec.first = (uint32_t)d->results.len;
    rec.nresults = (uint16_t)al->nresults;
    for (size_t k = 0; k < al->nresults; k++) {
        const k8s_device_result *x = &al->results[k];
        uint32_t uid = UINT32_MAX;
        bool found = uids ? (uid = uids[k], true) : allocator_result_uid(d->A, x, &uid);
        push_result(d, x, found, uid);
    }
    VEC_PUSH(d->records, rec);
}

/* The side-table entry of result `at` (entries are in result order). */
static const k8s_device_result *rare_result(const dra_state *d, uint32_t at) {
    size_t lo = 0, hi = d->rare.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->rare.data[mid].at < at) lo = mid + 1;
        else hi = mid;
    }
    return &d->rare.data[lo].r;
}

const k8s_allocation *dra_record_allocation(const dra_state *d, const dra_record *r) {
    struct dra_view *v = d->view;
    if (v->cap < r->nresults) {
        v->cap = r->nresults > 2 * v->cap ? r->nresults : 2 * v->cap;
        v->res = xrealloc(v->res, v->cap * sizeof *v->res);
    }
    for (uint32_t k = 0; k < r->nresults; k++) {
        dra_result x = d->results.data[r->first + k];
        if (DRA_RESULT_REQ(x) == DRA_RESULT_RARE) {
            v->res[k] = *rare_result(d, r->first + k);
            continue;
        }
        const alloc_device_id *id = allocator_uid_device(d->A, DRA_RESULT_UID(x));
        v->res[k] = (k8s_device_result){.request = d->req_names.data[DRA_RESULT_REQ(x)], .driver = id->driver,
                                        .pool = id->pool, .device = id->device};
    }
    v->al = (k8s_allocation){.results = v->res, .nresults = r->nresults};
    return &v->al;
}

size_t dra_record_words(const dra_state *d, const dra_record *r, const uint32_t **words) {
    _Static_assert(sizeof(dra_result) == sizeof(uint32_t), "dra_result is one word");
    *words = NULL;
    if (!r->nresults) return 0;
    const dra_result *x = &d->results.data[r->first];
    for (uint32_t k = 0; k < r->nresults; k++)
        if (DRA_RESULT_REQ(x[k]) == DRA_RESULT_RARE) return 0;
    *words = x;
    return r->nresults;
}

void dra_records_init(dra_state *d) { d->view = xcalloc(1, sizeof *d->view); }

void dra_records_free(dra_state *d) {
    if (d->view) free(d->view->res);
    free(d->view);
    free(d->req_tab);
    VEC_FREE(d->records);
    VEC_FREE(d->results);
    VEC_FREE(d->rare);
    VEC_FREE(d->req_names);
    VEC_FREE(d->pod_first);
}

const dra_record *dra_pod_records(const dra_state *d, uint32_t pod, size_t *n) {
    *n = 0;
    if (pod >= d->pod_first.len || !d->pod_first.data[pod]) return NULL;
    size_t first = d->pod_first.data[pod] - 1;
    while (first + *n < d->records.len && d->records.data[first + *n].pod == pod) (*n)++;
    return &d->records.data[first];
}

void dra_prefetch_pod(const dra_state *d, uint32_t pod, int stage) {
    if (pod >= d->pod_first.len) return;
    if (stage == 1) {
        __builtin_prefetch(&d->pod_first.data[pod]);
        return;
    }
    uint32_t first = d->pod_first.data[pod];
    if (first && first <= d->records.len) __builtin_prefetch(&d->records.data[first - 1]);
}

bool dra_device_in_use(const dra_state *d, const char *driver, const char *pool, const char *device) {
    uint32_t uid;
    if (!allocator_device_uid(d->A, driver, pool, device, &uid)) return false;
    for (size_t i = 0; i < d->records.len; i++) {
        const dra_record *r = &d->records.data[i];
        if (r->deleted) continue;
        for (uint32_t k = 0; k < r->nresults; k++) {
            dra_result x = d->results.data[r->first + k];
            uint32_t u;
            if (DRA_RESULT_REQ(x) != DRA_RESULT_RARE ? DRA_RESULT_UID(x) == uid
                                                     : allocator_result_uid(d->A, rare_result(d, r->first + k), &u) &&
                                                           u == uid)
                return true;
        }
    }
    return false;
}
