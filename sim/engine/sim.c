/* sim.c -- the event loop of one run and its summary metrics (see sim.h). */
#include "engine/sim.h"
#include "queue/gate.h"
#include "engine/sim_evict.h"
#include "engine/sim_crash.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "engine/sim_usage.h"
#include "engine/sim_cost.h"
#include "sched/dra/dra.h"
#include "engine/sim_gang.h"
#include "engine/sim_topology.h"
#include "engine/sim_cd.h"
#include "engine/sim_pin.h"
#include "engine/sim_labels.h"
#include "sched/policies/policy_topology_pack.h"
#include "engine/sim_preempt.h"
#include "sched/dra/dra_openb.h"
#include "sched/policies/place_mig.h"
#include "sched/policies/policy.h"
#include "util/checked.h"
#include "util/gorand.h"
#include "util/intern.h"
#include "util/sort_i64.h"
#include "util/xalloc.h"

double sim_gpu_equiv(const char *res, int replicas) {
    if (replicas < 1) replicas = 1;
    if (!strcmp(res, "nvidia.com/gpu") || !strcmp(res, "nvidia.com/gpu.shared")) return 1.0 / replicas;
    if (!strcmp(res, "alibabacloud.com/gpu-milli")) return 0.001;   /* OpenB traces: milli-GPU */
    if (!strncmp(res, "nvidia.com/mig-", 15)) {
        int g = atoi(res + 15);
        return g > 0 && g <= 7 ? g / 7.0 / replicas : 0;
    }
    return 0;
}

/* Retry of a pod class whose head pod's back-off ends (scheduler back-off). */
enum {
    EV_BACKOFF_RETRY = EV_KIND_USER + 8,
    EV_TERMINATED = EV_KIND_USER + 9,   /* a terminating pod's grace period ended (sim_evict.c) */
    EV_SOURCE_BG = EV_KIND_USER + 10,   /* a source's background event (sim_schedule_background) */
    EV_QUEUE_WAKE = EV_KIND_USER + 11   /* the queue asked for a cycle (queue/gate.h take_wake); not live */
};

static void sim_init_with(sim_run *r, const scenario *sc, const k8s_node *nodes, const inv_node *info,
                          size_t nnodes, struct dra_state *dra);

void sim_init(sim_run *r, const scenario *sc, const k8s_node *nodes, size_t nnodes) {
    sim_init_with(r, sc, nodes, NULL, nnodes, NULL);
}

void sim_init_info(sim_run *r, const scenario *sc, const k8s_node *nodes, const inv_node *info, size_t nnodes) {
    sim_init_with(r, sc, nodes, info, nnodes, NULL);
}

int sim_init_inv(sim_run *r, const scenario *sc, const inventory *inv, strbuf *err) {
    struct dra_state *dra = NULL;
    if (sc->sched.mode == SCHED_MODE_DRA && !(dra = dra_new(sc, inv, err))) {
        memset(r, 0, sizeof *r);
        return -1;
    }
    sim_init_with(r, sc, inv->nodes, inv->info, inv->nnodes, dra);
    return 0;
}

static const k8s_node *rank_nodes;
static int cmp_node_name(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = strcmp(rank_nodes[x].meta.name, rank_nodes[y].meta.name);
    return c ? c : (x > y) - (x < y);
}

/* Per node, its position in name order (ties to the name that sorts first). */
static uint32_t *name_ranks(const k8s_node *nodes, size_t n) {
    uint32_t *order = xmalloc((n ? n : 1) * sizeof *order), *rank = xmalloc((n ? n : 1) * sizeof *rank);
    for (size_t i = 0; i < n; i++) order[i] = (uint32_t)i;
    rank_nodes = nodes;
    qsort(order, n, sizeof *order, cmp_node_name);
    rank_nodes = NULL;
    for (size_t i = 0; i < n; i++) rank[order[i]] = (uint32_t)i;
    free(order);
    return rank;
}

/* The scheduler's placement settings: the scenario's policy and profile;
 * a trace workload runs the FGD artifact's scheduler (sched.h,
 * docs/PLACEMENT.md): the Open-Gpu-Share filter, the policy as the only
 * score (weight 1000), every node scored, ties to the name that sorts
 * first, no back-off; with profile openb-artifact also Go's draws, the
 * artifact's node ranks and pods dropped when they fit nowhere. */
static void placement_config(sim_run *r, sched_config *cfg, const k8s_node *nodes, const inv_node *info,
                             size_t nnodes, gpu_view_node **gpu_nodes) {
    const scenario *sc = r->sc;
    const char *pname = sc->sched.policy;
    if (sc->trace && !pname && !sc->sched.policy_none) pname = "fgd";   /* the artifact's default run */
    cfg->policy = pname ? policy_find(pname) : NULL;
    cfg->policy_weight = sc->sched.policy_weight > 0 ? sc->sched.policy_weight : 1000;
    cfg->time_slicing_replicas = sc->sched.dp.time_slicing_replicas;
    cfg->typical_pct = sc->trace ? sc->trace->typical_pct : 95;
    bool artifact = sc->sched.openb_profile || (sc->trace && sc->trace->artifact);
    if (sc->trace || artifact) {
        cfg->openb_filter = true;
        cfg->trace_norm = true;
        cfg->percentage_of_nodes_to_score = 100;
        cfg->fit_weight = cfg->balanced_weight = cfg->dra_weight = 0;
        cfg->balanced_allocation = false;
        cfg->backoff_initial_ms = 0;
        r->tie_rank = name_ranks(nodes, nnodes);
        cfg->tie_rank = r->tie_rank;
        cfg->drop_unschedulable = artifact;
    }
    if (sc->trace && sc->trace->artifact && sc->trace->node_rank) {
        memcpy(r->tie_rank, sc->trace->node_rank, nnodes * sizeof *r->tie_rank);
        r->go = xmalloc(sizeof *r->go);
        *r->go = *sc->trace->go_after;   /* the run consumes its own copy */
        cfg->go = r->go;
        cfg->typical_artifact = true;
    }
    if (info) {
        *gpu_nodes = xcalloc(nnodes ? nnodes : 1, sizeof **gpu_nodes);
        for (size_t i = 0; i < nnodes; i++) {
            (*gpu_nodes)[i].ngpu = info[i].gpus;
            (*gpu_nodes)[i].model = info[i].gpu && info[i].gpu->key ? intern(info[i].gpu->key) : NULL;
        }
        cfg->gpu_nodes = *gpu_nodes;
    }
}

