/*
 * cluster.h -- the hardware description of a simulated cluster (what a
 * scenario's `cluster:` section says) and the inventory drasim builds from it:
 * the same hardware seen through DRA (DeviceClasses + ResourceSlices in the
 * NVIDIA DRA driver's format) and through the device plugin (extended
 * resources + GPU Feature Discovery labels on the Node).
 *
 * Owners: model/cluster_spec.c parses the `cluster:` section; model/catalog.c
 * loads data/gpu-catalog.yaml; model/inventory*.c build the views.
 */
#ifndef DRASIM_MODEL_CLUSTER_H
#define DRASIM_MODEL_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/k8s.h"
#include "model/yaml_tree.h"
#include "util/arena.h"
#include "util/strbuf.h"

typedef enum { MIG_OFF, MIG_STATIC, MIG_DYNAMIC } mig_mode;

/* One `nodePools[]` entry: `count` identical nodes. */
typedef struct node_pool_spec {
    const char *name;
    int count;
    int64_t cpu_milli;
    int64_t memory_bytes;
    quantity cpu_quantity;            /* as written, for output */
    quantity memory_quantity;
    int64_t max_pods;                 /* default 110 */
    k8s_kv *labels;
    size_t nlabels;
    k8s_taint *taints;
    size_t ntaints;
    const char *gpu_model;            /* catalog key (e.g. "H100-80GB"), NULL = no GPUs */
    int gpus;                         /* GPUs per node */
    mig_mode mig;
    const char *mig_layout;           /* MIG_STATIC: mig-parted layout name, e.g. "all-1g.10gb" */
    const ynode *where;               /* for error messages */
    const ynode *gpu_model_where;     /* `gpu.model` value, for catalog errors */
    const ynode *mig_layout_where;    /* `gpu.migLayout` value */
    const ynode *mig_where;           /* `gpu.mig` value (NULL when absent) */
    const char *driver_version;       /* `gpu.driverVersion` (NULL: the catalog's) */
    const char *cuda_driver_version;  /* `gpu.cudaDriverVersion` (NULL: the catalog's) */
    const struct device_plugin_opts *dp;   /* `devicePlugin:` sharing of this pool (issue 17), NULL = the scenario's */
    const struct pool_autoscaling *autoscaling;   /* a node group (model/autoscaler_spec.h), NULL = fixed */
    const struct pool_topology *topology;         /* racks and blocks (model/topology_spec.h), NULL = none */
    const struct pool_price *price;               /* prices (model/cost_spec.h), NULL = not priced */
    const struct pool_power *power;               /* power overrides (model/cost_spec.h), NULL = none */
    const struct pool_spot *spot;                 /* spot capacity (model/cost_spec.h), NULL = none */
} node_pool_spec;

/* Device-plugin view options (the NVIDIA device plugin's config file). */
typedef enum { MIG_STRATEGY_NONE, MIG_STRATEGY_SINGLE, MIG_STRATEGY_MIXED } mig_strategy;

typedef struct device_plugin_opts {
    mig_strategy mig_strategy;
    int time_slicing_replicas;        /* 1 = no sharing; with mps: the MPS replicas */
    bool rename_by_default;           /* advertise nvidia.com/gpu.shared */
    bool mps;                         /* sharing.mps instead of sharing.timeSlicing */
    bool fail_requests_gt_one;        /* failRequestsGreaterThanOne */
} device_plugin_opts;

/* The NVIDIA DRA driver releases whose slices drasim can publish
 * (model/dra_driver.c): attribute sets, MIG device names and the
 * resourceslice controller's slice names differ between them. */
typedef enum { DRA_DRIVER_V25_3, DRA_DRIVER_V25_8, DRA_DRIVER_V25_12, DRA_DRIVER_V0_4 } dra_driver_version;
#define DRA_DRIVER_NEWEST DRA_DRIVER_V0_4

/* How the cluster's DRA objects are published (`cluster.draDriver`,
 * `cluster.kubernetesVersion`). */
typedef struct dra_publish {
    dra_driver_version driver;        /* default DRA_DRIVER_NEWEST */
    int k8s_minor;                    /* 34, 35, 36 or 37 (default 36) */
    bool sorted_devices;              /* deviceOrder: sorted (default: the driver's arbitrary order) */
    bool compute_domains;             /* publish compute-domain.nvidia.com slices */
    bool imex_handover_set;           /* draDriver.imexHandover given (else 30 s, engine/sim_cd.h) */
    int64_t imex_handover_ms;         /* a node's IMEX daemon of the last ComputeDomain leaving it */
} dra_publish;

typedef struct cluster_spec {
    node_pool_spec *pools;
    size_t npools;
    const char *inventory_file;       /* recorded inventory instead of pools (the first file) */
    const char **inventory_files;     /* every file of `inventory:` (a name or a list) */
    size_t ninventory_files;
    dra_publish publish;
    uint64_t seed;                    /* the run's seed: slice-name suffixes, device order */
    const struct cluster_power *power;    /* `power:` (model/cost_spec.h), NULL = no energy accounting */
    int charge_idle;                  /* `chargeback.idle` (charge_idle_rule) */
} cluster_spec;

