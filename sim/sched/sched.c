/*
 * sched.c -- the scheduling framework: resource table, per-class caches,
 * the class queue, the scheduling cycle (sampling + selectHost) and binding.
 * See sched.h for the model.
 */
#include "sched/sched.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "sched/dra/dra.h"
#include "sched/dra/dra_openb.h"
#include "sched/framework.h"
#include "sched/policies/policy.h"
#include "sched/plugins/preempt.h"
#include "sched/plugins/resources_plain.h"
#include "util/checked.h"
#include "util/intern.h"
#include "util/xalloc.h"

#define BIT_GET(b, i) (((b)[(i) >> 6] >> ((i) & 63)) & 1u)
#define BIT_SET(b, i) ((b)[(i) >> 6] |= (uint64_t)1 << ((i) & 63))
#define BIT_CLR(b, i) ((b)[(i) >> 6] &= ~((uint64_t)1 << ((i) & 63)))

static int res_register(scheduler *s, const char *name) {
    for (size_t i = 0; i < s->nres; i++)
        if (s->res_names[i] == name) return (int)i;
    if (s->nres == SCHED_MAX_RESOURCES) {
        s->res_overflow = true;
        return -1;
    }
    s->res_names[s->nres] = name;
    return (int)s->nres++;
}

int sched_res_index(const scheduler *s, const char *name) {
    name = intern(name);
    for (size_t i = 0; i < s->nres; i++)
        if (s->res_names[i] == name) return (int)i;
    return -1;
}

static int64_t amount_of(size_t r, const quantity *q) {
    return r == RES_CPU ? quantity_milli_value(q) : quantity_value(q);
}

/* Whether refresh may inline Filter and Score (s->plain): NodeResourcesFit
 * is the only Filter, the Scores are it (LeastAllocated or MostAllocated over
 * cpu and memory only) and BalancedAllocation, with their weights. */
static void plain_init(scheduler *s) {
    bool ok = s->nfilters == 1 && s->filters[0] == plugin_node_resources_fit.filter &&
              s->cfg.strategy != SCORE_REQUESTED_TO_CAPACITY_RATIO;
    for (size_t r = RES_PODS; r < SCHED_MAX_RESOURCES; r++) ok &= !s->score_weights[r];
    for (size_t p = 0; p < s->nscorers && ok; p++) {
        if (s->scorers[p] == plugin_node_resources_fit.score && !s->plain_wf) s->plain_wf = s->scorer_weights[p];
        else if (s->scorers[p] == plugin_balanced_allocation.score && !s->plain_wb) s->plain_wb = s->scorer_weights[p];
        else ok = false;
    }
    s->plain = ok;
    s->plain_most = s->cfg.strategy == SCORE_MOST_ALLOCATED;
}

void sched_init(scheduler *s, const k8s_node *nodes, size_t nnodes, const sched_config *cfg, uint64_t seed) {
    memset(s, 0, sizeof *s);
    s->nodes = nodes;
    s->nnodes = nnodes;
    s->nwords = (nnodes + 63) / 64;
    s->cfg = *cfg;
    res_register(s, intern("cpu"));
    res_register(s, intern("memory"));
    res_register(s, intern("pods"));
    for (size_t n = 0; n < nnodes; n++)
        for (size_t i = 0; i < nodes[n].nallocatable; i++) res_register(s, nodes[n].allocatable[i].name);
    rng_seed(&s->rng, seed);
    if (cfg->preemption) preempt_init(s, seed);
    static const sched_plugin *const all[] = {&plugin_node_unschedulable, &plugin_taint_toleration,
                                              &plugin_node_affinity, &plugin_node_resources_fit,
                                              &plugin_balanced_allocation};
    s->plugins = xmalloc(sizeof all + 4 * sizeof *all);
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        if (all[i] != &plugin_balanced_allocation || cfg->balanced_allocation) s->plugins[s->nplugins++] = all[i];
        /* the policy filters right after NodeResourcesFit: cheap, before the allocator runs */
        if (all[i] == &plugin_node_resources_fit && (cfg->policy || cfg->openb_filter))
            s->plugins[s->nplugins++] = &plugin_placement_policy;
    }
    gpu_view_init(&s->gv, nnodes);
    s->gv.replicas = cfg->time_slicing_replicas > 1 ? cfg->time_slicing_replicas : 1;
    s->dra = cfg->dra;
    if (s->dra) s->plugins[s->nplugins++] = &plugin_dynamic_resources;
    if (sched_any_fail_gt_one(nodes, nnodes)) s->plugins[s->nplugins++] = &plugin_shared_gpu_requests;
    if (cfg->extra) s->plugins[s->nplugins++] = cfg->extra;   /* e.g. TopologyPack (its weight below) */
    for (size_t i = 0; i < s->nplugins; i++) {
        const sched_plugin *pl = s->plugins[i];
        s->weights[i] = pl->weight;
        if (!cfg->weights_set) continue;
        if (pl == &plugin_node_resources_fit) s->weights[i] = cfg->fit_weight;
        if (pl == &plugin_balanced_allocation) s->weights[i] = cfg->balanced_weight;
        if (pl == &plugin_dynamic_resources) s->weights[i] = cfg->dra_weight;
        if (pl == cfg->extra) s->weights[i] = cfg->extra_weight;
    }
    for (size_t i = 0; i < s->nplugins; i++)   /* a policy scores with its own weight; a bare filter does not score */
        if (s->plugins[i] == &plugin_placement_policy) s->weights[i] = cfg->policy ? cfg->policy_weight : 0;
    bool fit_only = true;
    for (size_t i = 0; i < s->nplugins; i++) {   /* refresh's hooks, in plugin order */
        const sched_plugin *pl = s->plugins[i];
        if (pl->filter) {
            s->filters[s->nfilters++] = pl->filter;
            fit_only &= pl == &plugin_node_resources_fit;
        }
        if (pl->score && s->weights[i]) {
            s->scorers[s->nscorers] = pl->score;
            s->scorer_weights[s->nscorers++] = s->weights[i];
        }
    }
    s->monotone = fit_only;
    if (cfg->score_resources) {
        for (size_t i = 0; i < cfg->nscore_resources; i++) {
            int r = res_register(s, cfg->score_resources[i].name);
            if (r >= 0) s->score_weights[r] = cfg->score_resources[i].weight;
        }
    } else {
        s->score_weights[RES_CPU] = 1;
        s->score_weights[RES_MEMORY] = 1;
    }
    plain_init(s);
}

static void add_demand(scheduler *s, pod_class *c, const char *name, const quantity *q) {
    int r = res_register(s, name);
    if (r < 0) return;   /* s->res_overflow is set: the caller refuses the run */
    int64_t v = amount_of((size_t)r, q);
    for (size_t i = 0; i < c->ndemand; i++)
        if (c->demand[i].res == r) { c->demand[i].amount = i64_add_sat(c->demand[i].amount, v); return; }
    c->demand[c->ndemand++] = (res_demand){.res = (uint16_t)r, .amount = v};
}

/* The device-plugin resources that are GPUs in the view: whole GPUs (or
 * their time-slicing replicas, or with the single MIG strategy their MIG
 * devices), OpenB's milli-GPU, and MIG devices (mixed strategy) of N/7 GPU. */
enum { GRES_NONE, GRES_UNITS, GRES_MILLI, GRES_MIG };
static int gpu_resource(const char *name, int *mig_slices) {
    *mig_slices = 0;
    if (name == intern("nvidia.com/gpu") || name == intern("nvidia.com/gpu.shared")) return GRES_UNITS;
    if (name == intern("alibabacloud.com/gpu-milli")) return GRES_MILLI;
    if (!strncmp(name, "nvidia.com/mig-", 15)) {
        int g = atoi(name + 15);
        if (g > 0 && g <= 7) {
            *mig_slices = g;
            return GRES_MIG;
        }
    }
    return GRES_NONE;
}

/* `units` units of `unit_milli` each from a resource with `per_gpu` units per
 * GPU, as a pod shape: a share of one GPU, or whole GPUs. */
static void units_shape(gs_pod *p, int64_t units, int unit_milli, int64_t per_gpu) {
    if (per_gpu > 0 && units >= per_gpu) {
        p->ngpu = (int)((units + per_gpu - 1) / per_gpu);
        p->milli = GS_MILLI;
    } else {
        p->ngpu = 1;
        p->milli = (int)(units * unit_milli < GS_MILLI ? units * unit_milli : GS_MILLI);
    }
    if (p->ngpu > GS_MAX_GPUS) p->ngpu = GS_MAX_GPUS + 1;   /* never fits a node of the view */
}

