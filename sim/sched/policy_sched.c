/*
 * policy_sched.c -- the scheduling cycle over GPU-sharing nodes: Filter
 * (CPU, memory, pod count, GPU model and room), Score with the policy only
 * (weight 1000; every node is scored, percentageOfNodesToScore 100), pick
 * the highest score with ties to the node whose name sorts first, Reserve
 * the GPUs the policy chose. See policy.h.
 *
 * Speed: Filter+Score results are cached per (shape, node) with the node's
 * version; only nodes changed since a shape was last tried are re-scored.
 * F_n is kept per node and updated when the node changes, so FGD's
 * F_before is free and the cluster's fragmentation is a running sum.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/policy.h"
#include "util/xalloc.h"

const policy *policy_find(const char *name) {
    static const policy *const all[] = {&policy_random, &policy_dotprod, &policy_gpu_clustering,
                                        &policy_gpu_packing, &policy_bestfit, &policy_fgd};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (name && !strcmp(all[i]->name, name)) return all[i];
    return NULL;
}

const char *policy_names(void) { return "random, dotprod, gpu-clustering, gpu-packing, bestfit, fgd"; }

static const char *const *sort_names;
static int cmp_by_name(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = strcmp(sort_names[x], sort_names[y]);
    return c ? c : (x > y) - (x < y);
}

void policy_sched_init(policy_sched *s, const policy *pol, const gs_node *nodes, const char *const *names,
                       size_t nnodes, const gs_pod *shapes, size_t nshapes, const frag_typical *typical,
                       uint64_t seed) {
    memset(s, 0, sizeof *s);
    s->pol = pol;
    s->nnodes = nnodes;
    s->nodes = xmalloc((nnodes ? nnodes : 1) * sizeof *s->nodes);
    memcpy(s->nodes, nodes, nnodes * sizeof *nodes);
    s->order = xmalloc((nnodes ? nnodes : 1) * sizeof *s->order);
    for (size_t i = 0; i < nnodes; i++) s->order[i] = (uint32_t)i;
    sort_names = names;
    qsort(s->order, nnodes, sizeof *s->order, cmp_by_name);
    sort_names = NULL;
    s->shapes = shapes;
    s->nshapes = nshapes;
    s->typical = typical;
    s->frag = xcalloc(nnodes ? nnodes : 1, sizeof *s->frag);
    for (size_t i = 0; i < nnodes; i++) {
        s->frag[i] = frag_node(&s->nodes[i], typical);
        s->frag_total += s->frag[i];
        s->idle_milli += gs_free_total(&s->nodes[i]);
    }
    s->ctx.typical = typical;
    s->ctx.node_frag = s->frag;
    s->version = xmalloc((nnodes ? nnodes : 1) * sizeof *s->version);
    for (size_t i = 0; i < nnodes; i++) s->version[i] = 1;
    size_t cells = nshapes * nnodes + 1;
    s->cache_ver = xcalloc(cells, sizeof *s->cache_ver);
    s->cache_score = xcalloc(cells, sizeof *s->cache_score);
    s->cache_gpus = xcalloc(cells, sizeof *s->cache_gpus);
    s->scratch = xmalloc((nnodes ? nnodes : 1) * sizeof *s->scratch);
    rng_seed(&s->rng, seed);
}

static const uint32_t *sort_rank;
static int cmp_by_rank(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (sort_rank[x] != sort_rank[y]) return sort_rank[x] < sort_rank[y] ? -1 : 1;
    return (x > y) - (x < y);
}

void policy_sched_set_tie_order(policy_sched *s, const uint32_t *rank) {
    sort_rank = rank;
    qsort(s->order, s->nnodes, sizeof *s->order, cmp_by_rank);
    sort_rank = NULL;
}

void policy_sched_use_gorand(policy_sched *s, gorand *g) { s->go = g; }

void policy_sched_free(policy_sched *s) {
    free(s->nodes);
    free(s->order);
    free(s->frag);
    free(s->version);
    free(s->cache_ver);
    free(s->cache_score);
    free(s->cache_gpus);
    free(s->scratch);
    memset(s, 0, sizeof *s);
}

/* The node changed: new F_n, totals, version. `dmilli` = idle milli change. */
static void node_changed(policy_sched *s, size_t node, int64_t dmilli) {
    double f = frag_node(&s->nodes[node], s->typical);
    s->frag_total += f - s->frag[node];
    s->frag[node] = f;
    s->idle_milli += dmilli;
    s->used_milli -= dmilli;
    s->version[node]++;
}

