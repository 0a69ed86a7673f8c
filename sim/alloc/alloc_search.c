/*
 * alloc_search.c -- allocator_allocate: pre-checks of every request, then the
 * depth-first search with backtracking and combination pruning of the
 * upstream incubating allocator (v1.36), one device at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_internal.h"
#include "util/intern.h"
#include "util/xalloc.h"

enum { R_FAIL = 0, R_OK = 1, R_ERR = -1, R_TOO_MANY = -2 };

const char *alloc_claim_name(const k8s_resource_claim *claim, char *buf, size_t n) {
    if (claim->meta.namespace_ && *claim->meta.namespace_)
        snprintf(buf, n, "%s/%s", claim->meta.namespace_, claim->meta.name);
    else
        snprintf(buf, n, "%s", claim->meta.name ? claim->meta.name : "");
    return buf;
}

static int fail_claim(acall *c, size_t ci, const char *req, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail_claim(acall *c, size_t ci, const char *req, const char *fmt, ...) {
    char buf[300];
    sb_clear(c->err);
    sb_printf(c->err, "claim %s", alloc_claim_name(c->claims[ci], buf, sizeof buf));
    if (req) sb_printf(c->err, ", request %s", req);
    sb_puts(c->err, ": ");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(c->err, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- selectability ------------------------------------------------------------- */

static int eval_selectors(acall *c, size_t ci, const k8s_device_class *cls, const char *const *sel, size_t n,
                          const adev *d, bool *match) {
    const char *driver = c->A->slices.data[d->slice].s->driver;
    *match = true;
    for (size_t i = 0; i < n && *match; i++) {
        cel_entry *e = alloc_cel_get(c->A, sel[i]);
        size_t di = (size_t)(d - c->A->devs.data);
        if (e->prog && e->verdict[di]) {   /* evaluated before on this device */
            *match = e->verdict[di] == 2;
            continue;
        }
        char buf[300];
        strbuf rt = {0};
        const char *what = e->prog ? NULL : e->error;
        if (e->prog && cel_match_device(e->prog, d->d, driver, match, &rt)) what = rt.len ? sb_str(&rt) : "evaluation failed";
        else if (e->prog) e->verdict[di] = *match ? 2 : 1;
        if (what) {
            sb_clear(c->err);
            if (cls) sb_printf(c->err, "class %s: selector #%zu: CEL %s error: %s", cls->meta.name, i,
                               e->prog ? "runtime" : "compile", what);
            else sb_printf(c->err, "claim %s: selector #%zu: CEL %s error: %s",
                           alloc_claim_name(c->claims[ci], buf, sizeof buf), i, e->prog ? "runtime" : "compile", what);
            sb_free(&rt);
            return -1;
        }
        sb_free(&rt);
    }
    return 0;
}

/* Class selectors, request selectors, per-device node scoping; cached per
 * (request, candidate) for the call. */
static int is_selectable_eval(acall *c, size_t ci, const rdata *rd, uint32_t k, bool *ok, uint8_t *slot);
static inline int is_selectable(acall *c, size_t ci, const rdata *rd, uint32_t k, bool *ok) {
    uint8_t *slot = &c->selectable[(size_t)rd->index * c->cands.len + k];
    if (*slot) {   /* decided earlier in this call: no function call per candidate */
        *ok = *slot == 2;
        return 0;
    }
    return is_selectable_eval(c, ci, rd, k, ok, slot);
}

static int is_selectable_eval(acall *c, size_t ci, const rdata *rd, uint32_t k, bool *ok, uint8_t *slot) {
    uint32_t dev = c->cands.data[k].dev;
    uint8_t flags = c->A->dev_flags[dev];
    *ok = false;
    if ((flags & DEV_BINDING) && !c->A->f.binding_conditions) {
        *slot = 1;
        return 0;
    }
    const adev *d = &c->A->devs.data[dev];
    bool m;
    uint8_t *verdict = &rd->combo[dev];   /* shared by calls: errors are never cached */
    if (*verdict) {
        m = *verdict == 2;
    } else {
        if (eval_selectors(c, ci, rd->cls, rd->cls->selectors, rd->cls->nselectors, d, &m)) return -1;
        if (m && eval_selectors(c, ci, NULL, rd->spec->selectors, rd->spec->nselectors, d, &m)) return -1;
        *verdict = m ? 2 : 1;
    }
    if (m && (flags & DEV_NODE_SEL)) {
        const k8s_device *dv = d->d;
        if (alloc_node_matches(c->node, dv->node_name, dv->all_nodes, dv->has_node_selector, &dv->node_selector, &m,
                               c->err))
            return -1;
    }
    if (m && c->A->dev_filter) m = c->A->dev_filter(c->A->dev_filter_ctx, &c->A->uids.data[d->uid]);
    *ok = m;
    *slot = m ? 2 : 1;
    return 0;
}

/* ---- pre-checks ---------------------------------------------------------------------- */

