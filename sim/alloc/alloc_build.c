/*
 * alloc_build.c -- building the snapshot index (allocator_new), the pointer
 * map it uses, class lookup and the CEL cache.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_internal.h"
#include "util/intern.h"
#include "util/xalloc.h"

/* ---- pmap -------------------------------------------------------------------- */

static size_t phash(const void *k1, const void *k2, const void *k3) {
    uint64_t h = (uint64_t)(uintptr_t)k1 * 0x9E3779B97F4A7C15ULL;
    h ^= (uint64_t)(uintptr_t)k2 * 0xC2B2AE3D27D4EB4FULL;
    h ^= (uint64_t)(uintptr_t)k3 * 0x165667B19E3779F9ULL;
    h ^= h >> 29;
    return (size_t)h;
}

bool pmap_get(const pmap *m, const void *k1, const void *k2, const void *k3, uint32_t *val) {
    if (!m->cap) return false;
    for (size_t i = phash(k1, k2, k3) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        const pmap_entry *e = &m->e[i];
        if (!e->used) return false;
        if (e->k1 == k1 && e->k2 == k2 && e->k3 == k3) {
            *val = e->val;
            return true;
        }
    }
}

void pmap_put(pmap *m, const void *k1, const void *k2, const void *k3, uint32_t val) {
    if ((m->len + 1) * 2 > m->cap) {
        pmap old = *m;
        m->cap = old.cap ? old.cap * 2 : 64;
        m->e = xcalloc(m->cap, sizeof *m->e);
        m->len = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.e[i].used) pmap_put(m, old.e[i].k1, old.e[i].k2, old.e[i].k3, old.e[i].val);
        free(old.e);
    }
    size_t i = phash(k1, k2, k3) & (m->cap - 1);
    while (m->e[i].used && !(m->e[i].k1 == k1 && m->e[i].k2 == k2 && m->e[i].k3 == k3)) i = (i + 1) & (m->cap - 1);
    if (!m->e[i].used) m->len++;
    m->e[i] = (pmap_entry){k1, k2, k3, val, true};
}

void pmap_free(pmap *m) {
    free(m->e);
    memset(m, 0, sizeof *m);
}

/* ---- snapshot ---------------------------------------------------------------------- */

/* Device uids are numbered in order of first sight of (driver, pool, name).
 * The name -> uid tables are per pool (a few hundred devices each) rather
 * than one table over every device of the cluster: smaller, and lookups stay
 * in cache. */
static size_t name_hash(const char *name) {
    uint64_t h = (uint64_t)(uintptr_t)name * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h ^ h >> 29);
}

/* Slot of interned name `dev` in pool g's table: its uid + 1, or 0 where it would go. */
static uint32_t *utab_slot(const allocator *A, const agpool *g, const char *dev) {
    for (size_t i = name_hash(dev) & (g->ucap - 1);; i = (i + 1) & (g->ucap - 1)) {
        uint32_t *e = &g->utab[i];
        if (!*e || A->uids.data[*e - 1].device == dev) return e;
    }
}

bool alloc_uid_find(const allocator *A, const char *driver, const char *pool, const char *dev, uint32_t *uid) {
    uint32_t gp;
    struct alloc_memo *m = A->memo;
    if (m->driver == driver && m->pool == pool && driver) {
        gp = m->gpool;
    } else {
        if (!pmap_get(&A->gpool_map, driver, pool, NULL, &gp)) return false;
        m->driver = driver, m->pool = pool, m->gpool = gp;
    }
    const agpool *g = &A->gpools.data[gp];
    for (uint32_t i = 0; i < g->usmall; i++)   /* a small pool with consecutive uids: a scan, no table */
        if (A->uids.data[g->ulo + i].device == dev) {
            *uid = g->ulo + i;
            return true;
        }
    if (g->usmall) return false;
    if (!g->ucap) return false;
    uint32_t e = *utab_slot(A, g, dev);
    if (!e) return false;
    *uid = e - 1;
    return true;
}

/* alloc_uid_find for strings that may not be interned: the pointers as
 * given first (results and slices carry interned strings, and a hit on the
 * interned keys is the answer interning would give), then interned. */
bool alloc_uid_lookup(const allocator *A, const char *driver, const char *pool, const char *dev, uint32_t *uid) {
    return alloc_uid_find(A, driver, pool, dev, uid) || alloc_uid_find(A, intern(driver), intern(pool), intern(dev), uid);
}

