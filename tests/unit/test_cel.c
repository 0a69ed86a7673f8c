/*
 * test_cel.c -- the CEL language: error absorption, runtime errors, parse
 * errors with columns, the 10 KiB and cost limits, runtime cost vectors from
 * kubernetes/apiserver pkg/cel/library/cost_test.go (shared/spec/cel.md §2.4).
 */
#include "test_cel_util.h"

static void test_error_absorption(void **state) {
    (void)state;
    /* logic.textproto / fields.textproto shapes */
    assert_string_equal(cel_t_eval("(2 / 0 > 3 ? false : true) || true", NULL, NULL), "true");
    assert_string_equal(cel_t_eval("true || (2 / 0 > 3 ? false : true)", NULL, NULL), "true");
    assert_string_equal(cel_t_eval("(2 / 0 > 3 ? false : true) && false", NULL, NULL), "false");
    assert_string_equal(cel_t_eval("false && (2 / 0 > 3 ? false : true)", NULL, NULL), "false");
    assert_string_equal(cel_t_eval("1/0 != 0 || false", NULL, NULL), "error: division by zero");
    assert_string_equal(cel_t_eval("true && 1/0 != 0", NULL, NULL), "error: division by zero");
    assert_string_equal(cel_t_eval("{'a': 1}['b'] == 1 || true", NULL, NULL), "true");
    assert_string_equal(cel_t_eval("{'a': 1}['b'] == 1 && true", NULL, NULL), "error: no such key: b");
    assert_string_equal(cel_t_eval("2 / 0 > 4 ? 'baz' : 'quux'", NULL, NULL), "error: division by zero");
    /* comprehensions absorb through && / || as cel-go's expansion does */
    assert_string_equal(cel_t_eval("[0, 1].exists(x, 1 / x == 1)", NULL, NULL), "true");
    assert_string_equal(cel_t_eval("[0, 1].all(x, 1 / x == 2)", NULL, NULL), "false");
    assert_string_equal(cel_t_eval("[1, 0].all(x, 1 / x == 1)", NULL, NULL), "error: division by zero");
    assert_string_equal(cel_t_eval("[3, 2, 1, 0].exists_one(n, 12 / n > 1)", NULL, NULL), "error: division by zero");
    assert_string_equal(cel_t_eval("[2, 1, 0].map(n, 4 / n)", NULL, NULL), "error: division by zero");
}

static void test_runtime_errors(void **state) {
    (void)state;
    assert_string_equal(cel_t_eval("9223372036854775807 + 1", NULL, NULL), "error: integer overflow");
    assert_string_equal(cel_t_eval("-9223372036854775808 - 1", NULL, NULL), "error: integer overflow");
    assert_string_equal(cel_t_eval("-9223372036854775808", NULL, NULL), "-9223372036854775808");
    assert_string_equal(cel_t_eval("0u - 1u", NULL, NULL), "error: unsigned integer overflow");
    assert_string_equal(cel_t_eval("5 % 0", NULL, NULL), "error: modulus by zero");
    assert_string_equal(cel_t_eval("int(1e19)", NULL, NULL), "error: integer overflow");
    assert_string_equal(cel_t_eval("uint(-1)", NULL, NULL), "error: unsigned integer overflow");
    assert_string_equal(cel_t_eval("[1, 2][2]", NULL, NULL), "error: index out of bounds: 2");
    assert_string_equal(cel_t_eval("size('πέντε')", NULL, NULL), "5");
    assert_string_equal(cel_t_eval("dyn(1) == 1.0 && dyn(1u) < 2 && dyn(2.5) > 2", NULL, NULL), "true");
    assert_string_equal(cel_t_eval("'a' in ['b', 'a'] && 2 in {2: 'x'}", NULL, NULL), "true");
    assert_string_equal(cel_t_eval("{'k': 1, 'k': 2}", NULL, NULL), "error: Failed with repeated key");
}

static void test_compile_errors(void **state) {
    (void)state;
    assert_string_equal(cel_t_eval("1 +", NULL, NULL),
                        "error: compilation failed: ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting an expression");
    assert_string_equal(cel_t_eval("1 + \n  @", NULL, NULL),
                        "error: compilation failed: ERROR: <input>:2:3: Syntax error: token recognition error at: '@'");
    /* homogeneous aggregate literals */
    assert_contains(cel_t_eval("[1, 'a']", NULL, NULL), "expected type 'int' but found 'string'");
    assert_contains(cel_t_eval("{'a': 1, 'b': dyn(2)}", NULL, NULL), "expected type 'int' but found 'dyn'");
    assert_string_equal(cel_t_eval("[[], [1]]", NULL, NULL), "[[], [1]]");
    /* checker: overloads and declarations */
    assert_contains(cel_t_eval("1 == 1u", NULL, NULL), "found no matching overload for '_==_' applied to '(int, uint)'");
    assert_contains(cel_t_eval("'a' + 1", NULL, NULL), "found no matching overload for '_+_'");
    assert_contains(cel_t_eval("nope(1)", NULL, NULL), "undeclared reference to 'nope'");
    assert_contains(cel_t_eval("'abc'.matches('(?=a)')", NULL, NULL), "invalid matches argument");
    assert_contains(cel_t_eval("quantity(1)", NULL, NULL), "found no matching overload for 'quantity'");
    assert_contains(cel_t_eval("if", NULL, NULL), "reserved identifier: if");
    /* nesting limit */
    char deep[2000];
    size_t o = 0;
    for (int i = 0; i < 300; i++) deep[o++] = '(';
    deep[o++] = '1';
    for (int i = 0; i < 300; i++) deep[o++] = ')';
    deep[o] = 0;
    assert_contains(cel_t_eval(deep, NULL, NULL), "recursion limit");
}

