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

struct frag_memo;
typedef struct frag_typical {
    frag_typical_pod *pods;
    size_t n;
    size_t ndistinct;       /* distinct shapes in the workload */
    double coverage_pct;    /* share of the workload's pods the kept shapes cover */
    int64_t total, covered; /* pods counted / covered by the kept shapes */
    bool artifact;          /* weights and F_n in the FGD artifact's float order (frag_typical_artifact) */
    struct frag_memo *memo; /* F_n of node states seen (frag_node): made by frag_typical_build*, freed by
                               frag_typical_free; NULL (typicals put together by hand) = none */
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

/* The exact sum of the F_n values (all >= 0) in fixed point, units of
 * 2^-80 milli, kept as they change (gpu_view.c measure_node), so that the
 * artifact's logged cluster fragmentation, Python's round(sum, 2) of the
 * node-order double sum, costs O(1) instead of O(nodes) (frag_fixed_round2).
 * `bad`: a value was negative, >= 2^24 or had bits below 2^-80; then the
 * sum is unusable until frag_fixed_reset. */
__extension__ typedef unsigned __int128 frag_u128;   /* sums wrap harmlessly: frag_fixed_round2 refuses counts where they could */
typedef struct frag_fixed_sum {
    frag_u128 units;
    bool bad;
} frag_fixed_sum;
static inline void frag_fixed_reset(frag_fixed_sum *s) { s->units = 0; s->bad = false; }
/* F value `before` of a node becomes `after`. */
void frag_fixed_change(frag_fixed_sum *s, double before, double after);
/* round(x, 2) as Python (and the artifact's %.2f) rounds it, of x = the sum
 * of the n values in index order in doubles (f = 0; f += v[i]), without that
 * sum: from the exact sum and the bound gamma_n * sum on the double sum's
 * error (recursive summation of non-negative values). False when that bound
 * reaches a rounding tie (or the sum is bad): then sum the doubles. */
bool frag_fixed_round2(const frag_fixed_sum *s, size_t n, double *out);

/* frag(n, m) in milli-GPU, and F_n. F_n depends only on the node's CPU left,
 * GPU model and free milli per GPU; with t->memo it is remembered per such
 * state (FGD scores every class on every node, most of them in equal states). */
double frag_node_pod(const gs_node *n, const gs_pod *m);
double frag_node(const gs_node *n, const frag_typical *t);

#endif
