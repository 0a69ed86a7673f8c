/* test_properties.c -- properties and metamorphic relations over random small
 * scenarios (fixed seeds, so every failure is reproducible; the failing
 * scenario's YAML is printed).
 *
 * Properties of every run:
 *  - every pod that arrived is in the run exactly once, in one consistent
 *    state, and the summary counts agree with the pods;
 *  - no node's cpu, memory, pods or GPUs are ever over-committed, no device
 *    unit is held by two pods at once, and every pod got as many units as
 *    it asked for;
 *  - the GPU / cpu allocation metrics equal the sum of the running pods'
 *    demands over time (integrated here from the pods), and the peak equals
 *    the largest demand at any instant;
 *  - a pod whose group does not tolerate a NoExecute taint never runs on a
 *    node that carries it (tolerating it for NoSchedule only is not enough).
 * Metamorphic relations:
 *  - device plugin and DRA schedule a whole-GPU workload identically;
 *  - renaming the node pools changes nothing but the names;
 *  - doubling the fleet and the workload (whole-node pods, every arrival
 *    twice) keeps the utilization and the wait statistics.
 */
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "model/cluster.h"
#include "model/scenario.h"
#include "util/rng.h"
#include "util/strbuf.h"

enum { NSCENARIOS = 150, NDOUBLED = 60 };

#include "scenario_fixture.h"

/* Parse, build and run one scenario text; fails the test (printing it) on error. */
static void run_text(fixture *x, const char *text) {
    int rc = fixture_load(x, "prop.yaml", text);
    if (!rc) rc = workload_execute(&x->run, NULL);
    if (rc) fprintf(stderr, "%s\n--- scenario ---\n%s\n", sb_str(&x->err), text);
    assert_int_equal(rc, 0);
}

/* ---- random scenarios ------------------------------------------------------------ */

typedef struct gen_opts {
    const char *mode;        /* device-plugin | dra */
    const char *pool_prefix; /* node pool names: <prefix><i> */
} gen_opts;

/* A random small scenario from `seed`: 1-3 pools of 1-4 nodes (0, 1, 2, 4 or 8
 * H100s; some tainted NoExecute drain=yes), 1-4 groups of up to 30 pods
 * (cpu, memory, 0-4 whole GPUs; Poisson or constant arrivals; fixed,
 * uniform or exponential durations; priorities; no toleration, a NoSchedule
 * one or a NoExecute one). Group g's toleration kind is returned in tol[g]
 * (0 none, 1 NoSchedule only, 2 NoExecute); tainted[p] says whether pool p
 * is tainted. */
static void gen_scenario(uint64_t seed, const gen_opts *o, strbuf *out, int *tol, int *ngroups, bool *tainted,
                         int *npools) {
    rng r;
    rng_seed(&r, seed * 7919 + 17);
    static const int gpus[] = {0, 1, 2, 4, 8};
    static const char *const scoring[] = {"LeastAllocated", "MostAllocated"};
    sb_clear(out);
    sb_printf(out, "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: prop}\nseed: %llu\n",
              (unsigned long long)seed);
    if (rng_below(&r, 2)) sb_printf(out, "stop: {allPodsDone: true}\n");
    else sb_printf(out, "stop: {time: %llum}\n", (unsigned long long)(30 + rng_below(&r, 150)));
    sb_printf(out, "output: {sampleInterval: 5m}\ncluster:\n  nodePools:\n");
    *npools = 1 + (int)rng_below(&r, 3);
    bool any_gpu = false;
    for (int p = 0; p < *npools; p++) {
        int g = gpus[rng_below(&r, 5)];
        if (p == *npools - 1 && !any_gpu && g == 0) g = 2;   /* some GPUs somewhere */
        any_gpu |= g > 0;
        tainted[p] = rng_below(&r, 4) == 0;
        sb_printf(out, "  - name: %s%d\n    count: %d\n    cpu: \"%d\"\n    memory: %dGi\n", o->pool_prefix, p,
                  1 + (int)rng_below(&r, 4), 8 << rng_below(&r, 3), 32 << rng_below(&r, 3));
        if (tainted[p]) sb_printf(out, "    taints: [{key: drain, value: \"yes\", effect: NoExecute}]\n");
        if (g) sb_printf(out, "    gpu: {model: H100-80GB, count: %d}\n", g);
    }
    sb_printf(out, "scheduling: {mode: %s, scoring: %s}\nworkload:\n  podGroups:\n", o->mode,
              scoring[rng_below(&r, 2)]);
    *ngroups = 1 + (int)rng_below(&r, 4);
    for (int g = 0; g < *ngroups; g++) {
        sb_printf(out, "  - name: g%d\n    count: %d\n    priority: %d\n", g, 1 + (int)rng_below(&r, 30),
                  (int)rng_below(&r, 3) * 10);
        if (rng_below(&r, 2)) sb_printf(out, "    arrival: {poisson: {ratePerMinute: %d}}\n", 1 + (int)rng_below(&r, 4));
        else sb_printf(out, "    arrival: {constant: {interval: %ds}}\n", 5 + (int)rng_below(&r, 60));
        switch (rng_below(&r, 3)) {
        case 0: sb_printf(out, "    duration: %dm\n", 1 + (int)rng_below(&r, 20)); break;
        case 1: sb_printf(out, "    duration: {uniform: {min: 30s, max: %dm}}\n", 1 + (int)rng_below(&r, 30)); break;
        default: sb_printf(out, "    duration: {exponential: {mean: %dm}}\n", 1 + (int)rng_below(&r, 15)); break;
        }
        sb_printf(out, "    requests: {cpu: \"%d\", memory: %dGi}\n", 1 + (int)rng_below(&r, 8), 1 + (int)rng_below(&r, 16));
        tol[g] = (int)rng_below(&r, 3);
        if (tol[g] == 1) sb_printf(out, "    tolerations: [{key: drain, operator: Exists, effect: NoSchedule}]\n");
        if (tol[g] == 2) sb_printf(out, "    tolerations: [{key: drain, operator: Exists, effect: NoExecute}]\n");
        int k = (int)rng_below(&r, 5);
        if (k) sb_printf(out, "    gpu: {devicePlugin: {nvidia.com/gpu: %d}}\n", k);
    }
}

