/*
 * bench_alloc.c -- allocator benchmarks (issue 4):
 *   (a) one node, 8 H100 in dynamic-MIG mode ("split" layout: 1 counter slice
 *       with 8 counter sets + 8 device slices, 208 devices), 7 MIG devices
 *       allocated, allocate one 1g.10gb claim;
 *   (b) the same node (nothing allocated), one claim for 8 full GPUs with
 *       matchAttribute on resource.kubernetes.io/pcieRoot (all GPUs share one
 *       root); (b') the same with two roots (4+4 GPUs): no fit, full search;
 *   (c) 500 nodes x 10 devices (scheduler_perf shape), 5000 pods with one
 *       single-device claim each; per pod one Allocate on the next node round
 *       robin, then commit -> successful pod allocations per second; (c') the
 *       scheduler's Filter shape: Allocate on all 500 nodes for one pod.
 * Each figure is the median of 5 runs. Usage: bench_alloc [--quick]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc/alloc.h"
#include "model/k8s_decode.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "bench_util.h"

#define DRIVER "gpu.nvidia.com"

static double median5(double v[5]) {
    qsort(v, 5, sizeof *v, cmp_d);
    return v[2];
}

/* ---- (a)/(b) node ---------------------------------------------------------------- */

typedef struct mig_profile {
    const char *name, *tag;      /* 1g.10gb, 1g10gb */
    int gi, size, nstarts, step, ce, dec, jpg, ofa, sm;
    const char *mem;
} mig_profile;

static const mig_profile profiles[] = {
    {"1g.10gb", "1g10gb", 19, 1, 7, 1, 1, 1, 1, 0, 16, "9984Mi"},
    {"1g.10gb+me", "1g10gb-me", 20, 1, 7, 1, 1, 1, 1, 1, 16, "9984Mi"},
    {"1g.20gb", "1g20gb", 15, 2, 4, 2, 1, 1, 1, 0, 16, "19968Mi"},
    {"2g.20gb", "2g20gb", 14, 2, 3, 2, 2, 2, 2, 0, 32, "19968Mi"},
    {"3g.40gb", "3g40gb", 9, 4, 2, 4, 3, 3, 3, 0, 60, "40448Mi"},
    {"4g.40gb", "4g40gb", 5, 4, 1, 4, 4, 4, 4, 0, 64, "40448Mi"},
    {"7g.80gb", "7g80gb", 0, 8, 1, 8, 8, 7, 7, 1, 132, "81152Mi"},
};

static void counters(strbuf *b, const char *ind, int gpu, int ce, int dec, int jpg, int ofa, const char *mem, int sm,
                     int start, int size) {
    sb_printf(b, "%s- counterSet: gpu-%d-counter-set\n%s  counters:\n", ind, gpu, ind);
    sb_printf(b, "%s    copy-engines: {value: \"%d\"}\n%s    decoders: {value: \"%d\"}\n", ind, ce, ind, dec);
    sb_printf(b, "%s    encoders: {value: \"0\"}\n%s    jpeg-engines: {value: \"%d\"}\n", ind, ind, jpg);
    sb_printf(b, "%s    memory: {value: %s}\n%s    multiprocessors: {value: \"%d\"}\n", ind, mem, ind, sm);
    sb_printf(b, "%s    ofa-engines: {value: \"%d\"}\n", ind, ofa);
    for (int i = start; i < start + size; i++) sb_printf(b, "%s    memory-slice-%d: {value: \"1\"}\n", ind, i);
}

static void capacity(strbuf *b, int ce, int dec, int jpg, int ofa, const char *mem, int sm) {
    sb_printf(b, "    capacity:\n      copyEngines: {value: \"%d\"}\n      decoders: {value: \"%d\"}\n"
                 "      encoders: {value: \"0\"}\n      jpegEngines: {value: \"%d\"}\n      memory: {value: %s}\n"
                 "      multiprocessors: {value: \"%d\"}\n      ofaEngines: {value: \"%d\"}\n",
              ce, dec, jpg, mem, sm, ofa);
}

