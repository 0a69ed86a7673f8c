/* policy_registry.c -- the placement policies by name: the scenario's
 * `scheduling.policy` names and the Score-plugin names a profile's
 * `plugins.score.enabled` may use (see policy.h). */
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

/* The FGD artifact's score-plugin names (pkg/simulator/plugin/ (*_score.go) at 8f3d641). */
static const struct { const char *plugin; const char *policy; } plugin_names[] = {
    {"RandomScore", "random"}, {"DotProductScore", "dotprod"}, {"GpuClusteringScore", "gpu-clustering"},
    {"GpuPackingScore", "gpu-packing"}, {"BestFitScore", "bestfit"}, {"FGDScore", "fgd"}};

const policy *policy_find_plugin(const char *plugin) {
    for (size_t i = 0; i < sizeof plugin_names / sizeof *plugin_names; i++)
        if (plugin && !strcmp(plugin_names[i].plugin, plugin)) return policy_find(plugin_names[i].policy);
    return NULL;
}

const char *policy_plugin_name(const policy *p) {
    for (size_t i = 0; p && i < sizeof plugin_names / sizeof *plugin_names; i++)
        if (!strcmp(plugin_names[i].policy, p->name)) return plugin_names[i].plugin;
    return NULL;
}