static uint32_t uid_of(allocator *A, agpool *g, const char *dev) {
    if (2 * (g->ulen + 1) > g->ucap) {   /* load factor under 1/2 */
        uint32_t *old = g->utab, oldcap = g->ucap;
        g->ucap = oldcap ? oldcap * 2 : 16;
        g->utab = xcalloc(g->ucap, sizeof *g->utab);
        for (uint32_t i = 0; i < oldcap; i++)
            if (old[i]) *utab_slot(A, g, A->uids.data[old[i] - 1].device) = old[i];
        free(old);
    }
    uint32_t *e = utab_slot(A, g, dev);
    if (*e) return *e - 1;
    uint32_t u = (uint32_t)A->uids.len;
    VEC_PUSH(A->uids, ((alloc_device_id){g->driver, g->pool, dev}));
    *e = u + 1;
    g->ulen++;
    return u;
}

static void index_slice(allocator *A, k8s_resource_slice *s) {
    uint32_t si = (uint32_t)A->slices.len;
    aslice as = {.s = s, .first = (uint32_t)A->devs.len, .n = (uint32_t)s->ndevices};
    uint32_t gp;
    if (!pmap_get(&A->gpool_map, s->driver, s->pool, NULL, &gp)) {
        gp = (uint32_t)A->gpools.len;
        agpool p = {.driver = s->driver, .pool = s->pool};
        VEC_PUSH(A->gpools, p);
        pmap_put(&A->gpool_map, s->driver, s->pool, NULL, gp);
    }
    VEC_RESERVE(A->devs, A->devs.len + s->ndevices);
    for (size_t i = 0; i < s->ndevices; i++) {
        const k8s_device *d = &s->devices[i];
        VEC_PUSH(A->devs, ((adev){d, si, uid_of(A, &A->gpools.data[gp], d->name)}));
        if (d->nbinding_conditions) as.binding = true;
    }
    VEC_PUSH(A->gpools.data[gp].slices, si);
    as.gpool = gp;
    VEC_PUSH(A->slices, as);
    /* 1.36: node-local slices without counter sets are indexed by node;
     * counters-only slices are relevant to every node (pools_incubating.go). */
    if (s->nshared_counters && !s->ndevices) {
        VEC_PUSH(A->counter_slices, si);
    } else if (s->node_name && !s->nshared_counters) {
        uint32_t ni;
        if (!pmap_get(&A->node_map, s->node_name, NULL, NULL, &ni)) {
            ni = (uint32_t)A->node_slices.len;
            u32vec *v = xcalloc(1, sizeof *v);
            VEC_PUSH(A->node_slices, v);
            pmap_put(&A->node_map, s->node_name, NULL, NULL, ni);
        }
        VEC_PUSH(*A->node_slices.data[ni], si);
    } else {
        VEC_PUSH(A->shared_slices, si);
    }
}

static void add_consumed(allocator *A, const alloc_consumed *c);

static void mark_uid(allocator *A, const alloc_device_id *id, uint8_t *set) {
    uint32_t u;
    if (alloc_uid_lookup(A, id->driver, id->pool, id->device, &u)) set[u] = 1;
}

/* The uid of result r when the last call built it (and it still names that
 * device); else a lookup by name. */
static bool result_uid(const allocator *A, const k8s_device_result *r, uint32_t *u) {
    for (size_t i = 0; i < A->built.len; i++) {
        if (A->built.data[i].r != r) continue;
        const adev *d = &A->devs.data[A->built.data[i].dev];
        const alloc_device_id *id = &A->uids.data[d->uid];   /* what the result was built from */
        if (r->device != id->device || r->pool != id->pool || r->driver != id->driver) break;
        *u = d->uid;
        return true;
    }
    return alloc_uid_lookup(A, r->driver, r->pool, r->device, u);
}

bool allocator_result_uid(const allocator *A, const k8s_device_result *r, uint32_t *uid) { return result_uid(A, r, uid); }

bool allocator_device_uid(const allocator *A, const char *driver, const char *pool, const char *device, uint32_t *uid) {
    return alloc_uid_lookup(A, driver, pool, device, uid);
}

const alloc_device_id *allocator_uid_device(const allocator *A, uint32_t uid) { return &A->uids.data[uid]; }

const k8s_device *allocator_uid_first_device(const allocator *A, uint32_t uid) { return A->devs.data[A->uid_first[uid]].d; }