static int validate_request(acall *c, size_t ci, const k8s_device_request *req, const k8s_device_request_spec *spec,
                            bool sub, rdata *rd) {
    rd->spec = spec;
    rd->req = req;
    rd->sub = sub;
    if (sub) {
        char buf[300];
        snprintf(buf, sizeof buf, "%s/%s", req->name, spec->name);
        rd->name = intern(buf);
    } else {
        rd->name = req->name;
    }
    rd->index = (uint32_t)c->nrdata++;
    if (spec->has_non_cel_selector)
        return fail_claim(c, ci, NULL, "request %s, selector #%zu: CEL expression empty (unsupported selector type?)",
                          spec->name, spec->nselectors);
    if (!c->A->f.admin_access && spec->has_admin_access)
        return fail_claim(c, ci, spec->name, "admin access is requested, but the feature is disabled");
    if (!spec->device_class_name || !*spec->device_class_name)
        return fail_claim(c, ci, spec->name, "missing device class name (unsupported request type?)");
    struct alloc_memo *m = c->A->memo;
    const char *sel0 = spec->nselectors ? spec->selectors[0] : NULL;
    if (m->req_cls && spec->nselectors <= 1 && m->req_class == spec->device_class_name &&
        m->req_nsel == spec->nselectors && m->req_sel == sel0) {   /* as the last request: no lookups */
        rd->cls = m->req_cls;
        rd->combo = m->req_combo;
    } else {
        rd->cls = alloc_find_class(c->A, spec->device_class_name);
        if (!rd->cls)
            return fail_claim(c, ci, spec->name,
                              "could not retrieve device class %s: deviceclass.resource.k8s.io \"%s\" not found",
                              spec->device_class_name, spec->device_class_name);
        rd->combo = alloc_selector_combo(c->A, rd->cls, spec->selectors, spec->nselectors);
        if (spec->nselectors <= 1) {
            m->req_class = spec->device_class_name, m->req_sel = sel0, m->req_nsel = spec->nselectors;
            m->req_cls = rd->cls, m->req_combo = rd->combo;
        }
    }
    switch (spec->mode) {
    case ALLOC_MODE_EXACT_COUNT:
        rd->num_devices = spec->count > 1000000 ? 1000000 : (int)spec->count;
        return 0;
    case ALLOC_MODE_ALL:
        break;
    default:
        return fail_claim(c, ci, spec->name, "unsupported count mode %s", spec->mode_text ? spec->mode_text : "");
    }
    cpool_refs bad = {0};
    alloc_bad_pools(c, &bad);
    for (size_t i = 0; i < bad.len; i++) {
        const cpool *p = bad.data[i];
        if (p->incomplete) {
            VEC_FREE(bad);
            return fail_claim(c, ci, spec->name, "asks for all devices, but resource pool %s/%s is currently being updated",
                              p->driver, p->name);
        }
        VEC_FREE(bad);
        return fail_claim(c, ci, spec->name, "asks for all devices, but resource pool %s/%s is currently invalid",
                          p->driver, p->name);
    }
    VEC_FREE(bad);
    return 0;
}

/* Devices of an `All` request: selectable and (consumable capacity) fitting. */
static int collect_all(acall *c, size_t ci, rdata *rd) {
    for (uint32_t k = 0; k < c->cands.len; k++) {
        bool ok;
        if (is_selectable(c, ci, rd, k, &ok)) return -1;
        if (!ok) continue;
        if (c->A->f.consumable_capacity && !alloc_capacity_fits_quick(c, rd, &c->A->devs.data[c->cands.data[k].dev]))
            continue;
        VEC_PUSH(rd->all, k);
    }
    rd->num_devices = (int)rd->all.len;
    return 0;
}

static int precheck(acall *c) {
    arena *m = &c->A->call_mem;
    c->cc = ARENA_NEW(m, cclaim, c->nclaims ? c->nclaims : 1);
    size_t nr = 0;
    for (size_t ci = 0; ci < c->nclaims; ci++) {
        const k8s_claim_spec *s = &c->claims[ci]->spec;
        for (size_t r = 0; r < s->nrequests; r++) nr += s->requests[r].has_exactly ? 1 : s->requests[r].nfirst_available;
    }
    c->selectable = ARENA_NEW(m, uint8_t, (nr ? nr : 1) * (c->cands.len ? c->cands.len : 1));
    /* all request data first (pre-checks run in spec order), then All lists */
    for (size_t ci = 0; ci < c->nclaims; ci++) {
        cclaim *cc = &c->cc[ci];
        cc->claim = c->claims[ci];
        const k8s_claim_spec *s = &cc->claim->spec;
        cc->reqs = ARENA_NEW(m, creq, s->nrequests ? s->nrequests : 1);
        cc->nreqs = s->nrequests;
        long min_claim = 0;
        for (size_t r = 0; r < s->nrequests; r++) {
            const k8s_device_request *req = &s->requests[r];
            creq *q = &cc->reqs[r];
            q->has_subs = !req->has_exactly && req->nfirst_available > 0;
            if (!c->A->f.prioritized_list && q->has_subs)
                return fail_claim(c, ci, req->name, "has subrequests, but the DRAPrioritizedList feature is disabled");
            if (!c->A->f.consumable_capacity) {
                if (req->has_exactly && req->exactly.ncapacity)
                    return fail_claim(c, ci, req->name, "has capacity requests, but the DRAConsumableCapacity feature is disabled");
                for (size_t k = 0; !req->has_exactly && k < req->nfirst_available; k++)
                    if (req->first_available[k].ncapacity) {
                        char buf[300];
                        sb_clear(c->err);
                        sb_printf(c->err, "claim %s, subrequest %s: has capacity requests, but the DRAConsumableCapacity "
                                  "feature is disabled", alloc_claim_name(c->claims[ci], buf, sizeof buf),
                                  req->first_available[k].name);
                        return -1;
                    }
            }
            q->nsubs = q->has_subs ? req->nfirst_available : 1;
            q->subs = ARENA_NEW(m, rdata, q->nsubs);
            long min_req = -1;
            for (size_t k = 0; k < q->nsubs; k++) {
                rdata *rd = &q->subs[k];
                if (validate_request(c, ci, req, q->has_subs ? &req->first_available[k] : &req->exactly, q->has_subs, rd))
                    return -1;
                if (rd->spec->mode == ALLOC_MODE_ALL && collect_all(c, ci, rd)) return -1;
                if (min_req < 0 || rd->num_devices < min_req) min_req = rd->num_devices;
            }
            min_claim += min_req < 0 ? 0 : min_req;
        }
        if (min_claim > ALLOC_RESULTS_MAX)
            return fail_claim(c, ci, NULL, "number of requested devices %ld exceeds the claim limit of %d", min_claim,
                              ALLOC_RESULTS_MAX);
        if (alloc_constraints_init(c, cc, c->err)) return -1;
    }
    return 0;
}

