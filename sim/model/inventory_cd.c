/*
 * inventory_cd.c -- the compute-domain.nvidia.com ResourceSlice of a node
 * running the NVIDIA driver's compute-domain kubelet plugin: one slice,
 * pool = node name, with the IMEX channel channel-0 and the daemon device
 * daemon-0, each with attributes `type` (string) and `id` (int). Source:
 * NVIDIA/k8s-dra-driver-gpu v0.4.0 cmd/compute-domain-kubelet-plugin/
 * driver.go (publishResources: channels other than 0 are not advertised) and
 * deviceinfo.go (GetDevice); the device order is the same Go map walk as
 * the GPU plugin's legacy slice, so it is drawn from the seed.
 */
#include <stdio.h>

#include "model/dra_driver.h"
#include "model/inventory_parts.h"
#include "util/intern.h"

#define CD_DRIVER "compute-domain.nvidia.com"

static void cd_device(arena *a, k8s_device *d, const char *name, const char *type) {
    d->name = intern(name);
    d->attrs = ARENA_NEW(a, k8s_attribute, 2);
    d->nattrs = 2;
    d->attrs[0] = (k8s_attribute){.domain = intern(CD_DRIVER), .id = intern("id"), .kind = ATTR_INT, .i = 0};
    d->attrs[1] = (k8s_attribute){.domain = intern(CD_DRIVER), .id = intern("type"), .kind = ATTR_STRING,
                                  .s = intern(type)};
}

void dra_compute_domain_slice(arena *a, const char *node, dra_driver_version v, uint64_t seed, slice_vec *out) {
    rng base, r;
    rng_seed(&base, seed);
    rng_fork(&base, rng_name_tag(node) ^ 0xcd, &r);
    k8s_resource_slice s = {0};
    char buf[80];
    dra_slice_name(buf, sizeof buf, v, node, CD_DRIVER, 0, 1, &r);
    s.meta.name = intern(buf);
    s.driver = intern(CD_DRIVER);
    s.pool = node;
    s.node_name = node;
    s.generation = 1;
    s.slice_count = 1;
    s.devices = ARENA_NEW(a, k8s_device, 2);
    s.ndevices = 2;
    bool channel_first = rng_below(&r, 2) == 0;
    cd_device(a, &s.devices[channel_first ? 0 : 1], "channel-0", "channel");
    cd_device(a, &s.devices[channel_first ? 1 : 0], "daemon-0", "daemon");
    VEC_PUSH(*out, s);
}
