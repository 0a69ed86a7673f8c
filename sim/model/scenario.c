/*
 * scenario.c -- the top level of a scenario file: apiVersion/kind, metadata,
 * seed, stop rule, output options and the `scheduling:` section. The
 * `cluster:` section is handed to cluster_spec_parse (model/cluster_spec.c)
 * and `workload:` to scenario_workload.c.
 */
#include "model/scenario.h"
#include "model/cluster_state.h"

#include <string.h>

#include "model/autoscaler_spec.h"
#include "model/placement_names.h"
#include "model/scenario_faults.h"
#include "util/intern.h"
#include "model/trace_fleet.h"

static const char *const top_keys[] = {"apiVersion", "kind", "metadata", "seed", "stop", "cluster",
                                       "scheduling", "workload", "output", "autoscaler", "faults", "queues", NULL};

static int parse_metadata(const ynode *m, scenario *s, strbuf *err) {
    static const char *const keys[] = {"name", "description", NULL};
    const ynode *v;
    if (ymap_check_keys(m, keys, "metadata", err)) return -1;
    if (ymap_need(m, "name", "metadata", &v, err) || y_str(v, "metadata.name", &s->name, err)) return -1;
    if ((v = ymap_get(m, "description")) && y_str(v, "metadata.description", &s->description, err)) return -1;
    return 0;
}

static int parse_stop(const ynode *m, scenario *s, strbuf *err) {
    static const char *const keys[] = {"time", "allPodsDone", NULL};
    const ynode *v;
    if (ymap_check_keys(m, keys, "stop", err)) return -1;
    if ((v = ymap_get(m, "time"))) {
        if (scenario_parse_duration(v, "stop.time", &s->stop_time, err)) return -1;
        if (s->stop_time <= 0) {
            yerr(err, v, "stop.time: expected a positive duration");
            return -1;
        }
    }
    if ((v = ymap_get(m, "allPodsDone")) && y_bool(v, "stop.allPodsDone", &s->stop_all_pods_done, err)) return -1;
    if (s->stop_time == SIM_TIME_NEVER && !s->stop_all_pods_done) {
        yerr(err, m, "stop: expected 'time: DURATION' and/or 'allPodsDone: true'");
        return -1;
    }
    return 0;
}

static int parse_output(const ynode *m, scenario *s, strbuf *err) {
    static const char *const keys[] = {"sampleInterval", NULL};
    const ynode *v;
    if (ymap_check_keys(m, keys, "output", err)) return -1;
    if ((v = ymap_get(m, "sampleInterval"))) {
        if (scenario_parse_duration(v, "output.sampleInterval", &s->sample_interval, err)) return -1;
        if (s->sample_interval <= 0) {
            yerr(err, v, "output.sampleInterval: expected a positive duration");
            return -1;
        }
    }
    return 0;
}