/* Node "h100" with 8 GPUs; roots = number of distinct pcieRoot values. */
static char *h100_node(int roots) {
    strbuf b = {0};
    sb_puts(&b, "apiVersion: v1\nkind: Node\nmetadata: {name: h100, labels: {kubernetes.io/hostname: h100}}\n");
    sb_puts(&b, "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: mig.nvidia.com}\n"
                "spec: {selectors: [{cel: {expression: 'device.driver == \"" DRIVER "\" && "
                "device.attributes[\"" DRIVER "\"].type == \"mig\"'}}]}\n");
    sb_puts(&b, "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.nvidia.com}\n"
                "spec: {selectors: [{cel: {expression: 'device.driver == \"" DRIVER "\" && "
                "device.attributes[\"" DRIVER "\"].type == \"gpu\"'}}]}\n");
    sb_puts(&b, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: h100-counters}\nspec:\n"
                "  driver: " DRIVER "\n  nodeName: h100\n  pool: {name: h100, generation: 1, resourceSliceCount: 9}\n"
                "  sharedCounters:\n");
    for (int g = 0; g < 8; g++) {
        strbuf tmp = {0};
        counters(&tmp, "  ", g, 8, 7, 7, 1, "81152Mi", 132, 0, 8);
        /* sharedCounters entries use `name`, not `counterSet` */
        const char *s = sb_str(&tmp);
        sb_printf(&b, "  - name:%s", strchr(s, ':') + 1);
        sb_free(&tmp);
    }
    for (int g = 0; g < 8; g++) {
        sb_printf(&b, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: h100-gpu-%d}\nspec:\n"
                      "  driver: " DRIVER "\n  nodeName: h100\n  pool: {name: h100, generation: 1, resourceSliceCount: 9}\n"
                      "  devices:\n", g);
        const char *attrs = "      productName: {string: NVIDIA H100 80GB HBM3}\n      architecture: {string: Hopper}\n"
                            "      cudaComputeCapability: {version: 9.0.0}\n      driverVersion: {version: 580.65.6}\n";
        sb_printf(&b, "  - name: gpu-%d\n    attributes:\n      type: {string: gpu}\n      uuid: {string: GPU-%08d}\n%s"
                      "      resource.kubernetes.io/pcieRoot: {string: pci0000:%02d}\n",
                  g, g, attrs, roots == 1 ? 0 : g / 4);
        capacity(&b, 8, 7, 7, 1, "81152Mi", 132);
        sb_puts(&b, "    consumesCounters:\n");
        counters(&b, "    ", g, 8, 7, 7, 1, "81152Mi", 132, 0, 8);
        for (size_t p = 0; p < sizeof profiles / sizeof *profiles; p++) {
            const mig_profile *m = &profiles[p];
            for (int s = 0; s < m->nstarts; s++) {
                int start = s * m->step;
                sb_printf(&b, "  - name: gpu-%d-mig-%s-%d-%d\n    attributes:\n      type: {string: mig}\n"
                              "      profile: {string: %s}\n      parentUUID: {string: GPU-%08d}\n%s",
                          g, m->tag, m->gi, start, m->name, g, attrs);
                capacity(&b, m->ce, m->dec, m->jpg, m->ofa, m->mem, m->sm);
                sb_puts(&b, "    consumesCounters:\n");
                counters(&b, "    ", g, m->ce, m->dec, m->jpg, m->ofa, m->mem, m->sm, start, m->size);
            }
        }
    }
    return b.s;
}

static const char *claim_mig =
    "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: mig}\n"
    "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: mig.nvidia.com, selectors: "
    "[{cel: {expression: 'device.attributes[\"" DRIVER "\"].profile == \"1g.10gb\"'}}]}}]}}\n";

static const char *claim_8gpu =
    "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: gpus}\n"
    "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu.nvidia.com, count: 8}}],\n"
    "  constraints: [{matchAttribute: resource.kubernetes.io/pcieRoot}]}}\n";

/* 7 x 1g.10gb on GPU 0, allocated already. */
static const char *preallocated_7mig(void) {
    static char buf[4096];
    int k = snprintf(buf, sizeof buf, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: old}\n"
                                      "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: mig.nvidia.com, count: 7}}]}}\n"
                                      "status: {allocation: {devices: {results: [");
    for (int s = 0; s < 7; s++)
        k += snprintf(buf + k, sizeof buf - (size_t)k, "%s{request: r, driver: " DRIVER ", pool: h100, device: gpu-0-mig-1g10gb-19-%d}",
                      s ? ", " : "", s);
    snprintf(buf + k, sizeof buf - (size_t)k, "]}}}\n");
    return buf;
}

