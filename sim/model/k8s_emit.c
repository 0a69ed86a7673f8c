/*
 * k8s_emit.c -- ResourceClaim objects as YAML trees (field order as kubectl
 * prints them; absent optional fields are omitted).
 */
#include <string.h>

#include "model/k8s_emit.h"

ynode *k8s_emit_quantity(arena *a, const quantity *q) {
    char buf[128];
    quantity_format_str(q, buf, sizeof buf);
    return yb_str(a, buf);
}

static const char *op_name(k8s_selector_op op) {
    static const char *const names[] = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
    return names[op];
}

static ynode *emit_reqs(arena *a, const k8s_selector_req *r, size_t n) {
    ynode *seq = yb_seq(a);
    for (size_t i = 0; i < n; i++) {
        ynode *m = yb_map(a);
        yb_add(a, m, "key", yb_str(a, r[i].key));
        yb_add(a, m, "operator", yb_str(a, op_name(r[i].op)));
        if (r[i].nvalues) {
            ynode *v = yb_seq(a);
            for (size_t k = 0; k < r[i].nvalues; k++) yb_push(a, v, yb_str(a, r[i].values[k]));
            yb_add(a, m, "values", v);
        }
        yb_push(a, seq, m);
    }
    return seq;
}

ynode *k8s_emit_node_selector(arena *a, const k8s_node_selector *sel) {
    ynode *m = yb_map(a), *terms = yb_seq(a);
    for (size_t t = 0; t < sel->nterms; t++) {
        const k8s_selector_term *term = &sel->terms[t];
        ynode *tm = yb_map(a);
        if (term->nmatch_expressions)
            yb_add(a, tm, "matchExpressions", emit_reqs(a, term->match_expressions, term->nmatch_expressions));
        if (term->nmatch_fields) yb_add(a, tm, "matchFields", emit_reqs(a, term->match_fields, term->nmatch_fields));
        yb_push(a, terms, tm);
    }
    yb_add(a, m, "nodeSelectorTerms", terms);
    return m;
}

static ynode *emit_strs(arena *a, const char *const *v, size_t n) {
    ynode *seq = yb_seq(a);
    for (size_t i = 0; i < n; i++) yb_push(a, seq, yb_str(a, v[i]));
    return seq;
}

const char *k8s_taint_effect_name(k8s_taint_effect e) {
    switch (e) {
    case TAINT_NO_SCHEDULE: return "NoSchedule";
    case TAINT_PREFER_NO_SCHEDULE: return "PreferNoSchedule";
    case TAINT_NO_EXECUTE: return "NoExecute";
    default: return "None";
    }
}

static ynode *emit_tolerations(arena *a, const k8s_toleration *t, size_t n) {
    ynode *seq = yb_seq(a);
    for (size_t i = 0; i < n; i++) {
        ynode *m = yb_map(a);
        if (t[i].key) yb_add(a, m, "key", yb_str(a, t[i].key));
        yb_add(a, m, "operator", yb_str(a, t[i].op == TOL_OP_EXISTS ? "Exists" : "Equal"));
        if (t[i].value) yb_add(a, m, "value", yb_str(a, t[i].value));
        if (t[i].has_effect) yb_add(a, m, "effect", yb_str(a, k8s_taint_effect_name(t[i].effect)));
        if (t[i].has_seconds) yb_add(a, m, "tolerationSeconds", yb_int(a, t[i].seconds));
        yb_push(a, seq, m);
    }
    return seq;
}

ynode *k8s_emit_tolerations(arena *a, const k8s_toleration *t, size_t n) { return emit_tolerations(a, t, n); }

static ynode *emit_opaque(arena *a, const k8s_opaque_config *o) {
    ynode *m = yb_map(a);
    yb_add(a, m, "driver", yb_str(a, o->driver));
    yb_add(a, m, "parameters", o->parameters ? (ynode *)o->parameters : yb_map(a));
    return m;
}

static ynode *emit_capacity_map(arena *a, const k8s_capacity_request *c, size_t n) {
    ynode *m = yb_map(a);
    for (size_t i = 0; i < n; i++) yb_add(a, m, c[i].qname ? c[i].qname : c[i].id, k8s_emit_quantity(a, &c[i].value));
    return m;
}

ynode *k8s_emit_allocation(arena *a, const k8s_allocation *al) {
    ynode *m = yb_map(a), *devs = yb_map(a), *res = yb_seq(a);
    for (size_t i = 0; i < al->nresults; i++) {
        const k8s_device_result *r = &al->results[i];
        ynode *e = yb_map(a);
        yb_add(a, e, "request", yb_str(a, r->request));
        yb_add(a, e, "driver", yb_str(a, r->driver));
        yb_add(a, e, "pool", yb_str(a, r->pool));
        yb_add(a, e, "device", yb_str(a, r->device));
        if (r->admin_access) yb_add(a, e, "adminAccess", yb_bool(a, true));
        if (r->ntolerations) yb_add(a, e, "tolerations", emit_tolerations(a, r->tolerations, r->ntolerations));
        if (r->nbinding_conditions)
            yb_add(a, e, "bindingConditions", emit_strs(a, r->binding_conditions, r->nbinding_conditions));
        if (r->nbinding_failure_conditions)
            yb_add(a, e, "bindingFailureConditions",
                   emit_strs(a, r->binding_failure_conditions, r->nbinding_failure_conditions));
        if (r->share_id) yb_add(a, e, "shareID", yb_str(a, r->share_id));
        if (r->nconsumed) yb_add(a, e, "consumedCapacity", emit_capacity_map(a, r->consumed, r->nconsumed));
        yb_push(a, res, e);
    }
    yb_add(a, devs, "results", res);
    if (al->nconfig) {
        ynode *cfg = yb_seq(a);
        for (size_t i = 0; i < al->nconfig; i++) {
            const k8s_allocated_config *c = &al->config[i];
            ynode *e = yb_map(a);
            yb_add(a, e, "source", yb_str(a, c->source == CONFIG_FROM_CLASS ? "FromClass" : "FromClaim"));
            if (c->nrequests) yb_add(a, e, "requests", emit_strs(a, c->requests, c->nrequests));
            yb_add(a, e, "opaque", emit_opaque(a, &c->opaque));
            yb_push(a, cfg, e);
        }
        yb_add(a, devs, "config", cfg);
    }
    yb_add(a, m, "devices", devs);
    yb_add(a, m, "nodeSelector", al->has_node_selector ? k8s_emit_node_selector(a, &al->node_selector) : yb_raw(a, "null"));
    return m;
}

