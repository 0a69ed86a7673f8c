/* test_yaml_tree.c -- YAML loading with positions, checked accessors, dumping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "model/yaml_tree.h"

static void test_positions_and_lookup(void **state) {
    const char *src = "a: 1\nb:\n  - x\n  - 'true'\nc: {d: true}\n";
    yfile f;
    strbuf err = {0};
    assert_int_equal(yfile_load_mem("t.yaml", src, strlen(src), &f, &err), 0);
    assert_int_equal(f.ndocs, 1);
    const ynode *root = f.docs[0];
    const ynode *b = ymap_get(root, "b");
    assert_non_null(b);
    assert_int_equal(b->kind, YN_SEQ);
    assert_int_equal(b->n, 2);
    assert_int_equal(b->vals[1]->line, 4);
    assert_int_equal(b->vals[1]->col, 5);
    bool v;
    assert_int_equal(y_bool(b->vals[1], "b[1]", &v, &err), -1);   /* quoted: a string */
    assert_non_null(strstr(sb_str(&err), "t.yaml:4:5:"));
    assert_int_equal(y_bool(ymap_get(ymap_get(root, "c"), "d"), "d", &v, &err), 0);
    assert_true(v);
    int64_t i;
    assert_int_equal(y_int(ymap_get(root, "a"), "a", &i, &err), 0);
    assert_int_equal(i, 1);
    static const char *const allowed[] = {"a", "b", NULL};
    assert_int_equal(ymap_check_keys(root, allowed, "root", &err), -1);
    assert_non_null(strstr(sb_str(&err), "t.yaml:5:1: unknown field 'c'"));
    sb_free(&err);
    yfile_free(&f);
}

static void test_syntax_error_has_position(void **state) {
    const char *src = "a: [1, 2\nb: 3\n";
    yfile f;
    strbuf err = {0};
    assert_int_equal(yfile_load_mem("bad.yaml", src, strlen(src), &f, &err), -1);
    assert_non_null(strstr(sb_str(&err), "bad.yaml:"));
    sb_free(&err);
}

static void test_duplicate_key(void **state) {
    const char *src = "a: 1\na: 2\n";
    yfile f;
    strbuf err = {0};
    assert_int_equal(yfile_load_mem("d.yaml", src, strlen(src), &f, &err), -1);
    assert_non_null(strstr(sb_str(&err), "d.yaml:2:1: duplicate key 'a'"));
    sb_free(&err);
}


/* Regression (issue 10): encoding errors were always reported at 1:1. */
static void test_encoding_error_position(void **state) {
    struct { const char *src; const char *want; } cases[] = {
        {"a: 1\nb: 2\nc: \"x\xff\"\n", "enc.yaml:3:6: invalid YAML: invalid leading UTF-8 octet (byte 0xff at offset 15)"},
        {"a: 1\r\nb: \x01\n", "enc.yaml:2:4: invalid YAML: control characters are not allowed"},
        {"k: \xe2\x82\xac\n\xc2\x85x: \x7f\n", "enc.yaml:3:4: invalid YAML: control characters"},   /* NEL is a line break */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        yfile f;
        strbuf err = {0};
        assert_int_equal(yfile_load_mem("enc.yaml", cases[i].src, strlen(cases[i].src), &f, &err), -1);
        if (!strstr(sb_str(&err), cases[i].want)) fail_msg("case %zu: got '%s'", i, sb_str(&err));
        sb_free(&err);
    }
}

/* Regression (issue 10): maps parsed in quadratic time (200k keys took 89 s).
 * 200k keys must load in well under a few seconds of CPU even under
 * sanitizers, keep their order, and a duplicate at the very end is still
 * found. CPU time, not wall time: CI machines run at load 15-20, and a
 * wall-clock bound failed there once while the parser was fine. */
