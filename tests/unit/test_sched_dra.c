/* test_sched_dra.c -- the DynamicResources plugin on small hand-made clusters:
 * template claim lifecycle, shared claims, extended resources backed by DRA,
 * missing DeviceClasses, the prioritized-list score, MIG GPU equivalents,
 * the decoding errors of gpu.dra and the compact records' fallback. */
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "sched/dra/dra.h"
#include "sched/dra/dra_internal.h"
#include "util/intern.h"

#define assert_close(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

#include "scenario_fixture.h"

/* Enqueue pod `pod` of class c and run one cycle; returns the node or -1. */
static int schedule(fixture *x, uint32_t c, uint32_t pod, placement *p) {
    scheduler *s = &x->run.sched;
    sched_enqueue(s, c, pod);
    uint32_t cc, id;
    if (!sched_next(s, &cc, &id)) return -1;
    assert_int_equal(cc, c);
    assert_int_equal(id, pod);
    return sched_schedule_head(s, c, p) ? p->node : -1;
}

static const char *device_of(fixture *x, uint32_t pod) {
    size_t n;
    const dra_record *r = dra_pod_records(x->run.dra, pod, &n);
    return n && r[0].nresults ? dra_record_allocation(x->run.dra, &r[0])->results[0].device : NULL;
}

#define GPU_CLAIM(count)                                                                                         \
    "      dra: {claims: [{name: gpu, spec: {devices: {requests: [{name: g, exactly: {deviceClassName: "         \
    "gpu.nvidia.com, count: " #count "}}]}}}]}\n"

static const char *const one_node_two_gpus =
    "cluster:\n  nodePools:\n  - {name: n, count: 1, cpu: '64', memory: 256Gi, gpu: {model: H100-80GB, count: 2}}\n"
    "scheduling: {mode: dra}\n"
    "workload:\n  podGroups:\n  - name: a\n    count: 3\n    arrival: {constant: {interval: 1s}}\n    duration: 1h\n"
    "    gpu:\n" GPU_CLAIM(1);

static void test_template_claim_lifecycle(void **state) {
    (void)state;
    fixture x;
    setup(&x, one_node_two_gpus);
    placement p0, p1, p2;
    assert_int_equal(schedule(&x, 0, 0, &p0), 0);
    assert_int_equal(schedule(&x, 0, 1, &p1), 0);
    /* one claim per pod, each on its own GPU */
    assert_string_equal(device_of(&x, 0), "gpu-0");
    assert_string_equal(device_of(&x, 1), "gpu-1");
    size_t n;
    const dra_record *r = dra_pod_records(x.run.dra, 0, &n);
    assert_int_equal(n, 1);
    assert_string_equal(r[0].claim, "gpu");
    assert_false(r[0].deleted);
    assert_int_equal(x.run.dra->claims_created, 2);
    assert_true(dra_device_in_use(x.run.dra, "gpu.nvidia.com", "n-0", "gpu-0"));
    /* the third pod finds no free GPU: its class waits */
    assert_int_equal(schedule(&x, 0, 2, &p2), -1);
    assert_true(x.run.sched.classes[0].blocked);
    uint32_t c, id;
    assert_false(sched_next(&x.run.sched, &c, &id));
    /* pod 0 ends a minute later (past the back-off): its claim is deleted, gpu-0 is free,
     * the class is retried and gets gpu-0 */
    x.run.sched.now = 60000;
    sched_release(&x.run.sched, 0, &p0);
    assert_true(dra_pod_records(x.run.dra, 0, &n)[0].deleted);
    assert_int_equal(x.run.dra->claims_deleted, 1);
    assert_false(dra_device_in_use(x.run.dra, "gpu.nvidia.com", "n-0", "gpu-0"));
    assert_true(sched_next(&x.run.sched, &c, &id));
    assert_int_equal(id, 2);
    assert_true(sched_schedule_head(&x.run.sched, 0, &p2));
    assert_string_equal(device_of(&x, 2), "gpu-0");
    assert_close(x.run.dra->cur_gpu_equiv, 2.0, 1e-9);
    teardown(&x);
}

