/*
 * plugin_dra.c -- the DynamicResources plugin (allocator.md §4) over the
 * bookkeeping of dra.c:
 *  - PreFilter: every DeviceClass the class's claims name exists (else the
 *    class is unschedulable: it would wait for a DeviceClass that never comes);
 *  - Filter: allocated shared claims must allow the node (their node
 *    selector); the rest (template claims, unallocated shared claims) are
 *    allocated together by the allocator for that node;
 *  - Score: the prioritized-list score, 8 - index of the chosen subrequest per
 *    firstAvailable request, scaled to 0..100 by the largest possible sum;
 *  - Reserve: allocate again on the chosen node (same answer as Filter) and
 *    commit, so the next pod sees the devices taken; Unreserve (the pod
 *    ended): delete template claims, drop shared reservations, free.
 * Filter's answer depends only on the class and the node's devices (shared
 * claims' changes refresh the classes that use them), as framework.h asks.
 */
#include <string.h>

#include "sched/dra/dra_internal.h"
#include "sched/framework.h"
#include "sched/policies/place_mig.h"
#include "util/intern.h"

static void add_reason(sched_reasons *why, const char *r) {
    if (why && why->n < (int)(sizeof why->r / sizeof *why->r)) why->r[why->n++] = r;
}

static dra_class *class_of(const scheduler *s, const pod_class *c) { return &s->dra->cls[c - s->classes]; }

/* Fill c->call with the claims to allocate on `node`; false when an
 * allocated shared claim does not allow the node. */
static bool collect(const scheduler *s, dra_class *c, size_t node, size_t *n) {
    dra_state *d = s->dra;
    *n = 0;
    for (size_t i = 0; i < c->nown; i++) {
        c->call_shared[*n] = -1;
        c->call[(*n)++] = &c->own[i];
    }
    for (size_t i = 0; i < c->nshared; i++) {
        dra_shared *sh = &d->shared[c->shared[i]];
        if (sh->allocated) {
            if (sh->al.has_node_selector && !node_selector_matches(&sh->al.node_selector, &s->nodes[node])) return false;
            for (size_t k = 0; k < sh->al.nresults; k++)   /* on a device tainted since: no new users (KEP-5055) */
                if (allocator_result_blocked(d->A, &sh->al.results[k])) return false;
            continue;
        }
        c->call_shared[*n] = (int32_t)c->shared[i];
        c->call[(*n)++] = &sh->claim;
    }
    return true;
}

/* Does a request of claims c->call[0..n) list subrequests (firstAvailable)? */
static bool has_first_available(const dra_class *c, size_t n) {
    for (size_t i = 0; i < n; i++)
        for (size_t r = 0; r < c->call[i]->spec.nrequests; r++)
            if (c->call[i]->spec.requests[r].nfirst_available) return true;
    return false;
}

/* Prioritized-list score of results out[0..n) for claims c->call. */
static int32_t list_score(const dra_class *c, size_t n) {
    int64_t sum = 0, nfa = 0;
    for (size_t i = 0; i < n; i++) {
        const k8s_claim_spec *sp = &c->call[i]->spec;
        for (size_t r = 0; r < sp->nrequests; r++) {
            const k8s_device_request *q = &sp->requests[r];
            if (!q->nfirst_available) continue;
            nfa++;
            size_t len = strlen(q->name);
            const k8s_allocation *al = &c->out[i];
            for (size_t k = 0; k < al->nresults; k++) {
                const char *rq = al->results[k].request;
                if (strncmp(rq, q->name, len) || rq[len] != '/') continue;
                for (size_t x = 0; x < q->nfirst_available; x++)
                    if (!strcmp(rq + len + 1, q->first_available[x].name)) {
                        sum += x < 8 ? 8 - (int64_t)x : 0;
                        break;
                    }
                break;
            }
        }
    }
    return nfa ? (int32_t)(sum * 100 / (8 * nfa)) : 0;
}

