/* test_plan_search.c -- the monotone search of `drasim plan` (plan_search.c)
 * with a synthetic oracle instead of simulations: its answer equals a brute
 * force over the whole grid for many monotone oracles, in 1 to 3 dimensions,
 * counted by nodes or by cost, with 1 or 4 parallel probes; a point is never
 * probed twice, and the probe counts are those the algorithm implies. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/plan.h"
#include "report/stats.h"

/* pass iff sum w[d] * x[d] >= t and x[d] >= r[d] for every d: monotone */
typedef struct oracle {
    int64_t w[3], r[3], t;
    size_t calls;   /* points probed */
} oracle;

static oracle *g_or;

static bool oracle_pass(const oracle *o, size_t k, const int64_t *x) {
    int64_t s = 0;
    for (size_t d = 0; d < k; d++) {
        if (x[d] < o->r[d]) return false;
        s += o->w[d] * x[d];
    }
    return s >= o->t;
}

static int fake_probe(plan_ctx *c, int64_t *const *points, size_t n, plan_probe *out, int *code, strbuf *err) {
    (void)code, (void)err;
    assert_true(n >= 1);   /* batches may exceed jobs: the runner limits the children */
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < c->nprobes; j++)   /* never a point probed before (out[] is part of c->probes) */
            if (&c->probes[j] != &out[i] && !memcmp(c->probes[j].x, points[i], c->k * sizeof *points[i]))
                fail_msg("point probed twice");
        out[i].pass = oracle_pass(g_or, c->k, points[i]);
        g_or->calls++;
    }
    return 0;
}

/* pass iff the sum of all 4 counts >= t (twins: symmetric) */
static int fake_probe4(plan_ctx *c, int64_t *const *points, size_t n, plan_probe *out, int *code, strbuf *err) {
    (void)code, (void)err;
    for (size_t i = 0; i < n; i++) {
        int64_t s = 0;
        for (size_t d = 0; d < c->k; d++) s += points[i][d];
        out[i].pass = s >= g_or->t;
        g_or->calls++;
    }
    return 0;
}

/* The least cost passing point of the grid, ties lexicographically smallest. */
static bool brute(const plan_dim *dims, size_t k, const oracle *o, int64_t *best) {
    int64_t x[3];
    bool found = false;
    double bc = 0;
    for (size_t d = 0; d < k; d++) x[d] = dims[d].lo;
    for (;;) {
        if (oracle_pass(o, k, x)) {
            double cst = 0;
            for (size_t d = 0; d < k; d++) cst += dims[d].price * (double)x[d];
            if (!found || cst < bc - 1e-9) {   /* odometer order is lexicographic: first of equal cost wins */
                found = true;
                bc = cst;
                memcpy(best, x, k * sizeof *x);
            }
        }
        size_t d = k;
        while (d > 0 && ++x[d - 1] > dims[d - 1].hi) {
            x[d - 1] = dims[d - 1].lo;
            d--;
        }
        if (d == 0) break;
    }
    return found;
}

static size_t search(const plan_dim *dims, size_t k, int jobs, oracle *o, bool *found, int64_t *best) {
    g_or = o;
    o->calls = 0;
    plan_ctx c = {.dims = dims, .k = k, .jobs = jobs, .probe = fake_probe};
    int code = 0;
    strbuf err = {0};
    assert_int_equal(plan_search(&c, &code, &err), 0);
    assert_int_equal(c.nprobes, o->calls);
    *found = c.found;
    if (c.found) memcpy(best, c.best, k * sizeof *best);
    plan_free(&c);
    sb_free(&err);
    return o->calls;
}

/* One dimension 1..8, pass iff x >= 5: probe 8 (pass), then bisect [1, 8):
 * 1 + 7/2 = 4 fails, 5 + 3/2 = 6 passes, 5 + 1/2 = 5 passes: 4 probes, answer 5. */
static void test_one_dim_probes(void **state) {
    (void)state;
    plan_dim dims[] = {{.pool = "a", .lo = 1, .hi = 8, .price = 1}};
    oracle o = {.w = {0}, .r = {5}, .t = 0};
    bool found;
    int64_t best[1];
    assert_int_equal(search(dims, 1, 1, &o, &found, best), 4);
    assert_true(found);
    assert_int_equal(best[0], 5);
    /* nothing passes: only the largest point is probed */
    o.r[0] = 9;
    assert_int_equal(search(dims, 1, 1, &o, &found, best), 1);
    assert_false(found);
}

