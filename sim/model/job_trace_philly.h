/*
 * job_trace_philly.h -- Microsoft Philly's cluster_job_log (msr-fiddle/
 * philly-traces README.md, 29a1b87) as job rows for model/job_trace.h: one
 * JSON document, a list of jobs {status, vc, jobid, attempts, submitted_time,
 * user}, each attempt {start_time, end_time, detail: [{ip, gpus: [...]}]}.
 * The document is loaded whole (a YAML tree with positions, so every error
 * names FILE:LINE:COL) and its jobs are served in submit order.
 *
 * A job's GPUs and pods are its first attempt's (the sum of its servers'
 * GPUs, one pod per server), as the trace's notebook counts them; its
 * attempts with both times known are its runs (a restart after each), the
 * others ("None": a logging error, the README says) are left out and
 * counted. Times `YYYY-MM-DD HH:MM:SS` (taken as UTC), "None" or null =
 * unknown.
 */
#ifndef DRASIM_MODEL_JOB_TRACE_PHILLY_H
#define DRASIM_MODEL_JOB_TRACE_PHILLY_H

#include "model/job_trace.h"

typedef struct philly_reader philly_reader;

/* Load the document; 0, or -1 with err ("FILE:LINE:COL: ..."). */
int philly_open(const char *path, philly_reader **out, strbuf *err);
/* The next job in submit order: 1 kept, 0 skipped (skipped[] counted),
 * -1 error, 2 at the end. row's strings and attempts live until the next call. */
int philly_next(philly_reader *p, const job_trace_cfg *cfg, job_row *row, int64_t *skipped, strbuf *err);
/* Attempts left out for a missing time so far. */
int64_t philly_attempts_dropped(const philly_reader *p);
void philly_close(philly_reader *p);

#endif