/* The allocator on `node` (see run_allocator); `gpus` (mask, 0 = any) admits
 * only the devices of those GPUs of the node: the placement policy's device
 * choice (dra_gpus.c). When that finds nothing the allocator's own choice is
 * taken (the policy scored a view of the node, the allocator decides). */
static alloc_status run_allocator_on(const scheduler *s, dra_class *c, size_t node, size_t n, arena *into,
                                     int *mig_score, uint32_t gpus) {
    dra_state *d = s->dra;
    uint64_t steps = 0;
    sb_clear(&d->err);
    int ms = -1;
    alloc_status st = ALLOC_UNSATISFIABLE;
    if (gpus) {
        dra_gpu_pick pick = {d, node, gpus};
        allocator_set_device_filter(d->A, dra_gpu_filter, &pick);
        st = allocator_allocate(d->A, &s->nodes[node], c->call, n, into, c->out, &steps, &d->err);
        allocator_set_device_filter(d->A, NULL, NULL);
        d->allocate_calls++;
        d->steps += steps;
        if (st == ALLOC_OK) {
            if (mig_score) *mig_score = -1;
            place_mig_first_fit(d->mig);
            return st;
        }
        sb_clear(&d->err);
        steps = 0;
    }
    st = d->mig ? place_mig_allocate(d->mig, d->A, &s->nodes[node], node, c->call, n, into, c->out, &steps, &d->err, &ms)
                : allocator_allocate(d->A, &s->nodes[node], c->call, n, into, c->out, &steps, &d->err);
    if (mig_score) *mig_score = ms;
    d->allocate_calls++;
    d->steps += steps;
    if (st == ALLOC_ERROR) c->error = intern(sb_str(&d->err));
    return st;
}

/* The allocator on `node`; with fragmentation-aware MIG placement on
 * (place_mig.h) it chooses the MIG device and *mig_score gets its node score
 * (-1 = first fit was used). */
static alloc_status run_allocator(const scheduler *s, dra_class *c, size_t node, size_t n, arena *into,
                                  int *mig_score) {
    return run_allocator_on(s, c, node, n, into, mig_score, 0);
}

static bool dra_pre_filter(const scheduler *s, const pod_class *pc, sched_reasons *why) {
    dra_class *c = class_of(s, pc);
    if (c->never) add_reason(why, c->never);
    return c->never == NULL;
}

/* Why the allocator's status st is no fit. */
static const char *no_fit_reason(const dra_class *c, alloc_status st) {
    return st == ALLOC_TIMEOUT                ? "allocation search budget exhausted"
           : st == ALLOC_ERROR && c->error ? c->error
           : c->explain                    ? c->explain
                                           : "cannot allocate all claims";
}

/* dra_filter for a class with one template claim and no subrequest lists,
 * without MIG placement: the allocator's status alone (no results, score 0),
 * as the general way below gets it. */
static bool filter_lone(const scheduler *s, dra_class *c, size_t node, sched_reasons *why) {
    dra_state *d = s->dra;
    c->call[0] = &c->own[0];
    c->call_shared[0] = -1;
    c->score[node] = 0;
    uint64_t steps = 0;
    sb_clear(&d->err);
    alloc_status st = allocator_allocate(d->A, &s->nodes[node], c->call, 1, NULL, c->out, &steps, &d->err);
    d->allocate_calls++;
    d->steps += steps;
    if (st == ALLOC_OK) return true;
    if (st == ALLOC_ERROR) c->error = intern(sb_str(&d->err));
    add_reason(why, no_fit_reason(c, st));
    return false;
}

