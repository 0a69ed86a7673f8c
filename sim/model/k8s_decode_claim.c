/*
 * k8s_decode_claim.c -- ResourceClaim (spec and status.allocation) and
 * ResourceClaimTemplate (resource.k8s.io/v1).
 */
#include <stdlib.h>
#include <string.h>

#include "model/k8s_decode_internal.h"
#include "util/intern.h"

#define MAX_REQUESTS 32
#define MAX_SUBREQUESTS 8
#define MAX_SELECTORS 32
#define MAX_TOLERATIONS 16
#define MAX_CONSTRAINTS 32
#define MAX_CONFIGS 32
#define MAX_RESULTS 32
#define MAX_CEL_BYTES (10 * 1024)

static int dreq_selectors(dctx *c, const ynode *map, k8s_device_request_spec *r) {
    const ynode *seq;
    if (dseq(c, map, "selectors", MAX_SELECTORS, &seq)) return -1;
    if (!seq) return 0;
    r->selectors = ARENA_NEW(c->a, const char *, seq->n ? seq->n : 1);
    for (size_t i = 0; i < seq->n; i++) {
        size_t m = dpush(c, ".selectors[%zu]", i);
        const ynode *s = seq->vals[i];
        static const char *const allowed[] = {"cel", NULL};
        if (!y_is_null(s) && dkeys(c, s, allowed)) return -1;
        const ynode *cel = y_is_null(s) ? NULL : ymap_get(s, "cel");
        if (y_is_null(cel)) {
            r->has_non_cel_selector = true;   /* the allocator reports "unsupported selector type" */
        } else {
            size_t m2 = dpush(c, ".cel");
            static const char *const ck[] = {"expression", NULL};
            if (dkeys(c, cel, ck)) return -1;
            const char *e;
            if (dstr(c, cel, "expression", true, &e)) return -1;
            if (strlen(e) > MAX_CEL_BYTES)
                return derr(c, ymap_get(cel, "expression"), "expression longer than %d bytes", MAX_CEL_BYTES);
            r->selectors[r->nselectors++] = e;
            dpop(c, m2);
        }
        dpop(c, m);
    }
    return 0;
}

static int dcapacity_requests(dctx *c, const ynode *map, k8s_device_request_spec *r) {
    const ynode *cap;
    if (dmap(c, map, "capacity", 10, &cap)) return -1;
    if (!cap) return 0;
    size_t m = dpush(c, ".capacity");
    static const char *const ck[] = {"requests", NULL};
    if (dkeys(c, cap, ck)) return -1;
    const ynode *rq;
    if (dmap(c, cap, "requests", 32, &rq)) return -1;
    if (rq) {
        r->capacity = ARENA_NEW(c->a, k8s_capacity_request, rq->n ? rq->n : 1);
        r->ncapacity = rq->n;
        for (size_t i = 0; i < rq->n; i++) {
            k8s_capacity_request *q = &r->capacity[i];
            size_t m2 = dpush(c, ".requests");
            if (y_str(rq->keys[i], dwhat(c), &q->qname, c->err)) return -1;
            dpop(c, m2);
            m2 = dpush(c, ".requests.%s", q->qname);
            if (!k8s_is_resource_qualified_name(q->qname)) return derr(c, rq->keys[i], "invalid capacity name");
            k8s_split_qualified(q->qname, NULL, &q->domain, &q->id);
            if (dqty_node(c, rq->vals[i], &q->value)) return -1;
            dpop(c, m2);
        }
    }
    dpop(c, m);
    return 0;
}