/* Class c's demand as the GPU view sees it (c->shape; models are set once
 * the nodes it may use are known, prepare_static). A node whose GPU resource
 * means something else (MIG devices under the single strategy) gets its own
 * shape at Filter, Score and Reserve (sched_node_shape). */
static void class_gpu_shape(scheduler *s, pod_class *c, const pod_group_spec *g) {
    int R = s->gv.replicas;
    c->gpu_res = -1;
    c->typical_count = g->typical_count ? g->typical_count : g->count;
    c->gpu_spec = g->gpu_spec;
    c->shape = (gs_pod){.cpu = c->nz_cpu, .models = ~(uint64_t)0};
    for (size_t i = 0; i < c->ndemand; i++) {
        int slices, kind = gpu_resource(s->res_names[c->demand[i].res], &slices);
        int64_t v = c->demand[i].amount;
        if (c->demand[i].res == RES_MEMORY) c->shape.mem = (v >> 20) + ((v & ((1 << 20) - 1)) != 0);   /* MiB, rounded up without overflow at 8Ei */
        if (kind == GRES_NONE || v <= 0 || c->gpu_res >= 0) continue;
        c->gpu_res = c->demand[i].res;
        c->gpu_units = v;
        if (kind == GRES_UNITS) units_shape(&c->shape, v, GS_MILLI / R, R);
        if (kind == GRES_MILLI) units_shape(&c->shape, v, 1, GS_MILLI);
        if (kind == GRES_MIG) units_shape(&c->shape, v, slices * GS_MILLI / 7 / R, 7 * R / slices);
    }
}

gs_pod sched_node_shape(const scheduler *s, const pod_class *c, size_t node) {
    if (c->gpu_res < 0 || !s->unit_milli) return c->shape;
    size_t k = node * s->nres + (size_t)c->gpu_res;
    if (!s->unit_milli[k]) return c->shape;
    gs_pod p = c->shape;
    units_shape(&p, c->gpu_units, s->unit_milli[k], s->per_gpu[k]);
    return p;
}

int sched_add_class(scheduler *s, const pod_group_spec *g, bool device_plugin_mode) {
    if (s->nclasses == s->classes_cap) {   /* geometric: one realloc per class copied O(n^2) bytes */
        s->classes_cap = s->classes_cap ? 2 * s->classes_cap : 16;
        s->classes = xrealloc(s->classes, s->classes_cap * sizeof *s->classes);
    }
    pod_class *c = &s->classes[s->nclasses];
    memset(c, 0, sizeof *c);
    c->name = g->name;
    c->priority = g->priority;
    c->one_per_node = !device_plugin_mode && g->compute_domain;   /* the channel claim takes the node's channel-0 */
    size_t nd = g->nrequests + (device_plugin_mode ? g->ndp_resources : 0);
    c->demand = xcalloc(nd ? nd : 1, sizeof *c->demand);
    for (size_t i = 0; i < g->nrequests; i++) add_demand(s, c, g->requests[i].name, &g->requests[i].value);
    if (device_plugin_mode)
        for (size_t i = 0; i < g->ndp_resources; i++) add_demand(s, c, g->dp_resources[i].name, &g->dp_resources[i].value);
    /* zero requests are not demands (upstream skips them in Filter too) */
    size_t k = 0;
    for (size_t i = 0; i < c->ndemand; i++)
        if (c->demand[i].amount > 0) c->demand[k++] = c->demand[i];
    c->ndemand = k;
    c->nz_cpu = 100;                       /* DefaultMilliCPURequest */
    c->nz_mem = 200 * 1024 * 1024;         /* DefaultMemoryRequest */
    for (size_t i = 0; i < c->ndemand; i++) {
        if (c->demand[i].res == RES_CPU) c->nz_cpu = c->req_cpu = c->demand[i].amount;
        if (c->demand[i].res == RES_MEMORY) c->nz_mem = c->req_mem = c->demand[i].amount;
        if (c->demand[i].res > RES_PODS) c->next++;
    }
    /* DRA mode serving gpu.devicePlugin as extended resources: its nodeSelector still applies */
    bool dp_sel = device_plugin_mode || (g->has_dp && !g->ndra_claims);
    size_t nsel = g->nnode_selector + (dp_sel ? g->ndp_node_selector : 0);
    c->node_selector = xcalloc(nsel ? nsel : 1, sizeof *c->node_selector);
    for (size_t i = 0; i < g->nnode_selector; i++) c->node_selector[c->nnode_selector++] = g->node_selector[i];
    if (dp_sel)
        for (size_t i = 0; i < g->ndp_node_selector; i++) c->node_selector[c->nnode_selector++] = g->dp_node_selector[i];
    c->affinity = g->has_affinity ? &g->required_affinity : NULL;
    c->tolerations = g->tolerations;
    c->ntolerations = g->ntolerations;
    c->preempt_never = g->preempt_never;
    c->has_pdb = g->has_pdb;
    c->pdb_max = g->pdb_max;
    c->pdb_value = g->pdb_value;
    c->nominated = -1;
    class_gpu_shape(s, c, g);
    return (int)s->nclasses++;
}

/* Node `node` changed: blocked classes re-evaluate it now (waking any it now
 * fits, when `wake_blocked`), the others mark it to re-evaluate when tried.
 * `dir` says how: +1 a pod bound there (its free resources only shrank), -1
 * one left (they only grew), 0 anything else. With NodeResourcesFit the only
 * Filter that reads the node's state (s->monotone), a node that does not fit
 * a class cannot fit it after a bind, and when nothing scores (every node
 * that fits scores 0) one that fits still fits, with the same score, after a
 * release: that class's entry is already right (unless it is stale anyway). */
static void wake(scheduler *s, uint32_t ci);
static bool refresh(scheduler *s, pod_class *c, size_t node);
static void node_changed(scheduler *s, size_t node, bool wake_blocked, int dir) {
    int keep = -1;   /* the fits bit whose entry stays right, -1 = none */
    if (s->node_sid) sched_states_note(s, node, dir == 0);   /* its new state's id (its rows are in cache now) */
    if (s->monotone && dir > 0) keep = 0;
    if (s->monotone && dir < 0 && !s->nscorers) keep = 1;
    /* local bounds: the stores below through o would otherwise make the
     * compiler reload s->classes and s->nclasses every class (a gang run
     * with 200 classes spends half its time in this loop) */
    pod_class *const first = s->classes, *const end = first + s->nclasses;
    for (pod_class *o = first; o < end; o++) {
        if (keep >= 0 && (int)BIT_GET(o->fits, node) == keep && !BIT_GET(o->dirty, node)) continue;
        if (o->blocked) {
            if (refresh(s, o, node) && wake_blocked) wake(s, (uint32_t)(o - first));
            continue;
        }
        if (!BIT_GET(o->dirty, node)) {
            BIT_SET(o->dirty, node);
            if (o->ndirty < SCHED_DIRTY_LIST) o->dirty_list[o->ndirty] = (uint32_t)node;
            o->ndirty++;
        }
    }
}

void sched_node_changed(scheduler *s, size_t node) { node_changed(s, node, true, 0); }

/* Refresh the dirty nodes in node order either way: from the short list
 * (sorted; a flush between two attempts of a class usually has a handful),
 * or, when more changed than it holds, by scanning the bitmap. */
void sched_flush_class(scheduler *s, uint32_t ci) {
    pod_class *c = &s->classes[ci];
    size_t nd = c->ndirty;
    if (!nd) return;
    c->ndirty = 0;
    if (nd <= SCHED_DIRTY_LIST) {
        uint32_t *d = c->dirty_list;
        for (size_t i = 1; i < nd; i++) {   /* insertion sort: a few entries */
            uint32_t x = d[i];
            size_t j = i;
            for (; j > 0 && d[j - 1] > x; j--) d[j] = d[j - 1];
            d[j] = x;
        }
        for (size_t i = 0; i < nd; i++) {   /* what refresh reads, fetched together rather than one miss after another */
            __builtin_prefetch(&c->score[d[i]]);
            if (c->memo) {
                __builtin_prefetch(&s->node_sid[d[i]]);
            } else if (s->plain) {
                __builtin_prefetch(&s->alloc[d[i] * s->nres]);
                __builtin_prefetch(&s->used[d[i] * s->nres]);
                __builtin_prefetch(&s->nz_used[d[i] * 2]);
            }
        }
        for (size_t i = 0; i < nd; i++) {
            BIT_CLR(c->dirty, d[i]);
            refresh(s, c, d[i]);
        }
        return;
    }
    for (size_t w = 0; w < s->nwords && nd; w++) {
        uint64_t bits = c->dirty[w];
        if (!bits) continue;
        c->dirty[w] = 0;
        for (; bits; bits &= bits - 1) {
            refresh(s, c, (w << 6) + (size_t)__builtin_ctzll(bits));
            nd--;
        }
    }
}

