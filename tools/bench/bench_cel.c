/*
 * bench_cel.c -- CEL selector evaluation speed over 100,000 devices in the
 * NVIDIA DRA driver's dynamic-MIG H100 format (shared/spec/nvidia-inventory.md
 * §1.6: per GPU one `gpu` device plus 25 abstract MIG devices, with the
 * parent's attributes and the MIG capacities).
 *
 * Reports ns per evaluation (median of 5 runs) for a simple selector and a
 * compound one, and heap allocations per evaluation (counted by wrapping
 * malloc/calloc/realloc).
 *
 *   bench_cel [DEVICES]     default 100000
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cel/cel.h"
#include "util/intern.h"
#include "bench_util.h"

/* ---- allocation counting ------------------------------------------------------------ */

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
static unsigned long long n_allocs;
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BENCH_ASAN 1
#endif
#endif
#if !defined(__SANITIZE_ADDRESS__) && !defined(BENCH_ASAN)   /* AddressSanitizer owns malloc: no counting there */
void *malloc(size_t n) { n_allocs++; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { n_allocs++; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { n_allocs++; return __libc_realloc(p, n); }
#endif

/* ---- inventory ------------------------------------------------------------------------- */

#define DOM "gpu.nvidia.com"

static const struct { const char *profile; int count; const char *mem; const char *sm; } migs[] = {
    {"1g.10gb", 7, "9984Mi", "16"},   {"1g.10gb+me", 7, "9984Mi", "16"}, {"1g.20gb", 4, "19968Mi", "26"},
    {"2g.20gb", 3, "19968Mi", "32"},  {"3g.40gb", 2, "40448Mi", "60"},   {"4g.40gb", 1, "40448Mi", "64"},
    {"7g.80gb", 1, "81152Mi", "132"},
};

static k8s_attribute sattr(const char *dom, const char *id, const char *s) {
    return (k8s_attribute){.domain = intern(dom), .id = intern(id), .kind = ATTR_STRING, .s = intern(s)};
}
static k8s_attribute vattr(const char *id, const char *s) {
    k8s_attribute a = {.domain = intern(DOM), .id = intern(id), .kind = ATTR_VERSION, .s = intern(s)};
    const char *msg;
    a.v_ok = semver_parse(s, strlen(s), false, &a.v, &msg) == 0;
    return a;
}
static k8s_capacity qcap(const char *id, const char *v) {
    k8s_capacity c = {.domain = intern(DOM), .id = intern(id)};
    const char *msg;
    if (quantity_parse(v, strlen(v), &c.value, &msg) != 0) abort();
    return c;
}

/* Devices of one GPU with the same profile share their attribute array, and
 * devices with the same profile share their capacity array, as the inventory
 * builder stores them (equal arrays are stored once). */
static k8s_attribute *shared_attrs[16];
static const char *shared_attrs_key[16];
static int shared_attrs_gpu = -1;
static k8s_capacity *shared_caps[16];
static const char *shared_caps_key[16];

static void fill(k8s_device *d, int gpu, const char *profile, const char *mem, const char *sm, int idx) {
    char name[96], uuid[64], bus[32];
    const char *key = intern(profile ? profile : "gpu");
    if (gpu != shared_attrs_gpu) {
        memset(shared_attrs_key, 0, sizeof shared_attrs_key);
        shared_attrs_gpu = gpu;
    }
    int slot = 0;
    while (shared_attrs_key[slot] && shared_attrs_key[slot] != key) slot++;
    int cslot = 0;
    while (shared_caps_key[cslot] && shared_caps_key[cslot] != key) cslot++;
    snprintf(uuid, sizeof uuid, "GPU-%08x-1111-2222-3333-%012d", gpu * 2654435761u, gpu);
    snprintf(bus, sizeof bus, "0000:%02x:00.0", 0x18 + (gpu % 8) * 0x10);
    int na = 0;
    k8s_attribute *a = shared_attrs_key[slot] ? shared_attrs[slot] : __libc_calloc(16, sizeof *a);
    a[na++] = sattr(DOM, "type", profile ? "mig" : "gpu");
    if (profile) {
        a[na++] = sattr(DOM, "profile", profile);
        a[na++] = sattr(DOM, "parentUUID", uuid);
    } else {
        a[na++] = sattr(DOM, "uuid", uuid);
    }
    a[na++] = sattr(DOM, "productName", "NVIDIA H100 80GB HBM3");
    a[na++] = sattr(DOM, "brand", "Nvidia");
    a[na++] = sattr(DOM, "architecture", "Hopper");
    a[na++] = vattr("cudaComputeCapability", "9.0.0");
    a[na++] = vattr("cudaDriverVersion", "12.8.0");
    a[na++] = vattr("driverVersion", "570.172.8");
    a[na++] = sattr("resource.kubernetes.io", "pciBusID", bus);
    a[na++] = sattr("resource.kubernetes.io", "pcieRoot", "pci0000:10");
    a[na] = (k8s_attribute){.domain = intern("resource.kubernetes.io"), .id = intern("numaNode"), .kind = ATTR_INT, .i = gpu % 8 / 4};
    na++;
    k8s_capacity *c = shared_caps_key[cslot] ? shared_caps[cslot] : __libc_calloc(8, sizeof *c);
    int nc = 0;
    c[nc++] = qcap("copyEngines", profile ? "1" : "8");
    c[nc++] = qcap("decoders", profile ? "1" : "7");
    c[nc++] = qcap("encoders", "0");
    c[nc++] = qcap("jpegEngines", profile ? "1" : "7");
    c[nc++] = qcap("memory", mem);
    c[nc++] = qcap("multiprocessors", sm);
    c[nc++] = qcap("ofaEngines", "0");
    if (profile) {
        char pn[32];
        size_t o = 0;
        for (const char *p = profile; *p; p++)
            if (*p != '.') pn[o++] = *p == '+' ? '-' : *p;
        pn[o] = 0;
        snprintf(name, sizeof name, "gpu-%d-mig-%s-%d", gpu % 8, pn, idx);
    } else {
        snprintf(name, sizeof name, "gpu-%d", gpu % 8);
    }
    shared_attrs[slot] = a;
    shared_attrs_key[slot] = key;
    shared_caps[cslot] = c;
    shared_caps_key[cslot] = key;
    *d = (k8s_device){.name = intern(name), .attrs = a, .nattrs = (size_t)na, .caps = c, .ncaps = (size_t)nc};
}

static size_t build(k8s_device *devs, size_t n) {
    size_t k = 0;
    for (int gpu = 0; k < n; gpu++) {
        fill(&devs[k++], gpu, NULL, "81152Mi", "132", 0);
        for (size_t m = 0; m < sizeof migs / sizeof *migs && k < n; m++)
            for (int i = 0; i < migs[m].count && k < n; i++) fill(&devs[k++], gpu, migs[m].profile, migs[m].mem, migs[m].sm, i);
    }
    return k;
}

/* ---- timing ------------------------------------------------------------------------------- */

static double now_ns(clockid_t clk) {
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void bench(const char *label, const char *expr, const k8s_device *const *devs, size_t n) {
    strbuf err = {0};
    cel_options o = {.device_env = true, .consumable_capacity = true};
    cel_program *p = cel_compile(expr, strlen(expr), &o, &err);
    if (!p) {
        fprintf(stderr, "bench_cel: %s\n", sb_str(&err));
        exit(1);
    }
    const char *drv = intern(DOM);
    double runs[5], cpu[5];
    size_t matched = 0;
    unsigned long long allocs = 0;
    for (int r = 0; r < 6; r++) {   /* run 0 warms up */
        matched = 0;
        unsigned long long a0 = n_allocs;
        double t0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
        for (size_t i = 0; i < n; i++) {
            bool m;
            if (cel_match_device(p, devs[i], drv, &m, &err) != 0) {
                fprintf(stderr, "bench_cel: %s: %s\n", devs[i]->name, sb_str(&err));
                exit(1);
            }
            matched += m;
        }
        double t1 = now_ns(CLOCK_MONOTONIC), c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
        if (r) {
            runs[r - 1] = (t1 - t0) / (double)n;
            cpu[r - 1] = (c1 - c0) / (double)n;
            allocs += n_allocs - a0;
        }
    }
    qsort(runs, 5, sizeof *runs, cmp_d);
    qsort(cpu, 5, sizeof *cpu, cmp_d);
    printf("cel %-8s %8.1f ns/eval wall (median of 5; min %.1f, max %.1f), %.1f ns/eval thread CPU (median)  "
           "%.4f allocs/eval  %zu/%zu match\n", label, runs[2], runs[0], runs[4], cpu[2],
           (double)allocs / (5.0 * (double)n), matched, n);
    printf("    %s\n", expr);
    cel_program_free(p);
    sb_free(&err);
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 100000;
    k8s_device *devs = __libc_calloc(n, sizeof *devs);
    n = build(devs, n);
    /* The selectors run on the MIG devices, as after the DeviceClass selector
     * `device.attributes["gpu.nvidia.com"].type == "mig"`: a full-GPU device has no
     * `profile`, so the simple selector is an error there (as upstream). */
    const k8s_device **mig = __libc_calloc(n, sizeof *mig);
    size_t nm = 0;
    for (size_t i = 0; i < n; i++)
        if (devs[i].attrs[0].s == intern("mig")) mig[nm++] = &devs[i];
    printf("%zu devices, dynamic MIG H100 layout (26 devices per GPU); selectors run on the %zu MIG devices\n", n, nm);
    n = nm;
    const k8s_device *const *d = mig;
    bench("simple", "device.attributes[\"gpu.nvidia.com\"].profile == \"1g.10gb\"", d, n);
    bench("compound",
          "device.attributes[\"gpu.nvidia.com\"].productName.matches(\"^NVIDIA H100\") && "
          "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"10Gi\")) >= 0 && "
          "device.attributes[\"gpu.nvidia.com\"].driverVersion.isGreaterThan(semver(\"550.0.0\"))",
          d, n);
    return 0;
}