static void sim_init_with(sim_run *r, const scenario *sc, const k8s_node *nodes, const inv_node *info,
                          size_t nnodes, struct dra_state *dra) {
    memset(r, 0, sizeof *r);
    r->dra = dra;
    r->sc = sc;
    r->nodes = nodes;
    r->info = info;
    r->nnodes = nnodes;
    sched_config cfg = {.strategy = sc->sched.strategy,
                        .score_resources = sc->sched.score_resources,
                        .nscore_resources = sc->sched.nscore_resources,
                        .percentage_of_nodes_to_score = sc->sched.percentage_of_nodes_to_score,
                        .balanced_allocation = sc->sched.balanced_allocation && sc->sched.balanced_weight > 0,
                        .shape = sc->sched.shape,
                        .nshape = sc->sched.nshape,
                        .weights_set = true,
                        .fit_weight = sc->sched.fit_weight,
                        .balanced_weight = sc->sched.balanced_weight,
                        .dra_weight = sc->sched.dra_weight,
                        .backoff_initial_ms = sc->sched.backoff_initial_ms,
                        .backoff_max_ms = sc->sched.backoff_max_ms,
                        .dra = dra};
    gpu_view_node *gpu_nodes = NULL;
    placement_config(r, &cfg, nodes, info, nnodes, &gpu_nodes);
    sim_preempt_config(sc, &cfg);
    if (sc->sched.topology_pack) {   /* drasim's TopologyPack score (sched/policies/policy_topology_pack.h) */
        cfg.extra = &plugin_topology_pack;
        cfg.extra_weight = sc->sched.topology_pack_weight;
        cfg.extra_state = topology_pack_new(nodes, nnodes, sc->sched.topology_pack);
    }
    sched_init(&r->sched, nodes, nnodes, &cfg, sc->seed);
    bool dp = sc->sched.mode == SCHED_MODE_DEVICE_PLUGIN || sc->trace;   /* trace shapes: milli-GPU accounting in both modes */
    for (size_t i = 0; i < sc->ngroups; i++) sched_add_class(&r->sched, &sc->groups[i], dp);
    sched_prepare(&r->sched);
    sim_gang_init(r);
    sim_topo_init(r);   /* rack measures when nodes carry a rack label */
    sim_cd_init(r);     /* one ComputeDomain per node (engine/sim_cd.h), when pods use one */
    r->has_mig_resources = sched_mig_static_pct(&r->sched) >= 0;
    free(gpu_nodes);
    r->sched.cfg.gpu_nodes = NULL;
    if (sc->trace && sc->sched.mode == SCHED_MODE_DRA) {   /* the trace's GPUs as DRA devices (dra_openb.h) */
        gs_pod *shapes = xmalloc((r->sched.nclasses ? r->sched.nclasses : 1) * sizeof *shapes);
        for (size_t c = 0; c < r->sched.nclasses; c++) shapes[c] = r->sched.classes[c].shape;
        r->sched.cfg.trace_dra = dra_openb_new(sc->trace, nodes, shapes, r->sched.nclasses, r->sched.gv.models,
                                               r->sched.gv.nmodels, sc->seed);
        r->sched.cfg.device_by_allocator = sc->sched.device_by_allocator;
        free(shapes);
    }

    size_t R = r->sched.nres;
    r->res_equiv = xcalloc(R, sizeof *r->res_equiv);
    r->tot_used = xcalloc(R, sizeof *r->tot_used);
    r->tot_alloc = xcalloc(R, sizeof *r->tot_alloc);
    r->area = xcalloc(R, sizeof *r->area);
    for (size_t k = 0; k < R; k++) r->res_equiv[k] = sim_gpu_equiv(r->sched.res_names[k], sc->sched.dp.time_slicing_replicas);
    if (info && !dra) sim_sharing_equiv(r, info);   /* pools with their own time-slicing / MPS */
    for (size_t n = 0; n < nnodes; n++)
        for (size_t k = 0; k < R; k++) r->tot_alloc[k] = i64_add_sat(r->tot_alloc[k], r->sched.alloc[n * R + k]);   /* 3 x 4Ei */
    for (size_t k = 0; k < R; k++) r->total_gpu_equiv += (double)r->tot_alloc[k] * r->res_equiv[k];
    /* physical GPUs: a static-MIG GPU counts 1 whatever its layout (sim_capacity.c) */
    if (!dra && r->has_mig_resources) r->total_gpu_equiv += sim_mig_uncut_gpus(r);
    if (dra) r->total_gpu_equiv += dra->total_gpus;

    evq_init(&r->q);
    r->class_arrived = xcalloc(sc->ngroups ? sc->ngroups : 1, sizeof *r->class_arrived);
    r->units_base = xcalloc(sc->ngroups + 1, sizeof *r->units_base);
    for (size_t g = 0; g < sc->ngroups; g++)
        r->units_base[g + 1] = r->units_base[g] + (size_t)sc->groups[g].count * r->sched.classes[g].next;
    r->units = xcalloc(r->units_base[sc->ngroups] ? r->units_base[sc->ngroups] : 1, sizeof *r->units);
    sim_huge_pages(r->units, r->units_base[sc->ngroups] * sizeof *r->units);
    r->class_reason = xcalloc(sc->ngroups ? sc->ngroups : 1, sizeof *r->class_reason);
    r->class_running = xcalloc(sc->ngroups ? sc->ngroups : 1, sizeof *r->class_running);
    size_t total = 0;   /* every pod that can arrive, up to a sane up-front reservation */
    for (size_t g = 0; g < sc->ngroups; g++) total += (size_t)sc->groups[g].count;
    /* The pod array for every pod the groups can bring, up to 16M (768 MB of address
     * space; untouched pages cost no memory), with huge pages. Past that it grows
     * without them: the advice splits the array's mapping, so glibc's realloc would
     * copy it instead of moving it with mremap (a doubled peak: +86 MB at 5M pods). */
    VEC_RESERVE(r->pods, total < (16u << 20) ? total : (16u << 20));
    sim_huge_pages(r->pods.data, r->pods.cap * sizeof *r->pods.data);
    r->usage = sim_usage_new(r);   /* NULL unless a group has a usage profile */
    r->cost = sim_cost_new(r);     /* NULL unless a pool is priced or the cluster has power (issue 30) */
}

