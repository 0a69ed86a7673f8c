/* test_quantity.c -- resource.Quantity parsing, canonical form, comparison,
 * arithmetic and accessors. Vectors come from k8s.io/apimachinery
 * pkg/api/resource/quantity_test.go (TestQuantityParse, TestQuantityParseEmit,
 * TestQuantityString, TestQuantityCmp, TestAdd/TestSub, TestNewSet,
 * TestMilliNewSet, TestScaledValue, TestQuantityAsApproximateFloat64, the
 * mostNegative tests) and from docs/spec cel.md section 3; the expected
 * canonical strings are worked out from upstream's String() rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "cel/quantity.h"

enum { INT = 0, DEC = 1 };
#define DSI QF_DECIMAL_SI
#define BSI QF_BINARY_SI
#define DEX QF_DECIMAL_EXPONENT

static const char ERR_FORMAT[] =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
static const char ERR_NUMERIC[] = "unable to parse numeric part of quantity";
static const char ERR_SUFFIX[] = "unable to parse quantity's suffix";

static quantity parse_ok(const char *s) {
    quantity q;
    const char *err = NULL;
    int rc = quantity_parse(s, strlen(s), &q, &err);
    if (rc != 0) fail_msg("parse of '%s' failed: %s", s, err);
    return q;
}

static const char *canon(const quantity *q, char *buf, size_t n) {
    size_t need = quantity_format_str(q, buf, n);
    assert_true(need < n);
    assert_int_equal(strlen(buf), need);
    return buf;
}

static quantity mk(int64_t mant, int32_t exp10, int format, int is_dec) {
    quantity q;
    memset(&q, 0, sizeof q);
    q.mant = mant;
    q.exp10 = exp10;
    q.format = (uint8_t)format;
    q.is_dec = (uint8_t)is_dec;
    return q;
}

/* ------------------------------------------------------------ parse table */

