/*
 * cmd_cel.c -- `drasim cel eval [--device FILE#DEVICE] [--] EXPR`.
 *
 * Prints the value of EXPR in the canonical form of
 * tests/cel-conformance/README.md and exits 0, or prints "error: MESSAGE" on
 * stderr and exits 1 (compile or evaluation error). Everything after `eval`
 * and its options is the expression, so an expression may start with '-'.
 * Exit 2 on usage errors, 3 when the --device file cannot be used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel.h"
#include "cli/cli.h"
#include "model/yaml_tree.h"
#include "util/intern.h"

cel_program *cel_compile_any(const char *expr, size_t len, const cel_options *opts, strbuf *err);

static void usage(FILE *out) {
    fprintf(out, "usage: drasim cel eval [--device FILE#DEVICE] [--cost] [--] EXPR\n\n"
                 "Evaluates a CEL expression in the Kubernetes DRA environment and prints its value.\n"
                 "With --device, `device` is the named device of the ResourceSlice(s) in FILE.\n"
                 "With --cost, the runtime cost of the evaluation is printed on stderr.\n"
                 "exit: 0 value printed, 1 compile or evaluation error, 2 usage error, 3 bad device file\n");
}

/* Split "domain/id" (or a bare id under the driver's domain). */
static void qualified(const char *name, const char *driver, const char **dom, const char **id) {
    const char *sl = strchr(name, '/');
    if (sl) {
        *dom = intern_n(name, (size_t)(sl - name));
        *id = intern(sl + 1);
    } else {
        *dom = driver;
        *id = intern(name);
    }
}

/* Read the fields the `device` variable needs from a ResourceSlice YAML file
 * (name, attributes, capacity, allowMultipleAllocations; driver from
 * spec.driver). To be replaced by the shared ResourceSlice decoder. */
static int load_device(const char *spec, yfile *yf, k8s_device *dev, const char **driver, strbuf *err) {
    const char *hash = strrchr(spec, '#');
    if (!hash || hash == spec || !hash[1]) {
        sb_printf(err, "--device wants FILE#DEVICE, got '%s'", spec);
        return -1;
    }
    char *path = strndup(spec, (size_t)(hash - spec));
    const char *want = hash + 1;
    int rc = yfile_load(path, yf, err);
    free(path);
    if (rc != 0) return -1;
    for (size_t d = 0; d < yf->ndocs; d++) {
        const ynode *doc = yf->docs[d];
        if (doc->kind != YN_MAP) continue;
        const ynode *kind = ymap_get(doc, "kind");
        if (kind && !y_scalar_eq(kind, "ResourceSlice")) continue;
        const ynode *sp = ymap_get(doc, "spec");
        if (!sp || sp->kind != YN_MAP) continue;
        const ynode *drv = ymap_get(sp, "driver");
        const ynode *devs = ymap_get(sp, "devices");
        if (!devs || devs->kind != YN_SEQ) continue;
        for (size_t i = 0; i < devs->n; i++) {
            const ynode *dn = devs->vals[i];
            if (dn->kind != YN_MAP) continue;
            const ynode *nm = ymap_get(dn, "name");
            if (!nm || !y_scalar_eq(nm, want)) continue;
            const char *drvname = "";
            if (drv && y_str(drv, "spec.driver", &drvname, err) != 0) return -1;
            *driver = intern(drvname);
            memset(dev, 0, sizeof *dev);
            dev->name = intern(want);
            const ynode *body = ymap_get(dn, "basic");   /* v1beta1 layout */
            if (!body || body->kind != YN_MAP) body = dn;
            const ynode *attrs = ymap_get(body, "attributes");
            if (attrs && y_expect(attrs, YN_MAP, "attributes", err) != 0) return -1;
            if (attrs && attrs->n) {
                dev->attrs = ARENA_NEW(&yf->a, k8s_attribute, attrs->n);
                for (size_t k = 0; k < attrs->n; k++) {
                    k8s_attribute *a = &dev->attrs[dev->nattrs++];
                    qualified(attrs->keys[k]->str, *driver, &a->domain, &a->id);
                    const ynode *v = attrs->vals[k];
                    if (y_expect(v, YN_MAP, "attribute", err) != 0) return -1;
                    const ynode *x;
                    if ((x = ymap_get(v, "int"))) {
                        a->kind = ATTR_INT;
                        if (y_int(x, "int attribute", &a->i, err) != 0) return -1;
                    } else if ((x = ymap_get(v, "bool"))) {
                        a->kind = ATTR_BOOL;
                        if (y_bool(x, "bool attribute", &a->b, err) != 0) return -1;
                    } else if ((x = ymap_get(v, "string"))) {
                        a->kind = ATTR_STRING;
                        if (y_str(x, "string attribute", &a->s, err) != 0) return -1;
                    } else if ((x = ymap_get(v, "version"))) {
                        a->kind = ATTR_VERSION;
                        if (y_str(x, "version attribute", &a->s, err) != 0) return -1;
                        const char *msg;
                        a->v_ok = semver_parse(a->s, strlen(a->s), false, &a->v, &msg) == 0;
                    } else {
                        a->kind = ATTR_LIST_UNSUPPORTED;
                    }
                }
            }
            const ynode *caps = ymap_get(body, "capacity");
            if (caps && y_expect(caps, YN_MAP, "capacity", err) != 0) return -1;
            if (caps && caps->n) {
                dev->caps = ARENA_NEW(&yf->a, k8s_capacity, caps->n);
                for (size_t k = 0; k < caps->n; k++) {
                    k8s_capacity *cp = &dev->caps[dev->ncaps++];
                    qualified(caps->keys[k]->str, *driver, &cp->domain, &cp->id);
                    const ynode *v = caps->vals[k];
                    const ynode *val = v->kind == YN_MAP ? ymap_get(v, "value") : v;
                    if (!val || val->kind != YN_SCALAR) {
                        yerr(err, v, "capacity %s: missing value", caps->keys[k]->str);
                        return -1;
                    }
                    const char *msg = NULL;
                    if (quantity_parse(val->str, val->len, &cp->value, &msg) != 0) {
                        yerr(err, val, "capacity %s: %s", caps->keys[k]->str, msg ? msg : "invalid quantity");
                        return -1;
                    }
                    /* the API server stores the canonical form; the scheduler re-parses it */
                    char canon[128];
                    size_t cl = quantity_format_str(&cp->value, canon, sizeof canon);
                    if (cl < sizeof canon) quantity_parse(canon, cl, &cp->value, &msg);
                }
            }
            const ynode *am = ymap_get(body, "allowMultipleAllocations");
            if (am) {
                dev->has_allow_multiple = true;
                if (y_bool(am, "allowMultipleAllocations", &dev->allow_multiple, err) != 0) return -1;
            }
            return 0;
        }
    }
    sb_printf(err, "%s: no device named '%s' in a ResourceSlice", yf->name ? yf->name : spec, want);
    return -1;
}

