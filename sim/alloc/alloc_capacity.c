/*
 * alloc_capacity.c -- consumable capacity (request policies, fit against what
 * is allocated and being allocated) and pool-wide counters of partitionable
 * devices (upstream consumable_capacity.go and the counter checks of
 * allocator_incubating.go, v1.36).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_internal.h"
#include "util/intern.h"
#include "util/xalloc.h"

/* ---- consumable capacity ------------------------------------------------------- */

/* Round a requested amount up to what the policy hands out. */
static quantity round_request(const k8s_capacity *cap, quantity v) {
    if (cap->policy == CAP_POLICY_VALID_RANGE) {
        if (quantity_cmp(&v, &cap->range_min) < 0) return cap->range_min;
        if (cap->has_range_step) {
            int64_t req = quantity_value(&v), step = quantity_value(&cap->range_step), min = quantity_value(&cap->range_min);
            if (step <= 0) return v;
            /* checked: hostile slices may publish values near the int64 limits */
            int64_t added, n, up;
            if (__builtin_sub_overflow(req, min, &added)) return v;
            n = added / step;
            if (added % step) n++;
            if (__builtin_mul_overflow(step, n, &up) || __builtin_add_overflow(min, up, &up)) return v;
            return quantity_from_int64(up, QF_BINARY_SI);
        }
        return v;
    }
    if (cap->policy == CAP_POLICY_VALID_VALUES) {
        for (size_t i = 0; i < cap->nvalid_values; i++)
            if (quantity_cmp(&cap->valid_values[i], &v) >= 0) return cap->valid_values[i];
    }
    return v;
}

static bool violates_policy(const k8s_capacity *cap, const quantity *v) {
    if (!cap->has_policy) return false;
    if (cap->has_default && quantity_cmp(v, &cap->def) == 0) return false;
    if (cap->policy == CAP_POLICY_VALID_RANGE) {
        if (cap->has_range_max && quantity_cmp(v, &cap->range_max) > 0) return true;
        if (cap->has_range_step) {
            int64_t step = quantity_value(&cap->range_step);
            int64_t d;
            if (step > 0 && (__builtin_sub_overflow(quantity_value(v), quantity_value(&cap->range_min), &d) || d % step != 0))
                return true;
        }
        return false;
    }
    if (cap->policy == CAP_POLICY_VALID_VALUES) {
        for (size_t i = 0; i < cap->nvalid_values; i++)
            if (quantity_cmp(v, &cap->valid_values[i]) == 0) return false;
        return true;
    }
    return false;
}

/* The capacity's name as the slice wrote it (requests match it verbatim).
 * Objects built in memory may leave qname unset: then the driver's own
 * domain is written bare, as drivers publish it. */
const char *alloc_cap_name(const k8s_capacity *cap, const char *driver) {
    if (cap->qname) return cap->qname;
    if (!cap->domain || cap->domain == driver) return cap->id;
    char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", cap->domain, cap->id);
    return intern(buf);
}

/* The common case of alloc_capacity_fits: no capacity requested, nothing
 * consumed or being consumed on the device, no policies: each capacity
 * "consumes" its own value, which always fits. */
static bool plain_fit(const acall *c, const k8s_device_request_spec *spec, const adev *d, quantity *vals) {
    const allocator *A = c->A;
    if (spec->ncapacity || (A->uid_shared[d->uid] & 2) || c->allocating.len ||
        (A->dev_flags[d - A->devs.data] & DEV_CAP_POLICY))
        return false;
    for (size_t i = 0; vals && i < d->d->ncaps; i++) vals[i] = d->d->caps[i].value;
    return true;
}

bool alloc_capacity_fits(acall *c, const rdata *rd, const adev *d, quantity *vals) {
    const k8s_device_request_spec *spec = rd->spec;
    const k8s_device *dev = d->d;
    if (plain_fit(c, spec, d, vals)) return true;
    const char *driver = c->A->slices.data[d->slice].s->driver;
    for (size_t q = 0; q < spec->ncapacity; q++) {
        bool found = false;
        for (size_t i = 0; i < dev->ncaps && !found; i++) found = alloc_cap_name(&dev->caps[i], driver) == spec->capacity[q].qname;
        if (!found) return false;   /* requests a capacity the device does not have */
    }
    for (size_t i = 0; i < dev->ncaps; i++) {
        const k8s_capacity *cap = &dev->caps[i];
        const char *name = alloc_cap_name(cap, driver);
        const k8s_capacity_request *req = NULL;
        for (size_t q = 0; q < spec->ncapacity; q++)
            if (spec->capacity[q].qname == name) req = &spec->capacity[q];
        quantity v;
        if (req) v = cap->has_policy ? round_request(cap, req->value) : req->value;
        else if (cap->has_policy && cap->has_default) v = cap->def;
        else v = cap->value;
        if (violates_policy(cap, &v)) return false;
        quantity total = v;
        if (c->A->uid_shared[d->uid] & 2) {
            const alloc_consumed *agg = alloc_aggregated(c->A, d->uid, name);
            if (agg) aq_add(&total, &agg->value);
        }
        for (size_t k = 0; k < c->allocating.len; k++)
            if (c->allocating.data[k].uid == d->uid && c->allocating.data[k].cap == name)
                aq_add(&total, &c->allocating.data[k].value);
        if (aq_cmp(&total, &cap->value) > 0) return false;
        if (vals) vals[i] = v;
    }
    return true;
}

