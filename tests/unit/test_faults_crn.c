/* test_faults_crn.c -- common random numbers for faults (docs/DYNAMICS.md):
 * a GPU's and a node's failures and repairs depend only on the seed and the
 * identity (node name, GPU index, process), so the common nodes of a 3-node
 * and a 4-node run fail and are repaired at exactly the same times. Every
 * 10 minutes of a week a sampling source records the state of every GPU and
 * node of pool `p` (faults_internal.h); the common nodes' records must be
 * equal, while the fourth node does fail (the runs differ). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "engine/sim.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "workload/attach.h"
#include "workload/faults_internal.h"
#include "scenario_fixture.h"

enum { SAMPLES = 7 * 24 * 6, GPUS = 8, MAXN = 4 };

typedef struct sampler {
    int id;
    size_t n;
    uint8_t gpu[SAMPLES][MAXN * GPUS], node[SAMPLES][MAXN];
    size_t k;
} sampler;

static int s_start(sim_run *r, void *ctx) {
    sampler *s = ctx;
    sim_schedule_background(r, s->id, 0, 0);
    return 0;
}

static int s_event(sim_run *r, void *ctx, uint64_t arg, sim_time t) {
    (void)arg;
    sampler *s = ctx;
    const faults *f = r->faults;
    for (size_t i = 0; i < s->n; i++) {
        s->node[s->k][i] = f->node_state[i];
        for (size_t g = 0; g < GPUS; g++) s->gpu[s->k][i * GPUS + g] = f->gpu_state[f->gpu_first[i] + g];
    }
    if (++s->k < SAMPLES) sim_schedule_background(r, s->id, t + 600000, 0);
    return 0;
}

/* A week on n 8-GPU nodes: GPUs fail at 0.5 a day (repaired in 1..6 h),
 * nodes at 0.2 a day (repaired in 2 h); one 1-GPU pod keeps the run going. */
static void run_fleet(size_t n, sampler *s) {
    char body[2048];
    snprintf(body, sizeof body,
             "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: crn}\nseed: 7\nstop: {time: 7d}\n"
             "cluster:\n  nodePools:\n  - {name: p, count: %zu, cpu: \"64\", memory: 512Gi, gpu: {model: H100-80GB, count: 8}}\n"
             "scheduling: {mode: device-plugin}\n"
             "workload:\n  podGroups:\n"
             "  - {name: w, count: 1, arrival: {times: [0s]}, duration: 8d, requests: {cpu: \"1\"},\n"
             "     gpu: {devicePlugin: {nvidia.com/gpu: 1}}}\n"
             "faults:\n  gpuFailures:\n  - {name: xid, ratePerGpuDay: 0.5, kind: fatal-xid, repair: {uniform: {min: 1h, max: 6h}}}\n"
             "  nodeFailures:\n  - {name: down, ratePerNodeDay: 0.2, repair: 2h}\n",
             n);
    fixture x;
    int rc = fixture_load(&x, "crn.yaml", body);
    if (rc) fprintf(stderr, "%s\n", sb_str(&x.err));
    assert_int_equal(rc, 0);
    workload_attach(&x.run);
    memset(s, 0, sizeof *s);
    s->n = n;
    sim_source src = {.ctx = s, .start = s_start, .event = s_event};
    s->id = sim_add_source(&x.run, &src);
    assert_true(s->id >= 0);
    assert_int_equal(sim_execute(&x.run, NULL), 0);
    assert_int_equal(s->k, SAMPLES);
    teardown(&x);
}

static void test_common_nodes_same_faults(void **state) {
    (void)state;
    static sampler a, b;
    run_fleet(3, &a);
    run_fleet(4, &b);
    size_t failed_samples = 0, down_samples = 0, fourth = 0;
    for (size_t k = 0; k < SAMPLES; k++) {
        for (size_t i = 0; i < 3; i++) {
            if (a.node[k][i] != b.node[k][i]) fail_msg("sample %zu: node %zu state %d vs %d", k, i, a.node[k][i], b.node[k][i]);
            down_samples += a.node[k][i] != 0;
            for (size_t g = 0; g < GPUS; g++) {
                if (a.gpu[k][i * GPUS + g] != b.gpu[k][i * GPUS + g])
                    fail_msg("sample %zu: node %zu GPU %zu state %d vs %d", k, i, g, a.gpu[k][i * GPUS + g],
                             b.gpu[k][i * GPUS + g]);
                failed_samples += a.gpu[k][i * GPUS + g] != 0;
            }
        }
        for (size_t g = 0; g < GPUS; g++) fourth += b.gpu[k][3 * GPUS + g] != 0;
    }
    /* 24 GPUs x 0.5 a day x 7 days = 84 failures of ~3.5 h: ~290 GPU-hours
     * down, ~1,700 failed samples; 3 nodes x 0.2 x 7 = 4.2 node failures */
    assert_true(failed_samples > 500);
    assert_true(down_samples > 0);
    assert_true(fourth > 100);   /* the added node has faults of its own */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_common_nodes_same_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
