/*
 * kq_dra.c -- Kueue's DRA integration: what a pod's claims cost in quota
 * (kubernetes-sigs/kueue ff69552e79; our own C after its Go):
 *
 *  - pkg/dra/claims.go GetResourceRequestsForResourceClaimTemplates,
 *    countDevicesPerClass: per template claim and `exactly` request (not
 *    adminAccess), `count` devices of its DeviceClass, charged under the
 *    resource the class's deviceClassMappings entry names; FirstAvailable,
 *    allocationMode All and an unmapped class make the Workload
 *    inadmissible. validateCELSelectorsAgainstDevices: a request with CEL
 *    selectors needs `count` devices of the cluster that its class's and its
 *    own selectors match (a device counted once per claim), else
 *    "insufficient matching devices for CEL selector ...".
 *  - pkg/dra/counters.go GetCounterResourcesForWorkload (feature
 *    KueueDRAIntegrationPartitionableDevices, beta and on since v0.19): a
 *    class whose mapping has counter sources is not charged per device;
 *    for each counter source, the devices of the source's driver in complete
 *    pools (groupSlicesByPool) that the source's deviceSelector, the class's
 *    selectors and the request's selectors all match; the charge is the
 *    largest value of the counter those devices consume, times `count`
 *    (computeCounterCharges), under the mapping's resource. Fewer matching
 *    devices than `count`, or none consuming the counter: inadmissible.
 *
 * A MIG request of the NVIDIA DRA driver's dynamic MIG (abstract devices per
 * profile and placement, each consuming `memory` from its GPU's counter set)
 * is so charged its profile's memory, whatever placement it gets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/kq_dra.h"
#include "util/intern.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static int by_pool(const void *x, const void *y) {
    const k8s_resource_slice *a = *(const k8s_resource_slice *const *)x, *b = *(const k8s_resource_slice *const *)y;
    int c = strcmp(a->pool ? a->pool : "", b->pool ? b->pool : "");
    if (c) return c;
    return a->generation < b->generation ? 1 : a->generation > b->generation ? -1 : 0;   /* highest first */
}

size_t kq_dra_pools(const k8s_resource_slice *const *slices, size_t n, const char *driver, kq_dra_pool **out) {
    const k8s_resource_slice **mine = xcalloc(n ? n : 1, sizeof *mine);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (slices[i]->driver && !strcmp(slices[i]->driver, driver)) mine[m++] = slices[i];
    if (m > 1) qsort(mine, m, sizeof *mine, by_pool);
    kq_dra_pool *p = xcalloc(m ? m : 1, sizeof *p);
    size_t np = 0;
    for (size_t i = 0; i < m;) {
        size_t j = i;
        const char *name = mine[i]->pool ? mine[i]->pool : "";
        while (j < m && !strcmp(mine[j]->pool ? mine[j]->pool : "", name)) j++;
        /* the highest generation's slices (sorted first); older ones are dropped */
        size_t e = i;
        while (e < j && mine[e]->generation == mine[i]->generation) e++;
        kq_dra_pool *q = &p[np++];
        *q = (kq_dra_pool){name, mine[i]->generation, mine[i]->slice_count, xcalloc(e - i, sizeof *q->slices), e - i};
        memcpy(q->slices, mine + i, (e - i) * sizeof *mine);
        i = j;
    }
    free(mine);
    *out = p;
    return np;
}

void kq_dra_pools_free(kq_dra_pool *p, size_t n) {
    for (size_t i = 0; i < n; i++) free(p[i].slices);
    free(p);
}

int64_t kq_dra_counter_charge(const k8s_device *const *matched, size_t n, const char *name, int64_t count, bool *found) {
    const quantity *best = NULL;
    for (size_t i = 0; i < n; i++)
        for (size_t s = 0; s < matched[i]->nconsumes; s++) {
            const k8s_counter_set *cs = &matched[i]->consumes[s];
            for (size_t c = 0; c < cs->ncounters; c++)
                if (!strcmp(cs->counters[c].name, name) && (!best || quantity_cmp(&cs->counters[c].value, best) > 0))
                    best = &cs->counters[c].value;
        }
    *found = best != NULL;
    if (!best) return 0;
    /* safeChargeValue: utilmath.SafeValue (clamped, rounded up), negative -> 0, SaturatingMul */
    int64_t v = quantity_sign(best) < 0 ? 0 : quantity_value(best);
    if (count > 1) v = v > INT64_MAX / count ? INT64_MAX : v * count;
    return v;
}

/* ---- selectors ---------------------------------------------------------------------- */

