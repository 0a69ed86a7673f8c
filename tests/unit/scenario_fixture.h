/* scenario_fixture.h -- one scenario loaded into a simulation, for unit tests
 * that drive the scheduler or engine directly (test_sched_dra, test_mut_dra,
 * test_properties). Include after <cmocka.h> and the drasim headers it uses:
 * engine/sim.h, model/cluster.h, model/scenario.h. */
#ifndef DRASIM_TEST_SCENARIO_FIXTURE_H
#define DRASIM_TEST_SCENARIO_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fixture {
    yfile f;
    scenario sc;
    gpu_catalog cat;
    inventory inv;
    sim_run run;
    strbuf err;
} fixture;

/* The metadata every fixture scenario starts with (seed 1, runs until done). */
static const char *const fixture_head =
    "apiVersion: drasim/v1\nkind: Scenario\nmetadata: {name: t}\nseed: 1\nstop: {allPodsDone: true}\n";

/* Load `text` (a whole scenario) and build its inventory (device-plugin
 * resources only unless the scenario is in DRA mode) and simulation;
 * returns the first non-zero status, with the message in x->err. */
static inline int fixture_load(fixture *x, const char *name, const char *text) {
    memset(x, 0, sizeof *x);
    int rc = yfile_load_mem(name, text, strlen(text), &x->f, &x->err);
    if (!rc) rc = scenario_from_tree(x->f.docs[0], &x->sc, &x->err);
    if (!rc) rc = catalog_load(NULL, &x->cat, &x->err);
    bool dra = x->sc.sched.mode == SCHED_MODE_DRA;
    if (!rc)
        rc = inventory_build_ex(&x->sc.cluster, &x->cat, dra ? NULL : &x->sc.sched.dp, dra ? 0 : INV_NO_SLICES,
                                &x->inv, &x->err);
    if (!rc) rc = sim_init_inv(&x->run, &x->sc, &x->inv, &x->err);
    return rc;
}

/* Load fixture_head + `body` (cluster, scheduling, workload) with the full
 * inventory (every view), as the DRA tests need; returns the init status. */
static inline int setup_rc(fixture *x, const char *body) {
    memset(x, 0, sizeof *x);
    char *text = malloc(strlen(fixture_head) + strlen(body) + 1);
    strcpy(text, fixture_head);
    strcat(text, body);
    int rc = yfile_load_mem("s.yaml", text, strlen(text), &x->f, &x->err);
    free(text);
    if (rc) return rc;
    if (scenario_from_tree(x->f.docs[0], &x->sc, &x->err)) return -1;
    assert_int_equal(catalog_load(NULL, &x->cat, &x->err), 0);
    assert_int_equal(inventory_build_ex(&x->sc.cluster, &x->cat, NULL, 0, &x->inv, &x->err), 0);
    return sim_init_inv(&x->run, &x->sc, &x->inv, &x->err);
}

/* setup_rc that fails the test (printing the message) on error. */
static inline void setup(fixture *x, const char *body) {
    int rc = setup_rc(x, body);
    if (rc) fprintf(stderr, "%s\n", sb_str(&x->err));
    assert_int_equal(rc, 0);
}

static inline void teardown(fixture *x) {
    sim_free(&x->run);
    inventory_free(&x->inv);
    catalog_free(&x->cat);
    x->sc.has_file = false;
    scenario_free(&x->sc);
    yfile_free(&x->f);
    sb_free(&x->err);
}

#endif