/* "1.34", "1.35", "1.36" -> 34, 35, 36; -1 for anything else. */
int k8s_version_parse(const char *s, int *minor);

/* Parse a scenario's `cluster:` map (unknown keys are errors). Allocations go
 * to `a`. Returns 0 or -1 with err = "FILE:LINE:COL: ...". */
/* Kubernetes label syntax (apimachinery pkg/util/validation/validation.go,
 * IsQualifiedName / IsValidLabelValue): a value or name part is at most 63 of
 * [A-Za-z0-9._-], starting and ending alphanumeric (empty: values only); a
 * key is [DNS-subdomain prefix/]name. */
bool k8s_label_name_ok(const char *s, size_t n, bool allow_empty);
bool k8s_label_key_ok(const char *s);
int cluster_spec_parse(const ynode *cluster, arena *a, cluster_spec *out, strbuf *err);

/* Parse a scenario's `scheduling.devicePlugin:` map:
 *   migStrategy: none|single|mixed        (default none)
 *   timeSlicing: {replicas: N, renameByDefault: bool, failRequestsGreaterThanOne: bool}   (default 1, false)
 *   mps: {replicas: N, ...the same}       (instead of timeSlicing; N at most 48)
 * `n` may be NULL (defaults). Returns 0 or -1 with err = "FILE:LINE:COL: ...". */
int device_plugin_opts_parse(const ynode *n, device_plugin_opts *out, strbuf *err);
/* Pools with their own sharing (issue 17): drasim counts one GPU-equivalent
 * per unit of a resource name, so the pools that advertise one name must
 * split their GPUs alike: a pool that shares differently from the scenario
 * renames (renameByDefault: nvidia.com/gpu.shared), the renamed pools agree
 * on replicas, and statically MIG-partitioned pools take the scenario's.
 * Returns 0 or -1 with err = "FILE:LINE:COL: ...". */
int cluster_check_pool_sharing(const cluster_spec *c, const device_plugin_opts *dp, strbuf *err);
/* The options of pool p's nodes: the scenario's (dp, NULL in DRA mode) with the
 * pool's sharing (p->dp) over them; `buf` holds a merged copy. */
const device_plugin_opts *device_plugin_opts_for_pool(const device_plugin_opts *dp, const node_pool_spec *p,
                                                      device_plugin_opts *buf);

/* ---- the GPU catalog (data/gpu-catalog.yaml) ------------------------------- */

typedef struct mig_profile {
    const char *name;                 /* "1g.10gb", "1g.10gb+me" */
    int id;                           /* GPU-instance profile ID (19, 20, 15, 14, 9, 5, 0) */
    int max_instances;                /* most instances of this profile on one GPU */
    int mem_slices;                   /* memory slices used */
    int compute_slices;               /* GPCs / compute slices */
    int64_t memory_mib;
    int multiprocessors;
    int copy_engines, decoders, encoders, jpeg, ofa;
    int *starts;                      /* valid placement starts (memory slice index) */
    int nstarts;
    int size;                         /* placement size in memory slices */
} mig_profile;

typedef struct mig_layout {
    const char *name;                 /* "all-1g.10gb", "all-balanced" */
    const char **profiles;            /* instances per GPU, in creation order */
    int nprofiles;
} mig_layout;

typedef struct gpu_model {
    const char *key;                  /* "A100-40GB", "H100-80GB", ... */
    const char **aliases;             /* other keys naming the same model ("H100-NVL") */
    int naliases;
    const char *product_name;         /* NVML name: "NVIDIA A100-SXM4-40GB" */
    const char *gfd_product;          /* label value: "NVIDIA-A100-SXM4-40GB" */
    const char *pci_device_id;        /* "0x20B0" */
    const char *architecture;         /* "Ampere", "Hopper" */
    const char *brand;                /* "Nvidia" */
    int cc_major, cc_minor;
    int64_t memory_mib;
    int multiprocessors;
    int mem_slices_total;             /* 8 */
    int compute_slices_total;         /* 7 */
    mig_profile *profiles;
    int nprofiles;
    mig_layout *layouts;
    int nlayouts;
    int nvlink_domain_gpus;           /* GPUs one NVLink domain joins (72: GB200/GB300 NVL72; 8: HGX), 0 = not given */
    int node_gpus;                    /* GPUs of one node (compute tray) of that system, 0 = not given */
    double max_power_w;               /* maxPowerW: board power from the data sheet, 0 = not known (issue 30) */
} gpu_model;

typedef struct gpu_catalog {
    arena a;
    const char *driver_version;       /* NVIDIA driver, e.g. "570.172.8" (DRA attribute driverVersion) */
    const char *cuda_driver_version;  /* e.g. "12.8.0" */
    gpu_model *models;
    int nmodels;
} gpu_catalog;