/* ---- in-use bookkeeping ------------------------------------------------------------ */

static size_t claim_results(const acall *c, size_t ci) { return c->results.len - c->claim_first[ci]; }

static bool taking_for_claim(const acall *c, size_t ci, uint32_t uid) {
    for (size_t i = c->claim_first[ci]; i < c->results.len; i++) {
        const taken *t = &c->results.data[i];
        if (t->marked && c->A->devs.data[c->cands.data[t->cand].dev].uid == uid) return true;
    }
    for (size_t i = 0; i < c->leaked.len; i++)
        if (c->leaked.data[i].claim == ci && c->A->devs.data[c->cands.data[c->leaked.data[i].cand].dev].uid == uid)
            return true;
    return false;
}

static bool in_use(const acall *c, uint32_t uid) {
    if (c->A->uid_allocated[uid]) return true;
    for (size_t i = 0; i < c->leaked.len; i++)
        if (c->A->devs.data[c->cands.data[c->leaked.data[i].cand].dev].uid == uid) return true;
    for (size_t i = 0; i < c->results.len; i++) {
        const taken *t = &c->results.data[i];
        if (t->marked && c->A->devs.data[c->cands.data[t->cand].dev].uid == uid) return true;
    }
    return false;
}

static bool taint_tolerated(const k8s_taint *t, const k8s_device_request_spec *spec) {
    for (size_t i = 0; i < spec->ntolerations; i++) {
        const k8s_toleration *tol = &spec->tolerations[i];
        if (tol->has_effect && tol->effect != t->effect) continue;
        if (tol->key && *tol->key && tol->key != t->key) continue;
        if (tol->op == TOL_OP_EXISTS) return true;
        const char *tv = tol->value ? tol->value : "", *dv = t->value ? t->value : "";
        if (!strcmp(tv, dv)) return true;
    }
    return false;
}

static bool taint_prevents(const allocator *A, uint32_t dev, const k8s_device_request_spec *spec) {
    size_t n;
    const k8s_taint *taints = alloc_device_taints(A, dev, &n);
    for (size_t i = 0; i < n; i++) {
        const k8s_taint *t = &taints[i];
        if ((t->effect == TAINT_NO_SCHEDULE || t->effect == TAINT_NO_EXECUTE) && !taint_tolerated(t, spec)) return true;
    }
    return false;
}

/* allocateDevice: availability, counters, taints, constraints; on success the
 * device is appended to the results (undo with rollback()). Returns 1, 0, or
 * -1 (must semantics: a constraint refused a device of an `All` request). */
static int allocate_device(acall *c, size_t ci, const rdata *rd, uint32_t k, bool must) {
    allocator *A = c->A;
    const cand *cd = &c->cands.data[k];
    const adev *d = &A->devs.data[cd->dev];
    const cpool *p = &c->pools.data[cd->pool];
    uint8_t f = A->dev_flags[cd->dev];
    bool multi = A->f.consumable_capacity && (f & DEV_MULTI);
    bool admin = rd->spec->admin_access;
    if (admin) {
        if (!multi && taking_for_claim(c, ci, d->uid)) return 0;
    } else if (in_use(c, d->uid)) {
        return 0;
    }
    bool consumes = f & DEV_CONSUMES;
    if (consumes && !A->f.partitionable_devices) return 0;
    if (consumes && !(multi && alloc_uid_capacity_in_use(c, d->uid)) && !alloc_counters_take(c, p, d)) return 0;
    /* Upstream quirk kept: counters taken above are not given back when the
     * taint check, a constraint or the capacity re-check rejects the device. */
    if (A->f.device_taints && (f & DEV_TAINTS) && taint_prevents(A, cd->dev, rd->spec)) return 0;
    cclaim *cc = &c->cc[ci];
    const char *driver = cc->ncons || multi ? A->slices.data[d->slice].s->driver : NULL;   /* not read otherwise */
    if (cc->ncons && !alloc_constraints_add(cc, rd, d, driver)) {
        if (must) {
            fail_claim(c, ci, rd->spec->name, "cannot add device %s/%s/%s because a claim constraint would not be satisfied",
                       driver, p->name, d->d->name);
            return -1;
        }
        return 0;
    }
    taken t = {.cand = k, .claim = (uint32_t)ci, .rd = rd, .marked = !multi, .admin = admin, .multi = multi};
    t.cap_first = (uint32_t)c->capvals.len;
    if (A->f.consumable_capacity) {
        /* only a shared device's amounts are kept (t.ncap); for the others the fit alone */
        quantity *vals = NULL;
        if (multi) {
            VEC_RESERVE(c->capvals, c->capvals.len + d->d->ncaps + 1);
            vals = c->capvals.data + c->capvals.len;
        }
        if (!alloc_capacity_fits(c, rd, d, vals)) {
            /* Upstream quirk kept: the constraints and the "allocating" mark
             * made above are not undone here. */
            if (t.marked) VEC_PUSH(c->leaked, t);
            return 0;
        }
        if (multi) {
            t.ncap = (uint32_t)d->d->ncaps;
            for (size_t i = 0; i < d->d->ncaps; i++) {
                const k8s_capacity *cap = &d->d->caps[i];
                VEC_PUSH(c->allocating, ((allocating_cap){d->uid, alloc_cap_name(cap, driver),
                                                           c->capvals.data[c->capvals.len + i]}));
            }
            /* the device has an allocatingCapacity entry even without capacities */
            if (!d->d->ncaps) VEC_PUSH(c->allocating, ((allocating_cap){.uid = d->uid}));
            t.nalloc = d->d->ncaps ? t.ncap : 1;
            c->capvals.len += d->d->ncaps;
        }
    }
    VEC_PUSH(c->results, t);
    return 1;
}

