/*
 * dra.c -- setting up the DRA bookkeeping (see dra.h): the allocator over the
 * inventory, each pod class's claims, the shared claims, and the per-pod
 * records of what their claims got.
 */
#include "sched/dra/dra_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/policies/place_mig.h"
#include "util/intern.h"
#include "util/xalloc.h"

/* The answer for the last shared attribute run (k8s_device.attrs, one array
 * for many devices) when that run alone decides it (attr() finds type, and
 * for MIG profile, there before the device's own run). */
typedef struct equiv_entry {
    const k8s_attribute *attrs;
    size_t nattrs;
    bool decided;
    double eq;
    int8_t mig;                   /* the run's first "type" is "mig": 1, another type: 0, no type: -1 */
} equiv_entry;
/* Per shared attribute run (a node's GPUs differ in index and minor, so
 * they have several): a small direct-mapped cache by the run's address. */
struct dra_equiv_memo {
    equiv_entry e[32];
};

/* The DeviceClass serving extended resource `name`: extendedResourceName, or
 * the implicit deviceclass.resource.kubernetes.io/<class>; the newest wins. */
static const k8s_device_class *class_for_extended(const dra_state *d, const char *name) {
    static const char implicit[] = "deviceclass.resource.kubernetes.io/";
    const k8s_device_class *best = NULL;
    for (size_t i = 0; i < d->nclasses; i++) {
        const k8s_device_class *c = d->classes[i];
        bool match = (c->extended_resource_name && !strcmp(c->extended_resource_name, name)) ||
                     (!strncmp(name, implicit, sizeof implicit - 1) && !strcmp(name + sizeof implicit - 1, c->meta.name));
        if (match && (!best || c->creation_seq > best->creation_seq)) best = c;
    }
    return best;
}

static bool class_exists(const dra_state *d, const char *name) {
    for (size_t i = 0; i < d->nclasses; i++)
        if (d->classes[i]->meta.name == name || !strcmp(d->classes[i]->meta.name, name)) return true;
    return false;
}

/* PreFilter's check: every request and subrequest names an existing class. */
static const char *missing_class(const dra_state *d, const k8s_claim_spec *s) {
    char buf[400];
    for (size_t r = 0; r < s->nrequests; r++) {
        const k8s_device_request *q = &s->requests[r];
        if (q->has_exactly && q->exactly.device_class_name && *q->exactly.device_class_name &&
            !class_exists(d, q->exactly.device_class_name)) {
            snprintf(buf, sizeof buf, "request %s: device class %s does not exist", q->name, q->exactly.device_class_name);
            return intern(buf);
        }
        for (size_t k = 0; k < q->nfirst_available; k++) {
            const k8s_device_request_spec *sr = &q->first_available[k];
            if (sr->device_class_name && *sr->device_class_name && !class_exists(d, sr->device_class_name)) {
                snprintf(buf, sizeof buf, "request %s/%s: device class %s does not exist", q->name, sr->name,
                         sr->device_class_name);
                return intern(buf);
            }
        }
    }
    return NULL;
}

/* The KEP-5004 claim for a group's extended resources; -1 with err if one is not served. */
static int extended_claim(dra_state *d, const pod_group_spec *g, k8s_resource_claim *out, strbuf *err) {
    out->spec.requests = ARENA_NEW(&d->keep, k8s_device_request, g->ndp_resources);
    for (size_t j = 0; j < g->ndp_resources; j++) {
        /* DRAExtendedResource (KEP-5004): alpha, off by default, in 1.34 and 1.35; beta, on, from 1.36 */
        const k8s_device_class *c = d->k8s_minor >= 36 ? class_for_extended(d, g->dp_resources[j].name) : NULL;
        if (!c && d->k8s_minor < 36) {
            yerr(err, g->where, "pod group '%s': extended resource %s: Kubernetes 1.%d serves no extended resource "
                 "through DRA (feature gate DRAExtendedResource is off by default before 1.36); state the demand "
                 "as gpu.dra claims or use cluster.kubernetesVersion: \"1.36\"", g->name, g->dp_resources[j].name,
                 d->k8s_minor);
            return -1;
        }
        if (!c) {
            yerr(err, g->where, "pod group '%s': extended resource %s is not served by any DeviceClass "
                 "(extendedResourceName) in dra mode; state the demand as gpu.dra claims", g->name,
                 g->dp_resources[j].name);
            return -1;
        }
        int64_t n = quantity_value(&g->dp_resources[j].value);
        if (n <= 0) continue;
        char name[64];
        snprintf(name, sizeof name, "container-0-request-%zu", j);
        k8s_device_request *q = &out->spec.requests[out->spec.nrequests++];
        q->name = intern(name);
        q->has_exactly = true;
        q->exactly.name = q->name;
        q->exactly.device_class_name = c->meta.name;
        q->exactly.mode = ALLOC_MODE_EXACT_COUNT;
        q->exactly.mode_text = intern("ExactCount");
        q->exactly.count = n;
    }
    return 0;
}