/* Node `node`'s score in class c went from `old` to `v`: keep its word's best
 * score and the nodes that have it (c->wmax/wbest, read by find_best) true
 * without rescanning the word. Only a drop of the word's last best score
 * loses them (wbest 0: recounted when find_best next needs it); an unknown
 * word where no other node fits gets v as its best (the others are INT32_MIN). */
static inline void word_note(pod_class *c, size_t node, int32_t old, int32_t v) {
    size_t w = node >> 6;
    uint64_t best = c->wbest[w], bit = (uint64_t)1 << (node & 63);
    if (old == v) return;
    if (!best) {
        if (v != INT32_MIN && !(c->fits[w] & ~bit)) {
            c->wmax[w] = v;
            c->wbest[w] = bit;
        }
        return;
    }
    int32_t m = c->wmax[w];
    if (v > m) {
        c->wmax[w] = v;
        c->wbest[w] = bit;
    } else if (v == m) {
        c->wbest[w] = best | bit;
    } else if (old == m) {
        c->wbest[w] = best & ~bit;
    }
}

/* Recompute class c's cache entry for one node; true when it newly fits. */
static bool refresh(scheduler *s, pod_class *c, size_t node) {
    bool was = BIT_GET(c->fits, node), now = BIT_GET(c->eligible, node) && !(s->absent && BIT_GET(s->absent, node));
    int32_t v = INT32_MIN;            /* never the best: lets find_best take max over whole words */
    if (s->plain && now) {   /* the default plugins inlined (plugins/resources_plain.h), once per node state */
        uint32_t sid = c->memo ? s->node_sid[node] : SCHED_SID_NONE;
        int64_t m = sid != SCHED_SID_NONE ? c->memo[sid] : SCHED_MEMO_UNKNOWN;
        if (m == SCHED_MEMO_UNKNOWN) {
            m = SCHED_MEMO_NOFIT;
            if (res_plain_fits(s, c, node)) m = (int32_t)res_plain_score(s, c, node, s->plain_wf, s->plain_wb, s->plain_most);
            if (sid != SCHED_SID_NONE) c->memo[sid] = m;
        }
        now = m != SCHED_MEMO_NOFIT;
        if (now) v = (int32_t)m;
    } else if (!s->plain) {
        for (size_t p = 0; p < s->nfilters && now; p++) now = s->filters[p](s, c, node, NULL);
    }
    if (now && !s->plain) {
        int64_t total = 0;
        for (size_t p = 0; p < s->nscorers; p++) total += s->scorer_weights[p] * s->scorers[p](s, c, node);
        v = (int32_t)total;
    }
    word_note(c, node, c->score[node], v);
    c->score[node] = v;
    if (now && !was) { BIT_SET(c->fits, node); c->nfit++; }
    if (!now && was) { BIT_CLR(c->fits, node); c->nfit--; }
    return now && !was;
}

static void prepare_static(scheduler *s, size_t ci);
static void probe_dra_shape(scheduler *s, size_t ci);
static void prepare_scores(scheduler *s, size_t ci);

/* The view's node i: CPU, memory, pods, and its GPUs: from the inventory
 * (cfg.gpu_nodes; DRA: the GPUs of its ResourceSlices) or from the
 * allocatable GPU resources; then per GPU resource its units per GPU and
 * milli per unit (unit u of a resource is on GPU u / per_gpu: drasim's
 * numbering, the device plugin's device IDs are opaque). */
static void view_node(scheduler *s, size_t i) {
    size_t R = s->nres;
    const int64_t *al = &s->alloc[i * R];
    int64_t units = 0, milli = 0, any = 0;
    int slices, reps = s->gv.replicas;
    for (size_t r = RES_PODS + 1; r < R; r++) {
        int kind = gpu_resource(s->res_names[r], &slices);
        if (kind == GRES_UNITS) units += al[r];
        if (kind == GRES_MILLI) milli += al[r];
        if (kind != GRES_NONE) any += al[r];
    }
    int ngpu = (int)(milli ? milli / GS_MILLI : units / reps);
    const char *model = NULL;
    if (s->cfg.gpu_nodes) {
        model = s->cfg.gpu_nodes[i].model;
        ngpu = any > 0 ? s->cfg.gpu_nodes[i].ngpu : 0;
    }
    if (s->cfg.dra) ngpu = dra_node_gpu_count(s->cfg.dra, i);
    if (ngpu > GS_MAX_GPUS) ngpu = GS_MAX_GPUS;
    gpu_view_set_node(&s->gv, i, al[RES_CPU], al[RES_MEMORY] >> 20, (int32_t)al[RES_PODS], ngpu, model);
    for (size_t r = RES_PODS + 1; r < R && ngpu > 0; r++) {
        int kind = gpu_resource(s->res_names[r], &slices);
        if (kind == GRES_NONE || al[r] <= 0) continue;
        int64_t per = al[r] / ngpu;
        if (per <= 0) continue;
        s->per_gpu[i * R + r] = (int32_t)per;
        s->unit_milli[i * R + r] = (int16_t)(kind == GRES_MILLI ? 1 : kind == GRES_UNITS ? GS_MILLI / per
                                                                    : slices * GS_MILLI / 7 / reps);
    }
}

/* Typical pods of the classes registered so far, each counted by its pod group's
 * count (frag.h; the 95 % popularity rule, CPU-only shapes included). */
static void typical_from_classes(scheduler *s) {
    frag_pod_in *in = xmalloc((s->nclasses ? s->nclasses : 1) * sizeof *in);
    int64_t *count = xmalloc((s->nclasses ? s->nclasses : 1) * sizeof *count);
    for (size_t ci = 0; ci < s->nclasses; ci++) {
        const pod_class *c = &s->classes[ci];
        in[ci] = (frag_pod_in){c->shape.cpu, c->shape.milli, c->shape.ngpu, c->gpu_spec, c->shape.models};
        count[ci] = c->typical_count;
    }
    frag_typical_free(&s->typical);
    frag_typical_build_counted(in, count, s->nclasses, s->cfg.typical_pct > 0 ? s->cfg.typical_pct : 95, true,
                               &s->typical);
    if (s->cfg.typical_artifact) frag_typical_artifact(&s->typical);
    free(in);
    free(count);
}

void sched_prepare(scheduler *s) {
    size_t n = s->nnodes, R = s->nres;
    size_t cells = n * R + 1;
    s->alloc = xcalloc(cells, sizeof *s->alloc);
    s->used = xcalloc(cells, sizeof *s->used);
    s->nz_used = xcalloc(n * 2 + 1, sizeof *s->nz_used);
    s->units_free = xcalloc(cells, sizeof *s->units_free);
    s->unit_milli = xcalloc(cells, sizeof *s->unit_milli);
    s->per_gpu = xcalloc(cells, sizeof *s->per_gpu);
    for (size_t i = 0; i < n; i++) {
        const k8s_node *node = &s->nodes[i];
        s->alloc[i * R + RES_PODS] = 110;   /* kubelet default maxPods when not stated */
        for (size_t a = 0; a < node->nallocatable; a++) {
            int r = sched_res_index(s, node->allocatable[a].name);
            if (r >= 0) s->alloc[i * R + r] = amount_of((size_t)r, &node->allocatable[a].value);
        }
        for (size_t r = RES_PODS + 1; r < R; r++) {
            int64_t v = s->alloc[i * R + r];
            if (v > 0 && v <= 64) s->units_free[i * R + r] = v == 64 ? ~(uint64_t)0 : (((uint64_t)1 << v) - 1);
        }
        view_node(s, i);
    }
    s->scratch = xmalloc((n ? n : 1) * sizeof *s->scratch);
    s->ties = xmalloc((s->nwords + 4) * sizeof *s->ties);   /* a walk visits each word once, the start word twice */
    s->heap_cap = s->nclasses ? s->nclasses : 1;
    s->heap = xmalloc(s->heap_cap * sizeof *s->heap);
    sched_states_init(s);
    for (size_t ci = 0; ci < s->nclasses; ci++) prepare_static(s, ci);
    for (size_t ci = 0; s->dra && ci < s->nclasses; ci++) probe_dra_shape(s, ci);
    typical_from_classes(s);
    s->typical_in = &s->typical;
    gpu_view_set_typical(&s->gv, s->typical_in);
    for (size_t ci = 0; ci < s->nclasses; ci++) prepare_scores(s, ci);
}

