/*
 * scenario_profile.c -- the scheduler configuration of a scenario in the
 * shape of KubeSchedulerConfiguration, so a real configuration can be pasted:
 *
 *   scheduling:
 *     podInitialBackoffSeconds: 1        # default 1; 0 = no back-off
 *     podMaxBackoffSeconds: 10           # default 10
 *     profile:                           # one KubeSchedulerProfile
 *       schedulerName: default-scheduler
 *       percentageOfNodesToScore: 50
 *       plugins:
 *         score:
 *           enabled: [{name: NodeResourcesFit, weight: 2}]
 *           disabled: [{name: NodeResourcesBalancedAllocation}]   # or {name: "*"}
 *       pluginConfig:
 *       - name: NodeResourcesFit
 *         args:
 *           scoringStrategy:
 *             type: RequestedToCapacityRatio   # LeastAllocated | MostAllocated
 *             resources: [{name: cpu, weight: 1}, {name: nvidia.com/gpu, weight: 3}]
 *             requestedToCapacityRatio:
 *               shape: [{utilization: 0, score: 0}, {utilization: 100, score: 10}]
 *
 * Plugin names must be kube-scheduler plugins; those drasim does not model
 * (ImageLocality, InterPodAffinity, ...) are accepted and score every node
 * alike for the simulated pods.
 */
#include "model/scenario.h"

#include <string.h>

#include "model/placement_names.h"

static const char *const known_plugins[] = {
    "PrioritySort", "NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
    "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone",
    "PodTopologySpread", "InterPodAffinity", "DefaultPreemption", "NodeResourcesBalancedAllocation",
    "ImageLocality", "DefaultBinder", "SchedulingGates", "DynamicResources", NULL};

/* The `name` of a plugin entry (keys checked against `keys`); unknown names are errors. */
static const ynode *plugin_name_keys(const ynode *entry, const char *const *keys, const char *what, const char **name,
                                     strbuf *err) {
    const ynode *v;
    if (ymap_check_keys(entry, keys, what, err) || ymap_need(entry, "name", what, &v, err) || y_str(v, "name", name, err))
        return NULL;
    if (!strcmp(*name, "*") || placement_policy_of_plugin(*name)) return v;
    for (size_t i = 0; known_plugins[i]; i++)
        if (!strcmp(known_plugins[i], *name)) return v;
    yerr(err, v, "%s: unknown plugin '%s'", what, *name);
    return NULL;
}

static const ynode *plugin_name(const ynode *entry, const char *what, const char **name, strbuf *err) {
    static const char *const keys[] = {"name", "weight", NULL};
    return plugin_name_keys(entry, keys, what, name, err);
}

/* A placement policy's Score plugin (sched/policies/policy.h: FGDScore, BestFitScore,
 * ...) enabled with weight w: it becomes the scenario's policy. */
static int enable_policy_plugin(const ynode *at, scheduling_spec *sp, const char *p, int64_t w, strbuf *err) {
    if (sp->policy && strcmp(sp->policy, p)) {
        yerr(err, at, "enabled plugin %s: the placement policy is already %s; enable one placement policy at a time",
             placement_plugin_of_policy(p), sp->policy);
        return -1;
    }
    sp->policy = p;
    sp->policy_weight = w;
    return 0;
}

/* The weight slot of a modelled score plugin, or NULL. */
static int64_t *weight_slot(scheduling_spec *sp, const char *name) {
    if (!strcmp(name, "NodeResourcesFit")) return &sp->fit_weight;
    if (!strcmp(name, "NodeResourcesBalancedAllocation")) return &sp->balanced_weight;
    if (!strcmp(name, "DynamicResources")) return &sp->dra_weight;
    return NULL;
}

/* plugins: {score: {enabled: [...], disabled: [...]}}; other extension points
 * may be written (checked for plugin names) but only score changes anything. */
static int parse_plugins(const ynode *m, scheduling_spec *sp, strbuf *err) {
    static const char *const points[] = {"preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore",
                                         "score", "reserve", "permit", "preBind", "bind", "postBind", "multiPoint",
                                         NULL};
    static const char *const lists[] = {"enabled", "disabled", NULL};
    if (ymap_check_keys(m, points, "profile.plugins", err)) return -1;
    for (size_t p = 0; p < m->n; p++) {
        const ynode *pt = m->vals[p];
        bool score = y_scalar_eq(m->keys[p], "score");
        if (ymap_check_keys(pt, lists, "profile.plugins extension point", err)) return -1;
        /* disabled first, as kube-scheduler merges: then enabled (re-)adds with its weight */
        for (int pass = 0; pass < 2; pass++) {
            const ynode *l = ymap_get(pt, pass == 0 ? "disabled" : "enabled");
            if (!l) continue;
            if (y_expect(l, YN_SEQ, pass == 0 ? "plugins disabled" : "plugins enabled", err)) return -1;
            for (size_t i = 0; i < l->n; i++) {
                const char *name;
                if (!plugin_name(l->vals[i], pass == 0 ? "disabled plugin" : "enabled plugin", &name, err)) return -1;
                if (!score) continue;
                if (pass == 0) {
                    if (!strcmp(name, "*")) sp->fit_weight = sp->balanced_weight = sp->dra_weight = 0;
                    else if (weight_slot(sp, name)) *weight_slot(sp, name) = 0;
                    continue;   /* a disabled policy plugin: nothing to turn off (policies are off by default) */
                }
                if (!strcmp(name, "*")) {
                    yerr(err, l->vals[i], "enabled plugin: '*' can only be disabled");
                    return -1;
                }
                int64_t w = 1;
                const ynode *wv = ymap_get(l->vals[i], "weight");
                if (wv) {
                    if (y_int(wv, "weight", &w, err)) return -1;
                    if (w < 1 || w > 100) {
                        yerr(err, wv, "weight: expected an integer from 1 to 100, found %lld", (long long)w);
                        return -1;
                    }
                }
                if (weight_slot(sp, name)) *weight_slot(sp, name) = w;
                if (placement_policy_of_plugin(name) &&
                    enable_policy_plugin(l->vals[i], sp, placement_policy_of_plugin(name), w, err))
                    return -1;
            }
        }
    }
    return 0;
}