static void rollback(acall *c, size_t ci) {
    taken t = c->results.data[--c->results.len];
    const adev *d = &c->A->devs.data[c->cands.data[t.cand].dev];
    const cpool *p = &c->pools.data[c->cands.data[t.cand].pool];
    alloc_constraints_remove(&c->cc[ci], t.rd, d, p->driver);
    if (!t.multi && (c->A->dev_flags[c->cands.data[t.cand].dev] & DEV_CONSUMES) && c->A->f.partitionable_devices)
        alloc_counters_release(c, p, d);
    c->allocating.len -= t.nalloc;   /* pushed last, so they are on top */
    c->capvals.len = t.cap_first;
}

/* ---- the search ------------------------------------------------------------------------ */

/* A shortcut that gives the search's own answer and step count: when the
 * devices a request's remaining `need` picks could come from are fewer than
 * `need`, the depth-first search below tries every subset of them and fails.
 * That holds when whether a candidate can be taken does not depend on the
 * other picks: no constraints, no counters, no shared (multi-allocatable)
 * devices, no admin access, no device filter (candidates are distinct
 * devices). With u such candidates the search makes 2^u calls (this one
 * included, u < need <= ALLOC_RESULTS_MAX); they are added to the steps
 * unless that would pass the step limit, where the search itself must run
 * to report its timeout. Returns true when the subtree was settled as a
 * failure; false (nothing changed but pure caches) when the search must run.
 * A selector error also leaves it to the search, which reports it. Only
 * tried on a request's first device: when enough candidates are there, the
 * search takes the first ones without backtracking (same conditions). */
static bool hopeless(acall *c, size_t ci, const rdata *rd, uint32_t start, int need) {
    allocator *A = c->A;
    if (c->cc[ci].ncons || rd->spec->admin_access || A->dev_filter) return false;
    int u = 0;
    for (uint32_t k = start; k < c->cands.len; k++) {
        uint32_t dev = c->cands.data[k].dev;
        if (rd->combo[dev] == 1) continue;
        const adev *d = &A->devs.data[dev];
        if (in_use(c, d->uid)) continue;
        bool ok;
        if (is_selectable(c, ci, rd, k, &ok)) return false;
        if (!ok) continue;
        uint8_t f = A->dev_flags[dev];
        if ((f & DEV_CONSUMES) || (A->f.consumable_capacity && (f & DEV_MULTI))) return false;
        if (A->f.consumable_capacity && !alloc_capacity_fits_quick(c, rd, d)) continue;
        if (A->f.device_taints && (f & DEV_TAINTS) && taint_prevents(A, dev, rd->spec)) continue;
        if (++u >= need) return false;
    }
    uint64_t more = ((uint64_t)1 << u) - 1;   /* the calls below this one */
    if (A->step_limit && c->steps + more > A->step_limit) return false;
    c->steps += more;
    return true;
}

