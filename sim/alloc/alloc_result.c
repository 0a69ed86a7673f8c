/*
 * alloc_result.c -- turning a found solution into AllocationResults: device
 * results (tolerations, binding conditions, share IDs, consumed capacity),
 * the node selector and the configuration (upstream createNodeSelector and
 * the config loop of Allocate, v1.36).
 */
#include <stdio.h>
#include <string.h>

#include "alloc/alloc_internal.h"
#include "util/intern.h"
#include "util/xalloc.h"

/* Deterministic UUID-formatted share ID from the allocator's seed. */
static const char *share_id(allocator *A) {
    uint64_t x = A->seed ^ (0x9E3779B97F4A7C15ULL * ++A->share_seq), w[2];
    for (int i = 0; i < 2; i++) {
        x += 0x9E3779B97F4A7C15ULL;
        uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        w[i] = z ^ (z >> 31);
    }
    char buf[40];
    snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", (unsigned)(w[0] >> 32), (unsigned)(w[0] >> 16) & 0xffff,
             (unsigned)w[0] & 0xfff, (unsigned)((w[1] >> 48) & 0x3fff) | 0x8000,
             (unsigned long long)(w[1] & 0xffffffffffffULL));
    return intern(buf);
}

static bool same_values(const k8s_selector_req *a, const k8s_selector_req *b) {
    if (a->key != b->key || a->op != b->op) return false;
    for (size_t i = 0; i < a->nvalues; i++) {
        bool f = false;
        for (size_t j = 0; j < b->nvalues && !f; j++) f = a->values[i] == b->values[j];
        if (!f) return false;
    }
    for (size_t j = 0; j < b->nvalues; j++) {
        bool f = false;
        for (size_t i = 0; i < a->nvalues && !f; i++) f = a->values[i] == b->values[j];
        if (!f) return false;
    }
    return true;
}

/* Append requirements not yet present (same key, operator and value set). */
static void merge_reqs(arena *ar, k8s_selector_req **to, size_t *n, size_t *cap, const k8s_selector_req *from,
                       size_t nfrom) {
    for (size_t i = 0; i < nfrom; i++) {
        bool dup = false;
        for (size_t j = 0; j < *n && !dup; j++) dup = same_values(&(*to)[j], &from[i]);
        if (dup) continue;
        if (*n == *cap) {
            size_t nc = *cap ? *cap * 2 : 4;
            k8s_selector_req *nv = ARENA_NEW(ar, k8s_selector_req, nc);
            if (*n) memcpy(nv, *to, *n * sizeof *nv);
            *to = nv;
            *cap = nc;
        }
        (*to)[(*n)++] = from[i];
    }
}

