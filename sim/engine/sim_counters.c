/*
 * sim_counters.c -- no silent zeros (issue 26 item 4): the run's event
 * counters that a source writes only when it exists (the cluster faults,
 * workload/faults_state.c) are written as 0 when it did not, so an
 * expectation like `max(fault_gpu_failures) <= 0` holds on a clean run
 * instead of failing on a missing metric. The engine's own counters
 * (evictions, preemptions: sim_evict.c, sim_preempt.c) are always written.
 * Then the summary is put in its order: the whole run's rows first, then the
 * groups' (the later summaries add rows of both kinds).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"
#include "util/xalloc.h"

static const char *const FAULT_COUNTERS[] = {
    "fault_gpu_failures", "fault_gpu_repairs", "fault_node_failures", "fault_node_repairs",
    "fault_node_drains",  "fault_taint_rules", "gpu_hours_unavailable", "gpu_unavailable_pct",
};

void sim_counters_zero(sim_run *r) {
    for (size_t i = 0; i < sizeof FAULT_COUNTERS / sizeof *FAULT_COUNTERS; i++)
        if (isnan(sim_metric_get(r, FAULT_COUNTERS[i]))) sim_metric_add(r, FAULT_COUNTERS[i], 0);
    /* the whole run's rows first, then the groups', each in the order written (a stable partition) */
    size_t n = r->summary.len, k = 0;
    sim_metric *tmp = xmalloc((n ? n : 1) * sizeof *tmp);
    for (size_t i = 0; i < n; i++)
        if (!r->summary.data[i].group) tmp[k++] = r->summary.data[i];
    for (size_t i = 0; i < n; i++)
        if (r->summary.data[i].group) tmp[k++] = r->summary.data[i];
    memcpy(r->summary.data, tmp, n * sizeof *tmp);
    free(tmp);
}
