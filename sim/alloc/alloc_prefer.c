/*
 * alloc_prefer.c -- the drasim-only device filter (alloc.h).
 *
 * Upstream's allocator takes the first devices that fit, in device order;
 * kube-scheduler has no way to choose among them. drasim's placement
 * policies do: they narrow the candidates with this filter (checked after
 * the class and request selectors, cached per call like them), then the
 * unchanged search validates the choice (capacity, counters, constraints).
 * The filter is never set by `drasim allocate` or the conformance runner.
 */
#include "alloc/alloc_internal.h"

void allocator_set_device_filter(allocator *a, alloc_device_filter fn, void *ctx) {
    a->dev_filter = fn;
    a->dev_filter_ctx = ctx;
}
