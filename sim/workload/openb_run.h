/*
 * openb_run.h -- a trace workload (scenario `workload.trace`) as a source of
 * the one engine and scheduler (workload/openb_source.c): its nodes as
 * Kubernetes Nodes, and the arrival curve of its runs.
 *
 * The trace source submits the pods in the trace's order and times; each
 * is tried when it arrives, before the next one (sim_schedule_now). How the
 * scheduler treats them (the artifact's filter, the policy as the only
 * score, ties to the first name, pods dropped under profile openb-artifact)
 * is the scheduler's placement configuration (engine/sim.c).
 *
 * Arrival curve (table arrival_curve), computed like the artifact's merge
 * scripts: every event gives the arrived GPU demand in % of the cluster's
 * GPUs, rounded half to even, and the GPU allocation (rounded to 2
 * decimals), fragmented GPU and fragmentation ratio at that moment; each
 * integer column X is the mean over the events rounded to X, or, if there
 * is none, over the events whose unrounded value lies in [X-1, X+1].
 */
#ifndef DRASIM_WORKLOAD_OPENB_RUN_H
#define DRASIM_WORKLOAD_OPENB_RUN_H

#include <signal.h>

#include "engine/sim.h"
#include "model/cluster.h"
#include "model/k8s.h"
#include "util/arena.h"

/* The trace's nodes as Kubernetes Nodes (allocatable cpu, memory,
 * alibabacloud.com/gpu-milli; label alibabacloud.com/gpu-card-model). */
void openb_k8s_nodes(const trace_spec *t, arena *a, k8s_node **out, size_t *n);
/* What the results' `nodes` table records per trace node (parallel to
 * openb_k8s_nodes): GPU count and model (a catalog-less gpu_model whose key is
 * the trace's model name). */
void openb_node_info(const trace_spec *t, arena *a, inv_node **out);

/* One event of a run, for the arrival curve. */
typedef struct openb_event {
    double arrived_pct;     /* arrived GPU demand, % of cluster GPUs (unrounded) */
    double alloc_pct, frag_pct, frag_ratio_pct;
    int64_t arrived_milli, used_milli;   /* the artifact's [Alloc] log line */
    double frag_milli;                   /* its [Report] line: cluster fragmentation, printed with %.2f */
} openb_event;
/* Fold events into curve rows (appended to r->curve). */
void openb_arrival_curve(const openb_event *ev, size_t n, sim_run *r);
/* The same with the artifact's merge scripts' arithmetic, to the last bit
 * (profile openb-artifact; experiments/analysis/merge_alloc_discrete.py
 * 96-119 and merge_frag_discrete.py 60-88 at 8f3d641, pandas 2.0 / numpy
 * 1.24): per event x = Python round(arrived / gpus / 10) and allocation =
 * Python round(used / gpus / 10, 2); column X averages the events with x == X,
 * else those with X-1 <= x <= X+1 (the ROUNDED x), columns 0..130; means are
 * numpy's pairwise sums over the count, rounded as numpy does
 * (rint(v * 100) / 100); fragmentation = round(100 * mean(frag) / 1000 / gpus, 2). */
void openb_arrival_curve_artifact(const openb_event *ev, size_t n, int64_t gpus, sim_run *r);
/* Python's round(x, 2) on a float: the correctly rounded decimal (ties to even). */
double openb_py_round2(double x);
/* numpy's float64 add.reduce (pairwise summation, 8 accumulators, blocks of 128). */
double openb_np_sum(const double *a, size_t n);

#endif