/* requestedToCapacityRatio: {shape: [{utilization: 0..100, score: 0..10}, ...]} ascending utilization. */
static int parse_shape(const ynode *m, arena *a, scheduling_spec *sp, strbuf *err) {
    static const char *const keys[] = {"shape", NULL};
    static const char *const pk[] = {"utilization", "score", NULL};
    const ynode *shape, *v;
    if (ymap_check_keys(m, keys, "requestedToCapacityRatio", err)) return -1;
    if (ymap_need(m, "shape", "requestedToCapacityRatio", &shape, err) || y_expect(shape, YN_SEQ, "shape", err)) return -1;
    if (shape->n == 0) {
        yerr(err, shape, "shape: expected at least one point");
        return -1;
    }
    sp->shape = ARENA_NEW(a, shape_point, shape->n);
    sp->nshape = shape->n;
    for (size_t i = 0; i < shape->n; i++) {
        shape_point *pt = &sp->shape[i];
        if (ymap_check_keys(shape->vals[i], pk, "shape point", err)) return -1;
        if (ymap_need(shape->vals[i], "utilization", "shape point", &v, err) || y_int(v, "utilization", &pt->utilization, err))
            return -1;
        if (pt->utilization < 0 || pt->utilization > 100 || (i && pt->utilization <= sp->shape[i - 1].utilization)) {
            yerr(err, v, "utilization: expected 0 to 100, strictly increasing along the shape");
            return -1;
        }
        if (ymap_need(shape->vals[i], "score", "shape point", &v, err) || y_int(v, "score", &pt->score, err)) return -1;
        if (pt->score < 0 || pt->score > 10) {
            yerr(err, v, "score: expected an integer from 0 to 10");
            return -1;
        }
    }
    return 0;
}

int scenario_parse_scoring_strategy(const ynode *n, scenario *s, const char *what, strbuf *err) {
    scheduling_spec *sp = &s->sched;
    const ynode *type = n, *v;
    if (n->kind == YN_MAP) {
        static const char *const keys[] = {"type", "resources", "requestedToCapacityRatio", NULL};
        if (ymap_check_keys(n, keys, what, err)) return -1;
        if (ymap_need(n, "type", what, &type, err)) return -1;
        if ((v = ymap_get(n, "resources"))) {
            if (y_expect(v, YN_SEQ, "scoring resources", err)) return -1;
            if (v->n == 0) {
                yerr(err, v, "%s.resources: expected at least one resource", what);
                return -1;
            }
            sp->score_resources = ARENA_NEW(&s->a, score_resource, v->n);
            sp->nscore_resources = v->n;
            for (size_t i = 0; i < v->n; i++) {
                static const char *const rkeys[] = {"name", "weight", NULL};
                const ynode *r = v->vals[i], *x;
                score_resource *sr = &sp->score_resources[i];
                if (ymap_check_keys(r, rkeys, "scoring resource", err)) return -1;
                if (ymap_need(r, "name", "scoring resource", &x, err) || y_str(x, "name", &sr->name, err)) return -1;
                sr->weight = 1;
                sr->where = r;
                if ((x = ymap_get(r, "weight"))) {
                    if (y_int(x, "weight", &sr->weight, err)) return -1;
                    if (sr->weight < 1 || sr->weight > 100) {
                        yerr(err, x, "weight: expected an integer from 1 to 100, found %lld", (long long)sr->weight);
                        return -1;
                    }
                }
            }
        }
    }
    if (y_scalar_eq(type, "LeastAllocated")) sp->strategy = SCORE_LEAST_ALLOCATED;
    else if (y_scalar_eq(type, "MostAllocated")) sp->strategy = SCORE_MOST_ALLOCATED;
    else if (y_scalar_eq(type, "RequestedToCapacityRatio")) sp->strategy = SCORE_REQUESTED_TO_CAPACITY_RATIO;
    else {
        yerr(err, type, "%s: expected LeastAllocated, MostAllocated or RequestedToCapacityRatio, found %s%s%s", what,
             type->kind == YN_SCALAR ? "'" : "", type->kind == YN_SCALAR ? type->str : ykind_name(type),
             type->kind == YN_SCALAR ? "'" : "");
        return -1;
    }
    v = n->kind == YN_MAP ? ymap_get(n, "requestedToCapacityRatio") : NULL;
    if (sp->strategy == SCORE_REQUESTED_TO_CAPACITY_RATIO) {
        if (!v) {
            yerr(err, n, "%s: RequestedToCapacityRatio needs requestedToCapacityRatio.shape", what);
            return -1;
        }
        if (parse_shape(v, &s->a, sp, err)) return -1;
    } else if (v) {
        yerr(err, v, "%s: requestedToCapacityRatio is only for type RequestedToCapacityRatio", what);
        return -1;
    }
    return 0;
}