/* Load the catalog: `path`, or when NULL the installed/source data file
 * (env DRASIM_DATADIR, then the install dir, then the source tree). */
int catalog_load(const char *path, gpu_catalog *out, strbuf *err);
void catalog_free(gpu_catalog *c);
const gpu_model *catalog_find(const gpu_catalog *c, const char *key);
const mig_profile *gpu_model_profile(const gpu_model *m, const char *name);
const mig_layout *gpu_model_layout(const gpu_model *m, const char *name);

/* One MIG instance placed on a GPU: profile + start on the memory-slice axis. */
typedef struct mig_placement {
    const mig_profile *profile;
    int start;
} mig_placement;

/* Place a layout's instances on one GPU as mig-parted would: create them in
 * layout order, each at the first free start of its profile's placement list;
 * if an order fails, try the next permutation (deterministic). `out` needs
 * room for l->nprofiles entries; on success they are sorted by start.
 * Returns 0, or -1 with err naming the model and layout. */
int mig_layout_place(const gpu_model *m, const mig_layout *l, mig_placement *out, strbuf *err);

/* ---- the inventory ----------------------------------------------------------- */

/* What the simulator needs to know about one node beyond its k8s_node. */
typedef struct inv_node {
    const node_pool_spec *pool;       /* NULL for a recorded inventory */
    const gpu_model *gpu;             /* NULL when the node has no GPUs */
    int gpus;
    size_t first_slice, nslices;      /* its node-local ResourceSlices in inventory.slices */
} inv_node;

/* Everything lives in `a`. Devices may share equal attribute, capacity and
 * counter arrays (one copy per distinct content): treat them as read-only. */
typedef struct inventory {
    arena a;
    k8s_node *nodes;                  /* labels incl. GFD; allocatable incl. extended resources */
    inv_node *info;                   /* parallel to nodes */
    size_t nnodes;
    k8s_device_class *classes;
    size_t nclasses;
    k8s_resource_slice *slices;
    size_t nslices;
    struct k8s_objects *recorded;     /* a recorded inventory's decoded objects (owned) */
} inventory;

/* Read a recorded inventory: a YAML stream (or `kind: List`) of Nodes,
 * ResourceSlices and DeviceClasses, as `kubectl get nodes,resourceslices,
 * deviceclasses -o yaml` prints it or `drasim inventory` writes it. Each
 * node's node-local slices are gathered after it; GPU model and count come
 * from the GFD labels (or the slices' gpu devices). inventory_build calls it
 * when the spec names an inventory file. */
int inventory_load_recorded(const char *path, const gpu_catalog *cat, inventory *out, strbuf *err);
/* The same over several files (a Nodes dump and a slices dump, ...), read as
 * one stream, under the cluster's Kubernetes version (1.34 accepts slices
 * holding both devices and sharedCounters). Nodes missing for node-local
 * slices are created from the slices' nodeName, with a warning. */
int inventory_load_recorded_files(const char *const *paths, size_t npaths, const dra_publish *pub,
                                  const gpu_catalog *cat, inventory *out, strbuf *err);

/* Build both views of the cluster. Node names are "<pool>-<index>". With
 * dp == NULL nodes get GFD labels but no nvidia.com extended resources (a
 * DRA-only cluster). The inventory points into `spec` (inv_node.pool): keep
 * the spec alive as long as the inventory. */
int inventory_build(const cluster_spec *spec, const gpu_catalog *cat, const device_plugin_opts *dp,
                    inventory *out, strbuf *err);

/* The same with parts left out, for runs that need only one view:
 * INV_NO_SLICES skips the DRA ResourceSlices and DeviceClasses (a large
 * device-plugin run does not pay for ~1 KiB per GPU). */
enum { INV_NO_SLICES = 1 };
int inventory_build_ex(const cluster_spec *spec, const gpu_catalog *cat, const device_plugin_opts *dp,
                       unsigned flags, inventory *out, strbuf *err);
void inventory_free(inventory *inv);
/* Nodes built for pool p: its count, or a node group's max (the autoscaler
 * makes them present and absent while the run goes; engine/ autoscale/). */
int inventory_pool_nodes(const node_pool_spec *p);

/* Write the inventory as one Kubernetes YAML stream: Nodes, DeviceClasses,
 * ResourceSlices (kubectl apply --dry-run=client accepts it). */
void inventory_write_yaml(const inventory *inv, strbuf *out);

/* One object as a YAML tree (built in `a`), in the form inventory_write_yaml
 * writes: sorted map keys, quantities as strings, driver attributes bare. */
ynode *k8s_node_to_yaml(arena *a, const k8s_node *n);
ynode *k8s_device_class_to_yaml(arena *a, const k8s_device_class *c);
ynode *k8s_resource_slice_to_yaml(arena *a, const k8s_resource_slice *s);

#endif
