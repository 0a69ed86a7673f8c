/*
 * kueue_tas.h -- decoding of the objects and fields Kueue's Topology-Aware
 * Scheduling reads (model/kueue_decode_tas.c): Topology, a pod set's
 * topology request (field or pod template annotations), an admitted pod
 * set's topologyAssignment, and Nodes of an admit snapshot.
 */
#ifndef DRASIM_MODEL_KUEUE_TAS_H
#define DRASIM_MODEL_KUEUE_TAS_H

#include "model/k8s_decode_internal.h"
#include "model/kueue.h"

int kq_decode_topology(dctx *c, kq_objects *o, const ynode *root);
/* A core/v1 Node of the snapshot, kept in o->nodes. */
int kq_decode_node_object(kq_objects *o, const ynode *root, strbuf *err);
/* ps_node = spec.podSets[i], tpl = its template (may be NULL). */
int kq_decode_pod_set_tas(dctx *c, const ynode *ps_node, const ynode *tpl, kq_topology_request *r);
/* psa = status.admission.podSetAssignments[i]. */
int kq_decode_topology_assignment(dctx *c, const ynode *psa, kq_pod_set *ps);

#endif