static int parse_scheduling(const ynode *m, scenario *s, strbuf *err) {
    static const char *const keys[] = {"mode", "devicePlugin", "scoring", "percentageOfNodesToScore",
                                       "balancedAllocation", "profile", "podInitialBackoffSeconds",
                                       "podMaxBackoffSeconds", "policy", "devicePlacement", "searchBudget", "features",
                                       "topologyPack", NULL};
    const ynode *v;
    if (ymap_check_keys(m, keys, "scheduling", err)) return -1;
    if (ymap_need(m, "mode", "scheduling", &v, err)) return -1;
    if (y_scalar_eq(v, "device-plugin")) s->sched.mode = SCHED_MODE_DEVICE_PLUGIN;
    else if (y_scalar_eq(v, "dra")) s->sched.mode = SCHED_MODE_DRA;
    else {
        yerr(err, v, "scheduling.mode: expected device-plugin or dra, found %s%s%s",
             v->kind == YN_SCALAR ? "'" : "", v->kind == YN_SCALAR ? v->str : ykind_name(v),
             v->kind == YN_SCALAR ? "'" : "");
        return -1;
    }
    if (device_plugin_opts_parse(ymap_get(m, "devicePlugin"), &s->sched.dp, err)) return -1;
    if ((v = ymap_get(m, "scoring")) && scenario_parse_scoring_strategy(v, s, "scheduling.scoring", err)) return -1;
    if ((v = ymap_get(m, "percentageOfNodesToScore"))) {
        int64_t p;
        if (y_int(v, "scheduling.percentageOfNodesToScore", &p, err)) return -1;
        if (p < 0 || p > 100) {
            yerr(err, v, "scheduling.percentageOfNodesToScore: expected 0 (adaptive) to 100, found %lld", (long long)p);
            return -1;
        }
        s->sched.percentage_of_nodes_to_score = (int)p;
    }
    if ((v = ymap_get(m, "balancedAllocation")) &&
        y_bool(v, "scheduling.balancedAllocation", &s->sched.balanced_allocation, err))
        return -1;
    if (!s->sched.balanced_allocation) s->sched.balanced_weight = 0;
    if (scenario_parse_backoff(m, s, err)) return -1;
    if ((v = ymap_get(m, "policy"))) {
        if (y_str(v, "scheduling.policy", &s->sched.policy, err)) return -1;
        if (!strcmp(s->sched.policy, "none")) {   /* kube-scheduler's own scoring: no placement policy */
            s->sched.policy = NULL;
            s->sched.policy_none = true;
        } else if (!placement_policy_name(s->sched.policy)) {
            yerr(err, v, "scheduling.policy: expected none or one of %s, found '%s'", placement_policy_names(),
                 s->sched.policy);
            return -1;
        } else {
            s->sched.policy = placement_policy_name(s->sched.policy);
        }
    }
    if ((v = ymap_get(m, "profile")) && v->kind == YN_SCALAR) {   /* a named profile (docs/PLACEMENT.md) */
        if (!y_scalar_eq(v, "openb-artifact")) {
            yerr(err, v, "scheduling.profile: expected a KubeSchedulerProfile (a map) or the named profile "
                 "openb-artifact, found '%s'", v->str);
            return -1;
        }
        s->sched.openb_profile = true;
    } else if (v && scenario_parse_profile(v, s, err)) {
        return -1;
    }
    if ((v = ymap_get(m, "searchBudget"))) {   /* the DRA allocator's search budget (alloc.h) */
        int64_t n;
        if (y_int(v, "scheduling.searchBudget", &n, err)) return -1;
        if (n < 0) {
            yerr(err, v, "scheduling.searchBudget: expected a number of search steps >= 0 (0 = no limit), found %lld",
                 (long long)n);
            return -1;
        }
        s->sched.search_budget = (uint64_t)n;
        s->sched.has_search_budget = true;
    }
    if ((v = ymap_get(m, "devicePlacement"))) {
        if (y_scalar_eq(v, "policy")) s->sched.device_by_allocator = false;
        else if (y_scalar_eq(v, "allocator")) s->sched.device_by_allocator = true;
        else {
            yerr(err, v, "scheduling.devicePlacement: expected policy or allocator, found %s%s%s",
                 v->kind == YN_SCALAR ? "'" : "", v->kind == YN_SCALAR ? v->str : ykind_name(v),
                 v->kind == YN_SCALAR ? "'" : "");
            return -1;
        }
    }
    return scenario_parse_sched_dynamics(m, s, err);
}