static int node_selector(acall *c, size_t first, size_t last, arena *ar, k8s_allocation *out) {
    k8s_selector_term term = {0};
    size_t cap_e = 0, cap_f = 0;
    for (size_t i = first; i < last; i++) {
        const adev *d = &c->A->devs.data[c->cands.data[c->results.data[i].cand].dev];
        /* a node-local slice (the common case): the answer without reading the slice */
        bool local = c->A->dev_flags[d - c->A->devs.data] & DEV_SLICE_NODE;
        const k8s_resource_slice *s = local && c->node ? NULL : c->A->slices.data[d->slice].s;
        const char *node_name;
        bool has_sel;
        const k8s_node_selector *sel;
        if (!s) {
            node_name = c->node->meta.name;   /* only tested for NULL below: the node's name is the value */
            has_sel = false;
            sel = NULL;
        } else if (s->per_device_node_selection) {
            node_name = d->d->node_name;
            has_sel = d->d->has_node_selector;
            sel = &d->d->node_selector;
        } else {
            node_name = s->node_name;
            has_sel = s->has_node_selector;
            sel = &s->node_selector;
        }
        bool binds = c->A->dev_flags[d - c->A->devs.data] & DEV_BINDS_NODE;
        if (node_name || binds) {
            size_t ni = c->node ? alloc_node_index(c->A, c->node) : SIZE_MAX;
            if (ni != SIZE_MAX) {   /* the node's shared selector (the same content as below) */
                if (!c->A->node_sel) c->A->node_sel = xcalloc(c->A->nnode_base, sizeof *c->A->node_sel);
                struct alloc_node_sel *ns = &c->A->node_sel[ni];
                if (!ns->value) {
                    ns->value = c->node->meta.name;
                    ns->req = (k8s_selector_req){c->A->metadata_name, SEL_OP_IN, &ns->value, 1};
                    ns->term = (k8s_selector_term){.match_fields = &ns->req, .nmatch_fields = 1};
                }
                out->has_node_selector = true;
                out->node_selector.terms = &ns->term;
                out->node_selector.nterms = 1;
                return 0;
            }
            k8s_selector_req *r = ARENA_NEW(ar, k8s_selector_req, 1);
            r->key = c->A->metadata_name;
            r->op = SEL_OP_IN;
            r->values = ARENA_NEW(ar, const char *, 1);
            r->values[0] = c->node ? c->node->meta.name : node_name;
            r->nvalues = 1;
            out->has_node_selector = true;
            out->node_selector.terms = ARENA_NEW(ar, k8s_selector_term, 1);
            out->node_selector.nterms = 1;
            out->node_selector.terms[0].match_fields = r;
            out->node_selector.terms[0].nmatch_fields = 1;
            return 0;
        }
        if (!has_sel || sel->nterms == 0) continue;
        if (sel->nterms > 1) {
            sb_clear(c->err);
            sb_printf(c->err, "create NodeSelector for claim %s: unsupported ResourceSlice.NodeSelector with %zu terms",
                      c->claims[c->results.data[i].claim]->meta.name, sel->nterms);
            return -1;
        }
        merge_reqs(ar, &term.match_fields, &term.nmatch_fields, &cap_f, sel->terms[0].match_fields,
                   sel->terms[0].nmatch_fields);
        merge_reqs(ar, &term.match_expressions, &term.nmatch_expressions, &cap_e, sel->terms[0].match_expressions,
                   sel->terms[0].nmatch_expressions);
    }
    if (term.nmatch_fields || term.nmatch_expressions) {
        out->has_node_selector = true;
        out->node_selector.terms = ARENA_NEW(ar, k8s_selector_term, 1);
        out->node_selector.terms[0] = term;
        out->node_selector.nterms = 1;
    }
    return 0;
}

static bool contains(const char *const *v, size_t n, const char *s) {
    for (size_t i = 0; i < n; i++)
        if (v[i] == s) return true;
    return false;
}

static void build_config(acall *c, size_t ci, arena *ar, k8s_allocation *out) {
    const cclaim *cc = &c->cc[ci];
    const k8s_claim_spec *spec = &cc->claim->spec;
    size_t max = 0;
    for (size_t r = 0; r < cc->nreqs; r++) {
        const rdata *rd = &cc->reqs[r].subs[cc->reqs[r].has_subs ? cc->reqs[r].selected : 0];
        max += rd->cls ? rd->cls->nconfig : 0;
    }
    max += spec->nconfig * (cc->nreqs + 1);
    if (!max) return;
    out->config = ARENA_NEW(ar, k8s_allocated_config, max);
    /* class configs: once per class, later requests of the class join the entries */
    const k8s_device_class **seen = ARENA_NEW(ar, const k8s_device_class *, cc->nreqs + 1);
    size_t *start = ARENA_NEW(ar, size_t, cc->nreqs + 1), *end = ARENA_NEW(ar, size_t, cc->nreqs + 1), nseen = 0;
    for (size_t r = 0; r < cc->nreqs; r++) {
        const rdata *rd = &cc->reqs[r].subs[cc->reqs[r].has_subs ? cc->reqs[r].selected : 0];
        if (!rd->cls) continue;
        size_t j = 0;
        while (j < nseen && seen[j] != rd->cls) j++;
        if (j < nseen) {
            for (size_t k = start[j]; k < end[j]; k++) {
                k8s_allocated_config *ac = &out->config[k];
                const char **nr = ARENA_NEW(ar, const char *, ac->nrequests + 1);
                memcpy(nr, ac->requests, ac->nrequests * sizeof *nr);
                nr[ac->nrequests++] = rd->name;
                ac->requests = nr;
            }
            continue;
        }
        seen[nseen] = rd->cls;
        start[nseen] = out->nconfig;
        for (size_t k = 0; k < rd->cls->nconfig; k++) {
            k8s_allocated_config *ac = &out->config[out->nconfig++];
            ac->source = CONFIG_FROM_CLASS;
            ac->requests = ARENA_NEW(ar, const char *, 1);
            ac->requests[0] = rd->name;
            ac->nrequests = 1;
            ac->opaque = rd->cls->config[k].opaque;
        }
        end[nseen++] = out->nconfig;
    }
    /* claim configs: all-request ones once; others once per matching request */
    for (size_t k = 0; k < spec->nconfig; k++) {
        const k8s_device_config *dc = &spec->config[k];
        k8s_allocated_config add = {CONFIG_FROM_CLAIM, dc->requests, dc->nrequests, dc->opaque};
        if (!dc->nrequests) {
            out->config[out->nconfig++] = add;
            continue;
        }
        for (size_t r = 0; r < cc->nreqs; r++) {
            const creq *q = &cc->reqs[r];
            if (contains(dc->requests, dc->nrequests, q->subs[0].req->name)) {
                out->config[out->nconfig++] = add;
                continue;
            }
            if (!q->has_subs) continue;
            if (contains(dc->requests, dc->nrequests, q->subs[q->selected].name)) out->config[out->nconfig++] = add;
        }
    }
}

