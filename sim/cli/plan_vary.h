/* plan_vary.h -- `drasim plan --vary POOL.FIELD=a,b,c`: the dimensions
 * without order (a static MIG layout, a GPU model, sharing replicas per
 * pool; report/plan.h plan_choice), parsed and checked against the scenario
 * file and the GPU catalog before any run (docs/CI.md, "Layouts, GPU models
 * and sharing"). */
#ifndef DRASIM_CLI_PLAN_VARY_H
#define DRASIM_CLI_PLAN_VARY_H

#include <stdbool.h>
#include <stddef.h>

#include "report/plan.h"
#include "util/strbuf.h"

/* Is this --vary argument a choice (its key has a dot: POOL.FIELD=..., or a
 * ClusterQueue's quota queues.CQ.FLAVOR.RESOURCE=..., cli/plan_vary_quota.h)? */
bool plan_vary_is_choice(const char *text);
/* Parse "POOL.FIELD=V1,V2,..." (gpu.model values may be MODEL:PRICE, all
 * or none). 0, or -1 with err naming the argument. */
int plan_vary_choice(const char *text, plan_choice *ch, strbuf *err);
/* The choices against the scenario file (the pool exists and has GPUs; a
 * migLayout pool has gpu.mig: static) and the catalog (every model, every
 * layout for every model the pool may have); a quota choice's ClusterQueue,
 * flavor and resource in queues.objects (sets its set_key). 0, -1 (usage: err), -2 (the
 * scenario or catalog cannot be read: err). */
int plan_vary_check(const char *scenario, plan_choice *ch, size_t n, strbuf *err);
void plan_choice_free(plan_choice *ch);

#endif
