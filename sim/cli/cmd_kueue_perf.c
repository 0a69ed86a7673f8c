/* cmd_kueue_perf.c -- `drasim kueue-perf GENERATOR.yaml [-o DB] [--scenario OUT.yaml]`:
 * Kueue's scheduler performance scenarios (kueue ff69552e79
 * test/performance/scheduler/configs/, model/kueue_perf.h) replayed in
 * simulated time (docs/QUEUES.md, "Kueue's performance scenarios").
 *
 * The generator's objects as runner/generator/generator.go creates them:
 * per cohort set `count` Cohorts CLASS-I; per queues set `count`
 * ClusterQueues QCLASS-QSI-IDX-COHORT with a cpu quota (nominal,
 * borrowingLimit) in one flavor and the preemption policies (unset: Never,
 * the API default), a namespace and LocalQueue of the same name; per
 * workloads set (generateWlSet), workload k of count x templates (templates
 * innermost) created at (k + 1) x creationIntervalMs, one pod set of one pod
 * requesting `request` cpu at `priority`. The runner's controller
 * (runner/controller/controller.go) finishes an admitted Workload runtimeMs
 * after its admission and clears the quota reservation of an evicted one at
 * once, so it is requeued and runs its whole runtime again: here every pod
 * group is `owner: job` (the replacement is the same Workload requeued, with
 * its creation time as queue order) with `terminationGracePeriodSeconds: 0`.
 * Kueue's test has no nodes; drasim's pods need some, so the fleet is made
 * large enough never to hold an admitted pod back (scenario_text): a pod
 * binds at the instant its Workload is admitted.
 *
 * Printed as Kueue's recorder summarises (runner/recorder/recorder.go
 * recordWLEvent, WriteSummary; checker/checker_test.go): per ClusterQueue
 * class the cpu usage integrated over the run against the class's nominal
 * quota (sum over its queues of usage x time / (run length x sum of nominal
 * quotas)); per workload class the average time to admission, from the
 * Workload's creation to its last admission (a preempted Workload's first
 * run and its wait again count in). Kueue's published means (the
 * rangespec.yaml comments of the same commit) are printed beside them when
 * the config is one of Kueue's own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "model/kueue_perf.h"
#include "report/runner.h"
#include "util/xalloc.h"

typedef struct perf_group {   /* one pod group of the generated scenario: a template of one ClusterQueue */
    const char *wl_cls, *cq_cls;
    double cores;             /* cpu request of its one pod */
} perf_group;

typedef struct perf_out {
    perf_group *groups;
    size_t ngroups;
    const char **cq_classes;
    double *cq_nominal;       /* per ClusterQueue class: sum of nominal quotas (cores) */
    size_t ncq;
    const struct perf_published *published;   /* Kueue's figures for this config, NULL: not one of Kueue's */
} perf_out;

static void milli(strbuf *b, int64_t m) {
    if (m % 1000 == 0) sb_printf(b, "\"%lld\"", (long long)(m / 1000));
    else sb_printf(b, "%lldm", (long long)m);
}

