/* test_yaml_tree.c -- YAML loading with positions, checked accessors, dumping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
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
        cmocka_unit_test(test_alias_bomb_refused),   cmocka_unit_test(test_dump_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
