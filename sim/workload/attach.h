/*
 * attach.h -- registering a scenario's workload with the engine: its pod
 * groups, its Lua generator or its trace each become a sim_source
 * (engine/sim.h). The engine never calls into workload/: whoever drives a
 * run (report/runner.c, tests, benchmarks) attaches the workload after
 * sim_init and before sim_execute.
 */
#ifndef DRASIM_WORKLOAD_ATTACH_H
#define DRASIM_WORKLOAD_ATTACH_H

#include <signal.h>

struct sim_run;

/* Attach every workload source of r's scenario: pod groups, then the Lua
 * generator, or the trace (whose pods are the pod groups' pods). */
void workload_attach(struct sim_run *r);
/* workload_attach, then sim_execute. */
int workload_execute(struct sim_run *r, volatile sig_atomic_t *interrupt);

/* The sources, one file each. Each returns its source id (-1: too many). */
int groups_source_attach(struct sim_run *r);
int trace_source_attach(struct sim_run *r);
struct jobs_spec;
int jobs_source_attach(struct sim_run *r, const struct jobs_spec *spec);   /* workload/jobs_source.c */
/* cluster.state: the recorded cluster's pods at time 0 (workload/state_source.c). */
int state_source_attach(struct sim_run *r);

#endif
