/*
 * compute_domain.c -- `workload.computeDomains`: ComputeDomain objects as
 * kubernetes-sigs/dra-driver-nvidia-gpu v0.4.1 (764900e7) defines them
 * (api/nvidia.com/resource/v1beta1/computedomain.go), and the channel and
 * daemon ResourceClaimTemplates its controller makes of each
 * (cmd/compute-domain-controller/resourceclaimtemplate.go with
 * templates/compute-domain-{workload,daemon}-claim-template.tmpl.yaml).
 * Our own code after those files; see compute_domain.h.
 */
#include "model/compute_domain.h"

#include <stdio.h>
#include <string.h>

#include "model/k8s_decode_internal.h"
#include "model/scenario.h"
#include "model/topology_spec.h"
#include "util/intern.h"

#define CD_API "resource.nvidia.com/v1beta1"

/* `metadata: {name, namespace}` (labels and annotations are allowed and ignored). */
static int parse_meta(const ynode *md, compute_domain_spec *cd, strbuf *err) {
    static const char *const keys[] = {"name", "namespace", "labels", "annotations", NULL};
    const ynode *v;
    if (y_expect(md, YN_MAP, "ComputeDomain metadata", err) || ymap_check_keys(md, keys, "ComputeDomain metadata", err))
        return -1;
    if (ymap_need(md, "name", "ComputeDomain metadata", &v, err) || y_str(v, "metadata.name", &cd->name, err)) return -1;
    if (!k8s_is_dns_subdomain(cd->name)) {
        yerr(err, v, "ComputeDomain metadata.name: '%s' is not a DNS subdomain (lower case letters, digits, '-' and "
             "'.', at most 253)", cd->name);
        return -1;
    }
    cd->namespace_ = intern("default");
    if ((v = ymap_get(md, "namespace"))) {
        if (y_str(v, "metadata.namespace", &cd->namespace_, err)) return -1;
        if (!k8s_is_dns_label(cd->namespace_)) {
            yerr(err, v, "ComputeDomain %s: metadata.namespace: '%s' is not a DNS label", cd->name, cd->namespace_);
            return -1;
        }
    }
    return 0;
}

/* `spec.channel: {resourceClaimTemplate: {name}, allocationMode: Single|All}` */
static int parse_channel(const ynode *ch, compute_domain_spec *cd, strbuf *err) {
    static const char *const keys[] = {"resourceClaimTemplate", "allocationMode", NULL};
    static const char *const tkeys[] = {"name", NULL};
    const ynode *t, *v;
    char what[320];
    snprintf(what, sizeof what, "ComputeDomain %s: spec.channel", cd->name);
    if (y_expect(ch, YN_MAP, what, err) || ymap_check_keys(ch, keys, what, err)) return -1;
    if (ymap_need(ch, "resourceClaimTemplate", what, &t, err) || y_expect(t, YN_MAP, what, err) ||
        ymap_check_keys(t, tkeys, what, err) || ymap_need(t, "name", what, &v, err) ||
        y_str(v, "resourceClaimTemplate.name", &cd->template_name, err))
        return -1;
    if (!k8s_is_dns_subdomain(cd->template_name)) {
        yerr(err, v, "%s.resourceClaimTemplate.name: '%s' is not a DNS subdomain", what, cd->template_name);
        return -1;
    }
    if ((v = ymap_get(ch, "allocationMode"))) {
        if (y_scalar_eq(v, "All")) cd->all_channels = true;
        else if (!y_scalar_eq(v, "Single")) {
            yerr(err, v, "%s.allocationMode: expected All or Single, found %s", what,
                 v->kind == YN_SCALAR ? v->str : ykind_name(v));
            return -1;
        }
    }
    return 0;
}

