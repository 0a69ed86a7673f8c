/*
 * alloc_pools.c -- which slices and pools a node sees (upstream
 * pools_incubating.go, v1.36): node scoping, highest generation per pool,
 * incomplete / obsolete / invalid pools, slice and pool ordering, and the
 * flat candidate list in search order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_internal.h"
#include "util/intern.h"

static const char *node_label(const k8s_node *node, const char *key) {
    for (size_t i = 0; i < node->meta.nlabels; i++)
        if (node->meta.labels[i].key == key) return node->meta.labels[i].value;
    return NULL;
}

static bool in_values(const k8s_selector_req *r, const char *v) {
    for (size_t i = 0; i < r->nvalues; i++)
        if (r->values[i] == v) return true;
    return false;
}

static int parse_i64(const char *s, int64_t *out) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || errno) return -1;
    *out = v;
    return 0;
}

/* One label requirement (node-affinity semantics). */
static int label_req_matches(const k8s_node *node, const k8s_selector_req *r, bool *m, strbuf *err) {
    const char *v = node_label(node, r->key);
    switch (r->op) {
    case SEL_OP_IN: *m = v && in_values(r, v); break;
    case SEL_OP_NOT_IN: *m = !v || !in_values(r, v); break;
    case SEL_OP_EXISTS: *m = v != NULL; break;
    case SEL_OP_DOES_NOT_EXIST: *m = v == NULL; break;
    case SEL_OP_GT:
    case SEL_OP_LT: {
        int64_t want, have;
        if (r->nvalues != 1 || parse_i64(r->values[0], &want)) {
            sb_clear(err);
            sb_printf(err, "node selector requirement on '%s': %s needs exactly one integer value", r->key,
                      r->op == SEL_OP_GT ? "Gt" : "Lt");
            return -1;
        }
        *m = v && !parse_i64(v, &have) && (r->op == SEL_OP_GT ? have > want : have < want);
        break;
    }
    }
    return 0;
}

int alloc_node_matches(const k8s_node *node, const char *node_name, bool all_nodes, bool has_sel,
                       const k8s_node_selector *sel, bool *match, strbuf *err) {
    *match = false;
    if (node_name) {
        *match = node && node_name == node->meta.name;
        return 0;
    }
    if (all_nodes) {
        *match = true;
        return 0;
    }
    if (!has_sel || !node) return 0;
    for (size_t t = 0; t < sel->nterms; t++) {
        const k8s_selector_term *term = &sel->terms[t];
        if (!term->nmatch_expressions && !term->nmatch_fields) continue;   /* an empty term matches nothing */
        bool ok = true;
        for (size_t i = 0; i < term->nmatch_expressions && ok; i++)
            if (label_req_matches(node, &term->match_expressions[i], &ok, err)) return -1;
        for (size_t i = 0; i < term->nmatch_fields && ok; i++) {
            const k8s_selector_req *r = &term->match_fields[i];
            bool in = in_values(r, node->meta.name);
            ok = r->op == SEL_OP_IN ? in : !in;
        }
        if (ok) {
            *match = true;
            return 0;
        }
    }
    return 0;
}

/* Is a slice relevant for the node? (-1 on selector errors) */
static int slice_relevant(acall *c, const k8s_resource_slice *s, bool *rel) {
    *rel = false;
    if (!c->A->f.partitionable_devices && (s->has_per_device_node_selection || s->nshared_counters)) return 0;
    if (s->nshared_counters && !s->ndevices) {   /* a combined (1.34) slice is scoped like any other */
        *rel = true;
        return 0;
    }
    if (s->node_name || s->all_nodes || s->has_node_selector)
        return alloc_node_matches(c->node, s->node_name, s->all_nodes, s->has_node_selector, &s->node_selector, rel,
                                  c->err);
    if (s->per_device_node_selection) {
        for (size_t i = 0; i < s->ndevices; i++) {
            const k8s_device *d = &s->devices[i];
            if (alloc_node_matches(c->node, d->node_name, d->all_nodes, d->has_node_selector, &d->node_selector, rel,
                                   c->err))
                return -1;
            if (*rel) return 0;
        }
    }
    return 0;
}