void sim_free(sim_run *r) {
    queue_gate_free(r->gate);
    for (size_t k = 0; k < r->nsources; k++)
        if (r->sources[k].free) r->sources[k].free(r->sources[k].ctx);
    free(r->tie_rank);
    free(r->go);
    sim_gang_free(r);
    sim_topo_free(r);
    sim_cd_free(r);
    sim_usage_free(r->usage);
    sim_cost_free(r->cost);
    sim_crash_free(r);
    for (size_t k = 0; k < r->late.len; k++) VEC_FREE(r->late.data[k].units);
    VEC_FREE(r->late);
    sb_free(&r->error);
    size_t nclasses = r->sched.nclasses;
    dra_openb_free(r->sched.cfg.trace_dra);
    if (r->sched.cfg.extra == &plugin_topology_pack) topology_pack_free(r->sched.cfg.extra_state);
    sched_free(&r->sched);
    dra_free(r->dra);
    sim_pins_free(r);   /* after the scheduler and DRA: their classes point into the pinned specs */
    evq_free(&r->q);
    for (size_t g = 0; r->class_reason && g < nclasses; g++) free(r->class_reason[g]);
    free(r->class_reason);
    free(r->class_running);
    free(r->class_arrived);
    free(r->units_base);
    free(r->units);
    for (size_t g = 0; r->extra_units && g < r->sc->ngroups; g++) VEC_FREE(r->extra_units[g]);
    free(r->extra_units);
    VEC_FREE(r->evictions);
    for (size_t i = 0; i < r->warnings.len; i++) free(r->warnings.data[i].message);
    VEC_FREE(r->warnings);
    free(r->res_equiv);
    free(r->tot_used);
    free(r->tot_alloc);
    free(r->area);
    VEC_FREE(r->pods);
    VEC_FREE(r->pod_names);
    VEC_FREE(r->replaced);
    VEC_FREE(r->started);
    VEC_FREE(r->deleted);
    VEC_FREE(r->samples);
    VEC_FREE(r->sample_used);
    VEC_FREE(r->sample_gpu);
    VEC_FREE(r->summary);
    VEC_FREE(r->user_samples);
    sim_labels_free(r);
    VEC_FREE(r->groups);
    VEC_FREE(r->curve);
    memset(r, 0, sizeof *r);
}

/* Transparent huge pages for a big array (issue 31: at 10M pods the pod
 * array, the device units and the summary's waits are ~700 MB; faulted in 4
 * KB pages that is ~170,000 page faults, each costly on a virtual machine).
 * Advises the 2 MB pages wholly inside [p, p + bytes); arrays under 4 MB and
 * systems without MADV_HUGEPAGE are left as they are. Contents unchanged.
 * Only for arrays that are never reallocated: the advice splits the
 * allocation's mapping, and mremap (glibc's realloc of a big block) refuses a
 * range of several mappings, so realloc would copy and double the peak. */
void sim_huge_pages(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (!p || bytes < 2 * huge) return;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);   /* advice only: a refusal changes nothing */
#else
    (void)p, (void)bytes;
#endif
}

/* Room for n more pods of class c (n[c] for every class c < nclasses; NULL
 * = unknown), given all at once with huge pages where large, as sim_init
 * gives the pod groups' pods; `named`: they carry names. A source that queued
 * many pods before any arrived (Lua's main chunk) says so: grown pod by pod,
 * the arrays were faulted in 4 KB pages (issue 31: ~5,000 page faults per
 * 400k pods, each costly on a virtual machine). Sizes only; nothing else
 * changes. Past 16M pods (as sim_init) the arrays grow as before. */
void sim_expect_arrivals(sim_run *r, size_t total, const size_t *n, size_t nclasses, bool named) {
    size_t want = r->pods.len + total;
    if (total < 4096 || want > (16u << 20)) return;
    if (want > r->pods.cap) {
        VEC_RESERVE(r->pods, want);
        sim_huge_pages(r->pods.data, r->pods.cap * sizeof *r->pods.data);
    }
    if (named && want > r->pod_names.cap) {
        VEC_RESERVE(r->pod_names, want);
        sim_huge_pages(r->pod_names.data, r->pod_names.cap * sizeof *r->pod_names.data);
    }
    size_t ng = r->sc->ngroups;
    for (size_t c = ng; n && c < nclasses && c < r->sched.nclasses; c++) {
        sim_late_class *lc = &r->late.data[c - ng];
        size_t units = lc->units.len + n[c] * r->sched.classes[c].next;
        if (n[c] && units > lc->units.cap) {
            VEC_RESERVE(lc->units, units);
            sim_huge_pages(lc->units.data, lc->units.cap * sizeof *lc->units.data);
        }
    }
}

uint64_t *sim_pod_units(const sim_run *r, const sim_pod *p) {
    size_t ng = r->sc->ngroups, next = r->sched.classes[p->group].next;
    if (p->group < ng) {
        if (p->ordinal < (uint64_t)r->sc->groups[p->group].count)
            return &r->units[r->units_base[p->group] + (size_t)p->ordinal * next];
        /* a replacement beyond the group's count (sim_evict.c) */
        uint64_t *u = r->extra_units[p->group].data;
        return u ? u + (size_t)(p->ordinal - (uint64_t)r->sc->groups[p->group].count) * next : NULL;
    }
    uint64_t *u = r->late.data[p->group - ng].units.data;
    return u ? u + (size_t)p->ordinal * next : NULL;   /* NULL: the class takes no device units */
}

const char *sim_pod_name(const sim_run *r, uint32_t id) {
    return id < r->pod_names.len ? r->pod_names.data[id] : NULL;
}

/* The names array grows to the named pod's id only: a run whose pods all
 * take the engine's names keeps none. */
void sim_pod_set_name(sim_run *r, uint32_t id, const char *name) {
    if (id >= r->pod_names.len) {
        if (!name) return;
        VEC_RESERVE(r->pod_names, (size_t)id + 1);
        while (r->pod_names.len <= id) r->pod_names.data[r->pod_names.len++] = NULL;
    }
    r->pod_names.data[id] = name;
}

/* `replaced` is in pod id order (a replacement is the newest pod when it is
 * noted): a binary search. */
uint32_t sim_pod_replaces(const sim_run *r, uint32_t id) {
    size_t lo = 0, hi = r->replaced.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->replaced.data[mid].pod < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < r->replaced.len && r->replaced.data[lo].pod == id ? r->replaced.data[lo].replaces : 0;
}

