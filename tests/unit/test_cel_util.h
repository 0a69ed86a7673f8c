/* test_cel_util.h -- helpers shared by the CEL unit tests (header-only). */
#ifndef DRASIM_TEST_CEL_UTIL_H
#define DRASIM_TEST_CEL_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cel/cel.h"
#include "util/intern.h"

/* Evaluate expr (no device unless dev) and print the value or "error: MSG". */
static inline const char *cel_t_eval(const char *expr, const k8s_device *dev, const char *driver) {
    static char buf[4096];
    strbuf out = {0}, err = {0};
    cel_options o = {.consumable_capacity = true, .device_env = dev != NULL};
    cel_program *p = cel_compile_any(expr, strlen(expr), &o, &err);
    if (!p) snprintf(buf, sizeof buf, "error: %s", sb_str(&err));
    else if (cel_eval_print(p, dev, driver, &out, &err) != 0) snprintf(buf, sizeof buf, "error: %s", sb_str(&err));
    else snprintf(buf, sizeof buf, "%s", sb_str(&out));
    cel_program_free(p);
    sb_free(&out);
    sb_free(&err);
    return buf;
}

/* Compile as a device selector and match: returns "true", "false",
 * "compile: MSG" or "match: MSG". */
static inline const char *cel_t_match_opts(const char *expr, const k8s_device *dev, const char *driver,
                                           const cel_options *o) {
    static char buf[4096];
    strbuf err = {0};
    cel_program *p = cel_compile(expr, strlen(expr), o, &err);
    if (!p) {
        snprintf(buf, sizeof buf, "compile: %s", sb_str(&err));
    } else {
        bool m = false;
        if (cel_match_device(p, dev, driver, &m, &err) != 0) snprintf(buf, sizeof buf, "match: %s", sb_str(&err));
        else snprintf(buf, sizeof buf, "%s", m ? "true" : "false");
    }
    cel_program_free(p);
    sb_free(&err);
    return buf;
}

static inline const char *cel_t_match(const char *expr, const k8s_device *dev, const char *driver) {
    cel_options o = {.consumable_capacity = true, .device_env = true};
    return cel_t_match_opts(expr, dev, driver, &o);
}

#define assert_contains(hay, needle) do {                                                  \
        const char *h_ = (hay), *n_ = (needle);                                            \
        if (!strstr(h_, n_)) fail_msg("'%s' does not contain '%s'", h_, n_);               \
    } while (0)

#endif
