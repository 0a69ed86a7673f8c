/*
 * typical_seen.h -- the typical pods (frag.h) of a workload whose pods are
 * not known in advance (pod groups with arrival processes, Lua generators):
 * built from the pod shapes SEEN so far, counted as pods arrive.
 *
 * A shape is the gs_pod (cpu milli, mem MiB, ngpu, milli per GPU, model
 * mask): unlike frag_typical_build (OpenB traces, whose shape has no memory)
 * memory is part of it, so that the typical pods carry the memory the
 * stranded-GPU and nodes-fit measures check (gpu_metrics.h). The kept set
 * follows frag_typical_build's rule: shapes most popular first (equal counts:
 * the larger shape first, comparing cpu, milli, ngpu, then models and mem),
 * kept until `threshold_pct` of the counted pods are covered, CPU-only shapes
 * (ngpu 0 or milli 0) counted only when include_cpu_pods; p = count / covered.
 * Shapes live in a sorted array (binary search), never in hash order: the
 * result depends only on the counts, not on the order pods arrived in.
 */
#ifndef DRASIM_SCHED_TYPICAL_SEEN_H
#define DRASIM_SCHED_TYPICAL_SEEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched/policies/frag.h"
#include "sched/policies/gpushare.h"

typedef struct typical_seen_shape {
    gs_pod shape;
    int64_t count;
} typical_seen_shape;

typedef struct typical_seen {
    typical_seen_shape *shapes;   /* sorted by shape (typical_seen.c shape_cmp) */
    size_t n, cap;
    int64_t total;                /* pods counted */
    double threshold_pct;
    bool include_cpu_pods;
    frag_typical last;            /* the last build (for typical_seen_changed) */
    bool built;
} typical_seen;

void typical_seen_init(typical_seen *ts, double threshold_pct, bool include_cpu_pods);
void typical_seen_free(typical_seen *ts);
/* Count `count` more pods of `shape` (CPU-only shapes are ignored unless
 * include_cpu_pods; count <= 0 is ignored). */
void typical_seen_add(typical_seen *ts, const gs_pod *shape, int64_t count);
/* Would typical_seen_build now give another kept set (shapes or order) or
 * other weights than the last build? True before the first build. */
bool typical_seen_changed(const typical_seen *ts);
/* Build the typical pods of the shapes seen into *out (free with
 * frag_typical_free; an empty set when nothing was seen) and remember it. */
void typical_seen_build(typical_seen *ts, frag_typical *out);

#endif