void sim_pod_set_replaces(sim_run *r, uint32_t rep, uint32_t replaces) {
    size_t lo = 0, hi = r->replaced.len;
    while (lo < hi) {   /* its place in id order (the end, as sim_replace notes it) */
        size_t mid = lo + (hi - lo) / 2;
        if (r->replaced.data[mid].pod < rep) lo = mid + 1;
        else hi = mid;
    }
    if (lo < r->replaced.len && r->replaced.data[lo].pod == rep) {
        r->replaced.data[lo].replaces = replaces;
        return;
    }
    struct sim_replaced x = {rep, replaces};
    VEC_PUSH(r->replaced, x);
    memmove(&r->replaced.data[lo + 1], &r->replaced.data[lo], (r->replaced.len - 1 - lo) * sizeof x);
    r->replaced.data[lo] = x;
}

const pod_group_spec *sim_class_spec(const sim_run *r, uint32_t c) {
    return c < r->sc->ngroups ? &r->sc->groups[c] : r->late.data[c - r->sc->ngroups].spec;
}

/* Dynamic MIG (sched/policies/place_mig.h): the typical MIG requests include
 * the classes added so far, each weighted by its pods (as the GPU view's). */
static void sim_mig_typical(sim_run *r) {
    size_t n = r->late.len, base = r->sc->ngroups;
    const pod_group_spec **specs = xmalloc((n ? n : 1) * sizeof *specs);
    int64_t *w = xmalloc((n ? n : 1) * sizeof *w);
    for (size_t k = 0; k < n; k++) {
        specs[k] = r->late.data[k].spec;
        w[k] = r->sched.classes[base + k].typical_count;
    }
    place_mig_set_typical(r->dra->mig, r->sc, specs, w, n, r->last_t);
    free(specs);
    free(w);
}

/* A class added while the run goes; `shape`: a new pod shape that joins the
 * typical pods (not a class of pods pinned by the queue, sim_pin.c). */
static int add_class(sim_run *r, pod_group_spec *spec, bool shape) {
    /* in DRA mode the class's claims are set up first: its plugins need them */
    if (r->dra && (r->dra->ncls != r->sched.nclasses || dra_add_class(r->dra, spec, &r->error))) return -1;
    int c = sched_add_class_late(&r->sched, spec, r->sc->sched.mode == SCHED_MODE_DEVICE_PLUGIN);
    if (c < 0) return -1;
    /* typical pods of a generator: the shapes it submitted so far, each by its pods
     * (this class: its first pod); derived again at every new shape up to 64
     * classes, then when their number doubles (docs/PLACEMENT.md) */
    size_t late = r->late.len + 1;
    if (shape) {
        r->sched.classes[c].typical_count = 1;
        if (late <= 64 || (late & (late - 1)) == 0) sched_rebuild_typical(&r->sched);
    }
    sim_late_class lc = {.spec = spec};
    VEC_PUSH(r->late, lc);
    if (shape && r->dra && r->dra->mig && (late <= 64 || (late & (late - 1)) == 0)) sim_mig_typical(r);   /* the same for MIG */
    if (r->class_cap < r->sched.classes_cap) {   /* as the scheduler's classes: geometrically */
        r->class_cap = r->sched.classes_cap;
        r->class_reason = xrealloc(r->class_reason, r->class_cap * sizeof *r->class_reason);
        r->class_running = xrealloc(r->class_running, r->class_cap * sizeof *r->class_running);
    }
    r->class_reason[c] = NULL;
    r->class_running[c] = 0;
    sim_usage_class(r, (uint32_t)c);
    return c;
}

int sim_add_class(sim_run *r, pod_group_spec *spec) { return add_class(r, spec, true); }

int sim_add_pinned_class(sim_run *r, pod_group_spec *spec) { return add_class(r, spec, false); }

int sim_add_source(sim_run *r, const sim_source *src) {
    if (r->nsources == SIM_MAX_SOURCES) return -1;
    r->sources[r->nsources] = *src;
    return (int)r->nsources++;
}

uint32_t sim_arrive(sim_run *r, int src, uint32_t c, const char *name, sim_time duration, sim_time t) {
    uint32_t ordinal;
    if (c < r->sc->ngroups) {
        ordinal = (uint32_t)r->class_arrived[c]++;
        if (ordinal >= (uint64_t)r->sc->groups[c].count) {   /* replacements (sim_evict.c) */
            size_t next = r->sched.classes[c].next;
            if (!r->extra_units) r->extra_units = xcalloc(r->sc->ngroups, sizeof *r->extra_units);
            for (size_t k = 0; k < next; k++) VEC_PUSH(r->extra_units[c], 0);
        }
    } else {
        sim_late_class *lc = &r->late.data[c - r->sc->ngroups];
        size_t next = r->sched.classes[c].next;
        ordinal = (uint32_t)lc->spec->count++;
        if (ordinal > 0) r->sched.classes[c].typical_count++;
        VEC_RESERVE(lc->units, (size_t)(ordinal + 1) * next);
        for (size_t k = 0; k < next; k++) lc->units.data[lc->units.len++] = 0;
    }
    sim_pod p = {.arrival = t, .start = -1, .end = -1, .duration = duration, .node = -1, .group = c,
                 .ordinal = ordinal, .state = POD_PENDING, .source = (uint8_t)src};
    VEC_PUSH(r->pods, p);
    if (name) sim_pod_set_name(r, (uint32_t)(r->pods.len - 1), name);
    if (r->gate && r->gate->arrive(r->gate->ctx, (uint32_t)(r->pods.len - 1), c, sim_class_spec(r, c), t))
        return (uint32_t)(r->pods.len - 1);   /* the queue holds it until admitted (queue/gate.h) */
    if (!r->gangs || !sim_gang_hold(r, (uint32_t)(r->pods.len - 1), t))   /* a gang's pods wait for its quorum */
        sched_enqueue(&r->sched, c, (uint32_t)(r->pods.len - 1));
    return (uint32_t)(r->pods.len - 1);
}

/* The queue's admission cycle at t: the pods it admits go to the scheduler,
 * the pods it preempts are evicted (their owners' replacements queue again).
 * A victim that was still pending frees its quota at once, so the cycle runs
 * again until it preempts nobody new. */
