/* test_scenario.c -- scenario files: a complete scenario reads back as
 * written; bad types, unknown keys, missing fields and bad values are
 * reported with FILE:LINE:COL and what was expected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/scenario.h"
#include "util/intern.h"

static const char *const base =
    "apiVersion: drasim/v1\n"                                             /* 1 */
    "kind: Scenario\n"                                                    /* 2 */
    "metadata: {name: t, description: test}\n"                           /* 3 */
    "seed: 7\n"                                                           /* 4 */
    "stop: {time: 1h30m, allPodsDone: true}\n"                            /* 5 */
    "output: {sampleInterval: 30s}\n"                                     /* 6 */
    "cluster:\n"                                                          /* 7 */
    "  nodePools:\n"                                                      /* 8 */
    "  - {name: gpu, count: 2, cpu: \"32\", memory: 256Gi, gpu: {model: H100-80GB, count: 8}}\n" /* 9 */
    "scheduling:\n"                                                       /* 10 */
    "  mode: device-plugin\n"                                             /* 11 */
    "  scoring: {type: MostAllocated, resources: [{name: nvidia.com/gpu, weight: 3}]}\n" /* 12 */
    "  percentageOfNodesToScore: 0\n"                                     /* 13 */
    "workload:\n"                                                         /* 14 */
    "  podGroups:\n"                                                      /* 15 */
    "  - name: train\n"                                                   /* 16 */
    "    count: 10\n"                                                     /* 17 */
    "    arrival: {poisson: {ratePerMinute: 4}, start: 5m}\n"             /* 18 */
    "    duration: {lognormal: {median: 30m, sigma: 0.8}}\n"              /* 19 */
    "    priority: 5\n"                                                   /* 20 */
    "    requests: {cpu: \"8\", memory: 64Gi}\n"                          /* 21 */
    "    nodeSelector: {pool: gpu}\n"                                     /* 22 */
    "    tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n" /* 23 */
    "    gpu:\n"                                                          /* 24 */
    "      devicePlugin: {nvidia.com/gpu: 2, nodeSelector: {nvidia.com/gpu.product: H100}}\n" /* 25 */
    "      dra: {claims: [{name: gpus, spec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu.nvidia.com}}]}}}]}\n" /* 26 */
    "  - name: batch\n"                                                   /* 27 */
    "    arrival: {times: [0s, 10s, 1m]}\n"                               /* 28 */
    "    duration: 90s\n";                                                /* 29 */

/* Parse `src`; return 0/-1 and keep the error text. */
static int parse(const char *src, scenario *s, strbuf *err) {
    memset(s, 0, sizeof *s);
    if (yfile_load_mem("s.yaml", src, strlen(src), &s->file, err)) return -1;
    s->has_file = true;
    return scenario_from_tree(s->file.docs[0], s, err);
}

/* Replace the first `from` in base with `to`, parse, expect failure with `want`. */
static void expect_error(const char *from, const char *to, const char *want) {
    const char *at = strstr(base, from);
    assert_non_null(at);
    char *src = malloc(strlen(base) + strlen(to) + 1);
    size_t pre = (size_t)(at - base);
    memcpy(src, base, pre);
    strcpy(src + pre, to);
    strcat(src, at + strlen(from));
    scenario s;
    strbuf err = {0};
    assert_int_equal(parse(src, &s, &err), -1);
    if (strcmp(sb_str(&err), want) != 0) fprintf(stderr, "got:  %s\nwant: %s\n", sb_str(&err), want);
    assert_string_equal(sb_str(&err), want);
    scenario_free(&s);
    sb_free(&err);
    free(src);
}

static void test_valid_scenario(void **state) {
    scenario s;
    strbuf err = {0};
    int rc = parse(base, &s, &err);
    if (rc) fprintf(stderr, "%s\n", sb_str(&err));
    assert_int_equal(rc, 0);
    assert_string_equal(s.name, "t");
    assert_int_equal(s.seed, 7);
    assert_int_equal(s.stop_time, 90 * 60 * 1000);
    assert_true(s.stop_all_pods_done);
    assert_int_equal(s.sample_interval, 30000);
    assert_int_equal(s.sched.mode, SCHED_MODE_DEVICE_PLUGIN);
    assert_int_equal(s.sched.strategy, SCORE_MOST_ALLOCATED);
    assert_int_equal(s.sched.nscore_resources, 1);
    assert_int_equal(s.sched.score_resources[0].weight, 3);
    assert_int_equal(s.ngroups, 2);
    const pod_group_spec *g = &s.groups[0];
    assert_int_equal(g->count, 10);
    assert_int_equal(g->arrival.kind, ARRIVAL_POISSON);
    assert_int_equal(g->arrival.start, 300000);
    assert_true(g->arrival.mean_gap_ms > 14999.9 && g->arrival.mean_gap_ms < 15000.1);
    assert_int_equal(g->duration.kind, DIST_LOGNORMAL);
    assert_int_equal(g->duration.a, 1800000);
    assert_int_equal(g->priority, 5);
    assert_int_equal(g->nrequests, 2);
    assert_int_equal(quantity_milli_value(&g->requests[0].value), 8000);
    assert_int_equal(quantity_value(&g->requests[1].value), 64LL << 30);
    assert_int_equal(g->nnode_selector, 1);
    assert_int_equal(g->ntolerations, 1);
    assert_int_equal(g->tolerations[0].op, TOL_OP_EXISTS);
    assert_int_equal(g->ndp_resources, 1);
    assert_string_equal(g->dp_resources[0].name, "nvidia.com/gpu");
    assert_int_equal(g->ndp_node_selector, 1);
    assert_non_null(g->dra);
    const pod_group_spec *b = &s.groups[1];
    assert_int_equal(b->count, 3);   /* from the times list */
    assert_int_equal(b->arrival.times[2], 60000);
    assert_int_equal(b->duration.kind, DIST_FIXED);
    assert_int_equal(b->duration.a, 90000);
    scenario_free(&s);
    sb_free(&err);
}

