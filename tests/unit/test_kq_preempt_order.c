/* test_kq_preempt_order.c -- the order in which classic preemption reads its
 * candidates (sim/queue/kq_preempt.c) when a ClusterQueue's admitted list is
 * read backwards (kq_adm_ordered) instead of collected and ordered whole, and
 * the bookkeeping behind it in sim/queue/kq_tree.c (kq_adm_ordered,
 * kq_wl_mark_evicted's eviction list).
 *
 * Cohort co: ClusterQueue a (nominal 6 GPUs, reclaimWithinCohort Any) and the
 * borrowers b and c (nominal 0), one GPU per Workload. a asks for k GPUs with
 * nothing of its own admitted: every candidate is a reclaim from b or c, so
 * the victims are the first candidates in Kueue's CandidatesOrdering
 * (common/ordering.go, ff69552e79: evicted first, lower priority first, more
 * recent quota reservation first, then name, then uid order) taken until k
 * GPUs are free, a borrower within its nominal quota (0) no longer a
 * candidate, then minimised (fillBackWorkloads). Expectations worked out by
 * hand from that ordering; each case's comment gives the order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/kueue.h"
#include "queue/kq.h"
#include "util/intern.h"

static const char OBJECTS[] =
    "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: f}\n---\n"
    "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: co}\n---\n"
    "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: a}\nspec:\n  cohortName: co\n"
    "  preemption: {reclaimWithinCohort: Any}\n"
    "  resourceGroups:\n  - coveredResources: [nvidia.com/gpu]\n    flavors:\n"
    "    - name: f\n      resources: [{name: nvidia.com/gpu, nominalQuota: 6}]\n---\n"
    "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: b}\nspec:\n  cohortName: co\n"
    "  resourceGroups:\n  - coveredResources: [nvidia.com/gpu]\n    flavors:\n"
    "    - name: f\n      resources: [{name: nvidia.com/gpu, nominalQuota: 0}]\n---\n"
    "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: c}\nspec:\n  cohortName: co\n"
    "  resourceGroups:\n  - coveredResources: [nvidia.com/gpu]\n    flavors:\n"
    "    - name: f\n      resources: [{name: nvidia.com/gpu, nominalQuota: 0}]\n";

typedef struct fixture {
    kq_objects o;
    kq_snapshot s;
    kq_node *a, *b, *c;
    uint32_t fr;
    kq_wl wl[16];                    /* wl[i].seq == i */
    kq_usage use[16];
    kq_wl in;                        /* a's pending Workload */
} fixture;

static void setup(fixture *f) {
    memset(f, 0, sizeof *f);
    kq_objects_init(&f->o);
    strbuf err = {0};
    assert_int_equal(kq_decode_mem(&f->o, "objects.yaml", OBJECTS, sizeof OBJECTS - 1, false, &err), 0);
    assert_int_equal(kq_objects_check(&f->o, true, &err), 0);
    sb_free(&err);
    kq_snapshot_build(&f->s, &f->o);
    f->a = kq_snapshot_cq(&f->s, intern("a"));
    f->b = kq_snapshot_cq(&f->s, intern("b"));
    f->c = kq_snapshot_cq(&f->s, intern("c"));
    assert_non_null(f->a);
    f->fr = kq_fr_index(&f->s, intern("f"), intern("nvidia.com/gpu"));
    f->in = (kq_wl){.name = intern("in"), .cq = f->a, .reserved_ms = -1, .seq = 99};
}

static void teardown(fixture *f) {
    kq_snapshot_free(&f->s);
    kq_objects_free(&f->o);
}

/* Admit Workload i (name, priority, reservation time) to cq, 1 GPU. */
static kq_wl *admit(fixture *f, uint32_t i, kq_node *cq, const char *name, int32_t prio, int64_t reserved) {
    kq_wl *w = &f->wl[i];
    f->use[i] = (kq_usage){f->fr, 1};
    *w = (kq_wl){.name = intern(name), .priority = prio, .reserved_ms = reserved, .cq = cq, .usage = &f->use[i],
                 .nusage = 1, .seq = i};
    kq_admit_wl(&f->s, w);
    return w;
}