static void gate_cycle(sim_run *r, sim_time t) {
    queue_cycle_out out = {0};
    do {
        out.admitted.len = out.evict.len = out.pins.len = 0;
        r->gate->cycle(r->gate->ctx, t, &out);
        for (size_t i = 0; i < out.pins.len; i++) sim_pin_pod(r, &out.pins.data[i]);   /* Kueue TAS (sim_pin.h) */
        for (size_t i = 0; i < out.admitted.len; i++) {
            uint32_t id = out.admitted.data[i];
            if (!r->gangs || !sim_gang_hold(r, id, t)) sched_enqueue(&r->sched, r->pods.data[id].group, id);
        }
        for (size_t i = 0; i < out.evict.len; i++) {
            uint32_t id = out.evict.data[i].pod;
            if (r->gangs) sim_gang_reject_waiting(r, id, t);   /* a gang pod held at Permit gives its node back now */
            int was = sim_evict(r, id, EVICT_PREEMPTION, out.evict.data[i].reason, -1, t);
            if (was == POD_PENDING) r->gate->ended(r->gate->ctx, id, t);   /* deleted at once: its quota is free */
            if (was >= 0 && r->evictions.data[r->evictions.len - 1].replacement)
                r->gate->requeued(r->gate->ctx, id, r->evictions.data[r->evictions.len - 1].replacement - 1);
        }
    } while (out.evict.len);
    VEC_FREE(out.admitted);
    VEC_FREE(out.evict);
    VEC_FREE(out.pins);
}

static void gate_metric(void *ud, const char *name, double value, const char *group) {
    sim_run *r = ud;
    sim_metric m = {name, value, group};
    VEC_PUSH(r->summary, m);
}

#define SRC_SHIFT 56

void sim_schedule_source(sim_run *r, int src, sim_time t, uint64_t arg) {
    evq_push(&r->q, t, EV_SOURCE, ((uint64_t)src << SRC_SHIFT) | arg);
    r->live_events++;
}

uint64_t sim_reserve_source_seq(sim_run *r) { return evq_reserve(&r->q); }

void sim_schedule_source_seq(sim_run *r, int src, sim_time t, uint64_t seq, uint64_t arg) {
    evq_push_seq(&r->q, t, EV_SOURCE, ((uint64_t)src << SRC_SHIFT) | arg, seq);
    r->live_events++;
}

void sim_schedule_background(sim_run *r, int src, sim_time t, uint64_t arg) {
    evq_push(&r->q, t, EV_SOURCE_BG, ((uint64_t)src << SRC_SHIFT) | arg);
}

/* Accumulate the time integrals up to t. */
static void advance(sim_run *r, sim_time t) {
    double dt = (double)(t - r->last_t);
    if (dt > 0)
    {
        for (size_t k = 0; k < r->sched.nres; k++) r->area[k] += (double)r->tot_used[k] * dt;
        if (r->dra) r->dra_area += r->dra->cur_gpu_equiv * dt;
    }
    r->last_t = t;
}

/* Add (sign +1) or remove (-1) one pod of class g from the running totals.
 * The GPUs in use are recomputed from the integer totals, not accumulated:
 * adding and subtracting 0.001 per milli-GPU drifts (an idle cluster showed
 * -1e-14 GPUs in use after a long trace replay). */
static void account(sim_run *r, uint32_t g, int sign) {
    const pod_class *c = &r->sched.classes[g];
    r->tot_used[RES_PODS] += sign;
    r->class_running[g] += sign;
    for (size_t i = 0; i < c->ndemand; i++) r->tot_used[c->demand[i].res] = i64_add_sat(r->tot_used[c->demand[i].res], sign * c->demand[i].amount);
    double equiv = 0;
    for (size_t k = RES_PODS + 1; k < r->sched.nres; k++)
        if (r->tot_used[k]) equiv += (double)r->tot_used[k] * r->res_equiv[k];
    r->cur_gpu_equiv = equiv;
    if (r->cur_gpu_equiv > r->peak_gpu_equiv) r->peak_gpu_equiv = r->cur_gpu_equiv;
}

void sim_stop_completion(sim_run *r, uint32_t id) {
    if (r->crash && !sim_crash_has_completion(r, id)) return;   /* a dead process's: none queued */
    if (r->usage && sim_usage_cancel(r, id)) return;   /* a pod on a shared GPU: its rescheduled completion */
    if (r->pods.data[id].duration != SIM_TIME_NEVER) r->live_events--;
}

/* Pod id's placement (node, GPUs, device units), for sched_release; it is
 * taken off its node's pod list. */
static placement leave_node(sim_run *r, uint32_t id) {
    const sim_pod *p = &r->pods.data[id];
    const pod_class *c = &r->sched.classes[p->group];
    placement pl = {.node = p->node, .pod = id, .gpus = p->gpus};
    uint64_t *u = sim_pod_units(r, p);
    for (size_t k = 0; k < c->next && k < 8; k++) pl.units[k] = u[k];
    if (r->pod_node) r->pod_node(r, id, p->node, -1);
    return pl;
}

void sim_end_pod(sim_run *r, uint32_t id, sim_time t, uint8_t state) {
    sim_pod *p = &r->pods.data[id];
    if (r->cd) sim_cd_pod_end(r, id, t);   /* its node's IMEX daemon starts to leave */
    placement pl = leave_node(r, id);
    p->state = state;
    p->end = t;
    r->running--;
    if (r->gate) r->gate->ended(r->gate->ctx, id, t);   /* its quota is free again */
    if (r->cost) sim_cost_pod_end(r, id, t);   /* before the usage model books it */
    if (r->usage) sim_usage_stop(r, id, t);
    if (r->crash) sim_crash_ended(r, id, t);
    account(r, p->group, -1);
    sched_release(&r->sched, p->group, &pl);
    if (r->dra) r->cur_gpu_equiv = r->dra->cur_gpu_equiv;
    if (p->source < r->nsources && r->sources[p->source].ended) r->sources[p->source].ended(r, r->sources[p->source].ctx, id, t);
}

int sim_delete(sim_run *r, uint32_t id, const char *reason, sim_time t) {
    sim_pod *p = &r->pods.data[id];
    int was = p->state;
    if (was == POD_PENDING) {
        if (!p->dropped) sched_remove(&r->sched, p->group, id);
        p->state = POD_DELETED;
        p->end = t;
    } else if (was == POD_RUNNING) {
        sim_stop_completion(r, id);       /* its queued completion finds it deleted */
        sim_end_pod(r, id, t, POD_DELETED);
    } else {
        return -1;
    }
    struct sim_deleted d = {id, reason};
    VEC_PUSH(r->deleted, d);
    return was;
}