static bool dra_filter(const scheduler *s, const pod_class *pc, size_t node, sched_reasons *why) {
    dra_class *c = class_of(s, pc);
    if (!c->any) return true;
    if (c->never) {
        add_reason(why, c->never);
        return false;
    }
    if (c->lone && !s->dra->mig) return filter_lone(s, c, node, why);
    size_t n;
    if (!collect(s, c, node, &n)) {
        add_reason(why, "resourceclaim not available on the node");
        return false;
    }
    c->score[node] = 0;
    if (n == 0) return true;
    arena_reset(&s->dra->scratch);
    int ms;
    /* the results matter for MIG placement and the prioritized-list score only */
    arena *into = s->dra->mig || has_first_available(c, n) ? &s->dra->scratch : NULL;
    alloc_status st = run_allocator(s, c, node, n, into, &ms);
    if (st != ALLOC_OK) {
        add_reason(why, no_fit_reason(c, st));
        return false;
    }
    c->score[node] = ms >= 0 ? ms : list_score(c, n);
    return true;
}

static int64_t dra_score(const scheduler *s, const pod_class *pc, size_t node) {
    dra_class *c = class_of(s, pc);
    return c->any ? c->score[node] : 0;
}

/* Re-evaluate every class that uses shared claim sh (its allocation changed). */
static void refresh_users(scheduler *s, const dra_shared *sh) {
    for (size_t i = 0; i < sh->nclasses; i++) sched_refresh_class(s, sh->classes[i]);
}

/* The GPUs of the view an allocation on `node` takes: +1 at commit, -1 at release. */
static uint32_t view_gpus(scheduler *s, size_t node, const k8s_allocation *al, int sign) {
    int16_t milli[GS_MAX_GPUS] = {0};
    dra_allocation_gpu_milli(s->dra, node, al, milli);
    if (sign) gpu_view_add_gpus(&s->gv, node, milli, sign);
    uint32_t mask = 0;
    for (int g = 0; g < GS_MAX_GPUS; g++)
        if (milli[g]) mask |= 1u << g;
    return mask;
}

/* view_gpus for plain results by uid (dra_uid.c): the same milli, summed the same way. */
static uint32_t view_gpus_uids(scheduler *s, size_t node, const uint32_t *uids, size_t n, int sign) {
    int16_t milli[GS_MAX_GPUS] = {0};
    for (size_t k = 0; k < n; k++) {
        const dra_uid_facts *f = dra_uid_facts_of(s->dra, uids[k], node);
        if (f->gpu < 0) continue;
        int v = f->milli + milli[f->gpu];
        milli[f->gpu] = (int16_t)(v > GS_MILLI ? GS_MILLI : v);
    }
    if (sign) gpu_view_add_gpus(&s->gv, node, milli, sign);
    uint32_t mask = 0;
    for (int g = 0; g < GS_MAX_GPUS; g++)
        if (milli[g]) mask |= 1u << g;
    return mask;
}

/* reserve_account of n plain results, devices uids[0..n): the sums and the
 * view's GPUs of view_gpus_uids in one pass over the per-uid facts. */
static uint32_t reserve_account_uids(scheduler *s, size_t node, const uint32_t *uids, size_t n, dra_record *r) {
    double eq = 0;
    int64_t mig = 0;
    int16_t milli[GS_MAX_GPUS] = {0};
    for (size_t k = 0; k < n; k++) {
        const dra_uid_facts *f = dra_uid_facts_of(s->dra, uids[k], node);
        if (f->gpu >= 0) {
            int v = f->milli + milli[f->gpu];
            milli[f->gpu] = (int16_t)(v > GS_MILLI ? GS_MILLI : v);
        }
        if (!f->present) continue;
        eq += f->equiv;
        mig += f->mig;
    }
    r->gpu_equiv = eq;
    r->mig_devices = (uint16_t)mig;
    gpu_view_add_gpus(&s->gv, node, milli, +1);
    uint32_t mask = 0;
    for (int g = 0; g < GS_MAX_GPUS; g++)
        if (milli[g]) mask |= 1u << g;
    return mask;
}

