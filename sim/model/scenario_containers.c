/*
 * scenario_containers.c -- a pod group's containers (docs/SHARING.md):
 *
 *   initContainers:
 *   - name: fetch-weights                   # runs to completion first
 *     resources: {requests: {cpu: "4"}}
 *   - name: tokenizer                       # a sidecar: restartPolicy Always
 *     restartPolicy: Always
 *     resources: {requests: {cpu: "1", nvidia.com/gpu: 1}, claims: [{name: gpu}]}
 *   containers:
 *   - name: server
 *     resources: {requests: {cpu: "2", nvidia.com/gpu: 1}, claims: [{name: gpu}]}
 *
 * The pod's requests are what Kubernetes computes for scheduling
 * (k8s.io/component-helpers/resource/helpers.go, AggregateContainerRequests,
 * v1.32, with the sidecar rule of KEP-753): walking the init containers in
 * order, a sidecar adds its requests to the app containers' sum and to the
 * running sidecar total; a plain init container needs its own requests plus
 * the sidecars started before it; the pod needs the larger of the largest
 * init step and the sum of app containers and sidecars, per resource.
 *
 * Extended resources (DOMAIN/NAME, e.g. nvidia.com/gpu) become the group's
 * device-plugin demand: with the device plugin every container gets its own
 * devices, so two containers asking for one GPU each take two. Under DRA a
 * container names the pod's claims it uses (resources.claims); several
 * containers may name one claim and then share its devices (one GPU).
 */
#include <string.h>

#include "model/scenario.h"
#include "model/k8s_decode_internal.h"
#include "util/intern.h"

/* Requests of one container: resources.requests, with limits filling the
 * requests it omits (the API server's defaulting); an extended resource's
 * request must equal its limit, any other must not exceed it (core/v1 validation). */
static int parse_resources_block(const ynode *res, arena *a, pod_container *c, strbuf *err) {
    static const char *const keys[] = {"requests", "limits", "claims", NULL};
    const ynode *v;
    if (y_expect(res, YN_MAP, "container resources", err) || ymap_check_keys(res, keys, "container resources", err))
        return -1;
    k8s_resource_amount *req = NULL, *lim = NULL;
    size_t nreq = 0, nlim = 0;
    if ((v = ymap_get(res, "requests")) &&
        scenario_parse_resources(v, "resources.requests", false, a, &req, &nreq, err))
        return -1;
    if ((v = ymap_get(res, "limits")) && scenario_parse_resources(v, "resources.limits", false, a, &lim, &nlim, err))
        return -1;
    c->requests = ARENA_NEW(a, k8s_resource_amount, nreq + nlim + 1);
    for (size_t i = 0; i < nreq; i++) c->requests[c->nrequests++] = req[i];
    for (size_t j = 0; j < nlim; j++) {
        size_t i = 0;
        while (i < nreq && strcmp(req[i].name, lim[j].name)) i++;
        if (i == nreq) {
            c->requests[c->nrequests++] = lim[j];
        } else if (strchr(lim[j].name, '/') && quantity_cmp(&req[i].value, &lim[j].value)) {
            yerr(err, ymap_get(ymap_get(res, "limits"), lim[j].name),
                 "container '%s': resources.limits: %s: must be equal to its request (extended resources "
                 "cannot be overcommitted)", c->name, lim[j].name);
            return -1;
        } else if (quantity_cmp(&req[i].value, &lim[j].value) > 0) {
            /* ValidateResourceRequirements (kubernetes v1.36, pkg/apis/core/validation/
             * validation.go): a request above its limit is refused */
            char rq[64], lq[64];
            quantity_format_str(&req[i].value, rq, sizeof rq);
            quantity_format_str(&lim[j].value, lq, sizeof lq);
            yerr(err, ymap_get(ymap_get(res, "requests"), req[i].name),
                 "container '%s': resources.requests: %s: %s must be less than or equal to %s limit of %s",
                 c->name, req[i].name, rq, req[i].name, lq);
            return -1;
        }
    }
    if ((v = ymap_get(res, "claims"))) {
        if (y_expect(v, YN_SEQ, "resources.claims", err)) return -1;
        c->claims = ARENA_NEW(a, const char *, v->n ? v->n : 1);
        for (size_t i = 0; i < v->n; i++) {
            static const char *const ck[] = {"name", NULL};
            const ynode *x, *e = v->vals[i];
            if (y_expect(e, YN_MAP, "resources.claims entry", err) ||
                ymap_check_keys(e, ck, "resources.claims entry", err) ||
                ymap_need(e, "name", "resources.claims entry", &x, err) || y_str(x, "claim name", &c->claims[i], err))
                return -1;
            for (size_t k = 0; k < i; k++)
                if (c->claims[k] == c->claims[i]) {
                    yerr(err, x, "container '%s': resources.claims: duplicate claim '%s'", c->name, c->claims[i]);
                    return -1;
                }
            c->nclaims++;
        }
    }
    return 0;
}

