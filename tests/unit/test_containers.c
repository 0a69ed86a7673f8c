/* test_containers.c -- a pod group's containers (model/scenario_containers.c):
 * the pod's requests as Kubernetes computes them (init max versus the sum of
 * app containers and sidecars, KEP-753), device-plugin demand summed per
 * container, claim references; and the GpuConfig sharing of claims
 * (model/gpu_sharing.c) with its errors at FILE:LINE:COL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "model/scenario.h"
#include "util/intern.h"

static const char *head =
    "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: t}\nseed: 1\nstop: {allPodsDone: true}\n"
    "cluster: {nodePools: [{name: p, count: 1, cpu: '64', memory: 256Gi, gpu: {model: A100-80GB, count: 8}}]}\nscheduling: {mode: dra}\n";

typedef struct loaded {
    yfile f;
    scenario sc;
    strbuf err;
    int rc;
} loaded;

static void load(loaded *l, const char *workload) {
    memset(l, 0, sizeof *l);
    strbuf t = {0};
    sb_printf(&t, "%s%s", head, workload);
    l->rc = yfile_load_mem("c.yaml", sb_str(&t), t.len, &l->f, &l->err);
    if (!l->rc) l->rc = scenario_from_tree(l->f.docs[0], &l->sc, &l->err);
    sb_free(&t);
}

static void unload(loaded *l) {
    scenario_free(&l->sc);
    yfile_free(&l->f);
    sb_free(&l->err);
}

/* The group's request of `name` in milli-units (-1: absent). */
static int64_t req_milli(const pod_group_spec *g, const char *name, bool dp) {
    const k8s_resource_amount *r = dp ? g->dp_resources : g->requests;
    size_t n = dp ? g->ndp_resources : g->nrequests;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(r[i].name, name)) return quantity_milli_value(&r[i].value);
    return -1;
}

#define POD(body) \
    "workload:\n  podGroups:\n  - name: g\n    count: 1\n    arrival: {times: [0s]}\n    duration: 1m\n" body

/* init a (cpu 2), sidecar s (cpu 3, 1 GPU), init b (cpu 2), app (cpu 1, 1 GPU):
 * a: 2; s: sidecars 3, init max 3, apps += 3; b: 2 + 3 = 5 -> init max 5;
 * apps 1 + 3 = 4; pod = max(5, 4) = 5 cores. GPUs: sidecar 1 + app 1 = 2
 * (an init container's GPUs would only count through the max). Memory: only
 * the app asks 8Gi -> max(0 + 0, 8Gi) = 8Gi. */
static void test_kep753_order(void **st) {
    (void)st;
    loaded l;
    load(&l, POD("    initContainers:\n"
                 "    - {name: a, resources: {requests: {cpu: '2'}}}\n"
                 "    - {name: s, restartPolicy: Always, resources: {requests: {cpu: '3', nvidia.com/gpu: 1}}}\n"
                 "    - {name: b, resources: {requests: {cpu: '2'}}}\n"
                 "    containers:\n"
                 "    - {name: app, resources: {requests: {cpu: '1', memory: 8Gi}, limits: {nvidia.com/gpu: 1}}}\n"));
    assert_int_equal(l.rc, 0);
    const pod_group_spec *g = &l.sc.groups[0];
    assert_int_equal(g->ncontainers, 4);
    assert_int_equal(g->containers[1].kind, CONTAINER_SIDECAR);
    assert_int_equal(req_milli(g, "cpu", false), 5000);
    assert_int_equal(req_milli(g, "memory", false), ((int64_t)8 << 30) * 1000);
    assert_int_equal(req_milli(g, "nvidia.com/gpu", true), 2000);
    assert_true(g->has_dp);
    unload(&l);
}

/* The app containers' sum wins when it is larger; a plain init container's
 * GPU counts only through the max (init 4 GPUs > apps 1 + 1 = 2). */