/* The scenario of config c into y; the pod groups' classes into o. */
static void scenario_text(const kperf_config *c, const char *name, strbuf *y, perf_out *o) {
    strbuf q = {0}, w = {0};
    int64_t quota = 0, biggest = 0, smallest = INT64_MAX;   /* nominal quotas in all; requests (millicores) */
    size_t ng = 0;
    sb_printf(&q, "queues:\n  manager: kueue\n  objects:\n  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: "
                  "ResourceFlavor, metadata: {name: %s}}\n", c->flavor);
    for (size_t s = 0; s < c->n; s++) {
        const kperf_cohort *co = &c->cohorts[s];
        for (int64_t ci = 0; ci < co->count; ci++) {
            sb_printf(&q, "  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: Cohort, metadata: {name: %s-%lld}}\n",
                      co->cls, (long long)ci);
            for (size_t qsi = 0; qsi < co->n; qsi++) {
                const kperf_qset *qs = &co->qs[qsi];
                size_t k = 0;
                while (k < o->ncq && o->cq_classes[k] != qs->cls) k++;
                if (k == o->ncq) {
                    o->cq_classes = xrealloc(o->cq_classes, (o->ncq + 1) * sizeof *o->cq_classes);
                    o->cq_nominal = xrealloc(o->cq_nominal, (o->ncq + 1) * sizeof *o->cq_nominal);
                    o->cq_classes[o->ncq] = qs->cls;
                    o->cq_nominal[o->ncq++] = 0;
                }
                for (int64_t idx = 0; idx < qs->count; idx++) {
                    char cq[200];
                    snprintf(cq, sizeof cq, "%s-%zu-%lld-%s-%lld", qs->cls, qsi, (long long)idx, co->cls, (long long)ci);
                    o->cq_nominal[k] += (double)qs->nominal_milli / 1000.0;
                    quota += qs->nominal_milli;
                    sb_printf(&q, "  - apiVersion: kueue.x-k8s.io/v1beta2\n    kind: ClusterQueue\n    metadata: "
                                  "{name: %s}\n    spec:\n      cohortName: %s-%lld\n", cq, co->cls, (long long)ci);
                    if (qs->reclaim || qs->within)
                        sb_printf(&q, "      preemption: {reclaimWithinCohort: %s, withinClusterQueue: %s}\n",
                                  qs->reclaim ? qs->reclaim : "Never", qs->within ? qs->within : "Never");
                    sb_printf(&q, "      resourceGroups:\n      - coveredResources: [cpu]\n        flavors:\n        "
                                  "- name: %s\n          resources:\n          - {name: cpu, nominalQuota: ", c->flavor);
                    milli(&q, qs->nominal_milli);
                    if (qs->borrowing_milli >= 0) {
                        sb_puts(&q, ", borrowingLimit: ");
                        milli(&q, qs->borrowing_milli);
                    }
                    sb_printf(&q, "}\n  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, metadata: {name: %s, "
                                  "namespace: %s}, spec: {clusterQueue: %s}}\n", cq, cq, cq);
                    for (size_t si = 0; si < qs->n; si++) {
                        const kperf_wlset *ws = &qs->sets[si];
                        for (size_t t = 0; t < ws->n; t++) {
                            const kperf_wl *wl = &ws->wls[t];
                            if (wl->request_milli > biggest) biggest = wl->request_milli;
                            if (wl->request_milli < smallest) smallest = wl->request_milli;
                            sb_printf(&w, "  - name: w%zu\n    count: %lld\n    namespace: %s\n    labels: "
                                          "{kueue.x-k8s.io/queue-name: %s}\n    priority: %d\n", ng,
                                      (long long)ws->count, cq, cq, wl->priority);
                            sb_printf(&w, "    arrival: {constant: {interval: %lldms}, start: %lldms}\n",
                                      (long long)(ws->interval_ms * (int64_t)ws->n),
                                      (long long)(ws->interval_ms * (int64_t)(t + 1)));
                            sb_printf(&w, "    duration: %lldms\n    owner: job\n    terminationGracePeriodSeconds: 0\n"
                                          "    requests: {cpu: ", (long long)wl->runtime_ms);
                            milli(&w, wl->request_milli);
                            sb_puts(&w, "}\n");
                            o->groups = xrealloc(o->groups, (ng + 1) * sizeof *o->groups);
                            o->groups[ng++] = (perf_group){wl->cls, qs->cls, (double)wl->request_milli / 1000.0};
                        }
                    }
                }
            }
        }
    }
    o->ngroups = ng;
    /* The generator makes no cohort quota, so a cohort never uses more than
     * its ClusterQueues' nominal quotas (borrowing moves quota between them):
     * the admitted usage is at most `quota`. Nodes of at least 4 x the largest
     * request, twice `quota` in all: a node has less than the largest request
     * free only when more than 3/4 of it is used, so while the usage is at
     * most half the fleet some node holds any admitted pod. About 32 big
     * nodes (kube-scheduler's work per pod grows with the node count), with
     * maxPods above what their cpu holds of the smallest request. */
    int64_t node_milli = biggest * 4 > 64000 ? biggest * 4 : 64000;
    if (2 * quota / 32 > node_milli) node_milli = 2 * quota / 32;
    node_milli = (node_milli + 999) / 1000 * 1000;
    int64_t nodes = (2 * quota + node_milli - 1) / node_milli + 1;
    int64_t max_pods = node_milli / (smallest > 0 ? smallest : 1) + 1;
    if (max_pods < 110) max_pods = 110;
    sb_printf(y, "# drasim kueue-perf: Kueue's performance generator config %s as a scenario\n"
                 "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: kueue-perf}\nseed: 1\n"
                 "stop: {allPodsDone: true}\noutput: {sampleInterval: 10s}\n"
                 "cluster:\n  nodePools:\n  - {name: n, count: %lld, cpu: \"%lld\", memory: 64Ti, maxPods: %lld}\n"
                 "scheduling:\n  mode: device-plugin\nworkload:\n  podGroups:\n%s%s",
              name, (long long)nodes, (long long)(node_milli / 1000), (long long)max_pods, sb_str(&w), sb_str(&q));
    sb_free(&q);
    sb_free(&w);
}