/* Reserve's accounting of allocation al on `node`: the view's GPUs (+1),
 * GPU-equivalents and MIG devices; from the per-uid facts when its results
 * are plain (uids: dra_plain_uids), else by name. */
static uint32_t reserve_account(scheduler *s, size_t node, const k8s_allocation *al, dra_record *r,
                                const uint32_t *uids) {
    dra_state *d = s->dra;
    if (!uids) {
        r->gpu_equiv = dra_allocation_gpu_equiv(d, al);
        r->mig_devices = (uint16_t)dra_allocation_mig_devices(d, al);
        return view_gpus(s, node, al, +1);
    }
    return reserve_account_uids(s, node, uids, al->nresults, r);
}

/* Cache hints for a Reserve or Unreserve on `node` whose node-side reads
 * (the allocator's quick answer, its devices' flags and facts) would each
 * be a cache miss after the other (issue 31: ~10 a pod at 10,000 nodes).
 * Stage 1 hints the quick answer; stage 2, once it has arrived, the rest. */
static void prefetch_node(const scheduler *s, size_t node, int stage) {
    const dra_state *d = s->dra;
    if (stage == 1) {
        allocator_prefetch_node(d->A, &s->nodes[node]);
        __builtin_prefetch(&s->gv.nodes[node]);
        return;
    }
    uint32_t first, n;
    if (!allocator_prefetch_uids(d->A, &s->nodes[node], &first, &n) || first + n > d->nfacts) return;
    for (uint32_t u = 0; u < n; u += 64 / sizeof *d->facts) __builtin_prefetch(&d->facts[first + u]);
    __builtin_prefetch(&d->facts[first + n - 1]);
}

/* Reserve of the pod's one template claim when its devices are plain
 * (allocator_take_plain): the devices the search would take, committed,
 * accounted and recorded by uid, as the full path below does them; false
 * (nothing done) otherwise. Upstream's Reserve takes what its Filter found
 * for the node; here Filter's answer on the node still holds (a change
 * re-runs it before the next pick), so the same devices come back. */
static bool reserve_taken(scheduler *s, dra_class *c, size_t node, placement *p, uint32_t *gpus) {
    dra_state *d = s->dra;
    uint32_t uids[64];
    uint64_t steps = 0;
    size_t nu = allocator_take_plain(d->A, &s->nodes[node], c->call, 1, uids, 64, &steps);
    if (!nu) return false;
    d->allocate_calls++;
    d->steps += steps;
    dra_record r = {.pod = p->pod, .claim = c->own_names[0]};
    *gpus = reserve_account_uids(s, node, uids, nu, &r);
    d->cur_gpu_equiv += r.gpu_equiv;
    d->cur_mig_devices += r.mig_devices;
    d->claims_created++;
    dra_add_record_uids(d, &r, uids, nu, c->call[0]->spec.requests[0].name);
    return true;
}