void sched_rebuild_typical(scheduler *s) {
    typical_from_classes(s);
    sched_set_typical(s, NULL);
}

void sched_set_typical(scheduler *s, const frag_typical *t) {
    s->typical_in = t ? t : &s->typical;
    gpu_view_set_typical(&s->gv, s->typical_in);
    for (size_t ci = 0; s->alloc && ci < s->nclasses; ci++) sched_refresh_class(s, (uint32_t)ci);
}

int sched_add_class_late(scheduler *s, const pod_group_spec *g, bool device_plugin_mode) {
    for (size_t i = 0; i < g->nrequests; i++)
        if (sched_res_index(s, g->requests[i].name) < 0) return -1;
    for (size_t i = 0; device_plugin_mode && i < g->ndp_resources; i++)
        if (sched_res_index(s, g->dp_resources[i].name) < 0) return -1;
    int ci = sched_add_class(s, g, device_plugin_mode);
    if (s->nclasses > s->heap_cap) {   /* the heap holds each class at most once */
        s->heap_cap = s->classes_cap;
        s->heap = xrealloc(s->heap, s->heap_cap * sizeof *s->heap);
    }
    prepare_static(s, (size_t)ci);
    if (s->dra) probe_dra_shape(s, (size_t)ci);
    prepare_scores(s, (size_t)ci);
    return ci;
}

/* DRA mode: class ci's GPU demand from a first allocation (dra_probe_shape). */
static void probe_dra_shape(scheduler *s, size_t ci) {
    pod_class *c = &s->classes[ci];
    gs_pod shape = c->shape;
    bool mig;
    if (!c->prefiltered || !dra_probe_shape(s, (uint32_t)ci, &shape, &mig)) return;
    c->shape = shape;
    c->dra_gpus = true;
    c->dra_mig = mig;
}

/* Class ci's state-independent part: eligible nodes, the GPU models it may use. */
static void prepare_static(scheduler *s, size_t ci) {
    size_t n = s->nnodes;
    pod_class *c = &s->classes[ci];
    c->eligible = xcalloc(s->nwords ? s->nwords : 1, sizeof *c->eligible);
    c->fits = xcalloc(s->nwords ? s->nwords : 1, sizeof *c->fits);
    c->dirty = xcalloc(s->nwords ? s->nwords : 1, sizeof *c->dirty);
    /* whole words (word_recount reads a word's 64 even past the last node), INT32_MIN beyond the last */
    size_t nsc = (s->nwords ? s->nwords : 1) * 64;
    c->score = xmalloc(nsc * sizeof *c->score);
    for (size_t i = 0; i < nsc; i++) c->score[i] = INT32_MIN;   /* fits nowhere yet (word_note relies on it) */
    c->wmax = xcalloc(s->nwords ? s->nwords : 1, sizeof *c->wmax);
    c->wbest = xcalloc(s->nwords ? s->nwords : 1, sizeof *c->wbest);
    c->dirty_list = xmalloc(SCHED_DIRTY_LIST * sizeof *c->dirty_list);
    if (s->cfg.policy) c->choice = xcalloc(n ? n : 1, 1);
    sched_states_class(s, c);
    bool pre = true;
    for (size_t p = 0; p < s->nplugins && pre; p++)
        if (s->plugins[p]->pre_filter) pre = s->plugins[p]->pre_filter(s, c, NULL);
    c->prefiltered = pre;
    uint64_t models = 0;
    for (size_t i = 0; i < n && pre; i++) {
        bool ok = true;
        for (size_t p = 0; p < s->nplugins && ok; p++)
            if (s->plugins[p]->filter_static) ok = s->plugins[p]->filter_static(s, c, i, NULL);
        if (ok) {
            BIT_SET(c->eligible, i);
            if (s->gv.nodes[i].model >= 0) models |= (uint64_t)1 << s->gv.nodes[i].model;
        }
    }
    /* a GPU pod may use the models of the nodes it is eligible for; all of them: no constraint */
    uint64_t all = s->gv.nmodels >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << s->gv.nmodels) - 1);
    c->shape.models = (models & all) == all ? ~(uint64_t)0 : models;
    if (c->gpu_spec && *c->gpu_spec) {   /* a trace shape's model constraint: the models it names */
        c->shape.models = 0;
        for (int m = 0; m < s->gv.nmodels; m++)
            if (gs_spec_allows(c->gpu_spec, s->gv.models[m])) c->shape.models |= (uint64_t)1 << m;
    }
}

/* Class ci's Filter/Score caches against the current node state. */
static void prepare_scores(scheduler *s, size_t ci) {
    pod_class *c = &s->classes[ci];
    for (size_t i = 0; i < s->nnodes && c->prefiltered; i++) refresh(s, c, i);
}

void sched_free(scheduler *s) {
    for (size_t ci = 0; ci < s->nclasses; ci++) {
        pod_class *c = &s->classes[ci];
        free(c->demand);
        free(c->node_selector);
        free(c->eligible);
        free(c->fits);
        free(c->dirty);
        free(c->dirty_list);
        free(c->score);
        free(c->wmax);
        free(c->wbest);
        free(c->choice);
        free(c->memo);
        free(c->pending);
    }
    free(s->classes);
    free((void *)s->plugins);
    free(s->alloc);
    free(s->used);
    free(s->nz_used);
    free(s->units_free);
    free(s->units_off);
    free(s->units_off_idle);
    free(s->unit_milli);
    free(s->per_gpu);
    free(s->scratch);
    free(s->ties);
    free(s->heap);
    free(s->retry);
    free(s->absent);
    sched_states_free(s);
    gpu_view_free(&s->gv);
    frag_typical_free(&s->typical);
    preempt_free(s);
    memset(s, 0, sizeof *s);
}

/* ---- the queue: a heap of classes by (higher priority, earlier head pod) ---------- */

static bool class_before(const scheduler *s, uint32_t a, uint32_t b) {
    const pod_class *x = &s->classes[a], *y = &s->classes[b];
    if (x->priority != y->priority) return x->priority > y->priority;
    return x->pending[x->head] < y->pending[y->head];
}

static void heap_push(scheduler *s, uint32_t c) {
    size_t i = s->heap_len++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!class_before(s, c, s->heap[parent])) break;
        s->heap[i] = s->heap[parent];
        i = parent;
    }
    s->heap[i] = c;
    s->classes[c].in_heap = true;
}

static uint32_t heap_pop(scheduler *s) {
    uint32_t top = s->heap[0], last = s->heap[--s->heap_len];
    size_t i = 0, n = s->heap_len;
    for (;;) {
        size_t ch = 2 * i + 1;
        if (ch >= n) break;
        if (ch + 1 < n && class_before(s, s->heap[ch + 1], s->heap[ch])) ch++;
        if (!class_before(s, s->heap[ch], last)) break;
        s->heap[i] = s->heap[ch];
        i = ch;
    }
    if (n) s->heap[i] = last;
    s->classes[top].in_heap = false;
    return top;
}

size_t sched_waiting(const scheduler *s, uint32_t c) { return s->classes[c].len - s->classes[c].head; }

void sched_enqueue(scheduler *s, uint32_t ci, uint32_t pod) {
    pod_class *c = &s->classes[ci];
    if (c->len == c->cap) {
        if (c->head > c->cap / 2) {   /* reuse the consumed front */
            memmove(c->pending, c->pending + c->head, (c->len - c->head) * sizeof *c->pending);
            c->len -= c->head;
            c->head = 0;
        } else {
            c->cap = c->cap ? c->cap * 2 : 16;
            c->pending = xrealloc(c->pending, c->cap * sizeof *c->pending);
        }
    }
    c->pending[c->len++] = pod;
    if (!c->blocked && !c->in_heap && !c->backing_off) heap_push(s, ci);
}

