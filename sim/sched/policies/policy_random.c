/* policy_random.c -- Random: PreScore draws one feasible node uniformly; it
 * alone gets the maximum score (the cycle does the draw, sched.c pick_ranked).
 * Inside the node a sharing pod also gets a uniformly drawn GPU among those
 * with room (the artifact's "random" GPU selection, allocateGpuIdBasedOnRandomFit):
 * with it the reproduction matches the published Random curve at 90 % and
 * 130 % arrived demand within 0.2 points, with "best" it is 0.8-1.3 points
 * too high (docs/OPENB.md). Whole-GPU pods take the lowest free GPUs. */
#include "sched/policies/policy.h"

static int random_score(const policy_ctx *ctx, size_t idx, const gs_node *n, const gs_pod *p, uint32_t *gpus) {
    (void)ctx;
    (void)idx;
    *gpus = gs_default_gpus(n, p);
    return 0;
}

static uint32_t random_gpus(const gs_node *n, const gs_pod *p, rng *r) {
    if (!gs_is_share(p)) return gs_default_gpus(n, p);
    int seen = 0, pick = -1;
    for (int g = 0; g < n->ngpu; g++)   /* reservoir sampling: uniform over the GPUs with room */
        if (n->free[g] >= p->milli && rng_below(r, (uint64_t)++seen) == 0) pick = g;
    return pick < 0 ? 0 : 1u << pick;
}

uint32_t policy_random_gpus_go(const gs_node *n, const gs_pod *p, gorand *g) {
    if (!gs_is_share(p)) return gs_default_gpus(n, p);
    int seen = 0, pick = -1;
    for (int i = 0; i < n->ngpu; i++)
        if (n->free[i] >= p->milli && gorand_intn(g, ++seen) == 0) pick = i;
    return pick < 0 ? 0 : 1u << pick;
}

const policy policy_random = {"random", "01-Random", true, random_score, random_gpus};
