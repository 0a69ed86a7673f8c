/* policy_bestfit.c -- BestFit: score = 100 x (1 - sum_i 0.5 (free_i - req_i) /
 * max_i) over i in {CPU, all GPUs}: the node left with the least wins. (The
 * artifact then min-max normalises the scores of the cycle; scores stay in
 * [0, 100] on nodes up to the max spec, where that keeps the order and the
 * ties, so the normalisation is not modelled.) */
#include "sched/policies/policy.h"

static int bestfit_score(const policy_ctx *ctx, size_t idx, const gs_node *n, const gs_pod *p, uint32_t *gpus) {
    (void)ctx;
    (void)idx;
    *gpus = gs_default_gpus(n, p);
    double free_cpu = (double)n->cpu_left, free_gpu = (double)gs_free_total(n);
    double req_cpu = (double)p->cpu, req_gpu = (double)p->milli * p->ngpu;
    if (free_cpu < req_cpu || free_gpu < req_gpu) return 0;
    double s = (free_cpu - req_cpu) / ctx->max_cpu * 0.5 + (free_gpu - req_gpu) / ctx->max_gpu * 0.5;
    return (int)(int64_t)((1.0 - s) * 100.0);
}

const policy policy_bestfit = {"bestfit", "05-BestFit", false, bestfit_score, NULL};