int scenario_from_tree(const ynode *root, scenario *s, strbuf *err) {
    const ynode *v;
    s->stop_time = SIM_TIME_NEVER;
    s->sample_interval = SIM_SECONDS(60);
    s->sched.balanced_allocation = true;
    s->sched.backoff_initial_ms = 1000;   /* kube-scheduler: podInitialBackoffSeconds 1, podMaxBackoffSeconds 10 */
    s->sched.backoff_max_ms = 10000;
    s->sched.fit_weight = s->sched.balanced_weight = s->sched.dra_weight = 1;
    if (y_expect(root, YN_MAP, "scenario", err)) return -1;
    if (ymap_check_keys(root, top_keys, "scenario", err)) return -1;
    if (ymap_need(root, "apiVersion", "scenario", &v, err)) return -1;
    if (!y_scalar_eq(v, "drasim/v1")) {
        yerr(err, v, "apiVersion: expected drasim/v1, found %s", v->kind == YN_SCALAR ? v->str : ykind_name(v));
        return -1;
    }
    if (ymap_need(root, "kind", "scenario", &v, err)) return -1;
    if (!y_scalar_eq(v, "Scenario")) {
        yerr(err, v, "kind: expected Scenario, found %s", v->kind == YN_SCALAR ? v->str : ykind_name(v));
        return -1;
    }
    if (ymap_need(root, "metadata", "scenario", &v, err) || parse_metadata(v, s, err)) return -1;
    if ((v = ymap_get(root, "seed"))) {
        int64_t seed;
        if (y_int(v, "seed", &seed, err)) return -1;
        if (seed < 0) {
            yerr(err, v, "seed: expected a non-negative integer");
            return -1;
        }
        s->seed = (uint64_t)seed;
    }
    if (ymap_need(root, "stop", "scenario", &v, err) || parse_stop(v, s, err)) return -1;
    if ((v = ymap_get(root, "output")) && parse_output(v, s, err)) return -1;
    if (ymap_need(root, "scheduling", "scenario", &v, err) || parse_scheduling(v, s, err)) return -1;
    if (scenario_check_dra_scoring(s, err)) return -1;
    const ynode *cluster = ymap_get(root, "cluster");
    if (cluster && cluster_spec_parse(cluster, &s->a, &s->cluster, err)) return -1;
    s->cluster.seed = s->seed;   /* slice names and device order are drawn from it */
    if (cluster && cluster_check_pool_sharing(&s->cluster, &s->sched.dp, err)) return -1;
    if (cluster && (v = ymap_get(cluster, "state")) && cluster_state_parse(v, s, err)) return -1;
    if (autoscaler_spec_parse(ymap_get(root, "autoscaler"), s, err)) return -1;   /* model/autoscaler_spec.c */
    if (ymap_need(root, "workload", "scenario", &v, err) || scenario_parse_workload(v, s, err)) return -1;
    if (!s->trace && !cluster && ymap_need(root, "cluster", "scenario", &v, err)) return -1;
    if (s->trace && cluster) {
        yerr(err, cluster, "cluster: not used with workload.trace (the trace lists the nodes); remove it");
        return -1;
    }
    /* trace workloads run in both modes (dra: sched/dra/dra_openb.h) */
    if (s->trace && scenario_trace_expand(s, err)) return -1;
    if (s->lua && s->stop_time == SIM_TIME_NEVER) {
        yerr(err, s->lua->where, "a Lua workload needs stop.time (its timers may run forever)");
        return -1;
    }
    /* The same workload must be runnable in the selected mode. */
    for (size_t i = 0; i < s->ngroups; i++) {
        const pod_group_spec *g = &s->groups[i];
        if (g->gang_min && s->cluster.publish.k8s_minor < 35) {   /* the Workload API is alpha in 1.35 (KEP-4671) */
            yerr(err, ymap_get(g->where, "gang"), "gang: needs cluster.kubernetesVersion 1.35 or later (the "
                 "Workload API, KEP-4671, is new in 1.35)");
            return -1;
        }
        if (g->gang_topology && s->cluster.publish.k8s_minor < 36) {   /* KEP-5732 is alpha in 1.36 */
            yerr(err, ymap_get(ymap_get(g->where, "gang"), "topology"), "gang.topology: needs "
                 "cluster.kubernetesVersion 1.36 or later (topology-aware workload scheduling, KEP-5732, is new in 1.36)");
            return -1;
        }
        if (s->sched.mode == SCHED_MODE_DEVICE_PLUGIN && g->dra && !g->has_dp) {
            yerr(err, g->where, "pod group '%s' states its GPU demand only for DRA (gpu.dra); add "
                 "gpu.devicePlugin to run it in device-plugin mode", g->name);
            return -1;
        }
        /* dra mode with gpu.devicePlugin only: extended resources served by DRA
         * (DeviceClass extendedResourceName), checked when the run starts. */
    }
    if ((v = ymap_get(root, "faults")) && scenario_parse_faults(v, s, err)) return -1;
    if ((v = ymap_get(root, "queues")) && scenario_parse_queues(v, s, err)) return -1;   /* model/scenario_queues.c */
    if (s->state && cluster_state_adopt_queues(s, err)) return -1;   /* a KAI snapshot's Queues (model/cluster_state_kai.c) */
    return scenario_check_limits(root, s, err);
}

int scenario_load(const char *path, scenario *s, strbuf *err) {
    memset(s, 0, sizeof *s);
    if (scenario_file_load(path, &s->file, err)) return -1;
    s->has_file = true;
    if (s->file.ndocs != 1) {
        sb_clear(err);
        sb_printf(err, "%s: expected exactly one YAML document, found %zu", path, s->file.ndocs);
        return -1;
    }
    return scenario_from_tree(s->file.docs[0], s, err);
}

void scenario_free(scenario *s) {
    if (s->queues || s->kai_queues) scenario_free_queues(s);
    cluster_state_free(s->state);
    if (s->has_file) yfile_free(&s->file);
    arena_free(&s->a);
    memset(s, 0, sizeof *s);
}