static int allocate_one(acall *c, size_t ci, size_t ri, size_t si, int di, bool in_sub, uint32_t start) {
    c->steps++;
    if (c->A->step_limit && c->steps > c->A->step_limit) {   /* upstream: context deadline */
        c->timed_out = true;
        sb_clear(c->err);
        sb_printf(c->err, "allocation search budget exhausted: no answer within %llu search steps (upstream: "
                  "timed out trying to allocate devices)", (unsigned long long)c->A->step_limit);
        return R_ERR;
    }
    if (ci >= c->nclaims) return R_OK;
    cclaim *cc = &c->cc[ci];
    if (ri >= cc->nreqs) {
        c->claim_first[ci + 1 < c->nclaims + 1 ? ci + 1 : ci] = c->results.len;
        int r = allocate_one(c, ci + 1, 0, 0, 0, false, 0);
        return r == R_TOO_MANY ? R_FAIL : r;
    }
    creq *q = &cc->reqs[ri];
    if (q->has_subs && !in_sub) {
        bool all_exceeded = true;
        for (size_t s = 0; s < q->nsubs; s++) {
            int r = allocate_one(c, ci, ri, s, 0, true, 0);
            if (r == R_TOO_MANY) continue;
            all_exceeded = false;
            if (r == R_ERR) return R_ERR;
            if (r == R_OK) {
                q->selected = s;
                return R_OK;
            }
        }
        return all_exceeded ? R_TOO_MANY : R_FAIL;
    }
    const rdata *rd = &q->subs[si];
    bool all = rd->spec->mode == ALLOC_MODE_ALL;
    if (all && rd->all.len == 0) return R_FAIL;
    if (di >= rd->num_devices) return allocate_one(c, ci, ri + 1, 0, 0, false, 0);
    if (claim_results(c, ci) + (size_t)(rd->num_devices - di) > ALLOC_RESULTS_MAX) return R_TOO_MANY;
    if (all) {
        int ok = allocate_device(c, ci, rd, rd->all.data[di], true);
        if (ok < 0) return R_ERR;
        if (!ok) return R_FAIL;
        int r = allocate_one(c, ci, ri, si, di + 1, in_sub, 0);
        if (r != R_OK) rollback(c, ci);
        return r;
    }
    allocator *A = c->A;
    bool admin = rd->spec->admin_access;
    if (di == 0 && hopeless(c, ci, rd, start, rd->num_devices)) return R_FAIL;
    for (uint32_t k = start; k < c->cands.len; k++) {
        uint32_t dev = c->cands.data[k].dev;
        if (rd->combo[dev] == 1) continue;   /* known not to match the selectors: is_selectable says no */
        const adev *d = &A->devs.data[dev];
        if (admin ? taking_for_claim(c, ci, d->uid) : in_use(c, d->uid)) continue;
        bool ok;
        if (is_selectable(c, ci, rd, k, &ok)) return R_ERR;
        if (!ok) continue;
        if (A->f.consumable_capacity && !alloc_capacity_fits_quick(c, rd, d)) continue;
        int got = allocate_device(c, ci, rd, k, false);
        if (got < 0) return R_ERR;
        if (!got) continue;
        int r = allocate_one(c, ci, ri, si, di + 1, in_sub, k + 1);
        if (r == R_OK) return R_OK;
        rollback(c, ci);
        if (r == R_ERR || r == R_TOO_MANY) return r;
    }
    return R_FAIL;
}

/* ---- entry point -------------------------------------------------------------------------- */

static void call_free(acall *c) {
    if (!c->borrowed) {
        for (size_t i = 0; i < c->pools.len; i++) {
            VEC_FREE(c->pools.data[i].slices);
            VEC_FREE(c->pools.data[i].other);
        }
        VEC_FREE(c->pools);
        VEC_FREE(c->cands);
    }
    /* leave the counters' scratch all zero for the next call */
    for (size_t i = 0; i < c->cstates.len; i++)
        memset(c->cstates.data[i].consumed, 0, c->cstates.data[i].ctr->n * sizeof(quantity));
    if (c->cc) {
        for (size_t ci = 0; ci < c->nclaims; ci++) {
            cclaim *cc = &c->cc[ci];
            if (!cc->reqs) continue;
            for (size_t r = 0; r < cc->nreqs; r++) {
                for (size_t k = 0; k < cc->reqs[r].nsubs && cc->reqs[r].subs; k++) VEC_FREE(cc->reqs[r].subs[k].all);
            }
            alloc_constraints_free(cc);
        }
    }
    /* cc, reqs, subs, selectable, claim_first live in A->call_mem; the vectors go back emptied */
    acall_spare *sp = c->A->spare;
    sp->cstates.data = c->cstates.data, sp->cstates.cap = c->cstates.cap, sp->cstates.len = 0;
    sp->results.data = c->results.data, sp->results.cap = c->results.cap, sp->results.len = 0;
    sp->leaked.data = c->leaked.data, sp->leaked.cap = c->leaked.cap, sp->leaked.len = 0;
    sp->allocating.data = c->allocating.data, sp->allocating.cap = c->allocating.cap, sp->allocating.len = 0;
    sp->capvals.data = c->capvals.data, sp->capvals.cap = c->capvals.cap, sp->capvals.len = 0;
}

/* The request of a call of quick_scan's kind (one claim, one ExactCount
 * request of N devices, no constraints, no capacity requests, at most one
 * CEL selector whose verdicts the memo holds), or NULL. */
static const k8s_device_request_spec *quick_spec(const allocator *A, k8s_resource_claim *const *claims, size_t n,
                                                 const k8s_node *node) {
    if (n != 1 || A->dev_filter || !node) return NULL;
    const k8s_claim_spec *s = &claims[0]->spec;
    if (s->nrequests != 1 || s->nconstraints || !s->requests[0].has_exactly) return NULL;
    const k8s_device_request_spec *spec = &s->requests[0].exactly;
    if (spec->mode != ALLOC_MODE_EXACT_COUNT || spec->count < 1 || spec->count > ALLOC_RESULTS_MAX ||
        spec->has_non_cel_selector || spec->admin_access || spec->has_admin_access || spec->ncapacity ||
        spec->nselectors > 1 || !spec->device_class_name)
        return NULL;
    const struct alloc_memo *m = A->memo;
    const char *sel0 = spec->nselectors ? spec->selectors[0] : NULL;
    if (!m->req_cls || m->req_class != spec->device_class_name || m->req_nsel != spec->nselectors || m->req_sel != sel0)
        return NULL;   /* the first call of a request goes the long way (and fills the memo) */
    return spec;
}

