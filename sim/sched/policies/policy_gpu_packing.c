/* policy_gpu_packing.c -- GPU Packing: prefer (1) partly used GPUs, least free
 * first: 100 - free%/10 in [50, 100]; (2) fully free GPUs of a used node:
 * 50 - GPUs taken, in [33, 50]; (3) an idle node: 33 - its GPUs (at least
 * its GPU count). CPU pods score 0 everywhere. */
#include "sched/policies/policy.h"

static int packing_score(const policy_ctx *ctx, size_t idx, const gs_node *n, const gs_pod *p, uint32_t *gpus) {
    (void)ctx;
    (void)idx;
    *gpus = gs_default_gpus(n, p);
    if (p->milli <= 0) return 0;
    int ff = gs_fully_free(n);
    if (ff == n->ngpu) {
        int s = 100 / 3 - ff;
        return s > ff ? s : ff;
    }
    /* GPUs in ascending free order (stable), taking those that fit */
    int idxs[GS_MAX_GPUS], k = 0;
    for (int g = 0; g < n->ngpu; g++) {
        int j = k++;
        while (j > 0 && n->free[idxs[j - 1]] > n->free[g]) {
            idxs[j] = idxs[j - 1];
            j--;
        }
        idxs[j] = g;
    }
    int need = p->ngpu, full_used = 0;
    int64_t ratio_sum = 0;
    for (int i = 0; i < k && need > 0; i++) {
        int f = n->free[idxs[i]];
        if (p->milli <= f) {
            need--;
            if (f == GS_MILLI) full_used++;
            ratio_sum += (int64_t)f * 100 / GS_MILLI;
        }
    }
    if (need) return 0;
    if (full_used > 0) {
        int s = 100 / 2 - full_used;
        return s > 100 / 3 ? s : 100 / 3;
    }
    int64_t s = 100 - ratio_sum / 10;
    return (int)(s > 50 ? s : 50);
}

const policy policy_gpu_packing = {"gpu-packing", "04-GpuPacking", false, packing_score, NULL};
