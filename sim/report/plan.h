/*
 * plan.h -- `drasim plan` (docs/CI.md): the smallest or cheapest fleet whose
 * runs meet every expectation of an expect file.
 *
 * plan_search: the search over the varied pools' node counts, assuming
 * monotonicity (more nodes never make a passing point fail). It finds the
 * point of least cost (sum of price x count; ties: lexicographically
 * smallest) that passes, as a full grid would, by
 *   1. probing the largest point (all MAX): if it fails, no fleet passes;
 *   2. bisecting each dimension with the others at MAX: m[d] = the least
 *      count of pool d that passes (no passing point has fewer);
 *   3. probing m: if it passes it is the answer (it is below every passing
 *      point); else walking the frontier: for every combination of the other
 *      dimensions in [m, MAX] (pruned by cost), bisecting the last one.
 * Every probe result is remembered; a point above a passing one passes and a
 * point below a failing one fails without a run. Pools that are twins
 * (plan_dim.twin: identical but for their name) are one dimension, their
 * total, probed at its lexicographically smallest split: O(log n) probes
 * where every tie among their splits would otherwise be walked. Probes are asked for in
 * batches (up to `jobs` at a time) so that they can run in parallel.
 *
 * plan_probe: runs a batch of points, each in a child process (fork) that
 * simulates every seed into its own temporary database and sends pass/fail,
 * the expectations' values and the autoscaler's measured cost back through a
 * pipe.
 *
 * A pool with `autoscaling` (a node group, docs/AUTOSCALER.md) is varied by
 * its autoscaling.max, not its count: price x max is an upper bound of what
 * the group can cost per hour and grows with max, so the search stays
 * monotone; the measured cost (summary ca_cost, ca_node_hours) is reported
 * beside it, not searched on (it need not grow with max).
 */
#ifndef DRASIM_REPORT_PLAN_H
#define DRASIM_REPORT_PLAN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/expect.h"
#include "util/strbuf.h"

typedef struct plan_dim {
    const char *pool;
    int64_t lo, hi;
    double price;        /* per node (per hour with --cost; 1 = count nodes) */
    bool autoscaled;     /* a node group: the probes set autoscaling.max, not count */
    int64_t start_count; /* autoscaled: the scenario's count (start size), lowered to max when above */
    int twin;            /* pools identical but for their name share a twin number (> 0); 0: none */
} plan_dim;

/* A dimension without order (--vary POOL.FIELD=a,b,c): one value of the list
 * per probe, e.g. a static MIG layout, a GPU model, sharing replicas. The
 * count search runs once per combination of the choices (plan_choices.c). */
typedef struct plan_choice {
    const char *pool;
    const char *field;       /* what it sets under cluster.nodePools.POOL: "gpu.migLayout", "gpu.model", ... */
    const char *arg;         /* the --vary argument, for messages */
    const char *origin;      /* "--vary ARG": names the override in a run's errors */
    const char *set_key;     /* the scenario key it sets (a ClusterQueue's quota, cli/plan_vary.c); NULL:
                              * cluster.nodePools.POOL.FIELD */
    const char **values;     /* n values, in the order given */
    double *prices;          /* per value a price per node and hour (gpu.model MODEL:PRICE), or NULL */
    size_t n;
    int64_t topo_other;      /* topology.racks: the pool's nodesPerRack; topology.nodesPerRack: its racks
                              * (the nodes of a probe, plan_nodes); 0 otherwise */
} plan_choice;

/* One probed point and what its runs gave. */
typedef struct plan_probe {
    int64_t *x;          /* count per dimension */
    bool pass;
    char *failing;       /* the first failing expectation ("max(wait_p99_s) <= 600"), or NULL */
    double *values;      /* per threshold of the expect file: its value (NAN: missing) */
    char **dbs;          /* the probe's temporary databases (one per batch of seeds) */
    size_t ndbs;
    size_t nruns;        /* runs (seeds) so far */
    double *runv;        /* per run r and threshold t: runv[r * nthresholds + t] (NAN: missing) */
    char *baseline_failing;   /* the first failing baseline check of a batch, or NULL */
    bool no_nodes;       /* the point has no node at all: a failing point without runs */
    bool undecided;      /* --confidence: still undecided at the cap of seeds (pass: the point estimate) */
    char *undecided_by;  /* the first threshold left undecided, or NULL */
    bool verify;         /* a probe of plan_verify (above the answer), not of the search */
    bool nonmonotone;    /* passes while a larger point fails, or the reverse */
    double seconds;      /* wall time of the child */
    double ca_cost, ca_node_hours;  /* summary ca_cost / ca_node_hours, mean over seeds (NAN: none) */
    size_t *pick;        /* with choices: the index of each choice's value (NULL without) */
    double cost;         /* price x nodes with the prices of its choices (set after the search) */
    double objective;    /* --minimize: the measured cost_total or energy_kwh, mean over seeds (NAN: none) */
    bool candidate;      /* --minimize: a combination's answer or a passing probe above it (plan_minimize.c) */
} plan_probe;

