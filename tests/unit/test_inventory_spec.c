/* test_inventory_spec.c -- the scenario's `cluster:` section and
 * `scheduling.devicePlugin:` options: accepted forms and errors (bad type,
 * unknown key, missing field) with their message and line:column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/cluster.h"
#include "util/intern.h"

/* Parse `cluster:` from a scenario text; returns the parse result. */
static int parse(const char *yaml, yfile *f, arena *a, cluster_spec *spec, strbuf *err) {
    memset(a, 0, sizeof *a);
    if (yfile_load_mem("s.yaml", yaml, strlen(yaml), f, err)) fail_msg("YAML: %s", sb_str(err));
    return cluster_spec_parse(ymap_get(f->docs[0], "cluster"), a, spec, err);
}

static void expect_error(const char *yaml, const char *want) {
    yfile f;
    arena a;
    cluster_spec spec;
    strbuf err = {0};
    assert_int_equal(parse(yaml, &f, &a, &spec, &err), -1);
    if (strncmp(sb_str(&err), want, strlen(want)) != 0) fail_msg("got '%s', want '%s'", sb_str(&err), want);
    sb_free(&err);
    arena_free(&a);
    yfile_free(&f);
}

#define HEAD "cluster:\n  nodePools:\n  - name: p\n"

static void test_full_pool(void **state) {
    const char *yaml = HEAD
        "    count: 3\n"
        "    cpu: 96\n"
        "    memory: 1Ti\n"
        "    maxPods: 250\n"
        "    labels: {zone: a, tier: gpu, example.com/empty: \"\", k8s.io/x_y: A.b-1}\n"
        "    taints: [{key: dedicated, value: ml, effect: PreferNoSchedule}]\n"
        "    gpu: {model: H100-80GB, count: 8, mig: static, migLayout: all-balanced}\n"
        "  - name: small\n    count: 0\n    cpu: 500m\n    memory: 4G\n";
    yfile f;
    arena a;
    cluster_spec spec;
    strbuf err = {0};
    if (parse(yaml, &f, &a, &spec, &err)) fail_msg("%s", sb_str(&err));
    assert_int_equal(spec.npools, 2);
    const node_pool_spec *p = &spec.pools[0];
    assert_string_equal(p->name, "p");
    assert_int_equal(p->count, 3);
    assert_int_equal(p->cpu_milli, 96000);
    assert_int_equal(p->memory_bytes, INT64_C(1) << 40);
    assert_int_equal(p->max_pods, 250);
    assert_int_equal(p->nlabels, 4);
    assert_string_equal(p->labels[1].key, "tier");
    assert_string_equal(p->labels[1].value, "gpu");
    assert_int_equal(p->ntaints, 1);
    assert_int_equal(p->taints[0].effect, TAINT_PREFER_NO_SCHEDULE);
    assert_string_equal(p->gpu_model, "H100-80GB");
    assert_int_equal(p->gpus, 8);
    assert_int_equal(p->mig, MIG_STATIC);
    assert_string_equal(p->mig_layout, "all-balanced");
    const node_pool_spec *q = &spec.pools[1];
    assert_int_equal(q->cpu_milli, 500);
    assert_int_equal(q->memory_bytes, 4000000000LL);
    assert_int_equal(q->max_pods, 110);
    assert_null(q->gpu_model);
    assert_int_equal(q->count, 0);
    assert_null(spec.inventory_file);
    sb_free(&err);
    arena_free(&a);
    yfile_free(&f);
}

static void test_recorded_inventory(void **state) {
    yfile f;
    arena a;
    cluster_spec spec;
    strbuf err = {0};
    const char *yaml = "cluster:\n  inventory: rec/cluster.yaml\n";
    memset(&a, 0, sizeof a);
    assert_int_equal(yfile_load_mem("/srv/scenarios/s.yaml", yaml, strlen(yaml), &f, &err), 0);
    assert_int_equal(cluster_spec_parse(ymap_get(f.docs[0], "cluster"), &a, &spec, &err), 0);
    assert_string_equal(spec.inventory_file, "/srv/scenarios/rec/cluster.yaml");   /* relative to the scenario */
    assert_int_equal(spec.npools, 0);
    sb_free(&err);
    arena_free(&a);
    yfile_free(&f);
}

