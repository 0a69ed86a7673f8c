/*
 * scenario.h -- a simulation scenario (`apiVersion: drasim/v1`, `kind:
 * Scenario`, see docs/SCENARIOS.md) in memory: the cluster, the scheduling
 * mode and options, the workload's pod groups, the seed and the stop rule.
 *
 * Simulated time is an integer number of MILLISECONDS since the start of the
 * run (sim_time). Every duration in a scenario ("90s", "5m", "1h30m") is
 * converted to it.
 *
 * Parsing is split in two so that later `--set key=value` overrides can edit
 * the YAML tree before it is interpreted: scenario_load() reads the file,
 * scenario_from_tree() interprets a root node. Every error is
 * "FILE:LINE:COL: message"; unknown keys are errors.
 */
#ifndef DRASIM_MODEL_SCENARIO_H
#define DRASIM_MODEL_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/cluster.h"
#include "model/k8s.h"
#include "model/yaml_tree.h"
#include "util/arena.h"
#include "util/strbuf.h"

typedef int64_t sim_time;            /* milliseconds */
#define SIM_TIME_NEVER INT64_MAX
#define SIM_MS(x) ((sim_time)(x))
#define SIM_SECONDS(x) ((sim_time)(x) * 1000)

/* ---- workload ------------------------------------------------------------------ */

typedef enum { ARRIVAL_POISSON, ARRIVAL_CONSTANT, ARRIVAL_TIMES } arrival_kind;

typedef struct arrival_spec {
    arrival_kind kind;
    sim_time start;                  /* offset of the first arrival window */
    double mean_gap_ms;              /* POISSON: 1 / rate */
    sim_time interval;               /* CONSTANT */
    sim_time *times;                 /* TIMES: ascending, `count` entries */
} arrival_spec;

typedef enum { DIST_FIXED, DIST_UNIFORM, DIST_EXPONENTIAL, DIST_LOGNORMAL } dist_kind;

typedef struct duration_dist {
    dist_kind kind;
    sim_time a;                      /* FIXED value, UNIFORM min, EXPONENTIAL mean, LOGNORMAL median */
    sim_time b;                      /* UNIFORM max */
    double sigma;                    /* LOGNORMAL */
} duration_dist;

typedef struct pod_group_spec {
    const char *name;
    int64_t count;
    arrival_spec arrival;
    duration_dist duration;
    int32_t priority;
    k8s_resource_amount *requests;   /* cpu, memory, ... (as written) */
    size_t nrequests;
    k8s_kv *node_selector;
    size_t nnode_selector;
    bool has_affinity;
    k8s_node_selector required_affinity;
    k8s_toleration *tolerations;
    size_t ntolerations;
    /* device-plugin demand: extended resources + nodeSelector merged in that mode */
    bool has_dp;
    k8s_resource_amount *dp_resources;
    size_t ndp_resources;
    k8s_kv *dp_node_selector;
    size_t ndp_node_selector;
    /* DRA demand: `gpu.dra` kept as YAML, checked only for shape (claims: [{name, spec}]) */
    const ynode *dra;
    const ynode *where;
} pod_group_spec;

/* A Lua workload generator (`workload: {lua: {script: gen.lua, args: {...}}}`,
 * docs/LUA.md). The script runs in a sandbox with the limits below. */
typedef struct lua_source_spec {
    const char *script;              /* as written */
    const char *path;                /* resolved against the scenario file's directory */
    const ynode *args;               /* map passed to the script as drasim.args, or NULL */
    const ynode *where;
    int64_t instruction_limit;       /* per callback (and for the main chunk); default 100,000,000 */
    int64_t memory_limit;            /* bytes for the whole Lua state; default 256 MiB */
} lua_source_spec;

/* ---- scheduling ------------------------------------------------------------------ */

typedef enum { SCHED_MODE_DEVICE_PLUGIN, SCHED_MODE_DRA } sched_mode;
typedef enum { SCORE_LEAST_ALLOCATED, SCORE_MOST_ALLOCATED } score_strategy;

typedef struct score_resource {
    const char *name;
    int64_t weight;
} score_resource;

typedef struct scheduling_spec {
    sched_mode mode;
    device_plugin_opts dp;
    score_strategy strategy;
    score_resource *score_resources; /* default: cpu 1, memory 1 (kube-scheduler) */
    size_t nscore_resources;
    int percentage_of_nodes_to_score;/* 0 = kube-scheduler's adaptive default; 100 = all */
    bool balanced_allocation;        /* NodeResourcesBalancedAllocation score plugin (default on) */
} scheduling_spec;

/* ---- the scenario ------------------------------------------------------------------- */

typedef struct scenario {
    arena a;
    yfile file;                      /* the tree the scenario points into */
    bool has_file;
    const char *name;
    const char *description;
    uint64_t seed;
    sim_time stop_time;              /* SIM_TIME_NEVER when not set */
    bool stop_all_pods_done;
    sim_time sample_interval;        /* output.sampleInterval, default 60s */
    cluster_spec cluster;
    scheduling_spec sched;
    pod_group_spec *groups;
    size_t ngroups;
    lua_source_spec *lua;            /* NULL when the workload has no Lua generator */
} scenario;

/* Read and interpret a scenario file. Returns 0, or -1 with err set. */
int scenario_load(const char *path, scenario *out, strbuf *err);
/* Interpret a parsed root node; `out->file` is left untouched. */
int scenario_from_tree(const ynode *root, scenario *out, strbuf *err);
void scenario_free(scenario *s);

/* "90s", "5m", "1h30m", "250ms", "1.5h", "0": Go-style duration -> ms.
 * Returns 0 or -1 with err set at n. */
int scenario_parse_duration(const ynode *n, const char *what, sim_time *out, strbuf *err);
/* The text form of the same parser (no position): 0 or -1. */
int parse_duration_text(const char *s, sim_time *out);

/* Parts of the parser, shared by scenario*.c files. */
int scenario_parse_workload(const ynode *workload, scenario *s, strbuf *err);
int scenario_parse_lua_source(const ynode *n, scenario *s, strbuf *err);
int scenario_parse_pod_group(const ynode *g, arena *a, pod_group_spec *out, strbuf *err);
int scenario_parse_tolerations(const ynode *n, arena *a, k8s_toleration **out, size_t *nout, strbuf *err);
int scenario_parse_string_map(const ynode *n, const char *what, arena *a, k8s_kv **out, size_t *nout, strbuf *err);
int scenario_parse_node_affinity(const ynode *n, arena *a, k8s_node_selector *out, strbuf *err);

#endif