/* The answer, without the pre-checks and the search, of a call the Filter
 * makes most (issue 31: ~85 % of the allocator's work at 1,000 nodes): one
 * claim with one ExactCount request of N devices, no constraints, selectors
 * or capacity requests beyond what the per-device verdict cache has decided,
 * on a node whose candidates are independent (no counters, shares, taints,
 * per-device node selection, device filter; distinct devices on node-local
 * slices). Then the search succeeds iff N candidates are usable, taking
 * N + 3 steps, and otherwise fails after 2^u steps (u usable; hopeless()),
 * and a success is traceless (alloc_results_traceless). Returns false,
 * having changed nothing, when the call is not of that kind or the step
 * limit would decide: the full call then gives the answer. */
static bool quick_scan(acall *c, uint32_t *picks, int *nusable, int *nneed) {
    allocator *A = c->A;
    if (c->saw_invalid) return false;
    const k8s_device_request_spec *spec = quick_spec(A, c->claims, c->nclaims, c->node);
    if (!spec) return false;
    struct alloc_memo *m = A->memo;
    const uint8_t *combo = m->req_combo;
    int need = (int)spec->count, u = 0;
    uint32_t seen[ALLOC_RESULTS_MAX];
    for (uint32_t k = 0; k < c->cands.len && u < need; k++) {
        uint32_t dev = c->cands.data[k].dev;
        uint8_t f = A->dev_flags[dev];
        if ((f & DEV_BINDING) && !A->f.binding_conditions) continue;   /* not selectable */
        if (combo[dev] == 1) continue;
        if (combo[dev] == 0 || (f & DEV_NODE_SEL)) return false;      /* CEL to run, node to match */
        uint32_t uid = A->devs.data[dev].uid;
        if (A->uid_allocated[uid]) continue;
        if ((f & DEV_CONSUMES) || !(f & DEV_SLICE_NODE)) return false;
        if (A->f.consumable_capacity && ((f & (DEV_MULTI | DEV_CAP_POLICY)) || (A->uid_shared[uid] & 2))) return false;
        if (A->f.device_taints && (f & DEV_TAINTS)) return false;
        for (int i = 0; i < u; i++)
            if (seen[i] == uid) return false;
        if (picks) picks[u] = k;
        seen[u++] = uid;
    }
    uint64_t steps = u >= need ? (uint64_t)need + 3 : (uint64_t)1 << u;
    if (A->step_limit && steps > A->step_limit) return false;
    *nusable = u;
    *nneed = need;
    return true;
}

/* Remember, for quick_cached, how many candidates of c's node quick_scan
 * would find usable for the memo's request (after quick_scan answered the
 * call). Only for nodes whose every candidate that request can select is
 * plain (what quick_scan accepts, asked of all of them, allocated or not):
 * then the answer changes only when one of those devices changes hands
 * (alloc_qnode_touch) or a device's taints change (qepoch). */
static void quick_remember(acall *c) {
    allocator *A = c->A;
    size_t ni = A->qnode ? alloc_node_index(A, c->node) : SIZE_MAX;
    if (ni == SIZE_MAX || c->saw_invalid || c->cands.len > ALLOC_RESULTS_MAX) return;
    const uint8_t *combo = A->memo->req_combo;
    uint32_t seen[ALLOC_RESULTS_MAX];
    int ns = 0, u = 0;
    bool binding = false;
    for (uint32_t k = 0; k < c->cands.len; k++) {
        uint32_t dev = c->cands.data[k].dev;
        uint8_t f = A->dev_flags[dev];
        if ((f & DEV_BINDING) && !A->f.binding_conditions) continue;   /* never selectable */
        binding |= (f & DEV_BINDING) != 0;
        if (combo[dev] == 1) continue;                                   /* never matches */
        if (combo[dev] == 0 || (f & (DEV_NODE_SEL | DEV_CONSUMES)) || !(f & DEV_SLICE_NODE)) return;
        if (A->f.device_taints && (f & DEV_TAINTS)) return;
        uint32_t uid = A->devs.data[dev].uid;
        if (A->f.consumable_capacity && ((f & (DEV_MULTI | DEV_CAP_POLICY)) || (A->uid_shared[uid] & 2))) return;
        if (A->uid_qnode[uid] && A->uid_qnode[uid] != ni + 1) return;   /* counted for another node too */
        for (int i = 0; i < ns; i++)
            if (seen[i] == uid) return;
        seen[ns++] = uid;
        if (!A->uid_allocated[uid]) u++;
    }
    uint32_t gen = A->qnode[ni].gen + 1;   /* devices stamped by an earlier answer of this node no longer count */
    for (int i = 0; i < ns; i++) A->uid_qnode[seen[i]] = (uint32_t)ni + 1, A->uid_qgen[seen[i]] = gen;
    bool run = ns > 0 && !binding;   /* uids seen[0], seen[0] + 1, ...? */
    for (int i = 1; i < ns && run; i++) run = seen[i] == seen[0] + (uint32_t)i;
    A->qnode[ni] = (struct alloc_qnode){combo, A->qepoch, gen, ns ? seen[0] : 0, (uint8_t)u, true, run ? (uint8_t)ns : 0};
}

