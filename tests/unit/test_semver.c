/* test_semver.c -- strict and normalising semver parsing, error messages,
 * ordering and formatting. Vectors from blang/semver v4 semver_test.go
 * (formatTests, compareTests, wrongformatTests, tolerantFormatTests) and
 * kubernetes apiserver pkg/cel/library semver tests; error texts follow
 * blang's Parse and semverlib.go normalizeAndParse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cel/semver.h"
#include "util/intern.h"

static semver parse_ok(const char *s, bool normalize) {
    semver v;
    const char *err = NULL;
    if (semver_parse(s, strlen(s), normalize, &v, &err) != 0)
        fail_msg("parse of '%s' (normalize=%d) failed: %s", s, normalize, err);
    return v;
}

static void test_format_round_trip(void **state) {
    static const char *const cases[] = {
        "1.2.3", "0.0.1", "0.0.1-alpha.preview+123.456", "1.2.3-alpha.1+123.456", "1.2.3-alpha.1",
        "1.2.3+123.456", "1.2.3-alpha.b-eta+123.b-uild", "1.2.3+123.b-uild", "1.2.3-alpha.b-eta",
        "18446744073709551615.0.0", "1.0.0-0", "1.0.0-x-y-z.--", "1.0.0+0001",
    };
    char buf[128];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        semver v = parse_ok(cases[i], false);
        size_t n = semver_format_str(&v, buf, sizeof buf);
        assert_int_equal(n, strlen(cases[i]));
        assert_string_equal(buf, cases[i]);
    }
    semver v = parse_ok("1.2.3-alpha.1+build.5", false);
    assert_true(v.major == 1 && v.minor == 2 && v.patch == 3);
    assert_ptr_equal(v.pre, intern("alpha.1"));       /* interned */
    assert_ptr_equal(v.build, intern("build.5"));
    v = parse_ok("1.2.3", false);
    assert_null(v.pre);
    assert_null(v.build);
    /* build before prerelease: '+' is found first, so "-" belongs to build */
    v = parse_ok("1.0.0+build-1", false);
    assert_null(v.pre);
    assert_string_equal(v.build, "build-1");
    char small[4];
    v = parse_ok("10.20.30", false);
    assert_int_equal(semver_format_str(&v, small, sizeof small), 8);
    assert_string_equal(small, "10.");
}