static int cmp_deleted(const void *a, const void *b) {
    uint32_t x = ((const struct sim_deleted *)a)->pod, y = ((const struct sim_deleted *)b)->pod;
    return (x > y) - (x < y);
}

/* After the run `deleted` is sorted by pod id (sim_execute): binary search. */
const char *sim_delete_reason(const sim_run *r, uint32_t pod) {
    size_t lo = 0, hi = r->deleted.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->deleted.data[mid].pod < pod) lo = mid + 1;
        else hi = mid;
    }
    return lo < r->deleted.len && r->deleted.data[lo].pod == pod ? r->deleted.data[lo].reason : NULL;
}

static int on_completion(sim_run *r, uint32_t id, sim_time t) {
    sim_pod *p = &r->pods.data[id];
    if (p->state != POD_RUNNING) return 0;   /* deleted or evicted before its end (not live any more) */
    if (r->crash && sim_crash_stale(r, id, t)) return 0;   /* its process died since (sim_crash.h) */
    r->live_events--;
    if (r->usage && !sim_usage_due(r, id, t)) return 0;   /* a phase ended: its next event is queued */
    sim_end_pod(r, id, t, POD_SUCCEEDED);
    const sim_source *src = p->source < r->nsources ? &r->sources[p->source] : NULL;
    if (src && src->finished) return src->finished(r, src->ctx, id, t);
    return 0;
}

/* Classes that started backing off get a retry event at their back-off end. */
static void time_retries(sim_run *r) {
    uint32_t c;
    int64_t at;
    while (sched_take_retry(&r->sched, &c, &at)) {
        evq_push(&r->q, at, EV_BACKOFF_RETRY, c);
        r->live_events++;
    }
}

void sim_pod_bound(sim_run *r, uint32_t c, uint32_t id, const placement *pl) {
    sim_pod *p = &r->pods.data[id];
    const pod_class *cl = &r->sched.classes[c];
    uint64_t *u = sim_pod_units(r, p);
    for (size_t k = 0; k < cl->next && k < 8; k++) u[k] = pl->units[k];
    p->gpus = (uint8_t)pl->gpus;
    p->node = pl->node;
    if (r->pod_node) r->pod_node(r, id, pl->node, +1);
    account(r, c, +1);
    if (r->dra) r->cur_gpu_equiv = r->dra->cur_gpu_equiv;
}

void sim_pod_start(sim_run *r, uint32_t id, sim_time t) {
    sim_pod *p = &r->pods.data[id];
    p->start = t;
    p->state = POD_RUNNING;
    r->running++;
    if (p->source < r->nsources && r->sources[p->source].started) VEC_PUSH(r->started, id);
    if (r->on_bind) r->on_bind(r, r->on_bind_ctx, id, t);
    if (r->gate) r->gate->bound(r->gate->ctx, id, r->pods.data[id].node, t);   /* admitted and now placed */
    if (r->cost) sim_cost_pod_start(r, id, t);
    sim_time run_at = r->cd ? t + sim_cd_pod_start(r, id, t) : t;   /* ContainerCreating until its IMEX daemon runs */
    if (r->usage) {
        sim_usage_start(r, id, run_at);   /* its completion depends on its co-tenants */
    } else if (p->duration != SIM_TIME_NEVER) {
        evq_push(&r->q, run_at + p->duration, EV_COMPLETION, id);
        r->live_events++;
    }
}

void sim_pod_unbind(sim_run *r, uint32_t id) {
    sim_pod *p = &r->pods.data[id];
    placement pl = leave_node(r, id);
    account(r, p->group, -1);
    sched_release(&r->sched, p->group, &pl);
    if (r->dra) r->cur_gpu_equiv = r->dra->cur_gpu_equiv;
    p->node = -1;
    p->gpus = 0;
}

/* Scheduling cycles until nothing in the queue can be tried. */
static void schedule_pass(sim_run *r, sim_time t) {
    uint32_t c, id;
    placement pl;
    while (sched_next(&r->sched, &c, &id)) {
        if (r->gangs && sim_gang_cycle(r, c, id, t)) {   /* a gang's pod: Permit or the workload cycle */
            if (r->sched.pre) sim_preempt_evict(r, t);
            continue;
        }
        if (!sched_schedule_head(&r->sched, c, &pl)) {
            if (r->sched.cfg.drop_unschedulable) r->pods.data[pl.pod].dropped = true;
            if (r->sched.pre) sim_preempt_evict(r, t);   /* the PostFilter's victims */
            continue;
        }
        sim_pod_bound(r, c, id, &pl);
        sim_pod_start(r, id, t);
    }
    time_retries(r);
}

void sim_schedule_now(sim_run *r, sim_time t) { schedule_pass(r, t); }

static void take_sample(sim_run *r, sim_time t) {
    if (r->topo) sim_topo_take_sample(r, t);   /* whole and broken racks (engine/sim_topology.h) */
    if (r->gate) r->gate->sample(r->gate->ctx, t);   /* ClusterQueues' usage, shares (queue/gate.h) */
    int64_t pending = (int64_t)r->sched.dropped;   /* dropped pods stay pending */
    for (size_t c = 0; c < r->sched.nclasses; c++) pending += (int64_t)sched_waiting(&r->sched, (uint32_t)c);
    sim_sample s = {.t = t, .pending = pending, .running = r->running, .gpu_equiv = r->cur_gpu_equiv,
                    .mig_devices = r->dra ? r->dra->cur_mig_devices : 0};
    VEC_PUSH(r->samples, s);
    for (size_t k = 0; k < r->sched.nres; k++) VEC_PUSH(r->sample_used, r->tot_used[k]);
    gpu_metrics m;
    gpu_view_metrics(&r->sched.gv, &m);
    if (r->dra && r->dra->mig) m.mig_frag_pct = place_mig_frag_pct(r->dra->mig);
    else if (r->has_mig_resources) m.mig_frag_pct = sched_mig_static_pct(&r->sched);
    sim_capacity_breakdown(r, &m);
    VEC_PUSH(r->sample_gpu, m);
    if (r->cost) sim_cost_sample(r, t);   /* the fleet's power (issue 30) */
}

static void metric(sim_run *r, const char *name, double v) {
    sim_metric m = {intern(name), v, NULL};
    VEC_PUSH(r->summary, m);
}