/* Take class c out of the heap (it is in it). */
static void heap_remove(scheduler *s, uint32_t c) {
    size_t i = 0;
    while (i < s->heap_len && s->heap[i] != c) i++;
    if (i == s->heap_len) return;
    /* rebuild from the rest: O(classes), deletions are rare */
    uint32_t *rest = s->heap;
    size_t n = s->heap_len;
    rest[i] = rest[n - 1];
    s->heap_len = 0;
    s->classes[c].in_heap = false;
    for (size_t k = 0; k + 1 < n; k++) heap_push(s, rest[k]);
}

bool sched_remove(scheduler *s, uint32_t ci, uint32_t pod) {
    pod_class *c = &s->classes[ci];
    size_t i = c->head;
    while (i < c->len && c->pending[i] != pod) i++;
    if (i == c->len) return false;
    bool was_head = i == c->head;
    bool in_heap = c->in_heap;
    if (in_heap && was_head) heap_remove(s, ci);   /* its key (the head pod) changes */
    memmove(c->pending + i, c->pending + i + 1, (c->len - i - 1) * sizeof *c->pending);
    c->len--;
    if (was_head) {   /* the next head pod has not failed yet */
        c->head_failures = 0;
        if (!c->backing_off) c->backoff_until = 0;
    }
    if (!sched_waiting(s, ci)) {
        if (c->in_heap) heap_remove(s, ci);
    } else if (was_head && in_heap && !c->in_heap) {
        heap_push(s, ci);
    }
    return true;
}

/* One pass over class ci's queue, keeping order (a gang's rejection takes out
 * all its pods at once: n calls of sched_remove would cost O(n^2)). The
 * result is that of sched_remove on each dropped pod. */
size_t sched_remove_if(scheduler *s, uint32_t ci, bool (*drop)(void *ctx, uint32_t pod), void *ctx) {
    pod_class *c = &s->classes[ci];
    size_t out = c->head;
    bool head_gone = false;
    for (size_t i = c->head; i < c->len; i++) {
        if (!drop(ctx, c->pending[i])) c->pending[out++] = c->pending[i];
        else if (i == c->head) head_gone = true;
    }
    size_t removed = c->len - out;
    if (!removed) return 0;
    c->len = out;
    bool in_heap = c->in_heap;
    if (in_heap && (head_gone || !sched_waiting(s, ci))) heap_remove(s, ci);   /* its key changed, or it is empty */
    if (head_gone) {   /* the next head pod has not failed yet */
        c->head_failures = 0;
        if (!c->backing_off) c->backoff_until = 0;
        if (in_heap && sched_waiting(s, ci)) heap_push(s, ci);
    }
    return removed;
}

void sched_take_class(scheduler *s, uint32_t c) {
    if (s->classes[c].in_heap) heap_remove(s, c);
}

bool sched_next(scheduler *s, uint32_t *c, uint32_t *pod) {
    if (!s->heap_len) return false;
    *c = heap_pop(s);
    *pod = s->classes[*c].pending[s->classes[*c].head];
    return true;
}

/* ---- the scheduling cycle ------------------------------------------------------------ */

size_t sched_num_nodes_to_find(const scheduler *s) {
    size_t n = s->nnodes;
    if (n < 100 || s->cfg.percentage_of_nodes_to_score >= 100) return n;
    long pct = s->cfg.percentage_of_nodes_to_score;
    if (pct <= 0) {
        pct = 50 - (long)(n / 125);
        if (pct < 5) pct = 5;
    }
    size_t num = n * (size_t)pct / 100;
    return num < 100 ? 100 : num;
}

/* Largest of 64 scores (SSE2 has no signed 32-bit max: compare and blend). */
static int32_t max64(const int32_t *sc) {
#if defined(__SSE2__)
    __m128i a = _mm_loadu_si128((const __m128i *)sc), b = _mm_loadu_si128((const __m128i *)(sc + 4));
    for (int k = 8; k < 64; k += 8) {   /* two independent lanes of four */
        __m128i x = _mm_loadu_si128((const __m128i *)(sc + k)), y = _mm_loadu_si128((const __m128i *)(sc + k + 4));
        __m128i gx = _mm_cmpgt_epi32(x, a), gy = _mm_cmpgt_epi32(y, b);
        a = _mm_or_si128(_mm_and_si128(gx, x), _mm_andnot_si128(gx, a));
        b = _mm_or_si128(_mm_and_si128(gy, y), _mm_andnot_si128(gy, b));
    }
    int32_t m[8];
    _mm_storeu_si128((__m128i *)m, a);
    _mm_storeu_si128((__m128i *)(m + 4), b);
#else
    int32_t m[8];
    for (int j = 0; j < 8; j++) m[j] = sc[j];
    for (int k = 8; k < 64; k += 8)
        for (int j = 0; j < 8; j++) m[j] = sc[k + j] > m[j] ? sc[k + j] : m[j];
#endif
    int32_t r = m[0];
    for (int j = 1; j < 8; j++) r = m[j] > r ? m[j] : r;
    return r;
}

/* The scores of 64 that equal v, as a mask. */
static uint64_t eq_mask64(const int32_t *sc, int32_t v) {
    uint64_t m = 0;
#if defined(__SSE2__)
    __m128i x = _mm_set1_epi32(v);
    for (int k = 0; k < 64; k += 4) {
        __m128i e = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(sc + k)), x);
        m |= (uint64_t)(unsigned)_mm_movemask_ps(_mm_castsi128_ps(e)) << k;
    }
#else
    for (int k = 0; k < 64; k++) m |= (uint64_t)(sc[k] == v) << k;
#endif
    return m;
}

/* Word w's best score and the nodes that have it, recounted. */
static void word_recount(pod_class *c, size_t w) {
    const int32_t *sc = &c->score[w << 6];
    c->wmax[w] = max64(sc);
    c->wbest[w] = eq_mask64(sc, c->wmax[w]);
}

/* A walk over the feasible nodes (find_best): how many were found of the
 * `want` to find, the best score, how many nodes have it (ties), and where
 * they are: s->ties[0, nent) in walk order, each a part of one word. */
typedef struct walk {
    size_t found, want, ties, nent, last;
    int32_t best;
} walk;

/* Nodes `bits` (cnt of them) of word w, in walk order, have best score m,
 * which the nodes of `mask` have. */
static inline void walk_group(scheduler *s, walk *k, size_t w, uint64_t bits, size_t cnt, int32_t m, uint64_t mask) {
    k->found += cnt;
    k->last = (w << 6) + 63 - (size_t)__builtin_clzll(bits);
    if (m < k->best) return;
    if (m > k->best) { k->best = m; k->ties = 0; k->nent = 0; }
    k->ties += (size_t)__builtin_popcountll(mask);
    s->ties[k->nent++] = (sched_tie){.mask = mask, .word = (uint32_t)w};
}

/* The lowest j (1 <= j <= cnt) of the cnt set bits of `bits`. */
static inline uint64_t lowest_bits(uint64_t bits, size_t cnt, size_t j) {
    if (2 * j > cnt) {   /* drop the highest cnt - j */
        for (; cnt > j; cnt--) bits &= ~((uint64_t)1 << (63 - __builtin_clzll(bits)));
        return bits;
    }
    uint64_t x = bits;
    for (size_t i = 1; i < j; i++) x &= x - 1;   /* its lowest bit is the j-th */
    x &= -x;
    return bits & (x | (x - 1));
}

/* The fitting nodes of `bits` (a part of word w) one by one, until `want` are found. */
static void walk_bits(scheduler *s, const pod_class *c, walk *k, size_t w, uint64_t bits) {
    uint64_t mask = 0;   /* this word's nodes with the best score so far */
    while (bits && k->found < k->want) {
        uint64_t bit = bits & -bits;
        size_t i = (w << 6) + (size_t)__builtin_ctzll(bits);
        bits ^= bit;
        k->found++;
        k->last = i;
        int32_t sc = c->score[i];
        if (sc > k->best) { k->best = sc; k->ties = 0; k->nent = 0; mask = 0; }
        if (sc == k->best) { mask |= bit; k->ties++; }
    }
    if (mask) s->ties[k->nent++] = (sched_tie){.mask = mask, .word = (uint32_t)w};
}

/* Part `bits` of word w (its fitting nodes in a range of it), where the walk
 * may end: the nodes still wanted, at once when some of them have the word's
 * best score (then their best, and those nodes tie), else node by node. */