/* Upstream NodeResourcesFit scores the node's allocatable resources only; DRA
 * devices are not among them (kubernetes pkg/scheduler/framework/plugins/
 * noderesources/fit.go, v1.36; device scoring is KEP-4970, not merged). A GPU
 * weight in DRA mode would do nothing, so it is refused rather than ignored. */
int scenario_check_dra_scoring(const scenario *s, strbuf *err) {
    const scheduling_spec *sp = &s->sched;
    if (sp->mode != SCHED_MODE_DRA) return 0;
    for (size_t i = 0; i < sp->nscore_resources; i++) {
        const score_resource *sr = &sp->score_resources[i];
        if (strncmp(sr->name, "nvidia.com/", 11)) continue;
        if (sr->where) yerr(err, sr->where, "scoring resource %s: in DRA mode kube-scheduler does not score GPUs "
                            "(DRA devices are not node resources; device scoring is KEP-4970, still open), so the "
                            "weight would be ignored; remove it, or pack GPUs with a placement policy "
                            "(scheduling.policy: bestfit, gpu-packing, fgd)", sr->name);
        else sb_printf(err, "scoring resource %s: not scored in DRA mode", sr->name);
        return -1;
    }
    return 0;
}

static int parse_plugin_config(const ynode *l, scenario *s, strbuf *err) {
    static const char *const keys[] = {"name", "args", NULL};
    if (y_expect(l, YN_SEQ, "profile.pluginConfig", err)) return -1;
    for (size_t i = 0; i < l->n; i++) {
        const char *name;
        const ynode *args;
        if (!plugin_name_keys(l->vals[i], keys, "pluginConfig entry", &name, err)) return -1;
        if (!(args = ymap_get(l->vals[i], "args"))) continue;
        if (strcmp(name, "NodeResourcesFit") != 0) continue;   /* args of unmodelled plugins are not interpreted */
        static const char *const fk[] = {"scoringStrategy", "ignoredResources", "ignoredResourceGroups", NULL};
        const ynode *st;
        if (ymap_check_keys(args, fk, "NodeResourcesFit args", err)) return -1;
        if ((st = ymap_get(args, "scoringStrategy")) &&
            scenario_parse_scoring_strategy(st, s, "NodeResourcesFit scoringStrategy", err))
            return -1;
    }
    return 0;
}

int scenario_parse_profile(const ynode *m, scenario *s, strbuf *err) {
    static const char *const keys[] = {"schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig", NULL};
    const ynode *v;
    if (ymap_check_keys(m, keys, "scheduling.profile", err)) return -1;
    if ((v = ymap_get(m, "percentageOfNodesToScore"))) {
        int64_t p;
        if (y_int(v, "percentageOfNodesToScore", &p, err)) return -1;
        if (p < 0 || p > 100) {
            yerr(err, v, "percentageOfNodesToScore: expected 0 (adaptive) to 100, found %lld", (long long)p);
            return -1;
        }
        s->sched.percentage_of_nodes_to_score = (int)p;
    }
    if ((v = ymap_get(m, "plugins")) && parse_plugins(v, &s->sched, err)) return -1;
    if ((v = ymap_get(m, "pluginConfig")) && parse_plugin_config(v, s, err)) return -1;
    return 0;
}

int scenario_parse_backoff(const ynode *m, scenario *s, strbuf *err) {
    const ynode *v;
    int64_t init = s->sched.backoff_initial_ms / 1000, max = s->sched.backoff_max_ms / 1000;
    if ((v = ymap_get(m, "podInitialBackoffSeconds")) && y_int(v, "podInitialBackoffSeconds", &init, err)) return -1;
    if (init < 0 || init > 3600) {
        yerr(err, v, "podInitialBackoffSeconds: expected 0 (no back-off) to 3600");
        return -1;
    }
    if ((v = ymap_get(m, "podMaxBackoffSeconds")) && y_int(v, "podMaxBackoffSeconds", &max, err)) return -1;
    if (max < init || max > 3600) {
        yerr(err, v ? v : m, "podMaxBackoffSeconds: expected podInitialBackoffSeconds to 3600");
        return -1;
    }
    s->sched.backoff_initial_ms = init * 1000;
    s->sched.backoff_max_ms = max * 1000;
    return 0;
}