bool policy_sched_place(policy_sched *s, size_t k, int32_t *node, uint32_t *gpus) {
    const gs_pod *p = &s->shapes[k];
    size_t base = k * s->nnodes, nfeasible = 0;
    int best = -1;
    uint32_t best_node = 0;
    s->cycles++;
    if (s->go) (void)gorand_intn(s->go, 100);
    for (size_t i = 0; i < s->nnodes; i++) {
        uint32_t n = s->order[i];
        size_t c = base + n;
        if (s->cache_ver[c] != s->version[n]) {
            int sc = -1;
            uint32_t g = 0;
            if (gs_fits(&s->nodes[n], p)) {
                sc = s->pol->score(&s->ctx, n, &s->nodes[n], p, &g);
                if (sc < 0) sc = 0;
                if (sc > 32767) sc = 32767;
                s->score_calls++;
            }
            s->cache_ver[c] = s->version[n];
            s->cache_score[c] = (int16_t)sc;
            s->cache_gpus[c] = (uint8_t)g;
        }
        int sc = s->cache_score[c];
        if (sc < 0) continue;
        s->scratch[nfeasible++] = n;
        if (sc > best) {
            best = sc;
            best_node = n;
        }
    }
    if (!nfeasible) {
        if (s->go) (void)gorand_int31n(s->go, (int32_t)s->nnodes);
        return false;
    }
    uint32_t g;
    if (s->go) {   /* the artifact's draws (policy_sched_use_gorand) */
        if (s->pol->random_pick) {   /* feasible nodes in creation (trace) order, see policy_sched_use_gorand */
            int64_t k = nfeasible > 1 ? gorand_intn(s->go, (int64_t)nfeasible) : 0;
            for (size_t i = 0; i < s->nnodes; i++)
                if (s->cache_score[base + i] >= 0 && k-- == 0) {
                    best_node = (uint32_t)i;
                    break;
                }
        }
        g = s->pol->reserve_gpus ? policy_random_gpus_go(&s->nodes[best_node], p, s->go)
                                 : s->cache_gpus[base + best_node];
    } else {
        if (s->pol->random_pick) best_node = s->scratch[rng_below(&s->rng, nfeasible)];
        g = s->pol->reserve_gpus ? s->pol->reserve_gpus(&s->nodes[best_node], p, &s->rng)
                                 : s->cache_gpus[base + best_node];
    }
    int64_t before = gs_free_total(&s->nodes[best_node]);
    gs_take(&s->nodes[best_node], p, g);
    node_changed(s, best_node, gs_free_total(&s->nodes[best_node]) - before);
    *node = (int32_t)best_node;
    *gpus = g;
    return true;
}

void policy_sched_move(policy_sched *s, size_t k, int32_t node, uint32_t from, uint32_t to) {
    if (from == to) return;
    int64_t before = gs_free_total(&s->nodes[node]);
    gs_give(&s->nodes[node], &s->shapes[k], from);
    gs_take(&s->nodes[node], &s->shapes[k], to);
    node_changed(s, (size_t)node, gs_free_total(&s->nodes[node]) - before);
}

void policy_sched_release(policy_sched *s, size_t k, int32_t node, uint32_t gpus) {
    int64_t before = gs_free_total(&s->nodes[node]);
    gs_give(&s->nodes[node], &s->shapes[k], gpus);
    node_changed(s, (size_t)node, gs_free_total(&s->nodes[node]) - before);
}

double policy_sched_frag(const policy_sched *s) {
    double t = 0;
    for (size_t i = 0; i < s->nnodes; i++) t += s->frag[i];
    return t;
}
