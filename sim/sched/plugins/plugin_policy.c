/*
 * plugin_policy.c -- the placement policies (policy.h: random, dotprod,
 * gpu-clustering, gpu-packing, bestfit, fgd) as one plugin of the scheduler
 * framework (framework.h), over the scheduler's GPU view (gpu_view.h):
 *  - Filter: the GPU room the view sees (a sharing pod needs one GPU with
 *    `milli` free, a whole-GPU pod `ngpu` fully free GPUs) and the GPU model.
 *    Under profile openb-artifact the whole Open-Gpu-Share filter (CPU with
 *    100m for a zero request, memory, pod slots, GPU model and room,
 *    gpushare.h gs_fits), as the artifact filters;
 *  - Score: the policy's score in [0, 100] and its GPU choice on that node,
 *    cached with the score (class->choice), taken at Reserve by sched.c;
 *  - the device-choice step (which GPUs, which share of a GPU) is that
 *    choice: device-plugin units or, in DRA mode, the devices the allocator
 *    may take (plugin_dra.c).
 * A class whose pods ask for no GPU the view tracks passes Filter and gets
 * the policy's CPU-pod score (0 for most policies).
 */
#include "sched/dra/dra.h"
#include "sched/framework.h"
#include "sched/policies/place_mig.h"
#include "sched/policies/policy.h"

static void add_reason(sched_reasons *why, const char *r) {
    if (why && why->n < (int)(sizeof why->r / sizeof *why->r)) why->r[why->n++] = r;
}

/* Dynamic-MIG claims under fgd: place_mig.h scores and chooses them (the MIG
 * memory-slice geometry), through the DynamicResources plugin's score. */
static bool mig_placed(const scheduler *s, const pod_class *c) {
    return c->dra_mig && s->dra && place_mig_chooses(s->dra->mig);
}

static bool policy_filter(const scheduler *s, const pod_class *c, size_t node, sched_reasons *why) {
    const gs_node *n = &s->gv.nodes[node];
    gs_pod shape = sched_node_shape(s, c, node);
    if (mig_placed(s, c)) return true;
    if (s->cfg.openb_filter) {
        if (gs_fits(n, &shape)) return true;
        add_reason(why, "Insufficient GPU room (Open-Gpu-Share)");
        return false;
    }
    if (gs_gpu_room(n, &shape)) return true;
    add_reason(why, "Insufficient free GPU (placement policy)");
    return false;
}

static int64_t policy_score(const scheduler *s, const pod_class *c, size_t node) {
    if (mig_placed(s, c)) return 0;
    scheduler *m = (scheduler *)s;   /* the choice cache, counters and lazy F_n are the plugin's own state */
    uint32_t gpus = 0;
    gpu_view_sync_node(&m->gv, node);   /* FGD reads F_n of the node */
    gs_pod shape = sched_node_shape(s, c, node);
    const gs_pod *p = &shape;
    policy_ctx ctx = {.typical = s->typical_in, .node_frag = s->gv.frag,
                      .max_cpu = s->cfg.trace_norm ? POLICY_MAX_SPEC_CPU : s->gv.max_cpu,
                      .max_gpu = s->cfg.trace_norm ? POLICY_MAX_SPEC_GPU : s->gv.max_gpu_milli};
    if (ctx.max_cpu < 1000) ctx.max_cpu = 1000;
    if (ctx.max_gpu < GS_MILLI) ctx.max_gpu = GS_MILLI;
    int sc = s->cfg.policy->score(&ctx, node, &s->gv.nodes[node], p, &gpus);
    m->policy_score_calls++;
    if (c->choice) c->choice[node] = (uint8_t)gpus;
    return sc < 0 ? 0 : sc > 32767 ? 32767 : sc;   /* as the artifact's int64 scores, bounded */
}

const sched_plugin plugin_placement_policy = {.name = "PlacementPolicy", .weight = 1000,
                                              .filter = policy_filter, .score = policy_score};
