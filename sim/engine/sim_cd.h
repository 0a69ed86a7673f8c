/*
 * sim_cd.h -- the IMEX rule of ComputeDomains (issue 28, docs/TOPOLOGY.md):
 * a node serves one ComputeDomain at a time, as
 * kubernetes-sigs/dra-driver-nvidia-gpu v0.4.1 (764900e7) runs them.
 *
 * What the scheduler sees: a node publishes one `channel-0` and one
 * `daemon-0` (cmd/compute-domain-kubelet-plugin/deviceinfo.go) and every
 * workload pod gets its own channel claim from the ComputeDomain's
 * template, so while a pod of ComputeDomain A runs on a node no other
 * channel claim can be allocated there: the allocator filters it (no state
 * here).
 *
 * What only the kubelet finds: when A's last pod on the node ends, the
 * kubelet plugin's Unprepare removes the node label
 * resource.nvidia.com/computeDomain (device_state.go unprepareDevices,
 * computedomain.go RemoveNodeLabel); A's IMEX daemon pod (a DaemonSet pod
 * selected by that label, templates/compute-domain-daemon.tmpl.yaml) is then
 * deleted and keeps `daemon-0` for its termination, up to the default
 * terminationGracePeriodSeconds of 30 s (the template sets none). A pod
 * bound to the node meanwhile passes the scheduler, but its channel's
 * Prepare fails "current node not ready in ComputeDomain"
 * (AssertComputeDomainReady) until its own daemon runs there: bound but
 * ContainerCreating. drasim holds its start until the old daemon is gone
 * (`draDriver.imexHandover`, default 30s) and counts the time lost: a
 * set-up conflict when the ComputeDomains differ. The daemon's own start
 * and readiness are not modelled (0 s).
 *
 * On in DRA mode when a pod group uses a ComputeDomain's channel template
 * (model/compute_domain.h); other runs pay nothing.
 */
#ifndef DRASIM_ENGINE_SIM_CD_H
#define DRASIM_ENGINE_SIM_CD_H

#include "engine/sim.h"

#define SIM_CD_HANDOVER_DEFAULT 30000   /* ms: Kubernetes' default terminationGracePeriodSeconds */

/* One IMEX daemon's time on a node (table compute_domain_daemons). */
typedef struct sim_cd_daemon {
    uint32_t cd;                      /* index into scenario.cds */
    int32_t node;
    int32_t prev_cd;                  /* the ComputeDomain whose daemon was leaving, -1 = none */
    sim_time bound, ready, released;  /* first pod bound; daemon could run (>= bound); gone (-1: held at the end) */
} sim_cd_daemon;

typedef struct sim_cd {
    uint32_t *holder;                 /* per node: daemon index + 1 of the ComputeDomain it serves, 0 = none */
    int32_t *users;                   /* per node: running pods with a channel of that ComputeDomain */
    sim_time handover;
    VEC(sim_cd_daemon) daemons;
    int64_t conflicts, waits;         /* pods held: by another ComputeDomain's daemon; by any */
    sim_time conflict_ms, wait_ms;
} sim_cd;

/* Turn the rule on when the run needs it (sim_init). */
void sim_cd_init(sim_run *r);
void sim_cd_free(sim_run *r);
/* Pod id is bound on its node at t: how long it waits before it can start (ms, >= 0). */
sim_time sim_cd_pod_start(sim_run *r, uint32_t id, sim_time t);
/* Pod id leaves its node at t. */
void sim_cd_pod_end(sim_run *r, uint32_t id, sim_time t);
/* Summary metrics cd_* (after the run). */
void sim_cd_summary(sim_run *r);

#endif