/* Set up the claims of pod class d->ncls (pod group g): its own claims (from
 * templates, or one for DRA-backed extended resources) and its shared ones.
 * Classes are added in scheduler order, also while a run goes (Lua). */
int dra_add_class(dra_state *d, const pod_group_spec *g, strbuf *err) {
    for (size_t k = 0; k < g->ndra_claims; k++) {   /* before any state changes: a failed class leaves none */
        char what[300];
        snprintf(what, sizeof what, "gpu.dra claim %s/%s", g->name ? g->name : "", g->dra_claims[k].name);
        if (!g->dra_claims[k].shared && dra_check_selector_tree(d, g->dra_claims[k].where, what, err)) return -1;
    }
    size_t gi = d->ncls;
    if (gi == d->cls_cap) {
        d->cls_cap = d->cls_cap ? 2 * d->cls_cap : 16;
        d->cls = xrealloc(d->cls, d->cls_cap * sizeof *d->cls);
    }
    dra_class *c = &d->cls[gi];
    memset(c, 0, sizeof *c);
    d->ncls++;
    size_t nnodes = d->nnodes ? d->nnodes : 1;
    size_t n = g->ndra_claims + (g->ndra_claims == 0 && g->has_dp ? 1 : 0);
    c->own = ARENA_NEW(&d->keep, k8s_resource_claim, n ? n : 1);
    c->own_names = ARENA_NEW(&d->keep, const char *, n ? n : 1);
    c->shared = xcalloc(n ? n : 1, sizeof *c->shared);
    c->call = xcalloc(n ? n : 1, sizeof *c->call);
    c->call_shared = xcalloc(n ? n : 1, sizeof *c->call_shared);
    c->out = xcalloc(n ? n : 1, sizeof *c->out);
    c->score = xcalloc(nnodes, sizeof *c->score);
    c->any = n > 0;
    char name[300];
    for (size_t k = 0; k < g->ndra_claims; k++) {
        const dra_pod_claim *pc = &g->dra_claims[k];
        if (pc->shared) {
            size_t j = 0;
            while (j < d->nshared && d->shared[j].name != pc->shared) j++;
            if (j == d->nshared) {   /* scenario pod groups were checked already; Lua pods land here */
                sb_clear(err);
                sb_printf(err, "pod %s: claim %s: resourceClaimName %s is not in workload.resourceClaims", g->name,
                          pc->name, pc->shared);
                return -1;
            }
            c->shared[c->nshared++] = (uint32_t)j;
            dra_shared *sh = &d->shared[j];
            sh->classes = xrealloc(sh->classes, (sh->nclasses + 1) * sizeof *sh->classes);
            sh->classes[sh->nclasses++] = (uint32_t)gi;
            if (!c->never) c->never = missing_class(d, &sh->claim.spec);
            continue;
        }
        snprintf(name, sizeof name, "%s-%s", g->name, pc->name);
        c->own[c->nown].meta.name = intern(name);
        c->own[c->nown].spec = pc->spec;
        c->own_names[c->nown++] = pc->name;
        if (!c->never) c->never = missing_class(d, &pc->spec);
    }
    if (g->ndra_claims == 0 && g->has_dp) {
        snprintf(name, sizeof name, "%s-extended-resources", g->name);
        c->own[0].meta.name = intern(name);
        c->own_names[0] = intern("<extended-resources>");
        c->nown = 1;
        if (extended_claim(d, g, &c->own[0], err)) return -1;
    }
    c->lone = c->nown == 1 && c->nshared == 0;
    for (size_t r = 0; c->lone && r < c->own[0].spec.nrequests; r++)
        if (c->own[0].spec.requests[r].nfirst_available) c->lone = false;
    return 0;
}

