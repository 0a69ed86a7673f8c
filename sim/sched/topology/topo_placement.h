/*
 * topo_placement.h -- topology-aware placement of a pod group (KEP-5732,
 * TopologyAwareWorkloadScheduling: alpha in Kubernetes 1.36, beta in 1.37),
 * as kube-scheduler's pod group cycle runs it (kubernetes/kubernetes
 * pkg/scheduler/algorithm_podgroup.go, podGroupSchedulingPlacementAlgorithm):
 *
 *  1. PlacementGenerate (TopologyPlacement): one placement per distinct value
 *     of the constraint's label, in sorted order (topo_domains.h); none when
 *     no node carries the label ("no nodes found with topology label '%s'").
 *  2. Each placement is evaluated with the default pod group algorithm on its
 *     nodes only: pod after pod, the usual Filter and Score, the best node
 *     (ties at random), tentatively reserved; feasible when at least minCount
 *     pods fit. Then every tentative reservation is reverted.
 *  3. PlacementScore over the feasible placements: PodGroupPodsCount (pods
 *     placed, normalised to 0..100 by the most any placement placed,
 *     podgrouppodscount.go) plus PlacementBinPacking (NodeResourcesFit's
 *     MostAllocated over the placement's summed allocatable and requested,
 *     noderesources/placement_score.go); the highest total wins, ties at
 *     random (findBestPlacement's Randomizer); a single feasible placement is
 *     taken unscored. Its pods are then bound where step 2 put them.
 *
 * Pods are a pod group's identical pods (one class); once one fails in a
 * placement the rest fail the same way, so the evaluation stops there (1.37's
 * PlacementFeasible early rejection; 1.36 tries the rest, with the same
 * outcome).
 */
#ifndef DRASIM_SCHED_TOPO_PLACEMENT_H
#define DRASIM_SCHED_TOPO_PLACEMENT_H

#include "sched/sched.h"
#include "sched/topology/topo_domains.h"

typedef struct topo_choice {
    int32_t domain;                   /* the chosen placement, -1 = none feasible */
    int32_t fit;                      /* pods of the group the chosen placement fits */
    int32_t best_fit;                 /* the most pods any placement fit */
    int32_t feasible;                 /* placements where at least minCount pods fit */
    uint64_t trial_binds;             /* tentative reservations made (cost) */
} topo_choice;

/* Choose a placement for `npods` waiting pods of class ci (minCount `min`)
 * among the domains of d. Tentative reservations use pod ids from
 * `trial_pod` on (ids no real pod has); nothing of them remains. */
void topo_choose(scheduler *s, const topo_domains *d, uint32_t ci, int32_t npods, int32_t min, uint32_t trial_pod,
                 topo_choice *out);
/* The node of domain `dom` for the next pod of class ci: the best score among
 * the domain's nodes that fit, ties at random; -1 when none fits. */
int64_t topo_best_node(scheduler *s, const topo_domains *d, size_t dom, uint32_t ci);
/* Most pods of class ci one empty domain could hold, over every domain
 * (cpu, memory, pods and device units on the nodes the class is eligible for,
 * nothing bound; one per node for a ComputeDomain channel): a gang with a
 * larger minCount never fits. */
int64_t topo_max_domain_pods(const scheduler *s, const topo_domains *d, uint32_t ci);

#endif
