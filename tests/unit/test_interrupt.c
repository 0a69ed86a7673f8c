/* test_interrupt.c -- Ctrl-C in the long loops below the CLI (issue 25,
 * finding 16): with the command's interrupt flag set (util/interrupt.h, as
 * cli_catch_interrupts registers it after the first SIGINT), YAML parsing
 * stops within 64Ki events and inventory building before its next node, each
 * with "interrupted"; with the flag clear both finish. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/cluster.h"
#include "util/intern.h"
#include "util/interrupt.h"

static volatile sig_atomic_t flag;

/* A sequence of 100,000 scalars: 100,000+ events, past the first poll at 65,536. */
static void big_sequence(strbuf *src) {
    sb_puts(src, "a: [");
    for (int i = 0; i < 100000; i++) sb_puts(src, "0,");
    sb_puts(src, "0]\n");
}

static void test_yaml_parse(void **state) {
    (void)state;
    strbuf src = {0}, err = {0};
    yfile f;
    big_sequence(&src);
    interrupt_watch(&flag);
    flag = 0;
    assert_int_equal(yfile_load_mem("big.yaml", src.s, src.len, &f, &err), 0);
    yfile_free(&f);
    flag = 1;
    assert_int_equal(yfile_load_mem("big.yaml", src.s, src.len, &f, &err), -1);
    assert_non_null(strstr(sb_str(&err), "big.yaml:1:"));
    assert_non_null(strstr(sb_str(&err), ": interrupted"));
    interrupt_watch(NULL);
    sb_free(&err);
    sb_free(&src);
}

static void test_inventory_build(void **state) {
    (void)state;
    gpu_catalog cat;
    strbuf err = {0};
    assert_int_equal(catalog_load(NULL, &cat, &err), 0);
    const char *yaml = "cluster:\n  nodePools:\n  - {name: n, count: 4, cpu: \"96\", memory: 1Ti, gpu: {model: H100-80GB, count: 8}}\n";
    yfile f;
    arena a = {0};
    cluster_spec spec;
    assert_int_equal(yfile_load_mem("c.yaml", yaml, strlen(yaml), &f, &err), 0);
    assert_int_equal(cluster_spec_parse(ymap_get(f.docs[0], "cluster"), &a, &spec, &err), 0);
    inventory inv;
    interrupt_watch(&flag);
    flag = 0;
    assert_int_equal(inventory_build(&spec, &cat, NULL, &inv, &err), 0);
    assert_int_equal(inv.nnodes, 4);
    inventory_free(&inv);
    flag = 1;
    assert_int_equal(inventory_build(&spec, &cat, NULL, &inv, &err), -1);
    assert_string_equal(sb_str(&err), "interrupted");
    interrupt_watch(NULL);
    arena_free(&a);
    yfile_free(&f);
    catalog_free(&cat);
    intern_reset();
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_yaml_parse), cmocka_unit_test(test_inventory_build)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
