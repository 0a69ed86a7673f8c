/*
 * test_cel_libs.c -- the Kubernetes libraries through CEL: quantity and semver
 * (the examples of kubernetes/apiserver pkg/cel/library/{quantity,semver}_test.go
 * quoted in shared/spec/cel.md §2.5), the strings extension (ext/strings_test.go
 * examples), lists, sets and regex.
 */
#include "test_cel_util.h"

#define EV(e) cel_t_eval((e), NULL, NULL)

static void test_quantity_parse(void **state) {
    (void)state;
    assert_string_equal(EV("quantity(\"12Mi\") == quantity(\"12582912\")"), "true");
    assert_contains(EV("quantity(\"10Mo\")"), "error: quantities must match the regular expression");
    assert_contains(EV("quantity(\"10Mm\")"), "error: unable to parse quantity's suffix");
    assert_string_equal(EV("isQuantity(\"20\") && isQuantity(\"20M\") && isQuantity(\"20Mi\")"), "true");
    assert_string_equal(EV("isQuantity(\"20Mo\") || isQuantity(\"10Mm\")"), "false");
    assert_contains(EV("isQuantity([1, 2, 3])"), "found no matching overload for 'isQuantity' applied to");
    assert_string_equal(EV("isQuantity(\"\") || isQuantity(\" 1\") || isQuantity(\"1 \") || isQuantity(\"1K\")"), "false");
    assert_string_equal(EV("isQuantity(\"1.\") && isQuantity(\".001\") && isQuantity(\"1E\") && isQuantity(\"1e3\")"), "true");
}

static void test_quantity_compare(void **state) {
    (void)state;
    assert_string_equal(EV("quantity(\"2M\") == quantity(\"0.002G\") && quantity(\"2000k\") == quantity(\"2M\") && "
                           "quantity(\"0.002G\") == quantity(\"2000k\")"), "true");
    assert_string_equal(EV("quantity(\"200M\") == quantity(\"0.3G\")"), "false");
    assert_string_equal(EV("quantity(\"50M\").isLessThan(quantity(\"50Mi\"))"), "true");
    assert_string_equal(EV("quantity(\"50M\").isGreaterThan(quantity(\"100M\"))"), "false");
    assert_string_equal(EV("quantity(\"200M\").compareTo(quantity(\"0.2G\"))"), "0");
    assert_string_equal(EV("quantity(\"50M\").compareTo(quantity(\"50Mi\"))"), "-1");
    assert_string_equal(EV("quantity(\"1Ki\") == quantity(\"1024\")"), "true");
    assert_string_equal(EV("quantity(\"10000T\").compareTo(quantity(\"100Gi\"))"), "1");
    assert_string_equal(EV("quantity(\"100m\").compareTo(quantity(\"50m\"))"), "1");
}

static void test_quantity_arith(void **state) {
    (void)state;
    assert_string_equal(EV("quantity(\"50k\").add(quantity(\"20\")) == quantity(\"50.02k\")"), "true");
    assert_string_equal(EV("quantity(\"50k\").add(20).isLessThan(quantity(\"50020\"))"), "false");
    assert_string_equal(EV("quantity(\"50k\").sub(20) == quantity(\"49980\")"), "true");
    assert_string_equal(EV("quantity(\"50k\").add(20).sub(quantity(\"100k\")).asInteger()"), "-49980");
    assert_string_equal(EV("quantity(\"9999999999999999999999999999999999999G\").asInteger()"),
                        "error: cannot convert value to integer");
    assert_string_equal(EV("quantity(\"9999999999999999999999999999999999999G\").isInteger()"), "false");
    assert_string_equal(EV("quantity(\"50\").isInteger()"), "true");
    assert_string_equal(EV("quantity(\"50.703k\").asApproximateFloat()"), "50703.0");
    assert_string_equal(EV("sign(quantity(\"-5\")) == -1 && sign(quantity(\"0\")) == 0 && sign(quantity(\"3m\")) == 1"), "true");
    assert_contains(EV("quantity(\"1\").sign()"), "found no matching overload for 'sign'");
}

static void test_semver(void **state) {
    (void)state;
    assert_string_equal(EV("semver(\"1.2.3\") == semver(\"1.2.3\")"), "true");
    assert_contains(EV("semver(\"v1.0\")"), "error: ");
    assert_string_equal(EV("isSemver(\"1.2.3-beta.1+build.1\")"), "true");
    assert_string_equal(EV("isSemver(\"v1.0.0\") || isSemver(\" 1.0.0\") || isSemver(\"1.0.0 \")"), "false");
    assert_string_equal(EV("isSemver(\"01.01.01\") || isSemver(\"1\") || isSemver(\"1.1\")"), "false");
    assert_string_equal(EV("isSemver(\"v1.0.0\", true) && isSemver(\"01.01.01\", true) && isSemver(\"1\", true)"), "true");
    assert_string_equal(EV("isSemver(\"\", true) || isSemver(\"1. 0.0\", true)"), "false");
    assert_contains(EV("isSemver([1, 2, 3])"), "found no matching overload for 'isSemver' applied to");
    assert_string_equal(EV("semver(\"v01.01\", true) == semver(\"1.1.0\")"), "true");
    assert_string_equal(EV("semver(\"1.2.3\") == semver(\"1.0.0\")"), "false");
    assert_string_equal(EV("semver(\"1.0.0\").isLessThan(semver(\"1.0.0\"))"), "false");
    assert_string_equal(EV("semver(\"1.2.3\").isGreaterThan(semver(\"1.0.0\"))"), "true");
    assert_string_equal(EV("semver(\"1.0.0\").compareTo(semver(\"1.2.3\"))"), "-1");
    assert_string_equal(EV("semver(\"1.2.3\").compareTo(semver(\"1.0.0\"))"), "1");
    assert_string_equal(EV("[semver(\"1.2.3\").major(), semver(\"1.2.3\").minor(), semver(\"1.2.3\").patch()]"), "[1, 2, 3]");
    /* prerelease ordering and build metadata */
    assert_string_equal(EV("semver(\"1.0.0-alpha\").isLessThan(semver(\"1.0.0\"))"), "true");
    assert_string_equal(EV("semver(\"1.0.0-alpha.1\").isLessThan(semver(\"1.0.0-alpha.beta\"))"), "true");
    assert_string_equal(EV("semver(\"1.0.0-2\").isLessThan(semver(\"1.0.0-10\"))"), "true");
    assert_string_equal(EV("semver(\"1.0.0+a\") == semver(\"1.0.0+b\")"), "true");
}