static void test_shared_claim(void **state) {
    (void)state;
    fixture x;
    setup(&x,
          "cluster:\n  nodePools:\n  - {name: n, count: 2, cpu: '64', memory: 256Gi, gpu: {model: H100-80GB, count: 1}}\n"
          "scheduling: {mode: dra}\n"
          "workload:\n"
          "  resourceClaims:\n"
          "  - {name: team, spec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu.nvidia.com}}]}}}\n"
          "  podGroups:\n  - name: a\n    count: 3\n    arrival: {constant: {interval: 1s}}\n    duration: 1h\n"
          "    gpu:\n      dra: {claims: [{name: shared, resourceClaimName: team}]}\n"
          "  - name: b\n    count: 2\n    arrival: {constant: {interval: 1s}}\n    duration: 1h\n"
          "    gpu:\n" GPU_CLAIM(1));
    placement p0, p1, p2;
    bool allocated;
    int node = schedule(&x, 0, 0, &p0);
    assert_true(node >= 0);
    assert_int_equal(dra_shared_users(x.run.dra, "team", &allocated), 1);
    assert_true(allocated);
    const char *dev = device_of(&x, 0);
    /* the second user follows the allocation (its node selector) and gets the same device */
    assert_int_equal(schedule(&x, 0, 1, &p1), node);
    assert_string_equal(device_of(&x, 1), dev);
    assert_int_equal(dra_shared_users(x.run.dra, "team", &allocated), 2);
    assert_int_equal(x.run.dra->shared_allocated, 1);
    /* a template-claim pod can only take the other node's GPU */
    assert_int_equal(schedule(&x, 1, 10, &p2), 1 - node);
    placement p3;
    assert_int_equal(schedule(&x, 1, 11, &p3), -1);
    /* the first user ends: still allocated for the second */
    sched_release(&x.run.sched, 0, &p0);
    assert_int_equal(dra_shared_users(x.run.dra, "team", &allocated), 1);
    assert_true(allocated);
    assert_true(x.run.sched.classes[1].blocked);
    /* the last user ends (past the back-off): the claim is freed and the waiting template pod gets that GPU */
    x.run.sched.now = 60000;
    sched_release(&x.run.sched, 0, &p1);
    assert_int_equal(dra_shared_users(x.run.dra, "team", &allocated), 0);
    assert_false(allocated);
    assert_false(x.run.sched.classes[1].blocked);
    uint32_t c, id;
    assert_true(sched_next(&x.run.sched, &c, &id));
    assert_int_equal(id, 11);
    assert_true(sched_schedule_head(&x.run.sched, c, &p3));
    assert_int_equal(p3.node, node);
    teardown(&x);
}

