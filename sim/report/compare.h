/*
 * compare.h -- `drasim compare A.db B.db`: every summary metric of A and B
 * side by side with absolute and relative deltas. Runs are matched by their
 * key (scenario, mode, policy, sweep point, seed); when the seeds differ,
 * by configuration (mean over its runs); when both hold a single
 * configuration that differs, the means over all runs are compared.
 */
#ifndef DRASIM_REPORT_COMPARE_H
#define DRASIM_REPORT_COMPARE_H

#include <stdbool.h>

#include "report/rdb.h"
#include "util/strbuf.h"

/* Append the comparison to out, as aligned text or CSV. */
void compare_dbs(const rdb *a, const rdb *b, bool csv, strbuf *out);

/* compare_fleet.c: when exactly one side has autoscaled runs (summary
 * ca_node_hours) and the other a fixed fleet, the fleet rows: node_hours,
 * cost (the fixed side priced by the autoscaled side's node group of each
 * pool's name), peak_nodes, and GPU allocation against the GPUs provisioned
 * (the autoscaled side's gpu_alloc_provisioned_pct; the fixed side's
 * gpu_alloc_pct): means over each side's runs. false: not that case. */
enum { FLEET_ROWS = 4 };
typedef struct fleet_row {
    const char *metric;
    double a, b;
} fleet_row;
bool compare_fleet(const rdb *a, const rdb *b, fleet_row *rows);

#endif