static int cmp_slices_by_name(acall *c, uint32_t a, uint32_t b) {
    return strcmp(c->A->slices.data[a].s->meta.name, c->A->slices.data[b].s->meta.name);
}

/* Stable insertion sort (slice lists are short). */
static void sort_slices(acall *c, u32vec *v) {
    for (size_t i = 1; i < v->len; i++) {
        uint32_t x = v->data[i];
        size_t j = i;
        while (j > 0 && cmp_slices_by_name(c, v->data[j - 1], x) > 0) {
            v->data[j] = v->data[j - 1];
            j--;
        }
        v->data[j] = x;
    }
}

/* Counters are flattened set by set, so one set's counters are contiguous
 * (duplicate set names make the pool invalid before these are used). */
static size_t set_start(const ccounters *cc, size_t n, const char *set) {
    for (size_t x = 0; x < n; x++)
        if (cc->set[x] == set) return x;
    return n;
}

/* Index of counter `name` of the set starting at `first`, or n. The search
 * starts at `*hint` (devices list a set's counters in its order, so the next
 * one is usually there) and leaves it after the counter found. */
static size_t counter_at(const ccounters *cc, size_t n, size_t first, const char *set, const char *name,
                         size_t *hint) {
    size_t x = *hint;
    for (; x < n && cc->set[x] == set; x++)
        if (cc->name[x] == name) return *hint = x + 1, x;
    for (x = first; x < *hint && x < n; x++)
        if (cc->name[x] == name) return *hint = x + 1, x;
    return n;
}

static ccounters *counters_for(acall *c, cpool *p);
static void subtract_allocated(acall *c, const cpool *p, ccounters *cc);

/* Validity checks of a complete pool (buildPool). */
static void validate_pool(acall *c, cpool *p) {
    allocator *A = c->A;
    /* duplicate device names across the device slices */
    uint32_t stamp = ++A->stamp;
    for (size_t i = 0; i < p->slices.len && !p->invalid; i++) {
        const aslice *si = &A->slices.data[p->slices.data[i]];
        for (uint32_t a = 0; a < si->n; a++) {
            uint32_t u = A->devs.data[si->first + a].uid;
            if (A->uid_stamp[u] == stamp) {
                p->invalid = true;
                p->invalid_reason = "duplicate device name";
                break;
            }
            A->uid_stamp[u] = stamp;
        }
    }
    if (p->invalid || !A->f.partitionable_devices) return;
    /* counter sets: unique names in the pool; consumers must reference known sets and counters */
    ccounters *cc = p->ctr = counters_for(c, p);
    if (p->invalid) return;
    size_t ncc = cc ? cc->n : 0;
    for (int pass = 0; pass < 2 && !p->invalid; pass++) {
        const u32vec *list = pass == 0 ? &p->slices : &p->other;
        for (size_t i = 0; i < list->len && !p->invalid; i++) {
            const k8s_resource_slice *s = A->slices.data[list->data[i]].s;
            for (size_t d = 0; d < s->ndevices && !p->invalid; d++) {
                const k8s_device *dev = &s->devices[d];
                for (size_t k = 0; k < dev->nconsumes && !p->invalid; k++) {
                    const k8s_counter_set *cs = &dev->consumes[k];
                    size_t first = set_start(cc, ncc, cs->name);
                    if (first == ncc) {
                        p->invalid = true;
                        p->invalid_reason = "device consumes counters from an unknown counter set";
                        break;
                    }
                    size_t hint = first;
                    for (size_t q = 0; q < cs->ncounters; q++) {
                        if (counter_at(cc, ncc, first, cs->name, cs->counters[q].name, &hint) == ncc) {
                            p->invalid = true;
                            p->invalid_reason = "device consumes an unknown counter";
                            break;
                        }
                    }
                }
            }
        }
    }
}

