/*
 * preempt.h -- kube-scheduler's DefaultPreemption as the PostFilter of the
 * scheduling cycle (docs/PREEMPTION.md). Upstream: kubernetes v1.36
 * pkg/scheduler/framework/preemption/preemption.go (Preempt, findCandidates,
 * DryRunPreemption, pickOneNodeForPreemption) and
 * pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
 * (SelectVictimsOnNode, PodEligibleToPreemptOthers, calculateNumCandidates).
 *
 * When the head pod of a class fits no node, sched_schedule_head calls
 * preempt_post_filter: unless the pod says preemptionPolicy: Never, the
 * nodes where it failed for a resolvable reason are dry-run from a seeded
 * offset (enough for max(10 % of them, 100) candidates): all lower-priority
 * pods are removed, the pod must fit, then they are added back most
 * important first (budget-violating ones first) as long as it still fits;
 * the rest are the node's victims. The node is chosen by upstream's order
 * (fewest budget violations, lowest highest victim priority, smallest
 * priority sum, fewest victims, latest start of the highest-priority
 * victims, first found). The pod is nominated to it and its victims are
 * handed to the engine (preempt_take_victim), which evicts them with their
 * grace period: the scheduler never calls up into the engine.
 *
 * DRA: in 1.36 the DynamicResources plugin has no AddPod/RemovePod, so the
 * dry run frees no devices, and a node it rejects is UnschedulableAndUnresolvable
 * (dynamicresources.go statusUnschedulable): a DRA pod preempts for CPU and
 * memory, never for devices. cfg.dra_preemption (KEP-5690) releases the
 * victims' node-local (template) claims, counters and capacity in the dry run.
 *
 * Off the hot path: the state exists only when cfg.preemption is set; each
 * bind and release appends to / removes from its node's list of pods, and a
 * failed cycle costs a check of the per-class running counts when no lower
 * priority pod runs anywhere.
 */
#ifndef DRASIM_SCHED_PREEMPT_H
#define DRASIM_SCHED_PREEMPT_H

#include "sched/sched.h"

enum { PREEMPT_MIN_CANDIDATES_PCT = 10, PREEMPT_MIN_CANDIDATES_ABS = 100 };   /* v1/defaults.go */

/* Set up s->pre (called by sched_prepare when cfg.preemption). */
void preempt_init(scheduler *s, uint64_t seed);
void preempt_free(scheduler *s);
/* A pod was bound / released (sched.c's bind and sched_release). */
void preempt_bound(scheduler *s, uint32_t ci, const placement *p);
void preempt_released(scheduler *s, uint32_t ci, const placement *p);
/* PostFilter for the head pod `pod` of class ci that fits no node: true when
 * a node was nominated and its victims queued for the engine. */
bool preempt_post_filter(scheduler *s, uint32_t ci, uint32_t pod);
/* The next victim the engine must evict (EVICT_PREEMPTION); *preemptor is the
 * class of the pod that preempted it. False when none is left. */
bool preempt_take_victim(scheduler *s, uint32_t *victim, uint32_t *preemptor);
/* Run totals: PostFilter calls, successful preemptions, victims chosen. */
void preempt_counts(const scheduler *s, uint64_t *attempts, uint64_t *preemptions, uint64_t *victims);
/* PostFilter attempts that found no candidate node because every node that
 * could take the pod failed only DynamicResources, whose devices the 1.36
 * dry run cannot free (without the DRAPreemption feature). */
uint64_t preempt_blocked_by_dra(const scheduler *s);
/* Per class: preemptions its pods made, and its pods chosen as victims. */
void preempt_class_counts(const scheduler *s, uint32_t ci, int64_t *preemptions, int64_t *victims);

/* sched.c: add (sign +1) or remove (-1) placement p of class ci from its
 * node's used resources, device units and GPU view, without plugins or cache
 * updates (the dry run's AddPod / RemovePod). */
void sched_dry_account(scheduler *s, uint32_t ci, const placement *p, int sign);
/* sched.c: does class ci pass every Filter on `node` now? (-1) or the index
 * of the first plugin that rejects it. */
int sched_first_failing(const scheduler *s, uint32_t ci, size_t node);

#endif