/* ---- the properties ---------------------------------------------------------------- */

static sim_time end_of(const sim_run *r, const sim_pod *p) { return p->end >= 0 ? p->end : r->end_time; }

static bool overlap(const sim_run *r, const sim_pod *a, const sim_pod *b) {
    return a->start < end_of(r, b) && b->start < end_of(r, a);
}

/* Every pod once, in one consistent state; the counts of the summary. */
static void check_accounting(const sim_run *r) {
    int64_t scheduled = 0, succeeded = 0, running = 0, pending = 0;
    size_t ng = r->sc->ngroups;
    uint32_t *seen = calloc(ng ? ng : 1, sizeof *seen);
    for (size_t i = 0; i < r->pods.len; i++) {
        const sim_pod *p = &r->pods.data[i];
        assert_true(p->group < ng);
        assert_int_equal(p->ordinal, seen[p->group]);   /* each group's pods once, in order */
        seen[p->group]++;
        assert_true(p->arrival >= 0 && p->arrival <= r->end_time);
        switch (p->state) {
        case POD_PENDING: assert_true(p->start < 0 && p->node < 0 && p->end < 0); pending++; break;
        case POD_RUNNING:
            assert_true(p->start >= p->arrival && p->node >= 0 && p->end < 0);
            assert_true(p->start + p->duration >= r->end_time);   /* would have ended otherwise */
            running++;
            break;
        case POD_SUCCEEDED:
            assert_true(p->start >= p->arrival && p->node >= 0);
            assert_int_equal(p->end, p->start + p->duration);
            assert_true(p->end <= r->end_time);
            succeeded++;
            break;
        default: fail_msg("pod %zu in state %d", i, p->state);
        }
        if (p->start >= 0) scheduled++;
    }
    for (size_t g = 0; g < ng; g++) {
        assert_true(seen[g] <= (uint32_t)r->sc->groups[g].count);
        if (r->sc->stop_all_pods_done) assert_int_equal(seen[g], r->sc->groups[g].count);
    }
    free(seen);
    assert_int_equal(sim_metric_get(r, "pods_arrived"), (double)r->pods.len);
    assert_int_equal(sim_metric_get(r, "pods_scheduled"), (double)scheduled);
    assert_int_equal(sim_metric_get(r, "pods_succeeded"), (double)succeeded);
    assert_int_equal(sim_metric_get(r, "pods_running_at_end"), (double)running);
    assert_int_equal(sim_metric_get(r, "pods_pending_at_end"), (double)pending);
}

