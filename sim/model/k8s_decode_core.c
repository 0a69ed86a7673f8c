/*
 * k8s_decode_core.c -- the scheduling-relevant parts of core/v1 Node and Pod.
 * Other fields (kubectl prints many) are accepted and ignored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/k8s_decode_internal.h"
#include "util/intern.h"

/* Extended resources (nvidia.com/gpu): names outside the kubernetes.io
 * namespace with a "/", not "requests.*", whose quota form "requests.NAME"
 * is a qualified name. Kubernetes pkg/apis/core/helper/helpers.go
 * IsExtendedResourceName / IsNativeResource (1.34-1.36). */
static bool is_extended_resource(const char *name) {
    const char *slash = strchr(name, '/');
    if (!slash || strstr(name, "kubernetes.io/") || strncmp(name, "requests.", 9) == 0) return false;
    /* IsQualifiedName("requests." + name): prefix a DNS subdomain, then a name
     * of at most 63 characters [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])? */
    char prefix[300];
    size_t plen = (size_t)(slash - name) + 9;
    if (plen >= sizeof prefix) return false;
    snprintf(prefix, sizeof prefix, "requests.%.*s", (int)(slash - name), name);
    if (!k8s_is_dns_subdomain(prefix)) return false;
    const char *id = slash + 1;
    size_t n = strlen(id);
    if (n == 0 || n > 63 || strchr(id, '/')) return false;
    for (size_t i = 0; i < n; i++) {
        char ch = id[i];
        bool alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
        if (!alnum && ((i == 0 || i == n - 1) || !(ch == '-' || ch == '_' || ch == '.'))) return false;
    }
    return true;
}

/* Resources counted in whole units: pods (and the quota kinds, which cannot
 * appear here) and extended resources. helpers.go IsIntegerResourceName. */
static bool is_integer_resource(const char *name) {
    return strcmp(name, "pods") == 0 || is_extended_resource(name);
}

/* The API server's check of every capacity, allocatable, request and limit
 * (pkg/apis/core/validation/validation.go ValidateResourceQuantityValue,
 * 1.34-1.36): never negative, and a whole number for integer resources, so
 * a recorded "1.5" GPUs or "-2" is refused rather than rounded or kept. */
static int dcheck_resource_value(dctx *c, const ynode *n, const char *name, const quantity *q) {
    if (quantity_sign(q) < 0) return derr(c, n, "invalid value '%s': must be greater than or equal to 0", n->str);
    if (is_integer_resource(name) && quantity_milli_value(q) % 1000 != 0)
        return derr(c, n, "invalid value '%s': must be an integer (%s is counted in whole units)", n->str, name);
    return 0;
}

/* A ResourceList map (cpu: 4, memory: 16Gi, nvidia.com/gpu: 8). */
static int dresource_list(dctx *c, const ynode *map, const char *key, k8s_resource_amount **out, size_t *n) {
    const ynode *mp;
    *out = NULL;
    *n = 0;
    if (dmap(c, map, key, 1000, &mp)) return -1;
    if (!mp) return 0;
    k8s_resource_amount *r = ARENA_NEW(c->a, k8s_resource_amount, mp->n ? mp->n : 1);
    for (size_t i = 0; i < mp->n; i++) {
        size_t m = dpush(c, ".%s", key);
        if (y_str(mp->keys[i], dwhat(c), &r[i].name, c->err)) return -1;
        dpop(c, m);
        m = dpush(c, ".%s.%s", key, r[i].name);
        if (dqty_node(c, mp->vals[i], &r[i].value)) return -1;
        if (dcheck_resource_value(c, mp->vals[i], r[i].name, &r[i].value)) return -1;
        dpop(c, m);
    }
    *out = r;
    *n = mp->n;
    return 0;
}