dra_state *dra_new(const scenario *sc, const inventory *inv, strbuf *err) {
    dra_state *d = xcalloc(1, sizeof *d);
    d->equiv = xcalloc(1, sizeof *d->equiv);
    dra_records_init(d);
    /* The allocator's features: the defaults of the cluster's Kubernetes release
     * (a trace's cluster has none: 1.36). Dynamic MIG needs DRAPartitionableDevices,
     * off by default before 1.36: a cluster that publishes counters has it on
     * (the NVIDIA driver's docs require it, site/content/docs/guides/gpu-allocation/mig.md). */
    int minor = sc->cluster.publish.k8s_minor ? sc->cluster.publish.k8s_minor : 36;
    char version[8];
    snprintf(version, sizeof version, "1.%d", minor);
    d->k8s_minor = minor;
    alloc_features_for_version(version, &d->features, err);
    for (size_t i = 0; i < inv->nslices && !d->features.partitionable_devices; i++)
        if (inv->slices[i].nshared_counters) d->features.partitionable_devices = true;
    d->features.binding_conditions = false;   /* the simulator binds instantly */
    d->inv = inv;
    d->nslices = inv->nslices;
    d->nclasses = inv->nclasses;
    d->slices = xcalloc(d->nslices ? d->nslices : 1, sizeof *d->slices);
    d->classes = xcalloc(d->nclasses ? d->nclasses : 1, sizeof *d->classes);
    for (size_t i = 0; i < d->nslices; i++) d->slices[i] = &inv->slices[i];
    for (size_t i = 0; i < d->nclasses; i++) d->classes[i] = &inv->classes[i];
    for (size_t i = 0; i < inv->nnodes; i++) d->total_gpus += inv->info ? inv->info[i].gpus : 0;
    d->A = allocator_new(&d->features, d->slices, d->nslices, d->classes, d->nclasses, NULL, sc->seed);
    allocator_set_nodes(d->A, inv->nodes, inv->nnodes);   /* the scheduler's node array */
    allocator_set_step_limit(d->A, sc->sched.has_search_budget ? sc->sched.search_budget : ALLOC_SEARCH_BUDGET_DEFAULT);

    d->mig = place_mig_new(sc, inv);
    dra_gpus_init(d);
    d->nshared = sc->nshared_claims;
    d->shared = xcalloc(d->nshared ? d->nshared : 1, sizeof *d->shared);
    for (size_t i = 0; i < d->nshared; i++) {
        d->shared[i].name = sc->shared_claims[i].name;
        d->shared[i].claim.meta.name = sc->shared_claims[i].name;
        d->shared[i].claim.spec = sc->shared_claims[i].spec;
    }
    d->nnodes = inv->nnodes;
    int bad = dra_check_class_selectors(d, err);
    for (size_t i = 0; i < d->nshared && !bad; i++) {
        char what[300];
        snprintf(what, sizeof what, "workload.resourceClaims %s", sc->shared_claims[i].name);
        bad = dra_check_selector_tree(d, sc->shared_claims[i].where, what, err);
    }
    if (bad) {
        dra_free(d);
        return NULL;
    }
    for (size_t gi = 0; gi < sc->ngroups; gi++)
        if (dra_add_class(d, &sc->groups[gi], err)) {
            dra_free(d);
            return NULL;
        }
    return d;
}

void dra_free(dra_state *d) {
    if (!d) return;
    place_mig_free(d->mig);
    dra_gpus_free(d);
    allocator_free(d->A);
    if (d->explain_empty) allocator_free(d->explain_empty);
    free(d->equiv);
    for (size_t i = 0; i < d->ncls; i++) {
        free(d->cls[i].shared);
        free(d->cls[i].call);
        free(d->cls[i].call_shared);
        free(d->cls[i].out);
        free(d->cls[i].score);
    }
    for (size_t i = 0; i < d->nshared; i++) free(d->shared[i].classes);
    free(d->cls);
    free(d->shared);
    free(d->slices);
    free(d->classes);
    arena_free(&d->keep);
    arena_free(&d->scratch);
    sb_free(&d->err);
    dra_records_free(d);
    free(d->facts);
    free(d);
}

size_t dra_class_claims(const dra_state *d, size_t c) { return d->cls[c].nown + d->cls[c].nshared; }

int dra_shared_users(const dra_state *d, const char *name, bool *allocated) {
    for (size_t i = 0; i < d->nshared; i++)
        if (!strcmp(d->shared[i].name, name)) {
            *allocated = d->shared[i].allocated;
            return d->shared[i].users;
        }
    return -1;
}

/* The device a result names (the first of that name in slice order); a
 * result the allocator just built is found by pointer, without comparing
 * names against every result of the call. */
static const k8s_device *find_device(const dra_state *d, const k8s_device_result *r) {
    uint32_t u;
    return allocator_result_uid(d->A, r, &u) ? allocator_uid_first_device(d->A, u) : NULL;
}

static const k8s_attribute *attr(const k8s_device *dev, const char *id) {
    for (size_t i = 0, n = k8s_dev_nattrs(dev); i < n; i++)
        if (!strcmp(k8s_dev_attr(dev, i)->id, id)) return k8s_dev_attr(dev, i);
    return NULL;
}