/* avail = counter set values - what already-allocated devices of the pool
 * consume (dedicated or shared ones, as 1.36.2 counts them). */
static void subtract_allocated(acall *c, const cpool *p, ccounters *cc) {
    allocator *A = c->A;
    memcpy(cc->avail, cc->init, cc->n * sizeof *cc->avail);
    for (int pass = 0; pass < 2; pass++) {
        const u32vec *list = pass == 0 ? &p->slices : &p->other;
        for (size_t i = 0; i < list->len; i++) {
            const aslice *as = &A->slices.data[list->data[i]];
            for (uint32_t d = 0; d < as->n; d++) {
                const adev *ad = &A->devs.data[as->first + d];
                if (!A->uid_allocated[ad->uid] && !A->uid_shared[ad->uid]) continue;
                for (size_t k = 0; k < ad->d->nconsumes; k++) {
                    const k8s_counter_set *cs = &ad->d->consumes[k];
                    /* a set's counter names are unique (a map in the API) */
                    size_t first = set_start(cc, cc->n, cs->name), hint = first;
                    for (size_t q = 0; q < cs->ncounters && first < cc->n; q++) {
                        size_t x = counter_at(cc, cc->n, first, cs->name, cs->counters[q].name, &hint);
                        if (x < cc->n) aq_sub(&cc->avail[x], &cs->counters[q].value);
                    }
                }
            }
        }
    }
    cc->neg = 0;
    for (size_t x = 0; x < cc->n; x++) cc->neg += quantity_sign(&cc->avail[x]) < 0;
    cc->avail_ready = true;
}

/* The pool's counter layout (cached on the allocator by pool name, as
 * upstream caches available counters by pool name). Also flags duplicate
 * counter set names as invalid. */
static ccounters *counters_for(acall *c, cpool *p) {
    allocator *A = c->A;
    VEC(const k8s_counter_set *) sets = {0};
    for (int pass = 0; pass < 2; pass++) {
        const u32vec *list = pass == 0 ? &p->slices : &p->other;
        for (size_t i = 0; i < list->len; i++) {
            const k8s_resource_slice *s = A->slices.data[list->data[i]].s;
            for (size_t k = 0; k < s->nshared_counters; k++) {
                for (size_t j = 0; j < sets.len; j++)
                    if (sets.data[j]->name == s->shared_counters[k].name && sets.data[j] != &s->shared_counters[k]) {
                        p->invalid = true;
                        p->invalid_reason = "duplicate counter set name";
                    }
                VEC_PUSH(sets, &s->shared_counters[k]);
            }
        }
    }
    if (p->invalid || !sets.len) {
        VEC_FREE(sets);
        return NULL;
    }
    uint32_t idx;
    if (pmap_get(&A->counters_map, p->name, NULL, NULL, &idx)) {
        VEC_FREE(sets);
        ccounters *cc = A->counters.data[idx];
        if (!cc->avail_ready) subtract_allocated(c, p, cc);   /* after allocator_commit */
        return cc;
    }
    ccounters *cc = xcalloc(1, sizeof *cc);
    cc->pool = p->name;
    size_t n = 0;
    for (size_t i = 0; i < sets.len; i++) n += sets.data[i]->ncounters;
    cc->set = xcalloc(n ? n : 1, sizeof *cc->set);
    cc->name = xcalloc(n ? n : 1, sizeof *cc->name);
    cc->avail = xcalloc(n ? n : 1, sizeof *cc->avail);
    cc->init = xcalloc(n ? n : 1, sizeof *cc->init);
    cc->scratch = xcalloc(n ? n : 1, sizeof *cc->scratch);
    for (size_t i = 0; i < sets.len; i++)
        for (size_t k = 0; k < sets.data[i]->ncounters; k++) {
            cc->set[cc->n] = sets.data[i]->name;
            cc->name[cc->n] = sets.data[i]->counters[k].name;
            cc->init[cc->n] = sets.data[i]->counters[k].value;
            cc->n++;
        }
    subtract_allocated(c, p, cc);
    cc->avail_ready = true;
    pmap_put(&A->counters_map, p->name, NULL, NULL, (uint32_t)A->counters.len);
    VEC_PUSH(A->counters, cc);
    VEC_FREE(sets);
    return cc;
}