static inline void walk_part(scheduler *s, pod_class *c, walk *k, size_t w, uint64_t bits) {
    if (!bits) return;
    size_t cnt = (size_t)__builtin_popcountll(bits), left = k->want - k->found;
    if (cnt > left) {
        bits = lowest_bits(bits, cnt, left);
        cnt = left;
    }
    if (!c->wbest[w]) word_recount(c, w);
    uint64_t best = c->wbest[w] & bits;
    if (!best) {
        walk_bits(s, c, k, w, bits);
        return;
    }
    walk_group(s, k, w, bits, cnt, c->wmax[w], best);
}

/* The feasible nodes in [from, to): whole words at once while all their
 * fitting nodes are still wanted (scores of nodes that do not fit are
 * INT32_MIN, so a word's best is that of its fitting nodes; refresh keeps
 * each word's best and count, recounted here if unknown), the ends and the
 * word where the walk ends as walk_part. */
static void walk_range(scheduler *s, pod_class *c, walk *k, size_t from, size_t to) {
    size_t w = from >> 6, wend = to >> 6;   /* words [w, wend) lie wholly inside once `from` is aligned */
    if (from >= to) return;
    if (from & 63) {
        uint64_t bits = c->fits[w] & (~(uint64_t)0 << (from & 63));
        if (w == wend) {   /* from and to in one word */
            walk_part(s, c, k, w, bits & (((uint64_t)1 << (to & 63)) - 1));
            return;
        }
        walk_part(s, c, k, w++, bits);
    }
    for (; w < wend && k->found < k->want; w++) {
        uint64_t bits = c->fits[w];
        if (!bits) continue;
        size_t cnt = (size_t)__builtin_popcountll(bits);
        if (cnt > k->want - k->found) {   /* the walk ends inside this word */
            walk_part(s, c, k, w, bits);
            return;
        }
        if (!c->wbest[w]) word_recount(c, w);
        walk_group(s, k, w, bits, cnt, c->wmax[w], c->wbest[w]);
    }
    if ((to & 63) && k->found < k->want) walk_part(s, c, k, wend, c->fits[wend] & (((uint64_t)1 << (to & 63)) - 1));
}

/* Walk the feasible nodes of c from `start` (wrapping), stopping after `want`
 * of them, and pick one of the best-scored uniformly at random (selectHost):
 * the r-th of the ties in walk order, located only in the winner's word.
 * Returns how many nodes were passed over (processedNodes).
 * kubernetes v1.33 pkg/scheduler/schedule_one.go: findNodesThatPassFilters
 * checks nodes from nextStartNodeIndex until numFeasibleNodesToFind pass,
 * schedulePod advances the index by processedNodes, and selectHost picks
 * uniformly among the top scores. */
static size_t find_best(scheduler *s, pod_class *c, size_t start, size_t want, size_t *chosen) {
    size_t n = s->nnodes;
    walk k = {.want = want, .last = start, .best = INT32_MIN};
    walk_range(s, c, &k, start, n);
    if (k.found < want) walk_range(s, c, &k, 0, start);
    size_t r = k.ties > 1 ? (size_t)rng_below(&s->rng, k.ties) : 0;
    *chosen = 0;
    for (size_t e = 0; e < k.nent; e++) {
        size_t w = s->ties[e].word;
        uint64_t mask = s->ties[e].mask;
        size_t here = (size_t)__builtin_popcountll(mask);
        if (r >= here) { r -= here; continue; }
        for (; r; r--) mask &= mask - 1;   /* all of mask tie: its r-th node */
        *chosen = (w << 6) + (size_t)__builtin_ctzll(mask);
        break;
    }
    if (k.found < want) return n;   /* scanned every node */
    return k.last >= start ? k.last - start + 1 : n - start + k.last + 1;
}

/* The GPUs the placement policy chose for class c on `node` (its Score's
 * choice; Random draws at Reserve); false when no policy decides. */
static bool policy_gpus(scheduler *s, const pod_class *c, size_t node, uint32_t *gpus) {
    if (!s->cfg.policy || c->shape.milli <= 0 || (c->gpu_res < 0 && !c->dra_gpus)) return false;
    const gs_node *n = &s->gv.nodes[node];
    gs_pod shape = sched_node_shape(s, c, node);
    if (s->cfg.policy->reserve_gpus)
        *gpus = s->cfg.go ? policy_random_gpus_go(n, &shape, s->cfg.go) : s->cfg.policy->reserve_gpus(n, &shape, &s->rng);
    else *gpus = c->choice[node];
    return true;
}

/* Take `amount` units of GPU resource r on `node` from the GPUs in `gpus`
 * (unit u belongs to GPU u / replicas), lowest free units first. */
static uint64_t take_units_on(uint64_t *freem, int64_t amount, uint32_t gpus, int reps) {
    int ng = __builtin_popcount(gpus);
    int64_t per = ng ? amount / ng : 0, extra = ng ? amount % ng : 0;
    uint64_t take = 0;
    for (int g = 0; g < GS_MAX_GPUS; g++) {
        if (!((gpus >> g) & 1)) continue;
        int64_t want = per + (extra-- > 0);
        for (int u = g * reps; u < (g + 1) * reps && u < 64 && want > 0; u++)
            if ((*freem >> u) & 1) {
                take |= (uint64_t)1 << u;
                *freem &= ~((uint64_t)1 << u);
                want--;
            }
    }
    return take;
}

/* Per-GPU milli that placement p of class c holds on its node (from its units
 * when the GPU resource's units are tracked, else the shape on p->gpus). */
static void placement_milli(const scheduler *s, const pod_class *c, const placement *p, int16_t milli[GS_MAX_GPUS]) {
    memset(milli, 0, GS_MAX_GPUS * sizeof *milli);
    if (c->gpu_res < 0) return;
    size_t e = 0, k = (size_t)p->node * s->nres + (size_t)c->gpu_res;
    for (size_t i = 0; i < c->ndemand; i++) {
        size_t r = c->demand[i].res;
        if (r <= RES_PODS) continue;
        if ((int)r == c->gpu_res && e < 8 && p->units[e] && s->per_gpu[k] == 1 && s->unit_milli[k] == GS_MILLI) {
            /* one unit, one whole GPU */
            for (uint64_t bits = p->units[e]; bits; bits &= bits - 1)
                if (__builtin_ctzll(bits) < GS_MAX_GPUS) milli[__builtin_ctzll(bits)] = GS_MILLI;
            return;
        }
        if ((int)r == c->gpu_res && e < 8 && p->units[e] && s->per_gpu[k]) {
            int per = s->per_gpu[k], count[GS_MAX_GPUS] = {0};
            for (uint64_t bits = p->units[e]; bits; bits &= bits - 1) {
                int g = __builtin_ctzll(bits) / per;
                if (g < GS_MAX_GPUS) count[g]++;
            }
            /* all units of a GPU, when the resource covers the whole GPU (replicas, MIG devices of one
             * profile filling it): the whole GPU, though per need not divide 1000 */
            bool covers = s->unit_milli[k] * per >= GS_MILLI - per;
            for (int g = 0; g < GS_MAX_GPUS; g++)
                milli[g] = (int16_t)(covers && count[g] == per ? GS_MILLI : count[g] * s->unit_milli[k]);
            return;
        }
        e++;
    }
    gs_pod shape = sched_node_shape(s, c, (size_t)p->node);
    for (int g = 0; g < GS_MAX_GPUS; g++)
        if ((p->gpus >> g) & 1) milli[g] = (int16_t)shape.milli;
}