static int cmd_eval(int argc, char **argv) {
    const char *device = NULL;
    bool cost = false;
    int i = 1;
    while (i < argc) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) { i++; break; }
        if (!strcmp(a, "--device")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "drasim cel eval: --device needs FILE#DEVICE\n");
                return EXIT_ERROR;
            }
            device = argv[i + 1];
            i += 2;
            continue;
        }
        if (!strncmp(a, "--device=", 9)) { device = a + 9; i++; continue; }
        if (!strcmp(a, "--cost")) { cost = true; i++; continue; }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return EXIT_OK; }
        break;
    }
    if (i >= argc) {
        usage(stderr);
        return EXIT_ERROR;
    }
    strbuf expr = {0};
    for (int k = i; k < argc; k++) {
        if (k > i) sb_putc(&expr, ' ');
        sb_puts(&expr, argv[k]);
    }
    strbuf err = {0}, out = {0};
    yfile yf = {0};
    k8s_device dev;
    const char *driver = NULL;
    int rc = EXIT_OK;
    if (device && load_device(device, &yf, &dev, &driver, &err) != 0) {
        fprintf(stderr, "drasim cel eval: %s\n", sb_str(&err));
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    cel_options opts = {.consumable_capacity = true, .device_env = device != NULL};
    cel_program *p = cel_compile_any(expr.s ? expr.s : "", expr.len, &opts, &err);
    if (!p) {
        fprintf(stderr, "error: %s\n", sb_str(&err));
        rc = EXIT_NEGATIVE;
        goto done;
    }
    if (cost) {
        unsigned long long c = 0;
        strbuf e2 = {0};
        cel_eval_cost(p, device ? &dev : NULL, driver, &c, &e2);
        fprintf(stderr, "cost: %llu\n", c);
        sb_free(&e2);
    }
    if (cel_eval_print(p, device ? &dev : NULL, driver, &out, &err) != 0) {
        fprintf(stderr, "error: %s\n", sb_str(&err));
        rc = EXIT_NEGATIVE;
    } else {
        fwrite(out.s ? out.s : "", 1, out.len, stdout);
        fputc('\n', stdout);
    }
    cel_program_free(p);
done:
    sb_free(&expr);
    sb_free(&err);
    sb_free(&out);
    if (device) yfile_free(&yf);
    return rc;
}

int cmd_cel(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_ERROR : EXIT_OK;
    }
    if (!strcmp(argv[1], "eval")) return cmd_eval(argc - 1, argv + 1);
    fprintf(stderr, "drasim cel: unknown sub-command '%s' (see drasim cel --help)\n", argv[1]);
    return EXIT_ERROR;
}
