/*
 * scenario_jobs.h -- `workload.jobs:` (docs/TRACES.md): job traces replayed
 * as pods, each entry read by model/job_trace.h and run by
 * workload/jobs_source.c. Parsing reads each file once (streaming) to check
 * every row, so bad input stops the run before anything is written, and to
 * find the trace's time origin.
 */
#ifndef DRASIM_MODEL_SCENARIO_JOBS_H
#define DRASIM_MODEL_SCENARIO_JOBS_H

#include "model/job_trace.h"
#include "model/scenario.h"

#define JOBS_MAX_FILES 4

typedef enum { JOBS_SUBMIT, JOBS_AS_RECORDED } jobs_mode;

typedef struct jobs_spec {
    job_trace_cfg cfg;
    jobs_mode mode;
    const char *name;                /* the entry's name (default: the preset or "jobs") */
    const char *gpu_type_label;      /* node label the GPU type must match (nodeSelector), NULL = not enforced */
    bool queue_per_tenant;           /* localQueue: tenant -- label kueue.x-k8s.io/queue-name = the job's tenant */
    const char *local_queue;         /* localQueue: NAME -- every job to the LocalQueue NAME (NULL: none) */
    int64_t origin_ms;               /* epoch ms at simulated time 0: the earliest kept submit time */
    int64_t jobs, rows;              /* jobs kept, data rows read */
    int64_t skipped[JS_N];
    const ynode *where;
} jobs_spec;

/* `workload.jobs` (a list) into s->jobs / s->njobs. */
int scenario_parse_jobs(const ynode *seq, scenario *s, strbuf *err);

#endif
