/* placement_names.c -- the placement policies' names (see placement_names.h). */
#include "model/placement_names.h"

#include <stddef.h>
#include <string.h>

static const struct { const char *policy, *plugin; } names[] = {
    {"random", "RandomScore"},           {"dotprod", "DotProductScore"}, {"gpu-clustering", "GpuClusteringScore"},
    {"gpu-packing", "GpuPackingScore"}, {"bestfit", "BestFitScore"},    {"fgd", "FGDScore"}};
#define NNAMES (sizeof names / sizeof *names)

const char *placement_policy_name(const char *name) {
    for (size_t i = 0; name && i < NNAMES; i++)
        if (!strcmp(names[i].policy, name)) return names[i].policy;
    return NULL;
}

const char *placement_policy_of_plugin(const char *plugin) {
    for (size_t i = 0; plugin && i < NNAMES; i++)
        if (!strcmp(names[i].plugin, plugin)) return names[i].policy;
    return NULL;
}

const char *placement_plugin_of_policy(const char *policy) {
    for (size_t i = 0; policy && i < NNAMES; i++)
        if (!strcmp(names[i].policy, policy)) return names[i].plugin;
    return NULL;
}

const char *placement_policy_names(void) { return "random, dotprod, gpu-clustering, gpu-packing, bestfit, fgd"; }
