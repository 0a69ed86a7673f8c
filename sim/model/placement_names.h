/*
 * placement_names.h -- the names of the placement policies (implemented by
 * sched/policies/policy_*.c), for the scenario reader: `scheduling.policy` names and
 * the FGD artifact's Score-plugin names a profile may enable
 * (pkg/simulator/plugin/ at hkust-adsl/kubernetes-scheduler-simulator 8f3d641).
 */
#ifndef DRASIM_MODEL_PLACEMENT_NAMES_H
#define DRASIM_MODEL_PLACEMENT_NAMES_H

/* The policy `name` as the table spells it, or NULL if it is none. */
const char *placement_policy_name(const char *name);
/* The policy a Score-plugin name enables (FGDScore -> fgd), or NULL. */
const char *placement_policy_of_plugin(const char *plugin);
/* The Score-plugin name of a policy (fgd -> FGDScore), or NULL. */
const char *placement_plugin_of_policy(const char *policy);
/* "random, dotprod, ..." for messages. */
const char *placement_policy_names(void);

#endif
