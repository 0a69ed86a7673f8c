/* test_alloc_take.c -- allocator_take_plain (issue 31), the scheduler's
 * Reserve shortcut, against what it stands for: allocator_allocate with
 * results followed by allocator_commit, on a twin allocator over the same
 * objects. Every take must pick the same devices (by uid), report the same
 * search steps and leave the same state behind (the next status answers
 * agree); a call it cannot answer must return 0 and change nothing. Both of
 * its ways are run: from the node's remembered quick answer (nodes set) and
 * by gathering the node's pools (no nodes set). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "alloc/alloc.h"
#include "model/k8s_decode.h"
#include "util/intern.h"

#define HDR "apiVersion: resource.k8s.io/v1\n"

/* node-1 with devices dev-0 .. dev-7, class c (no selectors) and four claims:
 * 2, 1 and 4 devices, and 1 device with a toleration (its result is not plain). */
static const char *src(void) {
    static char buf[8192];
    int k = snprintf(buf, sizeof buf,
                     "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\n" HDR
                     "kind: DeviceClass\nmetadata: {name: c}\n---\n" HDR
                     "kind: ResourceSlice\nmetadata: {name: s1}\nspec:\n  driver: d\n"
                     "  pool: {name: p, resourceSliceCount: 1}\n  nodeName: node-1\n  devices:\n");
    for (int i = 0; i < 8; i++) k += snprintf(buf + k, sizeof buf - (size_t)k, "  - name: dev-%d\n", i);
    const int counts[3] = {2, 1, 4};
    for (int i = 0; i < 3; i++)
        k += snprintf(buf + k, sizeof buf - (size_t)k,
                      "---\n" HDR "kind: ResourceClaim\nmetadata: {name: c%d}\n"
                      "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c, count: %d}}]}}\n",
                      i, counts[i]);
    snprintf(buf + k, sizeof buf - (size_t)k,
             "---\n" HDR "kind: ResourceClaim\nmetadata: {name: tol}\n"
             "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c, tolerations: "
             "[{key: k, operator: Exists}]}}]}}\n");
    return buf;
}

typedef struct twin {
    k8s_objects o;
    allocator *take, *full;   /* allocator_take_plain / allocator_allocate + allocator_commit */
    const k8s_node *node;
    arena ar;
    strbuf err;
} twin;

static void twin_init(twin *t, bool nodes) {
    memset(t, 0, sizeof *t);
    k8s_objects_init(&t->o);
    const char *s = src();
    if (k8s_decode_mem(&t->o, "t.yaml", s, strlen(s), &t->err)) fail_msg("decode: %s", sb_str(&t->err));
    alloc_features f;
    assert_int_equal(alloc_features_parse("none", &f, &t->err), 0);
    t->node = k8s_find_node(&t->o, "node-1");
    t->take = allocator_new(&f, t->o.slices.data, t->o.slices.len, t->o.classes.data, t->o.classes.len, NULL, 1);
    t->full = allocator_new(&f, t->o.slices.data, t->o.slices.len, t->o.classes.data, t->o.classes.len, NULL, 1);
    if (nodes) {
        allocator_set_nodes(t->take, t->node, 1);
        allocator_set_nodes(t->full, t->node, 1);
    }
}

static void twin_free(twin *t) {
    allocator_free(t->take);
    allocator_free(t->full);
    arena_free(&t->ar);
    k8s_objects_free(&t->o);
    sb_free(&t->err);
}

static k8s_resource_claim *claim(twin *t, const char *name) {
    for (size_t i = 0; i < t->o.claims.len; i++)
        if (!strcmp(t->o.claims.data[i]->meta.name, name)) return t->o.claims.data[i];
    fail_msg("no claim %s", name);
    return NULL;
}

/* The Filter's status-only call on both (it fills the request memo and the node's quick answer). */
static alloc_status filter_both(twin *t, k8s_resource_claim *c) {
    k8s_allocation out;
    uint64_t s1 = 0, s2 = 0;
    alloc_status a = allocator_allocate(t->take, t->node, &c, 1, NULL, &out, &s1, &t->err);
    alloc_status b = allocator_allocate(t->full, t->node, &c, 1, NULL, &out, &s2, &t->err);
    assert_int_equal(a, b);
    assert_int_equal(s1, s2);
    return a;
}

/* Reserve of claim c on both, as the scheduler's Reserve does it: the take,
 * or when it answers 0 (nothing changed) the full call and commit. The same
 * devices and steps either way; returns how many devices the take gave. */