static void dra_reserve(scheduler *s, const pod_class *pc, size_t node, placement *p) {
    dra_state *d = s->dra;
    dra_class *c = class_of(s, pc);
    if (!c->any) return;
    prefetch_node(s, node, 1);
    prefetch_node(s, node, 2);
    size_t n;
    if (!collect(s, c, node, &n)) return;   /* Filter said it fits: cannot happen */
    bool mig_placed = pc->dra_mig && place_mig_chooses(d->mig);   /* fgd's MIG placement decides */
    uint32_t prefer = s->cfg.policy && pc->dra_gpus && !mig_placed ? p->gpus : 0;   /* the policy's GPUs */
    uint32_t gpus = 0;
    bool changed_shared[64] = {0};
    if (n == 1 && c->call_shared[0] < 0 && !d->mig && !prefer && reserve_taken(s, c, node, p, &gpus)) goto reserved;
    /* the records keep results compact (dra_records.c): the full ones only
     * live for this call, but a shared claim's allocation stays (dra_shared.al) */
    arena *into = &d->scratch;
    for (size_t i = 0; i < n; i++)
        if (c->call_shared[i] >= 0) into = &d->keep;
    if (into == &d->scratch) arena_reset(into);
    if (n && run_allocator_on(s, c, node, n, into, NULL, prefer) != ALLOC_OK) return;
    for (size_t i = 0; i < n; i++) {
        allocator_commit(d->A, &c->out[i]);
        if (d->mig) place_mig_commit(d->mig, &c->out[i], s->now);
        dra_record r = {.pod = p->pod};
        uint32_t uids[64];
        const uint32_t *plain = dra_plain_uids(d, &c->out[i], uids, 64) ? uids : NULL;
        gpus |= reserve_account(s, node, &c->out[i], &r, plain);
        d->cur_gpu_equiv += r.gpu_equiv;
        d->cur_mig_devices += r.mig_devices;
        if (c->call_shared[i] < 0) {
            r.claim = c->own_names[i];
            d->claims_created++;
        } else {
            dra_shared *sh = &d->shared[c->call_shared[i]];
            sh->allocated = true;
            sh->al = c->out[i];
            sh->gpu_equiv = r.gpu_equiv;
            sh->users = 1;
            sh->node = node;
            r.claim = sh->name;
            r.shared = true;
            d->shared_allocated++;
            if (i < 64) changed_shared[i] = true;
        }
        dra_add_record(d, &r, &c->out[i], plain);
    }
reserved:
    /* shared claims allocated before: only reserved */
    for (size_t i = 0; i < c->nshared; i++) {
        dra_shared *sh = &d->shared[c->shared[i]];
        bool just = false;
        for (size_t k = 0; k < n; k++) just |= c->call_shared[k] == (int32_t)c->shared[i];
        if (just) continue;
        sh->users++;
        gpus |= view_gpus(s, node, &sh->al, 0);
        dra_record r = {.pod = p->pod, .claim = sh->name, .shared = true};
        dra_add_record(d, &r, &sh->al, NULL);
    }
    p->gpus = gpus;
    if (d->cur_gpu_equiv > d->peak_gpu_equiv) d->peak_gpu_equiv = d->cur_gpu_equiv;
    for (size_t i = 0; i < n && i < 64; i++)
        if (changed_shared[i]) refresh_users(s, &d->shared[c->call_shared[i]]);
}

/* Unreserve of a template claim whose results are all plain (kept as uid
 * and request, dra_records.c): released by uid, the view's GPUs from the
 * per-uid facts; false (nothing done) when a result is kept whole. */
static bool unreserve_plain(scheduler *s, size_t node, const dra_record *r) {
    dra_state *d = s->dra;
    uint32_t uids[64];
    if (r->nresults > 64) return false;
    for (uint32_t k = 0; k < r->nresults; k++) {
        dra_result x = d->results.data[r->first + k];
        if (DRA_RESULT_REQ(x) == DRA_RESULT_RARE) return false;
        uids[k] = DRA_RESULT_UID(x);
    }
    for (uint32_t k = 0; k < r->nresults; k++) allocator_release_uid(d->A, uids[k]);
    view_gpus_uids(s, node, uids, r->nresults, -1);
    d->cur_gpu_equiv -= r->gpu_equiv;
    d->cur_mig_devices -= r->mig_devices;   /* counted at Reserve */
    d->claims_deleted++;
    return true;
}