static int64_t demand_of(const sim_run *r, const sim_pod *p, size_t res) {
    const pod_class *c = &r->sched.classes[p->group];
    if (res == RES_PODS) return 1;
    for (size_t i = 0; i < c->ndemand; i++)
        if (c->demand[i].res == res) return c->demand[i].amount;
    return 0;
}

/* At every pod start, the pods running on its node fit the node; device units
 * are exclusive and complete. */
static void check_capacity(const sim_run *r) {
    size_t R = r->sched.nres;
    for (size_t i = 0; i < r->pods.len; i++) {
        const sim_pod *p = &r->pods.data[i];
        if (p->start < 0) continue;
        const uint64_t *pu = sim_pod_units(r, p);
        const pod_class *pc = &r->sched.classes[p->group];
        size_t e = 0;
        for (size_t k = 0; k < pc->ndemand; k++)
            if (pc->demand[k].res > RES_PODS) {
                assert_int_equal(__builtin_popcountll(pu[e]), pc->demand[k].amount);
                e++;
            }
        for (size_t res = 0; res < R; res++) {
            int64_t sum = 0;
            for (size_t j = 0; j < r->pods.len; j++) {
                const sim_pod *q = &r->pods.data[j];
                if (q->start < 0 || q->node != p->node) continue;
                if (q->start <= p->start && p->start < end_of(r, q)) sum += demand_of(r, q, res);
            }
            if (sum > r->sched.alloc[(size_t)p->node * R + res])
                fail_msg("node %d over-committed in %s at %lld ms: %lld > %lld", p->node, r->sched.res_names[res],
                         (long long)p->start, (long long)sum, (long long)r->sched.alloc[(size_t)p->node * R + res]);
        }
        for (size_t j = i + 1; j < r->pods.len; j++) {
            const sim_pod *q = &r->pods.data[j];
            if (q->start < 0 || q->node != p->node || !overlap(r, p, q)) continue;
            const uint64_t *qu = sim_pod_units(r, q);
            const pod_class *qc = &r->sched.classes[q->group];
            size_t a = 0;
            for (size_t k = 0; k < pc->ndemand; k++) {
                if (pc->demand[k].res <= RES_PODS) continue;
                size_t b = 0;
                for (size_t l = 0; l < qc->ndemand; l++) {
                    if (qc->demand[l].res <= RES_PODS) continue;
                    if (qc->demand[l].res == pc->demand[k].res && (pu[a] & qu[b]))
                        fail_msg("pods %zu and %zu share a unit of %s", i, j, r->sched.res_names[pc->demand[k].res]);
                    b++;
                }
                a++;
            }
        }
    }
}

/* gpu_alloc_pct, gpu_alloc_peak_pct, cpu_alloc_pct from the pods alone. */
static void check_allocation(const sim_run *r, double gpu_total) {
    size_t R = r->sched.nres;
    int gpu = -1;
    for (size_t k = 0; k < R; k++)
        if (!strcmp(r->sched.res_names[k], "nvidia.com/gpu")) gpu = (int)k;
    assert_float_equal(sim_metric_get(r, "gpu_total"), gpu_total, 1e-9);
    double gpu_area = 0, cpu_area = 0, peak = 0, cpu_total = 0;
    for (size_t n = 0; n < r->nnodes; n++) cpu_total += (double)r->sched.alloc[n * R + RES_CPU];
    for (size_t i = 0; i < r->pods.len; i++) {
        const sim_pod *p = &r->pods.data[i];
        if (p->start < 0) continue;
        double span = (double)(end_of(r, p) - p->start);
        gpu_area += span * (double)(gpu >= 0 ? demand_of(r, p, (size_t)gpu) : 0);
        cpu_area += span * (double)demand_of(r, p, RES_CPU);
        double at = 0;   /* GPUs in use just after p started */
        for (size_t j = 0; j < r->pods.len && gpu >= 0; j++) {
            const sim_pod *q = &r->pods.data[j];
            if (q->start >= 0 && q->start <= p->start && p->start < end_of(r, q)) at += (double)demand_of(r, q, (size_t)gpu);
        }
        if (at > peak) peak = at;
    }
    double span = (double)r->end_time;
    double want = gpu_total > 0 && span > 0 ? 100.0 * gpu_area / (gpu_total * span) : 0;
    assert_float_equal(sim_metric_get(r, "gpu_alloc_pct"), want, 1e-9 * (1 + want));
    assert_float_equal(sim_metric_get(r, "gpu_alloc_peak_pct"), gpu_total > 0 ? 100.0 * peak / gpu_total : 0, 1e-9);
    want = span > 0 ? 100.0 * cpu_area / (cpu_total * span) : 0;
    assert_float_equal(sim_metric_get(r, "cpu_alloc_pct"), want, 1e-9 * (1 + want));
}

