/* plan_vary_quota.h -- `drasim plan --vary queues.CQ.FLAVOR.RESOURCE=...`:
 * a ClusterQueue's quota as a plan choice (plan_vary_quota.c). */
#ifndef DRASIM_CLI_PLAN_VARY_QUOTA_H
#define DRASIM_CLI_PLAN_VARY_QUOTA_H

#include <stdbool.h>

#include "model/yaml_tree.h"
#include "report/plan.h"
#include "util/strbuf.h"

/* Does this --vary argument name a ClusterQueue's quota ("queues.")? */
bool plan_vary_is_quota(const char *text);
/* Parse "queues.CQ.FLAVOR.RESOURCE[.FIELD]=V1,V2,..." or "=LO..HI[/STEP]".
 * 0, or -1 with err naming the argument. */
int plan_vary_quota(const char *text, plan_choice *ch, strbuf *err);
/* Find the quota in the scenario's queues.objects and set ch->set_key to it.
 * 0, or -1 with err. */
int plan_vary_quota_check(const ynode *root, const char *scenario, plan_choice *ch, strbuf *err);

#endif