/* The body shared by `exactly` and a `firstAvailable` entry. */
static int drequest_spec(dctx *c, const ynode *n, bool sub, k8s_device_request_spec *r) {
    static const char *const exact_keys[] = {"deviceClassName", "selectors", "allocationMode", "count",
                                             "adminAccess", "tolerations", "capacity", NULL};
    static const char *const sub_keys[] = {"name", "deviceClassName", "selectors", "allocationMode", "count",
                                           "tolerations", "capacity", NULL};
    if (dkeys(c, n, sub ? sub_keys : exact_keys)) return -1;
    if (sub) {
        if (dstr(c, n, "name", true, &r->name)) return -1;
        if (dcheck_name(c, ymap_get(n, "name"), r->name, k8s_is_request_name, "a DNS label")) return -1;
    }
    /* An empty class name is left to the allocator ("missing device class name"). */
    if (dstr(c, n, "deviceClassName", false, &r->device_class_name)) return -1;
    if (r->device_class_name && *r->device_class_name &&
        dcheck_name(c, ymap_get(n, "deviceClassName"), r->device_class_name, k8s_is_dns_subdomain, "a DNS subdomain"))
        return -1;
    if (dreq_selectors(c, n, r)) return -1;
    const char *mode = NULL;
    if (dstr(c, n, "allocationMode", false, &mode)) return -1;
    r->mode_text = mode && *mode ? mode : intern("ExactCount");
    if (!strcmp(r->mode_text, "ExactCount")) r->mode = ALLOC_MODE_EXACT_COUNT;
    else if (!strcmp(r->mode_text, "All")) r->mode = ALLOC_MODE_ALL;
    else r->mode = ALLOC_MODE_OTHER;   /* the allocator reports "unsupported count mode" */
    bool has_count;
    if (dint(c, n, "count", false, &r->count, &has_count)) return -1;
    if (r->mode == ALLOC_MODE_EXACT_COUNT) {
        if (!has_count) r->count = 1;
        if (r->count < 1) return derr(c, ymap_get(n, "count"), "count must be greater than zero");
    }   /* with All, a count is ignored (upstream's test table sets one) */
    if (!sub && dbool(c, n, "adminAccess", &r->admin_access, &r->has_admin_access)) return -1;
    if (dtolerations(c, n, "tolerations", MAX_TOLERATIONS, &r->tolerations, &r->ntolerations)) return -1;
    if (dcapacity_requests(c, n, r)) return -1;
    return 0;
}

static int drequests(dctx *c, const ynode *devs, k8s_claim_spec *out) {
    const ynode *seq;
    if (dseq(c, devs, "requests", MAX_REQUESTS, &seq)) return -1;
    if (!seq) return 0;
    out->requests = ARENA_NEW(c->a, k8s_device_request, seq->n ? seq->n : 1);
    out->nrequests = seq->n;
    for (size_t i = 0; i < seq->n; i++) {
        k8s_device_request *r = &out->requests[i];
        const ynode *rn = seq->vals[i];
        size_t m = dpush(c, ".requests[%zu]", i);
        static const char *const rk[] = {"name", "exactly", "firstAvailable", NULL};
        if (dkeys(c, rn, rk)) return -1;
        if (dstr(c, rn, "name", true, &r->name)) return -1;
        if (dcheck_name(c, ymap_get(rn, "name"), r->name, k8s_is_request_name, "a DNS label")) return -1;
        for (size_t j = 0; j < i; j++)
            if (out->requests[j].name == r->name) return derr(c, rn, "duplicate request name '%s'", r->name);
        const ynode *ex = ymap_get(rn, "exactly"), *fa;
        if (dseq(c, rn, "firstAvailable", MAX_SUBREQUESTS, &fa)) return -1;
        if (y_is_null(ex)) ex = NULL;
        if ((ex != NULL) == (fa != NULL && fa->n > 0))
            return derr(c, rn, "exactly one of 'exactly' and 'firstAvailable' must be set");
        if (ex) {
            size_t m2 = dpush(c, ".exactly");
            if (y_expect(ex, YN_MAP, dwhat(c), c->err)) return -1;
            if (drequest_spec(c, ex, false, &r->exactly)) return -1;
            r->exactly.name = r->name;
            r->has_exactly = true;
            dpop(c, m2);
        } else {
            r->first_available = ARENA_NEW(c->a, k8s_device_request_spec, fa->n);
            r->nfirst_available = fa->n;
            for (size_t j = 0; j < fa->n; j++) {
                size_t m2 = dpush(c, ".firstAvailable[%zu]", j);
                /* Duplicate subrequest names are not refused: upstream's test table has them. */
                if (drequest_spec(c, fa->vals[j], true, &r->first_available[j])) return -1;
                dpop(c, m2);
            }
        }
        dpop(c, m);
    }
    return 0;
}