/* Pods of groups that do not tolerate NoExecute never run on tainted pools. */
static void check_taints(const sim_run *r, const int *tol) {
    for (size_t i = 0; i < r->pods.len; i++) {
        const sim_pod *p = &r->pods.data[i];
        if (p->node < 0 || tol[p->group] == 2) continue;
        const k8s_node *n = &r->nodes[p->node];
        for (size_t t = 0; t < n->ntaints; t++)
            if (n->taints[t].effect == TAINT_NO_EXECUTE)
                fail_msg("pod %zu of g%u (toleration kind %d) runs on tainted node %s", i, p->group, tol[p->group],
                         n->meta.name);
    }
}

/* The two runs placed every pod at the same time on the same node. */
static void same_schedule(const sim_run *a, const sim_run *b) {
    assert_int_equal(a->pods.len, b->pods.len);
    for (size_t i = 0; i < a->pods.len; i++) {
        const sim_pod *p = &a->pods.data[i], *q = &b->pods.data[i];
        if (p->arrival != q->arrival || p->start != q->start || p->end != q->end || p->node != q->node ||
            p->state != q->state || p->group != q->group)
            fail_msg("pod %zu differs: arrival %lld/%lld start %lld/%lld node %d/%d", i, (long long)p->arrival,
                     (long long)q->arrival, (long long)p->start, (long long)q->start, p->node, q->node);
    }
    assert_int_equal(a->end_time, b->end_time);
}

static void test_random_scenarios(void **state) {
    (void)state;
    strbuf text = {0}, dra_text = {0}, renamed = {0};
    int tol[8], ng, np;
    bool tainted[8];
    int64_t pods = 0, ran = 0, pending = 0, on_tainted = 0;
    double gpu_pct = 0;
    for (uint64_t s = 1; s <= NSCENARIOS; s++) {
        gen_opts o = {.mode = "device-plugin", .pool_prefix = "pool"};
        gen_scenario(s, &o, &text, tol, &ng, tainted, &np);
        fixture x;
        run_text(&x, sb_str(&text));
        double gpu_total = 0;
        for (size_t n = 0; n < x.inv.nnodes; n++) {
            const k8s_node *node = &x.inv.nodes[n];
            for (size_t a = 0; a < node->nallocatable; a++)
                if (!strcmp(node->allocatable[a].name, "nvidia.com/gpu")) gpu_total += (double)quantity_value(&node->allocatable[a].value);
        }
        check_accounting(&x.run);
        check_capacity(&x.run);
        check_allocation(&x.run, gpu_total);
        check_taints(&x.run, tol);
        pods += (int64_t)x.run.pods.len;
        gpu_pct += sim_metric_get(&x.run, "gpu_alloc_pct");
        for (size_t i = 0; i < x.run.pods.len; i++) {
            ran += x.run.pods.data[i].start >= 0;
            const sim_pod *p = &x.run.pods.data[i];
            pending += p->start < 0;
            on_tainted += p->node >= 0 && x.run.nodes[p->node].ntaints > 0;
        }

        /* DRA: the same whole-GPU workload, the same schedule */
        gen_opts od = {.mode = "dra", .pool_prefix = "pool"};
        gen_scenario(s, &od, &dra_text, tol, &ng, tainted, &np);
        fixture y;
        run_text(&y, sb_str(&dra_text));
        same_schedule(&x.run, &y.run);
        assert_float_equal(sim_metric_get(&y.run, "gpu_alloc_pct"), sim_metric_get(&x.run, "gpu_alloc_pct"), 1e-9);
        assert_float_equal(sim_metric_get(&y.run, "gpu_alloc_peak_pct"), sim_metric_get(&x.run, "gpu_alloc_peak_pct"), 1e-9);
        check_accounting(&y.run);
        teardown(&y);

        /* other pool names: nothing changes but the names */
        gen_opts orn = {.mode = "device-plugin", .pool_prefix = "renamed-zz"};
        gen_scenario(s, &orn, &renamed, tol, &ng, tainted, &np);
        fixture z;
        run_text(&z, sb_str(&renamed));
        same_schedule(&x.run, &z.run);
        assert_int_equal(x.run.summary.len, z.run.summary.len);
        for (size_t m = 0; m < x.run.summary.len; m++)
            assert_memory_equal(&x.run.summary.data[m].value, &z.run.summary.data[m].value, sizeof(double));
        teardown(&z);
        teardown(&x);
    }
    /* the generator is not degenerate: most pods run, some wait until the end,
     * tolerating pods do run on tainted nodes */
    assert_true(pods > 500);
    assert_true(ran > pods / 2);
    assert_true(pending > 0);
    assert_true(on_tainted > 0);
    assert_true(gpu_pct > 100);   /* GPUs are used (so DRA allocated them too) */
    fprintf(stderr, "%d scenarios, %lld pods, %lld ran (%lld on tainted nodes), %lld pending at the end\n",
            NSCENARIOS, (long long)pods, (long long)ran, (long long)on_tainted, (long long)pending);
    sb_free(&text);
    sb_free(&dra_text);
    sb_free(&renamed);
}