/* Time `iters` Allocate calls for the single unallocated claim of src; returns us/call. */
static double bench_node(const char *src, int iters, alloc_status want, size_t want_results, uint64_t *steps_out) {
    k8s_objects o;
    strbuf err = {0};
    k8s_objects_init(&o);
    if (k8s_decode_mem(&o, "bench.yaml", src, strlen(src), &err)) {
        fprintf(stderr, "bench_alloc: %s\n", sb_str(&err));
        exit(2);
    }
    alloc_features f;
    alloc_features_for_version("1.36", &f, &err);
    alloc_state_builder sb = {0};
    k8s_resource_claim *to_allocate = NULL;
    for (size_t i = 0; i < o.claims.len; i++) {
        if (o.claims.data[i]->allocated) alloc_state_add_claim(&sb, o.claims.data[i], f.consumable_capacity);
        else to_allocate = o.claims.data[i];
    }
    allocator *A = allocator_new(&f, o.slices.data, o.slices.len, o.classes.data, o.classes.len, &sb.st, 1);
    const k8s_node *node = o.nodes.data[0];
    double t0 = 0;
    for (int i = -iters / 10 - 1; i < iters; i++) {   /* warm-up first */
        if (i == 0) t0 = now_s();
        arena ar = {0};
        k8s_allocation out;
        uint64_t steps;
        alloc_status st = allocator_allocate(A, node, &to_allocate, 1, &ar, &out, &steps, &err);
        if (st != want || (st == ALLOC_OK && out.nresults != want_results)) {
            fprintf(stderr, "bench_alloc: unexpected outcome %d (%s)\n", st, sb_str(&err));
            exit(2);
        }
        *steps_out = steps;
        arena_free(&ar);
    }
    double us = (now_s() - t0) * 1e6 / iters;
    allocator_free(A);
    alloc_state_builder_free(&sb);
    k8s_objects_free(&o);
    sb_free(&err);
    return us;
}

/* ---- (c) 500 nodes x 10 devices ------------------------------------------------------ */

#define C_NODES 500
#define C_DEVS 10

typedef struct cluster {
    k8s_objects o;
    k8s_resource_claim **pods;   /* one claim per pod */
    size_t npods;
} cluster;

static void build_cluster(cluster *c) {
    strbuf b = {0}, err = {0};
    sb_puts(&b, "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: test-class}\n"
                "spec: {selectors: [{cel: {expression: 'device.driver == \"test-driver.cdi.k8s.io\"'}}]}\n");
    for (int n = 0; n < C_NODES; n++) {
        sb_printf(&b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-%d}\n", n);
        sb_printf(&b, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-%d-slice}\nspec:\n"
                      "  driver: test-driver.cdi.k8s.io\n  nodeName: node-%d\n"
                      "  pool: {name: node-%d, generation: 1, resourceSliceCount: 1}\n  devices:\n", n, n, n);
        for (int d = 0; d < C_DEVS; d++) sb_printf(&b, "  - {name: dev-%d}\n", d);
    }
    c->npods = C_NODES * C_DEVS;
    for (size_t p = 0; p < c->npods; p++)
        sb_printf(&b, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: pod-%zu-claim}\n"
                      "spec: {devices: {requests: [{name: req-0, exactly: {deviceClassName: test-class}}]}}\n", p);
    k8s_objects_init(&c->o);
    if (k8s_decode_mem(&c->o, "cluster.yaml", b.s, b.len, &err)) {
        fprintf(stderr, "bench_alloc: %s\n", sb_str(&err));
        exit(2);
    }
    c->pods = c->o.claims.data;
    sb_free(&b);
    sb_free(&err);
}

/* Schedule every pod: Allocate on the next node round robin (moving on when a
 * node is full), commit. Returns successful pod allocations per second. */
