/* policy_fgd.c -- Fragmentation Gradient Descent: score a placement by how
 * little it grows the node's fragmentation F_n (frag.h):
 * int(sigmoid((F_before - F_after) / 1000) x 100). A sharing pod tries every
 * GPU with room (one evaluation per distinct free amount) and keeps the
 * lowest-index GPU among the best; other pods take what the artifact's
 * Sub() takes (fully free GPUs, lowest indexes). */
#include <math.h>

#include "sched/policies/policy.h"

static int fgd_points(double before, double after) {
    double x = (before - after) / 1000.0;
    return (int)(int64_t)(100.0 / (1.0 + exp(-x)));
}

static int fgd_score(const policy_ctx *ctx, size_t idx, const gs_node *n, const gs_pod *p, uint32_t *gpus) {
    double before = ctx->node_frag[idx];
    gs_node after = *n;
    if (gs_is_share(p)) {
        int seen_free[GS_MAX_GPUS], seen_score[GS_MAX_GPUS], nseen = 0, best = -1, best_score = 0;
        for (int g = 0; g < n->ngpu; g++) {
            if (n->free[g] < p->milli) continue;
            int sc = -1;
            for (int k = 0; k < nseen; k++)
                if (seen_free[k] == n->free[g]) sc = seen_score[k];
            if (sc < 0) {
                after.cpu_left = n->cpu_left - p->cpu;
                after.free[g] = (int16_t)(n->free[g] - p->milli);
                sc = fgd_points(before, frag_node(&after, ctx->typical));
                after.free[g] = n->free[g];
                seen_free[nseen] = n->free[g];
                seen_score[nseen++] = sc;
            }
            if (best < 0 || sc > best_score) {
                best = g;
                best_score = sc;
            }
        }
        *gpus = best < 0 ? 0 : 1u << best;
        return best < 0 ? 0 : best_score;
    }
    *gpus = p->milli > 0 ? gs_exclusive(n, p->ngpu) : 0;
    gs_take(&after, p, *gpus);
    return fgd_points(before, frag_node(&after, ctx->typical));
}

const policy policy_fgd = {"fgd", "06-FGD", false, fgd_score, NULL};