static int dconstraints(dctx *c, const ynode *devs, k8s_claim_spec *out) {
    const ynode *seq;
    if (dseq(c, devs, "constraints", MAX_CONSTRAINTS, &seq)) return -1;
    if (!seq) return 0;
    out->constraints = ARENA_NEW(c->a, k8s_device_constraint, seq->n ? seq->n : 1);
    out->nconstraints = seq->n;
    for (size_t i = 0; i < seq->n; i++) {
        k8s_device_constraint *k = &out->constraints[i];
        const ynode *cn = seq->vals[i];
        size_t m = dpush(c, ".constraints[%zu]", i);
        static const char *const ck[] = {"requests", "matchAttribute", "distinctAttribute", NULL};
        if (dkeys(c, cn, ck)) return -1;
        if (dstrlist(c, cn, "requests", MAX_REQUESTS, &k->requests, &k->nrequests)) return -1;
        const char *ma = NULL, *da = NULL;
        if (dstr(c, cn, "matchAttribute", false, &ma)) return -1;
        if (dstr(c, cn, "distinctAttribute", false, &da)) return -1;
        if (ma && da) return derr(c, cn, "matchAttribute and distinctAttribute are mutually exclusive");
        /* Neither set: left to the allocator ("empty constraint"). */
        k->kind = ma ? CONSTRAINT_MATCH : da ? CONSTRAINT_DISTINCT : CONSTRAINT_NONE;
        k->attribute = ma ? ma : da;
        if (k->attribute && (!strchr(k->attribute, '/') || !k8s_is_resource_qualified_name(k->attribute)))
            return derr(c, ymap_get(cn, ma ? "matchAttribute" : "distinctAttribute"),
                        "'%s' must be a fully qualified attribute name (DOMAIN/ID)", k->attribute);
        dpop(c, m);
    }
    return 0;
}

static int dclaim_configs(dctx *c, const ynode *devs, k8s_claim_spec *out) {
    const ynode *seq;
    if (dseq(c, devs, "config", MAX_CONFIGS, &seq)) return -1;
    if (!seq) return 0;
    out->config = ARENA_NEW(c->a, k8s_device_config, seq->n ? seq->n : 1);
    out->nconfig = seq->n;
    for (size_t i = 0; i < seq->n; i++) {
        size_t m = dpush(c, ".config[%zu]", i);
        static const char *const ck[] = {"requests", "opaque", NULL};
        if (dkeys(c, seq->vals[i], ck)) return -1;
        if (dstrlist(c, seq->vals[i], "requests", MAX_REQUESTS, &out->config[i].requests, &out->config[i].nrequests))
            return -1;
        if (dopaque(c, seq->vals[i], &out->config[i].opaque)) return -1;
        dpop(c, m);
    }
    return 0;
}

/* spec: {devices: {requests, constraints, config}} */
int k8s_decode_claim_spec(dctx *c, const ynode *spec, k8s_claim_spec *out) {
    static const char *const sk[] = {"devices", NULL};
    if (dkeys(c, spec, sk)) return -1;
    const ynode *devs;
    if (dmap(c, spec, "devices", 10, &devs)) return -1;
    if (!devs) return 0;
    size_t m = dpush(c, ".devices");
    static const char *const dk[] = {"requests", "constraints", "config", NULL};
    if (dkeys(c, devs, dk)) return -1;
    if (drequests(c, devs, out)) return -1;
    if (dconstraints(c, devs, out)) return -1;
    if (dclaim_configs(c, devs, out)) return -1;
    dpop(c, m);
    return 0;
}