/* ---- doubling ------------------------------------------------------------------------ */

/* Whole-node pods (every pool has G GPUs, every pod asks for G) with fixed
 * durations and explicit arrival times; `factor` 2 doubles every pool and
 * lists every arrival twice. */
static void gen_whole_node(uint64_t seed, int factor, strbuf *out) {
    rng r;
    rng_seed(&r, seed * 104729 + 3);
    int G = 1 << rng_below(&r, 4);
    sb_clear(out);
    sb_printf(out, "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: double}\nseed: %llu\n"
                   "stop: {allPodsDone: true}\ncluster:\n  nodePools:\n", (unsigned long long)seed);
    int np = 1 + (int)rng_below(&r, 2);
    for (int p = 0; p < np; p++)
        sb_printf(out, "  - {name: p%d, count: %d, cpu: \"64\", memory: 256Gi, gpu: {model: H100-80GB, count: %d}}\n", p,
                  factor * (1 + (int)rng_below(&r, 3)), G);
    sb_printf(out, "scheduling: {mode: device-plugin}\nworkload:\n  podGroups:\n");
    int ng = 1 + (int)rng_below(&r, 3);
    for (int g = 0; g < ng; g++) {
        sb_printf(out, "  - name: g%d\n    priority: %d\n    duration: %ds\n    requests: {cpu: \"1\", memory: 1Gi}\n"
                       "    gpu: {devicePlugin: {nvidia.com/gpu: %d}}\n    arrival: {times: [",
                  g, (int)rng_below(&r, 2) * 10, 30 + (int)rng_below(&r, 600), G);
        int n = 1 + (int)rng_below(&r, 12), t = 0;
        for (int i = 0; i < n; i++) {
            t += (int)rng_below(&r, 120);
            for (int k = 0; k < factor; k++) sb_printf(out, "%s%ds", i || k ? ", " : "", t);
        }
        sb_printf(out, "]}\n");
    }
}

static void test_doubling_keeps_utilization(void **state) {
    (void)state;
    strbuf a = {0}, b = {0};
    int waited = 0;
    static const char *const same[] = {"gpu_alloc_pct", "gpu_alloc_peak_pct", "wait_mean_s", "wait_p50_s",
                                       "wait_p99_s", "wait_max_s", "sim_end_s"};
    for (uint64_t s = 1; s <= NDOUBLED; s++) {
        gen_whole_node(s, 1, &a);
        gen_whole_node(s, 2, &b);
        fixture x, y;
        run_text(&x, sb_str(&a));
        run_text(&y, sb_str(&b));
        for (size_t m = 0; m < sizeof same / sizeof *same; m++) {
            double u = sim_metric_get(&x.run, same[m]), v = sim_metric_get(&y.run, same[m]);
            if (fabs(u - v) > 1e-9 * (1 + fabs(u)))
                fail_msg("%s: %g, doubled %g\n--- scenario ---\n%s", same[m], u, v, sb_str(&a));
        }
        assert_float_equal(2 * sim_metric_get(&x.run, "pods_scheduled"), sim_metric_get(&y.run, "pods_scheduled"), 0);
        waited += sim_metric_get(&x.run, "wait_max_s") > 0;
        teardown(&x);
        teardown(&y);
    }
    assert_true(waited > 0);   /* some scenarios queue, so the waits are compared too */
    sb_free(&a);
    sb_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_scenarios),
        cmocka_unit_test(test_doubling_keeps_utilization),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