typedef struct plan_ctx plan_ctx;
/* Run the n points (each x[k] counts); fill probes[i]. 0, or -1 with err
 * (and *code: 2 processing error, 3 invalid input). */
typedef int (*plan_probe_fn)(plan_ctx *c, int64_t *const *points, size_t n, plan_probe *out, int *code, strbuf *err);

struct plan_ctx {
    const plan_dim *dims;
    size_t k;
    int jobs;
    plan_probe_fn probe;
    /* the probe runner's inputs (plan_probe.c) */
    const char *scenario;
    const char *const *sets;          /* expect file's `set`, then --set: before the pool counts */
    const char *const *set_origins;
    size_t nsets;
    const uint64_t *seeds;
    size_t nseeds;
    const uint64_t *batch_seeds;      /* when set: the seeds the probes run now (--confidence's later batches) */
    size_t nbatch;
    const expect_spec *expect;
    /* --confidence (plan_confidence.c): 0 = off; seeds[0..nseeds) first, then
     * more of more_seeds[] (max_seeds in all) while a probe is undecided */
    double confidence;
    const uint64_t *more_seeds;
    size_t max_seeds, looks;
    const char *tmpdir;
    /* choices (plan_choices.c): the count search runs per combination; probes[].pick, best_pick */
    const plan_choice *choices;
    size_t nchoices;
    size_t *best_pick;                /* the answer's choice of each (when found and nchoices) */
    /* --minimize cost|energy (plan_minimize.c): the summary metric measured per probe, or NULL;
     * batch: points per search step whatever `jobs` (2 plain, 4 with an objective; 0: jobs, for
     * callers that do not care), so the probes, the answer and the plan table never depend on -j */
    const char *objective;
    int batch;
    volatile sig_atomic_t *interrupt;
    void *ud;                         /* plan_search's own use (the search over twins' totals) */
    /* results */
    plan_probe *probes;               /* in the order they were run */
    size_t nprobes;
    bool found;
    bool nonmonotone;                 /* plan_verify found a pass below a fail */
    int64_t *best;                    /* the answer when found */
    double best_cost;
};

double plan_cost(const plan_ctx *c, const int64_t *x);
/* Does a varied pool have `autoscaling` (the probes then report measured cost)? */
bool plan_autoscaled(const plan_ctx *c);
/* What a dimension sets: cluster.nodePools.POOL.<this>, "count" or "autoscaling.max". */
const char *plan_dim_field(const plan_dim *d);
/* Search (see above). 0 (c->found says whether a fleet passes), or -1 with err and *code. */
int plan_search(plan_ctx *c, int *code, strbuf *err);
void plan_free(plan_ctx *c);

/* plan_choices.c: the whole search: plan_search and plan_verify, once per
 * combination of the choices (in the odometer order of their lists, the
 * first choice slowest) with its values as overrides after c->sets and its
 * prices on the pool; the answer is the cheapest combination's (ties: the
 * earlier combination). Without choices, plan_search then plan_verify.
 * Sets every probe's cost. 0, or -1 with err and *code. */
int plan_search_all(plan_ctx *c, int *code, strbuf *err);
/* Do two probes have the same choices (a monotone comparison is meaningful)? */
bool plan_same_choices(const plan_ctx *c, const plan_probe *p, const plan_probe *q);
/* "POOL.FIELD=VALUE ..." of a probe's choices (nothing without choices). */
/* The scenario key a choice sets ("cluster.nodePools.POOL.FIELD" or its set_key) into out. */
void plan_choice_key(const plan_choice *ch, strbuf *out);
void plan_choices_text(const plan_ctx *c, const size_t *pick, strbuf *out);

/* plan_text.c: "big=4 small=8 [choices] (12 nodes[, 20 per hour])"; the
 * pairs of a NOT MONOTONE warning (" pass at P but FAIL at Q;" each); the
 * probe of the answer (NULL when none or it was inferred). */