static void test_sum_and_init_max(void **st) {
    (void)st;
    loaded l;
    load(&l, POD("    initContainers:\n"
                 "    - {name: warm, resources: {requests: {cpu: '1', nvidia.com/gpu: 4}}}\n"
                 "    containers:\n"
                 "    - {name: x, resources: {requests: {cpu: '3', nvidia.com/gpu: 1}}}\n"
                 "    - {name: y, resources: {requests: {cpu: 500m, nvidia.com/gpu: 1}}}\n"));
    assert_int_equal(l.rc, 0);
    assert_int_equal(req_milli(&l.sc.groups[0], "cpu", false), 3500);
    assert_int_equal(req_milli(&l.sc.groups[0], "nvidia.com/gpu", true), 4000);
    unload(&l);
}

/* Several containers naming one claim: accepted; an unknown claim is an error. */
static void test_claim_refs(void **st) {
    (void)st;
    loaded l;
    const char *claims = "    gpu: {dra: {claims: [{name: gpu, spec: {devices: {requests: [{name: g, exactly: "
                         "{deviceClassName: gpu.nvidia.com}}]}}}]}}\n";
    strbuf b = {0};
    sb_printf(&b, POD("%s    containers:\n    - {name: x, resources: {claims: [{name: gpu}]}}\n"
                      "    - {name: y, resources: {claims: [{name: gpu}]}}\n"), claims);
    load(&l, sb_str(&b));
    assert_int_equal(l.rc, 0);
    assert_int_equal(l.sc.groups[0].containers[1].nclaims, 1);
    assert_false(l.sc.groups[0].has_dp);
    unload(&l);
    sb_clear(&b);
    sb_printf(&b, POD("%s    containers:\n    - {name: x, resources: {claims: [{name: gpus}]}}\n"), claims);
    load(&l, sb_str(&b));
    assert_int_not_equal(l.rc, 0);
    assert_non_null(strstr(sb_str(&l.err), "c.yaml:16:28:"));
    assert_non_null(strstr(sb_str(&l.err), "'gpus' is not one of the pod's claims"));
    unload(&l);
    sb_free(&b);
}

