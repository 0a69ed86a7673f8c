/* openb_artifact.c -- the FGD artifact's run construction (see openb_artifact.h). */
#include "model/openb_artifact.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static const openb_pod *cmp_pods;
static int by_pod_name(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = strcmp(cmp_pods[x].name, cmp_pods[y].name);
    return c ? c : (x > y) - (x < y);
}

static const openb_node *cmp_nodes;
static int by_node_name(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = strcmp(cmp_nodes[x].name, cmp_nodes[y].name);
    return c ? c : (x > y) - (x < y);
}

int openb_artifact_build(const openb_pod *pods, size_t npods, const openb_node *nodes, size_t nnodes, double ratio,
                         int64_t seed, uint32_t **seq_out, size_t *nseq, uint32_t *rank, gorand *after, strbuf *err) {
    int64_t pod_milli = 0, pod_cpu = 0, node_milli = 0;
    for (size_t i = 0; i < npods; i++) {
        pod_milli += openb_pod_gpu_milli(&pods[i]);
        pod_cpu += pods[i].cpu_milli ? pods[i].cpu_milli : 100;
    }
    for (size_t i = 0; i < nnodes; i++) node_milli += (int64_t)nodes[i].gpus * 1000;
    if (pod_milli <= 0 || node_milli <= 0 || pod_cpu <= 0) {   /* TunePodsByNodeTotalResource panics */
        sb_clear(err);
        sb_printf(err, "profile openb-artifact: the %s request no GPU: nothing to tune to a share of GPU capacity",
                  pod_milli <= 0 ? "pods" : "nodes");
        return -1;
    }
    gorand *g = xmalloc(sizeof *g);
    gorand_seed(g, seed);
    (void)gorand_int(g);                                   /* core.go:103, a debug log argument */
    uint32_t *sorted = xmalloc((npods ? npods : 1) * sizeof *sorted);
    for (size_t i = 0; i < npods; i++) sorted[i] = (uint32_t)i;
    cmp_pods = pods;
    qsort(sorted, npods, sizeof *sorted, by_pod_name);
    cmp_pods = NULL;
    size_t n = npods, cap = npods + 16;
    uint32_t *seq = xmalloc(cap * sizeof *seq);
    memcpy(seq, sorted, npods * sizeof *seq);
    gorand_shuffle_u32(g, seq, n);                          /* SortClusterPods with shufflePod */
    double target = ratio * (double)node_milli;
    if ((double)pod_milli > target) {                       /* tuneDownPods */
        while ((double)pod_milli > target && n > 0) {
            size_t k = (size_t)gorand_intn(g, (int64_t)n);
            pod_milli -= openb_pod_gpu_milli(&pods[seq[k]]);
            memmove(seq + k, seq + k + 1, (n - k - 1) * sizeof *seq);
            n--;
        }
    } else if ((double)pod_milli < target) {                /* tuneUpPods: the stop test uses the per-GPU milli */
        for (;;) {
            const openb_pod *p = &pods[sorted[gorand_intn(g, (int64_t)npods)]];
            if ((double)(pod_milli + p->gpu_milli) > target) break;
            pod_milli += openb_pod_gpu_milli(p);
            if (n == cap) {
                cap *= 2;
                seq = xrealloc(seq, cap * sizeof *seq);
            }
            seq[n++] = (uint32_t)(p - pods);
        }
    }
    for (int i = 0; i < 10; i++) (void)gorand_float64(g);   /* the scheduler's ten informer reflectors */
    uint32_t *byname = xmalloc((nnodes ? nnodes : 1) * sizeof *byname);
    int64_t *perm = xmalloc((nnodes ? nnodes : 1) * sizeof *perm);
    for (size_t i = 0; i < nnodes; i++) byname[i] = (uint32_t)i;
    cmp_nodes = nodes;
    qsort(byname, nnodes, sizeof *byname, by_node_name);
    cmp_nodes = NULL;
    gorand_perm(g, perm, nnodes);
    for (size_t i = 0; i < nnodes; i++) rank[byname[i]] = (uint32_t)perm[i];
    if (after) *after = *g;
    free(byname);
    free(perm);
    free(sorted);
    free(g);
    *seq_out = seq;
    *nseq = n;
    return 0;
}
