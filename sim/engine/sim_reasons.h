/* sim_reasons.h -- why pods wait: the pods pending at the end of a run, counted per group and
 * pending reason (docs/SCHEMA.md, pending_reasons; the run's closing lines, report/run_groups.c). */
#ifndef DRASIM_ENGINE_SIM_REASONS_H
#define DRASIM_ENGINE_SIM_REASONS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/sim.h"

typedef struct sim_reason_row {
    const char *grp;      /* the group's name (sim_group.name) */
    const char *reason;   /* the pods' reason (pods.reason), NULL: none recorded */
    int64_t pods;         /* pods of the group pending at the end with that reason */
} sim_reason_row;

/* The rows of `run` in group order (run->groups, first class first), within a group
 * most pods first, then reason text; *n gets their number. Caller frees. NULL when no pod
 * is pending. */
sim_reason_row *sim_pending_reasons(const sim_run *run, size_t *n);

#endif