void alloc_ccounters_free(ccounters *cc) {
    if (!cc) return;
    free(cc->set);
    free(cc->name);
    free(cc->avail);
    free(cc->init);
    free(cc->scratch);
    free(cc);
}

static bool same_key(const u32vec *key, const cpool *p) {
    if (key->len != p->slices.len + p->other.len + 1) return false;
    for (size_t i = 0; i < p->slices.len; i++)
        if (key->data[i] != p->slices.data[i]) return false;
    for (size_t i = 0; i < p->other.len; i++)
        if (key->data[p->slices.len + 1 + i] != p->other.data[i]) return false;
    return true;
}

/* validate_pool, remembered per pool for the last slice combination (the
 * checks only depend on the slices, not on the node or the claims). */
static void validate_pool_cached(acall *c, cpool *p) {
    agpool *g = &c->A->gpools.data[c->A->slices.data[p->slices.data[0]].gpool];
    if (g->vc_ok && same_key(&g->vc_key, p)) {
        p->invalid = g->vc_invalid;
        p->invalid_reason = g->vc_reason;
        p->ctr = g->vc_ctr;
        if (p->ctr && !p->ctr->avail_ready) subtract_allocated(c, p, p->ctr);
        return;
    }
    validate_pool(c, p);
    g->vc_key.len = 0;
    for (size_t i = 0; i < p->slices.len; i++) VEC_PUSH(g->vc_key, p->slices.data[i]);
    VEC_PUSH(g->vc_key, UINT32_MAX);
    for (size_t i = 0; i < p->other.len; i++) VEC_PUSH(g->vc_key, p->other.data[i]);
    g->vc_ok = true;
    g->vc_invalid = p->invalid;
    g->vc_reason = p->invalid_reason;
    g->vc_ctr = p->ctr;
}

static int cmp_pools(const cpool *a, const cpool *b) {
    if (a->binding != b->binding) return a->binding ? 1 : -1;
    int r = strcmp(a->driver, b->driver);
    return r ? r : strcmp(a->name, b->name);
}

static int add_relevant(acall *c, uint32_t si) {
    allocator *A = c->A;
    const aslice *as = &A->slices.data[si];
    bool rel;
    if (slice_relevant(c, as->s, &rel)) return -1;
    if (!rel) return 0;
    cpool *p;
    if (A->gpool_stamp[as->gpool] == A->gstamp) {   /* (driver, pool) seen in this gathering */
        p = &c->pools.data[A->gpool_slot[as->gpool]];
    } else {
        cpool np = {.driver = as->s->driver, .name = as->s->pool, .generation = as->s->generation};
        A->gpool_stamp[as->gpool] = A->gstamp;
        A->gpool_slot[as->gpool] = (uint32_t)c->pools.len;
        VEC_PUSH(c->pools, np);
        p = &c->pools.data[c->pools.len - 1];
    }
    if (as->s->generation < p->generation) return 0;
    if (as->s->generation > p->generation) {
        p->slices.len = 0;
        p->generation = as->s->generation;
    }
    VEC_PUSH(p->slices, si);
    return 0;
}

void alloc_gathered_free(gathered *g) {
    for (size_t i = 0; i < g->pools.len; i++) {
        VEC_FREE(g->pools.data[i].slices);
        VEC_FREE(g->pools.data[i].other);
    }
    VEC_FREE(g->pools);
    VEC_FREE(g->cands);
    free(g);
}

