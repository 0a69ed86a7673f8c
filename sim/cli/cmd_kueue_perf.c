/* cmd_kueue_perf.c -- `drasim kueue-perf GENERATOR.yaml [-o DB] [--scenario OUT.yaml]`:
 * Kueue's scheduler performance scenarios (kueue ff69552e79
 * test/performance/scheduler/configs/, model/kueue_perf.h) replayed in
 * simulated time (docs/QUEUES.md, "Kueue's performance scenarios").
 *
 * The generator's objects as generator.go creates them: per cohort set
 * `count` Cohorts CLASS-I; per queues set `count` ClusterQueues
 * QCLASS-QSI-IDX-COHORT with a cpu quota (nominal, borrowingLimit) in one
 * flavor and the preemption policies, a namespace and LocalQueue of the same
 * name; per workloads set, workload k (of count x templates, templates
 * innermost) created at (k + 1) x creationIntervalMs, requesting `request`
 * cpu with its priority, running runtimeMs once admitted (the runner's
 * controller finishes it then). Kueue's test has no nodes; drasim's pods
 * need some, so the fleet is made large enough never to hold an admitted
 * pod back (64-cpu nodes for twice the sum of every quota): admission is
 * the only wait, a pod's wait is its time to admission.
 *
 * Printed as Kueue's recorder summarises (runner/recorder/recorder.go
 * WriteSummary, checker_test.go): per ClusterQueue class the average cpu
 * usage over the run against the class's nominal quota (usage x time summed
 * over its queues / (run length x sum of nominal quotas)); per workload
 * class the average time to admission (ms).
 */
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
    double cpu_s;             /* request (cores) x runtime (s) */
} perf_group;

typedef struct perf_out {
    perf_group *groups;
    size_t ngroups;
    const char **cq_classes;
    double *cq_nominal;       /* per ClusterQueue class: sum of nominal quotas (cores) */
    size_t ncq;
    int rc;
} perf_out;

static void milli(strbuf *b, int64_t m) {
    if (m % 1000 == 0) sb_printf(b, "\"%lld\"", (long long)(m / 1000));
    else sb_printf(b, "%lldm", (long long)m);
}

/* The scenario of config c into y; the pod groups' classes into o. */
static void scenario_text(const kperf_config *c, const char *name, strbuf *y, perf_out *o) {
    strbuf q = {0}, w = {0};
    int64_t quota = 0;
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
                    quota += qs->nominal_milli + (qs->borrowing_milli > 0 ? qs->borrowing_milli : 0);
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
                            sb_printf(&w, "  - name: w%zu\n    count: %lld\n    namespace: %s\n    labels: "
                                          "{kueue.x-k8s.io/queue-name: %s}\n    priority: %d\n", ng,
                                      (long long)ws->count, cq, cq, wl->priority);
                            sb_printf(&w, "    arrival: {constant: {interval: %lldms}, start: %lldms}\n",
                                      (long long)(ws->interval_ms * (int64_t)ws->n),
                                      (long long)(ws->interval_ms * (int64_t)(t + 1)));
                            sb_printf(&w, "    duration: %lldms\n    requests: {cpu: ", (long long)wl->runtime_ms);
                            milli(&w, wl->request_milli);
                            sb_puts(&w, "}\n");
                            o->groups = xrealloc(o->groups, (ng + 1) * sizeof *o->groups);
                            o->groups[ng++] = (perf_group){wl->cls, qs->cls,
                                                           (double)wl->request_milli / 1000.0 *
                                                               (double)wl->runtime_ms / 1000.0};
                        }
                    }
                }
            }
        }
    }
    o->ngroups = ng;
    int64_t nodes = quota / 32000 + 1;   /* 64-cpu nodes: twice every quota */
    sb_printf(y, "# drasim kueue-perf: Kueue's performance generator config %s as a scenario\n"
                 "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: kueue-perf}\nseed: 1\n"
                 "stop: {allPodsDone: true}\noutput: {sampleInterval: 10s}\n"
                 "cluster:\n  nodePools:\n  - {name: n, count: %lld, cpu: \"64\", memory: 256Gi}\n"
                 "scheduling:\n  mode: device-plugin\nworkload:\n  podGroups:\n%s%s",
              name, (long long)nodes, sb_str(&w), sb_str(&q));
    sb_free(&q);
    sb_free(&w);
}

/* Kueue's summary: ClusterQueue class usage, workload class time to admission. */
static void print_summary(const sim_run *run, size_t nnodes, int64_t run_id, void *ud) {
    (void)nnodes, (void)run_id;
    perf_out *o = ud;
    double *used = xcalloc(o->ncq + 1, sizeof *used);
    const char **wcls = xcalloc(o->ngroups + 1, sizeof *wcls);
    double *wsum = xcalloc(o->ngroups + 1, sizeof *wsum), *wn = xcalloc(o->ngroups + 1, sizeof *wn);
    size_t nw = 0;
    double *arrived = xcalloc(o->ngroups + 1, sizeof *arrived), *started = xcalloc(o->ngroups + 1, sizeof *started),
           *wait = xcalloc(o->ngroups + 1, sizeof *wait);
    for (size_t i = 0; i < run->summary.len; i++) {
        const sim_metric *m = &run->summary.data[i];
        if (!m->group || m->group[0] != 'w') continue;
        char *end;
        unsigned long g = strtoul(m->group + 1, &end, 10);
        if (*end || g >= o->ngroups) continue;
        if (!strcmp(m->name, "pods_arrived")) arrived[g] = m->value;
        else if (!strcmp(m->name, "pods_scheduled")) started[g] = m->value;
        else if (!strcmp(m->name, "wait_censored_mean_s")) wait[g] = m->value;
    }
    for (size_t g = 0; g < o->ngroups; g++) {
        const perf_group *pg = &o->groups[g];
        size_t k = 0;
        while (o->cq_classes[k] != pg->cq_cls) k++;
        used[k] += started[g] * pg->cpu_s;
        size_t j = 0;
        while (j < nw && wcls[j] != pg->wl_cls) j++;
        if (j == nw) wcls[nw++] = pg->wl_cls;
        wsum[j] += wait[g] * arrived[g];
        wn[j] += arrived[g];
    }
    double span_s = (double)run->end_time / 1000.0;
    printf("kueue-perf: %.0f workloads, run length %.1f s (simulated)\n", sim_metric_get(run, "pods_arrived"), span_s);
    printf("  ClusterQueue class  average usage (%% of nominal quota)\n");
    for (size_t k = 0; k < o->ncq; k++)
        printf("  %-18s  %.1f\n", o->cq_classes[k],
               span_s > 0 && o->cq_nominal[k] > 0 ? 100.0 * used[k] / (span_s * o->cq_nominal[k]) : 0.0);
    printf("  workload class  workloads  average time to admission (ms)\n");
    for (size_t j = 0; j < nw; j++) printf("  %-14s  %9.0f  %.0f\n", wcls[j], wn[j], wn[j] ? 1000.0 * wsum[j] / wn[j] : 0.0);
    free(used), free(wcls), free(wsum), free(wn), free(arrived), free(started), free(wait);
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
