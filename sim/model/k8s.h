/*
 * k8s.h -- in-memory form of the Kubernetes objects drasim reads and writes:
 * resource.k8s.io/v1 DeviceClass, ResourceSlice, ResourceClaim(Template) and the
 * parts of core/v1 Node and Pod that scheduling looks at.
 *
 * Conventions (shared by the decoder, the emitter, the allocator and the
 * simulator):
 *   - every string is interned (util/intern.h): equal strings are equal
 *     pointers, so comparisons are pointer compares; NULL means "not set";
 *   - arrays are (pointer, count) pairs, owned by the object's arena;
 *   - optional scalars carry a has_ flag where absence differs from zero;
 *   - `line`/`col` remember where an object came from in its YAML file
 *     (0 when generated) so later errors can point at it.
 */
#ifndef DRASIM_MODEL_K8S_H
#define DRASIM_MODEL_K8S_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cel/quantity.h"
#include "cel/semver.h"

/* ---- metadata ---------------------------------------------------------- */

typedef struct k8s_kv {
    const char *key;
    const char *value;
} k8s_kv;

typedef struct k8s_meta {
    const char *name;
    const char *namespace_;     /* NULL for cluster-scoped objects */
    const char *uid;
    k8s_kv *labels;
    size_t nlabels;
    k8s_kv *annotations;
    size_t nannotations;
    const char *file;           /* source file, NULL when generated */
    int line, col;              /* position of the object in `file` */
} k8s_meta;

/* ---- node selectors (core/v1 NodeSelector) ------------------------------ */

typedef enum {
    SEL_OP_IN, SEL_OP_NOT_IN, SEL_OP_EXISTS, SEL_OP_DOES_NOT_EXIST, SEL_OP_GT, SEL_OP_LT
} k8s_selector_op;

typedef struct k8s_selector_req {
    const char *key;
    k8s_selector_op op;
    const char **values;
    size_t nvalues;
} k8s_selector_req;

typedef struct k8s_selector_term {
    k8s_selector_req *match_expressions;
    size_t nmatch_expressions;
    k8s_selector_req *match_fields;     /* only key metadata.name is valid */
    size_t nmatch_fields;
} k8s_selector_term;

/* Terms are ORed; requirements inside a term are ANDed. */
typedef struct k8s_node_selector {
    k8s_selector_term *terms;
    size_t nterms;
} k8s_node_selector;

/* ---- taints and tolerations (node and device share the shape) ------------ */

typedef enum { TAINT_NONE, TAINT_NO_SCHEDULE, TAINT_PREFER_NO_SCHEDULE, TAINT_NO_EXECUTE } k8s_taint_effect;

typedef struct k8s_taint {
    const char *key;
    const char *value;
    k8s_taint_effect effect;
    const char *time_added;     /* RFC 3339 text or NULL */
} k8s_taint;

typedef enum { TOL_OP_EQUAL, TOL_OP_EXISTS } k8s_toleration_op;

typedef struct k8s_toleration {
    const char *key;            /* NULL/empty with Exists = tolerate everything */
    k8s_toleration_op op;
    bool has_op;                /* operator written explicitly */
    const char *value;
    k8s_taint_effect effect;
    bool has_effect;            /* empty effect matches every effect */
    bool has_seconds;
    int64_t seconds;
} k8s_toleration;

/* ---- opaque configuration ------------------------------------------------ */

struct ynode;                   /* model/yaml_tree.h */

typedef struct k8s_opaque_config {
    const char *driver;
    const struct ynode *parameters;   /* kept as a YAML tree, never interpreted */
} k8s_opaque_config;

typedef struct k8s_device_config {
    const char **requests;      /* empty = applies to all requests */
    size_t nrequests;
    k8s_opaque_config opaque;
} k8s_device_config;

/* ---- DeviceClass --------------------------------------------------------- */

typedef struct k8s_device_class {
    k8s_meta meta;
    const char **selectors;     /* CEL expressions, ANDed */
    size_t nselectors;
    k8s_device_config *config;  /* requests unused here */
    size_t nconfig;
    const char *extended_resource_name;
    int64_t creation_seq;       /* order of creation: newest wins for extended names */
} k8s_device_class;

/* ---- ResourceSlice -------------------------------------------------------- */

typedef enum { ATTR_INT, ATTR_BOOL, ATTR_STRING, ATTR_VERSION, ATTR_LIST_UNSUPPORTED } k8s_attr_kind;

/* One device attribute. `domain` is the qualified-name domain, already
 * resolved: a bare name gets the slice's driver as domain. */
