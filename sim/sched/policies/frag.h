/*
 * frag.h -- the FGD paper's GPU fragmentation measure (shared spec
 * openb-fgd.md §2.6) and its "typical pods".
 *
 * Typical pods: the distinct pod shapes (CPU, milli-GPU per GPU, GPU count,
 * GPU-model constraint) of a workload, most popular first, kept until
 * `threshold` percent of the pods are covered (CPU-only shapes included when
 * asked), each with its popularity p_m renormalised over the kept shapes.
 *
 * Fragmentation of node n for shape m, in milli-GPU:
 *  - m CPU-only, or n's GPU model not allowed for m: all idle GPU milli;
 *  - m fits (CPU left >= m's CPU and >= ngpu GPUs each with >= m's milli
 *    free): the idle milli of the GPUs with less free than m's milli;
 *  - otherwise: all idle GPU milli.
 * F_n = sum_m p_m frag(n, m); the cluster's fragmentation is sum_n F_n and
 * its fragmentation ratio is that over the idle GPU milli.
 */
#ifndef DRASIM_SCHED_FRAG_H
#define DRASIM_SCHED_FRAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched/policies/gpushare.h"

/* One pod of the workload, as the typical-pod count sees it. */
typedef struct frag_pod_in {
    int64_t cpu;
    int milli, ngpu;
    const char *spec;       /* GPU-model constraint text ("" = any): part of the shape */
    uint64_t models;        /* the same as a model mask */
} frag_pod_in;

typedef struct frag_typical_pod {
    gs_pod shape;           /* mem unused */
    double p;               /* popularity among the kept shapes (sums to 1) */
    int64_t count;          /* pods of this shape in the workload */
} frag_typical_pod;

typedef struct frag_typical {
    frag_typical_pod *pods;
    size_t n;
    size_t ndistinct;       /* distinct shapes in the workload */
    double coverage_pct;    /* share of the workload's pods the kept shapes cover */
    int64_t total, covered; /* pods counted / covered by the kept shapes */
    bool artifact;          /* weights and F_n in the FGD artifact's float order (frag_typical_artifact) */
} frag_typical;

/* Build the typical pods of `in` (n pods). `threshold_pct` e.g. 95. */
void frag_typical_build(const frag_pod_in *in, size_t n, double threshold_pct, bool include_cpu_pods,
                        frag_typical *out);
/* The same with a pod count per input (count NULL = 1 each; 0 = skipped). */
void frag_typical_build_counted(const frag_pod_in *in, const int64_t *count, size_t n, double threshold_pct,
                                bool include_cpu_pods, frag_typical *out);
void frag_typical_free(frag_typical *t);
/* Switch t to the FGD artifact's floating-point order (profile openb-artifact):
 * weights (count/total)/(covered/total) as GetTypicalPods (pkg/utils/frag.go
 * 400-480 at 8f3d641), and frag_node summing per fragment category
 * (q1, q2, q3, q4, xl, xr, no_access) over the typical pods in order, then
 * the categories but q3 in that order (NodeGpuShareFragAmount,
 * FragAmountSumExceptQ3). Same values up to the last bits; FGD's integer
 * scores can depend on them. */
void frag_typical_artifact(frag_typical *t);

/* frag(n, m) in milli-GPU, and F_n. */
double frag_node_pod(const gs_node *n, const gs_pod *m);
double frag_node(const gs_node *n, const frag_typical *t);

#endif