static void test_extended_resource_backed_by_dra(void **state) {
    (void)state;
    fixture x;
    setup(&x, "cluster:\n  nodePools:\n  - {name: n, count: 2, cpu: '64', memory: 256Gi, gpu: {model: H100-80GB, count: 4}}\n"
              "scheduling: {mode: dra}\n"
              "workload:\n  podGroups:\n  - name: a\n    count: 3\n    arrival: {constant: {interval: 1s}}\n"
              "    duration: 1h\n    gpu: {devicePlugin: {nvidia.com/gpu: 3}}\n");
    placement p0, p1, p2;
    assert_true(schedule(&x, 0, 0, &p0) >= 0);
    size_t n;
    const dra_record *r = dra_pod_records(x.run.dra, 0, &n);
    assert_int_equal(n, 1);
    assert_int_equal(r[0].nresults, 3);
    assert_string_equal(dra_record_allocation(x.run.dra, &r[0])->results[0].request, "container-0-request-0");
    assert_true(schedule(&x, 0, 1, &p1) >= 0);
    assert_int_not_equal(p0.node, p1.node);    /* 3 + 3 GPUs do not fit on a 4-GPU node */
    assert_int_equal(schedule(&x, 0, 2, &p2), -1);
    teardown(&x);

    /* a resource no DeviceClass serves is refused, naming the pod group */
    int rc = setup_rc(&x, "cluster:\n  nodePools:\n  - {name: n, count: 1, cpu: '8', memory: 8Gi}\n"
                          "scheduling: {mode: dra}\n"
                          "workload:\n  podGroups:\n  - name: a\n    count: 1\n    arrival: {constant: {interval: 1s}}\n"
                          "    duration: 1h\n    gpu: {devicePlugin: {nvidia.com/mig-1g.10gb: 1}}\n");
    assert_int_equal(rc, -1);
    assert_non_null(strstr(sb_str(&x.err), "s.yaml:12:5: pod group 'a': extended resource nvidia.com/mig-1g.10gb "
                                           "is not served by any DeviceClass"));
    inventory_free(&x.inv);
    catalog_free(&x.cat);
    x.sc.has_file = false;
    scenario_free(&x.sc);
    yfile_free(&x.f);
    sb_free(&x.err);
}

static void test_missing_device_class(void **state) {
    (void)state;
    fixture x;
    setup(&x, "cluster:\n  nodePools:\n  - {name: n, count: 1, cpu: '8', memory: 8Gi, gpu: {model: H100-80GB, count: 1}}\n"
              "scheduling: {mode: dra}\n"
              "workload:\n  podGroups:\n  - name: a\n    count: 1\n    arrival: {constant: {interval: 1s}}\n"
              "    duration: 1h\n    gpu:\n"
              "      dra: {claims: [{name: c, spec: {devices: {requests: [{name: g, exactly: {deviceClassName: nope}}]}}}]}\n");
    placement p;
    assert_int_equal(schedule(&x, 0, 0, &p), -1);
    strbuf b = {0};
    sched_explain(&x.run.sched, 0, &b);
    assert_non_null(strstr(sb_str(&b), "request g: device class nope does not exist"));
    sb_free(&b);
    teardown(&x);
}

/* Two equal nodes; only the prioritized-list score tells them apart: the A100
 * offers the first subrequest (3g.20gb), the dynamic-MIG H100 only the second. */
static void test_prioritized_list_score(void **state) {
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
    const pod_class *c = &x.run.sched.classes[0];
    assert_int_equal(c->nfit, 2);
    assert_true(c->score[1] > c->score[0]);
    placement p0, p1;
    assert_int_equal(schedule(&x, 0, 0, &p0), 1);
    size_t n;
    const dra_record *r = dra_pod_records(x.run.dra, 0, &n);
    assert_string_equal(dra_record_allocation(x.run.dra, &r[0])->results[0].request, "mig/small");
    assert_close(r[0].gpu_equiv, 3.0 / 7, 1e-9);
    /* the A100's only 3g.20gb is taken: the next pod takes an H100 3g.40gb */
    assert_int_equal(schedule(&x, 0, 1, &p1), 0);
    r = dra_pod_records(x.run.dra, 1, &n);
    assert_string_equal(dra_record_allocation(x.run.dra, &r[0])->results[0].request, "mig/big");
    teardown(&x);
}

static void expect_scenario_error(const char *body, const char *want) {
    fixture x;
    memset(&x, 0, sizeof x);
    char *text = malloc(strlen(fixture_head) + strlen(body) + 1);
    strcpy(text, fixture_head);
    strcat(text, body);
    assert_int_equal(yfile_load_mem("s.yaml", text, strlen(text), &x.f, &x.err), 0);
    free(text);
    assert_int_equal(scenario_from_tree(x.f.docs[0], &x.sc, &x.err), -1);
    if (!strstr(sb_str(&x.err), want)) fprintf(stderr, "got:  %s\nwant: %s\n", sb_str(&x.err), want);
    assert_non_null(strstr(sb_str(&x.err), want));
    scenario_free(&x.sc);
    yfile_free(&x.f);
    sb_free(&x.err);
}