allocator *allocator_new(const alloc_features *f, k8s_resource_slice *const *slices, size_t nslices,
                         k8s_device_class *const *classes, size_t nclasses, const alloc_state *state,
                         uint64_t seed) {
    allocator *A = xcalloc(1, sizeof *A);
    A->f = *f;
    A->celopts.consumable_capacity = f->consumable_capacity;
    A->celopts.list_attributes = f->list_type_attributes;
    A->celopts.device_env = true;
    A->seed = seed;
    for (size_t i = 0; i < nslices; i++) index_slice(A, slices[i]);
    /* pools whose uids are consecutive and few are looked up by a scan (alloc_uid_find) */
    for (size_t i = 0; i < A->gpools.len; i++) {
        agpool *g = &A->gpools.data[i];
        uint32_t lo = UINT32_MAX, hi = 0;
        for (size_t k = 0; k < g->slices.len; k++) {
            const aslice *as = &A->slices.data[g->slices.data[k]];
            for (uint32_t d = 0; d < as->n; d++) {
                uint32_t u = A->devs.data[as->first + d].uid;
                lo = u < lo ? u : lo;
                hi = u > hi ? u : hi;
            }
        }
        if (g->ulen && g->ulen <= 16 && hi - lo + 1 == g->ulen) g->ulo = lo, g->usmall = g->ulen;
    }
    A->gpool_stamp = xcalloc(A->gpools.len ? A->gpools.len : 1, sizeof *A->gpool_stamp);
    A->gpool_slot = xcalloc(A->gpools.len ? A->gpools.len : 1, sizeof *A->gpool_slot);
    A->classes = classes;
    for (size_t i = 0; i < nclasses; i++) pmap_put(&A->class_map, classes[i]->meta.name, NULL, NULL, (uint32_t)i);
    size_t nu = A->uids.len ? A->uids.len : 1;
    A->uid_allocated = xcalloc(nu, 1);
    A->uid_shared = xcalloc(nu, 1);
    A->uid_stamp = xcalloc(nu, sizeof *A->uid_stamp);
    A->uid_first = xmalloc(nu * sizeof *A->uid_first);
    for (size_t i = A->devs.len; i-- > 0;) A->uid_first[A->devs.data[i].uid] = (uint32_t)i;
    A->dev_ctr = xmalloc((A->devs.len ? A->devs.len : 1) * sizeof *A->dev_ctr);
    A->dev_flags = xcalloc(A->devs.len ? A->devs.len : 1, 1);
    for (size_t i = 0; i < A->devs.len; i++) {
        const adev *d = &A->devs.data[i];
        uint8_t f = (uint8_t)((d->d->nbinding_conditions ? DEV_BINDING : 0) |
                              (A->slices.data[d->slice].s->per_device_node_selection ? DEV_NODE_SEL : 0) |
                              (d->d->nconsumes ? DEV_CONSUMES : 0) | (d->d->allow_multiple ? DEV_MULTI : 0) |
                              (d->d->ntaints ? DEV_TAINTS : 0) | (d->d->binds_to_node ? DEV_BINDS_NODE : 0));
        for (size_t k = 0; k < d->d->ncaps; k++)
            if (d->d->caps[k].has_policy) f |= DEV_CAP_POLICY;
        const k8s_resource_slice *s = A->slices.data[d->slice].s;
        if (s->node_name && !s->per_device_node_selection) f |= DEV_SLICE_NODE;
        A->dev_flags[i] = f;
    }
    A->memo = xcalloc(1, sizeof *A->memo);
    A->spare = xcalloc(1, sizeof *A->spare);
    A->metadata_name = intern("metadata.name");
    for (size_t i = 0; i < A->devs.len; i++) A->dev_ctr[i] = -1;
    if (state) {
        for (size_t i = 0; i < state->nallocated; i++) mark_uid(A, &state->allocated[i], A->uid_allocated);
        for (size_t i = 0; i < state->nshared; i++) mark_uid(A, &state->shared[i], A->uid_shared);
        for (size_t i = 0; i < state->nconsumed; i++) add_consumed(A, &state->consumed[i]);
    }
    return A;
}

void allocator_commit(allocator *A, const k8s_allocation *al) {
    for (size_t i = 0; i < al->nresults; i++) {
        const k8s_device_result *r = &al->results[i];
        if (r->admin_access) continue;
        alloc_device_id id = {r->driver, r->pool, r->device};
        bool shared = r->share_id && A->f.consumable_capacity;   /* as alloc_state_add_claim */
        uint32_t u;
        if (result_uid(A, r, &u)) {
            if (shared) {
                A->uid_shared[u] = 1;
                alloc_qnode_touch(A, u);
            } else {
                alloc_uid_take(A, u);
            }
        }
        for (size_t k = 0; shared && k < r->nconsumed; k++)
            add_consumed(A, &(alloc_consumed){id, r->consumed[k].qname, r->consumed[k].value});
        alloc_counters_stale(A, r->pool);
    }
}