/* Many random monotone oracles: the answer is the brute force's, and no more
 * than a third of the grid is probed on 8 x 8 and larger grids. */
static void test_equals_brute_force(void **state) {
    (void)state;
    uint64_t s = 12345;
#define RND(n) ((s = s * 6364136223846793005ULL + 1442695040888963407ULL), (int64_t)((s >> 33) % (uint64_t)(n)))
    size_t cases = 0, max_frac_num = 0, max_frac_den = 1;
    for (int it = 0; it < 400; it++) {
        size_t k = 1 + (size_t)RND(3);
        plan_dim dims[3];
        oracle o = {0};
        const char *names[] = {"a", "b", "c"};
        int64_t grid = 1, maxsum = 0;
        bool by_cost = RND(2);
        for (size_t d = 0; d < k; d++) {
            int64_t lo = RND(3), hi = lo + 1 + RND(k == 3 ? 8 : 14);
            dims[d] = (plan_dim){.pool = names[d], .lo = lo, .hi = hi, .price = by_cost ? (double)(1 + RND(5)) : 1.0};
            o.w[d] = RND(4);
            o.r[d] = lo + RND(hi - lo + 2);   /* may exceed hi: nothing passes */
            grid *= hi - lo + 1;
            maxsum += o.w[d] * hi;
        }
        o.t = RND(maxsum + 2);
        int64_t want[3], got[3];
        bool want_found = brute(dims, k, &o, want), found;
        int jobs = RND(2) ? 1 : 4;
        size_t probes = search(dims, k, jobs, &o, &found, got);
        if (found != want_found) fail_msg("case %d: found %d, brute force %d", it, found, want_found);
        for (size_t d = 0; found && d < k; d++)
            if (got[d] != want[d]) fail_msg("case %d (k=%zu, jobs %d): dimension %zu: %lld, brute force %lld", it, k, jobs, d,
                                            (long long)got[d], (long long)want[d]);
        assert_true(probes <= (size_t)grid);
        if (jobs == 1 && grid >= 64 && probes * max_frac_den > max_frac_num * (size_t)grid) {
            max_frac_num = probes;
            max_frac_den = (size_t)grid;
        }
        cases++;
    }
    assert_int_equal(cases, 400);
    /* sequential probes on grids of 64 points or more: at most a third of the grid */
    if (max_frac_num * 3 > max_frac_den) fail_msg("probed %zu of %zu points", max_frac_num, max_frac_den);
#undef RND
}

/* Twins (pools identical but for their name): 4 pools 1..24, pass iff the
 * total >= t. The search varies the total (4..96): at most 1 + ceil(log2 93) + 1
 * probes, the answer the brute force's (lexicographically smallest split). */
static void test_twins_linear(void **state) {
    (void)state;
    plan_dim dims[4];
    const char *names[] = {"a", "b", "c", "d"};
    for (int d = 0; d < 4; d++) dims[d] = (plan_dim){.pool = names[d], .lo = 1, .hi = 24, .price = 1, .twin = 1};
    for (int64_t t = 4; t <= 97; t += 3) {
        oracle o = {.w = {1, 1, 1}, .t = t};
        /* the oracle has 3 weights: the fourth pool counts through a sum of its own */
        o.r[0] = o.r[1] = o.r[2] = 0;
        g_or = &o;
        plan_ctx c = {.dims = dims, .k = 4, .jobs = 1, .probe = fake_probe4};
        int code = 0;
        strbuf err = {0};
        assert_int_equal(plan_search(&c, &code, &err), 0);
        assert_true(c.nprobes <= 9);
        assert_int_equal(c.found, t <= 96);
        if (c.found) {   /* lexicographically smallest split of t: 1, 1, ..., the rest at the end */
            int64_t want[4] = {1, 1, 1, 1}, rest = t - 4;
            for (int d = 3; d >= 0 && rest > 0; d--) {
                int64_t add = rest > 23 ? 23 : rest;
                want[d] += add;
                rest -= add;
            }
            for (int d = 0; d < 4; d++) assert_int_equal(c.best[d], want[d]);
        }
        plan_free(&c);
        sb_free(&err);
    }
}