typedef struct k8s_attribute {   /* fields ordered for no padding: 88 bytes, not 104 (issue 31) */
    const char *domain;
    const char *id;
    const char *qname;          /* the map key as written ("numa" or "d.io/numa"); may be NULL */
    const char *s;              /* ATTR_STRING, and the raw text of ATTR_VERSION */
    int64_t i;                  /* ATTR_INT */
    semver v;                   /* ATTR_VERSION, valid when v_ok */
    k8s_attr_kind kind;
    bool b;                     /* ATTR_BOOL */
    bool v_ok;
} k8s_attribute;

typedef enum { CAP_POLICY_NONE, CAP_POLICY_VALID_VALUES, CAP_POLICY_VALID_RANGE } k8s_policy_kind;

typedef struct k8s_capacity {
    const char *domain;
    const char *id;
    const char *qname;          /* the map key as written; requests match it exactly; may be NULL */
    quantity value;
    /* requestPolicy (DRAConsumableCapacity) */
    bool has_policy;
    bool has_default;
    quantity def;
    k8s_policy_kind policy;
    quantity *valid_values;     /* ascending */
    size_t nvalid_values;
    quantity range_min;
    bool has_range_max, has_range_step;
    quantity range_max, range_step;
} k8s_capacity;

typedef struct k8s_counter {
    const char *name;
    quantity value;
} k8s_counter;

typedef struct k8s_counter_set {
    const char *name;
    k8s_counter *counters;
    size_t ncounters;
} k8s_counter_set;

/* A device's attributes are two runs, in this order: attrs[0..nattrs) and
 * attrs_own[0..nattrs_own). Builders put attributes many devices share in
 * `attrs` (one stored array for all of them) and the few that identify the
 * device (uuid, parentUUID) in `attrs_own`; decoded devices use `attrs` only.
 * Read them with k8s_dev_nattrs/k8s_dev_attr. */
typedef struct k8s_device {
    const char *name;
    k8s_attribute *attrs;
    size_t nattrs;
    const k8s_attribute *attrs_own;
    size_t nattrs_own;
    k8s_capacity *caps;
    size_t ncaps;
    k8s_counter_set *consumes;  /* consumesCounters: counterSet name + counters */
    size_t nconsumes;
    k8s_taint *taints;
    size_t ntaints;
    const char **binding_conditions;
    size_t nbinding_conditions;
    const char **binding_failure_conditions;
    size_t nbinding_failure_conditions;
    /* per-device node scoping, only with perDeviceNodeSelection */
    const char *node_name;
    k8s_node_selector node_selector;
    bool has_node_selector;
    bool all_nodes;
    bool has_binds_to_node;
    bool binds_to_node;
    bool has_allow_multiple;    /* allowMultipleAllocations written */
    bool allow_multiple;
} k8s_device;   /* the flags last, for no padding: 152 bytes, not 176 (issue 31: 80,000 devices) */

/* Number of attributes of d, both runs. */
static inline size_t k8s_dev_nattrs(const k8s_device *d) { return d->nattrs + d->nattrs_own; }

/* Attribute i (< k8s_dev_nattrs(d)) of d. */
static inline const k8s_attribute *k8s_dev_attr(const k8s_device *d, size_t i) {
    return i < d->nattrs ? &d->attrs[i] : &d->attrs_own[i - d->nattrs];
}

typedef struct k8s_resource_slice {
    k8s_meta meta;
    const char *driver;
    const char *pool;
    int64_t generation;
    int64_t slice_count;        /* pool.resourceSliceCount */
    const char *node_name;
    bool has_node_selector;
    k8s_node_selector node_selector;
    bool all_nodes;
    bool has_per_device_node_selection;  /* field written, even if false */
    bool per_device_node_selection;
    k8s_device *devices;
    size_t ndevices;
    k8s_counter_set *shared_counters;
    size_t nshared_counters;
} k8s_resource_slice;

/* ---- ResourceClaim -------------------------------------------------------- */

typedef enum { ALLOC_MODE_EXACT_COUNT, ALLOC_MODE_ALL, ALLOC_MODE_OTHER } k8s_alloc_mode;

typedef struct k8s_capacity_request {
    const char *domain;         /* resolved like attribute names */
    const char *id;
    const char *qname;          /* the map key as written (upstream compares keys verbatim) */
    quantity value;
} k8s_capacity_request;

/* Shared by `exactly` requests and `firstAvailable` subrequests. */
typedef struct k8s_device_request_spec {
    const char *name;
    const char *device_class_name;
    const char **selectors;     /* CEL */
    size_t nselectors;
    bool has_non_cel_selector;  /* a selector entry without `cel` */
    k8s_alloc_mode mode;
    const char *mode_text;      /* as written, for error messages */
    int64_t count;
    bool has_admin_access;      /* pointer non-nil upstream */
    bool admin_access;
    k8s_toleration *tolerations;
    size_t ntolerations;
    k8s_capacity_request *capacity;
    size_t ncapacity;
} k8s_device_request_spec;

