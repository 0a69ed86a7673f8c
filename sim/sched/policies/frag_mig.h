/*
 * frag_mig.h -- MIG fragmentation: the FGD measure (frag.h) carried over to
 * dynamic-MIG GPUs, where what fragments is the 8 memory slices of a GPU.
 *
 * A GPU's state is the set of memory slices its MIG instances occupy and the
 * compute slices they use (nvidia-inventory.md §2.1: a profile of size s at
 * start t takes slices [t, t+s); profiles have fixed valid starts; compute
 * slices are bounded by the GPU's total, 7 on A100/H100/H200).
 *
 * Typical MIG requests: the workload's MIG profiles with their popularity
 * p_m (sums to 1), as FGD's typical pods. For profile m a free slice is
 * USABLE when some valid placement of m that fits now (all its slices free,
 * enough compute left) covers it. The fragmentation of a GPU is
 *     F = sum_m p_m * (free slices not usable by m)
 * in memory slices: 0 for a full GPU, only the geometry's share for an
 * empty one (a 1g never starts at slice 7), high when the free slices are
 * scattered so that popular profiles cannot use them. The placement (start) of a new
 * instance that grows F least is the fragmentation-aware choice.
 */
#ifndef DRASIM_SCHED_FRAG_MIG_H
#define DRASIM_SCHED_FRAG_MIG_H

#include <stddef.h>
#include <stdint.h>

#define FRAG_MIG_SLICES 8

/* One MIG profile as the measure sees it. */
typedef struct frag_mig_profile {
    int size;               /* memory slices */
    int compute;            /* compute slices */
    uint8_t starts;         /* bit t: t is a valid start */
    double p;               /* popularity among the typical profiles */
} frag_mig_profile;

typedef struct frag_mig_typical {
    frag_mig_profile m[16];
    size_t n;
    int compute_total;      /* compute slices of the GPU (7) */
} frag_mig_typical;

/* One GPU: occupied memory slices (bit per slice) and compute slices used. */
typedef struct frag_mig_gpu {
    uint8_t occ;
    int compute;
} frag_mig_gpu;

/* Slices [start, start+size) as a mask. */
uint8_t frag_mig_span(int start, int size);
/* Can profile m be placed at `start` on g? */
int frag_mig_fits(const frag_mig_gpu *g, const frag_mig_profile *m, int start, int compute_total);
/* Free slices of g usable by m (union of its placements that fit). */
uint8_t frag_mig_usable(const frag_mig_gpu *g, const frag_mig_profile *m, int compute_total);
/* F of one GPU, in memory slices. */
double frag_mig_gpu_frag(const frag_mig_gpu *g, const frag_mig_typical *t);
/* The valid start of m on g that grows F least (lowest start on ties), or
 * -1 when m fits nowhere; *delta gets the growth. */
int frag_mig_best_start(const frag_mig_gpu *g, const frag_mig_profile *m, const frag_mig_typical *t, double *delta);
/* Add a typical profile (popularity `weight`, normalised by frag_mig_normalise). */
void frag_mig_add(frag_mig_typical *t, int size, int compute, uint8_t starts, double weight);
void frag_mig_normalise(frag_mig_typical *t);

#endif