static const struct { const char *in, *canon; int format, is_dec; } parse_cases[] = {
    {"0", "0", DSI, INT},           {"0n", "0", DSI, INT},         {"0u", "0", DSI, INT},
    {"0m", "0", DSI, INT},          {"0Ki", "0", BSI, INT},        {"0k", "0", DSI, INT},
    {"0Mi", "0", BSI, INT},         {"0M", "0", DSI, INT},         {"0Gi", "0", BSI, INT},
    {"0G", "0", DSI, INT},          {"0Ti", "0", BSI, INT},        {"0T", "0", DSI, INT},
    {"1", "1", DSI, INT},
    /* binary suffixes; Pi/Ei never take the int64 fast path */
    {"1Ki", "1Ki", BSI, INT},       {"8Ki", "8Ki", BSI, INT},      {"7Mi", "7Mi", BSI, INT},
    {"6Gi", "6Gi", BSI, INT},       {"5Ti", "5Ti", BSI, INT},      {"4Pi", "4Pi", BSI, DEC},
    {"3Ei", "3Ei", BSI, DEC},       {"10Ti", "10Ti", BSI, INT},    {"100Ti", "100Ti", BSI, DEC},
    /* decimal suffixes */
    {"5n", "5n", DSI, INT},         {"4u", "4u", DSI, INT},        {"3m", "3m", DSI, INT},
    {"9", "9", DSI, INT},           {"8k", "8k", DSI, INT},        {"50k", "50k", DSI, INT},
    {"7M", "7M", DSI, INT},         {"6G", "6G", DSI, INT},        {"5T", "5T", DSI, INT},
    {"40T", "40T", DSI, INT},       {"300T", "300T", DSI, INT},    {"2P", "2P", DSI, INT},
    {"1E", "1E", DSI, INT},
    /* decimal exponents */
    {"1E-3", "1e-3", DEX, INT},     {"1e3", "1e3", DEX, INT},      {"1E6", "1e6", DEX, INT},
    {"1e9", "1e9", DEX, INT},       {"1E12", "1e12", DEX, INT},    {"1e15", "1e15", DEX, INT},
    {"1E18", "1e18", DEX, INT},     {"1e14", "100e12", DEX, INT},  {"1e13", "10e12", DEX, INT},
    {"100.035k", "100035", DSI, INT},
    /* things that look like floating point */
    {"0.001", "1m", DSI, INT},      {"0.0005k", "500m", DSI, INT}, {"0.005", "5m", DSI, INT},
    {"0.05", "50m", DSI, INT},      {"0.5", "500m", DSI, INT},     {"0.00050k", "500m", DSI, INT},
    {"0.00500", "5m", DSI, INT},    {"0.05000", "50m", DSI, INT},  {"0.50000", "500m", DSI, INT},
    {"0.5e0", "500e-3", DEX, INT},  {"0.5e-1", "50e-3", DEX, INT}, {"0.5e-2", "5e-3", DEX, INT},
    {"10.035M", "10035k", DSI, INT},
    {"1.2e3", "1200", DEX, INT},    {"1.3E+6", "1300e3", DEX, INT}, {"1.40e9", "1400e6", DEX, INT},
    {"1.53E12", "1530e9", DEX, INT}, {"1.6e15", "1600e12", DEX, INT}, {"1.7E18", "1700e15", DEX, INT},
    {"9.01", "9010m", DSI, INT},    {"8.1k", "8100", DSI, INT},    {"7.123456M", "7123456", DSI, INT},
    {"6.987654321G", "6987654321", DSI, INT}, {"5.444T", "5444G", DSI, INT},
    {"40.1T", "40100G", DSI, INT},  {"300.2T", "300200G", DSI, INT}, {"2.5P", "2500T", DSI, INT},
    {"1.01E", "1010P", DSI, INT},
    /* things that saturate or round up to 10^-9 */
    {"3.001n", "4n", DSI, DEC},     {"1.1E-9", "2e-9", DEX, DEC},  {"0.0000000001", "1n", DSI, DEC},
    {"0.0000000005", "1n", DSI, DEC}, {"0.00000000050", "1n", DSI, DEC}, {"0.5e-9", "1e-9", DEX, DEC},
    {"0.9n", "1n", DSI, DEC},       {"0.00000012345", "124n", DSI, DEC},
    {"0.00000012354", "124n", DSI, DEC},
    {"9Ei", "9223372036854775807", BSI, DEC},
    {"9223372036854775807Ki", "9223372036854775807", BSI, DEC},
    {"12E", "12E", DSI, INT},
    /* fractional binary values */
    {"100.035Ki", "102435840m", BSI, DEC}, {"0.5Mi", "512Ki", BSI, DEC},
    {"0.05Gi", "53687091200m", BSI, DEC},  {"0.025Ti", "27487790694400m", BSI, DEC},
    {"1.5Gi", "1536Mi", BSI, DEC},
    /* things written by trolls */
    {"0.000000000001Ki", "2n", DSI, DEC}, {".001", "1m", DSI, INT}, {".0001k", "100m", DSI, INT},
    {"1.", "1", DSI, INT},          {"1.G", "1G", DSI, INT},
    /* TestQuantityParseEmit */
    {"1Mi", "1Mi", BSI, INT},       {"1Gi", "1Gi", BSI, INT},      {"1024Mi", "1Gi", BSI, INT},
    {"1000M", "1G", DSI, INT},      {".001Ki", "1024m", BSI, DEC}, {".000001Ki", "1024u", DSI, DEC},
    {".000000001Ki", "1024n", DSI, DEC}, {".000000000001Ki", "2n", DSI, DEC},
    /* spec cel.md section 3 and code reading of the scanner */
    {"1.5", "1500m", DSI, INT},     {"1000m", "1", DSI, INT},
    {"1000000000000000000", "1E", DSI, DEC},   /* 19 digits: inf.Dec */
    {"1000E", "1e21", DSI, INT},    {"5000E", "5e21", DSI, INT},
    {".", "0", DSI, INT},           {"-.", "0", DSI, INT},         {"-", "0", DSI, INT},
    {"+", "0", DSI, INT},           {"e5", "0", DEX, INT},         {"Ki", "0", BSI, INT},
    {"000", "0", DSI, INT},         {"0.0e-20", "0", DEX, DEC},
    {"1e-1000", "1e-9", DEX, DEC},  {"12e500", "1200e498", DEX, INT},
    {"9223372036854775808", "9223372036854775808", DSI, DEC},
    {"123456789012345678901234567890", "123456789012345678901234567890", DSI, DEC},
    {"18446744073709551616", "18446744073709551616", DSI, DEC},
    {"1.0000000000000000000000000000001", "1000000001n", DSI, DEC},
    {"8Ei", "9223372036854775807", BSI, DEC},
    {"7.99999999999999999999Ei", "9223372036854775807", BSI, DEC},
    {"0.5Ki", "512", BSI, DEC},
    {"1.5Ki", "1536", BSI, DEC},
};