static void bind(scheduler *s, uint32_t ci, size_t node, placement *p) {
    pod_class *c = &s->classes[ci];
    size_t R = s->nres;
    int64_t *used = &s->used[node * R];
    size_t e = 0;
    uint32_t gpus = 0;
    bool chosen = policy_gpus(s, c, node, &gpus);
    if (!chosen && c->gpu_res >= 0 && !s->units_free[node * R + (size_t)c->gpu_res]) {   /* untracked units (milli-GPU) */
        gs_pod shape = sched_node_shape(s, c, node);
        gpus = gs_default_gpus(&s->gv.nodes[node], &shape);
    }
    used[RES_PODS]++;
    for (size_t i = 0; i < c->ndemand; i++) {
        size_t r = c->demand[i].res;
        used[r] += c->demand[i].amount;
        if (r > RES_PODS && e < sizeof p->units / sizeof *p->units) {
            uint64_t take = 0, *freem = &s->units_free[node * R + r];
            if (chosen && (int)r == c->gpu_res && *freem) {
                take = take_units_on(freem, c->demand[i].amount, gpus, s->per_gpu[node * R + r]);
            } else {
                for (int64_t k = 0; k < c->demand[i].amount && *freem; k++) {   /* lowest free units first */
                    uint64_t bit = *freem & -*freem;
                    take |= bit;
                    *freem &= ~bit;
                }
            }
            p->units[e++] = take;
        }
    }
    s->nz_used[node * 2] += c->nz_cpu;
    s->nz_used[node * 2 + 1] += c->nz_mem;
    if (s->cfg.trace_dra) {   /* the allocator allocates on the node: the policy's GPUs, or its own first fit */
        uint32_t dev;
        uint32_t prefer = s->cfg.device_by_allocator ? 0 : gpus;
        if (dra_openb_allocate(s->cfg.trace_dra, p->pod, ci, node, prefer, &dev) && dev != gpus) {
            gpus = dev;
            s->dra_moved++;
        }
    }
    p->node = (int32_t)node;
    p->gpus = gpus;
    int16_t milli[GS_MAX_GPUS];
    placement_milli(s, c, p, milli);
    if (c->gpu_res >= 0 && !chosen) {   /* the GPUs its units landed on */
        p->gpus = 0;
        for (int g = 0; g < GS_MAX_GPUS; g++)
            if (milli[g]) p->gpus |= 1u << g;
    }
    gpu_view_take_milli(&s->gv, node, &c->shape, milli, +1);
    for (size_t pi = 0; pi < s->nplugins; pi++)
        if (s->plugins[pi]->reserve) s->plugins[pi]->reserve(s, c, node, p);
    if (s->pre) preempt_bound(s, ci, p);
    node_changed(s, node, false, +1);
}

/* Profile openb-artifact: the feasible node with the best score, ties to the
 * smallest tie rank (the name that sorts first); Random's policy: one
 * feasible node drawn uniformly (Go's stream when the artifact's draws are
 * modelled: rand.Intn over the feasible nodes in node order). */
static size_t pick_ranked(scheduler *s, const pod_class *c) {
    size_t best = SIZE_MAX;
    int32_t best_score = INT32_MIN;
    if (s->cfg.policy && s->cfg.policy->random_pick) {
        int64_t k = 0;
        if (c->nfit > 1) k = s->cfg.go ? gorand_intn(s->cfg.go, (int64_t)c->nfit) : (int64_t)rng_below(&s->rng, c->nfit);
        for (size_t w = 0; w < s->nwords; w++)
            for (uint64_t bits = c->fits[w]; bits; bits &= bits - 1)
                if (k-- == 0) return (w << 6) + (size_t)__builtin_ctzll(bits);
    }
    for (size_t w = 0; w < s->nwords; w++)
        for (uint64_t bits = c->fits[w]; bits; bits &= bits - 1) {
            size_t i = (w << 6) + (size_t)__builtin_ctzll(bits);
            int32_t sc = c->score[i];
            if (sc > best_score || (sc == best_score && s->cfg.tie_rank[i] < s->cfg.tie_rank[best])) {
                best = i;
                best_score = sc;
            }
        }
    return best;
}

bool sched_schedule_head(scheduler *s, uint32_t ci, placement *p) {
    pod_class *c = &s->classes[ci];
    sched_flush_class(s, ci);
    memset(p, 0, sizeof *p);
    p->node = -1;
    s->cycles++;
    c->attempts++;
    if (s->cfg.go) (void)gorand_intn(s->cfg.go, 100);   /* plugin-metrics sampling (policy.h: the artifact's draws) */
    if (c->nfit == 0 && s->cfg.drop_unschedulable) {      /* the artifact: no retry, the pod stays pending */
        if (s->cfg.go) (void)gorand_int31n(s->cfg.go, (int32_t)s->nnodes);   /* DefaultPreemption's draw */
        c->failures++;
        s->dropped++;
        p->pod = c->pending[c->head++];
        if (sched_waiting(s, ci) && !c->in_heap) heap_push(s, ci);
        return false;
    }
    if (c->nfit == 0) {
        if (s->cfg.go) (void)gorand_int31n(s->cfg.go, (int32_t)s->nnodes);
        c->failures++;
        c->blocked = true;   /* every node was filtered: nextStartNodeIndex does not move */
        c->head_failures++;
        if (s->cfg.backoff_initial_ms > 0) {   /* initial * 2^(failures-1), capped */
            int64_t d = s->cfg.backoff_initial_ms;
            for (uint32_t k = 1; k < c->head_failures && d < s->cfg.backoff_max_ms; k++) d *= 2;
            c->backoff_until = s->now + (d < s->cfg.backoff_max_ms ? d : s->cfg.backoff_max_ms);
        }
        if (s->pre) preempt_post_filter(s, ci, c->pending[c->head]);   /* PostFilter */
        return false;
    }
    size_t node;
    if (c->nominated >= 0 && c->nominated_pod == c->pending[c->head] && BIT_GET(c->fits, (size_t)c->nominated)) {
        node = (size_t)c->nominated;   /* evaluateNominatedNode: the nominated node first, unscored */
    } else if (s->cfg.tie_rank) {
        node = pick_ranked(s, c);
    } else if (s->cfg.policy && s->cfg.policy->random_pick) {   /* Random: one feasible node, uniformly */
        size_t k = c->nfit > 1 ? (size_t)rng_below(&s->rng, c->nfit) : 0;
        node = 0;
        for (size_t w = 0; w < s->nwords && k != SIZE_MAX; w++)
            for (uint64_t bits = c->fits[w]; bits; bits &= bits - 1)
                if (k-- == 0) {
                    node = (w << 6) + (size_t)__builtin_ctzll(bits);
                    k = SIZE_MAX;
                    break;
                }
    } else if (c->nfit == 1) {
        /* One feasible node: taken unscored (kubernetes v1.33 pkg/scheduler/schedule_one.go, schedulePod:
         * "When only one node after predicate, just use it"). The walk would have passed every node
         * (processedNodes = all of them: nextStartNodeIndex stays) and drawn nothing for one tie. */
        size_t w = 0;
        while (!c->fits[w]) w++;
        node = (w << 6) + (size_t)__builtin_ctzll(c->fits[w]);
    } else {
        size_t start = s->next_start;
        size_t processed = find_best(s, c, start, sched_num_nodes_to_find(s), &node);
        s->next_start = (start + processed) % s->nnodes;
    }
    p->pod = c->pending[c->head];
    c->head++;
    c->head_failures = 0;   /* the next head pod has not failed yet */
    c->backoff_until = 0;
    c->nominated = -1;
    bind(s, ci, node, p);
    if (sched_waiting(s, ci) && !c->blocked) heap_push(s, ci);
    return true;
}

/* A blocked class fits somewhere again: back to the active queue, or to the
 * back-off list while its head pod's back-off runs. */
static void wake(scheduler *s, uint32_t ci) {
    pod_class *o = &s->classes[ci];
    o->blocked = false;
    if (!sched_waiting(s, ci) || o->in_heap || o->backing_off) return;
    if (s->now < o->backoff_until) {
        o->backing_off = true;
        s->retry = xrealloc(s->retry, (s->nretry + 1) * sizeof *s->retry);
        s->retry[s->nretry++] = ci;
        return;
    }
    heap_push(s, ci);
}

bool sched_take_retry(scheduler *s, uint32_t *c, int64_t *at) {
    if (!s->nretry) return false;
    *c = s->retry[--s->nretry];
    *at = s->classes[*c].backoff_until;
    return true;
}

void sched_retry(scheduler *s, uint32_t ci) {
    pod_class *o = &s->classes[ci];
    if (!o->backing_off) return;
    o->backing_off = false;
    if (!o->blocked && sched_waiting(s, ci) && !o->in_heap) heap_push(s, ci);
}

/* Device units u of resource r come back free on `node`, except those of an
 * unhealthy GPU (sched_health.c): they stay out, noted as idle-but-off when
 * a pod really released them (`note`), not in a preemption dry run. */
static void units_back(scheduler *s, size_t node, size_t r, uint64_t u, bool note) {
    size_t k = node * s->nres + r;
    if (s->units_off) {
        if (note) s->units_off_idle[k] |= u & s->units_off[k];
        u &= ~s->units_off[k];
    }
    s->units_free[k] |= u;
}

