/* fuzz_cluster_state.c -- the cluster.state reader (model/cluster_state.h,
 * workload/state_source.c): any bytes as a kubectl dump or a KAI snapshot.json
 * must decode or be refused with a message; a dump that decodes is run as the
 * starting state of a small fleet in DRA and in device-plugin mode, where it
 * must start or be refused with a message, never crash or leak. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"
#include "model/cluster.h"
#include "model/cluster_state.h"
#include "workload/attach.h"

static const char *const fleet =
    "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: fuzz}\nstop: {time: 6h}\n"
    "cluster:\n  draDriver: {deviceOrder: sorted}\n"
    "  nodePools: [{name: node, count: 2, cpu: \"16\", memory: 64Gi, gpu: {model: A100-80GB, count: 2}}]\n"
    "scheduling: {mode: MODE}\n"
    "workload: {podGroups: [{name: new, count: 2, arrival: {constant: {interval: 1m}}, duration: 30m, "
    "requests: {cpu: \"1\"}, gpu: {devicePlugin: {nvidia.com/gpu: 1}, dra: {claims: [{name: g, spec: {devices: "
    "{requests: [{name: g, exactly: {deviceClassName: gpu.nvidia.com}}]}}}]}}}]}\n";

static void run(const char *mode, const uint8_t *data, size_t size, const gpu_catalog *cat) {
    char text[2048];
    const char *at = strstr(fleet, "MODE");
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - fleet), fleet, mode, at + 4);
    yfile f;
    strbuf err = {0};
    if (yfile_load_mem("fleet.yaml", text, strlen(text), &f, &err)) abort();
    scenario sc;
    memset(&sc, 0, sizeof sc);
    if (scenario_from_tree(f.docs[0], &sc, &err)) abort();
    cluster_state *st = calloc(1, sizeof *st);
    sc.state = st;
    k8s_objects_init(&st->objs);
    st->has_remaining = st->has_duration = true;
    st->remaining = (duration_dist){.kind = DIST_UNIFORM, .a = 0, .b = 3600000};
    st->duration = (duration_dist){.kind = DIST_FIXED, .a = 1800000};
    if (k8s_decode_mem(&st->objs, "state.yaml", (const char *)data, size, &err)) {
        if (err.len == 0) abort();   /* a refusal must say why */
    } else if (st->objs.pods.len <= 32 && st->objs.claims.len <= 32) {
        bool dra = sc.sched.mode == SCHED_MODE_DRA;
        inventory inv;
        if (inventory_build_ex(&sc.cluster, cat, dra ? NULL : &sc.sched.dp, dra ? 0 : INV_NO_SLICES, &inv, &err)) abort();
        sim_run r;
        if (sim_init_inv(&r, &sc, &inv, &err) == 0) {
            workload_attach(&r);
            int ex = sim_execute(&r, NULL);
            if (ex == -2 && r.error.len == 0) abort();   /* a refused state names why */
            sim_free(&r);
        }
        inventory_free(&inv);
    }
    scenario_free(&sc);
    yfile_free(&f);
    sb_free(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static gpu_catalog cat;
    static bool loaded;
    if (!loaded) {
        strbuf err = {0};
        if (catalog_load(NULL, &cat, &err)) abort();
        sb_free(&err);
        loaded = true;
    }
    run("dra", data, size, &cat);
    run("device-plugin", data, size, &cat);
    return 0;
}