static void dra_unreserve(scheduler *s, const pod_class *pc, size_t node, const placement *p) {
    dra_state *d = s->dra;
    if (!class_of(s, pc)->any) return;
    prefetch_node(s, node, 1);
    size_t n;
    dra_record *r = (dra_record *)dra_pod_records(d, p->pod, &n);
    if (n && r[0].first < d->results.len) __builtin_prefetch(&d->results.data[r[0].first]);
    prefetch_node(s, node, 2);
    for (size_t i = 0; i < n; i++) {
        if (r[i].deleted) continue;
        r[i].deleted = true;
        if (!r[i].shared && !d->mig && unreserve_plain(s, node, &r[i])) continue;
        if (!r[i].shared) {
            const k8s_allocation *al = dra_record_allocation(d, &r[i]);
            allocator_release(d->A, al);
            if (d->mig) place_mig_release(d->mig, al, s->now);
            view_gpus(s, node, al, -1);
            d->cur_gpu_equiv -= r[i].gpu_equiv;
            d->cur_mig_devices -= r[i].mig_devices;   /* counted at Reserve */
            d->claims_deleted++;
            continue;
        }
        dra_shared *sh = NULL;
        for (size_t k = 0; k < d->nshared && !sh; k++)
            if (d->shared[k].name == r[i].claim) sh = &d->shared[k];
        if (!sh || --sh->users > 0) continue;
        allocator_release(d->A, &sh->al);
        if (d->mig) place_mig_release(d->mig, &sh->al, s->now);
        view_gpus(s, sh->node, &sh->al, -1);
        d->cur_gpu_equiv -= sh->gpu_equiv;
        d->cur_mig_devices -= dra_allocation_mig_devices(d, &sh->al);
        sh->allocated = false;
        d->shared_freed++;
        refresh_users(s, sh);
    }
}

bool dra_probe_shape(scheduler *s, uint32_t ci, gs_pod *shape, bool *mig) {
    dra_state *d = s->dra;
    pod_class *pc = &s->classes[ci];
    dra_class *c = class_of(s, pc);
    *mig = false;
    if (!c->any || c->never) return false;
    uint64_t calls = d->allocate_calls, steps = d->steps;   /* a look, not a scheduling step: not counted */
    const char *error = c->error;
    bool found = false;
    for (size_t node = 0; node < s->nnodes && !found; node++) {
        if (!((pc->eligible[node >> 6] >> (node & 63)) & 1)) continue;
        size_t n;
        if (!collect(s, c, node, &n) || n == 0) continue;
        arena_free(&d->scratch);
        if (run_allocator(s, c, node, n, &d->scratch, NULL) != ALLOC_OK) continue;
        int16_t milli[GS_MAX_GPUS] = {0};
        for (size_t i = 0; i < n; i++) {
            if (c->call_shared[i] >= 0) continue;   /* a shared claim's GPUs are taken once, by its first user */
            dra_allocation_gpu_milli(d, node, &c->out[i], milli);
            for (size_t k = 0; k < c->out[i].nresults; k++) {
                const k8s_device *dev = allocator_find_device(d->A, c->out[i].results[k].driver,
                                                              c->out[i].results[k].pool, c->out[i].results[k].device);
                for (size_t a = 0; dev && a < k8s_dev_nattrs(dev); a++) {
                    const k8s_attribute *at = k8s_dev_attr(dev, a);
                    /* a dynamic-MIG device (it consumes its GPU's counters): place_mig.h's to place */
                    if (!strcmp(at->id, "type") && at->kind == ATTR_STRING && !strcmp(at->s, "mig") && dev->nconsumes)
                        *mig = true;
                }
            }
        }
        int ngpu = 0, top = 0;
        for (int g = 0; g < GS_MAX_GPUS; g++)
            if (milli[g]) {
                ngpu++;
                if (milli[g] > top) top = milli[g];
            }
        shape->ngpu = ngpu;
        shape->milli = ngpu > 1 ? GS_MILLI : top;
        found = true;
    }
    d->allocate_calls = calls;
    d->steps = steps;
    c->error = error;
    return found && shape->ngpu > 0;
}

const sched_plugin plugin_dynamic_resources = {.name = "DynamicResources", .weight = 1,
                                               .pre_filter = dra_pre_filter, .filter = dra_filter,
                                               .score = dra_score, .reserve = dra_reserve,
                                               .unreserve = dra_unreserve};