typedef struct progs {
    cel_program **p;
    size_t n;
} progs;

static void progs_free(progs *x) {
    for (size_t i = 0; i < x->n; i++) cel_program_free(x->p[i]);
    free(x->p);
    *x = (progs){0};
}

/* Compile `exprs`; -1 with *why ("<what>: CEL compilation failed: ...") on failure. */
static int compile_all(const kq_dra_cluster *cl, const char *const *exprs, size_t n, progs *out, const char *what,
                       strbuf *why) {
    out->p = xcalloc(n ? n : 1, sizeof *out->p);
    out->n = 0;
    for (size_t i = 0; i < n; i++) {
        strbuf e = {0};
        cel_program *p = cel_compile(exprs[i], strlen(exprs[i]), &cl->cel, &e);
        if (!p) {
            sb_printf(why, "%s: CEL compilation failed: %s", what, e.len ? sb_str(&e) : "?");
            sb_free(&e);
            return -1;
        }
        sb_free(&e);
        out->p[out->n++] = p;
    }
    return 0;
}

/* All of the programs match dev (evaluateSelectorsOnDevice); -1 with *why on an evaluation error. */
static int match_all(const progs *x, const k8s_device *dev, const char *driver, bool *ok, strbuf *why) {
    *ok = true;
    for (size_t i = 0; i < x->n && *ok; i++) {
        strbuf e = {0};
        if (cel_match_device(x->p[i], dev, driver, ok, &e)) {
            sb_printf(why, "CEL evaluation error for device %s: %s", dev->name, e.len ? sb_str(&e) : "?");
            sb_free(&e);
            return -1;
        }
        sb_free(&e);
    }
    return 0;
}

static const k8s_device_class *find_class(const kq_dra_cluster *cl, const char *name) {
    for (size_t i = 0; i < cl->nclasses; i++)
        if (!strcmp(cl->classes[i]->meta.name, name)) return cl->classes[i];
    return NULL;
}

/* The class's and the request's selectors compiled (prepareDeviceSelectors). */
static int prepare(const kq_dra_cluster *cl, const k8s_device_request_spec *x, progs *cls, progs *req, const char *path,
                   strbuf *why) {
    const k8s_device_class *dc = find_class(cl, x->device_class_name);
    if (!dc) {
        sb_printf(why, "%s: Internal error: failed to get DeviceClass %s: deviceclasses.resource.k8s.io \"%s\" not found",
                  path, x->device_class_name, x->device_class_name);
        return -1;
    }
    char what[256];
    snprintf(what, sizeof what, "%s: DeviceClass %s has invalid CEL selector", path, x->device_class_name);
    if (compile_all(cl, dc->selectors, dc->nselectors, cls, what, why)) return -1;
    snprintf(what, sizeof what, "%s.exactly.selectors", path);
    return compile_all(cl, x->selectors, x->nselectors, req, what, why);
}

/* ---- the count path: claims.go ----------------------------------------------------- */

typedef struct charges {
    k8s_resource_amount *a;
    size_t n, cap;
} charges;

static void charge_add(charges *c, const char *res, quantity q) {
    res = intern(res);
    size_t j = 0;
    while (j < c->n && c->a[j].name != res) j++;
    if (j == c->n) {
        if (c->n == c->cap) c->a = xrealloc(c->a, (c->cap = c->cap ? c->cap * 2 : 4) * sizeof *c->a);
        c->a[c->n++] = (k8s_resource_amount){res, quantity_from_int64(0, q.format)};
    }
    quantity sum;
    if (quantity_add(&c->a[j].value, &q, &sum) == 0) c->a[j].value = sum;
}

static bool has_counters(const kq_config *cfg, const char *cls) {
    for (size_t i = 0; i < cfg->ndc_mappings; i++)
        if (cfg->dc_mappings[i].ncounters && !strcmp(cfg->dc_mappings[i].device_class, cls)) return true;
    return false;
}

/* validateCELSelectorsAgainstDevices for one claim: each request with CEL
 * selectors needs `count` devices matching its class and itself, a device
 * counted for one request only. Devices: every slice, or only the counter
 * sources' drivers when every such request's class has counter sources. */