/* Upstream: an AggregatedCapacity entry, or an allocatingCapacity entry
 * (which exists even for a shared device without capacities). */
bool alloc_uid_capacity_in_use(const acall *c, uint32_t uid) {
    if (c->A->uid_shared[uid] & 2) return true;
    for (size_t k = 0; k < c->allocating.len; k++)
        if (c->allocating.data[k].uid == uid) return true;
    return false;
}

/* ---- counters ---------------------------------------------------------------------- */

static ccstate *state_for(acall *c, ccounters *cc) {
    for (size_t i = 0; i < c->cstates.len; i++)
        if (c->cstates.data[i].ctr == cc) return &c->cstates.data[i];
    ccstate s = {.ctr = cc, .consumed = cc->scratch, .violated = cc->neg};
    VEC_PUSH(c->cstates, s);
    return &c->cstates.data[c->cstates.len - 1];
}

/* Indices into cc of the counters the device consumes (cached per device;
 * the layout of a pool name never changes). Unknown counters map to
 * UINT16_MAX (such pools are invalid and never searched). */
static const uint16_t *counter_indices(acall *c, ccounters *cc, const adev *ad, size_t *n) {
    allocator *A = c->A;
    size_t di = (size_t)(ad - A->devs.data);
    *n = 0;
    for (size_t k = 0; k < ad->d->nconsumes; k++) *n += ad->d->consumes[k].ncounters;
    if (A->dev_ctr[di] < 0) {
        A->dev_ctr[di] = (int32_t)A->ctr_idx.len;
        for (size_t k = 0; k < ad->d->nconsumes; k++) {
            const k8s_counter_set *cs = &ad->d->consumes[k];
            for (size_t q = 0; q < cs->ncounters; q++) {
                uint16_t x = UINT16_MAX;
                for (size_t j = 0; j < cc->n; j++)
                    if (cc->set[j] == cs->name && cc->name[j] == cs->counters[q].name) { x = (uint16_t)j; break; }
                VEC_PUSH(A->ctr_idx, x);
            }
        }
    }
    if (*n == 0) return NULL;   /* consumesCounters entries without counters: nothing to index */
    return A->ctr_idx.data + A->dev_ctr[di];
}

/* Add (sign > 0) or remove the device's consumption; keeps `violated` exact. */
static void apply(acall *c, ccstate *st, const adev *ad, int sign) {
    ccounters *cc = st->ctr;
    size_t n;
    const uint16_t *idx = counter_indices(c, cc, ad, &n);
    size_t i = 0;
    for (size_t k = 0; k < ad->d->nconsumes; k++) {
        const k8s_counter_set *cs = &ad->d->consumes[k];
        for (size_t q = 0; q < cs->ncounters; q++, i++) {
            uint16_t x = idx[i];
            if (x == UINT16_MAX) continue;
            bool before = aq_cmp(&cc->avail[x], &st->consumed[x]) < 0;
            if (sign > 0) aq_add(&st->consumed[x], &cs->counters[q].value);
            else aq_sub(&st->consumed[x], &cs->counters[q].value);
            bool after = aq_cmp(&cc->avail[x], &st->consumed[x]) < 0;
            st->violated += (int)after - (int)before;
        }
    }
}

bool alloc_counters_take(acall *c, const cpool *p, const adev *d) {
    if (!d->d->nconsumes) return true;
    if (!p->ctr) return false;
    ccstate *st = state_for(c, p->ctr);
    apply(c, st, d, +1);
    if (st->violated > 0) {
        apply(c, st, d, -1);
        return false;
    }
    return true;
}

void alloc_counters_release(acall *c, const cpool *p, const adev *d) {
    if (!d->d->nconsumes || !p->ctr) return;
    apply(c, state_for(c, p->ctr), d, -1);
}