static void test_parse_table(void **state) {
    char buf[96], neg[128], negc[96];
    for (size_t i = 0; i < sizeof parse_cases / sizeof parse_cases[0]; i++) {
        const char *in = parse_cases[i].in;
        quantity q = parse_ok(in);
        canon(&q, buf, sizeof buf);
        if (strcmp(buf, parse_cases[i].canon) != 0)
            fail_msg("%s: canonical '%s', want '%s'", in, buf, parse_cases[i].canon);
        if (q.format != parse_cases[i].format)
            fail_msg("%s: format %d, want %d", in, q.format, parse_cases[i].format);
        if (q.is_dec != parse_cases[i].is_dec)
            fail_msg("%s: is_dec %d, want %d", in, q.is_dec, parse_cases[i].is_dec);
        /* the canonical form parses back to the same value */
        quantity r = parse_ok(buf);
        if (quantity_cmp(&q, &r) != 0) fail_msg("%s: '%s' does not round-trip", in, buf);
        /* "-" + input: same format, negated value, "-" + canonical */
        if (in[0] == '-' || in[0] == '+') continue;
        snprintf(neg, sizeof neg, "-%s", in);
        quantity nq = parse_ok(neg);
        assert_int_equal(nq.format, q.format);
        assert_int_equal(quantity_sign(&nq), -quantity_sign(&q));
        canon(&nq, negc, sizeof negc);
        if (quantity_sign(&q) == 0) assert_string_equal(negc, "0");
        else {
            snprintf(neg, sizeof neg, "-%s", buf);
            if (strcmp(negc, neg) != 0) fail_msg("-%s: canonical '%s', want '%s'", in, negc, neg);
        }
        /* "+" + input parses to the same value and format */
        snprintf(neg, sizeof neg, "+%s", in);
        quantity pq = parse_ok(neg);
        assert_int_equal(quantity_cmp(&pq, &q), 0);
        assert_int_equal(pq.format, q.format);
    }
}

/* ---------------------------------------------------------- invalid input */