static int check_cel_requests(const kq_config *cfg, const kq_dra_cluster *cl, const dra_pod_claim *c, size_t j,
                              strbuf *why) {
    bool any = false, all_counters = true;
    for (size_t r = 0; r < c->spec.nrequests; r++) {
        const k8s_device_request *q = &c->spec.requests[r];
        if (!q->has_exactly || !q->exactly.nselectors) continue;
        any = true;
        if (!has_counters(cfg, q->exactly.device_class_name)) all_counters = false;
    }
    if (!any) return 0;
    size_t ndev = 0;
    for (size_t s = 0; s < cl->nslices; s++) ndev += cl->slices[s]->ndevices;
    bool *taken = xcalloc(ndev ? ndev : 1, sizeof *taken);
    int rc = 0;
    for (size_t r = 0; r < c->spec.nrequests && !rc; r++) {
        const k8s_device_request *q = &c->spec.requests[r];
        if (!q->has_exactly || !q->exactly.nselectors) continue;
        const k8s_device_request_spec *x = &q->exactly;
        char path[200];
        snprintf(path, sizeof path, "spec.podSets[0].template.spec.resourceClaims[%zu].devices.requests[%zu]", j, r);
        progs cls = {0}, req = {0};
        if (prepare(cl, x, &cls, &req, path, why)) rc = -1;
        int64_t got = 0;
        for (size_t s = 0, base = 0; !rc && s < cl->nslices && got < x->count; base += cl->slices[s++]->ndevices) {
            const k8s_resource_slice *sl = cl->slices[s];
            bool ours = !all_counters;
            for (size_t i = 0; !ours && i < cfg->ndc_mappings; i++)
                for (size_t k = 0; k < cfg->dc_mappings[i].ncounters; k++)
                    if (!strcmp(cfg->dc_mappings[i].device_class, x->device_class_name) &&
                        !strcmp(cfg->dc_mappings[i].counters[k].driver, sl->driver))
                        ours = true;
            for (size_t d = 0; ours && d < sl->ndevices && got < x->count; d++) {
                if (taken[base + d]) continue;
                bool ok;
                if (match_all(&cls, &sl->devices[d], sl->driver, &ok, why) ||
                    (ok && match_all(&req, &sl->devices[d], sl->driver, &ok, why))) {
                    rc = -1;
                    break;
                }
                if (ok) taken[base + d] = true, got++;
            }
        }
        if (!rc && got < x->count) {
            sb_printf(why, "%s.exactly.selectors: Internal error: ResourceClaimTemplate %s: insufficient matching devices "
                           "for CEL selector in DeviceClass %s: %lld device(s) match in the cluster but %lld requested",
                      path, c->name, x->device_class_name, (long long)got, (long long)x->count);
            rc = -1;
        }
        progs_free(&cls);
        progs_free(&req);
    }
    free(taken);
    return rc;
}

static int count_path(const kq_config *cfg, const kq_dra_cluster *cl, const pod_group_spec *ps, charges *out,
                      strbuf *why) {
    for (size_t i = 0; i < ps->ndra_claims; i++) {
        const dra_pod_claim *c = &ps->dra_claims[i];
        if (c->shared || c->template_name) continue;
        for (size_t r = 0; r < c->spec.nrequests; r++) {
            const k8s_device_request *q = &c->spec.requests[r];
            if (q->nfirst_available || !q->has_exactly) {
                sb_printf(why, "ResourceClaimTemplate %s: devices.requests[%zu]: FirstAvailable device selection is not supported", c->name, r);
                return -1;
            }
            const k8s_device_request_spec *x = &q->exactly;
            if (x->has_admin_access && x->admin_access) continue;
            if (x->mode != ALLOC_MODE_EXACT_COUNT) {
                sb_printf(why, "ResourceClaimTemplate %s: devices.requests[%zu].exactly.allocationMode: AllocationMode 'All' is not supported", c->name, r);
                return -1;
            }
        }
        if (check_cel_requests(cfg, cl, c, i, why)) return -1;
        for (size_t r = 0; r < c->spec.nrequests; r++) {
            const k8s_device_request_spec *x = &c->spec.requests[r].exactly;
            if ((x->has_admin_access && x->admin_access) || !x->device_class_name || !*x->device_class_name) continue;
            const char *res = kq_dc_resource(cfg, x->device_class_name);
            if (!res) {
                sb_printf(why, "DeviceClass %s is not mapped in DRA configuration for podset main", x->device_class_name);
                return -1;
            }
            if (has_counters(cfg, x->device_class_name)) continue;   /* charged by its counters below */
            charge_add(out, res, quantity_from_int64(x->count, QF_DECIMAL_SI));
        }
    }
    return 0;
}

/* ---- the counter path: counters.go ------------------------------------------------- */