static double bench_cluster(cluster *c, uint64_t *calls_out) {
    alloc_features f;
    strbuf err = {0};
    alloc_features_for_version("1.36", &f, &err);
    allocator *A = allocator_new(&f, c->o.slices.data, c->o.slices.len, c->o.classes.data, c->o.classes.len, NULL, 1);
    arena ar = {0};
    size_t ok = 0, next = 0;
    uint64_t calls = 0;
    double t0 = now_s();
    for (size_t p = 0; p < c->npods; p++) {
        for (size_t tries = 0; tries < C_NODES; tries++) {
            const k8s_node *node = c->o.nodes.data[next];
            next = (next + 1) % C_NODES;
            k8s_allocation out;
            uint64_t steps;
            calls++;
            alloc_status st = allocator_allocate(A, node, &c->pods[p], 1, &ar, &out, &steps, &err);
            if (st == ALLOC_OK) {
                allocator_commit(A, &out);
                ok++;
                break;
            }
            if (st != ALLOC_UNSATISFIABLE) {
                fprintf(stderr, "bench_alloc: %s\n", sb_str(&err));
                exit(2);
            }
        }
    }
    double dt = now_s() - t0;
    if (ok != c->npods) {
        fprintf(stderr, "bench_alloc: only %zu of %zu pods placed\n", ok, c->npods);
        exit(2);
    }
    arena_free(&ar);
    allocator_free(A);
    sb_free(&err);
    *calls_out = calls;
    return (double)ok / dt;
}

/* Filter shape: one pod's claim tried on every node of an empty cluster. */
static double bench_filter_all(cluster *c) {
    alloc_features f;
    strbuf err = {0};
    alloc_features_for_version("1.36", &f, &err);
    allocator *A = allocator_new(&f, c->o.slices.data, c->o.slices.len, c->o.classes.data, c->o.classes.len, NULL, 1);
    double t0 = now_s();
    for (int n = 0; n < C_NODES; n++) {
        arena ar = {0};
        k8s_allocation out;
        uint64_t steps;
        if (allocator_allocate(A, c->o.nodes.data[n], &c->pods[0], 1, &ar, &out, &steps, &err) != ALLOC_OK) exit(2);
        arena_free(&ar);
    }
    double us = (now_s() - t0) * 1e6;
    allocator_free(A);
    sb_free(&err);
    return us;
}

int main(int argc, char **argv) {
    bool quick = false;
    const char *only = NULL;   /* --only a|b|b'|c: one scenario (for profiling) */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = true;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    }
#define RUN(x) (!only || !strcmp(only, x))
    int iters = quick ? 200 : 5000;
    double v[5];
    uint64_t steps = 0;

    char *one_root = h100_node(1), *two_roots = h100_node(2);
    strbuf src = {0};
    sb_printf(&src, "%s%s%s", one_root, preallocated_7mig(), claim_mig);
    for (int r = 0; r < 5 && RUN("a"); r++) v[r] = bench_node(src.s, iters, ALLOC_OK, 1, &steps);
    if (RUN("a")) printf("(a) H100x8 dynamic MIG, 7 MIG allocated, one 1g.10gb claim: %.2f us/allocation (%llu steps)  [target <= 5]\n",
           median5(v), (unsigned long long)steps);
    sb_clear(&src);
    sb_printf(&src, "%s%s", one_root, claim_8gpu);
    for (int r = 0; r < 5 && RUN("b"); r++) v[r] = bench_node(src.s, iters, ALLOC_OK, 8, &steps);
    if (RUN("b")) printf("(b) H100x8, 8 full GPUs, matchAttribute pcieRoot: %.2f us/allocation (%llu steps)  [target <= 50]\n",
           median5(v), (unsigned long long)steps);
    sb_clear(&src);
    sb_printf(&src, "%s%s", two_roots, claim_8gpu);
    for (int r = 0; r < 5 && RUN("b'"); r++) v[r] = bench_node(src.s, iters / 10 + 1, ALLOC_UNSATISFIABLE, 0, &steps);
    if (RUN("b'")) printf("(b') same, GPUs on two PCIe roots (no fit, exhaustive search): %.2f us/attempt (%llu steps)\n", median5(v),
           (unsigned long long)steps);
    sb_free(&src);
    free(one_root);
    free(two_roots);

    if (!RUN("c")) return 0;
    cluster c;
    build_cluster(&c);
    uint64_t calls = 0;
    for (int r = 0; r < 5; r++) v[r] = bench_cluster(&c, &calls);
    printf("(c) 500 nodes x 10 devices, 5000 single-device pods: %.0f pod allocations/s (%llu Allocate calls)  "
           "[target >= 100000]\n", median5(v), (unsigned long long)calls);
    for (int r = 0; r < 5; r++) v[r] = bench_filter_all(&c);
    printf("(c') one pod filtered on all 500 nodes: %.1f us (%.2f us per node)\n", median5(v), median5(v) / C_NODES);
    k8s_objects_free(&c.o);
    return 0;
}