static int dresult(dctx *c, const ynode *n, k8s_device_result *r) {
    static const char *const rk[] = {"request", "driver", "pool", "device", "adminAccess", "tolerations",
                                     "bindingConditions", "bindingFailureConditions", "shareID",
                                     "consumedCapacity", NULL};
    if (dkeys(c, n, rk)) return -1;
    if (dstr(c, n, "request", true, &r->request)) return -1;
    if (dstr(c, n, "driver", true, &r->driver)) return -1;
    if (dstr(c, n, "pool", true, &r->pool)) return -1;
    if (dstr(c, n, "device", true, &r->device)) return -1;
    if (dbool(c, n, "adminAccess", &r->admin_access, NULL)) return -1;
    if (dtolerations(c, n, "tolerations", MAX_TOLERATIONS, &r->tolerations, &r->ntolerations)) return -1;
    if (dstrlist(c, n, "bindingConditions", 4, &r->binding_conditions, &r->nbinding_conditions)) return -1;
    if (dstrlist(c, n, "bindingFailureConditions", 4, &r->binding_failure_conditions,
                 &r->nbinding_failure_conditions))
        return -1;
    if (dstr(c, n, "shareID", false, &r->share_id)) return -1;
    const ynode *cc;
    if (dmap(c, n, "consumedCapacity", 32, &cc)) return -1;
    if (cc) {
        r->consumed = ARENA_NEW(c->a, k8s_capacity_request, cc->n ? cc->n : 1);
        r->nconsumed = cc->n;
        for (size_t i = 0; i < cc->n; i++) {
            k8s_capacity_request *q = &r->consumed[i];
            size_t m = dpush(c, ".consumedCapacity");
            if (y_str(cc->keys[i], dwhat(c), &q->qname, c->err)) return -1;
            dpop(c, m);
            m = dpush(c, ".consumedCapacity.%s", q->qname);
            k8s_split_qualified(q->qname, NULL, &q->domain, &q->id);
            if (dqty_node(c, cc->vals[i], &q->value)) return -1;
            dpop(c, m);
        }
    }
    return 0;
}

static int dallocation(dctx *c, const ynode *al, k8s_allocation *out) {
    static const char *const ak[] = {"devices", "nodeSelector", "allocationTimestamp", NULL};
    if (dkeys(c, al, ak)) return -1;
    const ynode *devs;
    if (dmap(c, al, "devices", 10, &devs)) return -1;
    if (devs) {
        size_t m = dpush(c, ".devices");
        static const char *const dk[] = {"results", "config", NULL};
        if (dkeys(c, devs, dk)) return -1;
        const ynode *res, *cfg;
        if (dseq(c, devs, "results", MAX_RESULTS, &res)) return -1;
        if (res) {
            out->results = ARENA_NEW(c->a, k8s_device_result, res->n ? res->n : 1);
            out->nresults = res->n;
            for (size_t i = 0; i < res->n; i++) {
                size_t m2 = dpush(c, ".results[%zu]", i);
                if (dresult(c, res->vals[i], &out->results[i])) return -1;
                dpop(c, m2);
            }
        }
        if (dseq(c, devs, "config", 64, &cfg)) return -1;
        if (cfg) {
            out->config = ARENA_NEW(c->a, k8s_allocated_config, cfg->n ? cfg->n : 1);
            out->nconfig = cfg->n;
            for (size_t i = 0; i < cfg->n; i++) {
                size_t m2 = dpush(c, ".config[%zu]", i);
                static const char *const ck[] = {"source", "requests", "opaque", NULL};
                k8s_allocated_config *ac = &out->config[i];
                if (dkeys(c, cfg->vals[i], ck)) return -1;
                const char *src;
                if (dstr(c, cfg->vals[i], "source", true, &src)) return -1;
                if (!strcmp(src, "FromClass")) ac->source = CONFIG_FROM_CLASS;
                else if (!strcmp(src, "FromClaim")) ac->source = CONFIG_FROM_CLAIM;
                else return derr(c, ymap_get(cfg->vals[i], "source"), "unsupported source '%s'", src);
                if (dstrlist(c, cfg->vals[i], "requests", MAX_REQUESTS, &ac->requests, &ac->nrequests)) return -1;
                if (dopaque(c, cfg->vals[i], &ac->opaque)) return -1;
                dpop(c, m2);
            }
        }
        dpop(c, m);
    }
    const ynode *ns = ymap_get(al, "nodeSelector");
    if (!y_is_null(ns)) {
        size_t m = dpush(c, ".nodeSelector");
        if (dnode_selector(c, ns, &out->node_selector)) return -1;
        out->has_node_selector = true;
        dpop(c, m);
    }
    return 0;
}

