/*
 * alloc_constraints.c -- claim constraints: matchAttribute (all devices share
 * one value) and distinctAttribute (values pairwise different), with upstream's
 * attribute lookup and its request-keyed bookkeeping for distinctAttribute
 * (incubating constraint.go, v1.36.0-v1.36.2: one stored value per request
 * name, so a request's third device is only compared with its second; fixed
 * upstream after 1.36 by kubernetes/kubernetes#140600; 1.34 and 1.35 have
 * distinctAttribute only in the experimental allocator. The case
 * tests/alloc-cases/distinct-attribute-request-keyed-quirk cites the tags.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc_internal.h"
#include "model/k8s_decode.h"
#include "util/xalloc.h"

typedef struct distinct_entry {
    const char *request;            /* upstream keys the stored values by request name */
    const k8s_attribute *attr;
} distinct_entry;

struct constraint_state {
    const k8s_device_constraint *k;
    const char *domain, *id;
    const k8s_attribute *ref;       /* matchAttribute: value of the first device */
    int num;                        /* devices added (both kinds) */
    VEC(distinct_entry) distinct;
};

int alloc_constraints_init(acall *c, cclaim *cc, strbuf *err) {
    const k8s_claim_spec *spec = &cc->claim->spec;
    cc->cons = ARENA_NEW(&c->A->call_mem, struct constraint_state, spec->nconstraints ? spec->nconstraints : 1);
    cc->ncons = spec->nconstraints;
    for (size_t i = 0; i < spec->nconstraints; i++) {
        const k8s_device_constraint *k = &spec->constraints[i];
        if (k->kind == CONSTRAINT_NONE || !k->attribute) {
            char buf[300];
            sb_clear(err);
            sb_printf(err, "claim %s, constraint #%zu: empty constraint (unsupported constraint type?)",
                      alloc_claim_name(cc->claim, buf, sizeof buf), i);
            return -1;
        }
        cc->cons[i].k = k;
        k8s_split_qualified(k->attribute, NULL, &cc->cons[i].domain, &cc->cons[i].id);
    }
    return 0;
}

void alloc_constraints_free(cclaim *cc) {
    for (size_t i = 0; i < cc->ncons; i++) VEC_FREE(cc->cons[i].distinct);
    cc->cons = NULL;   /* in the call's arena */
}

static bool applies(const k8s_device_constraint *k, const rdata *rd) {
    if (!k->nrequests) return true;
    for (size_t i = 0; i < k->nrequests; i++)
        if (k->requests[i] == rd->req->name || (rd->sub && k->requests[i] == rd->name)) return true;
    return false;
}

/* Fully-qualified lookup; bare names were resolved to the driver's domain when decoding. */
static const k8s_attribute *lookup(const struct constraint_state *s, const k8s_device *d) {
    for (size_t i = 0, n = k8s_dev_nattrs(d); i < n; i++) {
        const k8s_attribute *a = k8s_dev_attr(d, i);
        if (a->domain == s->domain && a->id == s->id) return a;
    }
    return NULL;
}

/* Same type and value (versions compare as text, as upstream). */
static bool same_value(const k8s_attribute *a, const k8s_attribute *b) {
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case ATTR_INT: return a->i == b->i;
    case ATTR_BOOL: return a->b == b->b;
    case ATTR_STRING:
    case ATTR_VERSION: return a->s == b->s;
    default: return false;
    }
}

static bool add_one(struct constraint_state *s, const rdata *rd, const k8s_device *d) {
    if (!applies(s->k, rd)) return true;
    const k8s_attribute *a = lookup(s, d);
    if (!a) return false;
    if (s->k->kind == CONSTRAINT_MATCH) {
        if (s->num == 0) {
            s->ref = a;
            s->num = 1;
            return true;
        }
        if (a->kind == ATTR_LIST_UNSUPPORTED || !same_value(a, s->ref)) return false;
        s->num++;
        return true;
    }
    if (s->num > 0) {   /* the first device is always accepted */
        for (size_t i = 0; i < s->distinct.len; i++)
            if (a->kind == ATTR_LIST_UNSUPPORTED || same_value(a, s->distinct.data[i].attr)) return false;
    }
    s->num++;
    for (size_t i = 0; i < s->distinct.len; i++)
        if (s->distinct.data[i].request == rd->req->name) {
            s->distinct.data[i].attr = a;   /* overwritten: the upstream map keeps one value per request */
            return true;
        }
    VEC_PUSH(s->distinct, ((distinct_entry){rd->req->name, a}));
    return true;
}

static void remove_one(struct constraint_state *s, const rdata *rd) {
    if (!applies(s->k, rd)) return;
    if (s->k->kind == CONSTRAINT_MATCH) {
        s->num--;
        return;
    }
    s->num--;
    for (size_t i = 0; i < s->distinct.len; i++)
        if (s->distinct.data[i].request == rd->req->name) {
            s->distinct.data[i] = s->distinct.data[--s->distinct.len];
            return;
        }
}

bool alloc_constraints_add(cclaim *cc, const rdata *rd, const adev *d, const char *driver) {
    for (size_t i = 0; i < cc->ncons; i++) {
        if (add_one(&cc->cons[i], rd, d->d)) continue;
        for (size_t e = 0; e < i; e++) remove_one(&cc->cons[e], rd);
        return false;
    }
    return true;
}

void alloc_constraints_remove(cclaim *cc, const rdata *rd, const adev *d, const char *driver) {
    for (size_t i = 0; i < cc->ncons; i++) remove_one(&cc->cons[i], rd);
}
