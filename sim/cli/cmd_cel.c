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
#include "model/k8s_decode.h"
#include "util/intern.h"

cel_program *cel_compile_any(const char *expr, size_t len, const cel_options *opts, strbuf *err);

static void usage(FILE *out) {
    fprintf(out, "usage: drasim cel eval [--device FILE#DEVICE] [--cost] [--] EXPR\n\n"
                 "Evaluates a CEL expression in the Kubernetes DRA environment and prints its value.\n"
                 "With --device, `device` is the named device of the ResourceSlice(s) in FILE.\n"
                 "With --cost, the runtime cost of the evaluation is printed on stderr.\n"
                 "exit: 0 value printed, 1 compile or evaluation error, 2 usage error, 3 bad device file\n");
}

/* Find device `spec` = "FILE#DEVICE" among the ResourceSlices of FILE, read
 * with the shared decoder (so values are what the scheduler sees). */
static int load_device(const char *spec, k8s_objects *o, const k8s_device **dev, const char **driver, strbuf *err) {
    const char *hash = strrchr(spec, '#');
    if (!hash || hash == spec || !hash[1]) {
        sb_clear(err);
        sb_printf(err, "--device wants FILE#DEVICE, got '%s'", spec);
        return -1;
    }
    char *path = strndup(spec, (size_t)(hash - spec));
    int rc = k8s_decode_file(o, path, err);
    if (rc == 0) {
        const char *want = intern(hash + 1);
        for (size_t i = 0; i < o->slices.len; i++)
            for (size_t d = 0; d < o->slices.data[i]->ndevices; d++)
                if (o->slices.data[i]->devices[d].name == want) {
                    *dev = &o->slices.data[i]->devices[d];
                    *driver = o->slices.data[i]->driver;
                    free(path);
                    return 0;
                }
        sb_clear(err);
        sb_printf(err, "%s: no device named '%s' in a ResourceSlice", path, want);
    }
    free(path);
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
    k8s_objects objs;
    k8s_objects_init(&objs);
    const k8s_device *dev = NULL;
    const char *driver = NULL;
    int rc = EXIT_OK;
    if (device && load_device(device, &objs, &dev, &driver, &err) != 0) {
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
        cel_eval_cost(p, dev, driver, &c, &e2);
        fprintf(stderr, "cost: %llu\n", c);
        sb_free(&e2);
    }
    if (cel_eval_print(p, dev, driver, &out, &err) != 0) {
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
    k8s_objects_free(&objs);
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
