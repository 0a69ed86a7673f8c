/* run_jobs.h -- a job-trace run's closing table: recorded versus simulated waits (docs/TRACES.md). */
#ifndef DRASIM_REPORT_RUN_JOBS_H
#define DRASIM_REPORT_RUN_JOBS_H

#include <stdio.h>

#include "engine/sim.h"

/* "  jobs (workload.jobs): recorded vs simulated waits, by tenant and size:"
 * and one row for the whole trace, then per summary group holding
 * recorded_wait_mean_s (workload/jobs_source.c); nothing when the run read
 * no job trace. */
void run_jobs_print(const sim_run *run, FILE *out);

#endif