/* Kueue's published means for its own configs (kueue ff69552e79
 * test/performance/scheduler/configs/{baseline,large-scale}/rangespec.yaml,
 * the comments above each threshold): minimalkueue's wall time, the cq
 * class's usage, the average time to admission of small / medium / large. */
typedef struct perf_published {
    const char *name, *canon;
    double wall_ms, usage_pct, tta_ms[3];
} perf_published;
static const char *const PUBLISHED_CLASSES[3] = {"small", "medium", "large"};
static const perf_published PUBLISHED[] = {
    {"baseline",
     "rf|C cohort 5|Q cq 6 20000 100000 Any LowerPriority|S 350 100|W small 200 50 1000|S 100 500|W medium 500 100 5000"
     "|S 50 1200|W large 1000 200 20000",
     351116.4, 55.9, {215468, 76768, 16501}},
    {"large-scale",
     "rf|C cohort 10|Q cq 100 20000 100000 Any LowerPriority|S 35 60|W small 150 50 1000|S 11 300|W medium 350 100 5000"
     "|S 4 700|W large 700 200 20000",
     1179411, 38.64, {700379, 256413, 105604}},
};

/* The config as one line (every field the replay uses), to recognise Kueue's own. */
static void canonical(const kperf_config *c, strbuf *b) {
    sb_puts(b, c->flavor);
    for (size_t i = 0; i < c->n; i++) {
        const kperf_cohort *co = &c->cohorts[i];
        sb_printf(b, "|C %s %lld", co->cls, (long long)co->count);
        for (size_t j = 0; j < co->n; j++) {
            const kperf_qset *q = &co->qs[j];
            sb_printf(b, "|Q %s %lld %lld %lld %s %s", q->cls, (long long)q->count, (long long)q->nominal_milli,
                      (long long)q->borrowing_milli, q->reclaim ? q->reclaim : "Never", q->within ? q->within : "Never");
            for (size_t k = 0; k < q->n; k++) {
                const kperf_wlset *ws = &q->sets[k];
                sb_printf(b, "|S %lld %lld", (long long)ws->count, (long long)ws->interval_ms);
                for (size_t t = 0; t < ws->n; t++)
                    sb_printf(b, "|W %s %lld %d %lld", ws->wls[t].cls, (long long)ws->wls[t].runtime_ms,
                              ws->wls[t].priority, (long long)ws->wls[t].request_milli);
            }
        }
    }
}

static const perf_published *published_for(const kperf_config *c) {
    strbuf b = {0};
    canonical(c, &b);
    const perf_published *p = NULL;
    for (size_t i = 0; i < sizeof PUBLISHED / sizeof *PUBLISHED && !p; i++)
        if (!strcmp(sb_str(&b), PUBLISHED[i].canon)) p = &PUBLISHED[i];
    sb_free(&b);
    return p;
}