static int gather_node(acall *c);
static int gather_remote(allocator *A, strbuf *err);

/* Is pool p (driver, name) one of the call's own pools? */
static bool own_pool(const acall *c, const cpool *p) {
    for (size_t i = 0; i < c->pools.len; i++)
        if (c->pools.data[i].driver == p->driver && c->pools.data[i].name == p->name) return true;
    return false;
}

int alloc_gather_pools(acall *c) {
    allocator *A = c->A;
    uint32_t gi;
    struct alloc_memo *m = A->memo;
    if (m->has_node && m->node == c->node) {   /* the same node as the last call: no map, no entry to read */
        c->pools.data = m->g.pools.data, c->pools.len = m->g.pools.len, c->pools.cap = m->g.pools.cap;
        c->cands.data = m->g.cands.data, c->cands.len = m->g.cands.len, c->cands.cap = m->g.cands.cap;
        c->saw_invalid = m->g.saw_invalid;
        c->borrowed = true;
        goto counters;
    }
    size_t ni = alloc_node_index(A, c->node);
    if (ni != SIZE_MAX && A->node_gi[ni] != UINT32_MAX) {
        gi = A->node_gi[ni];
    } else if (!pmap_get(&A->gather_map, c->node, NULL, NULL, &gi)) {
        /* gathered into the allocator's spare vectors, then kept as exact-size copies for the
         * allocator's life, once per node (issue 31: room for 8 pools where a node has one was
         * 8 MB at 10,000 nodes; shrinking each grown vector with realloc cost bench_alloc +0.5 %) */
        acall_spare *sp = A->spare;
        c->pools.data = sp->gpools.data, c->pools.cap = sp->gpools.cap, c->pools.len = 0;
        c->cands.data = sp->gcands.data, c->cands.cap = sp->gcands.cap, c->cands.len = 0;
        int rc = gather_node(c);
        if (!rc && !A->remote) rc = gather_remote(A, c->err);
        if (rc) {   /* the call owns (and call_free frees) what was gathered, spare vectors included */
            sp->gpools.data = NULL, sp->gpools.cap = sp->gpools.len = 0;
            sp->gcands.data = NULL, sp->gcands.cap = sp->gcands.len = 0;
            return -1;
        }
        /* an invalid pool reached only through counters counts as seen */
        for (size_t i = 0; i < A->remote_bad.len && !c->saw_invalid; i++) {
            const cpool *p = &A->remote->pools.data[A->remote_bad.data[i]];
            if (p->invalid && !own_pool(c, p)) c->saw_invalid = true;
        }
        sp->gpools.data = c->pools.data, sp->gpools.cap = c->pools.cap;   /* grown or not, kept for the next node */
        sp->gcands.data = c->cands.data, sp->gcands.cap = c->cands.cap;
        c->pools.data = c->pools.len ? xmalloc(c->pools.len * sizeof *c->pools.data) : NULL;
        if (c->pools.len) memcpy(c->pools.data, sp->gpools.data, c->pools.len * sizeof *c->pools.data);
        c->pools.cap = c->pools.len;
        c->cands.data = c->cands.len ? xmalloc(c->cands.len * sizeof *c->cands.data) : NULL;
        if (c->cands.len) memcpy(c->cands.data, sp->gcands.data, c->cands.len * sizeof *c->cands.data);
        c->cands.cap = c->cands.len;
        gathered *g = xcalloc(1, sizeof *g);
        g->pools.data = c->pools.data, g->pools.len = c->pools.len, g->pools.cap = c->pools.cap;
        g->cands.data = c->cands.data, g->cands.len = c->cands.len, g->cands.cap = c->cands.cap;
        g->saw_invalid = c->saw_invalid;
        gi = (uint32_t)A->gathered.len;
        VEC_PUSH(A->gathered, g);
        pmap_put(&A->gather_map, c->node, NULL, NULL, gi);
    }
    if (ni != SIZE_MAX) A->node_gi[ni] = gi;
    gathered *g = A->gathered.data[gi];
    m->node = c->node, m->has_node = true, m->g = *g;
    c->pools.data = g->pools.data, c->pools.len = g->pools.len, c->pools.cap = g->pools.cap;
    c->cands.data = g->cands.data, c->cands.len = g->cands.len, c->cands.cap = g->cands.cap;
    c->saw_invalid = g->saw_invalid;
    c->borrowed = true;
counters:
    /* counter availability changes with allocator_commit (no counters anywhere: nothing to do) */
    for (size_t i = 0; i < c->pools.len && A->counters.len; i++) {
        cpool *p = &c->pools.data[i];
        if (p->ctr && !p->ctr->avail_ready) subtract_allocated(c, p, p->ctr);
    }
    return 0;
}

