/*
 * place_mig.h -- fragmentation-aware placement of dynamic-MIG claims in DRA
 * mode (`scheduling.policy: fgd` with `mode: dra`), drasim-only.
 *
 * Upstream's allocator gives a dynamic-MIG claim the first (GPU, placement)
 * device that fits, in device-name order. Here the simulator chooses: on a
 * candidate node it ENUMERATES the feasible placements with the allocator
 * itself (allocate; exclude the MIG device it took through the device
 * filter of alloc.h; again, up to PLACE_MIG_MAX_CANDIDATES), scores each by
 * the growth of the GPU's MIG fragmentation (frag_mig.h), and allocates the
 * one that grows it least (ties: first-fit order) with a filter that admits
 * only that MIG device. The allocator validates every step (counters,
 * capacities, constraints), so the choice is always a legal allocation.
 * The node score is 100 / (1 + e^growth) (50 = no growth): nodes where the
 * claim fits without fragmenting win.
 *
 * Applies to a class whose claims, allocated on the node, take exactly one
 * dynamic-MIG device there; everything else keeps upstream first fit.
 * Typical MIG requests: the profiles named in the workload's request
 * selectors (a quoted catalog profile name, e.g. `profile == '3g.40gb'`),
 * weighted by the pod group's count x the request's count.
 */
#ifndef DRASIM_SCHED_PLACE_MIG_H
#define DRASIM_SCHED_PLACE_MIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc/alloc.h"
#include "model/cluster.h"
#include "model/scenario.h"

#define PLACE_MIG_MAX_CANDIDATES 64

typedef struct place_mig place_mig;

/* NULL when the inventory has no dynamic-MIG GPU. */
place_mig *place_mig_new(const scenario *sc, const inventory *inv);
void place_mig_free(place_mig *p);
/* The typical MIG requests again: the scenario's pod groups (by count) and
 * the classes a source added while the run goes (a Lua generator's shapes,
 * each by weight[k], its pods so far), from time `now` on (F is integrated
 * up to now first; every GPU's F is recomputed). */
void place_mig_set_typical(place_mig *p, const scenario *sc, const pod_group_spec *const *late, const int64_t *weight,
                           size_t nlate, int64_t now);

/* Allocate claims[0..n) on `node` as allocator_allocate does, choosing the
 * MIG placement (see above). *score gets the node score (0..100) when the
 * choice applied, -1 when it did not (first fit was used). */
alloc_status place_mig_allocate(place_mig *p, allocator *A, const k8s_node *node, size_t node_idx,
                                k8s_resource_claim *const *claims, size_t n, arena *into, k8s_allocation *out,
                                uint64_t *steps, strbuf *err, int *score);
/* An allocation was committed / released: update the GPUs' state. `now` in ms. */
void place_mig_commit(place_mig *p, const k8s_allocation *al, int64_t now);
void place_mig_release(place_mig *p, const k8s_allocation *al, int64_t now);

/* MIG fragmentation in % of the tracked GPUs' memory slices: now, and the
 * time average over [0, end). */
double place_mig_frag_pct(const place_mig *p);
double place_mig_frag_mean_pct(const place_mig *p, int64_t end);
/* Committed placements the policy chose (one per pod) / candidates scored so far. */
uint64_t place_mig_decisions(const place_mig *p);
/* Its decision counters, kept across what-if placements (sched/dra/dra_trial.c). */
void place_mig_save_counters(const place_mig *p, uint64_t out[2]);
void place_mig_restore_counters(place_mig *p, const uint64_t in[2]);

/* Does p choose MIG placements (policy fgd), or only measure fragmentation? */
bool place_mig_chooses(const place_mig *p);
/* The next commit's allocation did not come from place_mig_allocate (the
 * placement policy's device filter chose): it is not a MIG placement decision. */
void place_mig_first_fit(place_mig *p);

#endif