static void test_size_limit(void **state) {
    (void)state;
    size_t n = CEL_MAX_EXPRESSION_BYTES + 1;
    char *e = malloc(n + 1);
    memset(e, ' ', n);
    e[0] = '1';
    e[n] = 0;
    assert_contains(cel_t_eval(e, NULL, NULL), "more than the limit of 10240");
    e[n - 1] = 0;   /* exactly 10 KiB is fine */
    assert_string_equal(cel_t_eval(e, NULL, NULL), "1");
    free(e);
}

static unsigned long long cost_of(const char *expr, int *ok) {
    strbuf err = {0};
    cel_options o = {0};
    cel_program *p = cel_compile_any(expr, strlen(expr), &o, &err);
    assert_non_null(p);
    unsigned long long c = 0;
    *ok = cel_eval_cost(p, NULL, NULL, &c, &err) == 0;
    cel_program_free(p);
    sb_free(&err);
    return c;
}

static void test_cost_vectors(void **state) {
    (void)state;
    static const struct { const char *e; unsigned long long cost; } v[] = {
        {"quantity(\"12Mi\")", 1},
        {"quantity(\"200M\") == quantity(\"200M\")", 3},
        {"quantity(\"200M\") == quantity(\"0.2G\") && quantity(\"0.2G\") == quantity(\"200M\")", 6},
        {"quantity(\"200M\").compareTo(quantity(\"0.2G\")) > 0", 4},
        {"quantity(\"50k\").add(20).sub(quantity(\"100k\")).sub(-50000).asInteger() > 0", 7},
        {"semver(\"1234.56789012345.67890123456789\")", 4},
        {"semver(\"1.2.3\").major()", 2},
        {"semver(\"1.0.0\").isLessThan(semver(\"1.1.0\"))", 3},
        {"'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3},
        {"'abc 123 def 123'.replace('123', '456')", 3},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        int ok;
        unsigned long long c = cost_of(v[i].e, &ok);
        if (c != v[i].cost) fail_msg("%s: cost %llu, want %llu", v[i].e, c, v[i].cost);
    }
}

static void test_cost_limit(void **state) {
    (void)state;
    /* compile_test.go: seven nested all() over ten elements */
    strbuf e = {0};
    for (int i = 0; i < 7; i++) sb_printf(&e, "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x%d, ", i);
    sb_puts(&e, "int('1'.find('[0-9]*')) < 100");
    for (int i = 0; i < 7; i++) sb_putc(&e, ')');
    k8s_device d = {.name = intern("dev")};
    assert_string_equal(cel_t_match(sb_str(&e), &d, intern("dra.example.com")), "match: operation cancelled: actual cost limit exceeded");
    sb_free(&e);
    assert_string_equal(cel_t_eval("lists.range(1000).all(x, lists.range(1000).all(y, true))", NULL, NULL),
                        "error: operation cancelled: actual cost limit exceeded");
    /* errors of the cost limit are not absorbed by || */
    assert_string_equal(cel_t_eval("true || lists.range(2000).all(x, lists.range(2000).all(y, true))", NULL, NULL), "true");
    assert_string_equal(cel_t_eval("lists.range(2000).all(x, lists.range(2000).all(y, true)) || true", NULL, NULL),
                        "error: operation cancelled: actual cost limit exceeded");
    /* string growth is paid for before memory is used */
    assert_string_equal(cel_t_eval("cel.bind(a, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', "
                                    "lists.range(40).map(i, a).join().size() > 0)", NULL, NULL), "true");
    int ok;
    unsigned long long c = cost_of("lists.range(300).map(x, lists.range(300).map(y, y)).size()", &ok);
    assert_true(ok);
    assert_true(c > 90000 && c < 1000000);
}

static void test_printing(void **state) {
    (void)state;
    assert_string_equal(cel_t_eval("1e16", NULL, NULL), "1e+16");
    assert_string_equal(cel_t_eval("2500000000000000.0", NULL, NULL), "2500000000000000.0");
    assert_string_equal(cel_t_eval("0.00001", NULL, NULL), "1e-05");
    assert_string_equal(cel_t_eval("-0.0", NULL, NULL), "-0.0");
    assert_string_equal(cel_t_eval("0.0/0.0", NULL, NULL), "nan");
    assert_string_equal(cel_t_eval("'\\x7f\\t'", NULL, NULL), "\"\\u007f\\t\"");
    assert_string_equal(cel_t_eval("b'\\x7f\"'", NULL, NULL), "b\"\\x7f\\\"\"");
    assert_string_equal(cel_t_eval("{2: 'b', 10: 'a'}", NULL, NULL), "{10: \"a\", 2: \"b\"}");
    assert_string_equal(cel_t_eval("string(1000000.0)", NULL, NULL), "\"1e+06\"");
    assert_string_equal(cel_t_eval("optional.of(1)", NULL, NULL), "optional.of(1)");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_absorption), cmocka_unit_test(test_runtime_errors),
        cmocka_unit_test(test_compile_errors),   cmocka_unit_test(test_size_limit),
        cmocka_unit_test(test_cost_vectors),     cmocka_unit_test(test_cost_limit),
        cmocka_unit_test(test_printing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