typedef struct k8s_device_request {
    const char *name;
    bool has_exactly;
    k8s_device_request_spec exactly;
    k8s_device_request_spec *first_available;  /* subrequests */
    size_t nfirst_available;
} k8s_device_request;

typedef enum { CONSTRAINT_NONE, CONSTRAINT_MATCH, CONSTRAINT_DISTINCT } k8s_constraint_kind;

typedef struct k8s_device_constraint {
    const char **requests;
    size_t nrequests;
    k8s_constraint_kind kind;
    const char *attribute;      /* fully qualified name as written */
} k8s_device_constraint;

typedef struct k8s_device_result {
    const char *request;
    const char *driver;
    const char *pool;
    const char *device;
    bool admin_access;
    k8s_toleration *tolerations;
    size_t ntolerations;
    const char **binding_conditions;
    size_t nbinding_conditions;
    const char **binding_failure_conditions;
    size_t nbinding_failure_conditions;
    const char *share_id;       /* UUID text or NULL */
    k8s_capacity_request *consumed;   /* consumedCapacity */
    size_t nconsumed;
} k8s_device_result;

typedef enum { CONFIG_FROM_CLASS, CONFIG_FROM_CLAIM } k8s_config_source;

typedef struct k8s_allocated_config {
    k8s_config_source source;
    const char **requests;
    size_t nrequests;
    k8s_opaque_config opaque;
} k8s_allocated_config;

typedef struct k8s_allocation {
    k8s_device_result *results;
    size_t nresults;
    k8s_allocated_config *config;
    size_t nconfig;
    bool has_node_selector;
    k8s_node_selector node_selector;
} k8s_allocation;

typedef struct k8s_claim_spec {
    k8s_device_request *requests;
    size_t nrequests;
    k8s_device_constraint *constraints;
    size_t nconstraints;
    k8s_device_config *config;
    size_t nconfig;
} k8s_claim_spec;

typedef struct k8s_resource_claim {
    k8s_meta meta;
    k8s_claim_spec spec;
    bool allocated;             /* status.allocation present */
    k8s_allocation allocation;
    const char **reserved_pods; /* status.reservedFor entries with resource "pods": their names */
    size_t nreserved_pods;
} k8s_resource_claim;

typedef struct k8s_claim_template {
    k8s_meta meta;
    k8s_claim_spec spec;        /* spec.spec */
} k8s_claim_template;

/* ---- Node and Pod (scheduling-relevant parts) ----------------------------- */

typedef struct k8s_resource_amount {
    const char *name;           /* cpu, memory, nvidia.com/gpu, ... */
    quantity value;
} k8s_resource_amount;

typedef struct k8s_node {
    k8s_meta meta;
    k8s_taint *taints;
    size_t ntaints;
    k8s_resource_amount *allocatable;
    size_t nallocatable;
    k8s_resource_amount *capacity;
    size_t ncapacity;
    bool unschedulable;
    int8_t ready;               /* status.conditions Ready: 1 True, 0 otherwise, -1 no such condition */
} k8s_node;

typedef struct k8s_pod_claim_ref {
    const char *name;                    /* pod-level name of the claim */
    const char *resource_claim_name;     /* shared claim, or NULL */
    const char *template_name;           /* resourceClaimTemplateName, or NULL */
} k8s_pod_claim_ref;

typedef struct k8s_pod {
    k8s_meta meta;
    k8s_resource_amount *requests;       /* summed over containers */
    size_t nrequests;
    k8s_kv *node_selector;
    size_t nnode_selector;
    bool has_affinity;
    k8s_node_selector required_affinity; /* requiredDuringSchedulingIgnoredDuringExecution */
    k8s_toleration *tolerations;
    size_t ntolerations;
    k8s_pod_claim_ref *claims;
    size_t nclaims;
    int32_t priority;
    const char *scheduler_name;
    /* where it is (cluster.state, model/cluster_state.h): spec.nodeName, status.phase
     * and status.resourceClaimStatuses (the claim a template made for each pod claim) */
    const char *node_name;
    const char *phase;
    k8s_kv *claim_statuses;              /* key: the pod's claim name, value: resourceClaimName */
    size_t nclaim_statuses;
} k8s_pod;

/* ---- a bag of decoded objects, in input order ------------------------------ */

typedef enum {
    K8S_DEVICE_CLASS, K8S_RESOURCE_SLICE, K8S_RESOURCE_CLAIM, K8S_CLAIM_TEMPLATE, K8S_NODE, K8S_POD
} k8s_kind;

#endif
