/* test_autoscaler_spec.c -- the cluster-autoscaler settings (model/autoscaler_spec.h):
 * every default is cluster-autoscaler 1.36's flag default, the flags read
 * back as written under their own names, and a node pool's autoscaling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/autoscaler_spec.h"

static const char *const head =
    "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: t}\nstop: {time: 1h}\n"
    "scheduling: {mode: device-plugin}\n"
    "workload: {podGroups: [{name: p, count: 1, arrival: {times: [0s]}, duration: 1m, requests: {cpu: \"1\"}}]}\n"
    "cluster:\n  nodePools:\n"
    "  - {name: g, count: 2, cpu: \"8\", memory: 32Gi, autoscaling: {min: 1, max: 5, price: 2.5,"
    " provisioningTime: {uniform: {min: 1m, max: 2m}}, driverReadyDelay: 20s}}\n"
    "  - {name: f, count: 1, cpu: \"8\", memory: 32Gi}\n";

static int parse(const char *tail, scenario *s, strbuf *err) {
    size_t n = strlen(head) + strlen(tail) + 1;
    char *src = malloc(n);
    snprintf(src, n, "%s%s", head, tail);
    memset(s, 0, sizeof *s);
    int rc = yfile_load_mem("s.yaml", src, strlen(src), &s->file, err);
    free(src);
    if (rc) return -1;
    s->has_file = true;
    return scenario_from_tree(s->file.docs[0], s, err);
}

static void test_defaults(void **state) {
    (void)state;
    scenario s;
    strbuf err = {0};
    assert_int_equal(parse("", &s, &err), 0);
    const autoscaler_spec *a = s.autoscaler;
    assert_non_null(a);
    assert_int_equal(a->scan_interval, SIM_SECONDS(10));
    assert_int_equal(a->max_node_provision_time, SIM_SECONDS(900));
    assert_int_equal(a->scale_down_unneeded_time, SIM_SECONDS(600));
    assert_int_equal(a->scale_down_delay_after_add, SIM_SECONDS(600));
    assert_int_equal(a->scale_down_delay_after_delete, 0);
    assert_int_equal(a->scale_down_delay_after_failure, SIM_SECONDS(180));
    assert_int_equal(a->initial_backoff, SIM_SECONDS(300));
    assert_int_equal(a->max_backoff, SIM_SECONDS(1800));
    assert_int_equal(a->backoff_reset, SIM_SECONDS(3 * 3600));
    assert_true(a->utilization_threshold == 0.5 && a->gpu_utilization_threshold == 0.5);
    assert_int_equal(a->max_nodes_per_scaleup, 1000);
    assert_int_equal(a->max_scale_down_parallelism, 10);
    assert_int_equal(a->max_drain_parallelism, 1);
    assert_int_equal(a->non_empty_candidates, 30);
    assert_int_equal(a->expendable_priority_cutoff, -10);
    assert_int_equal(a->cores_max, 320000);
    assert_int_equal(a->memory_max_gib, 6400000);
    assert_int_equal(a->max_graceful_termination, SIM_SECONDS(600));
    assert_int_equal((int)a->nexpanders, 1);
    assert_int_equal(a->expanders[0], EXP_LEAST_WASTE);
    const pool_autoscaling *g = s.cluster.pools[0].autoscaling;
    assert_non_null(g);
    assert_null(s.cluster.pools[1].autoscaling);
    assert_int_equal(g->min, 1);
    assert_int_equal(g->max, 5);
    assert_true(g->price == 2.5);
    assert_int_equal(g->provisioning.kind, DIST_UNIFORM);
    assert_int_equal(g->provisioning.a, SIM_SECONDS(60));
    assert_int_equal(g->provisioning.b, SIM_SECONDS(120));
    assert_int_equal(g->driver_ready_delay, SIM_SECONDS(20));
    assert_int_equal(inventory_pool_nodes(&s.cluster.pools[0]), 5);   /* a group's max */
    assert_int_equal(inventory_pool_nodes(&s.cluster.pools[1]), 1);
    scenario_free(&s);
    sb_free(&err);
}

static void test_flags(void **state) {
    (void)state;
    scenario s;
    strbuf err = {0};
    assert_int_equal(parse("autoscaler:\n"
                           "  scan-interval: 30s\n"
                           "  expander: priority,most-pods,random\n"
                           "  expander-priorities: {10: [\"g\"], 20: [\"^f$\", \"x.*\"]}\n"
                           "  cores-total: \"8:64\"\n"
                           "  gpu-total: \"nvidia.com/gpu:0:16\"\n"
                           "  scale-down-enabled: false\n"
                           "  max-graceful-termination-sec: 45\n",
                           &s, &err),
                     0);
    const autoscaler_spec *a = s.autoscaler;
    assert_int_equal(a->scan_interval, SIM_SECONDS(30));
    assert_int_equal((int)a->nexpanders, 3);
    assert_int_equal(a->expanders[0], EXP_PRIORITY);
    assert_int_equal(a->expanders[1], EXP_MOST_PODS);
    assert_int_equal(a->expanders[2], EXP_RANDOM);
    assert_int_equal((int)a->npriorities, 2);
    assert_int_equal(a->priorities[1].priority, 20);
    assert_int_equal((int)a->priorities[1].nregex, 2);
    assert_string_equal(a->priorities[1].regex[1], "x.*");
    assert_int_equal(a->cores_min, 8);
    assert_int_equal(a->cores_max, 64);
    assert_int_equal(a->gpu_min, 0);
    assert_int_equal(a->gpu_max, 16);
    assert_false(a->scale_down_enabled);
    assert_int_equal(a->max_graceful_termination, SIM_SECONDS(45));
    scenario_free(&s);
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_defaults), cmocka_unit_test(test_flags)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