/* The statistics of --confidence, by hand: with k = n successes the
 * Clopper-Pearson lower bound is alpha^(1/n) (0.05^(1/10) = 0.741134), with
 * k = 0 the upper one 1 - alpha^(1/n); Student's t 95 % with 4 df is 2.1318,
 * 97.5 % with 1 df 12.706. */
static void test_confidence_stats(void **state) {
    (void)state;
    assert_true(fabs(clopper_pearson_lower(10, 10, 0.05) - 0.741134) < 1e-6);
    assert_true(fabs(clopper_pearson_upper(0, 10, 0.05) - (1 - 0.741134)) < 1e-6);
    assert_true(clopper_pearson_lower(0, 10, 0.05) == 0);
    assert_true(clopper_pearson_upper(10, 10, 0.05) == 1);
    /* 5 of 10: the lower bound is below 1/2, the upper above (symmetric) */
    double lo = clopper_pearson_lower(5, 10, 0.05), hi = clopper_pearson_upper(5, 10, 0.05);
    assert_true(fabs(lo + hi - 1) < 1e-9 && lo < 0.5 && lo > 0.1);
    assert_true(fabs(student_t_quantile(4, 0.95) - 2.1318) < 1e-3);
    assert_true(fabs(student_t_quantile(1, 0.975) - 12.706) < 1e-2);
    assert_true(fabs(beta_inc(1, 1, 0.3) - 0.3) < 1e-12);   /* uniform */
}

/* pass by the model the last override names (plan_choices.c puts the
 * choice's override after the scenario's): A needs 6 nodes, B 2, C never */
static int fake_probe_model(plan_ctx *c, int64_t *const *points, size_t n, plan_probe *out, int *code, strbuf *err) {
    (void)code, (void)err;
    const char *set = c->sets[c->nsets - 1];
    char model = set[strlen(set) - 1];
    assert_non_null(strstr(set, "cluster.nodePools.g.gpu.model="));
    for (size_t i = 0; i < n; i++) {
        out[i].pass = (model == 'A' && points[i][0] >= 6) || (model == 'B' && points[i][0] >= 2);
        g_or->calls++;
    }
    return 0;
}

/* Choices by hand: A at 10 an hour needs 6 nodes (60), B at 25 needs 2 (50),
 * C never passes: the answer is B x 2 for 50; unpriced (every node 1) it is
 * B x 2 too (2 nodes < 6); with B at 30 (60, a tie with A) the earlier, A x 6. */
static void test_choices(void **state) {
    (void)state;
    oracle o = {0};
    g_or = &o;
    const char *values[] = {"A", "B", "C"};
    double prices[] = {10, 25, 40};
    for (int variant = 0; variant < 3; variant++) {
        plan_dim dim = {.pool = "g", .lo = 1, .hi = 8, .price = 1};
        if (variant == 2) prices[1] = 30;
        plan_choice ch = {.pool = "g", .field = "gpu.model", .arg = "g.gpu.model=A,B,C", .values = values,
                          .prices = variant ? prices : NULL, .n = 3};
        plan_ctx c = {.dims = &dim, .k = 1, .jobs = 2, .probe = fake_probe_model, .choices = &ch, .nchoices = 1};
        int code = 0;
        strbuf err = {0};
        assert_int_equal(plan_search_all(&c, &code, &err), 0);
        assert_true(c.found);
        size_t want = variant == 2 ? 0 : 1;
        assert_int_equal(c.best_pick[0], want);
        assert_int_equal(c.best[0], want == 0 ? 6 : 2);
        assert_true(fabs(c.best_cost - (variant == 0 ? 2 : variant == 1 ? 50 : 60)) < 1e-9);
        const plan_probe *at = plan_answer_probe(&c);
        assert_non_null(at);
        assert_true(fabs(at->cost - c.best_cost) < 1e-9);
        for (size_t i = 0; i < c.nprobes; i++)   /* C's probe (8 nodes) fails, costs 8 x its price */
            if (c.probes[i].pick[0] == 2)
                assert_true(!c.probes[i].pass && fabs(c.probes[i].cost - (variant ? 320 : 8)) < 1e-9);
        plan_free(&c);
        sb_free(&err);
    }
    g_or = NULL;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_dim_probes),
        cmocka_unit_test(test_equals_brute_force),
        cmocka_unit_test(test_twins_linear),
        cmocka_unit_test(test_confidence_stats),
        cmocka_unit_test(test_choices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