static void test_cluster_errors(void **state) {
    /* bad types */
    expect_error(HEAD "    count: four\n    cpu: 1\n    memory: 1Gi\n", "s.yaml:4:12: count: expected an integer, found 'four'");
    expect_error(HEAD "    count: 1\n    cpu: [1]\n    memory: 1Gi\n", "s.yaml:5:10: cpu: expected a Kubernetes quantity");
    expect_error(HEAD "    count: 1\n    cpu: lots\n    memory: 1Gi\n", "s.yaml:5:10: cpu: invalid quantity 'lots'");
    expect_error(HEAD "    count: 1\n    cpu: \"0\"\n    memory: 1Gi\n", "s.yaml:5:10: cpu: must be greater than zero");
    expect_error(HEAD "    count: 1\n    cpu: 1\n    memory: 1Gi\n    labels: [a]\n", "s.yaml:7:13: labels: expected a map, found a list");
    expect_error(HEAD "    count: 1\n    cpu: 1\n    memory: 1Gi\n    gpu: {model: H100-80GB, count: 8, mig: yes}\n",
                 "s.yaml:7:44: gpu.mig: expected none, static or dynamic, found 'yes'");
    expect_error(HEAD "    count: 1\n    cpu: 1\n    memory: 1Gi\n    taints: [{key: a, effect: NoRun}]\n",
                 "s.yaml:7:31: taint effect: expected NoSchedule, PreferNoSchedule or NoExecute, found 'NoRun'");
    /* unknown keys */
    expect_error(HEAD "    count: 1\n    cpu: 1\n    memory: 1Gi\n    gpus: 8\n",
                 "s.yaml:7:5: unknown field 'gpus' in a node pool (expected one of: name, count, cpu, memory, maxPods, labels, taints, gpu, devicePlugin, autoscaling, topology, price, power, spot)");
    expect_error(HEAD "    count: 1\n    cpu: 1\n    memory: 1Gi\n    gpu: {model: H100-80GB, count: 8, layout: x}\n",
                 "s.yaml:7:39: unknown field 'layout' in gpu");
    expect_error("cluster:\n  nodes: []\n", "s.yaml:2:3: unknown field 'nodes' in cluster");
    /* missing fields */
    expect_error(HEAD "    count: 1\n    memory: 1Gi\n", "s.yaml:3:5: missing field 'cpu' in a node pool");
    expect_error(HEAD "    count: 1\n    cpu: 1\n    memory: 1Gi\n    gpu: {count: 8}\n", "s.yaml:7:10: missing field 'model' in gpu");
    expect_error(HEAD "    count: 1\n    cpu: 1\n    memory: 1Gi\n    gpu: {model: H100-80GB, count: 8, mig: static}\n",
                 "s.yaml:7:10: missing field 'migLayout' in gpu");
    expect_error("cluster: {}\n", "s.yaml:1:10: missing field 'nodePools' in cluster");
    /* other rules */
    expect_error(HEAD "    count: 1\n    cpu: 1\n    memory: 1Gi\n    gpu: {model: H100-80GB, count: 8, migLayout: all-balanced}\n",
                 "s.yaml:7:50: gpu.migLayout: only valid with mig: static");
    expect_error("cluster:\n  nodePools:\n  - name: GPU_Pool\n    count: 1\n    cpu: 1\n    memory: 1Gi\n",
                 "s.yaml:3:11: name: 'GPU_Pool' is not a valid node pool name");
    expect_error(HEAD "    count: 1\n    cpu: 1\n    memory: 1Gi\n  - name: p\n    count: 1\n    cpu: 1\n    memory: 1Gi\n",
                 "s.yaml:7:11: duplicate node pool name 'p'");
    expect_error("cluster:\n  nodePools: []\n  inventory: x.yaml\n", "s.yaml:3:14: cluster: give either nodePools or inventory");
    expect_error("cluster:\n  nodePools: []\n", "s.yaml:2:14: nodePools: expected at least one node pool");
    expect_error(HEAD "    count: 1\n    cpu: 1\n    memory: 1Gi\n    labels: {team: \"ml platform\"}\n",
                 "s.yaml:7:20: labels: 'ml platform' is not a valid label value");
    expect_error(HEAD "    count: 1\n    cpu: 1\n    memory: 1Gi\n    labels: {Example.com/x: a}\n",
                 "s.yaml:7:14: labels: 'Example.com/x' is not a valid label key");
    expect_error(HEAD "    count: 1\n    cpu: 1\n    memory: 1Gi\n    taints: [{key: -x, effect: NoSchedule}]\n",
                 "s.yaml:7:20: taint key: '-x' is not a valid key");
    expect_error("cluster: [a]\n", "s.yaml:1:10: cluster: expected a map, found a list");
}