/* processCounterCharge for one request and one counter source. */
static int counter_charge(const kq_dra_cluster *cl, const kq_dc_mapping *m, const kq_dc_counter *src,
                          const k8s_device_request_spec *x, const char *path, charges *out, strbuf *why) {
    progs cls = {0}, req = {0}, own = {0};
    kq_dra_pool *pools = NULL;
    size_t np = 0;
    VEC(const k8s_device *) matched = {0};
    int rc = prepare(cl, x, &cls, &req, path, why);
    const char *e = src->selector;
    if (!rc) rc = compile_all(cl, &e, 1, &own, path, why);
    if (!rc) np = kq_dra_pools(cl->slices, cl->nslices, src->driver, &pools);
    for (size_t p = 0; !rc && p < np; p++) {
        if (!kq_dra_pool_complete(&pools[p])) continue;   /* "Skipping incomplete pool" */
        for (size_t s = 0; !rc && s < pools[p].nslices; s++) {
            const k8s_resource_slice *sl = pools[p].slices[s];
            for (size_t d = 0; d < sl->ndevices; d++) {
                bool ok;
                if (match_all(&own, &sl->devices[d], sl->driver, &ok, why) ||
                    (ok && match_all(&cls, &sl->devices[d], sl->driver, &ok, why)) ||
                    (ok && match_all(&req, &sl->devices[d], sl->driver, &ok, why))) {
                    rc = -1;
                    break;
                }
                if (ok) VEC_PUSH(matched, &sl->devices[d]);
            }
        }
    }
    if (!rc && (int64_t)matched.len < x->count) {
        sb_printf(why, "%s: Internal error: insufficient matching devices for counter driver: %zu device(s) match but %lld requested",
                  path, matched.len, (long long)x->count);
        rc = -1;
    }
    if (!rc) {
        bool found;
        int64_t v = kq_dra_counter_charge(matched.data, matched.len, src->name, x->count, &found);
        if (!found) {
            sb_printf(why, "%s: Internal error: matched devices have no consumesCounters entry for counter \"%s\"", path, src->name);
            rc = -1;
        } else {
            charge_add(out, m->resource, quantity_from_int64(v, QF_BINARY_SI));
        }
    }
    VEC_FREE(matched);
    kq_dra_pools_free(pools, np);
    progs_free(&cls);
    progs_free(&req);
    progs_free(&own);
    return rc;
}

static int counter_path(const kq_config *cfg, const kq_dra_cluster *cl, const pod_group_spec *ps, charges *out,
                        strbuf *why) {
    for (size_t i = 0; i < ps->ndra_claims; i++) {
        const dra_pod_claim *c = &ps->dra_claims[i];
        if (c->shared || c->template_name) continue;
        for (size_t r = 0; r < c->spec.nrequests; r++) {
            const k8s_device_request_spec *x = &c->spec.requests[r].exactly;
            if (!c->spec.requests[r].has_exactly || (x->has_admin_access && x->admin_access) || !x->device_class_name) continue;
            char path[200];
            snprintf(path, sizeof path, "spec.podSets[0].template.spec.resourceClaims[%zu].devices.requests[%zu]", i, r);
            /* mapper.getCounterConfigs: the counter sources of every mapping of the class, in order */
            for (size_t j = 0; j < cfg->ndc_mappings; j++) {
                const kq_dc_mapping *m = &cfg->dc_mappings[j];
                if (strcmp(m->device_class, x->device_class_name)) continue;
                for (size_t k = 0; k < m->ncounters; k++)
                    if (counter_charge(cl, m, &m->counters[k], x, path, out, why)) return -1;
            }
        }
    }
    return 0;
}

size_t kq_dra_charge(const kq_config *cfg, const kq_dra_cluster *cl, const pod_group_spec *ps,
                     k8s_resource_amount **rq, size_t k, char **why) {
    charges add = {0};
    strbuf b = {0};
    if (count_path(cfg, cl, ps, &add, &b) == 0) counter_path(cfg, cl, ps, &add, &b);
    if (b.len) {
        *why = xstrdup(sb_str(&b));
        sb_free(&b);
        free(add.a);
        return 0;
    }
    sb_free(&b);
    size_t added = 0;
    *rq = xrealloc(*rq, (k + add.n + 1) * sizeof **rq);
    for (size_t j = 0; j < add.n; j++) {
        size_t e = 0;
        while (e < k + added && (*rq)[e].name != add.a[j].name) e++;
        if (e < k + added) {
            quantity sum;
            if (quantity_add(&(*rq)[e].value, &add.a[j].value, &sum) == 0) (*rq)[e].value = sum;
        } else {
            (*rq)[k + added++] = add.a[j];
        }
    }
    free(add.a);
    return added;
}
