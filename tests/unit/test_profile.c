/* test_profile.c -- scheduling.profile in KubeSchedulerConfiguration shape:
 * score plugin weights and disabling, NodeResourcesFit's scoringStrategy
 * (RequestedToCapacityRatio with a shape), percentageOfNodesToScore, and the
 * errors for unknown plugins and bad shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/sim.h"
#include "sched/framework.h"
#include "util/intern.h"

static const char *const base =
    "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: p}\nseed: 1\nstop: {allPodsDone: true}\n"
    "cluster:\n  nodePools:\n  - {name: n, count: 1, cpu: '4', memory: 8Gi}\n"
    "workload:\n  podGroups:\n"
    "  - {name: a, count: 4, arrival: {constant: {interval: 1s}}, duration: 1h, requests: {cpu: '1', memory: 2Gi}}\n"
    "scheduling:\n  mode: device-plugin\n";

typedef struct loaded {
    yfile f;
    scenario sc;
    strbuf err;
} loaded;

static int load(loaded *l, const char *sched) {
    memset(l, 0, sizeof *l);
    char *text = malloc(strlen(base) + strlen(sched) + 1);
    strcpy(text, base);
    strcat(text, sched);
    int rc = yfile_load_mem("p.yaml", text, strlen(text), &l->f, &l->err);
    free(text);
    if (rc == 0) rc = scenario_from_tree(l->f.docs[0], &l->sc, &l->err);
    return rc;
}

static void unload(loaded *l) {
    scenario_free(&l->sc);
    yfile_free(&l->f);
    sb_free(&l->err);
}

static void expect_error(const char *sched, const char *want) {
    loaded l;
    assert_int_equal(load(&l, sched), -1);
    if (!strstr(sb_str(&l.err), want)) fail_msg("got %s\nwant %s", sb_str(&l.err), want);
    unload(&l);
}

static k8s_resource_amount amt(const char *name, int64_t v) {
    return (k8s_resource_amount){intern(name), quantity_from_int64(v, QF_DECIMAL_SI)};
}

/* Two 4-cpu / 8Gi nodes under the loaded scenario. */
typedef struct two {
    k8s_node nodes[2];
    k8s_resource_amount alloc[2][2];
    sim_run r;
} two;

static void start(two *t, const scenario *sc) {
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 2; i++) {
        t->alloc[i][0] = amt("cpu", 4);
        t->alloc[i][1] = amt("memory", 8LL << 30);
        t->nodes[i].meta.name = intern(i ? "n1" : "n0");
        t->nodes[i].allocatable = t->alloc[i];
        t->nodes[i].nallocatable = 2;
    }
    sim_init(&t->r, sc, t->nodes, 2);
}

static int weight_of(const scheduler *s, const sched_plugin *pl) {
    for (size_t i = 0; i < s->nplugins; i++)
        if (s->plugins[i] == pl) return (int)s->weights[i];
    return -1;   /* not registered */
}

static void test_weights_and_disabling(void **state) {
    (void)state;
    loaded l;
    assert_int_equal(load(&l, "  profile:\n    schedulerName: default-scheduler\n    plugins:\n      score:\n"
                              "        enabled: [{name: NodeResourcesFit, weight: 3}, {name: ImageLocality, weight: 2}]\n"
                              "        disabled: [{name: NodeResourcesBalancedAllocation}]\n"),
                     0);
    two t;
    start(&t, &l.sc);
    assert_int_equal(weight_of(&t.r.sched, &plugin_node_resources_fit), 3);
    assert_int_equal(weight_of(&t.r.sched, &plugin_balanced_allocation), -1);
    /* LeastAllocated on an empty node: (75 + 75) / 2 = 75, times 3 */
    assert_int_equal(t.r.sched.classes[0].score[0], 225);
    sim_free(&t.r);
    unload(&l);

    /* '*' disables every default score plugin: all nodes score 0 */
    assert_int_equal(load(&l, "  profile: {plugins: {score: {disabled: [{name: '*'}]}}}\n"), 0);
    start(&t, &l.sc);
    assert_int_equal(weight_of(&t.r.sched, &plugin_node_resources_fit), 0);
    assert_int_equal(t.r.sched.classes[0].score[0], 0);
    assert_int_equal(t.r.sched.classes[0].nfit, 2);   /* Filter is unaffected */
    sim_free(&t.r);
    unload(&l);
}

