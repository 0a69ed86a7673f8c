/*
 * cel.h -- the CEL engine for DRA device selectors (and `drasim cel eval`).
 *
 * Compile once into an immutable program; evaluate it many times. Evaluating a
 * selector against a device does not allocate on the common path. Every
 * compile or runtime error (including the cost limit) is reported as an error,
 * never as "no match": the allocator turns it into an allocation error.
 */
#ifndef DRASIM_CEL_CEL_H
#define DRASIM_CEL_CEL_H

#include <stdbool.h>
#include <stddef.h>

#include "model/k8s.h"
#include "util/strbuf.h"

#define CEL_MAX_EXPRESSION_BYTES (10 * 1024)
#define CEL_MAX_COST 1000000

typedef struct cel_program cel_program;

typedef struct cel_options {
    bool consumable_capacity;   /* DRAConsumableCapacity: device.allowMultipleAllocations declared */
    bool list_attributes;       /* DRAListTypeAttributes: list-valued attributes, includes() */
    bool device_env;            /* declare the `device` variable; result must be bool */
} cel_options;

/* Parse and check `expr` (len bytes). Returns NULL with err set
 * ("compilation failed: ..." with the column) on failure. */
cel_program *cel_compile(const char *expr, size_t len, const cel_options *opts, strbuf *err);
void cel_program_free(cel_program *p);

/* Evaluate a device selector: *matches receives the bool result. `driver` is
 * the slice's driver (device.driver, and the domain of bare attribute names,
 * already resolved in k8s_attribute.domain). Returns 0, or -1 with err set. */
int cel_match_device(const cel_program *p, const k8s_device *dev, const char *driver, bool *matches,
                     strbuf *err);

/* Evaluate a program compiled without device_env (or with a device) and print
 * the result in the canonical form of tests/cel-conformance/README.md.
 * Returns 0, or -1 with err set. `dev` may be NULL. */
int cel_eval_print(const cel_program *p, const k8s_device *dev, const char *driver, strbuf *out, strbuf *err);

/* Added: like cel_compile, but any result type is accepted even with
 * device_env (used by `drasim cel eval --device`). */
cel_program *cel_compile_any(const char *expr, size_t len, const cel_options *opts, strbuf *err);

/* Added: evaluate and report the runtime cost (cel-go-like units) in *cost.
 * Returns 0, or -1 with err set (the cost is still reported). */
int cel_eval_cost(const cel_program *p, const k8s_device *dev, const char *driver, unsigned long long *cost,
                  strbuf *err);

#endif