static void test_invalid(void **state) {
    static const struct { const char *in, *err; } cases[] = {
        {"", ERR_FORMAT},          {"1.1.M", ERR_FORMAT},     {"1+1.0M", ERR_FORMAT},
        {"0.1mi", ERR_SUFFIX},     {"0.1am", ERR_FORMAT},     {"aoeu", ERR_FORMAT},
        {".5i", ERR_SUFFIX},       {"1i", ERR_SUFFIX},        {"-3.01i", ERR_SUFFIX},
        {"-3.01e-", ERR_SUFFIX},   {" 1", ERR_FORMAT},        {"1 ", ERR_FORMAT},
        {"1K", ERR_SUFFIX},        {"1e", ERR_SUFFIX},        {"1KiB", ERR_FORMAT},
        {"1e99999999999999999999", ERR_SUFFIX},               {"1ee3", ERR_SUFFIX},
        {"Non-Numeric", ERR_FORMAT}, {"1+5", ERR_SUFFIX},     {"1Mi ", ERR_FORMAT},
        {"--1", ERR_SUFFIX},       {"1,5", ERR_FORMAT},       {"\xff", ERR_FORMAT},
        {".e-10", ERR_NUMERIC},    {"-.e-10", ERR_NUMERIC},   {"e-10", ERR_NUMERIC},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        quantity q;
        const char *err = NULL;
        if (quantity_parse(cases[i].in, strlen(cases[i].in), &q, &err) == 0)
            fail_msg("'%s' parsed unexpectedly", cases[i].in);
        assert_non_null(err);
        if (strcmp(err, cases[i].err) != 0) fail_msg("'%s': error '%s', want '%s'", cases[i].in, err, cases[i].err);
    }
    /* embedded NUL is just another bad character */
    quantity q;
    const char *err;
    assert_int_equal(quantity_parse("1\0", 2, &q, &err), -1);
    /* a value beyond 38 significant digits is refused rather than rounded */
    const char *huge = "1234567890123456789012345678901234567890";
    assert_int_equal(quantity_parse(huge, strlen(huge), &q, &err), -1);
}

/* ------------------------------------------------------------ comparisons */