bool alloc_results_traceless(const acall *c) {
    const allocator *A = c->A;
    for (size_t i = 0; i < c->results.len; i++)
        if (c->results.data[i].multi) return false;   /* share_id() advances the allocator's sequence */
    for (size_t ci = 0; ci < c->nclaims; ci++) {
        size_t first = c->claim_first[ci], last = ci + 1 < c->nclaims ? c->claim_first[ci + 1] : c->results.len;
        if (first == last) continue;
        /* node_selector decides on the first result when it is on a node-local slice */
        uint32_t dev = c->cands.data[c->results.data[first].cand].dev;
        if (!c->node || !(A->dev_flags[dev] & DEV_SLICE_NODE)) return false;
    }
    return true;
}

int alloc_build_results(acall *c, arena *ar, k8s_allocation *out) {
    allocator *A = c->A;
    A->built.len = 0;
    for (size_t ci = 0; ci < c->nclaims; ci++) {
        k8s_allocation *al = &out[ci];
        memset(al, 0, sizeof *al);
        size_t first = c->claim_first[ci], last = ci + 1 < c->nclaims ? c->claim_first[ci + 1] : c->results.len;
        al->nresults = last - first;
        al->results = ARENA_NEW(ar, k8s_device_result, al->nresults ? al->nresults : 1);
        for (size_t i = first; i < last; i++) {
            const taken *t = &c->results.data[i];
            const adev *d = &A->devs.data[c->cands.data[t->cand].dev];
            const alloc_device_id *id = &A->uids.data[d->uid];   /* the slice's driver and pool, the device's name */
            k8s_device_result *r = &al->results[i - first];
            r->request = t->rd->name;
            r->driver = id->driver;
            r->pool = id->pool;
            r->device = id->device;
            VEC_PUSH(A->built, ((struct built_result){r, c->cands.data[t->cand].dev}));
            r->admin_access = t->admin;
            r->tolerations = t->rd->spec->tolerations;
            r->ntolerations = t->rd->spec->ntolerations;
            if (A->f.binding_conditions) {
                r->binding_conditions = d->d->binding_conditions;
                r->nbinding_conditions = d->d->nbinding_conditions;
                r->binding_failure_conditions = d->d->binding_failure_conditions;
                r->nbinding_failure_conditions = d->d->nbinding_failure_conditions;
            }
            if (t->multi) {
                r->share_id = share_id(A);
                r->consumed = ARENA_NEW(ar, k8s_capacity_request, t->ncap ? t->ncap : 1);
                r->nconsumed = t->ncap;
                for (size_t k = 0; k < t->ncap; k++) {
                    const k8s_capacity *cap = &d->d->caps[k];
                    r->consumed[k] = (k8s_capacity_request){cap->domain, cap->id, alloc_cap_name(cap, id->driver),
                                                            c->capvals.data[t->cap_first + k]};
                }
            }
        }
        if (node_selector(c, first, last, ar, al)) return -1;
        build_config(c, ci, ar, al);
    }
    return 0;
}