static void test_big_map_linear(void **state) {
    enum { N = 200000 };
    strbuf src = {0};
    for (int i = 0; i < N; i++) sb_printf(&src, "key-%d: %d\n", i, i);
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    yfile f;
    strbuf err = {0};
    assert_int_equal(yfile_load_mem("big.yaml", sb_str(&src), src.len, &f, &err), 0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    assert_true(secs < 5.0);
    assert_int_equal(f.docs[0]->n, N);
    assert_string_equal(f.docs[0]->keys[0]->str, "key-0");
    assert_string_equal(f.docs[0]->keys[N - 1]->str, "key-199999");
    assert_string_equal(f.docs[0]->vals[12345]->str, "12345");
    yfile_free(&f);
    sb_printf(&src, "key-77777: again\n");
    assert_int_equal(yfile_load_mem("big.yaml", sb_str(&src), src.len, &f, &err), -1);
    assert_string_equal(sb_str(&err), "big.yaml:200001:1: duplicate key 'key-77777'");
    /* keys that are not scalars never collide with scalars */
    const char *odd = "? [a]\n: 1\n? {a: 1}\n: 2\n"
                      "k0: 0\nk1: 1\nk2: 2\nk3: 3\nk4: 4\nk5: 5\nk6: 6\nk7: 7\nk8: 8\nk9: 9\n"
                      "k10: 0\nk11: 1\nk12: 2\nk13: 3\nk14: 4\nk15: 5\nk16: 6\n\"\": e\na: x\n";
    assert_int_equal(yfile_load_mem("odd.yaml", odd, strlen(odd), &f, &err), 0);
    assert_int_equal(f.docs[0]->n, 21);
    yfile_free(&f);
    sb_free(&src);
    sb_free(&err);
}

static void test_multi_doc_and_alias(void **state) {
    const char *src = "x: &A [1, 2]\n---\n---\ny: &B [3]\nz: *B\n";
    yfile f;
    strbuf err = {0};
    assert_int_equal(yfile_load_mem("m.yaml", src, strlen(src), &f, &err), 0);
    assert_int_equal(f.ndocs, 2);
    sb_free(&err);
    yfile_free(&f);
}

static void test_alias_bomb_refused(void **state) {
    strbuf src = {0};
    sb_puts(&src, "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 12; i++)
        sb_printf(&src, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i,
                  i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
    yfile f;
    strbuf err = {0};
    assert_int_equal(yfile_load_mem("bomb.yaml", src.s, src.len, &f, &err), -1);
    assert_non_null(strstr(sb_str(&err), "too large"));
    sb_free(&err);
    sb_free(&src);
}

/* The node cap's message (issue 25, finding 17): "once aliases are expanded" only
 * when the document has an alias. Cap 100: the sequence counts itself and its
 * items, 1 + 100 > 100 at its 100th item "0", col 5 + 2 * 99 = 203; with the
 * items reached through aliases the other message. */
static void test_cap_message(void **state) {
    (void)state;
    strbuf src = {0}, err = {0};
    yfile f;
    sb_puts(&src, "a: [");
    for (int i = 0; i < 100; i++) sb_puts(&src, "0,");
    sb_puts(&src, "0]\n");
    assert_int_equal(yfile_load_mem_max("plain.yaml", src.s, src.len, 100, &f, &err), -1);
    assert_string_equal(sb_str(&err), "plain.yaml:1:203: document too large (more than 100 nodes)");
    sb_clear(&src);
    sb_puts(&src, "a: &x [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\nb: [*x, *x, *x, *x, *x, *x, *x, *x, *x, *x]\n");
    assert_int_equal(yfile_load_mem_max("alias.yaml", src.s, src.len, 100, &f, &err), -1);
    assert_non_null(strstr(sb_str(&err), "alias.yaml:2:"));
    assert_non_null(strstr(sb_str(&err), ": document too large once aliases are expanded (more than 100 nodes)"));
    sb_free(&err);
    sb_free(&src);
}

static void test_dump_round_trip(void **state) {
    arena a = {0};
    ynode *m = yb_map(&a);
    yb_add(&a, m, "name", yb_str(&a, "gpu-0"));
    yb_add(&a, m, "count", yb_int(&a, 3));
    yb_add(&a, m, "s", yb_str(&a, "true"));
    yb_add(&a, m, "n", yb_str(&a, "123"));
    ynode *l = yb_seq(&a);
    ynode *e = yb_map(&a);
    yb_add(&a, e, "k", yb_str(&a, "a: b"));
    yb_add(&a, e, "z", yb_seq(&a));
    yb_push(&a, l, e);
    yb_push(&a, l, yb_str(&a, "plain"));
    yb_add(&a, m, "list", l);
    strbuf out = {0};
    ydump(&out, m);
    assert_string_equal(sb_str(&out), "name: gpu-0\ncount: 3\ns: \"true\"\n\"n\": \"123\"\nlist:\n- k: \"a: b\"\n  z: []\n- plain\n");
    yfile f;
    strbuf err = {0};
    assert_int_equal(yfile_load_mem("rt", out.s, out.len, &f, &err), 0);
    const ynode *s = ymap_get(f.docs[0], "s");
    assert_false(s->plain);
    assert_string_equal(s->str, "true");
    yfile_free(&f);
    sb_free(&out);
    sb_free(&err);
    arena_free(&a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_positions_and_lookup), cmocka_unit_test(test_syntax_error_has_position),
        cmocka_unit_test(test_duplicate_key),        cmocka_unit_test(test_multi_doc_and_alias),
        cmocka_unit_test(test_alias_bomb_refused), cmocka_unit_test(test_cap_message),   cmocka_unit_test(test_dump_round_trip),
        cmocka_unit_test(test_encoding_error_position), cmocka_unit_test(test_big_map_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