/* status.conditions[type=Ready].status (Kueue's TAS counts only Ready nodes). */
static int dnode_ready(dctx *c, const ynode *st, int8_t *ready) {
    const ynode *seq;
    *ready = -1;
    if (dseq(c, st, "conditions", 1000, &seq)) return -1;
    for (size_t i = 0; seq && i < seq->n; i++) {
        const ynode *e = seq->vals[i], *t = ymap_get(e, "type"), *s = ymap_get(e, "status");
        if (e->kind != YN_MAP || !t || t->kind != YN_SCALAR || strcmp(t->str, "Ready") != 0) continue;
        *ready = s && s->kind == YN_SCALAR && strcmp(s->str, "True") == 0;
    }
    return 0;
}

int k8s_decode_core_node(dctx *c, const ynode *root) {
    k8s_node *nd = ARENA_NEW(c->a, k8s_node, 1);
    nd->ready = -1;
    if (dmeta(c, root, &nd->meta, true)) return -1;
    const ynode *spec, *st;
    if (dmap(c, root, "spec", 1000, &spec)) return -1;
    if (spec) {
        size_t m = dpush(c, ".spec");
        if (dbool(c, spec, "unschedulable", &nd->unschedulable, NULL)) return -1;
        const ynode *seq;
        if (dseq(c, spec, "taints", 1000, &seq)) return -1;
        if (seq) {
            nd->taints = ARENA_NEW(c->a, k8s_taint, seq->n ? seq->n : 1);
            nd->ntaints = seq->n;
            for (size_t i = 0; i < seq->n; i++) {
                size_t m2 = dpush(c, ".taints[%zu]", i);
                const ynode *t = seq->vals[i];
                if (y_expect(t, YN_MAP, dwhat(c), c->err)) return -1;
                if (dstr(c, t, "key", true, &nd->taints[i].key)) return -1;
                if (dstr(c, t, "value", false, &nd->taints[i].value)) return -1;
                if (dstr(c, t, "timeAdded", false, &nd->taints[i].time_added)) return -1;
                const ynode *ef = ymap_get(t, "effect");
                if (y_is_null(ef)) return derr(c, t, "effect: required field is missing");
                size_t m3 = dpush(c, ".effect");
                if (dtaint_effect(c, ef, false, &nd->taints[i].effect)) return -1;
                dpop(c, m3);
                dpop(c, m2);
            }
        }
        dpop(c, m);
    }
    if (dmap(c, root, "status", 1000, &st)) return -1;
    if (st) {
        size_t m = dpush(c, ".status");
        if (dresource_list(c, st, "allocatable", &nd->allocatable, &nd->nallocatable)) return -1;
        if (dresource_list(c, st, "capacity", &nd->capacity, &nd->ncapacity)) return -1;
        if (dnode_ready(c, st, &nd->ready)) return -1;
        dpop(c, m);
    }
    k8s_objects_add(c->o, K8S_NODE, nd);
    return 0;
}

/* Sum container requests (limits stand in when requests are absent, as the
 * API server defaults them). */
static int dcontainers(dctx *c, const ynode *spec, k8s_pod *p) {
    const ynode *seq;
    if (dseq(c, spec, "containers", 1000, &seq)) return -1;
    if (!seq) return 0;
    VEC(k8s_resource_amount) sum = {0};
    for (size_t i = 0; i < seq->n; i++) {
        size_t m = dpush(c, ".containers[%zu]", i);
        const ynode *ct = seq->vals[i], *res;
        if (y_expect(ct, YN_MAP, dwhat(c), c->err)) goto fail;
        if (dmap(c, ct, "resources", 100, &res)) goto fail;
        if (res) {
            size_t m2 = dpush(c, ".resources");
            k8s_resource_amount *rq, *lim;
            size_t nrq, nlim;
            if (dresource_list(c, res, "requests", &rq, &nrq)) goto fail;
            if (dresource_list(c, res, "limits", &lim, &nlim)) goto fail;
            for (size_t k = 0; k < nrq + nlim; k++) {
                k8s_resource_amount a = k < nrq ? rq[k] : lim[k - nrq];
                if (k >= nrq) {   /* a limit counts only when no request names it */
                    bool dup = false;
                    for (size_t j = 0; j < nrq; j++) dup |= rq[j].name == a.name;
                    if (dup) continue;
                }
                size_t j = 0;
                while (j < sum.len && sum.data[j].name != a.name) j++;
                if (j == sum.len) VEC_PUSH(sum, a);
                else if (quantity_add(&sum.data[j].value, &a.value, &sum.data[j].value))
                    { derr(c, res, "sum of %s requests overflows", a.name); goto fail; }
            }
            dpop(c, m2);
        }
        dpop(c, m);
    }
    p->requests = ARENA_NEW(c->a, k8s_resource_amount, sum.len ? sum.len : 1);
    if (sum.len) memcpy(p->requests, sum.data, sum.len * sizeof *sum.data);
    p->nrequests = sum.len;
    VEC_FREE(sum);
    return 0;
fail:
    VEC_FREE(sum);
    return -1;
}

