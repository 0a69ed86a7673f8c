/*
 * overrides.h -- `--set key=value` edits of a scenario's YAML tree, applied
 * before the scenario is interpreted (so every error still names a place).
 *
 * KEY is a path of map keys separated by dots; a list item is chosen by
 * index (`cluster.nodePools[0].count`) or by its `name` field
 * (`workload.podGroups.train-8gpu.count`); a key containing dots is written
 * in brackets (`gpu.devicePlugin[nvidia.com/gpu]`). Missing map keys are
 * created. VALUE is YAML (`8`, `MostAllocated`, `{min: 1m, max: 2h}`); its
 * nodes are named "--set KEY" in error messages.
 */
#ifndef DRASIM_REPORT_OVERRIDES_H
#define DRASIM_REPORT_OVERRIDES_H

#include "model/yaml_tree.h"
#include "util/strbuf.h"

typedef struct override_set {
    yfile *files;      /* one parsed VALUE per override (they own the new nodes) */
    size_t n;
} override_set;

/* Apply "KEY=VALUE" to the document root `root`. Returns 0, or -1 with err
 * ("--set KEY: ..."). The parsed value is kept in `keep` (free with
 * overrides_free after the scenario is no longer used). */
int override_apply(ynode *root, const char *assignment, override_set *keep, strbuf *err);
/* The same, with `origin` instead of "--set" naming the override in messages
 * (an expect file's entry: "expect.yaml:5:3: set"); origin may be NULL. */
int override_apply_from(ynode *root, const char *assignment, const char *origin, override_set *keep, strbuf *err);
void overrides_free(override_set *keep);

#endif