/* The channel template's spec.spec, as the controller's template writes it. */
static ynode *channel_tree(const compute_domain_spec *cd, arena *a) {
    ynode *exactly = yb_map(a), *req = yb_map(a), *reqs = yb_seq(a);
    yb_add(a, exactly, "deviceClassName", yb_str(a, CD_CHANNEL_CLASS));
    yb_add(a, req, "name", yb_str(a, "channel"));
    yb_add(a, req, "exactly", exactly);
    yb_push(a, reqs, req);
    ynode *params = yb_map(a), *opaque = yb_map(a), *cfg = yb_map(a), *cfgs = yb_seq(a), *names = yb_seq(a);
    yb_add(a, params, "apiVersion", yb_str(a, CD_API));
    yb_add(a, params, "kind", yb_str(a, "ComputeDomainChannelConfig"));
    yb_add(a, params, "domainID", yb_str(a, cd->uid));
    yb_add(a, params, "allocationMode", yb_str(a, cd->all_channels ? "All" : "Single"));
    yb_add(a, opaque, "driver", yb_str(a, CD_DRIVER_NAME));
    yb_add(a, opaque, "parameters", params);
    yb_push(a, names, yb_str(a, "channel"));
    yb_add(a, cfg, "requests", names);
    yb_add(a, cfg, "opaque", opaque);
    yb_push(a, cfgs, cfg);
    ynode *devices = yb_map(a), *spec = yb_map(a);
    yb_add(a, devices, "requests", reqs);
    yb_add(a, devices, "config", cfgs);
    yb_add(a, spec, "devices", devices);
    return spec;
}

static int parse_one(const ynode *o, arena *a, compute_domain_spec *cd, strbuf *err) {
    static const char *const keys[] = {"apiVersion", "kind", "metadata", "spec", NULL};
    static const char *const skeys[] = {"numNodes", "channel", NULL};
    const ynode *v, *spec, *md;
    cd->where = o;
    if (y_expect(o, YN_MAP, "workload.computeDomains entry (a ComputeDomain)", err)) return -1;
    if ((v = ymap_get(o, "status"))) {
        yerr(err, v, "ComputeDomain: status is written by the driver's controller, not by a scenario");
        return -1;
    }
    if (ymap_check_keys(o, keys, "ComputeDomain", err)) return -1;
    if ((v = ymap_get(o, "apiVersion")) && !y_scalar_eq(v, CD_API)) {
        yerr(err, v, "ComputeDomain: apiVersion: expected " CD_API);
        return -1;
    }
    if ((v = ymap_get(o, "kind")) && !y_scalar_eq(v, "ComputeDomain")) {
        yerr(err, v, "workload.computeDomains: kind: expected ComputeDomain");
        return -1;
    }
    if (ymap_need(o, "metadata", "ComputeDomain", &md, err) || parse_meta(md, cd, err)) return -1;
    char what[300];
    snprintf(what, sizeof what, "ComputeDomain %s: spec", cd->name);
    if (ymap_need(o, "spec", what, &spec, err) || y_expect(spec, YN_MAP, what, err) ||
        ymap_check_keys(spec, skeys, what, err))
        return -1;
    if ((v = ymap_get(spec, "numNodes"))) {
        if (y_int(v, "spec.numNodes", &cd->num_nodes, err)) return -1;
        if (cd->num_nodes < 0) {   /* +kubebuilder:validation:Minimum=0 */
            yerr(err, v, "%s.numNodes: must be zero or greater, found %lld", what, (long long)cd->num_nodes);
            return -1;
        }
    }
    if (ymap_need(spec, "channel", what, &v, err) || parse_channel(v, cd, err)) return -1;
    char seed[600], uid[37];
    snprintf(seed, sizeof seed, "%s/%s", cd->namespace_, cd->name);
    fabric_uuid(seed, 0, uid);
    cd->uid = intern(uid);
    cd->channel_tree = channel_tree(cd, a);
    return scenario_decode_claim_spec(cd->channel_tree, a, "ResourceClaimTemplate", cd->template_name, &cd->channel,
                                      err);
}

