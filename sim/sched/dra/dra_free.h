/* dra_free.h -- read-only queries of free DRA devices (dra_free.c). */
#ifndef DRASIM_SCHED_DRA_FREE_H
#define DRASIM_SCHED_DRA_FREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched/dra/dra.h"

/* Called for each device found: the device, its driver, pool and name. */
typedef void (*dra_free_fn)(void *ctx, const k8s_device *dev, const char *driver, const char *pool, const char *name);

/* Is `cls` the name of a DeviceClass of the run? */
bool dra_has_class(const dra_state *d, const char *cls);
/* The devices of DeviceClass `cls` matching CEL `selector` (NULL: any) that
 * one claim could be allocated on `node` now, at most `max`, each passed to
 * fn (may be NULL). Nothing is committed. Returns their number, or -1 with
 * err set when the allocator cannot handle the claim (an unknown class, a
 * selector that does not compile or fails at runtime). *steps (may be NULL)
 * grows by the work done: the allocator's search steps, one per allocator
 * call and one per device it offered the exclusion filter (the query
 * enumerates: k devices found on a node of m cost about k x m). */
int dra_free_devices(dra_state *d, const k8s_node *node, const char *cls, const char *selector, size_t max,
                     dra_free_fn fn, void *ctx, uint64_t *steps, strbuf *err);

#endif