static void test_strings_ext(void **state) {
    (void)state;
    assert_string_equal(EV("'tacocat'.charAt(3) == 'o'"), "true");
    assert_string_equal(EV("'ta©o©αT'.indexOf('©', 3) == 4"), "true");
    assert_string_equal(EV("'bananananana'.lastIndexOf('nana', 7) == 6"), "true");
    assert_string_equal(EV("'TacoCÆt'.lowerAscii() == 'tacocÆt'"), "true");
    assert_string_equal(EV("\"{0} days {0} hours\".replace(\"{0}\", \"2\", 1).replace(\"{0}\", \"23\") == \"2 days 23 hours\""), "true");
    assert_string_equal(EV("\"hello hello\".replace(\"\", \"_\") == \"_h_e_l_l_o_ _h_e_l_l_o_\""), "true");
    assert_string_equal(EV("\"hello world events!\".split(\" \", 0) == []"), "true");
    assert_string_equal(EV("'a,b,c'.split(',', 2)"), "[\"a\", \"b,c\"]");
    assert_string_equal(EV("'ta©o©αT'.substring(2, 6) == \"©o©α\""), "true");
    assert_string_equal(EV("\" \\f\\n\\r\\t\\vtext  \".trim() == \"text\""), "true");
    assert_string_equal(EV("['x', 'y'].join('-') == 'x-y'"), "true");
    assert_string_equal(EV("'tacocat'.substring(4, 3)"), "error: invalid substring range. start: 4, end: 3");
    assert_string_equal(EV("strings.quote('a\"b')"), "\"\\\"a\\\\\\\"b\\\"\"");
}

static void test_lists_sets_regex(void **state) {
    (void)state;
    assert_string_equal(EV("[1, 2, 3].isSorted() && ![2, 1].isSorted()"), "true");
    assert_string_equal(EV("[1, 2, 3].sum() == 6 && [1.5, 2.5].sum() == 4.0 && [1u].sum() == 1u"), "true");
    assert_string_equal(EV("[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3"), "true");
    assert_string_equal(EV("[].min()"), "error: min called on empty list");
    assert_string_equal(EV("[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2"), "true");
    assert_string_equal(EV("[1, 2, 3, 4].slice(1, 3)"), "[2, 3]");
    assert_string_equal(EV("[[1], [2, 3]].flatten()"), "[1, 2, 3]");
    assert_string_equal(EV("[1, 2, 1, 3].distinct()"), "[1, 2, 3]");
    assert_string_equal(EV("[1, 2, 3].reverse()"), "[3, 2, 1]");
    assert_string_equal(EV("['b', 'c', 'a'].sort()"), "[\"a\", \"b\", \"c\"]");
    assert_string_equal(EV("['bb', 'a', 'ccc'].sortBy(s, -size(s))"), "[\"ccc\", \"bb\", \"a\"]");
    assert_string_equal(EV("lists.range(3)"), "[0, 1, 2]");
    assert_string_equal(EV("[1, 2].first().value() == 1 && [1, 2].last().value() == 2 && ![].first().hasValue()"), "true");
    assert_string_equal(EV("sets.contains([1, 2, 3], [3, 1]) && sets.equivalent([1, 2], [2, 1, 1]) && sets.intersects([1], [2, 1])"), "true");
    assert_string_equal(EV("sets.contains([1], [2])"), "false");
    assert_string_equal(EV("'abc123def45'.find('[0-9]+')"), "\"123\"");
    assert_string_equal(EV("'abc'.find('[0-9]+')"), "\"\"");
    assert_string_equal(EV("'a1b22c333'.findAll('[0-9]+')"), "[\"1\", \"22\", \"333\"]");
    assert_string_equal(EV("'a1b22c333'.findAll('[0-9]+', 2)"), "[\"1\", \"22\"]");
    assert_string_equal(EV("'abc'.findAll('x*')"), "[\"\", \"\", \"\", \"\"]");
    /* RE2 semantics: \\d is ASCII, $ only at the very end, unanchored matching */
    assert_string_equal(EV("'٣'.matches('\\\\d')"), "false");
    assert_string_equal(EV("'ab\\n'.matches('b$')"), "false");
    assert_string_equal(EV("'xaby'.matches('ab')"), "true");
    assert_contains(EV("'a'.matches('(a)\\\\1')"), "invalid matches argument");
    assert_contains(EV("'a'.matches('a**')"), "invalid nested repetition operator");
    assert_string_equal(EV("'a'.matches('(?i)A')"), "true");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantity_parse),   cmocka_unit_test(test_quantity_compare),
        cmocka_unit_test(test_quantity_arith),   cmocka_unit_test(test_semver),
        cmocka_unit_test(test_strings_ext),      cmocka_unit_test(test_lists_sets_regex),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