int k8s_decode_resource_claim(dctx *c, const ynode *root) {
    static const char *const top[] = {"apiVersion", "kind", "metadata", "spec", "status", NULL};
    if (dkeys(c, root, top)) return -1;
    k8s_resource_claim *rc = ARENA_NEW(c->a, k8s_resource_claim, 1);
    if (dmeta(c, root, &rc->meta, true)) return -1;
    if (dcheck_name(c, root, rc->meta.name, k8s_is_dns_subdomain, "a DNS subdomain")) return -1;
    const ynode *spec;
    if (dmap(c, root, "spec", 10, &spec)) return -1;
    if (spec) {
        size_t m = dpush(c, ".spec");
        if (k8s_decode_claim_spec(c, spec, &rc->spec)) return -1;
        dpop(c, m);
    }
    const ynode *st;
    if (dmap(c, root, "status", 10, &st)) return -1;
    if (st) {
        size_t m = dpush(c, ".status");
        static const char *const stk[] = {"allocation", "reservedFor", "devices", NULL};
        if (dkeys(c, st, stk)) return -1;
        const ynode *al;
        if (dmap(c, st, "allocation", 10, &al)) return -1;
        if (al) {
            size_t m2 = dpush(c, ".allocation");
            if (dallocation(c, al, &rc->allocation)) return -1;
            rc->allocated = true;
            dpop(c, m2);
        }
        const ynode *rf;
        if (dseq(c, st, "reservedFor", 256, &rf)) return -1;
        if (rf) {   /* the pods using the claim (cluster.state's shared claims) */
            rc->reserved_pods = ARENA_NEW(c->a, const char *, rf->n ? rf->n : 1);
            for (size_t i = 0; i < rf->n; i++) {
                size_t m2 = dpush(c, ".reservedFor[%zu]", i);
                const ynode *e = rf->vals[i];
                if (y_expect(e, YN_MAP, dwhat(c), c->err)) return -1;
                const char *res = NULL, *name = NULL;
                if (dstr(c, e, "resource", false, &res)) return -1;
                if (dstr(c, e, "name", false, &name)) return -1;
                if (res && name && !strcmp(res, "pods")) rc->reserved_pods[rc->nreserved_pods++] = name;
                dpop(c, m2);
            }
        }
        dpop(c, m);
    }
    k8s_objects_add(c->o, K8S_RESOURCE_CLAIM, rc);
    return 0;
}

int k8s_decode_claim_template(dctx *c, const ynode *root) {
    static const char *const top[] = {"apiVersion", "kind", "metadata", "spec", NULL};
    if (dkeys(c, root, top)) return -1;
    k8s_claim_template *t = ARENA_NEW(c->a, k8s_claim_template, 1);
    if (dmeta(c, root, &t->meta, true)) return -1;
    if (dcheck_name(c, root, t->meta.name, k8s_is_dns_subdomain, "a DNS subdomain")) return -1;
    const ynode *spec;
    if (dmap(c, root, "spec", 10, &spec)) return -1;
    if (!spec) return derr(c, root, "spec: required field is missing");
    size_t m = dpush(c, ".spec");
    static const char *const sk[] = {"metadata", "spec", NULL};
    if (dkeys(c, spec, sk)) return -1;
    const ynode *inner;
    if (dmap(c, spec, "spec", 10, &inner)) return -1;
    if (!inner) return derr(c, spec, "spec: required field is missing");
    size_t m2 = dpush(c, ".spec");
    if (k8s_decode_claim_spec(c, inner, &t->spec)) return -1;
    dpop(c, m2);
    dpop(c, m);
    k8s_objects_add(c->o, K8S_CLAIM_TEMPLATE, t);
    return 0;
}
