/*
 * topology_spec.h -- a node pool's physical topology (issue 28): racks (one
 * NVLink domain each on a GB200/GB300 NVL72) grouped into blocks, published
 * as node labels the way cloud providers and the NVIDIA driver publish them:
 *
 *   nodePools:
 *   - name: gb200
 *     gpu: {model: GB200, count: 4}
 *     topology: {racks: 12, nodesPerRack: 18, racksPerBlock: 4, imex: true}
 *     # count may be left out: racks x nodesPerRack
 *
 * Node i of the pool is in rack i / nodesPerRack and block rack / racksPerBlock,
 * and carries
 *   cloud.provider.com/topology-block: <pool>-b<block>
 *   cloud.provider.com/topology-rack:  <pool>-r<rack>
 *   nvidia.com/gpu.clique: <ClusterUUID>.<CliqueID>   (GPUs of a multi-node NVLink
 *       domain only: the catalog's nvlinkDomainGpus > the node's GPUs)
 * The block and rack keys follow the example keys of KEP-5732 and Kueue's TAS
 * documentation (`cloud.provider.com/topology-block`, `-rack`); the clique label
 * is the one the NVIDIA DRA driver's compute-domain kubelet plugin sets
 * (kubernetes-sigs/dra-driver-nvidia-gpu @ 95932046,
 * cmd/compute-domain-kubelet-plugin/nvlib.go getCliqueID: "<clusterUUID>.<cliqueID>").
 * The ClusterUUID is a UUID drawn from the pool name and rack (a real fabric
 * manager's UUID is not predictable) and the CliqueID is 1 [inf: one clique per
 * rack, its number is the fabric's].
 * `imex: false` marks nodes that cannot run an IMEX daemon (no compute-domain
 * slice): a ComputeDomain channel claim never fits there.
 */
#ifndef DRASIM_MODEL_TOPOLOGY_SPEC_H
#define DRASIM_MODEL_TOPOLOGY_SPEC_H

#include "model/cluster.h"
#include "model/inventory_parts.h"

#define TOPO_BLOCK_KEY "cloud.provider.com/topology-block"
#define TOPO_RACK_KEY "cloud.provider.com/topology-rack"
#define TOPO_CLIQUE_KEY "nvidia.com/gpu.clique"

typedef struct pool_topology {
    int racks, nodes_per_rack, racks_per_block;   /* racks_per_block 0 = no block label */
    bool imex;                                    /* nodes can serve ComputeDomains (default true) */
    const ynode *where;
} pool_topology;

/* Parse `topology:` of node pool p (after its `gpu:`); sets p->topology and,
 * when `count` is absent (count_given false), p->count. Returns 0 or -1 with
 * err = "FILE:LINE:COL: ...". */
int pool_topology_parse(const ynode *n, arena *a, node_pool_spec *p, bool count_given, strbuf *err);
/* The topology labels of node `idx` of pool p (GPU model m, NULL = none) into `labels`. */
void pool_topology_labels(const node_pool_spec *p, const gpu_model *m, int idx, kv_vec *labels);
/* A UUID (version 4 layout) drawn from a text and a number (a rack's NVLink
 * fabric; a ComputeDomain's uid from its namespace/name, model/compute_domain.c). */
void fabric_uuid(const char *text, int n, char out[37]);

#endif
