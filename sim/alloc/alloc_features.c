/*
 * alloc_features.c -- feature sets: parsing --features lists and the defaults
 * of each supported Kubernetes release (allocator.md §1.0).
 */
#include <string.h>

#include "alloc/alloc.h"

typedef struct feature_name {
    const char *name;
    size_t off;
} feature_name;

static const feature_name names[] = {
    {"AdminAccess", offsetof(alloc_features, admin_access)},
    {"PrioritizedList", offsetof(alloc_features, prioritized_list)},
    {"PartitionableDevices", offsetof(alloc_features, partitionable_devices)},
    {"DeviceTaints", offsetof(alloc_features, device_taints)},
    {"ConsumableCapacity", offsetof(alloc_features, consumable_capacity)},
    {"DeviceBindingAndStatus", offsetof(alloc_features, binding_conditions)},
    {"ListTypeAttributes", offsetof(alloc_features, list_type_attributes)},
};

int alloc_features_parse(const char *list, alloc_features *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    if (!strcmp(list, "none") || !*list) return 0;
    const char *p = list;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        bool found = false;
        for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
            if (strlen(names[i].name) == n && !memcmp(names[i].name, p, n)) {
                *(bool *)((char *)out + names[i].off) = true;
                found = true;
            }
        }
        if (!found) {
            sb_clear(err);
            sb_printf(err, "unknown feature '%.*s' (known: ", (int)n, p);
            for (size_t i = 0; i < sizeof names / sizeof *names; i++)
                sb_printf(err, "%s%s", i ? ", " : "", names[i].name);
            sb_puts(err, "; or none)");
            return -1;
        }
        p += n;
        if (*p == ',') p++;
    }
    return 0;
}

int alloc_features_for_version(const char *version, alloc_features *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    if (!strcmp(version, "1.34") || !strcmp(version, "1.35")) {
        out->admin_access = true;
        out->prioritized_list = true;
        return 0;
    }
    if (!strcmp(version, "1.36")) {
        out->admin_access = true;
        out->prioritized_list = true;
        out->partitionable_devices = true;
        out->device_taints = true;
        out->consumable_capacity = true;
        out->binding_conditions = true;
        return 0;
    }
    sb_clear(err);
    sb_printf(err, "unsupported Kubernetes version '%s' (expected 1.34, 1.35 or 1.36)", version);
    return -1;
}

void alloc_features_format(const alloc_features *f, strbuf *out) {
    bool any = false;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        if (!*(const bool *)((const char *)f + names[i].off)) continue;
        sb_printf(out, "%s%s", any ? "," : "", names[i].name);
        any = true;
    }
    if (!any) sb_puts(out, "none");
}
