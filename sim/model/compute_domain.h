/*
 * compute_domain.h -- ComputeDomains of the NVIDIA DRA driver in a scenario
 * (issue 28, docs/TOPOLOGY.md "ComputeDomains"), following
 * kubernetes-sigs/dra-driver-nvidia-gpu v0.4.1 (764900e7):
 *
 *   workload:
 *     computeDomains:
 *     - apiVersion: resource.nvidia.com/v1beta1      # optional; checked when given
 *       kind: ComputeDomain
 *       metadata: {name: train-a, namespace: default}
 *       spec:
 *         numNodes: 0                                # deprecated; no effect on scheduling
 *         channel:
 *           resourceClaimTemplate: {name: train-a-channel}
 *           allocationMode: Single                   # or All (every IMEX channel)
 *     podGroups:
 *     - name: worker
 *       gpu:
 *         dra:
 *           claims:
 *           - name: compute-domain-channel
 *             resourceClaimTemplateName: train-a-channel   # as a Pod spec names it
 *
 * The ResourceClaimTemplate the driver's controller creates for the channel
 * (cmd/compute-domain-controller/resourceclaimtemplate.go,
 * templates/compute-domain-workload-claim-template.tmpl.yaml) is one request
 * `channel` of DeviceClass compute-domain-default-channel.nvidia.com with an
 * opaque ComputeDomainChannelConfig{domainID: <uid>, allocationMode}; each
 * pod gets its own claim from it, so it takes the node's one `channel-0`.
 * The daemon claim template (compute-domain-daemon-claim-template.tmpl.yaml)
 * asks DeviceClass compute-domain-daemon.nvidia.com for `daemon-0`; drasim
 * keeps the daemons' tenure per node (engine/sim_cd.h), not as pods.
 */
#ifndef DRASIM_MODEL_COMPUTE_DOMAIN_H
#define DRASIM_MODEL_COMPUTE_DOMAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "model/k8s.h"
#include "model/yaml_tree.h"
#include "util/arena.h"
#include "util/strbuf.h"

#define CD_CHANNEL_CLASS "compute-domain-default-channel.nvidia.com"
#define CD_DAEMON_CLASS "compute-domain-daemon.nvidia.com"
#define CD_DRIVER_NAME "compute-domain.nvidia.com"

typedef struct compute_domain_spec {
    const char *name, *namespace_;    /* interned; namespace "default" when not given */
    const char *uid;                  /* a UUID drawn from namespace/name (the API server's is random) */
    const char *template_name;        /* spec.channel.resourceClaimTemplate.name (interned) */
    int64_t num_nodes;                /* spec.numNodes (deprecated, status only) */
    bool all_channels;                /* spec.channel.allocationMode: All */
    k8s_claim_spec channel;           /* the channel ResourceClaimTemplate's spec.spec */
    const ynode *channel_tree;        /* ... as YAML (for emitting it) */
    const ynode *where;
} compute_domain_spec;

/* Parse `workload.computeDomains` (a list of ComputeDomain objects) into
 * arena a. 0, or -1 with "FILE:LINE:COL: ..." in err. */
int compute_domains_parse(const ynode *seq, arena *a, compute_domain_spec **out, size_t *n, strbuf *err);

/* The ComputeDomain whose channel template is `template_name` (interned), or NULL. */
const compute_domain_spec *compute_domain_by_template(const compute_domain_spec *cds, size_t n,
                                                       const char *template_name);

/* The controller's two ResourceClaimTemplates of cd (channel, in the CD's
 * namespace, and daemon, in the driver's namespace), as YAML documents
 * appended to out (for `drasim inventory`, checked by k8s_validate). */
void compute_domain_emit_templates(const compute_domain_spec *cd, arena *a, strbuf *out);

#endif