/* quick_status's answer from quick_remember's count (no pools gathered, no
 * candidate read): the same status, steps and output. False when nothing
 * valid is remembered for this node and request, or the step limit decides. */
static bool quick_cached(allocator *A, const k8s_node *node, k8s_resource_claim *const *claims, size_t n,
                         k8s_allocation *out, alloc_status *st, uint64_t *steps) {
    size_t ni = A->qnode ? alloc_node_index(A, node) : SIZE_MAX;
    if (ni == SIZE_MAX) return false;
    const struct alloc_qnode *q = &A->qnode[ni];
    if (!q->valid || q->epoch != A->qepoch) return false;
    const k8s_device_request_spec *spec = quick_spec(A, claims, n, node);
    if (!spec || q->combo != A->memo->req_combo) return false;
    int need = (int)spec->count, u = q->usable < need ? q->usable : need;
    uint64_t taken = u >= need ? (uint64_t)need + 3 : (uint64_t)1 << u;
    if (A->step_limit && taken > A->step_limit) return false;
    if (steps) *steps = taken;
    if (u < need) {
        *st = ALLOC_UNSATISFIABLE;
        return true;
    }
    A->built.len = 0;
    memset(out, 0, sizeof *out);
    *st = ALLOC_OK;
    return true;
}

/* quick_status: the answer from quick_scan when the caller wants no results. */
static bool quick_status(acall *c, k8s_allocation *out, alloc_status *st) {
    int u, need;
    if (!quick_scan(c, NULL, &u, &need)) return false;
    quick_remember(c);
    c->steps = u >= need ? (uint64_t)need + 3 : (uint64_t)1 << u;
    if (u < need) {
        *st = ALLOC_UNSATISFIABLE;
        return true;
    }
    c->A->built.len = 0;
    memset(out, 0, sizeof *out);
    *st = ALLOC_OK;
    return true;
}

/* The search's own picks for a call of quick_scan's kind that succeeds
 * (issue 31: Reserve's call, which wants the results): the first N usable
 * candidates in order, taken as allocate_device takes them (no constraint,
 * counter, share or capacity to record), and its N + 3 steps. Run after
 * precheck (the request's data); false, having changed nothing, when the
 * call is not of that kind or fails: the search then runs. */
static bool quick_pick(acall *c) {
    uint32_t picks[ALLOC_RESULTS_MAX];
    int u, need;
    if (!quick_scan(c, picks, &u, &need) || u < need || c->cc[0].ncons || c->cc[0].nreqs != 1 ||
        c->cc[0].reqs[0].has_subs)
        return false;
    const rdata *rd = &c->cc[0].reqs[0].subs[0];
    if (rd->num_devices != need || rd->combo != c->A->memo->req_combo) return false;
    for (int i = 0; i < need; i++)
        VEC_PUSH(c->results, ((taken){.cand = picks[i], .claim = 0, .rd = rd, .marked = true,
                                      .cap_first = (uint32_t)c->capvals.len}));
    c->claim_first[1] = c->results.len;
    c->steps = (uint64_t)need + 3;
    return true;
}

/* Commit dedicated device `uid` as allocator_commit commits a plain result. */
static void take_uid(allocator *A, uint32_t uid) {
    alloc_uid_take(A, uid);
    alloc_uid_counters_stale(A, uid);
}

void allocator_prefetch_node(const allocator *A, const k8s_node *node) {
    size_t ni = A->qnode ? alloc_node_index(A, node) : SIZE_MAX;
    if (ni != SIZE_MAX) __builtin_prefetch(&A->qnode[ni]);
}

bool allocator_prefetch_uids(const allocator *A, const k8s_node *node, uint32_t *first, uint32_t *n) {
    size_t ni = A->qnode ? alloc_node_index(A, node) : SIZE_MAX;
    if (ni == SIZE_MAX) return false;
    const struct alloc_qnode *q = &A->qnode[ni];
    if (!q->valid || !q->nuid) return false;
    *first = q->first_uid, *n = q->nuid;
    __builtin_prefetch(&A->uid_allocated[*first]);
    __builtin_prefetch(&A->uid_qnode[*first]);
    __builtin_prefetch(&A->uid_qgen[*first]);
    return true;
}

/* allocator_take_plain from the node's remembered quick answer (quick_remember),
 * without gathering its pools: valid for this request, it lists every
 * candidate the request can select, all plain and distinct, as the uids
 * first_uid .. first_uid + nuid - 1 in search order; quick_scan would pick
 * the first N not allocated. Returns N, or 0 (nothing done) when there is no
 * such answer, too few are usable, or the step limit decides. */
static size_t take_remembered(allocator *A, const k8s_node *node, const k8s_device_request_spec *spec,
                              uint32_t *uids) {
    size_t ni = A->qnode ? alloc_node_index(A, node) : SIZE_MAX;
    if (ni == SIZE_MAX) return 0;
    const struct alloc_qnode *q = &A->qnode[ni];
    int need = (int)spec->count;
    if (!q->valid || !q->nuid || q->epoch != A->qepoch || q->combo != A->memo->req_combo || q->usable < need)
        return 0;
    if (A->step_limit && (uint64_t)need + 3 > A->step_limit) return 0;
    int u = 0;
    uint32_t first = q->first_uid, nuid = q->nuid;   /* q->usable follows the takes below */
    for (uint32_t i = 0; i < nuid && u < need; i++)
        if (!A->uid_allocated[first + i]) uids[u++] = first + i;
    if (u < need) return 0;   /* cannot happen while the count is valid */
    A->built.len = 0;
    for (int i = 0; i < need; i++) take_uid(A, uids[i]);
    return (size_t)need;
}

