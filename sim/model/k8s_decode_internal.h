/*
 * k8s_decode_internal.h -- the decoding context shared by the k8s_decode*.c
 * files: current object and field path (for error messages), and checked
 * field readers built on yaml_tree's accessors.
 */
#ifndef DRASIM_MODEL_K8S_DECODE_INTERNAL_H
#define DRASIM_MODEL_K8S_DECODE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/k8s_decode.h"

typedef struct dctx {
    k8s_objects *o;
    arena *a;
    strbuf *err;
    const char *kind;           /* "ResourceSlice" */
    const char *name;           /* object name, "" while unknown */
    char path[512];             /* field path, e.g. "spec.devices[3].name" */
    size_t plen;
    char what[800];             /* scratch: "Kind name: path" */
} dctx;

/* Field path handling: push returns a mark for pop. */
size_t dpush(dctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dpop(dctx *c, size_t mark);
const char *dwhat(dctx *c);

/* Error at node n (or the object when n has no position): returns -1. */
int derr(dctx *c, const ynode *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Readers of map fields; `key` is appended to the path for messages. A missing
 * optional field leaves *out unchanged and returns 0 (null counts as missing). */
int dkeys(dctx *c, const ynode *map, const char *const *allowed);
int dstr(dctx *c, const ynode *map, const char *key, bool required, const char **out);
int dint(dctx *c, const ynode *map, const char *key, bool required, int64_t *out, bool *present);
int dbool(dctx *c, const ynode *map, const char *key, bool *out, bool *present);
int dqty_node(dctx *c, const ynode *n, quantity *out);
int dqty(dctx *c, const ynode *map, const char *key, bool required, quantity *out, bool *present);
/* A list field: *seq = NULL when absent/null; error if not a list or longer than max. */
int dseq(dctx *c, const ynode *map, const char *key, size_t max, const ynode **seq);
/* A map field: *m = NULL when absent/null; error if not a map or larger than max. */
int dmap(dctx *c, const ynode *map, const char *key, size_t max, const ynode **m);
/* List of strings. */
int dstrlist(dctx *c, const ynode *map, const char *key, size_t max, const char ***out, size_t *n);
/* String maps (labels, annotations, nodeSelector). */
int dkvmap(dctx *c, const ynode *map, const char *key, k8s_kv **out, size_t *n);

/* Name rules (Kubernetes apimachinery validation). */
bool k8s_is_dns_label(const char *s);            /* RFC 1123 label, <= 63 */
bool k8s_is_dns_subdomain(const char *s);        /* RFC 1123 subdomain, <= 253 */
bool k8s_is_c_identifier(const char *s);         /* [A-Za-z_][A-Za-z0-9_]* */
/* Request and subrequest names: DNS labels, upper case tolerated (upstream's
 * test table uses "subReq-0"). */
bool k8s_is_request_name(const char *s);
/* QualifiedName of the resource API: [domain/]id, id a C identifier <= 32,
 * domain a DNS subdomain <= 63. */
bool k8s_is_resource_qualified_name(const char *s);
/* A Topology's spec.levels[].nodeLabel, top level first, 1..16 levels: the
 * shape Kueue's (apis/kueue/v1beta2/topology_types.go) and KAI's
 * (pkg/apis/kai/v1alpha1/topology_types.go) Topology share. CHECK vets level
 * i (LABEL its node, for errors) against the levels read before it. */
typedef int (*dlevel_check)(dctx *c, const ynode *label, const char *const *levels, size_t i, size_t n);
int dtopology_levels(dctx *c, const ynode *root, const char ***levels, size_t *n, dlevel_check check);
int dcheck_name(dctx *c, const ynode *n, const char *s, bool (*ok)(const char *), const char *rule);

/* Shared sub-decoders. */
int dmeta(dctx *c, const ynode *root, k8s_meta *m, bool name_required);
int dnode_selector(dctx *c, const ynode *n, k8s_node_selector *out);
int dtolerations(dctx *c, const ynode *map, const char *key, size_t max, k8s_toleration **out, size_t *n);
int dtaint_effect(dctx *c, const ynode *n, bool device, k8s_taint_effect *out);
int dopaque(dctx *c, const ynode *map, k8s_opaque_config *out);

/* Per-kind decoders (root = the object's map). */
int k8s_decode_device_class(dctx *c, const ynode *root);
int k8s_decode_resource_slice(dctx *c, const ynode *root);
int k8s_decode_resource_claim(dctx *c, const ynode *root);
int k8s_decode_claim_template(dctx *c, const ynode *root);
int k8s_decode_core_node(dctx *c, const ynode *root);
int k8s_decode_pod(dctx *c, const ynode *root);
int k8s_decode_pod_spec(dctx *c, const ynode *spec, k8s_pod *p);
int k8s_decode_claim_spec(dctx *c, const ynode *spec, k8s_claim_spec *out);

void k8s_objects_add(k8s_objects *o, k8s_kind kind, void *obj);

/* A resource.k8s.io/v1beta1 or v1beta2 object's tree as its v1 form
 * (k8s_decode_convert.c); new nodes live in `a`, unchanged ones are shared. */
const ynode *k8s_convert_to_v1(arena *a, const ynode *root, const char *api, const char *kind);

#endif