static void summarize(sim_run *r) {
    int64_t scheduled = 0, succeeded = 0, pending = 0, unschedulable = 0;
    int64_t *waits = xmalloc((r->pods.len ? r->pods.len : 1) * sizeof *waits);
    sim_huge_pages(waits, r->pods.len * sizeof *waits);
    double wsum = 0;
    for (size_t i = 0; i < r->pods.len; i++) {
        const sim_pod *p = &r->pods.data[i];
        if (p->start >= 0) {
            waits[scheduled++] = p->start - p->arrival;
            wsum += (double)(p->start - p->arrival);
        }
        if (p->state == POD_SUCCEEDED) succeeded++;
        if (p->state == POD_PENDING) {
            pending++;
            if (r->sched.classes[p->group].blocked || p->dropped) unschedulable++;
        }
    }
    if (scheduled) {   /* the three ranks read below put in place, in place (issue 31: no sort, no copy) */
        size_t ranks[] = {(size_t)ceil(0.50 * (double)scheduled) - 1, (size_t)ceil(0.99 * (double)scheduled) - 1,
                          (size_t)scheduled - 1};
        select_ranks_i64(waits, (size_t)scheduled, ranks, 3);
    }
    double span = (double)r->end_time, gpu_area = 0;
    for (size_t k = 0; k < r->sched.nres; k++) gpu_area += r->area[k] * r->res_equiv[k];
    if (r->dra) {   /* DRA allocations are the GPUs in use (pods request none as resources) */
        gpu_area += r->dra_area;
        if (r->dra->peak_gpu_equiv > r->peak_gpu_equiv) r->peak_gpu_equiv = r->dra->peak_gpu_equiv;
    }
    metric(r, "pods_arrived", (double)r->pods.len);
    metric(r, "pods_scheduled", (double)scheduled);
    metric(r, "pods_succeeded", (double)succeeded);
    metric(r, "pods_running_at_end", (double)r->running);
    metric(r, "pods_pending_at_end", (double)pending);
    metric(r, "unschedulable", (double)unschedulable);
    metric(r, "wait_mean_s", scheduled ? wsum / (double)scheduled / 1000.0 : 0);
    /* nearest-rank percentiles */
    metric(r, "wait_p50_s", scheduled ? (double)waits[(size_t)ceil(0.50 * (double)scheduled) - 1] / 1000.0 : 0);
    metric(r, "wait_p99_s", scheduled ? (double)waits[(size_t)ceil(0.99 * (double)scheduled) - 1] / 1000.0 : 0);
    metric(r, "wait_max_s", scheduled ? (double)waits[scheduled - 1] / 1000.0 : 0);
    metric(r, "gpu_total", r->total_gpu_equiv);
    metric(r, "gpu_alloc_pct", r->total_gpu_equiv > 0 && span > 0 ? 100.0 * gpu_area / (r->total_gpu_equiv * span) : 0);
    metric(r, "gpu_alloc_peak_pct", r->total_gpu_equiv > 0 ? 100.0 * r->peak_gpu_equiv / r->total_gpu_equiv : 0);
    if (r->dra && r->dra->mig) {   /* dynamic-MIG GPUs: fragmentation of their memory slices (place_mig.h) */
        metric(r, "frag_mig_pct_mean", place_mig_frag_mean_pct(r->dra->mig, r->end_time));
        metric(r, "frag_mig_pct_end", place_mig_frag_pct(r->dra->mig));
        metric(r, "mig_placements_chosen", (double)place_mig_decisions(r->dra->mig));
    }
    metric(r, "cpu_alloc_pct", r->tot_alloc[RES_CPU] > 0 && span > 0
                                   ? 100.0 * r->area[RES_CPU] / ((double)r->tot_alloc[RES_CPU] * span) : 0);
    metric(r, "memory_alloc_pct", r->tot_alloc[RES_MEMORY] > 0 && span > 0
                                      ? 100.0 * r->area[RES_MEMORY] / ((double)r->tot_alloc[RES_MEMORY] * span) : 0);
    metric(r, "sim_end_s", span / 1000.0);
    metric(r, "events", (double)r->nevents);
    metric(r, "scheduling_cycles", (double)r->sched.cycles);
    if (r->sched.cfg.trace_dra) {
        metric(r, "dra_allocate_calls", (double)dra_openb_calls(r->sched.cfg.trace_dra));
        metric(r, "dra_device_choice_differs", (double)r->sched.dra_moved);
    }
    if (r->dra) {
        metric(r, "dra_claims_created", (double)r->dra->claims_created);
        metric(r, "dra_claims_deleted", (double)r->dra->claims_deleted);
        metric(r, "dra_shared_claims_allocated", (double)r->dra->shared_allocated);
        metric(r, "dra_allocate_calls", (double)r->dra->allocate_calls);
    }
    free(waits);
}

static double wall_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Call the progress hook when 0.5 s of wall time passed (the clock is read
 * every 1024 instants only, so the hook costs nothing measurable). */
static void maybe_progress(sim_run *r, sim_time t, uint64_t *tick) {
    if (!r->progress || (++*tick & 1023)) return;
    double now = wall_s();
    if (now - r->progress_last < 0.5) return;
    r->progress_last = now;
    r->progress(r, t, r->progress_ud);
}

