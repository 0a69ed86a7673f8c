/*
 * test_cel_device.c -- the DRA `device` variable, with the cases of
 * kubernetes/dynamic-resource-allocation cel/compile_test.go quoted in
 * shared/spec/cel.md §2.5 (driver dra.example.com).
 */
#include "test_cel_util.h"

#define DRV "dra.example.com"

/* count heap allocations (glibc) to check the no-allocation promise; not with
 * AddressSanitizer, which owns malloc */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CEL_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CEL_TEST_ASAN 1
#endif
#ifndef CEL_TEST_ASAN
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
static unsigned long n_allocs;
void *malloc(size_t n) { n_allocs++; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { n_allocs++; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { n_allocs++; return __libc_realloc(p, n); }
#else
static unsigned long n_allocs;
#endif

static k8s_attribute attr_bool(const char *dom, const char *id, bool b) {
    k8s_attribute a = {.domain = intern(dom), .id = intern(id), .kind = ATTR_BOOL, .b = b};
    return a;
}
static k8s_attribute attr_int(const char *dom, const char *id, int64_t i) {
    k8s_attribute a = {.domain = intern(dom), .id = intern(id), .kind = ATTR_INT, .i = i};
    return a;
}
static k8s_attribute attr_str(const char *dom, const char *id, const char *s) {
    k8s_attribute a = {.domain = intern(dom), .id = intern(id), .kind = ATTR_STRING, .s = intern(s)};
    return a;
}
static k8s_attribute attr_version(const char *dom, const char *id, const char *v) {
    k8s_attribute a = {.domain = intern(dom), .id = intern(id), .kind = ATTR_VERSION, .s = intern(v)};
    const char *msg;
    a.v_ok = semver_parse(v, strlen(v), false, &a.v, &msg) == 0;
    return a;
}
static k8s_capacity cap(const char *dom, const char *id, const char *q) {
    k8s_capacity c = {.domain = intern(dom), .id = intern(id)};
    const char *msg;
    assert_int_equal(quantity_parse(q, strlen(q), &c.value, &msg), 0);
    return c;
}

static void test_basic_results(void **state) {
    (void)state;
    k8s_device d = {.name = intern("dev")};
    const char *drv = intern(DRV);
    assert_string_equal(cel_t_match("true", &d, drv), "true");
    assert_contains(cel_t_match("?!", &d, drv), "compile: ");
    assert_contains(cel_t_match("?!", &d, drv), "Syntax error");
    assert_string_equal(cel_t_match("1", &d, drv), "compile: must evaluate to bool or the unknown type, not int");
    assert_contains(cel_t_match("x", &d, drv), "undeclared reference to 'x'");
    /* an error is an error, never "no match" */
    assert_contains(cel_t_match("1/0 == 1", &d, drv), "match: division by zero");
}

static void test_unknown_domain(void **state) {
    (void)state;
    k8s_device d = {.name = intern("dev")};
    const char *drv = intern(DRV);
    assert_string_equal(cel_t_match("device.attributes[\"no-such-domain\"].noSuchAttr.isGreaterThan(quantity(\"0\"))",
                                    &d, drv),
                        "match: no such key: noSuchAttr");
    assert_string_equal(cel_t_match("\"no-such-domain\" in device.attributes", &d, drv), "false");
    assert_string_equal(cel_t_match("has(device.attributes[\"no-such-domain\"].x)", &d, drv), "false");
    assert_string_equal(cel_t_match("\"x\" in device.attributes[\"d\"]", &d, drv), "false");
    assert_string_equal(cel_t_match("size(device.attributes[\"d\"]) == 0", &d, drv), "true");
    assert_string_equal(cel_t_match("device.driver == \"\"", &d, intern("")), "true");
    assert_string_equal(cel_t_match("device.driver == \"dra.example.com\"", &d, drv), "true");
}

static void test_attributes(void **state) {
    (void)state;
    k8s_attribute attrs[] = {attr_bool(DRV, "name", true), attr_str(DRV, "services", "some_example_value"),
                             attr_int("other.example.com", "count", 7), attr_version(DRV, "version", "1.0.0"),
                             attr_str(DRV, "sym", "asymetric")};
    k8s_device d = {.name = intern("dev"), .attrs = attrs, .nattrs = 5};
    const char *drv = intern(DRV);
    assert_string_equal(cel_t_match("device.attributes[\"dra.example.com\"].name", &d, drv), "true");
    assert_string_equal(cel_t_match("device.attributes[\"dra.example.com\"][\"name\"]", &d, drv), "true");
    assert_string_equal(cel_t_match("cel.bind(dra, device.attributes[\"dra.example.com\"], dra.name)", &d, drv), "true");
    assert_string_equal(cel_t_match("device.attributes[\"dra.example.com\"].version.isGreaterThan(semver(\"v0.0.1\", true)) && isSemver(\"v1.0.0\", true)", &d, drv), "true");
    assert_string_equal(cel_t_match("device.attributes[\"dra.example.com\"].services.split(\"example\").size() >= 2", &d, drv), "true");
    assert_string_equal(cel_t_match("device.attributes[\"dra.example.com\"].sym.matches(\"[^a]?sym\")", &d, drv), "true");
    assert_string_equal(cel_t_match("device.attributes.exists_one(x, x == \"dra.example.com\")", &d, drv), "true");
    assert_string_equal(cel_t_match("device.attributes[\"dra.example.com\"].exists_one(x, x == \"services\")", &d, drv), "true");
    assert_string_equal(cel_t_match("device.attributes[\"other.example.com\"].count == 7", &d, drv), "true");
    assert_string_equal(cel_t_match("device.attributes[\"other.example.com\"].count > 6.5", &d, drv), "true");
    assert_string_equal(cel_t_match("device.attributes[\"dra.example.com\"].name.exists(x, x > 0)", &d, drv),
                        "match: got 'bool', expected iterable type");
    /* a version compared with a string: the Semver type answers with an error (upstream MaybeNoSuchOverloadErr) */
    assert_contains(cel_t_match("device.attributes[\"dra.example.com\"].version == \"1.0.0\"", &d, drv),
                    "match: no such overload");
    assert_string_equal(cel_t_match("\"1.0.0\" == device.attributes[\"dra.example.com\"].version", &d, drv), "false");
    assert_string_equal(cel_t_match("\"some_example_value\" == device.attributes[\"dra.example.com\"].services", &d, drv), "true");
    assert_string_equal(cel_t_match("7 != device.attributes[\"other.example.com\"].count", &d, drv), "false");
    assert_string_equal(cel_t_match("\"x\" == device.attributes[\"dra.example.com\"].nope", &d, drv), "match: no such key: nope");
    assert_string_equal(cel_t_match("device.attributes[\"dra.example.com\"].version == semver(\"1.0.0\")", &d, drv), "true");
    assert_string_equal(cel_t_match("type(device.attributes[\"dra.example.com\"].services) == string", &d, drv), "true");
    assert_string_equal(cel_t_match("device.attributes[\"dra.example.com\"].missing == 1", &d, drv),
                        "match: no such key: missing");
    /* the result may be the unknown (attribute) type, but must be a bool at runtime */
    assert_string_equal(cel_t_match("device.attributes[\"other.example.com\"].count", &d, drv),
                        "match: CEL result of type int could not be converted to bool");
    /* a dynamic domain key goes through the generic path */
    assert_string_equal(cel_t_match("device.attributes[\"dra.example.\" + \"com\"].name", &d, drv), "true");
    assert_string_equal(cel_t_match("[\"dra.example.com\"].all(k, device.attributes[k].name)", &d, drv), "true");
    assert_string_equal(cel_t_eval("device.attributes[\"other.example.com\"]", &d, drv), "{\"count\": 7}");
    assert_string_equal(cel_t_eval("size(device.attributes)", &d, drv), "2");
}

static void test_capacity(void **state) {
    (void)state;
    k8s_capacity caps[] = {cap(DRV, "name", "1Mi"), cap(DRV, "memory", "40Gi")};
    k8s_device d = {.name = intern("dev"), .caps = caps, .ncaps = 2};
    k8s_device empty = {.name = intern("e")};
    const char *drv = intern(DRV);
    assert_string_equal(cel_t_match("device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))", &d, drv), "true");
    const char *guarded = "!(\"name\" in device.capacity[\"dra.example.com\"]) || "
                          "device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))";
    assert_string_equal(cel_t_match(guarded, &empty, drv), "true");
    assert_string_equal(cel_t_match(guarded, &d, drv), "true");
    assert_string_equal(cel_t_match("device.capacity[\"dra.example.com\"].memory.compareTo(quantity(\"40960Mi\")) == 0", &d, drv), "true");
    assert_string_equal(cel_t_match("device.capacity[\"dra.example.com\"].memory == quantity(\"40Gi\")", &d, drv), "true");
    assert_string_equal(cel_t_match("device.capacity[\"dra.example.com\"].nope.isInteger()", &d, drv), "match: no such key: nope");
}

static void test_allow_multiple(void **state) {
    (void)state;
    k8s_device d = {.name = intern("dev")};
    const char *drv = intern(DRV);
    cel_options off = {.device_env = true};
    assert_contains(cel_t_match_opts("device.allowMultipleAllocations == false", &d, drv, &off),
                    "undefined field 'allowMultipleAllocations'");
    assert_string_equal(cel_t_match("device.allowMultipleAllocations == false", &d, drv), "true");
    d.has_allow_multiple = d.allow_multiple = true;
    assert_string_equal(cel_t_match("device.allowMultipleAllocations", &d, drv), "true");
    assert_contains(cel_t_match("device.nope == 1", &d, drv), "undefined field 'nope'");
    /* includes() only with DRAListTypeAttributes */
    cel_options lists = {.device_env = true, .list_attributes = true};
    assert_contains(cel_t_match("device.driver.includes(\"dra.example.com\")", &d, drv), "undeclared reference to 'includes'");
    assert_string_equal(cel_t_match_opts("device.driver.includes(\"dra.example.com\")", &d, drv, &lists), "true");
    assert_string_equal(cel_t_match_opts("[1, 2].includes(2)", &d, drv, &lists), "true");
}

static void test_bad_attributes(void **state) {
    (void)state;
    const char *drv = intern(DRV);
    k8s_attribute v[] = {attr_bool(DRV, "ok", true), attr_version(DRV, "version", "v1.0")};
    k8s_device d = {.name = intern("dev"), .attrs = v, .nattrs = 2};
    /* upstream converts every attribute before evaluating: one bad version fails all selectors */
    assert_contains(cel_t_match("device.attributes[\"dra.example.com\"].ok", &d, drv), "match: attribute version: parse semantic version: ");
    k8s_attribute l[] = {{.domain = drv, .id = intern("names"), .kind = ATTR_LIST_UNSUPPORTED}};
    k8s_device d2 = {.name = intern("dev"), .attrs = l, .nattrs = 1};
    assert_string_equal(cel_t_match("true", &d2, drv), "match: attribute names: unsupported attribute value");
}

static void test_interned_fast_path(void **state) {
    (void)state;
    /* the same program against many devices; strings compare by pointer */
    k8s_attribute a1[] = {attr_str("gpu.nvidia.com", "profile", "1g.10gb")};
    k8s_attribute a2[] = {attr_str("gpu.nvidia.com", "profile", "2g.20gb")};
    k8s_device d1 = {.name = intern("a"), .attrs = a1, .nattrs = 1}, d2 = {.name = intern("b"), .attrs = a2, .nattrs = 1};
    strbuf err = {0};
    cel_options o = {.device_env = true};
    const char *e = "device.attributes[\"gpu.nvidia.com\"].profile == \"1g.10gb\"";
    cel_program *p = cel_compile(e, strlen(e), &o, &err);
    assert_non_null(p);
    const char *drv = intern("gpu.nvidia.com");
    bool m;
    assert_int_equal(cel_match_device(p, &d1, drv, &m, &err), 0);   /* warm up */
    unsigned long before = n_allocs;
    int ok = 0;
    for (int i = 0; i < 1000; i++) {
        ok += cel_match_device(p, i % 2 ? &d2 : &d1, drv, &m, &err) == 0 && m == !(i % 2);
    }
    assert_int_equal(n_allocs - before, 0);   /* the simple path never touches the heap */
    assert_int_equal(ok, 1000);
    cel_program_free(p);
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic_results),   cmocka_unit_test(test_unknown_domain),
        cmocka_unit_test(test_attributes),      cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_allow_multiple),  cmocka_unit_test(test_bad_attributes),
        cmocka_unit_test(test_interned_fast_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
