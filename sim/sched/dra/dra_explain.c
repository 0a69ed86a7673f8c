/*
 * dra_explain.c -- why the allocator finds no fit for a pod class, worded as
 * specifically as the device plugin's "Insufficient nvidia.com/gpu" (see
 * dra.h, dra_explain_begin). Diagnostics only: the allocation itself stays
 * upstream's. For each `exactly` request (ExactCount) of the class's own
 * claims, alone (no constraints, the other requests left out):
 *  - free block: over the eligible nodes, the largest count k <= count that
 *    the live allocator (devices in use taken) would allocate, by bisection
 *    on a node that beats the best so far (k devices fit when k + 1 do);
 *  - when no node takes the full count: the same on an allocator with no
 *    device in use, the devices that match at all.
 * The first request no node can take gives the reason:
 *  - nothing matches anywhere: "request R: no device matches selector S (class C)";
 *  - some match but fewer than the count on every node: "request R needs N
 *    devices on one node; at most M match on any node";
 *  - a ComputeDomain channel (class compute-domain-default-channel.nvidia.com)
 *    that exists but is taken everywhere: the IMEX rule, one ComputeDomain per
 *    node (NVIDIA DRA driver v0.4.1: one channel-0 per node, one claim on it);
 *  - else: "request R needs N devices on one node; the largest free block on
 *    any node is F", or for one device "request R: no matching device is free
 *    on any node (in use, or its GPU's capacity taken)".
 * When every request fits somewhere alone, the claims fail only together:
 * the Filter keeps "cannot allocate all claims".
 */
#include <stdio.h>
#include <string.h>

#include "model/compute_domain.h"
#include "sched/dra/dra_internal.h"
#include "sched/sched.h"
#include "util/intern.h"

static bool fits(dra_state *d, allocator *A, const k8s_node *node, k8s_resource_claim *claim, k8s_device_request *one,
                 int64_t k) {
    one->exactly.count = k;
    k8s_allocation out;
    uint64_t steps = 0;
    arena_reset(&d->scratch);
    sb_clear(&d->err);
    bool ok = allocator_allocate(A, node, &claim, 1, &d->scratch, &out, &steps, &d->err) == ALLOC_OK;
    sb_clear(&d->err);
    return ok;
}

/* Largest k in [0, count] for which a claim with request q (count k) alone
 * allocates on one eligible node with allocator A. A node is bisected only
 * when it beats the best so far (one call for most nodes). */
static int64_t best_over_nodes(const scheduler *s, const pod_class *pc, allocator *A, const k8s_device_request *q,
                               int64_t count) {
    k8s_device_request one = *q;
    k8s_resource_claim claim = {0};
    claim.meta.name = "drasim-explain";
    claim.spec.requests = &one;
    claim.spec.nrequests = 1;
    int64_t best = 0;
    for (size_t node = 0; node < s->nnodes && best < count; node++) {
        if (!((pc->eligible[node >> 6] >> (node & 63)) & 1)) continue;
        const k8s_node *n = &s->nodes[node];
        if (!fits(s->dra, A, n, &claim, &one, best + 1)) continue;
        int64_t lo = best + 1, hi = count;   /* lo fits, hi + 1 does not */
        while (lo < hi) {
            int64_t mid = lo + (hi - lo + 1) / 2;
            if (fits(s->dra, A, n, &claim, &one, mid)) lo = mid;
            else hi = mid - 1;
        }
        best = lo;
    }
    return best;
}

void dra_explain_begin(const scheduler *s, uint32_t ci) {
    dra_state *d = s->dra;
    if (!d || ci >= d->ncls) return;
    dra_class *c = &d->cls[ci];
    const pod_class *pc = &s->classes[ci];
    c->explain = NULL;
    if (!c->any || c->never || !pc->eligible) return;
    char buf[600];
    for (size_t i = 0; i < c->nown && !c->explain; i++) {
        const k8s_claim_spec *sp = &c->own[i].spec;
        for (size_t r = 0; r < sp->nrequests && !c->explain; r++) {
            const k8s_device_request *q = &sp->requests[r];
            if (!q->has_exactly || q->exactly.mode != ALLOC_MODE_EXACT_COUNT) continue;
            int64_t count = q->exactly.count > 0 ? q->exactly.count : 1;
            int64_t free_best = best_over_nodes(s, pc, d->A, q, count);
            if (free_best >= count) continue;
            if (!d->explain_empty) {   /* built once per run, freed by dra_free */
                d->explain_empty = allocator_new(&d->features, d->slices, d->nslices, d->classes, d->nclasses, NULL, 0);
                allocator_set_nodes(d->explain_empty, s->nodes, s->nnodes);
                allocator_set_step_limit(d->explain_empty, ALLOC_SEARCH_BUDGET_DEFAULT);
            }
            allocator *empty = d->explain_empty;
            int64_t match_best = best_over_nodes(s, pc, empty, q, count);
            const char *cls = q->exactly.device_class_name ? q->exactly.device_class_name : "";
            if (match_best == 0 && q->exactly.nselectors) {
                strbuf sel = {0};   /* the request's selectors, all of which a device must pass */
                for (size_t k = 0; k < q->exactly.nselectors; k++)
                    sb_printf(&sel, "%s%s", k ? " && " : "", q->exactly.selectors[k] ? q->exactly.selectors[k] : "");
                snprintf(buf, sizeof buf, "request %s: no device matches selector %s (class %s)", q->name, sb_str(&sel),
                         cls);
                sb_free(&sel);
            }
            else if (match_best == 0)
                snprintf(buf, sizeof buf, "request %s: no device of class %s on the node", q->name, cls);
            else if (match_best < count)
                snprintf(buf, sizeof buf, "request %s needs %lld devices on one node; at most %lld match on any node",
                         q->name, (long long)count, (long long)match_best);
            else if (count == 1 && !strcmp(cls, CD_CHANNEL_CLASS))   /* engine/sim_cd.h */
                snprintf(buf, sizeof buf,
                         "request %s: the IMEX channel-0 of every node is taken (one ComputeDomain per node: a node's "
                         "channel-0 serves the channel claim of one pod of one ComputeDomain at a time)",
                         q->name);
            else if (count == 1)   /* dynamic MIG: the GPU's counters (memory slices) may be what is taken */
                snprintf(buf, sizeof buf,
                         "request %s: no matching device is free on any node (in use, or its GPU's capacity taken)",
                         q->name);
            else
                snprintf(buf, sizeof buf,
                         "request %s needs %lld devices on one node; the largest free block on any node is %lld", q->name,
                         (long long)count, (long long)free_best);
            c->explain = intern(buf);
        }
    }
}

void dra_explain_end(const scheduler *s, uint32_t ci) {
    if (s->dra && ci < s->dra->ncls) s->dra->cls[ci].explain = NULL;
}