static void test_cmp(void **state) {
    static const struct { const char *a, *b; int want; } cases[] = {
        {"0", "0", 0},            {"100m", "50m", 1},        {"50m", "100m", -1},
        {"10000T", "100Gi", 1},   {"1Ki", "1024", 0},        {"200M", "0.2G", 0},
        {"50M", "50Mi", -1},      {"1000m", "1", 0},         {"-1", "1", -1},
        {"12E", "1E", 1},         {"1e21", "1000E", 0},      {"9Ei", "9223372036854775807", 0},
        {"1.5Gi", "1610612736", 0}, {"-0.5", "-1", 1},       {"0", "-0", 0},
        {"0m", "0Ki", 0},         {"1n", "0", 1},            {"-1n", "0", -1},
        {"1e500", "1e499", 1},    {"-1e500", "-1e499", -1},  {"1e-1000", "1n", 0},
        {"123456789012345678901234567890", "123456789012345678901234567891", -1},
        {"99999999999999999999999999999999999999", "1e38", -1},
        {"1.000000001", "1", 1},  {"999999999999999999n", "1G", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        quantity a = parse_ok(cases[i].a), b = parse_ok(cases[i].b);
        int c = quantity_cmp(&a, &b), d = quantity_cmp(&b, &a);
        if (c != cases[i].want || d != -cases[i].want)
            fail_msg("cmp(%s, %s) = %d/%d, want %d", cases[i].a, cases[i].b, c, d, cases[i].want);
    }
    /* TestQuantityCmpInt64AndDec: representation does not matter */
    static const struct { int64_t am; int32_t ae; int64_t bm; int32_t be; int want; } raw[] = {
        {901, -2, 901, -2, 0},        {90, -1, 901, -2, -1},      {901, -2, 900, -2, 1},
        {0, 1, 0, -1, 0},             {800, -3, 1, 0, -1},        {800, -3, 79, -2, 1},
        {INT64_MAX, 0, 1, -1, 1},     {INT64_MAX, 1, 1, 0, 1},    {INT64_MAX, 1, 1, 1, 1},
        {INT64_MAX, -16, 1, 3, -1},   {INT64_MIN, 0, 0, 0, -1},   {INT64_MIN, -18, -1, 0, -1},
        {INT64_MIN, -19, -1, 0, 1},   {1000000000000000000, -17, 1, 1, 0},
        {1000000000000000000, -17, -10, 0, 1}, {-1000000000000000000, -17, -10, 0, 0},
        {1000000000000000001, -17, 1, 1, 1},  {999999999999999999, -17, 1, 1, -1},
    };
    for (size_t i = 0; i < sizeof raw / sizeof raw[0]; i++) {
        for (int da = 0; da < 2; da++) {
            quantity a = mk(raw[i].am, raw[i].ae, DSI, da), b = mk(raw[i].bm, raw[i].be, DSI, !da);
            assert_int_equal(quantity_cmp(&a, &b), raw[i].want);
            assert_int_equal(quantity_cmp(&b, &a), -raw[i].want);
        }
    }
}

/* ------------------------------------------------------ canonical strings */

static void test_string_of_values(void **state) {
    static const struct { int64_t mant; int32_t exp; int format; const char *want; } cases[] = {
        {1024 * 1024 * 1024, 0, BSI, "1Gi"},      {300 * 1024 * 1024, 0, BSI, "300Mi"},
        {6 * 1024, 0, BSI, "6Ki"},                {1001LL * 1024 * 1024 * 1024, 0, BSI, "1001Gi"},
        {1024LL * 1024 * 1024 * 1024, 0, BSI, "1Ti"}, {5, 0, BSI, "5"},
        {500, -3, BSI, "500m"},                   {1, 9, DSI, "1G"},
        {1000, 6, DSI, "1G"},                     {1000000, 3, DSI, "1G"},
        {1000000000, 0, DSI, "1G"},               {1, -3, DSI, "1m"},
        {80, -3, DSI, "80m"},                     {1080, -3, DSI, "1080m"},
        {108, -2, DSI, "1080m"},                  {10800, -4, DSI, "1080m"},
        {300, 6, DSI, "300M"},                    {1, 12, DSI, "1T"},
        {1, 18, DSI, "1E"},                       {1, 21, DSI, "1e21"},
        {5, 21, DSI, "5e21"},                     {1, 24, DSI, "1e24"},
        {1234567, 6, DSI, "1234567M"},            {1234567, -3, BSI, "1234567m"},
        {3, 3, DSI, "3k"},                        {1025, 0, BSI, "1025"},
        {0, 0, DSI, "0"},                         {0, 0, BSI, "0"},
        {1, 9, DEX, "1e9"},                       {1, -3, DEX, "1e-3"},
        {1, -9, DEX, "1e-9"},                     {80, -3, DEX, "80e-3"},
        {300, 6, DEX, "300e6"},                   {1, 12, DEX, "1e12"},
        {1, 3, DEX, "1e3"},                       {3, 3, DEX, "3e3"},
        {0, 0, DEX, "0"},                         {1, -9, DSI, "1n"},
        {80, -9, DSI, "80n"},                     {1080, -9, DSI, "1080n"},
        {108, -8, DSI, "1080n"},                  {10800, -10, DSI, "1080n"},
        {1, -6, DSI, "1u"},                       {80, -6, DSI, "80u"},
        {1080, -6, DSI, "1080u"},                 {0, -3, DSI, "0"},
        /* TestNewSet / TestMilliNewSet */
        {1000, 0, DSI, "1k"},                     {1234000, 0, DSI, "1234k"},
        {1024, 0, BSI, "1Ki"},                    {1000000, 0, DEX, "1e6"},
        {1048576, 0, BSI, "1Mi"},                 {1000, -3, DSI, "1"},
        {1234000, -3, DSI, "1234"},               {1024, -3, BSI, "1024m"},
        {1000000, -3, DEX, "1e3"},                {1048576, -3, BSI, "1048576m"},
        {1000, -9, DSI, "1u"},                    {1000, -6, DSI, "1m"},
        {1, 10, DSI, "10G"},
    };
    char buf[96], want[96];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int d = 0; d < 2; d++) {
            quantity q = mk(cases[i].mant, cases[i].exp, cases[i].format, d);
            canon(&q, buf, sizeof buf);
            if (strcmp(buf, cases[i].want) != 0)
                fail_msg("case %zu: '%s', want '%s'", i, buf, cases[i].want);
            if (cases[i].mant == 0) continue;
            q.mant = -q.mant;
            canon(&q, buf, sizeof buf);
            snprintf(want, sizeof want, "-%s", cases[i].want);
            assert_string_equal(buf, want);
        }
    }
    /* truncation: returns the full length, writes a NUL-terminated prefix */
    quantity q = parse_ok("1536Mi");
    char small[4];
    assert_int_equal(quantity_format_str(&q, small, sizeof small), 6);
    assert_string_equal(small, "153");
    assert_int_equal(quantity_format_str(&q, NULL, 0), 6);
}