/* a asks for k GPUs: the victims' seq in the order returned, -1 terminated in want. */
static void expect_victims(fixture *f, int64_t k, const int *want) {
    kq_usage u = {f->fr, k};
    kq_victim *v = NULL;
    size_t n = kq_preempt_targets(&f->s, &f->in, f->a, &f->fr, 1, &u, 1, &v);
    size_t nwant = 0;
    while (want[nwant] >= 0) nwant++;
    assert_int_equal(n, nwant);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(v[i].wl->seq, (uint64_t)want[i]);
        assert_string_equal(v[i].reason, "InCohortReclamation");
    }
    free(v);
    /* the search leaves the usage as it found it */
    assert_int_equal(f->b->usage[f->fr] + f->c->usage[f->fr] + f->a->usage[f->fr], f->s.nodes[3]->usage[f->fr]);
}

/* The six borrowed GPUs: b1@10, b2@20 "y", b3@20 "x", b4@30; c5@20 "a", c6@25.
 * Order: b4 (30), c6 (25), then the ties at 20 by name: c5 "a", b3 "x",
 * b2 "y"; then b1 (10). */
static void six(fixture *f) {
    admit(f, 1, f->b, "w", 0, 10);
    admit(f, 2, f->b, "y", 0, 20);
    admit(f, 3, f->b, "x", 0, 20);
    admit(f, 4, f->b, "w", 0, 30);
    admit(f, 5, f->c, "a", 0, 20);
    admit(f, 6, f->c, "w", 0, 25);
}

static void test_reads_lists_backwards_with_ties(void **state) {
    (void)state;
    fixture f;
    setup(&f);
    six(&f);
    assert_true(kq_adm_ordered(f.b));
    assert_true(kq_adm_ordered(f.c));
    expect_victims(&f, 1, (const int[]){4, -1});
    expect_victims(&f, 3, (const int[]){4, 6, 5, -1});
    /* c is within its nominal quota (0) once c6 and c5 are taken: b3 next */
    expect_victims(&f, 4, (const int[]){4, 6, 5, 3, -1});
    expect_victims(&f, 6, (const int[]){4, 6, 5, 3, 2, 1, -1});
    /* more than the cohort holds: no victims */
    expect_victims(&f, 7, (const int[]){-1});
    teardown(&f);
}

static void test_evicted_first_and_forgotten_when_gone(void **state) {
    (void)state;
    fixture f;
    setup(&f);
    six(&f);
    kq_wl_mark_evicted(&f.wl[1]);   /* b1, the oldest, is evicted: first */
    kq_wl_mark_evicted(&f.wl[1]);   /* twice is once */
    assert_int_equal(f.b->nevl, 1);
    expect_victims(&f, 1, (const int[]){1, -1});
    expect_victims(&f, 2, (const int[]){1, 4, -1});
    kq_unadmit_wl(&f.s, &f.wl[1]);  /* gone: off the eviction list too; 1 GPU free */
    assert_int_equal(f.b->nevl, 0);
    expect_victims(&f, 2, (const int[]){4, -1});
    teardown(&f);
}

static void test_mixed_priorities_and_late_reservations_collected(void **state) {
    (void)state;
    fixture f;
    setup(&f);
    six(&f);
    /* c7: priority 5, the most recent; lower priority goes first, so it is last */
    admit(&f, 7, f.c, "w", 5, 40);
    assert_false(kq_adm_ordered(f.c));
    assert_true(kq_adm_ordered(f.b));
    /* b8 listed after b4 (30) but reserved at 5: b's list is out of order */
    admit(&f, 8, f.b, "w", 0, 5);
    assert_false(kq_adm_ordered(f.b));
    /* 8 GPUs used of the cohort's 6 (the usage is as given): 1 GPU for a takes 3.
     * Order b4, c6, c5, b3, b2, b1, b8, c7 */
    expect_victims(&f, 1, (const int[]){4, 6, 5, -1});
    /* 4 GPUs take 6: through b1 (b8 and c7, the last two, stay) */
    expect_victims(&f, 4, (const int[]){4, 6, 5, 3, 2, 1, -1});
    /* 6 GPUs take all 8; c7 last */
    expect_victims(&f, 6, (const int[]){4, 6, 5, 3, 2, 1, 8, 7, -1});
    /* b emptied and refilled: in order again */
    for (uint32_t i = 1; i <= 8; i++)
        if (f.wl[i].cq == f.b) kq_unadmit_wl(&f.s, &f.wl[i]);
    admit(&f, 9, f.b, "w", 0, 50);
    assert_true(kq_adm_ordered(f.b));
    teardown(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_lists_backwards_with_ties),
        cmocka_unit_test(test_evicted_first_and_forgotten_when_gone),
        cmocka_unit_test(test_mixed_priorities_and_late_reservations_collected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
