/*
 * job_trace.h -- one reader for job traces (docs/TRACES.md): a CSV-shaped
 * table (',' or '|' separated, one header row) read row by row (util/
 * csv_stream.h, constant memory), each row a job with its times, GPUs (whole
 * or fractional), CPUs, memory, GPU type, node count (a gang of that many
 * pods), tenant, state and labels. Which column holds what comes from a
 * format preset (helios, acme-seren, acme-kalos, slurm) or a column map.
 *
 * Times: epoch seconds (integer or decimal), ISO 8601 / Slurm
 * `YYYY-MM-DD[T ]HH:MM:SS[.frac][Z|+HH:MM]` (no zone = UTC). Durations:
 * seconds, or Slurm's Elapsed `[D-]HH:MM:SS` / `MM:SS`. A column name may
 * list alternatives `AllocTRES|ReqTRES`: the first non-empty cell counts. A
 * cell of `key=value,...` pairs (Slurm TRES) gives gpus (`gres/gpu=N`, or the
 * sum of `gres/gpu:TYPE=N`), cpus (`cpu=`), memory (`mem=`, binary units) and
 * nodes (`node=`).
 *
 * Every error names FILE:LINE:COL of the trace (or FILE:1:1 for a column the
 * header lacks).
 */
#ifndef DRASIM_MODEL_JOB_TRACE_H
#define DRASIM_MODEL_JOB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* The fields a job can take from its row. */
typedef enum {
    JC_ID, JC_SUBMIT, JC_START, JC_END, JC_DURATION, JC_GPUS, JC_CPUS, JC_MEMORY, JC_GPU_TYPE, JC_NODES,
    JC_TENANT, JC_STATE, JC_FAIL, JC_N
} job_col;

#define JOB_MAX_LABELS 8
#define JOB_MAX_SKIP_STATES 16

typedef struct job_trace_cfg {
    const char *path;                   /* resolved */
    const char *format;                 /* preset name, or "columns" */
    char sep;                           /* ',' or '|' */
    const char *cols[JC_N];             /* header names ('|'-separated alternatives); NULL = not mapped */
    bool required[JC_N];                /* a mapped column the header must have */
    const char *label_keys[JOB_MAX_LABELS], *label_cols[JOB_MAX_LABELS];
    size_t nlabels;
    double gpu_scale;                   /* GPUs per unit of the gpus column (1; 0.01 for percent) */
    double cpu_scale;                   /* CPUs per unit of the cpus column (1; 0.01 for PAI's percent) */
    double mem_unit;                    /* bytes per unit of a plain memory number (GB: 1e9) */
    bool mem_per_pod;                   /* the memory column is per pod (Kalos), else per job */
    bool skip_steps;                    /* Slurm: ids with a '.' are job steps */
    bool skip_no_gpu;                   /* default true: GPU-less jobs are skipped (counted) */
    const char *skip_states[JOB_MAX_SKIP_STATES];   /* interned; a state matches by its first word */
    size_t nskip_states;
    bool json;                          /* Philly's cluster_job_log (model/job_trace_philly.h), not CSV */
    bool gpus_per_pod, cpus_per_pod;    /* the gpus / cpus column is per pod (PAI, Alibaba v2026), else per job */
    const char *header;                 /* the column names when the file has no header row (PAI), else NULL */
    const char *id_suffix;              /* a column appended to the id ("JOB-TASK"), NULL = none */
    /* a second table joined by a key column (PAI: the job table gives each task its submit time and user) */
    const char *join_path;              /* resolved; NULL = no join */
    const char *join_header;            /* its column names (no header row), NULL = it has one */
    const char *join_key;               /* the key column, named the same in both tables */
    const char *join_submit, *join_tenant;   /* its columns giving the submit time and the tenant */
} job_trace_cfg;

/* Why a row was skipped (counted; reported as jobs_skipped_*). */
typedef enum { JS_STATE, JS_NO_GPU, JS_NOT_STARTED, JS_STEP, JS_NO_JOB, JS_N } job_skip;
extern const char *const job_skip_names[JS_N];

typedef struct job_row {
    int line;
    const char *id, *tenant, *state, *gpu_type;   /* point into the reader's row; "" = none */
    const char *labels[JOB_MAX_LABELS];
    int64_t submit_ms, start_ms, end_ms;          /* epoch ms; start/end -1 = unknown */
    int64_t duration_ms;                           /* recorded run time */
    int64_t fail_ms;                               /* recorded failure time, -1 = none */
    int64_t gpu_milli;                             /* the whole job's GPUs x 1000 */
    int64_t cpu_milli;                             /* the whole job's CPUs x 1000 (0 = none given) */
    int64_t mem_bytes;                             /* the whole job's memory (0 = none given) */
    int64_t nodes;                                 /* pods of the job (>= 1) */
    int nattempts;                                 /* Philly: runs of the job (a restart after each), 0 = one */
    const int64_t *attempts;                       /* their start, end pairs (epoch ms), in order */
} job_row;

typedef struct job_reader job_reader;

/* Fill cfg with preset `name`; -1 when there is no such preset. */
int job_trace_preset(const char *name, job_trace_cfg *cfg);
/* Names of the presets, ", "-separated (messages, docs). */
const char *job_trace_preset_names(void);

/* Open the trace and check the header has every required column; with a
 * join, read the joined table whole (one entry per key: its submit time and
 * tenant) and check it. */
int job_reader_open(const job_trace_cfg *cfg, job_reader **out, strbuf *err);
/* The next job kept by the filters: 1, 0 at the end, -1 with err set.
 * Skipped rows are counted in skipped[]. */
int job_reader_next(job_reader *r, job_row *row, strbuf *err);
const int64_t *job_reader_skipped(const job_reader *r);
int64_t job_reader_rows(const job_reader *r);
/* Philly: attempts left out for a missing start or end time. */
int64_t job_reader_attempts_dropped(const job_reader *r);
void job_reader_close(job_reader *r);

/* Parsers (exposed for tests): 0 or -1. */
int job_parse_time(const char *s, int64_t *ms);
int job_parse_duration(const char *s, int64_t *ms);

#endif