int sim_execute(sim_run *r, volatile sig_atomic_t *interrupt) {
    const scenario *sc = r->sc;
    r->interrupt = interrupt;
    /* A source stopped by Ctrl-C (the Lua hook polls r->interrupt) was interrupted, not wrong. */
    for (size_t k = 0; k < r->nsources; k++)
        if (r->sources[k].start && r->sources[k].start(r, r->sources[k].ctx)) return interrupt && *interrupt ? -1 : -2;
    evq_push(&r->q, 0, EV_SAMPLE, 0);
    bool stopped = false;
    uint64_t tick = 0;
    if (r->progress) r->progress_last = wall_s();
    while (!evq_empty(&r->q)) {
        if (interrupt && *interrupt) return -1;
        if (r->usage && sim_usage_skip_stale(r)) continue;
        sim_time t = evq_peek(&r->q)->time;
        maybe_progress(r, t, &tick);
        if (t >= sc->stop_time) {
            stopped = true;
            break;
        }
        if (sc->stop_all_pods_done && r->live_events == 0 && !(r->gate && r->gate->busy && r->gate->busy(r->gate->ctx)))
            break;
        advance(r, t);
        r->sched.now = t;
        bool sample = false;
        while (!evq_empty(&r->q) && evq_peek(&r->q)->time == t) {
            if (r->usage && sim_usage_skip_stale(r)) continue;
            event e = evq_pop(&r->q);
            r->nevents++;
            /* the next completion's pod record is far from the last one touched (issue 31: a cache miss per
             * pod at 10M pods): fetch it while this event is handled */
            if (!evq_empty(&r->q) && ev_kind(evq_peek(&r->q)) == EV_COMPLETION) {
                __builtin_prefetch(&r->pods.data[evq_peek(&r->q)->arg]);
                if (r->dra) dra_prefetch_pod(r->dra, (uint32_t)evq_peek(&r->q)->arg, 1);   /* its DRA records too */
            }
            if (r->dra && ev_kind(&e) == EV_COMPLETION) dra_prefetch_pod(r->dra, (uint32_t)e.arg, 2);
            switch (ev_kind(&e)) {
            case EV_COMPLETION:
                if (on_completion(r, (uint32_t)e.arg, t)) return interrupt && *interrupt ? -1 : -2;
                break;
            case EV_SOURCE:
            case EV_SOURCE_BG: {
                if (ev_kind(&e) == EV_SOURCE) r->live_events--;
                const sim_source *src = &r->sources[e.arg >> SRC_SHIFT];
                if (src->event(r, src->ctx, e.arg & (((uint64_t)1 << SRC_SHIFT) - 1), t)) return interrupt && *interrupt ? -1 : -2;
                break;
            }
            case EV_SAMPLE: sample = true; break;
            case EV_BACKOFF_RETRY: r->live_events--; sched_retry(&r->sched, (uint32_t)e.arg); break;
            case EV_TERMINATED: r->live_events--; sim_evict_terminated(r, (uint32_t)e.arg, t); break;
            default: break;
            }
        }
        if (r->gate) gate_cycle(r, t);   /* admission before scheduling (queue/gate.h) */
        schedule_pass(r, t);
        if (r->gate && r->gate->take_wake)   /* instants the queue asked for (waitForPodsReady) */
            for (int64_t w; (w = r->gate->take_wake(r->gate->ctx)) >= 0;) evq_push(&r->q, w < t ? t : w, EV_QUEUE_WAKE, 0);
        for (size_t k = 0; k < r->started.len; k++) {   /* started hooks may submit or delete pods */
            uint32_t id = r->started.data[k];
            const sim_source *src = &r->sources[r->pods.data[id].source];
            if (src->started(r, src->ctx, id, t)) {
                r->started.len = 0;
                return interrupt && *interrupt ? -1 : -2;
            }
        }
        r->started.len = 0;
        for (size_t k = 0; k < r->nsources; k++)   /* e.g. drasim.after_schedule */
            if (r->sources[k].after_pass && r->sources[k].after_pass(r, r->sources[k].ctx, t))
                return interrupt && *interrupt ? -1 : -2;
        if (sample) {
            take_sample(r, t);
            evq_push(&r->q, t + sc->sample_interval, EV_SAMPLE, 0);
        }
    }
    r->end_time = stopped ? sc->stop_time : r->last_t;
    if (r->deleted.len > 1) qsort(r->deleted.data, r->deleted.len, sizeof *r->deleted.data, cmp_deleted);
    advance(r, r->end_time);
    if (r->samples.len == 0 || r->samples.data[r->samples.len - 1].t != r->end_time) take_sample(r, r->end_time);
    for (size_t c = 0; c < r->sched.nclasses; c++)
        if (sched_waiting(&r->sched, (uint32_t)c)) {
            strbuf b = {0};
            sched_flush_class(&r->sched, (uint32_t)c);
            sched_explain(&r->sched, (uint32_t)c, &b);
            r->class_reason[c] = b.len ? xstrdup(sb_str(&b)) : NULL;
            sb_free(&b);
        }
    sim_gang_reasons(r);   /* a topology-constrained gang's placement failure (sched/topology/) */
    for (size_t i = 0; r->sched.dropped && i < r->pods.len; i++) {   /* profile openb-artifact: why pods were dropped */
        const sim_pod *p = &r->pods.data[i];
        if (!p->dropped || r->class_reason[p->group]) continue;
        strbuf b = {0};
        sb_printf(&b, "0/%zu nodes are available: no node had the CPU, memory and GPU room (model, free "
                  "milli-GPU) for this pod when it arrived (profile openb-artifact does not retry)", r->nnodes);
        r->class_reason[p->group] = xstrdup(sb_str(&b));
        sb_free(&b);
    }
    sim_gang_reasons(r);   /* gang pods out of the queue: back-off, quorum */
    for (size_t c = 0; r->gate && c < r->sched.nclasses; c++) {   /* pods the queue still holds: its reason */
        const char *why = r->class_reason[c] ? NULL : r->gate->why(r->gate->ctx, (uint32_t)c);
        if (why) r->class_reason[c] = xstrdup(why);
    }
    summarize(r);
    if (r->gate) r->gate->summarize(r->gate->ctx, r->end_time, gate_metric, r);
    for (size_t k = 0; k < r->nsources; k++)
        if (r->sources[k].summarize) r->sources[k].summarize(r, r->sources[k].ctx);
    sim_quality_summary(r);   /* after the sources: it skips the metrics already written */
    sim_group_summary(r);     /* the earlier rows keep their order */
    sim_evict_summary(r);     /* after the groups it reports on */
    sim_crash_summary(r);     /* GPU failures under pods: work lost, crash loops (issue 26) */
    sim_sharing_summary(r);   /* containers' GPUs, multi-GPU requests on fewer GPUs (issue 17) */
    sim_usage_summary(r);     /* allocated versus used, slowdowns: only with usage profiles */
    sim_cost_summary(r);      /* prices, chargeback, energy: only when priced or powered (issue 30) */
    sim_preempt_summary(r);   /* preemption and gangs: rows only when they happened */
    sim_gang_summary(r);
    sim_topo_summary(r);
    sim_cd_summary(r);        /* ComputeDomain set-up conflicts (engine/sim_cd.h) */
    sim_counters_zero(r);     /* event counters of sources that did not run: 0 (issue 26) */
    sim_scoring_hints(r);     /* groups starved by spreading: warnings */
    return 0;
}

double sim_metric_get(const sim_run *r, const char *name) {
    for (size_t i = 0; i < r->summary.len; i++)
        if (!r->summary.data[i].group && !strcmp(r->summary.data[i].name, name)) return r->summary.data[i].value;
    return NAN;
}

void sim_metric_add(sim_run *r, const char *name, double value) { metric(r, name, value); }
