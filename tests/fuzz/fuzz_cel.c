/*
 * fuzz_cel.c -- libFuzzer target for the CEL parser, checker and evaluator.
 * The first byte picks the environment (bit 0: with the `device` variable,
 * evaluated against a fixed dynamic-MIG device); the rest is the expression.
 * Every outcome (value, compile error, runtime error, cost limit) is fine;
 * crashes, sanitizer reports, leaks and timeouts are not.
 */
#include <stdint.h>
#include <string.h>

#include "cel/cel.h"
#include "util/intern.h"

static k8s_device dev;
static const char *driver;

static void init(void) {
    static k8s_attribute attrs[6];
    static k8s_capacity caps[2];
    const char *msg;
    driver = intern("gpu.nvidia.com");
    attrs[0] = (k8s_attribute){.domain = driver, .id = intern("type"), .kind = ATTR_STRING, .s = intern("mig")};
    attrs[1] = (k8s_attribute){.domain = driver, .id = intern("profile"), .kind = ATTR_STRING, .s = intern("1g.10gb")};
    attrs[2] = (k8s_attribute){.domain = driver, .id = intern("productName"), .kind = ATTR_STRING,
                               .s = intern("NVIDIA H100 80GB HBM3")};
    attrs[3] = (k8s_attribute){.domain = driver, .id = intern("driverVersion"), .kind = ATTR_VERSION, .s = intern("570.172.8")};
    attrs[3].v_ok = semver_parse("570.172.8", 9, false, &attrs[3].v, &msg) == 0;
    attrs[4] = (k8s_attribute){.domain = intern("resource.kubernetes.io"), .id = intern("numaNode"), .kind = ATTR_INT, .i = 1};
    attrs[5] = (k8s_attribute){.domain = driver, .id = intern("healthy"), .kind = ATTR_BOOL, .b = true};
    caps[0] = (k8s_capacity){.domain = driver, .id = intern("memory")};
    quantity_parse("9984Mi", 6, &caps[0].value, &msg);
    caps[1] = (k8s_capacity){.domain = driver, .id = intern("multiprocessors")};
    quantity_parse("16", 2, &caps[1].value, &msg);
    dev = (k8s_device){.name = intern("gpu-0-mig-1g10gb-19-0"), .attrs = attrs, .nattrs = 6, .caps = caps, .ncaps = 2};
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!driver) init();
    if (size < 1 || size > CEL_MAX_EXPRESSION_BYTES + 1) return 0;
    bool with_dev = data[0] & 1;
    const char *expr = (const char *)data + 1;
    size_t len = size - 1;
    strbuf out = {0}, err = {0};
    cel_options o = {.device_env = with_dev, .consumable_capacity = (data[0] & 2) != 0};
    cel_program *p = cel_compile_any(expr, len, &o, &err);
    if (p) {
        cel_eval_print(p, with_dev ? &dev : NULL, driver, &out, &err);
        cel_program_free(p);
    }
    if (with_dev) {
        cel_program *q = cel_compile(expr, len, &o, &err);
        if (q) {
            bool m;
            cel_match_device(q, &dev, driver, &m, &err);
            cel_program_free(q);
        }
    }
    sb_free(&out);
    sb_free(&err);
    return 0;
}
