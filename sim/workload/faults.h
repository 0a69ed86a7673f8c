/*
 * faults.h -- cluster dynamics while a run goes (issue 14, docs/DYNAMICS.md):
 * GPUs that fail and are repaired, nodes that go NotReady, planned drains,
 * administrator DeviceTaintRules, and the evictions that follow, as
 * Kubernetes 1.36 does them (spec/dynamics.md §1):
 *
 *  - DRA mode: a GPU fault is the NVIDIA DRA driver's health taint on the
 *    GPU's devices (gpu.nvidia.com/xid NoSchedule for a fatal XID, None for
 *    the non-fatal list, gpu.nvidia.com/gpu-lost NoSchedule; the driver never
 *    sets NoExecute: dra-driver-nvidia-gpu cmd/gpu-kubelet-plugin/device_health.go);
 *    the allocator skips devices whose NoSchedule/NoExecute taints a request
 *    does not tolerate; a NoExecute taint (a DeviceTaintRule) evicts the pods
 *    whose claims hold the device at timeAdded + min(tolerationSeconds) of the
 *    claim request's matching tolerations (none: at once; without seconds:
 *    never), cancelled when the taint goes first (kubernetes
 *    pkg/controller/devicetainteviction/device_taint_eviction.go).
 *  - device-plugin mode: an unhealthy GPU leaves the node's allocatable and
 *    its units are not handed out; the pods that hold it stay bound (NVIDIA
 *    k8s-device-plugin internal/rm/health.go, #519), but a fatal XID killed
 *    their CUDA processes: their restartPolicy decides (faults_crash.c).
 *  - a failed node (NotReady, status Unknown) gets node.kubernetes.io/unreachable
 *    NoSchedule + NoExecute; its pods, which tolerate that for 300 s by default
 *    (DefaultTolerationSeconds admission), are evicted after that.
 *  - a drain cordons the node (spec.unschedulable) and evicts its pods.
 *
 * Evictions go through sim_evict (engine/sim_evict.h). The state lives in a
 * source of its own (its events are background events: they never keep a
 * `stop: allPodsDone` run alive) and draws from its own random stream.
 */
#ifndef DRASIM_WORKLOAD_FAULTS_H
#define DRASIM_WORKLOAD_FAULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/scenario_faults.h"

struct sim_run;
typedef struct faults faults;

/* One point of the fault timeline (table fault_timeline): GPUs by health
 * after the changes at time t. */
typedef struct fault_point {
    sim_time t;
    int32_t healthy, tainted, failed, nodes_down;
} fault_point;

/* Attach the scenario's faults (none: nothing happens). Returns 0, or -1
 * when there are too many sources. */
int faults_attach(struct sim_run *r);
/* The run's fault state, created on first use (Lua verbs); NULL when it cannot be. */
faults *faults_of(struct sim_run *r);
/* The timeline (NULL/0 when the run had no fault state). */
const fault_point *faults_timeline(const struct sim_run *r, size_t *n);

/* Verbs (the scenario's processes and events, the Lua API). Node and GPU are
 * indexes (node i of the inventory, GPU g of its GPU view). Each returns 0,
 * or -1 with err set (an unknown target, a GPU that does not exist). */
int faults_gpu_fail(struct sim_run *r, size_t node, int gpu, gpu_fault_kind kind, int xid, sim_time t, strbuf *err);
int faults_gpu_repair(struct sim_run *r, size_t node, int gpu, sim_time t, strbuf *err);
int faults_node_fail(struct sim_run *r, size_t node, sim_time t);
int faults_node_repair(struct sim_run *r, size_t node, sim_time t);
int faults_node_drain(struct sim_run *r, size_t node, sim_time t);
int faults_node_uncordon(struct sim_run *r, size_t node, sim_time t);
/* Add DeviceTaintRule `name` (interned) with its selector (NULL: any) and
 * taint: the taint goes on every matching device; remove it again. Returns
 * the number of devices it matched, or -1 with err set (DRA mode only; a
 * second rule of that name). */
int faults_rule_add(struct sim_run *r, const char *name, const char *driver, const char *pool, const char *device,
                    const k8s_taint *taint, sim_time t, strbuf *err);
int faults_rule_remove(struct sim_run *r, const char *name, sim_time t);

/* faults_inventory.c: write the fault state into `inv` (the inventory the run
 * was built on, owned by the caller; new arrays in `a`, some pointing into the
 * run: write it out before sim_free): node taints and cordons, device taints
 * with timeAdded (the run starts at 1970-01-01T00:00:00Z), device-plugin
 * allocatable without unhealthy GPUs. Nothing without fault state. */
struct inventory;
void faults_patch_inventory(struct sim_run *r, struct inventory *inv, arena *a);

/* Node index by name, -1 if none. */
int faults_node_index(const struct sim_run *r, const char *name);

#endif
