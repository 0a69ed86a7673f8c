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

#include "model/yaml_tree.h"
#include "util/arena.h"
#include "util/strbuf.h"

#define TRACE_FLEETS_SHIPPED \
    "acme-kalos, acme-seren, alibaba-spot-v2026, helios-earth, pai-v2020, philly"

/* The fleet's `nodePools:` list, copied into a (positions name the fleet
 * file), or NULL with err set (FILE:LINE:COL of `at` or of the fleet file). */
const ynode *trace_fleet_pools(const ynode *at, arena *a, strbuf *err);

#endif
