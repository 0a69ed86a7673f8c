/*
 * cmd_allocate.c -- `drasim allocate`: run the DRA allocator once for one node
 * on the classes, slices and claims of some YAML files, and print the newly
 * allocated claims (tests/dra-conformance/README.md is the exact contract).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc.h"
#include "cli/cli.h"
#include "model/k8s_decode.h"
#include "model/k8s_emit.h"
#include "util/intern.h"
#include "util/xalloc.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: drasim allocate [--node NAME] [--features LIST|none] [--k8s-version 1.34|1.35|1.36]\n"
            "                       [--seed N] [--search-budget N] [--stats] FILE...\n\n"
            "Reads DeviceClasses, ResourceSlices, ResourceClaims (resource.k8s.io/v1, or v1beta2\n"
            "and v1beta1 converted as the API server does) and Nodes (v1; `kind: List` accepted)\n"
            "and allocates every claim without status.allocation, in input order, together for\n"
            "one node, exactly as the Kubernetes scheduler's DRA allocator would. With\n"
            "--k8s-version 1.34 a slice may hold devices and sharedCounters (1.34's API).\n"
            "Claims that carry status.allocation count as allocated already.\n\n"
            "  --node NAME        the node to allocate for (default: the only Node in the input)\n"
            "  --features LIST    exact allocator feature set: comma list of AdminAccess,\n"
            "                     PrioritizedList, PartitionableDevices, DeviceTaints,\n"
            "                     ConsumableCapacity, DeviceBindingAndStatus, ListTypeAttributes; or none\n"
            "  --k8s-version V    that release's default features (default 1.36)\n"
            "  --seed N           seed of the share IDs of shared devices (default 1)\n"
            "  --search-budget N  give up after N search steps with 'allocation search budget\n"
            "                     exhausted' (exit 2; default %d, 0 = no limit; the step\n"
            "                     count of upstream's filter timeout, docs/SCENARIOS.md)\n"
            "  --max-steps N      the same as --search-budget N\n"
            "  --stats            print 'search steps: N' on stderr\n\n"
            "exit: 0 allocated (claims as YAML on stdout), 1 does not fit, 2 allocator or usage\n"
            "error or search budget exhausted (message on stderr), 3 unreadable or invalid input.\n",
            ALLOC_SEARCH_BUDGET_DEFAULT);
}

typedef struct opts {
    const char *node;
    const char *features;
    const char *version;
    uint64_t seed;
    uint64_t max_steps;
    bool stats;
    const char **files;
    size_t nfiles;
} opts;

static int parse_args(int argc, char **argv, opts *o) {
    o->seed = 1;
    o->max_steps = ALLOC_SEARCH_BUDGET_DEFAULT;
    o->files = xcalloc((size_t)argc + 1, sizeof *o->files);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_next = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(a, "--stats")) {
            o->stats = true;
        } else if ((!strcmp(a, "--node") || !strcmp(a, "--features") || !strcmp(a, "--k8s-version") ||
                    !strcmp(a, "--seed") || !strcmp(a, "--max-steps") || !strcmp(a, "--search-budget")) &&
                   has_next) {
            const char *v = argv[++i];
            if (!strcmp(a, "--node")) o->node = v;
            else if (!strcmp(a, "--features")) o->features = v;
            else if (!strcmp(a, "--k8s-version")) o->version = v;
            else {
                char *end;
                uint64_t n = strtoull(v, &end, 10);
                if (!*v || *end || *v == '-') {
                    fprintf(stderr, "drasim allocate: %s needs a non-negative integer, not '%s'\n", a, v);
                    return 2;
                }
                if (!strcmp(a, "--seed")) o->seed = n;
                else o->max_steps = n;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "drasim allocate: unknown option or missing value: %s (see --help)\n", a);
            return 2;
        } else {
            o->files[o->nfiles++] = a;
        }
    }
    if (!o->nfiles) {
        usage(stderr);
        return 2;
    }
    return 0;
}

static int run(const opts *o, k8s_objects *objs) {
    strbuf err = {0};
    alloc_features f;
    int rc = EXIT_OK;
    if (o->features ? alloc_features_parse(o->features, &f, &err)
                    : alloc_features_for_version(o->version ? o->version : "1.36", &f, &err)) {
        fprintf(stderr, "drasim allocate: %s\n", sb_str(&err));
        sb_free(&err);
        return EXIT_ERROR;
    }
    /* 1.34 accepted slices with both devices and sharedCounters (the NVIDIA driver's combined dynamic-MIG layout) */
    objs->allow_combined_slices = o->version && !strcmp(o->version, "1.34");
    for (size_t i = 0; i < o->nfiles; i++) {
        if (k8s_decode_file(objs, o->files[i], &err)) {
            fprintf(stderr, "drasim allocate: %s\n", sb_str(&err));
            sb_free(&err);
            return EXIT_BAD_INPUT;
        }
    }
    const k8s_node *node = NULL;
    if (o->node) {
        node = k8s_find_node(objs, o->node);
        if (!node) {
            fprintf(stderr, "drasim allocate: node '%s' is not in the input (add its Node object)\n", o->node);
            return EXIT_ERROR;
        }
    } else if (objs->nodes.len == 1) {
        node = objs->nodes.data[0];
    } else {
        fprintf(stderr, "drasim allocate: the input has %zu Nodes; choose one with --node\n", objs->nodes.len);
        return EXIT_ERROR;
    }

    alloc_state_builder sb = {0};
    VEC(k8s_resource_claim *) to_allocate = {0};
    for (size_t i = 0; i < objs->claims.len; i++) {
        k8s_resource_claim *c = objs->claims.data[i];
        if (c->allocated) alloc_state_add_claim(&sb, c, f.consumable_capacity);
        else VEC_PUSH(to_allocate, c);
    }
    allocator *A = allocator_new(&f, objs->slices.data, objs->slices.len, objs->classes.data, objs->classes.len,
                                 &sb.st, o->seed);
    allocator_set_step_limit(A, o->max_steps);
    arena ar = {0};
    k8s_allocation *out = xcalloc(to_allocate.len ? to_allocate.len : 1, sizeof *out);
    uint64_t steps = 0;
    alloc_status st = allocator_allocate(A, node, to_allocate.data, to_allocate.len, &ar, out, &steps, &err);
    if (o->stats) fprintf(stderr, "search steps: %llu\n", (unsigned long long)steps);
    switch (st) {
    case ALLOC_OK: {
        strbuf y = {0};
        for (size_t i = 0; i < to_allocate.len; i++) {
            sb_puts(&y, "---\n");
            ydump(&y, k8s_emit_claim(&ar, to_allocate.data[i], &out[i]));
        }
        fwrite(y.s ? y.s : "", 1, y.len, stdout);
        sb_free(&y);
        break;
    }
    case ALLOC_UNSATISFIABLE:
        fprintf(stderr, "drasim allocate: the claims do not fit on node %s\n", node->meta.name);
        rc = EXIT_NEGATIVE;
        break;
    case ALLOC_NODE_ERROR:
    case ALLOC_ERROR:
    case ALLOC_TIMEOUT:
        fprintf(stderr, "drasim allocate: %s\n", sb_str(&err));
        rc = EXIT_ERROR;
        break;
    }
    free(out);
    arena_free(&ar);
    allocator_free(A);
    VEC_FREE(to_allocate);
    alloc_state_builder_free(&sb);
    sb_free(&err);
    return rc;
}

int cmd_allocate(int argc, char **argv) {
    opts o = {0};
    int r = parse_args(argc, argv, &o);
    if (r) {
        free(o.files);
        return r == 1 ? EXIT_OK : EXIT_ERROR;
    }
    k8s_objects objs;
    k8s_objects_init(&objs);
    int rc = run(&o, &objs);
    k8s_objects_free(&objs);
    free(o.files);
    return rc;
}