static int parse_list(const ynode *seq, bool init, arena *a, pod_group_spec *g, strbuf *err) {
    const char *what = init ? "initContainers" : "containers";
    if (y_expect(seq, YN_SEQ, what, err)) return -1;
    for (size_t i = 0; i < seq->n; i++) {
        static const char *const app_keys[] = {"name", "resources", NULL};
        static const char *const init_keys[] = {"name", "resources", "restartPolicy", NULL};
        const ynode *m = seq->vals[i], *v;
        pod_container *c = &g->containers[g->ncontainers];
        memset(c, 0, sizeof *c);
        c->where = m;
        c->kind = init ? CONTAINER_INIT : CONTAINER_APP;
        if (y_expect(m, YN_MAP, what, err) || ymap_check_keys(m, init ? init_keys : app_keys, what, err)) return -1;
        if (ymap_need(m, "name", what, &v, err) || y_str(v, "container name", &c->name, err)) return -1;
        if (!k8s_is_dns_label(c->name)) {
            yerr(err, v, "%s: name '%s' must be a DNS label (lower case letters, digits and '-', at most 63)", what,
                 c->name);
            return -1;
        }
        for (size_t k = 0; k < g->ncontainers; k++)
            if (g->containers[k].name == c->name) {
                yerr(err, v, "%s: duplicate container name '%s' (names are unique across containers and "
                     "initContainers)", what, c->name);
                return -1;
            }
        if ((v = ymap_get(m, "restartPolicy"))) {   /* KEP-753: only Always, only on init containers */
            if (!y_scalar_eq(v, "Always")) {
                yerr(err, v, "initContainers: restartPolicy: expected Always (a sidecar container), found '%s'",
                     v->kind == YN_SCALAR ? v->str : ykind_name(v));
                return -1;
            }
            c->kind = CONTAINER_SIDECAR;
        }
        if ((v = ymap_get(m, "resources")) && parse_resources_block(v, a, c, err)) return -1;
        for (size_t k = 0; k < c->nclaims; k++) {
            size_t j = 0;
            while (j < g->ndra_claims && g->dra_claims[j].name != c->claims[k]) j++;
            if (j == g->ndra_claims) {
                yerr(err, ymap_get(m, "resources"), "container '%s': resources.claims: '%s' is not one of the pod's "
                     "claims (gpu.dra.claims)", c->name, c->claims[k]);
                return -1;
            }
        }
        g->ncontainers++;
    }
    return 0;
}

/* One resource's amount in container c (zero when absent). */
static quantity amount_of(const pod_container *c, const char *name) {
    for (size_t i = 0; i < c->nrequests; i++)
        if (c->requests[i].name == name) return c->requests[i].value;
    return quantity_from_int64(0, QF_DECIMAL_SI);
}

static void qmax(quantity *acc, const quantity *x) {
    if (quantity_cmp(x, acc) > 0) *acc = *x;
}

/* The pod's request of `name` (see the file comment; helpers.go's loop, per resource). */
static int effective(const pod_group_spec *g, const char *name, quantity *out) {
    quantity apps = quantity_from_int64(0, QF_DECIMAL_SI), sidecars = apps, init_max = apps, q;
    for (size_t i = 0; i < g->ncontainers; i++) {
        const pod_container *c = &g->containers[i];
        quantity x = amount_of(c, name);
        if (c->kind == CONTAINER_APP) {
            if (quantity_add(&apps, &x, &apps)) return -1;
        } else if (c->kind == CONTAINER_SIDECAR) {
            if (quantity_add(&apps, &x, &apps) || quantity_add(&sidecars, &x, &sidecars)) return -1;
            qmax(&init_max, &sidecars);
        } else {
            if (quantity_add(&x, &sidecars, &q)) return -1;
            qmax(&init_max, &q);
        }
    }
    qmax(&apps, &init_max);
    *out = apps;
    return 0;
}

int scenario_parse_containers(const ynode *m, arena *a, pod_group_spec *g, strbuf *err) {
    const ynode *apps = ymap_get(m, "containers"), *inits = ymap_get(m, "initContainers");
    if (!apps && !inits) return 0;
    if (!apps) {
        yerr(err, inits, "pod group '%s': initContainers need containers (a pod has at least one)", g->name);
        return -1;
    }
    if (ymap_get(m, "requests")) {
        yerr(err, ymap_get(m, "requests"), "pod group '%s': give requests per container when it lists containers",
             g->name);
        return -1;
    }
    if (g->ndp_resources) {
        yerr(err, ymap_get(ymap_get(m, "gpu"), "devicePlugin"), "pod group '%s': give device-plugin resources "
             "(nvidia.com/gpu, MIG) per container in resources.requests when it lists containers", g->name);
        return -1;
    }
    size_t n = (apps->kind == YN_SEQ ? apps->n : 0) + (inits && inits->kind == YN_SEQ ? inits->n : 0);
    g->containers = ARENA_NEW(a, pod_container, n ? n : 1);
    if ((inits && parse_list(inits, true, a, g, err)) || parse_list(apps, false, a, g, err)) return -1;
    if (apps->n == 0) {
        yerr(err, apps, "pod group '%s': containers: expected at least one container", g->name);
        return -1;
    }
    /* every resource name, in first-seen order */
    size_t nnames = 0;
    for (size_t i = 0; i < g->ncontainers; i++) nnames += g->containers[i].nrequests;
    const char **names = ARENA_NEW(a, const char *, nnames ? nnames : 1);
    nnames = 0;
    for (size_t i = 0; i < g->ncontainers; i++)
        for (size_t k = 0; k < g->containers[i].nrequests; k++) {
            const char *nm = g->containers[i].requests[k].name;
            size_t j = 0;
            while (j < nnames && names[j] != nm) j++;
            if (j == nnames) names[nnames++] = nm;
        }
    g->requests = ARENA_NEW(a, k8s_resource_amount, nnames ? nnames : 1);
    g->dp_resources = ARENA_NEW(a, k8s_resource_amount, nnames ? nnames : 1);
    g->nrequests = g->ndp_resources = 0;
    for (size_t j = 0; j < nnames; j++) {
        k8s_resource_amount r = {.name = names[j]};
        if (effective(g, names[j], &r.value)) {
            yerr(err, apps, "pod group '%s': the containers' %s requests overflow", g->name, names[j]);
            return -1;
        }
        if (strchr(names[j], '/')) {
            g->dp_resources[g->ndp_resources++] = r;
            g->has_dp = true;
        } else {
            g->requests[g->nrequests++] = r;
        }
    }
    return 0;
}