/* Sum capacity consumed by shares into the per-(device, capacity) aggregate. */
static void add_consumed(allocator *A, const alloc_consumed *c) {
    uint32_t u;
    if (!alloc_uid_lookup(A, c->id.driver, c->id.pool, c->id.device, &u)) return;
    A->uid_shared[u] |= 2;
    alloc_qnode_touch(A, u);
    const char *cap = intern(c->capacity);
    uint32_t k;
    if (pmap_get(&A->consumed_map, (void *)(uintptr_t)(u + 1), cap, NULL, &k)) {
        alloc_consumed *e = &A->consumed.data[k];
        quantity_add(&e->value, &c->value, &e->value);
        return;
    }
    alloc_consumed copy = *c;
    copy.capacity = cap;
    pmap_put(&A->consumed_map, (void *)(uintptr_t)(u + 1), cap, NULL, (uint32_t)A->consumed.len);
    VEC_PUSH(A->consumed, copy);
    VEC_PUSH(A->consumed_uid, u);
}

void allocator_free(allocator *A) {
    if (!A) return;
    for (size_t i = 0; i < A->node_slices.len; i++) {
        VEC_FREE(*A->node_slices.data[i]);
        free(A->node_slices.data[i]);
    }
    VEC_FREE(A->node_slices);
    for (size_t i = 0; i < A->gpools.len; i++) {
        VEC_FREE(A->gpools.data[i].slices);
        VEC_FREE(A->gpools.data[i].vc_key);
        free(A->gpools.data[i].utab);
    }
    VEC_FREE(A->gpools);
    for (size_t i = 0; i < A->cel.len; i++) {
        cel_program_free(A->cel.data[i].prog);
        free(A->cel.data[i].error);
        free(A->cel.data[i].verdict);
    }
    VEC_FREE(A->cel);
    for (size_t i = 0; i < A->counters.len; i++) alloc_ccounters_free(A->counters.data[i]);
    for (size_t i = 0; i < A->gathered.len; i++) alloc_gathered_free(A->gathered.data[i]);
    VEC_FREE(A->gathered);
    for (size_t i = 0; i < A->combos.len; i++) free(A->combos.data[i]);
    VEC_FREE(A->combos);
    pmap_free(&A->combo_map);
    pmap_free(&A->gather_map);
    VEC_FREE(A->counters);
    VEC_FREE(A->slices);
    VEC_FREE(A->devs);
    VEC_FREE(A->uids);
    VEC_FREE(A->shared_slices);
    VEC_FREE(A->counter_slices);
    VEC_FREE(A->remote_bad);
    if (A->remote) alloc_gathered_free(A->remote);
    free(A->gpool_stamp);
    free(A->gpool_slot);
    VEC_FREE(A->consumed);
    VEC_FREE(A->consumed_uid);
    free(A->uid_allocated);
    free(A->qnode);
    free(A->uid_qnode);
    free(A->uid_qgen);
    free(A->uid_shared);
    free(A->uid_stamp);
    free(A->uid_first);
    free(A->dev_ctr);
    free(A->dev_flags);
    alloc_taints_free(A);
    free(A->node_gi);
    free(A->node_sel);
    VEC_FREE(A->built);
    free(A->memo);
    arena_free(&A->call_mem);
    VEC_FREE(A->spare->cstates);
    VEC_FREE(A->spare->results);
    VEC_FREE(A->spare->leaked);
    VEC_FREE(A->spare->allocating);
    VEC_FREE(A->spare->capvals);
    VEC_FREE(A->spare->gpools);
    VEC_FREE(A->spare->gcands);
    free(A->spare);
    VEC_FREE(A->ctr_idx);
    pmap_free(&A->node_map);
    pmap_free(&A->gpool_map);
    pmap_free(&A->class_map);
    pmap_free(&A->cel_map);
    pmap_free(&A->counters_map);
    pmap_free(&A->consumed_map);
    free(A);
}

void allocator_set_step_limit(allocator *A, uint64_t steps) { A->step_limit = steps; }