static void test_unknown_keys(void **state) {
    expect_error("seed: 7", "sead: 7",
                 "s.yaml:4:1: unknown field 'sead' in scenario (expected one of: apiVersion, kind, metadata, "
                 "seed, stop, cluster, scheduling, workload, output, autoscaler, faults, queues)");
    expect_error("    priority: 5", "    priorty: 5",
                 "s.yaml:20:5: unknown field 'priorty' in pod group (expected one of: name, count, arrival, "
                 "duration, priority, requests, nodeSelector, affinity, tolerations, gpu, owner, checkpoint, "
                 "terminationGracePeriodSeconds, containers, initContainers, usage, preemptionPolicy, disruptionBudget, gang, namespace, labels, annotations, restartPolicy)");
    expect_error("{lognormal: {median: 30m, sigma: 0.8}}", "{lognormal: {median: 30m, sigma: 0.8, mean: 1m}}",
                 "s.yaml:19:53: unknown field 'mean' in duration.lognormal (expected one of: median, sigma)");
}

static void test_bad_types(void **state) {
    expect_error("count: 10", "count: ten", "s.yaml:17:12: count: expected an integer, found 'ten'");
    expect_error("requests: {cpu: \"8\", memory: 64Gi}", "requests: [8]", "s.yaml:21:15: requests: expected a map, found a list");
    expect_error("mode: device-plugin", "mode: kubelet",
                 "s.yaml:11:9: scheduling.mode: expected device-plugin or dra, found 'kubelet'");
    expect_error("sampleInterval: 30s", "sampleInterval: 30",
                 "s.yaml:6:26: output.sampleInterval: expected a duration such as 90s, 5m, 2h or 1h30m, found '30'");
    expect_error("memory: 64Gi", "memory: 64Gx",
                 "s.yaml:21:34: requests: memory: invalid quantity '64Gx': quantities must match the regular expression "
                 "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    expect_error("nvidia.com/gpu: 2,", "gpu: 2,",
                 "s.yaml:25:22: gpu.devicePlugin: 'gpu' is not an extended resource name (expected DOMAIN/NAME "
                 "such as nvidia.com/gpu)");
    expect_error("operator: Exists", "operator: Maybe", "s.yaml:23:51: toleration operator: expected Equal or Exists");
}

static void test_missing_fields(void **state) {
    expect_error("    duration: 90s\n", "", "s.yaml:27:5: missing field 'duration' in pod group");
    expect_error("kind: Scenario\n", "", "s.yaml:1:1: missing field 'kind' in scenario");
    expect_error("{name: gpus, spec", "{nam: gpus, spec",
                 "s.yaml:26:23: unknown field 'nam' in gpu.dra claim (expected one of: name, spec, resourceClaimName, resourceClaimTemplateName)");
    expect_error("    count: 10\n", "", "s.yaml:16:5: missing field 'count' in pod group 'train'");
}

static void test_bad_values(void **state) {
    expect_error("times: [0s, 10s, 1m]", "times: [0s, 10s, 5s]",
                 "s.yaml:28:32: arrival time: expected non-negative times in ascending order");
    expect_error("{poisson: {ratePerMinute: 4}, start: 5m}", "{poisson: {ratePerMinute: 4}, constant: {interval: 1s}}",
                 "s.yaml:18:44: arrival: expected exactly one of poisson, constant, times");
    expect_error("ratePerMinute: 4", "ratePerMinute: -4", "s.yaml:18:40: arrival rate: expected a positive number");
    expect_error("  - name: batch", "  - name: train", "s.yaml:27:11: duplicate pod group name 'train'");
    expect_error("      devicePlugin: {nvidia.com/gpu: 2, nodeSelector: {nvidia.com/gpu.product: H100}}\n", "",
                 "s.yaml:16:5: pod group 'train' states its GPU demand only for DRA (gpu.dra); add "
                 "gpu.devicePlugin to run it in device-plugin mode");
}

static void test_durations(void **state) {
    static const struct { const char *s; sim_time ms; } ok[] = {
        {"0", 0}, {"90s", 90000}, {"5m", 300000}, {"2h", 7200000}, {"1h30m", 5400000}, {"250ms", 250},
        {"1.5h", 5400000}, {"1d", 86400000}};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        sim_time t;
        assert_int_equal(parse_duration_text(ok[i].s, &t), 0);
        assert_int_equal(t, ok[i].ms);
    }
    static const char *const bad[] = {"", "5", "-5s", "5x", "h", "1h 5m", "1e400h"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sim_time t;
        assert_int_equal(parse_duration_text(bad[i], &t), -1);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_scenario), cmocka_unit_test(test_unknown_keys),
        cmocka_unit_test(test_bad_types),      cmocka_unit_test(test_missing_fields),
        cmocka_unit_test(test_bad_values),     cmocka_unit_test(test_durations),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
