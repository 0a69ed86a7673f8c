/*
 * scenario_cd.c -- a scenario's ComputeDomains (`workload.computeDomains`,
 * model/compute_domain.h) and the pod claims that name a ComputeDomain's
 * channel template (`resourceClaimTemplateName`), the way a Pod spec's
 * `resourceClaims[].resourceClaimTemplateName` does.
 */
#include <string.h>

#include "model/compute_domain.h"
#include "model/scenario.h"
#include "util/intern.h"

int scenario_parse_compute_domains(const ynode *seq, scenario *s, strbuf *err) {
    return compute_domains_parse(seq, &s->a, &s->cds, &s->ncds, err);
}

/* The ComputeDomain of group g's claim pc: its channel template in the group's namespace. */
static int resolve_claim(const scenario *s, pod_group_spec *g, dra_pod_claim *pc, strbuf *err) {
    const char *ns = g->namespace_ ? g->namespace_ : intern("default");
    const ynode *at = ymap_get(pc->where, "resourceClaimTemplateName");
    for (size_t i = 0; i < s->ncds; i++) {
        const compute_domain_spec *cd = &s->cds[i];
        if (cd->template_name != pc->template_name) continue;
        if (cd->namespace_ != ns) {
            yerr(err, at, "gpu.dra claim '%s': ComputeDomain %s's channel template '%s' is in namespace %s, "
                 "but group %s's pods are in %s (a pod uses the templates of its own namespace)", pc->name, cd->name,
                 pc->template_name, cd->namespace_, g->name, ns);
            return -1;
        }
        if (g->compute_domain && g->compute_domain != i + 1) {
            yerr(err, at, "gpu.dra claim '%s': group %s already uses ComputeDomain %s; a node serves one "
                 "ComputeDomain at a time and has one IMEX channel 0, so a pod can use only one", pc->name, g->name,
                 s->cds[g->compute_domain - 1].name);
            return -1;
        }
        pc->spec = cd->channel;
        pc->compute_domain = (uint32_t)i + 1;
        g->compute_domain = (uint32_t)i + 1;
        return 0;
    }
    yerr(err, at, "gpu.dra claim '%s': resourceClaimTemplateName '%s' is not the channel template of a ComputeDomain "
         "of workload.computeDomains", pc->name, pc->template_name);
    return -1;
}

int scenario_resolve_group_cd_claims(const scenario *s, pod_group_spec *g, strbuf *err) {
    for (size_t k = 0; k < g->ndra_claims; k++) {
        dra_pod_claim *pc = &g->dra_claims[k];
        if (pc->template_name && resolve_claim(s, g, pc, err)) return -1;
    }
    return 0;
}

int scenario_resolve_cd_claims(scenario *s, strbuf *err) {
    for (size_t i = 0; i < s->ngroups; i++) {
        pod_group_spec *g = &s->groups[i];
        for (size_t k = 0; k < g->ndra_claims; k++) {
            dra_pod_claim *pc = &g->dra_claims[k];
            if (pc->template_name && resolve_claim(s, g, pc, err)) return -1;
        }
    }
    return 0;
}