static int parse_dp(const char *yaml, device_plugin_opts *o, strbuf *err) {
    yfile f;
    if (yfile_load_mem("s.yaml", yaml, strlen(yaml), &f, err)) fail_msg("YAML: %s", sb_str(err));
    int rc = device_plugin_opts_parse(ymap_get(f.docs[0], "devicePlugin"), o, err);
    yfile_free(&f);
    return rc;
}

static void test_device_plugin_options(void **state) {
    device_plugin_opts o;
    strbuf err = {0};
    assert_int_equal(parse_dp("other: 1\n", &o, &err), 0);   /* absent: defaults */
    assert_int_equal(o.mig_strategy, MIG_STRATEGY_NONE);
    assert_int_equal(o.time_slicing_replicas, 1);
    assert_false(o.rename_by_default);
    assert_int_equal(parse_dp("devicePlugin: {migStrategy: mixed, timeSlicing: {replicas: 4, renameByDefault: true}}\n",
                              &o, &err), 0);
    assert_int_equal(o.mig_strategy, MIG_STRATEGY_MIXED);
    assert_int_equal(o.time_slicing_replicas, 4);
    assert_true(o.rename_by_default);
    assert_int_equal(parse_dp("devicePlugin: {migStrategy: single}\n", &o, &err), 0);
    assert_int_equal(o.mig_strategy, MIG_STRATEGY_SINGLE);

    assert_int_equal(parse_dp("devicePlugin: {migStrategy: both}\n", &o, &err), -1);
    assert_string_equal(sb_str(&err), "s.yaml:1:29: migStrategy: expected none, single or mixed, found 'both'");
    assert_int_equal(parse_dp("devicePlugin: {sharing: {}}\n", &o, &err), -1);
    assert_non_null(strstr(sb_str(&err), "s.yaml:1:16: unknown field 'sharing' in devicePlugin"));
    assert_int_equal(parse_dp("devicePlugin: {mps: {}}\n", &o, &err), -1);
    assert_string_equal(sb_str(&err), "s.yaml:1:21: missing field 'replicas' in mps");
    assert_int_equal(parse_dp("devicePlugin: {mps: {replicas: 8, failRequestsGreaterThanOne: true}}\n", &o, &err), 0);
    assert_true(o.mps);
    assert_true(o.fail_requests_gt_one);
    assert_int_equal(o.time_slicing_replicas, 8);
    assert_int_equal(parse_dp("devicePlugin: {timeSlicing: {renameByDefault: true}}\n", &o, &err), -1);
    assert_string_equal(sb_str(&err), "s.yaml:1:29: missing field 'replicas' in timeSlicing");
    assert_int_equal(parse_dp("devicePlugin: {timeSlicing: {replicas: 0}}\n", &o, &err), -1);
    assert_string_equal(sb_str(&err), "s.yaml:1:40: timeSlicing.replicas: expected 1 to 1024, found 0");
    assert_int_equal(parse_dp("devicePlugin: {timeSlicing: {replicas: 2, renameByDefault: maybe}}\n", &o, &err), -1);
    assert_non_null(strstr(sb_str(&err), "s.yaml:1:60: timeSlicing.renameByDefault: expected true or false"));
    sb_free(&err);
}

static int teardown(void **state) {
    intern_reset();
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_pool),
        cmocka_unit_test(test_recorded_inventory),
        cmocka_unit_test(test_cluster_errors),
        cmocka_unit_test(test_device_plugin_options),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