int compute_domains_parse(const ynode *seq, arena *a, compute_domain_spec **out, size_t *n, strbuf *err) {
    if (y_expect(seq, YN_SEQ, "workload.computeDomains", err)) return -1;
    compute_domain_spec *cds = ARENA_NEW(a, compute_domain_spec, seq->n ? seq->n : 1);
    memset(cds, 0, sizeof *cds * (seq->n ? seq->n : 1));
    for (size_t i = 0; i < seq->n; i++) {
        compute_domain_spec *cd = &cds[i];
        if (parse_one(seq->vals[i], a, cd, err)) return -1;
        for (size_t j = 0; j < i; j++) {
            if (cds[j].name == cd->name && cds[j].namespace_ == cd->namespace_) {
                yerr(err, cd->where, "workload.computeDomains: duplicate ComputeDomain %s/%s", cd->namespace_,
                     cd->name);
                return -1;
            }
            if (cds[j].template_name == cd->template_name && cds[j].namespace_ == cd->namespace_) {
                yerr(err, cd->where, "ComputeDomain %s: channel template '%s' is already ComputeDomain %s's (the "
                     "controller makes one template per ComputeDomain)", cd->name, cd->template_name, cds[j].name);
                return -1;
            }
        }
    }
    *out = cds;
    *n = seq->n;
    return 0;
}

const compute_domain_spec *compute_domain_by_template(const compute_domain_spec *cds, size_t n,
                                                       const char *template_name) {
    for (size_t i = 0; i < n; i++)
        if (cds[i].template_name == template_name) return &cds[i];
    return NULL;
}

/* One ResourceClaimTemplate document: metadata, the controller's labels, spec.spec. */
static void emit_template(arena *a, strbuf *out, const char *ns, const char *name, const char *uid, const char *target,
                          ynode *spec) {
    ynode *doc = yb_map(a), *md = yb_map(a), *labels = yb_map(a), *outer = yb_map(a);
    yb_add(a, doc, "apiVersion", yb_str(a, "resource.k8s.io/v1"));
    yb_add(a, doc, "kind", yb_str(a, "ResourceClaimTemplate"));
    yb_add(a, md, "name", yb_str(a, name));
    yb_add(a, md, "namespace", yb_str(a, ns));
    /* cmd/compute-domain-controller: computeDomainLabelKey and the template's target label */
    yb_add(a, labels, "resource.nvidia.com/computeDomain", yb_str(a, uid));
    yb_add(a, labels, "resource.nvidia.com/computeDomainTarget", yb_str(a, target));
    yb_add(a, md, "labels", labels);
    yb_add(a, doc, "metadata", md);
    yb_add(a, outer, "spec", spec);
    yb_add(a, doc, "spec", outer);
    sb_puts(out, "---\n");
    ydump(out, doc);
}

void compute_domain_emit_templates(const compute_domain_spec *cd, arena *a, strbuf *out) {
    emit_template(a, out, cd->namespace_, cd->template_name, cd->uid, "Workload", (ynode *)cd->channel_tree);
    /* the daemon template: request `daemon` of compute-domain-daemon.nvidia.com, ComputeDomainDaemonConfig */
    ynode *exactly = yb_map(a), *req = yb_map(a), *reqs = yb_seq(a), *params = yb_map(a), *opaque = yb_map(a),
          *cfg = yb_map(a), *cfgs = yb_seq(a), *names = yb_seq(a), *devices = yb_map(a), *spec = yb_map(a);
    yb_add(a, exactly, "deviceClassName", yb_str(a, CD_DAEMON_CLASS));
    yb_add(a, req, "name", yb_str(a, "daemon"));
    yb_add(a, req, "exactly", exactly);
    yb_push(a, reqs, req);
    yb_add(a, params, "apiVersion", yb_str(a, CD_API));
    yb_add(a, params, "kind", yb_str(a, "ComputeDomainDaemonConfig"));
    yb_add(a, params, "domainID", yb_str(a, cd->uid));
    yb_add(a, opaque, "driver", yb_str(a, CD_DRIVER_NAME));
    yb_add(a, opaque, "parameters", params);
    yb_push(a, names, yb_str(a, "daemon"));
    yb_add(a, cfg, "requests", names);
    yb_add(a, cfg, "opaque", opaque);
    yb_push(a, cfgs, cfg);
    yb_add(a, devices, "requests", reqs);
    yb_add(a, devices, "config", cfgs);
    yb_add(a, spec, "devices", devices);
    char name[80];
    snprintf(name, sizeof name, "computedomain-daemon-%s", cd->uid);
    /* the driver's namespace, as its docs and tests/bats install it */
    emit_template(a, out, "dra-driver-nvidia-gpu", name, cd->uid, "Daemon", spec);
}