static void test_errors(void **state) {
    static const struct { const char *in, *err; } cases[] = {
        {"", "Version string empty"},
        {".", "No Major.Minor.Patch elements found"},
        {"1.", "No Major.Minor.Patch elements found"},
        {".1", "No Major.Minor.Patch elements found"},
        {"v1.0", "No Major.Minor.Patch elements found"},
        {"v1.0.0", "Invalid character(s) found in major number \"v1\""},
        {"a.b.c", "Invalid character(s) found in major number \"a\""},
        {"1.a.b", "Invalid character(s) found in minor number \"a\""},
        {"1.1.a", "Invalid character(s) found in patch number \"a\""},
        {"1.a.1", "Invalid character(s) found in minor number \"a\""},
        {"a.1.1", "Invalid character(s) found in major number \"a\""},
        {"..", "strconv.ParseUint: parsing \"\": invalid syntax"},
        {"1..", "strconv.ParseUint: parsing \"\": invalid syntax"},
        {"1.1.", "strconv.ParseUint: parsing \"\": invalid syntax"},
        {"1..1", "strconv.ParseUint: parsing \"\": invalid syntax"},
        {"1.1.+123", "strconv.ParseUint: parsing \"\": invalid syntax"},
        {"1.1.-beta", "strconv.ParseUint: parsing \"\": invalid syntax"},
        {"-1.1.1", "Invalid character(s) found in major number \"-1\""},
        {"1.-1.1", "Invalid character(s) found in minor number \"-1\""},
        {"1.1.-1", "strconv.ParseUint: parsing \"\": invalid syntax"},
        {"20000000000000000000.1.1", "strconv.ParseUint: parsing \"20000000000000000000\": value out of range"},
        {"1.20000000000000000000.1", "strconv.ParseUint: parsing \"20000000000000000000\": value out of range"},
        {"1.1.20000000000000000000", "strconv.ParseUint: parsing \"20000000000000000000\": value out of range"},
        {"1.1.1-20000000000000000000", "strconv.ParseUint: parsing \"20000000000000000000\": value out of range"},
        {"18446744073709551616.0.0", "strconv.ParseUint: parsing \"18446744073709551616\": value out of range"},
        {"01.1.1", "Major number must not contain leading zeroes \"01\""},
        {"001.1.1", "Major number must not contain leading zeroes \"001\""},
        {"1.01.1", "Minor number must not contain leading zeroes \"01\""},
        {"1.001.1", "Minor number must not contain leading zeroes \"001\""},
        {"1.1.01", "Patch number must not contain leading zeroes \"01\""},
        {"1.1.001", "Patch number must not contain leading zeroes \"001\""},
        {"1.1.1-01", "Numeric PreRelease version must not contain leading zeroes \"01\""},
        {"1.1.1-001", "Numeric PreRelease version must not contain leading zeroes \"001\""},
        {"1.1.1-beta.01", "Numeric PreRelease version must not contain leading zeroes \"01\""},
        {"1.1.1-beta.001", "Numeric PreRelease version must not contain leading zeroes \"001\""},
        {"0.0.0-!", "Invalid character(s) found in prerelease \"!\""},
        {"0.0.0+!", "Invalid character(s) found in build meta data \"!\""},
        {"0.0.0-.alpha", "Prerelease is empty"},
        {"0.0.0-alpha.", "Prerelease is empty"},
        {"0.0.0-", "Prerelease is empty"},
        {"0.0.0-alpha+", "Build meta data is empty"},
        {"0.0.0-alpha+test.", "Build meta data is empty"},
        {"1.0.0+a+b", "Invalid character(s) found in build meta data \"a+b\""},
        {"1.0.0-a\tb", "Invalid character(s) found in prerelease \"a\\tb\""},
        {"1.0.0-\"q\\", "Invalid character(s) found in prerelease \"\\\"q\\\\\""},
        {"1.0.0-\x01", "Invalid character(s) found in prerelease \"\\x01\""},
        {"1.0.0-\xff", "Invalid character(s) found in prerelease \"\\xff\""},
        {"1.0.0-\xc3\xa9", "Invalid character(s) found in prerelease \"\xc3\xa9\""},
        {" 1.0.0", "Invalid character(s) found in major number \" 1\""},
        {"1.0.0 ", "Invalid character(s) found in patch number \"0 \""},
        {"1.0.0-alpha_1", "Invalid character(s) found in prerelease \"alpha_1\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        semver v;
        const char *err = NULL;
        if (semver_parse(cases[i].in, strlen(cases[i].in), false, &v, &err) == 0)
            fail_msg("'%s' parsed unexpectedly", cases[i].in);
        assert_non_null(err);
        if (strcmp(err, cases[i].err) != 0) fail_msg("'%s': error '%s', want '%s'", cases[i].in, err, cases[i].err);
    }
    /* an embedded NUL is an invalid character, not a terminator */
    semver v;
    const char *err;
    assert_int_equal(semver_parse("1.0.0\0", 6, false, &v, &err), -1);
    assert_string_equal(err, "Invalid character(s) found in patch number \"0\\x00\"");
}

static void test_normalize(void **state) {
    static const struct { const char *in, *want; } ok[] = {
        {"v1.2.3", "1.2.3"},     {"1.2.0-alpha", "1.2.0-alpha"}, {"1.2.00", "1.2.0"},
        {"01.02.03", "1.2.3"},   {"00.0.03", "0.0.3"},           {"000.0.03", "0.0.3"},
        {"1.2", "1.2.0"},        {"1", "1.0.0"},                 {"v01.01", "1.1.0"},
        {"1.0.0-alpha", "1.0.0-alpha"}, {"1.0.0+build", "1.0.0+build"},
        {"1.2.03-beta", "1.2.3-beta"},  {"1.2.0-beta.01x", "1.2.0-beta.01x"},
        {"00", "0.0.0"},         {"v0", "0.0.0"},                {"1.2.3", "1.2.3"},
        {"1.2.0003+b", "1.2.3+b"}, {"1.1.0-0", "1.1.0-0"},
    };
    char buf[128];
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        semver v = parse_ok(ok[i].in, true);
        semver_format_str(&v, buf, sizeof buf);
        if (strcmp(buf, ok[i].want) != 0) fail_msg("normalize '%s' -> '%s', want '%s'", ok[i].in, buf, ok[i].want);
    }
    static const struct { const char *in, *err; } bad[] = {
        {"1-alpha", "short version cannot contain PreRelease/Build meta data"},
        {"1+build", "short version cannot contain PreRelease/Build meta data"},
        {"1.0-alpha", "short version cannot contain PreRelease/Build meta data"},
        {"1.0+abc", "short version cannot contain PreRelease/Build meta data"},
        {"1.0-rc.1", "Invalid character(s) found in minor number \"0-rc\""},
        {"not-a-semver", "short version cannot contain PreRelease/Build meta data"},
        {" 1.0.0", "Invalid character(s) found in major number \"0 1\""},
        {"1.0.0 ", "Invalid character(s) found in patch number \"0 \""},
        {"1. 0.0", "Invalid character(s) found in minor number \"0 0\""},
        {"", "strconv.ParseUint: parsing \"\": invalid syntax"},
        {"v", "strconv.ParseUint: parsing \"\": invalid syntax"},
        {"vv1.0.0", "Invalid character(s) found in major number \"0v1\""},
        {"0a.1.1", "Invalid character(s) found in major number \"0a\""},
        {"1.2.3-01", "Numeric PreRelease version must not contain leading zeroes \"01\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        semver v;
        const char *err = NULL;
        if (semver_parse(bad[i].in, strlen(bad[i].in), true, &v, &err) == 0)
            fail_msg("'%s' normalized unexpectedly", bad[i].in);
        if (strcmp(err, bad[i].err) != 0) fail_msg("'%s': error '%s', want '%s'", bad[i].in, err, bad[i].err);
    }
    /* CEL examples: semver("v01.01", true) == semver("1.1.0") */
    semver a = parse_ok("v01.01", true), b = parse_ok("1.1.0", false);
    assert_int_equal(semver_cmp(&a, &b), 0);
}

static void test_compare(void **state) {
    static const struct { const char *a, *b; int want; } cases[] = {
        {"1.0.0", "1.0.0", 0},   {"2.0.0", "1.0.0", 1},   {"0.1.0", "0.1.0", 0},
        {"0.2.0", "0.1.0", 1},   {"0.0.1", "0.0.1", 0},   {"0.0.2", "0.0.1", 1},
        {"1.2.3", "1.2.3", 0},   {"2.2.4", "1.2.4", 1},   {"1.3.3", "1.2.3", 1},
        {"1.2.4", "1.2.3", 1},   {"1.0.0", "2.0.0", -1},  {"2.0.0", "2.1.0", -1},
        {"2.1.0", "2.1.1", -1},
        {"1.0.0", "1.0.0-alpha", 1},
        {"1.0.0-alpha", "1.0.0-alpha.1", -1},
        {"1.0.0-alpha.1", "1.0.0-alpha.beta", -1},
        {"1.0.0-alpha.beta", "1.0.0-beta", -1},
        {"1.0.0-beta", "1.0.0-beta.2", -1},
        {"1.0.0-beta.2", "1.0.0-beta.11", -1},
        {"1.0.0-beta.11", "1.0.0-rc.1", -1},
        {"1.0.0-rc.1", "1.0.0", -1},
        {"1.0.0+1.2.3", "1.0.0", 0},
        {"1.0.0-rc.1+a", "1.0.0-rc.1+b", 0},
        {"1.0.0-1", "1.0.0-a", -1},
        {"1.0.0-a-b", "1.0.0-a", 1},
        {"1.0.0-B", "1.0.0-a", -1},
        {"1.0.0-9", "1.0.0-10", -1},
        {"1.0.0-18446744073709551615", "1.0.0-18446744073709551614", 1},
        {"1.0.0-1a", "1.0.0-2", 1},
        {"18446744073709551615.0.0", "18446744073709551614.9.9", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        semver a = parse_ok(cases[i].a, false), b = parse_ok(cases[i].b, false);
        int c = semver_cmp(&a, &b), d = semver_cmp(&b, &a);
        if (c != cases[i].want || d != -cases[i].want)
            fail_msg("cmp(%s, %s) = %d/%d, want %d", cases[i].a, cases[i].b, c, d, cases[i].want);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_round_trip), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_normalize),         cmocka_unit_test(test_compare),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    intern_reset();
    return rc;
}