/* A call's scratch: the call arena reset, the spare vectors (call_free gives them back). */
static void call_begin(acall *c) {
    allocator *A = c->A;
    arena_reset(&A->call_mem);
    acall_spare *sp = A->spare;
    c->cstates.data = sp->cstates.data, c->cstates.cap = sp->cstates.cap;
    c->results.data = sp->results.data, c->results.cap = sp->results.cap;
    c->leaked.data = sp->leaked.data, c->leaked.cap = sp->leaked.cap;
    c->allocating.data = sp->allocating.data, c->allocating.cap = sp->allocating.cap;
    c->capvals.data = sp->capvals.data, c->capvals.cap = sp->capvals.cap;
    c->claim_first = ARENA_NEW(&A->call_mem, size_t, c->nclaims + 1);
}

size_t allocator_take_plain(allocator *A, const k8s_node *node, k8s_resource_claim *const *claims, size_t n,
                            uint32_t *uids, size_t max, uint64_t *steps) {
    const k8s_device_request_spec *spec = quick_spec(A, claims, n, node);
    if (!spec || spec->ntolerations || (uint64_t)spec->count > max) return 0;   /* results with more than a device */
    size_t nt = take_remembered(A, node, spec, uids);
    if (nt) {
        if (steps) *steps = (uint64_t)nt + 3;
        return nt;
    }
    strbuf err = {0};
    acall c = {.A = A, .node = node, .claims = claims, .nclaims = n, .err = &err};
    call_begin(&c);
    uint32_t picks[ALLOC_RESULTS_MAX];
    int u, need;
    bool ok = !alloc_gather_pools(&c) && quick_scan(&c, picks, &u, &need) && u >= need;
    for (int i = 0; ok && i < need; i++) {
        uint32_t dev = c.cands.data[picks[i]].dev;
        if (A->f.binding_conditions && (A->dev_flags[dev] & DEV_BINDING)) ok = false;   /* its result has them */
        uids[i] = A->devs.data[dev].uid;
    }
    if (ok) {   /* allocator_commit of those results: dedicated devices, no share, no admin access */
        A->built.len = 0;
        for (int i = 0; i < need; i++) take_uid(A, uids[i]);
        if (steps) *steps = (uint64_t)need + 3;
    }
    call_free(&c);
    sb_free(&err);
    return ok ? (size_t)need : 0;
}

alloc_status allocator_allocate(allocator *A, const k8s_node *node, k8s_resource_claim *const *claims, size_t n,
                                arena *result_arena, k8s_allocation *out, uint64_t *steps, strbuf *err) {
    alloc_status st = ALLOC_ERROR;
    if (!result_arena && quick_cached(A, node, claims, n, out, &st, steps)) return st;
    acall c = {.A = A, .node = node, .claims = claims, .nclaims = n, .err = err};
    call_begin(&c);
    if (alloc_gather_pools(&c)) {
        strbuf msg = {0};
        sb_printf(&msg, "gather pool information: %s", sb_str(err));
        sb_clear(err);
        sb_puts(err, sb_str(&msg));
        sb_free(&msg);
        goto done;
    }
    if (!result_arena && quick_status(&c, out, &st)) goto done;
    if (precheck(&c)) goto done;
    int r = result_arena && quick_pick(&c) ? R_OK : allocate_one(&c, 0, 0, 0, 0, false, 0);
    if (r == R_ERR) {
        if (c.timed_out) st = ALLOC_TIMEOUT;
        goto done;
    }
    if (r == R_TOO_MANY) {   /* upstream returns errAllocationResultMaxSizeExceeded itself */
        sb_clear(err);
        sb_puts(err, "allocation max size exceeded");
        goto done;
    }
    if (r != R_OK) {
        if (c.saw_invalid) {
            sb_clear(err);
            sb_puts(err, "allocation failed on node: invalid resource pools were encountered:");
            cpool_refs bad = {0};
            alloc_bad_pools(&c, &bad);
            for (size_t i = 0; i < bad.len; i++)
                if (bad.data[i]->invalid)
                    sb_printf(err, " %s/%s (%s)", bad.data[i]->driver, bad.data[i]->name,
                              bad.data[i]->invalid_reason ? bad.data[i]->invalid_reason : "invalid");
            VEC_FREE(bad);
            st = ALLOC_NODE_ERROR;
        } else {
            st = ALLOC_UNSATISFIABLE;
        }
        goto done;
    }
    if (!result_arena && alloc_results_traceless(&c)) {   /* the caller wants the answer only */
        A->built.len = 0;
        memset(out, 0, n * sizeof *out);
        st = ALLOC_OK;
        goto done;
    }
    st = alloc_build_results(&c, result_arena ? result_arena : &A->call_mem, out) ? ALLOC_ERROR : ALLOC_OK;
done:
    if (steps) *steps = c.steps;
    call_free(&c);
    return st;
}
