/*
 * k8s_decode.h -- decode Kubernetes objects (resource.k8s.io/v1 DeviceClass,
 * ResourceSlice, ResourceClaim, ResourceClaimTemplate; core/v1 Node and Pod)
 * from YAML streams into the structs of model/k8s.h.
 *
 * resource.k8s.io/v1beta1 and v1beta2 objects are converted to v1 as the
 * API server does (k8s_decode_convert.c).
 *
 * Input is any number of YAML documents; a document may also be a `kind: List`
 * (or `kind: XxxList`) wrapper with `items`, as kubectl prints it. Objects keep
 * their input order. Structure, types and the API server's validation limits
 * are checked (unknown fields, sizes of lists, name formats, quantities);
 * errors read "FILE:LINE:COL: Kind name: field.path: problem".
 *
 * Deliberately NOT rejected here, because the upstream allocator itself reports
 * them (and the conformance cases expect its wording): an empty
 * deviceClassName, an unknown allocationMode, an empty constraint, a selector
 * without `cel`, an attribute without a value, duplicate device names across
 * the slices of a pool, invalid CEL.
 */
#ifndef DRASIM_MODEL_K8S_DECODE_H
#define DRASIM_MODEL_K8S_DECODE_H

#include <stddef.h>

#include "model/k8s.h"
#include "model/k8s_stream.h"
#include "model/yaml_tree.h"
#include "util/strbuf.h"
#include "util/vec.h"

typedef struct k8s_object_ref {
    k8s_kind kind;
    void *obj;                  /* k8s_device_class *, k8s_resource_slice *, ... */
} k8s_object_ref;

/* Everything decoded so far. Objects live in `a`; opaque config parameters
 * point into the loaded YAML files, which are kept until k8s_objects_free. */
typedef struct k8s_objects {
    arena a;
    yfile_list files;
    VEC(k8s_object_ref) all;    /* input order */
    VEC(k8s_device_class *) classes;
    VEC(k8s_resource_slice *) slices;
    VEC(k8s_resource_claim *) claims;
    VEC(k8s_claim_template *) templates;
    VEC(k8s_node *) nodes;
    VEC(k8s_pod *) pods;
    bool allow_combined_slices;  /* Kubernetes 1.34: a slice may hold devices and sharedCounters */
    bool snapshot_inventory_only;  /* KAI snapshots: read only their Nodes, ResourceSlices and DeviceClasses */
} k8s_objects;

void k8s_objects_init(k8s_objects *o);
void k8s_objects_free(k8s_objects *o);

/* The entry of a KAI snapshot ZIP that holds the snapshot (NVIDIA/KAI-Scheduler
 * pkg/scheduler/plugins/snapshot/snapshot.go SnapshotFileName, v0.13.0). */
#define KAI_SNAPSHOT_ENTRY "snapshot.json"

/* Load a YAML file (or in-memory text) and append its objects. A ZIP archive
 * (a KAI snapshot.zip; util/zip_entry.h) is read as its entry snapshot.json. Returns 0, or
 * -1 with err set; on error the objects decoded before stay valid. */
int k8s_decode_file(k8s_objects *o, const char *path, strbuf *err);
int k8s_decode_mem(k8s_objects *o, const char *name, const char *data, size_t len, strbuf *err);

/* Decode one already-loaded document root (an object or a List). The yfile
 * holding `root` must outlive `o`. */
int k8s_decode_node(k8s_objects *o, const ynode *root, strbuf *err);

/* Append an object made elsewhere (a Node created for slices without one). */
void k8s_objects_add(k8s_objects *o, k8s_kind kind, void *obj);

/* Lookups by name (NULL when absent; the last one wins for duplicates). */
k8s_device_class *k8s_find_class(const k8s_objects *o, const char *name);
k8s_node *k8s_find_node(const k8s_objects *o, const char *name);

/* Kind name as written in YAML ("ResourceSlice"). */
const char *k8s_kind_name(k8s_kind k);

/* Split a qualified name "domain/id" (or bare "id") into interned parts;
 * a bare name gets `default_domain` (may be NULL). */
void k8s_split_qualified(const char *qname, const char *default_domain, const char **domain, const char **id);

#endif