void alloc_bad_pools(const acall *c, cpool_refs *out) {
    out->len = 0;
    for (size_t i = 0; i < c->pools.len; i++)
        if (c->pools.data[i].incomplete || c->pools.data[i].invalid) VEC_PUSH(*out, &c->pools.data[i]);
    const allocator *A = c->A;
    for (size_t i = 0; i < A->remote_bad.len; i++) {
        const cpool *p = &A->remote->pools.data[A->remote_bad.data[i]];
        if (!own_pool(c, p)) VEC_PUSH(*out, p);
    }
    for (size_t i = 1; i < out->len; i++) {   /* merge into pool order (stable) */
        const cpool *x = out->data[i];
        size_t j = i;
        while (j > 0 && cmp_pools(out->data[j - 1], x) > 0) {
            out->data[j] = out->data[j - 1];
            j--;
        }
        out->data[j] = x;
    }
}

static int gather_finish(acall *c);

/* Pool gathering proper (GatherPools) for c->node, into c->pools and
 * c->cands. Upstream makes every slice with counter sets relevant to every
 * node; a counters-only slice of a pool the node has no device slice in adds
 * no candidate, and its pool's state does not depend on the node: those
 * pools are gathered once for all nodes (gather_remote) instead of once per
 * node, which made N nodes cost O(N^2) time and memory. */
static int gather_node(acall *c) {
    allocator *A = c->A;
    A->gstamp++;
    uint32_t ni;
    if (c->node && pmap_get(&A->node_map, c->node->meta.name, NULL, NULL, &ni)) {
        const u32vec *v = A->node_slices.data[ni];
        for (size_t i = 0; i < v->len; i++)
            if (add_relevant(c, v->data[i])) return -1;
    }
    for (size_t i = 0; i < A->shared_slices.len; i++)
        if (add_relevant(c, A->shared_slices.data[i])) return -1;
    /* the node's own pools see their counters-only slices */
    size_t nown = c->pools.len;
    for (size_t i = 0; i < nown; i++) {
        const agpool *g = &A->gpools.data[A->slices.data[c->pools.data[i].slices.data[0]].gpool];
        for (size_t k = 0; k < g->slices.len; k++) {
            const aslice *as = &A->slices.data[g->slices.data[k]];
            if (as->s->nshared_counters && !as->s->ndevices && add_relevant(c, g->slices.data[k])) return -1;
        }
    }
    return gather_finish(c);
}

/* The pools every node sees only through counters-only slices. */
static int gather_remote(allocator *A, strbuf *err) {
    acall r = {.A = A, .err = err};
    A->gstamp++;
    for (size_t i = 0; i < A->counter_slices.len; i++)
        if (add_relevant(&r, A->counter_slices.data[i])) return -1;
    int rc = gather_finish(&r);
    A->remote = xcalloc(1, sizeof *A->remote);
    A->remote->pools.data = r.pools.data, A->remote->pools.len = r.pools.len, A->remote->pools.cap = r.pools.cap;
    A->remote->cands.data = r.cands.data, A->remote->cands.len = r.cands.len, A->remote->cands.cap = r.cands.cap;
    for (size_t i = 0; i < r.pools.len; i++)
        if (r.pools.data[i].incomplete || r.pools.data[i].invalid) VEC_PUSH(A->remote_bad, (uint32_t)i);
    return rc;
}

