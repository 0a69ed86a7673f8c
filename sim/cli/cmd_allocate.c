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

/* "FILE:LINE:COL: " of an object read from a file (nothing for a made one). */
static void where(strbuf *b, const k8s_meta *m) {
    if (m->file) sb_printf(b, "%s:%d:%d: ", m->file, m->line, m->col);
}

/* The objects file `path` added (from index `first` of objs->all): at least
 * one, and none allocate does not use (a Pod or a ResourceClaimTemplate would
 * be ignored: allocate takes the claims themselves). 0, or -1 with err. */
static int check_file_objects(const k8s_objects *objs, size_t first, const char *path, strbuf *err) {
    sb_clear(err);
    if (objs->all.len == first) {
        sb_printf(err, "%s: holds no Kubernetes object (an empty file, or only comments and '---')", path);
        return -1;
    }
    for (size_t i = first; i < objs->all.len; i++) {
        const k8s_object_ref *r = &objs->all.data[i];
        const k8s_meta *m = r->kind == K8S_POD ? &((const k8s_pod *)r->obj)->meta
                            : r->kind == K8S_CLAIM_TEMPLATE ? &((const k8s_claim_template *)r->obj)->meta
                                                             : NULL;
        if (!m) continue;
        where(err, m);
        sb_printf(err, "%s %s: drasim allocate reads DeviceClass, ResourceSlice, ResourceClaim and Node objects, "
                       "not a %s (give the claims it would create as ResourceClaim objects)",
                  k8s_kind_name(r->kind), m->name ? m->name : "", k8s_kind_name(r->kind));
        return -1;
    }
    return 0;
}

/* An allocator error about claim "claim NAME, ...": the claim's FILE:LINE:COL in front. */
static void claim_position(const k8s_objects *objs, const strbuf *msg, strbuf *out) {
    char buf[300];
    for (size_t i = 0; i < objs->claims.len; i++) {
        const k8s_resource_claim *c = objs->claims.data[i];
        if (c->meta.namespace_ && *c->meta.namespace_) snprintf(buf, sizeof buf, "%s/%s", c->meta.namespace_, c->meta.name);
        else snprintf(buf, sizeof buf, "%s", c->meta.name ? c->meta.name : "");   /* as the allocator names it */
        size_t n = strlen(buf);
        const char *m = sb_str(msg);
        if (!strncmp(m, "claim ", 6) && !strncmp(m + 6, buf, n) && (m[6 + n] == ',' || m[6 + n] == ':')) {
            where(out, &c->meta);
            break;
        }
    }
    sb_puts(out, sb_str(msg));
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
        size_t first = objs->all.len;
        if (k8s_decode_file(objs, o->files[i], &err) || check_file_objects(objs, first, o->files[i], &err)) {
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
    } else if (!objs->nodes.len) {
        fprintf(stderr, "drasim allocate: no Node in the input: add the Node to allocate for (kind: Node, apiVersion: v1) "
                        "to one of the files\n");
        return EXIT_BAD_INPUT;
    } else {
        strbuf names = {0};
        for (size_t i = 0; i < objs->nodes.len && i < 5; i++)
            sb_printf(&names, "%s%s", i ? ", " : "", objs->nodes.data[i]->meta.name);
        fprintf(stderr, "drasim allocate: the input has %zu Nodes (%s%s); choose one with --node\n", objs->nodes.len,
                sb_str(&names), objs->nodes.len > 5 ? ", ..." : "");
        sb_free(&names);
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
    case ALLOC_TIMEOUT: {
        strbuf m = {0};
        claim_position(objs, &err, &m);
        fprintf(stderr, "drasim allocate: %s\n", sb_str(&m));
        sb_free(&m);
        rc = EXIT_ERROR;
        break;
    }
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
