/* policy_random.c -- Random: PreScore draws one feasible node uniformly; it
 * alone gets the maximum score (the cycle does the draw, see policy_sched.c). */
#include "sched/policy.h"

static int random_score(const policy_ctx *ctx, size_t idx, const gs_node *n, const gs_pod *p, uint32_t *gpus) {
    (void)ctx;
    (void)idx;
    *gpus = gs_default_gpus(n, p);
    return 0;
}

const policy policy_random = {"random", "01-Random", true, random_score};
