/* plan_price.h -- `drasim plan --minimize cost|energy` (docs/CI.md, "By cost
 * or energy"): the varied pools' prices per node-hour read from the scenario
 * (docs/COST.md) and the reserved splits checked against the ranges, before
 * any run. */
#ifndef DRASIM_CLI_PLAN_PRICE_H
#define DRASIM_CLI_PLAN_PRICE_H

#include <stdbool.h>
#include <stddef.h>

#include "report/plan.h"
#include "util/strbuf.h"

/* For each varied pool not priced already (priced[d]) and when `need_price`:
 * its list price per node-hour from the scenario file, the price of a node
 * beyond the reserved ones (spot.price, price.onDemand, else
 * autoscaling.price). A pool with price.reserved R (the scenario's, unless a
 * `--vary POOL.price.reserved` choice replaces it) must be varied from R up;
 * a reserved choice needs the pool's count varied. 0, -1 (usage: err), -2
 * (the file cannot be read: err). */
int plan_scenario_prices(const char *scenario, plan_dim *dims, size_t k, const bool *priced, bool need_price,
                         const plan_choice *ch, size_t nch, strbuf *err);

#endif
