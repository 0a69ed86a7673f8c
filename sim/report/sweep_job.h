/*
 * sweep_job.h -- `drasim sweep ... --emit-job DIR` (docs/SWEEPS.md): the
 * manifests that run a sweep's shards as a Kubernetes Indexed Job, and a
 * Slurm array script. The scenario and the files it reads that the image
 * does not hold go into a ConfigMap, and with them every regular file below
 * each of `trees` (a Lua generator can open any of them, at any time), but
 * SQLite databases and the output directory; files of the data directories
 * (data/, lua/, reports/, in the image) are referenced, not copied.
 */
#ifndef DRASIM_REPORT_SWEEP_JOB_H
#define DRASIM_REPORT_SWEEP_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

typedef struct sweep_job {
    const char *scenario;          /* as given on the command line */
    const char *const *args;       /* the sweep's other arguments (--param, --set, --seeds), repeated in each shard */
    size_t nargs;
    uint64_t shards;               /* completions: --shard auto/N */
    uint64_t parallelism;
    const char *image;
    const char *dir;               /* output directory */
    bool force;
    const char *const *inputs;     /* every file a run of the scenario read (util/input_files) */
    size_t ninputs;
    const char *const *trees;      /* directories any file of which a run may read (a Lua generator's) */
    size_t ntrees;
} sweep_job;

/* Write DIR/{configmap,results-pvc,job,merge-job}.yaml, DIR/collect.sh and
 * DIR/slurm.sh. 0, or -1 with err (nothing half-written: each file is
 * written whole or not at all). */
int sweep_emit_job(const sweep_job *j, strbuf *err);

/* The first line of every file it writes (after "#!/bin/sh\n" in scripts). */
#define SWEEP_JOB_SIGNATURE "# Written by drasim sweep --emit-job"

#endif
