/*
 * openb_trace.h -- the Alibaba OpenB GPU trace (cluster-trace-gpu-v2023): node and
 * pod CSV readers, and the workload the FGD paper's simulator builds from it.
 *
 * Node CSV columns: sn, cpu_milli, memory_mib, gpu, model.
 * Pod CSV columns:  name, cpu_milli, memory_mib, num_gpu, gpu_milli and,
 * optionally, gpu_spec, creation_time, deletion_time (other columns such as
 * qos, pod_phase, scheduled_time are ignored). Every error names FILE:LINE.
 *
 * Inflation (docs/OPENB.md, shared spec openb-fgd.md §2.4): keep every trace
 * pod, then draw pods uniformly with replacement (seeded) and append them
 * while the requested GPU milli stays within ratio x cluster GPU milli
 * (stopping at the first draw that would overshoot, as the artifact does,
 * comparing with the drawn pod's per-GPU milli), then shuffle. A ratio below
 * the trace's own demand removes random pods instead.
 */
#ifndef DRASIM_MODEL_OPENB_TRACE_H
#define DRASIM_MODEL_OPENB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/strbuf.h"

#define OPENB_MAX_GPUS 8          /* GPUs per node the model supports (trace max is 8) */

typedef struct openb_node {
    const char *name;
    int64_t cpu_milli;
    int64_t memory_mib;
    int gpus;
    const char *model;            /* "" for CPU-only nodes */
} openb_node;

typedef struct openb_pod {
    const char *name;
    int64_t cpu_milli;
    int64_t memory_mib;
    int num_gpu;                  /* 0..8 */
    int gpu_milli;                /* per GPU: < 1000 only for sharing pods (num_gpu == 1) */
    const char *gpu_spec;         /* allowed models separated by '|', "" = any */
    int64_t creation_s, deletion_s; /* -1 when the file has no such column / empty cell */
} openb_pod;

/* Read a node list; strings live in `a`. Returns 0 or -1 with err "FILE:LINE: ...". */
int openb_load_nodes(const char *path, arena *a, openb_node **out, size_t *n, strbuf *err);
/* Read a pod list; strings live in `a`. Returns 0 or -1 with err "FILE:LINE: ...". */
int openb_load_pods(const char *path, arena *a, openb_pod **out, size_t *n, strbuf *err);

/* Total GPU milli a pod requests (num_gpu x gpu_milli). */
static inline int64_t openb_pod_gpu_milli(const openb_pod *p) { return (int64_t)p->num_gpu * p->gpu_milli; }

/* The inflated, shuffled arrival sequence as indexes into `pods` (xmalloc'd,
 * *nout entries). `cluster_gpu_milli` is 1000 x the cluster's GPUs. */
uint32_t *openb_inflate(const openb_pod *pods, size_t npods, int64_t cluster_gpu_milli, double ratio,
                        uint64_t seed, size_t *nout);

/* Does a pod with this gpu_spec accept a node with this GPU model? */
bool openb_spec_allows(const char *gpu_spec, const char *model);

#endif