static int dpod_claims(dctx *c, const ynode *spec, k8s_pod *p) {
    const ynode *seq;
    if (dseq(c, spec, "resourceClaims", 128, &seq)) return -1;
    if (!seq) return 0;
    p->claims = ARENA_NEW(c->a, k8s_pod_claim_ref, seq->n ? seq->n : 1);
    p->nclaims = seq->n;
    for (size_t i = 0; i < seq->n; i++) {
        size_t m = dpush(c, ".resourceClaims[%zu]", i);
        const ynode *e = seq->vals[i];
        static const char *const allowed[] = {"name", "resourceClaimName", "resourceClaimTemplateName", NULL};
        if (dkeys(c, e, allowed)) return -1;
        k8s_pod_claim_ref *r = &p->claims[i];
        if (dstr(c, e, "name", true, &r->name)) return -1;
        if (dstr(c, e, "resourceClaimName", false, &r->resource_claim_name)) return -1;
        if (dstr(c, e, "resourceClaimTemplateName", false, &r->template_name)) return -1;
        if ((r->resource_claim_name != NULL) == (r->template_name != NULL))
            return derr(c, e, "exactly one of resourceClaimName and resourceClaimTemplateName must be set");
        dpop(c, m);
    }
    return 0;
}

int k8s_decode_pod(dctx *c, const ynode *root) {
    k8s_pod *p = ARENA_NEW(c->a, k8s_pod, 1);
    if (dmeta(c, root, &p->meta, true)) return -1;
    const ynode *spec;
    if (dmap(c, root, "spec", 1000, &spec)) return -1;
    if (!spec) return derr(c, root, "spec: required field is missing");
    size_t m = dpush(c, ".spec");
    if (k8s_decode_pod_spec(c, spec, p)) return -1;
    dpop(c, m);
    k8s_objects_add(c->o, K8S_POD, p);
    return 0;
}

/* A PodSpec's scheduling parts (also a Kueue Workload's pod templates). */
int k8s_decode_pod_spec(dctx *c, const ynode *spec, k8s_pod *p) {
    if (dcontainers(c, spec, p)) return -1;
    if (dkvmap(c, spec, "nodeSelector", &p->node_selector, &p->nnode_selector)) return -1;
    if (dtolerations(c, spec, "tolerations", 1000, &p->tolerations, &p->ntolerations)) return -1;
    if (dpod_claims(c, spec, p)) return -1;
    int64_t prio = 0;
    if (dint(c, spec, "priority", false, &prio, NULL)) return -1;
    p->priority = (int32_t)prio;
    if (dstr(c, spec, "schedulerName", false, &p->scheduler_name)) return -1;
    const ynode *aff, *na, *req;
    if (dmap(c, spec, "affinity", 10, &aff)) return -1;
    if (aff) {
        size_t m2 = dpush(c, ".affinity");
        if (dmap(c, aff, "nodeAffinity", 10, &na)) return -1;
        if (na) {
            size_t m3 = dpush(c, ".nodeAffinity");
            if (dmap(c, na, "requiredDuringSchedulingIgnoredDuringExecution", 10, &req)) return -1;
            if (req) {
                size_t m4 = dpush(c, ".requiredDuringSchedulingIgnoredDuringExecution");
                if (dnode_selector(c, req, &p->required_affinity)) return -1;
                p->has_affinity = true;
                dpop(c, m4);
            }
            dpop(c, m3);
        }
        dpop(c, m2);
    }
    return 0;
}