/* Completeness, validation, ordering and candidates of the gathered pools. */
static int gather_finish(acall *c) {
    allocator *A = c->A;
    /* completeness, obsolete pools */
    size_t keep = 0;
    for (size_t i = 0; i < c->pools.len; i++) {
        cpool *p = &c->pools.data[i];
        int64_t want = A->slices.data[p->slices.data[0]].s->slice_count;
        bool drop = false;
        if ((int64_t)p->slices.len != want) {
            uint32_t gp = A->slices.data[p->slices.data[0]].gpool;
            const agpool *g = &A->gpools.data[gp];
            int64_t same = 0;
            for (size_t k = 0; k < g->slices.len; k++) {
                const k8s_resource_slice *s = A->slices.data[g->slices.data[k]].s;
                if (s->generation > p->generation) drop = true;
                if (s->generation == p->generation) same++;
            }
            if (!drop && same != want) {
                p->incomplete = true;
            } else if (!drop) {
                for (size_t k = 0; k < g->slices.len; k++) {
                    uint32_t si = g->slices.data[k];
                    if (A->slices.data[si].s->generation != p->generation) continue;
                    bool mine = false;
                    for (size_t j = 0; j < p->slices.len; j++) mine |= p->slices.data[j] == si;
                    if (!mine) VEC_PUSH(p->other, si);
                }
            }
        }
        if (drop) {
            VEC_FREE(p->slices);
            VEC_FREE(p->other);
            continue;
        }
        c->pools.data[keep++] = *p;
    }
    c->pools.len = keep;

    for (size_t i = 0; i < c->pools.len; i++) {
        cpool *p = &c->pools.data[i];
        sort_slices(c, &p->slices);
        if (!p->incomplete) validate_pool_cached(c, p);
        if (p->invalid) c->saw_invalid = true;
        /* incomplete and invalid pools are placeholders: never "binding" */
        for (size_t k = 0; k < p->slices.len && !p->incomplete && !p->invalid; k++) {
            const aslice *as = &A->slices.data[p->slices.data[k]];
            if (!as->binding) continue;
            /* only devices visible to this node count */
            if (!as->s->per_device_node_selection) { p->binding = true; break; }
            for (uint32_t d = 0; d < as->n; d++) {
                const k8s_device *dev = A->devs.data[as->first + d].d;
                bool m;
                if (!dev->nbinding_conditions) continue;
                if (alloc_node_matches(c->node, dev->node_name, dev->all_nodes, dev->has_node_selector,
                                       &dev->node_selector, &m, c->err))
                    return -1;
                if (m) p->binding = true;
            }
        }
    }
    /* sort pools: (driver, name), binding-condition pools last; insertion sort is stable */
    for (size_t i = 1; i < c->pools.len; i++) {
        cpool x = c->pools.data[i];
        size_t j = i;
        while (j > 0 && cmp_pools(&c->pools.data[j - 1], &x) > 0) {
            c->pools.data[j] = c->pools.data[j - 1];
            j--;
        }
        c->pools.data[j] = x;
    }
    /* candidates in search order: valid complete pools, slices by name, devices as published */
    for (size_t i = 0; i < c->pools.len; i++) {
        cpool *p = &c->pools.data[i];
        if (p->incomplete || p->invalid) continue;
        for (size_t k = 0; k < p->slices.len; k++) {
            const aslice *as = &A->slices.data[p->slices.data[k]];
            for (uint32_t d = 0; d < as->n; d++) VEC_PUSH(c->cands, ((cand){as->first + d, (uint32_t)i}));
        }
    }
    return 0;
}