/* Does a consumedCapacity key (as written, or domain/id) name capacity c? */
static bool same_capacity(const k8s_capacity *c, const char *qname) {
    if (!qname) return false;
    if (c->qname && !strcmp(c->qname, qname)) return true;
    const char *slash = strrchr(qname, '/');
    return !strcmp(slash ? slash + 1 : qname, c->id);
}

/* First attribute `id` of run a[0..n), or NULL. */
static const k8s_attribute *attr_in(const k8s_attribute *a, size_t n, const char *id) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(a[i].id, id)) return &a[i];
    return NULL;
}

/* GPUs one whole device stands for from its type and profile attributes
 * (either NULL when the device has none): gpu 1, mig g/7, else 0. */
static double type_equiv(const k8s_attribute *type, const k8s_attribute *profile) {
    if (type && type->kind == ATTR_STRING && !strcmp(type->s, "gpu")) return 1;
    if (type && type->kind == ATTR_STRING && !strcmp(type->s, "mig")) {
        int g = profile && profile->kind == ATTR_STRING ? atoi(profile->s) : 0;
        return g > 0 && g <= 7 ? g / 7.0 : 0;
    }
    return 0;
}

/* Point the memo at dev's shared attribute run (what equal devices share). */
static equiv_entry *memo_run(struct dra_equiv_memo *memo, const k8s_device *dev) {
    uintptr_t a = (uintptr_t)dev->attrs;
    equiv_entry *m = &memo->e[((a >> 4) ^ (a >> 9)) & 31];
    if (dev->attrs == m->attrs && dev->nattrs == m->nattrs && m->attrs) return m;
    m->attrs = dev->attrs, m->nattrs = dev->nattrs, m->decided = false;
    const k8s_attribute *type = attr_in(dev->attrs, dev->nattrs, "type"), *profile = NULL;
    bool mig = type && type->kind == ATTR_STRING && !strcmp(type->s, "mig");
    m->mig = type ? mig : -1;
    if (mig) profile = attr_in(dev->attrs, dev->nattrs, "profile");
    if (type && (!mig || profile)) m->decided = true, m->eq = type_equiv(type, profile);
    return m;
}

static double device_equiv(struct dra_equiv_memo *memo, const k8s_device *dev) {
    const equiv_entry *m = memo_run(memo, dev);
    if (m->decided) return m->eq;
    return type_equiv(attr(dev, "type"), attr(dev, "profile"));
}

/* Is dev a MIG device (its first "type" attribute is "mig")? The shared run
 * comes first in attribute order, so its answer, when it has a type, is it. */
static bool device_is_mig(struct dra_equiv_memo *memo, const k8s_device *dev) {
    const equiv_entry *m = memo_run(memo, dev);
    if (m->mig >= 0) return m->mig;
    const k8s_attribute *type = attr(dev, "type");
    return type && type->kind == ATTR_STRING && !strcmp(type->s, "mig");
}

int64_t dra_allocation_mig_devices(const dra_state *d, const k8s_allocation *al) {
    int64_t n = 0;
    for (size_t i = 0; i < al->nresults; i++) {
        if (al->results[i].admin_access) continue;
        const k8s_device *dev = find_device(d, &al->results[i]);
        if (dev && device_is_mig(d->equiv, dev)) n++;
    }
    return n;
}

bool dra_uid_device_facts(const dra_state *d, uint32_t uid, double *equiv, bool *mig) {
    const k8s_device *dev = allocator_uid_first_device(d->A, uid);
    *equiv = dev ? device_equiv(d->equiv, dev) : 0;
    *mig = dev && device_is_mig(d->equiv, dev);
    return dev != NULL;
}

double dra_allocation_gpu_equiv(const dra_state *d, const k8s_allocation *al) {
    double total = 0;
    for (size_t i = 0; i < al->nresults; i++) {
        const k8s_device_result *r = &al->results[i];
        if (r->admin_access) continue;
        const k8s_device *dev = find_device(d, r);
        if (!dev) continue;
        double eq = device_equiv(d->equiv, dev);
        if (r->share_id && r->nconsumed) {   /* a share: the largest consumed fraction of a capacity */
            double f = 0;
            for (size_t k = 0; k < r->nconsumed; k++)
                for (size_t c = 0; c < dev->ncaps; c++)
                    if (same_capacity(&dev->caps[c], r->consumed[k].qname)) {
                        double cap = quantity_approx_float(&dev->caps[c].value);
                        double x = cap > 0 ? quantity_approx_float(&r->consumed[k].value) / cap : 0;
                        if (x > f) f = x;
                    }
            eq *= f;
        }
        total += eq;
    }
    return total;
}
