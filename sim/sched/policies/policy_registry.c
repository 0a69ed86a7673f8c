/* policy_registry.c -- the placement policies by name: the scenario's
 * `scheduling.policy` names and the Score-plugin names a profile's
 * `plugins.score.enabled` may use (see policy.h). */
#include <stdlib.h>
#include <string.h>

#include "sched/policies/policy.h"

#include "model/placement_names.h"
#include "util/xalloc.h"

const policy *policy_find(const char *name) {
    static const policy *const all[] = {&policy_random, &policy_dotprod, &policy_gpu_clustering,
                                        &policy_gpu_packing, &policy_bestfit, &policy_fgd};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (name && !strcmp(all[i]->name, name)) return all[i];
    return NULL;
}

const char *policy_names(void) { return placement_policy_names(); }

const policy *policy_find_plugin(const char *plugin) { return policy_find(placement_policy_of_plugin(plugin)); }

const char *policy_plugin_name(const policy *p) { return p ? placement_plugin_of_policy(p->name) : NULL; }
