/*
 * bench_lua.c -- cost of Lua workload generators: the same workload (N pods of
 * 1/2/4/8 GPUs, Poisson arrivals, exponential run times, on 1,000 nodes x 8
 * GPUs) generated three ways, whole run timed (median of 5):
 *   pod groups      -- the scenario's podGroups (baseline);
 *   lua at=         -- the main chunk submits every pod with an arrival time;
 *   lua callbacks   -- one drasim.after callback per arrival (a timer chain).
 *
 *   bench_lua [PODS]      (DRASIM_DATADIR must point at the source tree or install dir)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/sim.h"
#include "workload/attach.h"
#include "model/cluster.h"
#include "util/intern.h"
#include "bench_util.h"

static const char HEAD[] =
    "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: bench}\nseed: 5\nstop: {time: %.0fs}\n"
    "cluster: {nodePools: [{name: g, count: 1000, cpu: \"192\", memory: 2Ti, gpu: {model: H100-80GB, count: 8}}]}\n"
    "scheduling: {mode: device-plugin}\n";

static const char LUA_AT[] =
    "local n, t = drasim.args.pods, 0\n"
    "local sizes = {1, 2, 4, 8}\n"
    "for i = 1, n do\n"
    "  t = t + drasim.exponential(drasim.args.gap)\n"
    "  drasim.submit{group = 'g', at = t, cpu = '4', duration = drasim.exponential(3600),\n"
    "                gpu = {devicePlugin = {['nvidia.com/gpu'] = sizes[drasim.random_int(1, 4)]}}}\n"
    "end\n";

static const char LUA_CB[] =
    "local left = drasim.args.pods\n"
    "local sizes = {1, 2, 4, 8}\n"
    "local function arrive()\n"
    "  drasim.submit{group = 'g', cpu = '4', duration = drasim.exponential(3600),\n"
    "                gpu = {devicePlugin = {['nvidia.com/gpu'] = sizes[drasim.random_int(1, 4)]}}}\n"
    "  left = left - 1\n"
    "  if left > 0 then drasim.after(drasim.exponential(drasim.args.gap), arrive) end\n"
    "end\n"
    "drasim.after(drasim.exponential(drasim.args.gap), arrive)\n";

static double run_once(const char *yaml, gpu_catalog *cat, size_t *npods) {
    scenario sc = {0};
    strbuf err = {0};
    inventory inv = {0};
    if (yfile_load_mem("/tmp/bench.yaml", yaml, strlen(yaml), &sc.file, &err)) goto fail;
    sc.has_file = true;
    if (scenario_from_tree(sc.file.docs[0], &sc, &err)) goto fail;
    if (inventory_build_ex(&sc.cluster, cat, &sc.sched.dp, INV_NO_SLICES, &inv, &err)) goto fail;
    sim_run run;
    double t0 = now_s();
    sim_init(&run, &sc, inv.nodes, inv.nnodes);
    if (workload_execute(&run, NULL)) {
        sb_puts(&err, sb_str(&run.error));
        goto fail;
    }
    double dt = now_s() - t0;
    *npods = run.pods.len;
    sim_free(&run);
    inventory_free(&inv);
    scenario_free(&sc);
    sb_free(&err);
    return dt;
fail:
    fprintf(stderr, "bench_lua: %s\n", sb_str(&err));
    exit(1);
}

int main(int argc, char **argv) {
    long pods = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
    double gap = 3600.0 * 8 / (1000 * 8 * 0.8) / 3.75 ;   /* ~80% GPU load: mean 3.75 GPUs x 1 h per pod */
    gpu_catalog cat = {0};
    strbuf err = {0};
    if (catalog_load(NULL, &cat, &err)) {
        fprintf(stderr, "bench_lua: %s\n", sb_str(&err));
        return 1;
    }
    const char *scripts[2] = {LUA_AT, LUA_CB};
    char paths[2][64];
    for (int i = 0; i < 2; i++) {
        snprintf(paths[i], sizeof paths[i], "/tmp/bench_lua_XXXXXX");
        int fd = mkstemp(paths[i]);
        if (fd < 0 || write(fd, scripts[i], strlen(scripts[i])) != (ssize_t)strlen(scripts[i])) return 1;
        close(fd);
    }
    static const char *const names[3] = {"pod groups", "lua at=", "lua callbacks"};
    for (int v = 0; v < 3; v++) {
        strbuf y = {0};
        sb_printf(&y, HEAD, (double)pods * gap * 1.1 + 36000);   /* the arrivals plus 10 h */
        if (v == 0) {
            sb_puts(&y, "workload:\n  podGroups:\n");
            for (int g = 1; g <= 8; g *= 2)
                sb_printf(&y, "  - {name: g%d, count: %ld, arrival: {poisson: {ratePerHour: %.6f}}, duration: "
                              "{exponential: {mean: 1h}}, requests: {cpu: \"4\"}, gpu: {devicePlugin: "
                              "{nvidia.com/gpu: %d}}}\n", g, pods / 4, 3600.0 / gap / 4, g);
        } else {
            sb_printf(&y, "workload:\n  lua: {script: %s, args: {pods: %ld, gap: %.6f}, instructionLimit: 1000000000}\n",
                      paths[v - 1], pods, gap);
        }
        double t[5];
        size_t n = 0;
        for (int i = 0; i < 5; i++) t[i] = run_once(sb_str(&y), &cat, &n);
        qsort(t, 5, sizeof *t, cmp_d);
        printf("%-14s %zu pods: %.3f s (median of 5), %.2f us/pod\n", names[v], n, t[2], t[2] / (double)n * 1e6);
        sb_free(&y);
    }
    for (int i = 0; i < 2; i++) unlink(paths[i]);
    catalog_free(&cat);
    sb_free(&err);
    intern_reset();
    return 0;
}
