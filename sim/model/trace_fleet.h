/*
 * trace_fleet.h -- `cluster.fleet: NAME`: the cluster a public trace ran on,
 * as published, shipped as node pools in data/traces/fleets/NAME.yaml (each
 * file cites its source and licence; docs/TRACES.md "Fleets"). A value that
 * is not a bare name (it has '/' or '.') is a fleet file of one's own,
 * relative to the scenario. The file is `{source: TEXT, nodePools: [...]}`,
 * its pools read as the scenario's `nodePools:` would be.
 */
#ifndef DRASIM_MODEL_TRACE_FLEET_H
#define DRASIM_MODEL_TRACE_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "model/yaml_tree.h"
#include "util/arena.h"
#include "util/strbuf.h"

#define TRACE_FLEETS_SHIPPED \
    "acme-kalos, acme-seren, alibaba-spot-v2026, helios-earth, helios-venus, pai-v2020, philly"

/* The fleet's `nodePools:` list, copied into a (positions name the fleet
 * file), or NULL with err set (FILE:LINE:COL of `at` or of the fleet file). */
const ynode *trace_fleet_pools(const ynode *at, arena *a, strbuf *err);

/* Replace the scenario tree's `cluster.fleet: NAME` by the fleet's
 * `nodePools:` (copied into a), so that `--set cluster.nodePools.POOL.count=N`
 * and `plan --vary POOL=...` reach a fleet's pools as they reach a scenario's
 * own. A cluster with nodePools or inventory too is left for
 * cluster_spec_parse to refuse. 0, or -1 with err. */
int trace_fleet_inline(ynode *root, arena *a, strbuf *err);
/* yfile_load of a scenario file, then trace_fleet_inline on its one document
 * (the fleet's pools in the file's arena). 0, or -1 with err (f freed). */
int scenario_file_load(const char *path, yfile *f, strbuf *err);
/* With --set overrides to apply after loading: the fleet is inlined before
 * them (so they reach its pools) unless one of them sets cluster.fleet
 * itself; the caller calls trace_fleet_inline again after the overrides. */
int scenario_file_load_sets(const char *path, const char *const *sets, size_t nsets, yfile *f, strbuf *err);
/* True when one of the overrides sets `cluster.fleet`. */
bool trace_fleet_set_names_fleet(const char *const *sets, size_t n);

#endif