/* Kueue's summary (recorder.go WriteSummary, checker_test.go): per
 * ClusterQueue class, cpu usage x time over its queues / (run length x
 * their nominal quotas); per workload class, the mean over its Workloads of
 * their last admission minus their creation. A Workload is the chain of a
 * pod and its replacements (sim_pod.replaces); every pod binds at its
 * admission (the fleet holds the admitted usage twice), so a pod's start is its
 * Workload's admission and its end the release of its quota. */
static void print_summary(const sim_run *run, size_t nnodes, int64_t run_id, void *ud) {
    (void)nnodes, (void)run_id;
    perf_out *o = ud;
    double *used = xcalloc(o->ncq + 1, sizeof *used);
    const char **wcls = xcalloc(o->ngroups + 1, sizeof *wcls);
    double *wsum = xcalloc(o->ngroups + 1, sizeof *wsum), *wn = xcalloc(o->ngroups + 1, sizeof *wn),
           *wev = xcalloc(o->ngroups + 1, sizeof *wev);
    size_t *cq_of = xcalloc(o->ngroups + 1, sizeof *cq_of), *wl_of = xcalloc(o->ngroups + 1, sizeof *wl_of);
    size_t nw = 0;
    for (size_t g = 0; g < o->ngroups; g++) {
        const perf_group *pg = &o->groups[g];
        size_t k = 0;
        while (o->cq_classes[k] != pg->cq_cls) k++;
        cq_of[g] = k;
        size_t j = 0;
        while (j < nw && wcls[j] != pg->wl_cls) j++;
        if (j == nw) wcls[nw++] = pg->wl_cls;
        wl_of[g] = j;
    }
    int64_t unfinished = 0, foreign = 0;
    for (size_t i = 0; i < run->pods.len; i++) {
        const sim_pod *p = &run->pods.data[i];
        if (p->group >= o->ngroups) {
            foreign++;
            continue;
        }
        size_t g = p->group;
        if (p->start >= 0) {
            sim_time end = p->end >= 0 ? p->end : run->end_time;
            used[cq_of[g]] += o->groups[g].cores * (double)(end - p->start) / 1000.0;
        }
        if (sim_pod_replaces(run, (uint32_t)i)) wev[wl_of[g]]++;
        if (p->state != POD_SUCCEEDED) {
            if (p->state != POD_DELETED) unfinished++;
            continue;
        }
        const sim_pod *root = p;   /* the Workload's first pod: its creation */
        for (uint32_t at = (uint32_t)i, prev; (prev = sim_pod_replaces(run, at)); at = prev - 1) root = &run->pods.data[prev - 1];
        wsum[wl_of[g]] += (double)(p->start - root->arrival);
        wn[wl_of[g]]++;
    }
    const perf_published *pub = o->published;
    double span_s = (double)run->end_time / 1000.0;
    printf("kueue-perf: %.0f workloads, run length %.1f s (simulated)", sim_metric_get(run, "pods_arrived") -
           sim_metric_get(run, "pods_replaced"), span_s);
    if (pub) printf("; Kueue's %s: %.0f ms (wall time, minimalkueue)", pub->name, pub->wall_ms);
    printf("\n");
    if (unfinished || foreign)
        printf("WARNING: %lld pod(s) did not finish; the figures leave them out\n", (long long)(unfinished + foreign));
    printf("  ClusterQueue class  average usage (%% of nominal quota)%s\n", pub ? "  Kueue" : "");
    for (size_t k = 0; k < o->ncq; k++) {
        printf("  %-18s  %.1f", o->cq_classes[k],
               span_s > 0 && o->cq_nominal[k] > 0 ? 100.0 * used[k] / (span_s * o->cq_nominal[k]) : 0.0);
        if (pub && !strcmp(o->cq_classes[k], "cq")) printf("  %.2f", pub->usage_pct);
        printf("\n");
    }
    printf("  workload class  workloads  evictions  average time to admission (ms)%s\n", pub ? "  Kueue" : "");
    for (size_t j = 0; j < nw; j++) {
        printf("  %-14s  %9.0f  %9.0f  %.0f", wcls[j], wn[j], wev[j], wn[j] ? wsum[j] / wn[j] : 0.0);
        for (size_t c = 0; pub && c < 3; c++)
            if (!strcmp(wcls[j], PUBLISHED_CLASSES[c])) printf("  %.0f", pub->tta_ms[c]);
        printf("\n");
    }
    free(used), free(wcls), free(wsum), free(wn), free(wev), free(cq_of), free(wl_of);
}