void plan_point_text(const plan_ctx *c, const int64_t *x, const size_t *pick, double cost, bool by_cost,
                     strbuf *out);
void plan_nonmonotone_text(const plan_ctx *c, strbuf *out);
/* The nodes of a probe: its counts, plus racks x nodesPerRack of each
 * topology pool whose racks or nodesPerRack it varies. */
int64_t plan_nodes(const plan_ctx *c, const int64_t *x, const size_t *pick);
const plan_probe *plan_answer_probe(const plan_ctx *c);

/* plan_eval.c: a probe's pass, values and first failing check from the runs
 * of every batch so far (the thresholds as `drasim check` evaluates them). */
void plan_evaluate(const plan_ctx *c, plan_probe *p);

/* plan_confidence.c: --confidence C. A probe is run on the first seeds,
 * then on batches of more seeds (doubling the runs) while a threshold's
 * pass/fail is not yet decided at level C, up to max_seeds (docs/CI.md,
 * "Confidence"). Same signature as plan_probe_run. */
int plan_probe_confident(plan_ctx *c, int64_t *const *points, size_t n, plan_probe *out, int *code, strbuf *err);
/* The decision of one probe on its runs so far: sets pass, undecided and
 * undecided_by (after plan_evaluate). */
void plan_decide(const plan_ctx *c, plan_probe *p);

/* After the search: probe the points one step above the answer on each
 * axis and mark every pass below (or at) a fail as non-monotone
 * (probe.nonmonotone, c->nonmonotone). 0, or -1 with err and *code. */
int plan_verify(plan_ctx *c, int *code, strbuf *err);

/* c's overrides and their origins, copied into new arrays with room for
 * `room` more (the caller frees both arrays). */
void plan_sets_copy(const plan_ctx *c, size_t room, const char ***sets, const char ***origins);
/* The probe runner: fork per point, at most c->jobs children at once. */
int plan_probe_run(plan_ctx *c, int64_t *const *points, size_t n, plan_probe *out, int *code, strbuf *err);
/* Copy every probe's runs into `dst` (an open store database), run ids
 * renumbered in probe order; fills run_ids[probe] = first run id. 0 or -1. */
int plan_merge(const plan_ctx *c, void *dst_db, int64_t *first_run, strbuf *err);

/* --report DIR: the probes (plan_probes.png/.svg), one plot per threshold
 * (plan_N.png/.svg), then index.html (plan_html). 0 or -1 with err. */
int plan_plot(const plan_ctx *c, const char *dir, bool by_cost, strbuf *err);
/* plan_html.c: DIR/index.html of the plots rp drew, the answer first. 0 or -1 with err. */
struct report;
int plan_html(const plan_ctx *c, const struct report *rp, bool by_cost, strbuf *err);

/* plan_minimize.c: --minimize cost|energy. The answer is the candidate
 * probe (each combination's answer of the search and the passing probes one
 * step above it) with the least measured objective (ties: the earlier
 * probe); sets c->best, best_pick, best_cost. 0, or -1 with err when no
 * candidate has the metric (the scenario has no prices or no power). */
int plan_minimize_answer(plan_ctx *c, strbuf *err);
/* The Pareto front of the probes with runs: the measured objective against
 * the first threshold's value (lower is better for <, <=, else higher); a
 * probe is on it when no other probe is at least as good on both and better
 * on one. Fills on_front[i]; returns how many. */
size_t plan_pareto(const plan_ctx *c, bool *on_front);
/* The front as text: one row per probe on it, the objective ascending. */
void plan_pareto_text(const plan_ctx *c, bool by_cost, strbuf *out);
/* Is the first threshold better when lower (<, <=)? Has the probe runs, an
 * objective and a value of the first threshold (a point of the front's plot)? */
bool plan_pareto_lower_better(const plan_ctx *c);
bool plan_pareto_measured(const plan_ctx *c, const plan_probe *p);

/* plan_pareto.c (--minimize only; nothing otherwise): the table plan_pareto
 * of PLAN.db (every measured probe, its objective, SLO value and whether it
 * is on the front; docs/SCHEMA.md), and the plot plan_pareto of --report DIR
 * (reports/plan_pareto.gp; its data file DIR/data/plan_pareto.dat, the plot
 * appended to rp's). 0 or -1 with err. */
int plan_pareto_store(const plan_ctx *c, void *dst_db, strbuf *err);
struct report;
int plan_pareto_plot(const plan_ctx *c, const char *dir, struct report *rp, strbuf *err);

#endif