static void test_decoding_errors(void **state) {
    (void)state;
    const char *pre = "cluster:\n  nodePools:\n  - {name: n, count: 1, cpu: '8', memory: 8Gi}\n"
                      "scheduling: {mode: dra}\n"
                      "workload:\n  podGroups:\n  - name: a\n    count: 1\n    arrival: {constant: {interval: 1s}}\n"
                      "    duration: 1h\n    gpu:\n";
    char buf[2000];
    snprintf(buf, sizeof buf, "%s      dra: {claims: [{name: c, spec: {devices: {requests: [{name: g, exactly: "
             "{deviceClassName: x, count: many}}]}}}]}\n", pre);
    expect_scenario_error(buf, "s.yaml:17:107: ResourceClaimTemplate a/c: spec.devices.requests[0].exactly.count: expected an integer");
    snprintf(buf, sizeof buf, "%s      dra: {claims: [{name: c, resourceClaimName: missing}]}\n", pre);
    expect_scenario_error(buf, "s.yaml:17:51: gpu.dra claim 'c': resourceClaimName 'missing' is not one of "
                               "workload.resourceClaims");
    snprintf(buf, sizeof buf, "%s      dra: {claims: [{name: c}]}\n", pre);
    expect_scenario_error(buf, "s.yaml:17:22: gpu.dra claim 'c': expected exactly one of spec");
    snprintf(buf, sizeof buf, "%s      dra: {claims: [{name: Bad_Name, spec: {}}]}\n", pre);
    expect_scenario_error(buf, "s.yaml:17:29: gpu.dra claim: name 'Bad_Name' must be a DNS label");
}

/* A whole run in DRA mode: every pod placed, claims created and deleted in pairs. */
static void test_run_to_completion(void **state) {
    (void)state;
    fixture x;
    setup(&x, one_node_two_gpus);
    assert_int_equal(workload_execute(&x.run, NULL), 0);
    assert_close(sim_metric_get(&x.run, "pods_succeeded"), 3, 0);
    assert_close(sim_metric_get(&x.run, "dra_claims_created"), 3, 0);
    assert_close(sim_metric_get(&x.run, "dra_claims_deleted"), 3, 0);
    assert_close(sim_metric_get(&x.run, "gpu_total"), 2, 0);
    /* GPU-time: 3 GPU-hours over a run of 2h+2s on 2 GPUs */
    double span = sim_metric_get(&x.run, "sim_end_s");
    assert_close(sim_metric_get(&x.run, "gpu_alloc_pct"), 100.0 * 3 * 3600 / (2 * span), 1e-6);
    teardown(&x);
}

/* percentageOfNodesToScore in DRA mode: 200 nodes -> adaptive 100 feasible nodes per cycle, the
 * start index rotating; with 100 every node is looked at (the one with a free GPU wins). */
static void test_percentage_of_nodes_to_score(void **state) {
    (void)state;
    static const char *const fmt =
        "cluster:\n  nodePools:\n  - {name: n, count: 200, cpu: '64', memory: 256Gi, gpu: {model: H100-80GB, count: 2}}\n"
        "scheduling: {mode: dra%s}\n"
        "workload:\n  podGroups:\n  - name: a\n    count: 3\n    arrival: {constant: {interval: 1s}}\n"
        "    duration: 1h\n    gpu:\n" GPU_CLAIM(1);
    char body[1024];
    fixture x;
    snprintf(body, sizeof body, fmt, "");
    setup(&x, body);
    assert_int_equal(sched_num_nodes_to_find(&x.run.sched), 100);
    placement p0, p1;
    int n0 = schedule(&x, 0, 0, &p0);
    assert_true(n0 >= 0 && n0 < 100);
    assert_int_equal(x.run.sched.next_start, 100);
    int n1 = schedule(&x, 0, 1, &p1);
    assert_true(n1 >= 100 && n1 < 200);
    assert_int_equal(x.run.sched.next_start, 0);
    teardown(&x);
    snprintf(body, sizeof body, fmt, ", percentageOfNodesToScore: 100");
    setup(&x, body);
    assert_int_equal(sched_num_nodes_to_find(&x.run.sched), 200);
    schedule(&x, 0, 0, &p0);
    assert_int_equal(x.run.sched.next_start, 0);   /* every node scanned: the start does not move */
    teardown(&x);
}

