/*
 * k8s_emit.h -- writing ResourceClaims (spec and status.allocation) as
 * resource.k8s.io/v1 YAML, for `drasim allocate` and anything that stores
 * allocation results. Nodes, DeviceClasses and ResourceSlices are written by
 * model/inventory_yaml.c.
 */
#ifndef DRASIM_MODEL_K8S_EMIT_H
#define DRASIM_MODEL_K8S_EMIT_H

#include "model/k8s.h"
#include "model/yaml_tree.h"

/* Build the YAML tree of a claim; `alloc` (may be NULL) becomes
 * status.allocation. Nodes are allocated in `a`. */
ynode *k8s_emit_claim(arena *a, const k8s_resource_claim *claim, const k8s_allocation *alloc);

/* Pieces reused by other writers. */
ynode *k8s_emit_allocation(arena *a, const k8s_allocation *alloc);
ynode *k8s_emit_node_selector(arena *a, const k8s_node_selector *sel);
ynode *k8s_emit_quantity(arena *a, const quantity *q);
/* A tolerations list (pod spec or device result). */
ynode *k8s_emit_tolerations(arena *a, const k8s_toleration *t, size_t n);
/* A selectors list: [{cel: {expression: ...}}, ...]. */
ynode *k8s_emit_selectors(arena *a, const char *const *exprs, size_t n);

/* "NoSchedule", "PreferNoSchedule", "NoExecute" or "None". */
const char *k8s_taint_effect_name(k8s_taint_effect e);

#endif
