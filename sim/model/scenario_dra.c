/*
 * scenario_dra.c -- the DRA parts of a scenario: a pod group's
 * `gpu.dra.claims` and the shared claims of `workload.resourceClaims`.
 *
 *   gpu:
 *     dra:
 *       claims:
 *       - name: gpus                          # the pod's name for the claim
 *         spec: {devices: {requests: [...]}}  # a ResourceClaimTemplate's spec.spec
 *       - name: shared
 *         resourceClaimName: team-gpu         # one of workload.resourceClaims
 *   workload:
 *     resourceClaims:
 *     - name: team-gpu
 *       spec: {devices: {requests: [...]}}    # a ResourceClaim's spec
 *
 * Specs go through the Kubernetes decoder (model/k8s_decode), so they are
 * checked like the API server checks them; errors read
 * "FILE:LINE:COL: ResourceClaimTemplate GROUP/CLAIM: spec.devices...: problem".
 */
#include "model/scenario.h"

#include <stdio.h>
#include <string.h>

#include "model/k8s_decode_internal.h"
#include "util/intern.h"

/* Decode `spec` (a claim spec map) as object `kind` named `name`. */
int scenario_decode_claim_spec(const ynode *spec, arena *a, const char *kind, const char *name, k8s_claim_spec *out,
                               strbuf *err) {
    dctx c;
    memset(&c, 0, sizeof c);
    c.a = a;
    c.err = err;
    c.kind = kind;
    c.name = name;
    size_t m = dpush(&c, "spec");
    if (k8s_decode_claim_spec(&c, spec, out)) return -1;
    dpop(&c, m);
    return 0;
}

static int claim_name(const ynode *c, const char *what, const char **out, strbuf *err) {
    const ynode *x;
    if (ymap_need(c, "name", what, &x, err) || y_str(x, "claim name", out, err)) return -1;
    if (!k8s_is_dns_label(*out)) {
        yerr(err, x, "%s: name '%s' must be a DNS label (lower case letters, digits and '-', at most 63)", what, *out);
        return -1;
    }
    return 0;
}

int scenario_parse_dra(const ynode *v, arena *a, pod_group_spec *g, strbuf *err) {
    static const char *const dk[] = {"claims", NULL};
    static const char *const ck[] = {"name", "spec", "resourceClaimName", "resourceClaimTemplateName", NULL};
    const ynode *claims, *x;
    if (ymap_check_keys(v, dk, "gpu.dra", err)) return -1;
    if (ymap_need(v, "claims", "gpu.dra", &claims, err) || y_expect(claims, YN_SEQ, "gpu.dra.claims", err)) return -1;
    if (claims->n == 0) {
        yerr(err, claims, "gpu.dra.claims: expected at least one claim");
        return -1;
    }
    g->dra_claims = ARENA_NEW(a, dra_pod_claim, claims->n);
    g->ndra_claims = claims->n;
    for (size_t i = 0; i < claims->n; i++) {
        const ynode *c = claims->vals[i];
        dra_pod_claim *pc = &g->dra_claims[i];
        pc->where = c;
        if (ymap_check_keys(c, ck, "gpu.dra claim", err) || claim_name(c, "gpu.dra claim", &pc->name, err)) return -1;
        for (size_t j = 0; j < i; j++)
            if (g->dra_claims[j].name == pc->name) {
                yerr(err, c, "gpu.dra: duplicate claim name '%s'", pc->name);
                return -1;
            }
        const ynode *spec = ymap_get(c, "spec"), *ref = ymap_get(c, "resourceClaimName"),
                    *tmpl = ymap_get(c, "resourceClaimTemplateName");
        if ((spec != NULL) + (ref != NULL) + (tmpl != NULL) != 1) {
            yerr(err, c, "gpu.dra claim '%s': expected exactly one of spec (a ResourceClaimTemplate spec), "
                 "resourceClaimName (a claim of workload.resourceClaims) and resourceClaimTemplateName (a "
                 "ComputeDomain's channel template, workload.computeDomains)", pc->name);
            return -1;
        }
        if (tmpl) {   /* resolved by scenario_resolve_cd_claims once the ComputeDomains are known */
            if (y_str(tmpl, "resourceClaimTemplateName", &pc->template_name, err)) return -1;
            continue;
        }
        if (ref) {
            if (y_str(ref, "resourceClaimName", &pc->shared, err)) return -1;
            continue;
        }
        if (y_expect(spec, YN_MAP, "gpu.dra claim spec (a ResourceClaimTemplate spec)", err)) return -1;
        char name[300];
        snprintf(name, sizeof name, "%s/%s", g->name ? g->name : "", pc->name);
        if (scenario_decode_claim_spec(spec, a, "ResourceClaimTemplate", intern(name), &pc->spec, err)) return -1;
        if (gpu_sharing_from_configs(pc->spec.config, pc->spec.nconfig, &pc->sharing, err)) return -1;
        (void)x;
    }
    g->dra = v;
    return 0;
}

int scenario_parse_shared_claims(const ynode *seq, scenario *s, strbuf *err) {
    static const char *const ck[] = {"name", "spec", NULL};
    const ynode *spec;
    if (y_expect(seq, YN_SEQ, "workload.resourceClaims", err)) return -1;
    s->shared_claims = ARENA_NEW(&s->a, dra_shared_claim, seq->n ? seq->n : 1);
    s->nshared_claims = seq->n;
    for (size_t i = 0; i < seq->n; i++) {
        const ynode *c = seq->vals[i];
        dra_shared_claim *sc = &s->shared_claims[i];
        sc->where = c;
        if (ymap_check_keys(c, ck, "resource claim", err) || claim_name(c, "resource claim", &sc->name, err)) return -1;
        for (size_t j = 0; j < i; j++)
            if (s->shared_claims[j].name == sc->name) {
                yerr(err, c, "workload.resourceClaims: duplicate claim name '%s'", sc->name);
                return -1;
            }
        if (ymap_need(c, "spec", "resource claim", &spec, err) || y_expect(spec, YN_MAP, "resource claim spec", err))
            return -1;
        if (scenario_decode_claim_spec(spec, &s->a, "ResourceClaim", sc->name, &sc->spec, err)) return -1;
        if (gpu_sharing_from_configs(sc->spec.config, sc->spec.nconfig, &sc->sharing, err)) return -1;
    }
    return 0;
}

int scenario_check_claim_refs(const scenario *s, strbuf *err) {
    for (size_t i = 0; i < s->ngroups; i++)
        for (size_t k = 0; k < s->groups[i].ndra_claims; k++) {
            const dra_pod_claim *pc = &s->groups[i].dra_claims[k];
            if (!pc->shared) continue;
            size_t j = 0;
            while (j < s->nshared_claims && s->shared_claims[j].name != pc->shared) j++;
            if (j == s->nshared_claims) {
                yerr(err, ymap_get(pc->where, "resourceClaimName"),
                     "gpu.dra claim '%s': resourceClaimName '%s' is not one of workload.resourceClaims", pc->name,
                     pc->shared);
                return -1;
            }
        }
    return 0;
}