/* Errors name the place: restartPolicy other than Always, duplicates, both styles. */
static void test_container_errors(void **st) {
    (void)st;
    static const struct {
        const char *body, *want;
    } cases[] = {
        {POD("    initContainers: [{name: a, restartPolicy: OnFailure}]\n    containers: [{name: b}]\n"),
         "c.yaml:14:47: initContainers: restartPolicy: expected Always"},
        {POD("    containers: [{name: a}, {name: a}]\n"), "c.yaml:14:36: containers: duplicate container name 'a'"},
        {POD("    requests: {cpu: '1'}\n    containers: [{name: a}]\n"),
         "c.yaml:14:15: pod group 'g': give requests per container"},
        {POD("    initContainers: [{name: a}]\n"), "c.yaml:14:21: pod group 'g': initContainers need containers"},
        {POD("    containers: [{name: a, resources: {requests: {nvidia.com/gpu: 1}, limits: {nvidia.com/gpu: 2}}}]\n"),
         "must be equal to its request"},
        {POD("    containers: [{name: A}]\n"), "must be a DNS label"},
        /* ValidateResourceRequirements: a request above its limit (memory 2Gi > 1Gi; col 59 = the request) */
        {POD("    containers: [{name: a, resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}}]\n"),
         "c.yaml:14:59: container 'a': resources.requests: memory: 2Gi must be less than or equal to memory limit of 1Gi"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        loaded l;
        load(&l, cases[i].body);
        if (!l.rc || !strstr(sb_str(&l.err), cases[i].want)) fail_msg("case %zu: got '%s'", i, sb_str(&l.err));
        unload(&l);
    }
}

#define CLAIM(params)                                                                                         \
    "workload:\n  podGroups:\n  - name: g\n    count: 1\n    arrival: {times: [0s]}\n    duration: 1m\n"      \
    "    gpu:\n      dra:\n        claims:\n        - name: gpu\n          spec:\n            devices:\n"     \
    "              requests: [{name: g, exactly: {deviceClassName: gpu.nvidia.com}}]\n"                     \
    "              config:\n              - opaque:\n                  driver: gpu.nvidia.com\n"            \
    "                  parameters:\n                    apiVersion: resource.nvidia.com/v1beta1\n" params

static void test_sharing_ok(void **st) {
    (void)st;
    loaded l;
    load(&l, CLAIM("                    kind: GpuConfig\n"
                   "                    sharing: {strategy: MPS, mpsConfig: {defaultActiveThreadPercentage: 50, "
                   "defaultPinnedDeviceMemoryLimit: 10Gi}}\n"));
    assert_int_equal(l.rc, 0);
    const gpu_sharing *s = &l.sc.groups[0].dra_claims[0].sharing;
    assert_int_equal(s->strategy, SHARE_MPS);
    assert_int_equal(s->thread_pct, 50);
    assert_int_equal(s->pinned_bytes, (int64_t)10 << 30);
    unload(&l);
    load(&l, CLAIM("                    kind: GpuConfig\n"
                   "                    sharing: {strategy: TimeSlicing, timeSlicingConfig: {interval: Long}}\n"));
    assert_int_equal(l.rc, 0);
    assert_int_equal(l.sc.groups[0].dra_claims[0].sharing.strategy, SHARE_TIME_SLICING);
    assert_int_equal(l.sc.groups[0].dra_claims[0].sharing.interval, TS_LONG);
    unload(&l);
}

/* Bad sharing configs, each at its line and column (the driver's wording). */
static void test_sharing_errors(void **st) {
    (void)st;
    static const struct {
        const char *params, *want;
    } cases[] = {
        {"                    kind: GpuConfig\n                    sharing: {strategy: Spatial}\n",
         "c.yaml:27:41: unknown GPU sharing strategy: Spatial, supported GPU sharing strategies: TimeSlicing, MPS"},
        {"                    kind: GpuConfig\n                    sharing: {strategy: TimeSlicing, timeSlicingConfig: "
         "{interval: Tiny}}\n",
         "c.yaml:27:84: unknown time-slice interval: Tiny"},
        {"                    kind: GpuConfig\n                    sharing: {strategy: MPS, mpsConfig: "
         "{defaultActiveThreadPercentage: 101}}\n",
         "c.yaml:27:89: mpsConfig: active thread percentage must not be greater than 100"},
        {"                    kind: GpuConfig\n                    sharing: {strategy: MPS, mpsConfig: "
         "{defaultActiveThreadPercentage: -1}}\n",
         "active thread percentage must not be negative"},
        {"                    kind: GpuConfig\n                    sharing: {strategy: MPS, mpsConfig: "
         "{defaultPinnedDeviceMemoryLimit: 100Ki}}\n",
         "c.yaml:27:90: mpsConfig: invalid limit: default value set too low: 100Ki"},
        {"                    kind: GpuConfig\n                    sharing: {strategy: MPS, timeSlicingConfig: "
         "{interval: Long}}\n",
         "cannot use TimeSlicingConfig with the 'MPS' strategy"},
        {"                    kind: GpuConfig\n                    sharing: {strategy: TimeSlicing, mpsConfig: {}}\n",
         "cannot use MpsConfig with the 'TimeSlicing' strategy"},
        {"                    kind: MigDeviceConfig\n                    sharing: {strategy: TimeSlicing, "
         "timeSlicingConfig: {interval: Long}}\n",
         "c.yaml:27:54: unknown field 'timeSlicingConfig' in sharing (expected one of: strategy, mpsConfig)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        loaded l;
        strbuf b = {0};
        sb_printf(&b, CLAIM("%s"), cases[i].params);
        load(&l, sb_str(&b));
        if (!l.rc || !strstr(sb_str(&l.err), cases[i].want)) fail_msg("case %zu: got '%s'", i, sb_str(&l.err));
        unload(&l);
        sb_free(&b);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kep753_order),    cmocka_unit_test(test_sum_and_init_max),
        cmocka_unit_test(test_claim_refs),      cmocka_unit_test(test_container_errors),
        cmocka_unit_test(test_sharing_ok),      cmocka_unit_test(test_sharing_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