static size_t reserve_both(twin *t, k8s_resource_claim *c) {
    uint32_t uids[32];
    uint64_t steps = 0, fsteps = 0;
    k8s_allocation out;
    size_t n = allocator_take_plain(t->take, t->node, &c, 1, uids, 32, &steps);
    if (!n) {
        arena_reset(&t->ar);
        assert_int_equal(allocator_allocate(t->take, t->node, &c, 1, &t->ar, &out, &steps, &t->err), ALLOC_OK);
        for (size_t k = 0; k < out.nresults; k++) assert_true(allocator_result_uid(t->take, &out.results[k], &uids[k]));
        allocator_commit(t->take, &out);
    }
    size_t taken = n ? n : out.nresults;
    arena_reset(&t->ar);
    assert_int_equal(allocator_allocate(t->full, t->node, &c, 1, &t->ar, &out, &fsteps, &t->err), ALLOC_OK);
    assert_int_equal(taken, out.nresults);
    assert_int_equal(steps, fsteps);
    for (size_t k = 0; k < taken; k++) {
        uint32_t u;
        assert_true(allocator_result_uid(t->full, &out.results[k], &u));
        assert_int_equal(uids[k], u);
    }
    allocator_commit(t->full, &out);
    return n;
}

/* The device of uid u is dev-<want>. */
static void assert_dev(const twin *t, uint32_t u, int want) {
    char name[16];
    snprintf(name, sizeof name, "dev-%d", want);
    assert_string_equal(allocator_uid_device(t->take, u)->device, name);
}

/* Device dev-<i> given back on both. */
static void release_both(twin *t, int i) {
    char name[16];
    snprintf(name, sizeof name, "dev-%d", i);
    uint32_t u;
    assert_true(allocator_device_uid(t->take, "d", "p", name, &u));
    allocator_release_uid(t->take, u);
    allocator_release_uid(t->full, u);
}

/* The allocator decides a device's selector verdict when a search first
 * looks at it; until every candidate up to the N-th usable one is decided,
 * the take answers 0 and Reserve searches (the cases marked "long way"). */
static void run_sequence(bool nodes) {
    twin t;
    twin_init(&t, nodes);
    k8s_resource_claim *c2 = claim(&t, "c0"), *c1 = claim(&t, "c1"), *c4 = claim(&t, "c2");
    uint32_t uids[32];
    uint64_t steps = 0;
    /* before any call of the request: the long way decides (0, nothing taken) */
    assert_int_equal(allocator_take_plain(t.take, t.node, &c2, 1, uids, 32, &steps), 0);
    assert_int_equal(filter_both(&t, c2), ALLOC_OK);   /* a search: dev-0, dev-1 decided */
    assert_int_equal(reserve_both(&t, c2), 2);         /* dev-0, dev-1 */
    assert_int_equal(reserve_both(&t, c1), 0);         /* dev-2 undecided: long way, dev-2 */
    assert_int_equal(filter_both(&t, c4), ALLOC_OK);   /* a search: dev-3 .. dev-6 decided */
    assert_int_equal(reserve_both(&t, c4), 4);         /* dev-3 .. dev-6 */
    release_both(&t, 1);
    assert_int_equal(filter_both(&t, c1), ALLOC_OK);
    assert_int_equal(reserve_both(&t, c1), 1);         /* dev-1 */
    assert_int_equal(filter_both(&t, c2), ALLOC_UNSATISFIABLE);   /* a search: dev-7 decided, all are now */
    /* one device left (dev-7): two cannot be taken, and nothing changes */
    assert_int_equal(allocator_take_plain(t.take, t.node, &c2, 1, uids, 32, &steps), 0);
    assert_int_equal(filter_both(&t, c2), ALLOC_UNSATISFIABLE);
    /* more devices than the caller's room: 0 */
    assert_int_equal(allocator_take_plain(t.take, t.node, &c4, 1, uids, 3, &steps), 0);
    /* a result with tolerations is not plain: 0 */
    k8s_resource_claim *tol = claim(&t, "tol");
    assert_int_equal(filter_both(&t, tol), ALLOC_OK);
    assert_int_equal(allocator_take_plain(t.take, t.node, &tol, 1, uids, 32, &steps), 0);
    assert_int_equal(reserve_both(&t, c1), 1);         /* dev-7 */
    assert_int_equal(filter_both(&t, c1), ALLOC_UNSATISFIABLE);
    /* dev-5 and dev-2 given back: in search order, dev-2 then dev-5 */
    release_both(&t, 5);
    release_both(&t, 2);
    assert_int_equal(filter_both(&t, c2), ALLOC_OK);
    assert_int_equal(allocator_take_plain(t.take, t.node, &c2, 1, uids, 32, &steps), 2);
    assert_int_equal(steps, 5);
    assert_dev(&t, uids[0], 2);
    assert_dev(&t, uids[1], 5);
    k8s_allocation out;
    uint64_t fsteps;
    arena_reset(&t.ar);
    assert_int_equal(allocator_allocate(t.full, t.node, &c2, 1, &t.ar, &out, &fsteps, &t.err), ALLOC_OK);
    assert_string_equal(out.results[0].device, "dev-2");
    assert_string_equal(out.results[1].device, "dev-5");
    assert_int_equal(fsteps, 5);
    allocator_commit(t.full, &out);
    assert_int_equal(filter_both(&t, c1), ALLOC_UNSATISFIABLE);
    twin_free(&t);
}

static void test_take_remembered(void **state) {
    (void)state;
    run_sequence(true);
}

static void test_take_gathered(void **state) {
    (void)state;
    run_sequence(false);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_take_remembered),
        cmocka_unit_test(test_take_gathered),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
