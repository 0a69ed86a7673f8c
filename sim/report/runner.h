/*
 * runner.h -- run a scenario once per seed, with `--set` overrides, and
 * append every run to one results database. Used by `drasim run`, `check`
 * and `sweep`.
 */
#ifndef DRASIM_REPORT_RUNNER_H
#define DRASIM_REPORT_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/sim.h"
#include "store/store.h"
#include "util/strbuf.h"

enum { RUN_OK = 0, RUN_ERROR = -1, RUN_BAD_INPUT = -2, RUN_INTERRUPTED = -3 };

typedef struct run_batch {
    const char *scenario_path;
    const char *const *sets;          /* "KEY=VALUE" overrides, in order */
    const char *const *set_origins;   /* NULL, or per override its name in errors (NULL entry: "--set") */
    size_t nsets;
    const uint64_t *seeds;            /* none: the scenario's own seed */
    size_t nseeds;
    const char *policy;               /* placement policy override (trace workloads), or NULL */
    bool progress;                    /* progress line on stderr */
    volatile sig_atomic_t *interrupt; /* may be NULL */
    /* after each stored run (may be NULL) */
    void (*on_run)(const sim_run *run, size_t nnodes, int64_t run_id, void *ud);
    void *ud;
    /* when set, a cluster with no nodes sets *no_nodes and ends the batch with
     * RUN_OK instead of an error (plan: the all-zero fleet is a failing point) */
    bool *no_nodes;
} run_batch;

/* Simulate every seed and write each run into `st` (opened by the caller).
 * Returns RUN_OK or a negative RUN_* with err set. */
int run_batch_execute(const run_batch *b, store *st, strbuf *err);

/* Parse a seed list: "42", "42..51", "1,5,9", "1,5..7". At most 100000
 * seeds. Returns 0 or -1 with err set; *out is malloc'ed. */
int parse_seed_list(const char *text, uint64_t **out, size_t *n, strbuf *err);

#endif
