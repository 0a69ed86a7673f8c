/* run_groups.h -- a run's closing lines about its groups (sim_run.groups). */
#ifndef DRASIM_REPORT_RUN_GROUPS_H
#define DRASIM_REPORT_RUN_GROUPS_H

#include <stdio.h>

#include "engine/sim.h"

/* "  pending at end (never started), by group: a 3 of 10, b 5 of 5" on
 * `out` when any pod is pending (out NULL: not printed); then on `warn` one
 * line per group none of whose pods ever started (8 named at most):
 * "warning: group b: 0 of 5 pods ever started; reason: <pending reason>". */
void run_groups_print(const sim_run *run, FILE *out, FILE *warn);

#endif