/* A record's device result is one word (uid, request index in 8 bits); the
 * 256th distinct request name on does not fit and is kept whole
 * (dra_records.c). Hand-made records: 300 pods, each holding gpu-1 of n-0
 * under its own request name req-000 ... req-299. Every allocation reads
 * back as it was made; the first 255 as one word each, the rest kept whole
 * (no words); and the device stays in use while any of them holds it,
 * through the kept-whole ones once the others have ended. */
static void test_result_words_fallback(void **state) {
    (void)state;
    fixture x;
    setup(&x, one_node_two_gpus);
    dra_state *d = x.run.dra;
    const char *driver = intern("gpu.nvidia.com"), *pool = intern("n-0"), *dev = intern("gpu-1");
    char name[32];
    for (uint32_t i = 0; i < 300; i++) {
        snprintf(name, sizeof name, "req-%03u", i);
        k8s_device_result res = {.request = intern(name), .driver = driver, .pool = pool, .device = dev};
        k8s_allocation al = {.results = &res, .nresults = 1};
        dra_record r = {.pod = 10 + i, .claim = intern("c"), .gpu_equiv = 1};
        dra_add_record(d, &r, &al, NULL);
    }
    for (uint32_t i = 0; i < 300; i++) {
        size_t n;
        const dra_record *r = dra_pod_records(d, 10 + i, &n);
        assert_int_equal(n, 1);
        const k8s_allocation *al = dra_record_allocation(d, &r[0]);
        snprintf(name, sizeof name, "req-%03u", i);
        assert_int_equal(al->nresults, 1);
        assert_string_equal(al->results[0].request, name);
        assert_ptr_equal(al->results[0].driver, driver);
        assert_ptr_equal(al->results[0].pool, pool);
        assert_ptr_equal(al->results[0].device, dev);
        const uint32_t *w;
        assert_int_equal(dra_record_words(d, &r[0], &w), i < 255 ? 1 : 0);
        assert_true(i < 255 ? w != NULL : w == NULL);
    }
    assert_true(dra_device_in_use(d, "gpu.nvidia.com", "n-0", "gpu-1"));
    for (uint32_t i = 0; i < 255; i++) dra_hold_records_end(d, 10 + i);
    assert_true(dra_device_in_use(d, "gpu.nvidia.com", "n-0", "gpu-1"));   /* the kept-whole ones */
    for (uint32_t i = 255; i < 300; i++) dra_hold_records_end(d, 10 + i);
    assert_false(dra_device_in_use(d, "gpu.nvidia.com", "n-0", "gpu-1"));
    assert_false(dra_device_in_use(d, "gpu.nvidia.com", "n-0", "gpu-0"));
    teardown(&x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_template_claim_lifecycle),
        cmocka_unit_test(test_shared_claim),
        cmocka_unit_test(test_extended_resource_backed_by_dra),
        cmocka_unit_test(test_missing_device_class),
        cmocka_unit_test(test_prioritized_list_score),
        cmocka_unit_test(test_decoding_errors),
        cmocka_unit_test(test_run_to_completion),
        cmocka_unit_test(test_percentage_of_nodes_to_score),
        cmocka_unit_test(test_result_words_fallback),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
