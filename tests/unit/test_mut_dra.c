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
#include "sched/dra.h"
#include "sched/framework.h"
#include "util/intern.h"

typedef struct fixture {
    yfile f;
    scenario sc;
    gpu_catalog cat;
    inventory inv;
    sim_run run;
    strbuf err;
} fixture;

static const char *const head =
    "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: t}\nseed: 1\nstop: {allPodsDone: true}\n";

/* Load `body` (cluster, scheduling, workload) into f; returns the init status. */
static int setup_rc(fixture *x, const char *body) {
    memset(x, 0, sizeof *x);
    char *text = malloc(strlen(head) + strlen(body) + 1);
    strcpy(text, head);
    strcat(text, body);
    int rc = yfile_load_mem("s.yaml", text, strlen(text), &x->f, &x->err);
    free(text);
    if (rc) return rc;
    if (scenario_from_tree(x->f.docs[0], &x->sc, &x->err)) return -1;
    assert_int_equal(catalog_load(NULL, &x->cat, &x->err), 0);
    assert_int_equal(inventory_build_ex(&x->sc.cluster, &x->cat, NULL, 0, &x->inv, &x->err), 0);
    return sim_init_inv(&x->run, &x->sc, &x->inv, &x->err);
}

static void setup(fixture *x, const char *body) {
    int rc = setup_rc(x, body);
    if (rc) fprintf(stderr, "%s\n", sb_str(&x->err));
    assert_int_equal(rc, 0);
}

static void teardown(fixture *x) {
    sim_free(&x->run);
    inventory_free(&x->inv);
    catalog_free(&x->cat);
    x->sc.has_file = false;
    scenario_free(&x->sc);
    yfile_free(&x->f);
    sb_free(&x->err);
}

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
