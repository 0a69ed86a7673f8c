/* inventory_at.c -- `drasim inventory SCENARIO --at TIME` (cmd_inventory.c)
 * and `drasim state SCENARIO --at TIME` (cmd_state.c): run the scenario up to
 * simulated TIME and write its cluster as it stood then (workload/faults.h
 * faults_patch_inventory, docs/DYNAMICS.md), or its pods and claims. */
#include <stdio.h>

#include "cli/cli.h"
#include "engine/sim.h"
#include "model/cluster.h"
#include "report/overrides.h"
#include "workload/attach.h"
#include "workload/faults.h"
#include "model/trace_fleet.h"

/* What `inventory --at` writes: the cluster as the faults left it. */
static int write_inventory(sim_run *run, inventory *inv, arena *a, strbuf *out, strbuf *err) {
    (void)err;
    faults_patch_inventory(run, inv, a);
    inventory_write_yaml(inv, out);
    return 0;
}

int inventory_at_build(const char *path, const char *catalog, const char *const *sets, size_t nsets, bool has_seed,
                       uint64_t seed, sim_time at, strbuf *out) {
    return scenario_at_build("inventory", path, catalog, sets, nsets, has_seed, seed, at, write_inventory, out);
}

int scenario_at_build(const char *cmd, const char *path, const char *catalog, const char *const *sets, size_t nsets,
                      bool has_seed, uint64_t seed, sim_time at, scenario_at_writer write, strbuf *out) {
    strbuf err = {0};
    scenario sc = {0};
    gpu_catalog cat;
    inventory inv;
    sim_run run;
    arena a = {0};
    override_set keep = {0};
    bool have_cat = false, have_inv = false, have_run = false;
    int rc = EXIT_BAD_INPUT;
    /* as `drasim run` loads it (report/runner.c): the file, the overrides, the seed */
    if (scenario_file_load_sets(path, sets, nsets, &sc.file, &err)) goto done;
    sc.has_file = true;
    if (sc.file.ndocs != 1) {
        sb_printf(&err, "%s: expected exactly one YAML document, found %zu", path, sc.file.ndocs);
        goto done;
    }
    for (size_t i = 0; i < nsets; i++)
        if (override_apply(sc.file.docs[0], sets[i], &keep, &err)) goto done;
    if (trace_fleet_inline(sc.file.docs[0], &sc.file.a, &err)) goto done;   /* a fleet the overrides set */
    if (scenario_from_tree(sc.file.docs[0], &sc, &err)) goto done;
    if (has_seed) sc.seed = seed;
    sc.cluster.seed = sc.seed;
    if (sc.trace) {
        sb_printf(&err, "%s: --at needs a scenario with a cluster: section (a trace lists its own nodes)", path);
        goto done;
    }
    if (at >= sc.stop_time) {
        sb_printf(&err, "--at: %.3f s is not before the scenario's stop.time (%.3f s)", (double)at / 1000,
                  (double)sc.stop_time / 1000);
        goto done;
    }
    if (catalog_load(catalog, &cat, &err)) goto done;
    have_cat = true;
    bool dra = sc.sched.mode == SCHED_MODE_DRA;   /* what `drasim run` builds */
    if (inventory_build_ex(&sc.cluster, &cat, dra ? NULL : &sc.sched.dp, dra ? 0 : INV_NO_SLICES, &inv, &err)) goto done;
    have_inv = true;
    sc.stop_time = at + 1;   /* every event at `at` happens */
    sc.stop_all_pods_done = false;
    if (sim_init_inv(&run, &sc, &inv, &err)) goto done;
    have_run = true;
    int ex = workload_execute(&run, NULL);
    if (ex) {
        sb_puts(&err, ex == -2 ? sb_str(&run.error) : "interrupted");
        goto done;
    }
    if (write(&run, &inv, &a, out, &err)) goto done;
    rc = EXIT_OK;
done:
    if (rc) fprintf(stderr, "drasim %s: %s\n", cmd, sb_str(&err));
    if (have_run) sim_free(&run);
    if (have_inv) inventory_free(&inv);
    if (have_cat) catalog_free(&cat);
    scenario_free(&sc);
    overrides_free(&keep);
    arena_free(&a);
    sb_free(&err);
    return rc;
}
