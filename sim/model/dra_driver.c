/*
 * dra_driver.c -- per-release facts of the NVIDIA DRA driver (see
 * dra_driver.h). Sources, all in NVIDIA/k8s-dra-driver-gpu (tags v25.3.2,
 * v25.8.1, v25.12.0, v0.4.0; the project moved to
 * kubernetes-sigs/dra-driver-nvidia-gpu and restarted at v0.x):
 *  - cmd/gpu-kubelet-plugin/deviceinfo.go: GpuInfo/MigDeviceInfo GetDevice
 *    (attributes) and MigDeviceInfo.CanonicalName (MIG names);
 *  - pkg/featuregates/featuregates.go: DynamicMIG exists from v25.12.0;
 *  - vendor/k8s.io/dynamic-resource-allocation/resourceslice/
 *    resourceslicecontroller.go: v0.34 (vendored by v25.x) creates slices with
 *    generateName "<node>-<driver>-"; v0.36 (vendored by v0.4.0) with
 *    "<index as %0*x, at least 5 digits>-<driver>-<node>-" (encodeIndex,
 *    getIndexLength, resourceSliceIndexMinLength = 5);
 *  - the API server completes a generateName as k8s.io/apiserver
 *    pkg/storage/names/generate.go does: the base cut to 58 characters, then 5
 *    characters of k8s.io/apimachinery/pkg/util/rand's alphabet;
 *  - deployments/helm/.../templates/deviceclass-*.yaml of each tag.
 */
#include <stdio.h>
#include <string.h>

#include "model/dra_driver.h"
#include "util/intern.h"

static const char *const names[] = {"v25.3", "v25.8", "v25.12", "v0.4"};

int dra_driver_parse(const char *s, dra_driver_version *out) {
    if (*s == 'v') s++;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        size_t n = strlen(names[i] + 1);
        /* "25.12" or "25.12.<patch>" */
        if (!strncmp(s, names[i] + 1, n) && (s[n] == 0 || (s[n] == '.' && s[n + 1] >= '0' && s[n + 1] <= '9'))) {
            *out = (dra_driver_version)i;
            return 0;
        }
    }
    return -1;
}

const char *dra_driver_name(dra_driver_version v) { return names[v]; }

const char *dra_driver_names(void) { return "v25.3, v25.8, v25.12, v0.4"; }

bool dra_driver_has_dynamic_mig(dra_driver_version v) { return v >= DRA_DRIVER_V25_12; }
bool dra_driver_has_index_attrs(dra_driver_version v) { return v == DRA_DRIVER_V25_3; }
bool dra_driver_std_pci_bus_id(dra_driver_version v) { return v >= DRA_DRIVER_V25_12; }
bool dra_driver_has_addressing_mode(dra_driver_version v) { return v >= DRA_DRIVER_V25_12; }
bool dra_driver_profile_in_mig_names(dra_driver_version v) { return v >= DRA_DRIVER_V25_12; }

/* k8s.io/apimachinery/pkg/util/rand: alphanums without vowels and confusables. */
static const char suffix_chars[] = "bcdfghjklmnpqrstvwxz2456789";

void dra_slice_name(char *buf, size_t size, dra_driver_version v, const char *node, const char *driver, size_t index,
                    size_t n, rng *r) {
    char base[320];
    if (v >= DRA_DRIVER_V0_4) {
        int width = 1;
        for (size_t x = n ? n - 1 : 0; x >= 16; x /= 16) width++;
        if (width < 5) width = 5;
        snprintf(base, sizeof base, "%0*zx-%s-%s-", width, index, driver, node);
    } else {
        snprintf(base, sizeof base, "%s-%s-", node, driver);
    }
    base[58] = 0;   /* maxGeneratedNameLength = 63 - 5 */
    char suffix[6];
    for (int i = 0; i < 5; i++) suffix[i] = suffix_chars[rng_below(r, sizeof suffix_chars - 1)];
    suffix[5] = 0;
    snprintf(buf, size, "%s%s", base, suffix);
}

static void device_class(arena *a, k8s_device_class *c, const char *name, const char *expr, const char *ext,
                         int64_t seq) {
    c->meta.name = intern(name);
    c->selectors = ARENA_NEW(a, const char *, 1);
    c->selectors[0] = intern(expr);
    c->nselectors = 1;
    c->extended_resource_name = ext ? intern(ext) : NULL;
    c->creation_seq = seq;
}

#define GPU_SEL(t) "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == '" t "'"
#define CD_SEL "device.driver == 'compute-domain.nvidia.com' && device.attributes['compute-domain.nvidia.com']"

k8s_device_class *dra_driver_classes(arena *a, dra_driver_version v, size_t *n) {
    k8s_device_class *c = ARENA_NEW(a, k8s_device_class, 5);
    size_t k = 0;
    bool v1 = v >= DRA_DRIVER_V25_12;   /* extendedResourceName and the vfio class: chart v25.12.0 on */
    device_class(a, &c[k], "gpu.nvidia.com", GPU_SEL("gpu"), v1 ? "nvidia.com/gpu" : NULL, (int64_t)k + 1), k++;
    device_class(a, &c[k], "mig.nvidia.com", GPU_SEL("mig"), NULL, (int64_t)k + 1), k++;
    if (v1) device_class(a, &c[k], "vfio.gpu.nvidia.com", GPU_SEL("vfio"), NULL, (int64_t)k + 1), k++;
    device_class(a, &c[k], "compute-domain-daemon.nvidia.com", CD_SEL ".type == 'daemon'", NULL, (int64_t)k + 1), k++;
    device_class(a, &c[k], "compute-domain-default-channel.nvidia.com",
                 CD_SEL ".type == 'channel' && device.attributes['compute-domain.nvidia.com'].id == 0", NULL,
                 (int64_t)k + 1), k++;
    *n = k;
    return c;
}