/* ------------------------------------------------------------- arithmetic */

static void check_sum(const quantity *r, const char *want, int format) {
    char buf[96];
    canon(r, buf, sizeof buf);
    if (strcmp(buf, want) != 0) fail_msg("result '%s', want '%s'", buf, want);
    assert_int_equal(r->format, format);
}

static void test_add_sub(void **state) {
    quantity r;
    quantity ten = mk(10, 0, DSI, DEC), one_e1 = mk(1, 1, DSI, DEC);
    quantity one_bin = mk(1, 0, BSI, DEC), ten_bin = mk(10, 0, BSI, DEC), one = mk(1, 0, DSI, DEC);
    quantity zero = mk(0, 0, DSI, INT), fifty = mk(50, 0, DSI, DEC);
    /* TestAdd */
    assert_int_equal(quantity_add(&ten, &one_e1, &r), 0); check_sum(&r, "20", DSI);
    assert_int_equal(quantity_add(&ten, &one_bin, &r), 0); check_sum(&r, "11", DSI);
    assert_int_equal(quantity_add(&ten_bin, &one, &r), 0); check_sum(&r, "11", BSI);
    assert_int_equal(quantity_add(&zero, &fifty, &r), 0); check_sum(&r, "50", DSI);
    assert_int_equal(quantity_add(&fifty, &zero, &r), 0); check_sum(&r, "50", DSI);
    assert_int_equal(quantity_add(&zero, &zero, &r), 0); check_sum(&r, "0", DSI);
    /* TestSub */
    assert_int_equal(quantity_sub(&ten, &one_e1, &r), 0); check_sum(&r, "0", DSI);
    assert_int_equal(quantity_sub(&ten, &one_bin, &r), 0); check_sum(&r, "9", DSI);
    assert_int_equal(quantity_sub(&ten_bin, &one, &r), 0); check_sum(&r, "9", BSI);
    assert_int_equal(quantity_sub(&zero, &fifty, &r), 0); check_sum(&r, "-50", DSI);
    assert_int_equal(quantity_sub(&fifty, &zero, &r), 0); check_sum(&r, "50", DSI);

    /* TestQuantityAddZeroPreservesSuffix / SubZero */
    static const char *const keep[] = {"100m", "1Gi"};
    for (int i = 0; i < 2; i++) {
        quantity v = parse_ok(keep[i]), z = parse_ok("0");
        char want[16];
        assert_int_equal(quantity_add(&v, &z, &r), 0); check_sum(&r, keep[i], v.format);
        assert_int_equal(quantity_add(&z, &v, &r), 0); check_sum(&r, keep[i], v.format);
        assert_int_equal(quantity_sub(&v, &z, &r), 0); check_sum(&r, keep[i], v.format);
        snprintf(want, sizeof want, "-%s", keep[i]);
        assert_int_equal(quantity_sub(&z, &v, &r), 0); check_sum(&r, want, v.format);
    }

    /* the int64 fast path stays int64 while exact, then falls back to inf.Dec */
    quantity a = parse_ok("1"), b = parse_ok("500m");
    assert_int_equal(quantity_add(&a, &b, &r), 0);
    check_sum(&r, "1500m", DSI);
    assert_int_equal(r.is_dec, 0);
    quantity max = quantity_from_int64(INT64_MAX, DSI), o = quantity_from_int64(1, DSI);
    assert_int_equal(quantity_add(&max, &o, &r), 0);
    check_sum(&r, "9223372036854775808", DSI);
    assert_int_equal(r.is_dec, 1);
    int64_t iv;
    assert_false(quantity_as_int64(&r, &iv));

    /* TestNegAndSubAtMostNegative */
    quantity mn = quantity_from_int64(INT64_MIN, DSI), z = quantity_from_int64(0, DSI);
    assert_int_equal(quantity_sub(&z, &mn, &r), 0);
    check_sum(&r, "9223372036854775808", DSI);
    assert_false(quantity_as_int64(&r, &iv));
    assert_int_equal(quantity_sign(&r), 1);
    assert_int_equal(quantity_sub(&o, &mn, &r), 0);
    check_sum(&r, "9223372036854775809", DSI);
    assert_false(quantity_as_int64(&r, &iv));
    quantity mn1 = quantity_from_int64(INT64_MIN + 1, DSI);
    assert_int_equal(quantity_sub(&z, &mn1, &r), 0);
    assert_true(quantity_as_int64(&r, &iv));
    assert_int_equal(iv, INT64_MAX);
    quantity mnm = mk(INT64_MIN, -3, DSI, INT), om = mk(1, -3, DSI, INT);
    assert_int_equal(quantity_sub(&om, &mnm, &r), 0);
    check_sum(&r, "9223372036854775809m", DSI);
    assert_int_equal(quantity_sub(&z, &mnm, &r), 0);
    check_sum(&r, "9223372036854775808m", DSI);
    quantity ten_i = mk(1, 1, DSI, INT);
    assert_int_equal(quantity_sub(&ten_i, &mn, &r), 0);
    check_sum(&r, "9223372036854775818", DSI);
    /* TestZeroSubMostNegativeInheritsFormat: 2^63 in BinarySI is 8Ei */
    quantity mnb = quantity_from_int64(INT64_MIN, BSI);
    assert_int_equal(quantity_sub(&z, &mnb, &r), 0);
    check_sum(&r, "8Ei", BSI);

    /* add/sub round trip across scales (TestAddSubRoundTripAcrossScales) */
    quantity acc = quantity_from_int64(0, DSI);
    uint64_t x = 88172645463325252ULL;
    int64_t vals[100];
    for (int i = 0; i < 100; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        vals[i] = (int64_t)(x >> 24);   /* 40 bits: the sum stays within 38 digits */
        quantity t = mk(vals[i], (int32_t)(vals[i] % 20 - 10), DSI, INT);
        assert_int_equal(quantity_add(&acc, &t, &acc), 0);
    }
    for (int i = 0; i < 100; i++) {
        quantity t = mk(vals[i], (int32_t)(vals[i] % 20 - 10), DSI, INT);
        assert_int_equal(quantity_sub(&acc, &t, &acc), 0);
    }
    assert_int_equal(quantity_sign(&acc), 0);

    /* a sum that needs more than 38 digits is refused */
    quantity big = parse_ok("1e30"), tiny = parse_ok("1n");
    assert_int_equal(quantity_add(&big, &tiny, &r), -1);
}