void sched_release(scheduler *s, uint32_t ci, const placement *p) {
    pod_class *c = &s->classes[ci];
    size_t node = (size_t)p->node, R = s->nres, e = 0;
    int64_t *used = &s->used[node * R];
    for (size_t pi = 0; pi < s->nplugins; pi++)
        if (s->plugins[pi]->unreserve) s->plugins[pi]->unreserve(s, c, node, p);
    if (s->pre) preempt_released(s, ci, p);
    int16_t milli[GS_MAX_GPUS];
    placement_milli(s, c, p, milli);
    gpu_view_take_milli(&s->gv, node, &c->shape, milli, -1);
    if (s->cfg.trace_dra) dra_openb_release(s->cfg.trace_dra, p->pod);
    used[RES_PODS]--;
    for (size_t i = 0; i < c->ndemand; i++) {
        size_t r = c->demand[i].res;
        used[r] -= c->demand[i].amount;
        if (r > RES_PODS && e < sizeof p->units / sizeof *p->units) units_back(s, node, r, p->units[e++], true);
    }
    s->nz_used[node * 2] -= c->nz_cpu;
    s->nz_used[node * 2 + 1] -= c->nz_mem;
    node_changed(s, node, true, -1);
}

void sched_dry_account(scheduler *s, uint32_t ci, const placement *p, int sign) {
    const pod_class *c = &s->classes[ci];
    size_t node = (size_t)p->node, R = s->nres, e = 0;
    int64_t *used = &s->used[node * R];
    int16_t milli[GS_MAX_GPUS];
    placement_milli(s, c, p, milli);
    gpu_view_take_milli(&s->gv, node, &c->shape, milli, sign);
    used[RES_PODS] += sign;
    for (size_t i = 0; i < c->ndemand; i++) {
        size_t r = c->demand[i].res;
        used[r] += sign * c->demand[i].amount;
        if (r > RES_PODS && e < sizeof p->units / sizeof *p->units) {
            if (sign < 0) units_back(s, node, r, p->units[e++], false);
            else s->units_free[node * R + r] &= ~p->units[e++];
        }
    }
    s->nz_used[node * 2] += sign * c->nz_cpu;
    s->nz_used[node * 2 + 1] += sign * c->nz_mem;
}

int sched_first_failing(const scheduler *s, uint32_t ci, size_t node) {
    const pod_class *c = &s->classes[ci];
    if (!BIT_GET(c->eligible, node) || (s->absent && BIT_GET(s->absent, node))) return 0;
    for (size_t p = 0; p < s->nplugins; p++)
        if (s->plugins[p]->filter && !s->plugins[p]->filter(s, c, node, NULL)) return (int)p;
    return -1;
}

void sched_set_present(scheduler *s, size_t node, bool present) {
    if (!s->absent) {
        if (present) return;
        s->absent = xcalloc(s->nwords ? s->nwords : 1, sizeof *s->absent);
    }
    if (present == !BIT_GET(s->absent, node)) return;
    if (present) BIT_CLR(s->absent, node);
    else BIT_SET(s->absent, node);
    node_changed(s, node, true, 0);
}

bool sched_try_bind(scheduler *s, uint32_t ci, size_t node, uint32_t pod, placement *p) {
    pod_class *c = &s->classes[ci];
    bool absent = s->absent && BIT_GET(s->absent, node);
    if (absent) BIT_CLR(s->absent, node);
    sched_flush_class(s, ci);
    refresh(s, c, node);
    bool ok = c->prefiltered && BIT_GET(c->fits, node);
    if (absent) BIT_SET(s->absent, node);
    if (!ok) {
        if (absent) refresh(s, c, node);
        return false;
    }
    memset(p, 0, sizeof *p);
    p->pod = pod;
    bind(s, ci, node, p);   /* marks the node changed: class c re-evaluates it before it is tried */
    if (absent && c->blocked) refresh(s, c, node);
    return true;
}

bool sched_bind_head_at(scheduler *s, uint32_t ci, size_t node, placement *p) {
    pod_class *c = &s->classes[ci];
    sched_flush_class(s, ci);
    if (!sched_waiting(s, ci) || !BIT_GET(c->fits, node)) return false;
    memset(p, 0, sizeof *p);
    s->cycles++;
    c->attempts++;
    p->pod = c->pending[c->head++];
    c->head_failures = 0;
    c->backoff_until = 0;
    c->nominated = -1;
    bind(s, ci, node, p);
    if (sched_waiting(s, ci) && !c->blocked) heap_push(s, ci);
    return true;
}

void sched_refresh_class(scheduler *s, uint32_t ci) {
    pod_class *c = &s->classes[ci];
    if (!c->fits) return;   /* before sched_prepare */
    bool newly = false;
    for (size_t i = 0; i < s->nnodes; i++) newly |= refresh(s, c, i);
    memset(c->dirty, 0, s->nwords * sizeof *c->dirty);
    c->ndirty = 0;
    if (newly && c->blocked) wake(s, ci);
}

/* ---- diagnostics ------------------------------------------------------------------------ */

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void sched_explain(const scheduler *s, uint32_t ci, strbuf *out) {
    const pod_class *c = &s->classes[ci];
    const char **names = xcalloc(s->nnodes * 4 + 8, sizeof *names);
    size_t *counts = xcalloc(s->nnodes * 4 + 8, sizeof *counts), nnames = 0;
    sb_clear(out);
    if (c->nfit) goto done;
    if (s->dra) dra_explain_begin(s, ci);
    size_t present = 0;   /* nodes the autoscaler has not added (absent) are not in the cluster */
    for (size_t i = 0; i < s->nnodes; i++) {
        if (!sched_node_present(s, i)) continue;
        present++;
        sched_reasons why = {0};
        for (size_t p = 0; p < s->nplugins; p++) {
            const sched_plugin *pl = s->plugins[p];
            bool ok = !pl->filter_static || pl->filter_static(s, c, i, &why);
            if (ok && pl->filter) ok = pl->filter(s, c, i, &why);
            if (!ok) break;
        }
        for (int k = 0; k < why.n; k++) {
            size_t j = 0;
            while (j < nnames && names[j] != why.r[k]) j++;
            if (j == nnames) names[nnames++] = why.r[k];
            counts[j]++;
        }
    }
    if (s->dra) dra_explain_end(s, ci);
    char **texts = xcalloc(nnames ? nnames : 1, sizeof *texts);
    for (size_t j = 0; j < nnames; j++) {
        strbuf b = {0};
        sb_printf(&b, "%zu %s", counts[j], names[j]);
        texts[j] = xstrdup(sb_str(&b));
        sb_free(&b);
    }
    qsort(texts, nnames, sizeof *texts, cmp_str);
    sb_printf(out, "0/%zu nodes are available: ", present);
    for (size_t j = 0; j < nnames; j++) {
        sb_printf(out, "%s%s", j ? ", " : "", texts[j]);
        free(texts[j]);
    }
    sb_putc(out, '.');
    free(texts);
done:
    free(names);
    free(counts);
}

/* ---- static-MIG fragmentation (device-plugin MIG resources, gpu_metrics.h) ---------- */

double sched_mig_static_pct(const scheduler *s) {
    size_t R = s->nres, np = 0;
    int slices[SCHED_MAX_RESOURCES];
    size_t res[SCHED_MAX_RESOURCES];
    for (size_t r = RES_PODS + 1; r < R; r++) {
        int g;
        if (gpu_resource(s->res_names[r], &g) == GRES_MIG) {
            slices[np] = g;
            res[np++] = r;
        }
    }
    if (!np || !s->alloc) return -1;
    double demand[SCHED_MAX_RESOURCES] = {0};
    for (size_t ci = 0; ci < s->nclasses; ci++) {
        const pod_class *c = &s->classes[ci];
        for (size_t i = 0; i < c->ndemand; i++)
            for (size_t k = 0; k < np; k++)
                if (c->demand[i].res == res[k]) demand[k] += (double)c->typical_count * (double)c->demand[i].amount;
    }
    int64_t *free_units = xcalloc(s->nnodes * np + 1, sizeof *free_units), total = 0;
    for (size_t i = 0; i < s->nnodes; i++) {
        bool mig = false;
        for (size_t k = 0; k < np; k++) {
            int64_t a = s->alloc[i * R + res[k]];
            free_units[i * np + k] = a - s->used[i * R + res[k]];
            mig |= a > 0;
        }
        if (mig) total += 7 * (int64_t)s->gv.nodes[i].ngpu * s->gv.replicas;   /* time-sliced MIG: R units per instance */
    }
    double pct = gpu_metrics_mig_static_pct(np, slices, demand, free_units, s->nnodes, total);
    free(free_units);
    return pct;
}