/* Integer arithmetic: the pointer may point anywhere. */
void allocator_set_nodes(allocator *A, const k8s_node *nodes, size_t n) {
    free(A->node_gi);
    free(A->node_sel);
    A->node_sel = NULL;
    A->node_base = nodes;
    A->nnode_base = nodes ? n : 0;
    A->node_gi = xmalloc((n ? n : 1) * sizeof *A->node_gi);
    for (size_t i = 0; i < n; i++) A->node_gi[i] = UINT32_MAX;
    free(A->qnode);
    free(A->uid_qnode);
    free(A->uid_qgen);
    A->qnode = xcalloc(n ? n : 1, sizeof *A->qnode);
    A->uid_qnode = xcalloc(A->uids.len ? A->uids.len : 1, sizeof *A->uid_qnode);
    A->uid_qgen = xcalloc(A->uids.len ? A->uids.len : 1, sizeof *A->uid_qgen);
}

const k8s_device *allocator_find_device(const allocator *A, const char *driver, const char *pool, const char *device) {
    uint32_t u;
    for (size_t i = 0; i < A->built.len; i++) {   /* a device the last call allocated (no name lookup) */
        const adev *d = &A->devs.data[A->built.data[i].dev];
        const alloc_device_id *id = &A->uids.data[d->uid];
        if (id->device == device && id->pool == pool && id->driver == driver)
            return A->devs.data[A->uid_first[d->uid]].d;
    }
    if (!alloc_uid_lookup(A, driver, pool, device, &u)) return NULL;
    return A->devs.data[A->uid_first[u]].d;
}

uint8_t *alloc_selector_combo(allocator *A, const k8s_device_class *cls, const char *const *sel, size_t nsel) {
    /* keyed by the class and the interned expressions (equal strings = equal
     * pointers): up to one selector the pointers themselves (k3 = 1 marks
     * that form; a class pointer is never an interned string), else one
     * interned string listing them all */
    uint32_t i;
    if (nsel <= 1) {
        const void *k2 = nsel ? sel[0] : NULL, *k3 = (const void *)(uintptr_t)1;
        if (pmap_get(&A->combo_map, cls, k2, k3, &i)) return A->combos.data[i];
        uint8_t *v = xcalloc(A->devs.len ? A->devs.len : 1, 1);
        pmap_put(&A->combo_map, cls, k2, k3, (uint32_t)A->combos.len);
        VEC_PUSH(A->combos, v);
        return v;
    }
    strbuf key = {0};
    sb_printf(&key, "%p", (const void *)cls);
    for (size_t j = 0; j < nsel; j++) sb_printf(&key, ",%p", (const void *)sel[j]);
    const char *k = intern(sb_str(&key));
    sb_free(&key);
    if (pmap_get(&A->combo_map, k, NULL, NULL, &i)) return A->combos.data[i];
    uint8_t *v = xcalloc(A->devs.len ? A->devs.len : 1, 1);
    pmap_put(&A->combo_map, k, NULL, NULL, (uint32_t)A->combos.len);
    VEC_PUSH(A->combos, v);
    return v;
}

const k8s_device_class *alloc_find_class(const allocator *A, const char *name) {
    uint32_t i;
    if (!pmap_get(&A->class_map, name, NULL, NULL, &i)) return NULL;
    return A->classes[i];
}

/* Compile on first use; failures are cached too (the message is reported
 * each time the expression is needed, as upstream re-reports it). */
cel_entry *alloc_cel_get(allocator *A, const char *expr) {
    uint32_t i;
    if (pmap_get(&A->cel_map, expr, NULL, NULL, &i)) return &A->cel.data[i];
    strbuf err = {0};
    cel_entry e = {0};
    e.prog = cel_compile(expr, strlen(expr), &A->celopts, &err);
    if (!e.prog) e.error = xstrdup(err.len ? sb_str(&err) : "compilation failed");
    else e.verdict = xcalloc(A->devs.len ? A->devs.len : 1, 1);
    sb_free(&err);
    i = (uint32_t)A->cel.len;
    VEC_PUSH(A->cel, e);
    pmap_put(&A->cel_map, expr, NULL, NULL, i);
    return &A->cel.data[i];
}

const alloc_consumed *alloc_aggregated(const allocator *A, uint32_t uid, const char *cap) {
    uint32_t k;
    if (!pmap_get(&A->consumed_map, (void *)(uintptr_t)(uid + 1), cap, NULL, &k)) return NULL;
    return &A->consumed.data[k];
}
