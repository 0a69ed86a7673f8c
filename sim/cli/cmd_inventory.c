/* cmd_inventory.c -- `drasim inventory SCENARIO [-o FILE]`: write the
 * scenario's cluster as Kubernetes objects (Nodes, DeviceClasses,
 * ResourceSlices) in one YAML stream. */
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "model/cluster.h"
#include "util/intern.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: drasim inventory SCENARIO [-o FILE] [--catalog FILE]\n\n"
            "Build the cluster described by SCENARIO's `cluster:` section and write it as\n"
            "Kubernetes YAML: Nodes (with device-plugin resources and GPU Feature Discovery\n"
            "labels), the DeviceClasses gpu.nvidia.com and mig.nvidia.com, and the NVIDIA\n"
            "DRA driver's ResourceSlices. Device-plugin resources follow\n"
            "`scheduling.devicePlugin` (and appear when it is given or scheduling.mode is\n"
            "device-plugin).\n\n"
            "  -o FILE         write to FILE (atomically) instead of standard output\n"
            "  --catalog FILE  GPU catalog to use (default: data/gpu-catalog.yaml)\n\n"
            "exit codes: 0 success, 2 usage or I/O error, 3 invalid scenario or catalog\n");
}

/* Write data to path through a temporary file + rename: never a half-written file. */
static int write_atomic(const char *path, const char *data, size_t len) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "drasim inventory: cannot write %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    int bad = fwrite(data, 1, len, f) != len;
    bad |= fflush(f) != 0;
    bad |= fsync(fileno(f)) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        fprintf(stderr, "drasim inventory: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

/* Scenario -> inventory YAML in out. Returns an exit code. */
static int build(const char *scenario, const char *catalog, strbuf *out) {
    strbuf err = {0};
    yfile f;
    gpu_catalog cat;
    inventory inv;
    arena a = {0};
    cluster_spec spec;
    device_plugin_opts dp;
    int rc = EXIT_BAD_INPUT;
    if (yfile_load(scenario, &f, &err)) {
        fprintf(stderr, "drasim inventory: %s\n", sb_str(&err));
        sb_free(&err);
        return EXIT_BAD_INPUT;
    }
    if (catalog_load(catalog, &cat, &err)) {
        fprintf(stderr, "drasim inventory: %s\n", sb_str(&err));
        yfile_free(&f);
        sb_free(&err);
        return EXIT_BAD_INPUT;
    }
    const ynode *root = f.ndocs == 1 ? f.docs[0] : NULL, *cluster, *sched, *dpn = NULL;
    if (!root) {
        sb_printf(&err, "%s: expected exactly one YAML document, found %zu", scenario, f.ndocs);
        goto done;
    }
    if (y_expect(root, YN_MAP, "the scenario", &err) || ymap_need(root, "cluster", "the scenario", &cluster, &err))
        goto done;
    if ((sched = ymap_get(root, "scheduling"))) {
        if (y_expect(sched, YN_MAP, "scheduling", &err)) goto done;
        dpn = ymap_get(sched, "devicePlugin");
    }
    bool want_dp = dpn || y_scalar_eq(ymap_get(sched, "mode"), "device-plugin");
    if (device_plugin_opts_parse(dpn, &dp, &err) || cluster_spec_parse(cluster, &a, &spec, &err) ||
        inventory_build(&spec, &cat, want_dp ? &dp : NULL, &inv, &err))
        goto done;
    inventory_write_yaml(&inv, out);
    inventory_free(&inv);
    rc = EXIT_OK;
done:
    if (rc) fprintf(stderr, "drasim inventory: %s\n", sb_str(&err));
    arena_free(&a);
    catalog_free(&cat);
    yfile_free(&f);
    sb_free(&err);
    return rc;
}

int cmd_inventory(int argc, char **argv) {
    const char *scenario = NULL, *output = NULL, *catalog = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return EXIT_OK;
        } else if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc) {
            output = argv[++i];
        } else if (!strcmp(argv[i], "--catalog") && i + 1 < argc) {
            catalog = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "drasim inventory: unknown or incomplete option '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_ERROR;
        } else if (!scenario) {
            scenario = argv[i];
        } else {
            fprintf(stderr, "drasim inventory: unexpected argument '%s'\n", argv[i]);
            return EXIT_ERROR;
        }
    }
    if (!scenario) {
        usage(stderr);
        return EXIT_ERROR;
    }
#ifdef __GLIBC__
    /* The writer builds and drops one small YAML tree per object; keep freed
     * memory in the process instead of trimming the heap after every object
     * (page faults dominated the run time of large inventories). */
    mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
    strbuf out = {0};
    int rc = build(scenario, catalog, &out);
    if (rc == EXIT_OK) {
        if (output) {
            if (write_atomic(output, sb_str(&out), out.len)) rc = EXIT_ERROR;
        } else if (fwrite(sb_str(&out), 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
            fprintf(stderr, "drasim inventory: cannot write standard output\n");
            rc = EXIT_ERROR;
        }
    }
    sb_free(&out);
    intern_reset();
    return rc;
}