static void usage(FILE *f) {
    fputs("usage: drasim kueue-perf GENERATOR.yaml [-o DB] [--scenario OUT.yaml]\n\n"
          "Replay one of Kueue's scheduler performance generator configs (kueue\n"
          "test/performance/scheduler/configs/*/generator.yaml) in simulated time and print\n"
          "Kueue's figures: per ClusterQueue class the average usage against nominal quota,\n"
          "per workload class the average time to admission (docs/QUEUES.md).\n\n"
          "  -o DB               keep the run's results database\n"
          "  --scenario OUT.yaml write the drasim scenario the config becomes\n"
          "exit codes: 0 ok, 2 usage or processing error, 3 invalid generator config\n",
          f);
}

int cmd_kueue_perf(int argc, char **argv) {
    const char *path = NULL, *out = NULL, *scn_out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--scenario") && i + 1 < argc) {
            scn_out = argv[++i];
        } else if (argv[i][0] == '-' || path) {
            fprintf(stderr, "drasim kueue-perf: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_ERROR;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        usage(stderr);
        return EXIT_ERROR;
    }
    kperf_config c;
    strbuf err = {0}, y = {0};
    if (kperf_load(path, &c, &err)) {
        fprintf(stderr, "drasim kueue-perf: %s\n", sb_str(&err));
        sb_free(&err);
        return EXIT_BAD_INPUT;
    }
    perf_out o = {0};
    scenario_text(&c, path, &y, &o);
    o.published = published_for(&c);
    kperf_free(&c);
    char tmp_scn[] = "/tmp/drasim-kueue-perf-XXXXXX", tmp_db[] = "/tmp/drasim-kueue-perf-db-XXXXXX";
    const char *scn = scn_out;
    int rc = EXIT_OK, fd = -1;
    FILE *f = NULL;
    if (!scn) {
        fd = mkstemp(tmp_scn);
        scn = tmp_scn;
        f = fd >= 0 ? fdopen(fd, "w") : NULL;
    } else {
        f = fopen(scn, "w");
    }
    if (!f || fwrite(y.s, 1, y.len, f) != y.len || fclose(f)) {
        fprintf(stderr, "drasim kueue-perf: cannot write %s\n", scn);
        rc = EXIT_ERROR;
        goto done;
    }
    const char *db = out;
    if (!db) {
        int dfd = mkstemp(tmp_db);
        if (dfd >= 0) close(dfd), unlink(tmp_db);
        db = tmp_db;
    }
    store st = {0};
    if (store_open(&st, db, &err)) {
        store_abort(&st);
        fprintf(stderr, "drasim kueue-perf: %s\n", sb_str(&err));
        rc = EXIT_ERROR;
        goto done;
    }
    run_batch b = {.scenario_path = scn, .on_run = print_summary, .ud = &o};
    int brc = run_batch_execute(&b, &st, &err);
    if (brc == RUN_OK && store_commit(&st, &err)) brc = RUN_ERROR;
    if (brc != RUN_OK) {
        store_abort(&st);
        fprintf(stderr, "drasim kueue-perf: %s\n", sb_str(&err));
        rc = brc == RUN_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_ERROR;
    }
    if (!out) unlink(tmp_db);
done:
    if (!scn_out && fd >= 0) unlink(tmp_scn);
    free(o.groups);
    free(o.cq_classes);
    free(o.cq_nominal);
    sb_free(&y);
    sb_free(&err);
    return rc;
}