static const char *const rtcr =
    "  profile:\n    plugins: {score: {disabled: [{name: NodeResourcesBalancedAllocation}]}}\n"
    "    pluginConfig:\n    - name: NodeResourcesFit\n      args:\n        scoringStrategy:\n"
    "          type: RequestedToCapacityRatio\n          resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]\n"
    "          requestedToCapacityRatio:\n"
    "            shape: [{utilization: 0, score: 0}, {utilization: 50, score: 10}, {utilization: 100, score: 0}]\n";

/* A shape peaking at 50 % utilization: 1 of 4 cpus (25 %) scores 50, 2 of 4 (50 %) 100, 3 of 4 50. */
static void test_requested_to_capacity_ratio(void **state) {
    (void)state;
    loaded l;
    if (load(&l, rtcr)) fail_msg("%s", sb_str(&l.err));
    assert_int_equal(l.sc.sched.strategy, SCORE_REQUESTED_TO_CAPACITY_RATIO);
    two t;
    start(&t, &l.sc);
    scheduler *s = &t.r.sched;
    assert_int_equal(s->classes[0].score[0], 50);
    placement p0, p1, p2;
    sched_enqueue(s, 0, 0);
    sched_enqueue(s, 0, 1);
    sched_enqueue(s, 0, 2);
    uint32_t c, id;
    assert_true(sched_next(s, &c, &id) && sched_schedule_head(s, c, &p0));
    sched_flush_class(s, 0);   /* a class not blocked is re-evaluated lazily (sched.h) */
    assert_int_equal(s->classes[0].score[p0.node], 100);   /* the used node is now at 50 % after the next pod */
    assert_int_equal(s->classes[0].score[1 - p0.node], 50);
    assert_true(sched_next(s, &c, &id) && sched_schedule_head(s, c, &p1));
    assert_int_equal(p1.node, p0.node);                    /* packs up to the peak */
    sched_flush_class(s, 0);
    assert_int_equal(s->classes[0].score[p0.node], 50);    /* 75 % next */
    assert_true(sched_next(s, &c, &id) && sched_schedule_head(s, c, &p2));
    /* 50 vs 50: a tie broken by the seeded RNG; either node is allowed */
    assert_true(p2.node == 0 || p2.node == 1);
    sim_free(&t.r);
    unload(&l);
}

static void test_percentage_of_nodes_to_score(void **state) {
    (void)state;
    loaded l;
    assert_int_equal(load(&l, "  percentageOfNodesToScore: 30\n"), 0);
    assert_int_equal(l.sc.sched.percentage_of_nodes_to_score, 30);
    unload(&l);
    /* the profile's value wins over the top-level one, as in KubeSchedulerConfiguration */
    assert_int_equal(load(&l, "  percentageOfNodesToScore: 30\n  profile: {percentageOfNodesToScore: 100}\n"), 0);
    assert_int_equal(l.sc.sched.percentage_of_nodes_to_score, 100);
    unload(&l);
}

static void test_errors(void **state) {
    (void)state;
    expect_error("  profile: {plugins: {score: {enabled: [{name: NodeResourceFit}]}}}\n",
                 "p.yaml:14:48: enabled plugin: unknown plugin 'NodeResourceFit'");
    expect_error("  profile: {pluginConfig: [{name: Coscheduling}]}\n",
                 "p.yaml:14:35: pluginConfig entry: unknown plugin 'Coscheduling'");
    expect_error("  profile: {plugins: {scoring: {}}}\n", "p.yaml:14:23: unknown field 'scoring' in profile.plugins");
    expect_error("  profile: {plugins: {score: {enabled: [{name: NodeResourcesFit, weight: 0}]}}}\n",
                 "p.yaml:14:74: weight: expected an integer from 1 to 100, found 0");
    expect_error("  scoring: {type: RequestedToCapacityRatio}\n",
                 "p.yaml:14:12: scheduling.scoring: RequestedToCapacityRatio needs requestedToCapacityRatio.shape");
    expect_error("  scoring: {type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: "
                 "[{utilization: 50, score: 1}, {utilization: 40, score: 2}]}}\n",
                 "p.yaml:14:123: utilization: expected 0 to 100, strictly increasing along the shape");
    expect_error("  scoring: Balanced\n", "p.yaml:14:12: scheduling.scoring: expected LeastAllocated, MostAllocated "
                                          "or RequestedToCapacityRatio, found 'Balanced'");
    expect_error("  podInitialBackoffSeconds: 5\n  podMaxBackoffSeconds: 2\n",
                 "p.yaml:15:25: podMaxBackoffSeconds: expected podInitialBackoffSeconds to 3600");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_weights_and_disabling),
        cmocka_unit_test(test_requested_to_capacity_ratio),
        cmocka_unit_test(test_percentage_of_nodes_to_score),
        cmocka_unit_test(test_errors),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