/* ------------------------------------------------------------- accessors */

static void test_as_int64(void **state) {
    static const struct { const char *in; bool ok; int64_t v; } cases[] = {
        {"1.5Gi", false, 0},  {"1000m", false, 0},   {"1000000000000000000", false, 0},
        {"1E", true, 1000000000000000000LL}, {"1Ki", true, 1024}, {"0m", false, 0},
        {"0", true, 0},       {"1Pi", false, 0},     {"10Ti", true, 10995116277760LL},
        {"100Ti", false, 0},  {"12E", false, 0},     {"9E", true, 9000000000000000000LL},
        {"-5k", true, -5000}, {"1e3", true, 1000},   {"1e-3", false, 0},
        {"9223372036854775807", false, 0},           {"922337203685477580", true, 922337203685477580LL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        quantity q = parse_ok(cases[i].in);
        int64_t v = -42;
        bool ok = quantity_as_int64(&q, &v);
        if (ok != cases[i].ok) fail_msg("%s: as_int64 ok=%d", cases[i].in, ok);
        if (ok) assert_int_equal(v, cases[i].v);
    }
}

static void test_approx_float(void **state) {
    static const struct { const char *in; double want; } cases[] = {
        {"2Ki", 2048},  {"1.1Ki", 1126.4e+0}, {"1Mi", 1.048576e+06}, {"2Gi", 2.147483648e+09},
        {"0", 0},       {"1", 1},             {"12e500", INFINITY},  {"-12e500", -INFINITY},
        {"1e-400", 1e-9},  {"9Ei", 9223372036854775807.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        quantity q = parse_ok(cases[i].in);
        double got = quantity_approx_float(&q);
        if (got != cases[i].want) fail_msg("%s: %.17g, want %.17g", cases[i].in, got, cases[i].want);
    }
    /* mantissa * math.Pow10(exponent), as TestQuantityAsApproximateFloat64 */
    const int64_t m = 7 * 1024 * 1024;
    quantity q = mk(m, -1, DSI, INT);
    assert_true(quantity_approx_float(&q) == (double)m * 0.1);
    q = mk(m, -8, DEX, DEC);
    assert_true(quantity_approx_float(&q) == (double)m / 100000000.0);
    q = mk(m, 8, BSI, DEC);
    assert_true(quantity_approx_float(&q) == (double)m * 100000000.0);
    q = mk(12, 18, DSI, DEC);
    assert_true(quantity_approx_float(&q) == 1.2e19);
}

static void test_scaled_values(void **state) {
    static const struct { const char *in; int64_t milli, value; } cases[] = {
        {"1", 1000, 1},        {"1.5", 1500, 2},       {"100m", 100, 1},
        {"1n", 1, 1},          {"-1.5", -1500, -2},    {"-1n", -1, -1},
        {"0", 0, 0},           {"2Ki", 2048000, 2048}, {"0.0000000001", 1, 1},
        {"9Ei", INT64_MAX, INT64_MAX},                 {"1e30", INT64_MAX, INT64_MAX},
        {"-1e30", INT64_MIN, INT64_MIN},               {"1u", 1, 1},
        {"1e-1000", 1, 1},     {"1500u", 2, 1},        {"1.0001k", 1000100, 1001},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        quantity q = parse_ok(cases[i].in);
        if (quantity_milli_value(&q) != cases[i].milli || quantity_value(&q) != cases[i].value)
            fail_msg("%s: milli %lld value %lld", cases[i].in, (long long)quantity_milli_value(&q),
                     (long long)quantity_value(&q));
    }
    /* TestScaledValue: NewScaledQuantity(1, from) */
    static const struct { int32_t from; int64_t milli, value; } sv[] = {
        {-9, 1, 1}, {-6, 1, 1}, {-3, 1, 1}, {0, 1000, 1}, {2, 100000, 100},
    };
    for (size_t i = 0; i < sizeof sv / sizeof sv[0]; i++) {
        quantity q = mk(1, sv[i].from, DSI, INT);
        assert_int_equal(quantity_milli_value(&q), sv[i].milli);
        assert_int_equal(quantity_value(&q), sv[i].value);
    }
}

static void test_sign_and_from_int(void **state) {
    quantity q = quantity_from_int64(-7, BSI);
    assert_int_equal(quantity_sign(&q), -1);
    assert_int_equal(q.is_dec, 0);
    q = quantity_from_int64(0, DEX);
    assert_int_equal(quantity_sign(&q), 0);
    q = parse_ok("3Ei");
    assert_int_equal(quantity_sign(&q), 1);
    q = parse_ok("-0.0000000001");
    assert_int_equal(quantity_sign(&q), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_table),      cmocka_unit_test(test_invalid),
        cmocka_unit_test(test_cmp),              cmocka_unit_test(test_string_of_values),
        cmocka_unit_test(test_add_sub),          cmocka_unit_test(test_as_int64),
        cmocka_unit_test(test_approx_float),     cmocka_unit_test(test_scaled_values),
        cmocka_unit_test(test_sign_and_from_int),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