ynode *k8s_emit_selectors(arena *a, const char *const *exprs, size_t n) {
    ynode *seq = yb_seq(a);
    for (size_t i = 0; i < n; i++) {
        ynode *e = yb_map(a), *cel = yb_map(a);
        yb_add(a, cel, "expression", yb_str(a, exprs[i]));
        yb_add(a, e, "cel", cel);
        yb_push(a, seq, e);
    }
    return seq;
}

static ynode *emit_request_body(arena *a, const k8s_device_request_spec *s, bool sub) {
    ynode *m = yb_map(a);
    if (sub) yb_add(a, m, "name", yb_str(a, s->name));
    yb_add(a, m, "deviceClassName", yb_str(a, s->device_class_name ? s->device_class_name : ""));
    if (s->nselectors) yb_add(a, m, "selectors", k8s_emit_selectors(a, s->selectors, s->nselectors));
    yb_add(a, m, "allocationMode", yb_str(a, s->mode_text ? s->mode_text : "ExactCount"));
    if (s->mode == ALLOC_MODE_EXACT_COUNT) yb_add(a, m, "count", yb_int(a, s->count));
    if (s->has_admin_access) yb_add(a, m, "adminAccess", yb_bool(a, s->admin_access));
    if (s->ntolerations) yb_add(a, m, "tolerations", emit_tolerations(a, s->tolerations, s->ntolerations));
    if (s->ncapacity) {
        ynode *cap = yb_map(a);
        yb_add(a, cap, "requests", emit_capacity_map(a, s->capacity, s->ncapacity));
        yb_add(a, m, "capacity", cap);
    }
    return m;
}

static ynode *emit_spec(arena *a, const k8s_claim_spec *s) {
    ynode *spec = yb_map(a), *devs = yb_map(a), *reqs = yb_seq(a);
    for (size_t i = 0; i < s->nrequests; i++) {
        const k8s_device_request *r = &s->requests[i];
        ynode *e = yb_map(a);
        yb_add(a, e, "name", yb_str(a, r->name));
        if (r->has_exactly) {
            yb_add(a, e, "exactly", emit_request_body(a, &r->exactly, false));
        } else {
            ynode *fa = yb_seq(a);
            for (size_t k = 0; k < r->nfirst_available; k++) yb_push(a, fa, emit_request_body(a, &r->first_available[k], true));
            yb_add(a, e, "firstAvailable", fa);
        }
        yb_push(a, reqs, e);
    }
    yb_add(a, devs, "requests", reqs);
    if (s->nconstraints) {
        ynode *cs = yb_seq(a);
        for (size_t i = 0; i < s->nconstraints; i++) {
            const k8s_device_constraint *k = &s->constraints[i];
            ynode *e = yb_map(a);
            if (k->nrequests) yb_add(a, e, "requests", emit_strs(a, k->requests, k->nrequests));
            if (k->kind == CONSTRAINT_MATCH) yb_add(a, e, "matchAttribute", yb_str(a, k->attribute));
            if (k->kind == CONSTRAINT_DISTINCT) yb_add(a, e, "distinctAttribute", yb_str(a, k->attribute));
            yb_push(a, cs, e);
        }
        yb_add(a, devs, "constraints", cs);
    }
    if (s->nconfig) {
        ynode *cfg = yb_seq(a);
        for (size_t i = 0; i < s->nconfig; i++) {
            ynode *e = yb_map(a);
            if (s->config[i].nrequests) yb_add(a, e, "requests", emit_strs(a, s->config[i].requests, s->config[i].nrequests));
            yb_add(a, e, "opaque", emit_opaque(a, &s->config[i].opaque));
            yb_push(a, cfg, e);
        }
        yb_add(a, devs, "config", cfg);
    }
    yb_add(a, spec, "devices", devs);
    return spec;
}

ynode *k8s_emit_claim(arena *a, const k8s_resource_claim *claim, const k8s_allocation *alloc) {
    ynode *root = yb_map(a), *md = yb_map(a);
    yb_add(a, root, "apiVersion", yb_str(a, "resource.k8s.io/v1"));
    yb_add(a, root, "kind", yb_str(a, "ResourceClaim"));
    yb_add(a, md, "name", yb_str(a, claim->meta.name));
    if (claim->meta.namespace_) yb_add(a, md, "namespace", yb_str(a, claim->meta.namespace_));
    yb_add(a, root, "metadata", md);
    yb_add(a, root, "spec", emit_spec(a, &claim->spec));
    if (!alloc && claim->allocated) alloc = &claim->allocation;
    if (alloc) {
        ynode *st = yb_map(a);
        yb_add(a, st, "allocation", k8s_emit_allocation(a, alloc));
        yb_add(a, root, "status", st);
    }
    return root;
}
