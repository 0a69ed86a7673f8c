/* test_mut_dra.c -- the DynamicResources prioritized-list score by hand
 * (written to kill a mutant of tools/mutate, docs/MUTATION.md): per request
 * with firstAvailable, 8 - index of the chosen subrequest, normalized to
 * 100 * sum / (8 * requests), integer division. */
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/sim.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "sched/dra/dra.h"
#include "sched/framework.h"
#include "util/intern.h"

#include "scenario_fixture.h"

/* Node 0 (dynamic-MIG H100) offers only the second subrequest (3g.40gb):
 * 8 - 1 = 7 -> 7 * 100 / 8 = 87; node 1 (A100, all-balanced) offers the
 * first (3g.20gb): 8 -> 100. */
static void test_prioritized_list_score_values(void **state) {
    (void)state;
    fixture x;
    setup(&x, "cluster:\n  nodePools:\n"
              "  - {name: h, count: 1, cpu: '64', memory: 256Gi, gpu: {model: H100-80GB, count: 1, mig: dynamic}}\n"
              "  - {name: a, count: 1, cpu: '64', memory: 256Gi, gpu: {model: A100-40GB, count: 1, mig: static, "
              "migLayout: all-balanced}}\n"
              "scheduling: {mode: dra, balancedAllocation: false}\n"
              "workload:\n  podGroups:\n  - name: nb\n    count: 2\n    arrival: {constant: {interval: 1s}}\n"
              "    duration: 1h\n    gpu:\n      dra:\n        claims:\n        - name: mig\n          spec:\n"
              "            devices:\n              requests:\n              - name: mig\n                firstAvailable:\n"
              "                - {name: small, deviceClassName: mig.nvidia.com, selectors: [{cel: {expression: "
              "\"device.attributes['gpu.nvidia.com'].profile == '3g.20gb'\"}}]}\n"
              "                - {name: big, deviceClassName: mig.nvidia.com, selectors: [{cel: {expression: "
              "\"device.attributes['gpu.nvidia.com'].profile == '3g.40gb'\"}}]}\n");
    const scheduler *s = &x.run.sched;
    const pod_class *c = &s->classes[0];
    assert_int_equal(c->nfit, 2);
    assert_int_equal(plugin_dynamic_resources.score(s, c, 0), 87);
    assert_int_equal(plugin_dynamic_resources.score(s, c, 1), 100);
    teardown(&x);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_prioritized_list_score_values)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
