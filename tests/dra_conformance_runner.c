/*
 * dra_conformance_runner.c -- runs DRA allocator conformance cases through the
 * real CLI and compares per tests/dra-conformance/README.md.
 *
 *   dra_conformance_runner DRASIM CASE_DIR...
 *
 * A CASE_DIR holds args, input.yaml, expect.yaml; a directory without
 * expect.yaml is scanned for case sub-directories. Prints one line per failed
 * case with the reason, then "N passed, N failed"; exits 1 if any failed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cel/quantity.h"
#include "model/yaml_tree.h"
#include "util/strbuf.h"
#include "util/vec.h"

#define TIME_LIMIT_MS 5000

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    strbuf b = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) sb_append(&b, buf, n);
    fclose(f);
    if (len) *len = b.len;
    if (!b.s) sb_append(&b, "", 0);
    return b.s ? b.s : calloc(1, 1);
}

/* Run argv with stdout/stderr captured; returns exit code, -1 on timeout/crash. */
static int run_capture(char **argv, strbuf *out, strbuf *err, strbuf *why) {
    char tmpl_o[] = "/tmp/dra_conf_outXXXXXX", tmpl_e[] = "/tmp/dra_conf_errXXXXXX";
    int fo = mkstemp(tmpl_o), fe = mkstemp(tmpl_e);
    if (fo < 0 || fe < 0) { sb_printf(why, "mkstemp: %s", strerror(errno)); return -1; }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fo, 1);
        dup2(fe, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0, rc = -1;
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long ms = (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
        if (ms > TIME_LIMIT_MS) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            sb_printf(why, "time limit of %d ms exceeded", TIME_LIMIT_MS);
            goto out;
        }
        usleep(1000);
    }
    if (WIFEXITED(status)) rc = WEXITSTATUS(status);
    else sb_printf(why, "drasim died with signal %d", WTERMSIG(status));
out:
    close(fo);
    close(fe);
    char *o = read_file(tmpl_o, NULL), *e = read_file(tmpl_e, NULL);
    if (o) { sb_puts(out, o); free(o); }
    if (e) { sb_puts(err, e); free(e); }
    unlink(tmpl_o);
    unlink(tmpl_e);
    return rc;
}

/* ---- comparisons ----------------------------------------------------------------- */

static const char *sval(const ynode *n) { return n && n->kind == YN_SCALAR && !y_is_null(n) ? n->str : NULL; }
static bool streq0(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : "") == 0; }

static bool truthy(const ynode *n) { return n && n->kind == YN_SCALAR && !strcmp(n->str, "true"); }

/* Structural equality of YAML data (opaque parameters). */
static bool data_equal(const ynode *a, const ynode *b) {
    if (y_is_null(a) || y_is_null(b)) return y_is_null(a) && y_is_null(b);
    if (a->kind != b->kind) return false;
    if (a->kind == YN_SCALAR) return a->len == b->len && !memcmp(a->str, b->str, a->len);
    if (a->n != b->n) return false;
    if (a->kind == YN_SEQ) {
        for (size_t i = 0; i < a->n; i++)
            if (!data_equal(a->vals[i], b->vals[i])) return false;
        return true;
    }
    for (size_t i = 0; i < a->n; i++) {
        const ynode *bv = ymap_get(b, a->keys[i]->str);
        if (!bv || !data_equal(a->vals[i], bv)) return false;
    }
    return true;
}

static bool qty_equal(const ynode *a, const ynode *b) {
    const char *sa = sval(a), *sb = sval(b), *e;
    quantity qa, qb;
    if (!sa || !sb) return false;
    if (quantity_parse(sa, strlen(sa), &qa, &e) || quantity_parse(sb, strlen(sb), &qb, &e)) return !strcmp(sa, sb);
    return quantity_cmp(&qa, &qb) == 0;
}

static bool capacity_equal(const ynode *a, const ynode *b) {
    size_t na = a && a->kind == YN_MAP ? a->n : 0, nb = b && b->kind == YN_MAP ? b->n : 0;
    if (na != nb) return false;
    for (size_t i = 0; i < na; i++) {
        const ynode *bv = ymap_get(b, a->keys[i]->str);
        if (!bv || !qty_equal(a->vals[i], bv)) return false;
    }
    return true;
}

static bool toleration_equal(const ynode *a, const ynode *b) {
    const char *oa = sval(ymap_get(a, "operator")), *ob = sval(ymap_get(b, "operator"));
    return streq0(sval(ymap_get(a, "key")), sval(ymap_get(b, "key"))) &&
           streq0(oa ? oa : "Equal", ob ? ob : "Equal") &&
           streq0(sval(ymap_get(a, "value")), sval(ymap_get(b, "value"))) &&
           streq0(sval(ymap_get(a, "effect")), sval(ymap_get(b, "effect"))) &&
           streq0(sval(ymap_get(a, "tolerationSeconds")), sval(ymap_get(b, "tolerationSeconds")));
}

/* Unordered match of two lists under `eq`. */
static bool multiset_equal(const ynode *a, const ynode *b, bool (*eq)(const ynode *, const ynode *)) {
    size_t na = a && a->kind == YN_SEQ ? a->n : 0, nb = b && b->kind == YN_SEQ ? b->n : 0;
    if (na != nb) return false;
    bool *used = calloc(nb ? nb : 1, 1);
    bool ok = true;
    for (size_t i = 0; i < na && ok; i++) {
        bool found = false;
        for (size_t j = 0; j < nb && !found; j++)
            if (!used[j] && eq(a->vals[i], b->vals[j])) used[j] = found = true;
        ok = found;
    }
    free(used);
    return ok;
}

static bool scalar_list_equal(const ynode *a, const ynode *b) {
    size_t na = a && a->kind == YN_SEQ ? a->n : 0, nb = b && b->kind == YN_SEQ ? b->n : 0;
    if (na != nb) return false;
    for (size_t i = 0; i < na; i++)
        if (!streq0(sval(a->vals[i]), sval(b->vals[i]))) return false;
    return true;
}

static bool scalar_eq(const ynode *a, const ynode *b) { return streq0(sval(a), sval(b)); }

static bool result_equal(const ynode *e, const ynode *a) {
    static const char *const keys[] = {"request", "driver", "pool", "device"};
    for (size_t i = 0; i < 4; i++)
        if (!streq0(sval(ymap_get(e, keys[i])), sval(ymap_get(a, keys[i])))) return false;
    if (truthy(ymap_get(e, "adminAccess")) != truthy(ymap_get(a, "adminAccess"))) return false;
    if (!multiset_equal(ymap_get(e, "tolerations"), ymap_get(a, "tolerations"), toleration_equal)) return false;
    if (!scalar_list_equal(ymap_get(e, "bindingConditions"), ymap_get(a, "bindingConditions"))) return false;
    if (!scalar_list_equal(ymap_get(e, "bindingFailureConditions"), ymap_get(a, "bindingFailureConditions")))
        return false;
    const char *sa = sval(ymap_get(a, "shareID"));
    if ((ymap_get(e, "shareID") != NULL) != (sa != NULL && *sa)) return false;
    return capacity_equal(ymap_get(e, "consumedCapacity"), ymap_get(a, "consumedCapacity"));
}

static bool requirement_equal(const ynode *a, const ynode *b) {
    return streq0(sval(ymap_get(a, "key")), sval(ymap_get(b, "key"))) &&
           streq0(sval(ymap_get(a, "operator")), sval(ymap_get(b, "operator"))) &&
           multiset_equal(ymap_get(a, "values"), ymap_get(b, "values"), scalar_eq);
}

static bool term_equal(const ynode *a, const ynode *b) {
    return multiset_equal(ymap_get(a, "matchExpressions"), ymap_get(b, "matchExpressions"), requirement_equal) &&
           multiset_equal(ymap_get(a, "matchFields"), ymap_get(b, "matchFields"), requirement_equal);
}

static bool selector_equal(const ynode *e, const ynode *a) {
    if (y_is_null(e) || y_is_null(a)) return y_is_null(e) && y_is_null(a);
    return multiset_equal(ymap_get(e, "nodeSelectorTerms"), ymap_get(a, "nodeSelectorTerms"), term_equal);
}

static bool config_equal(const ynode *e, const ynode *a) {
    size_t ne = e && e->kind == YN_SEQ ? e->n : 0, na = a && a->kind == YN_SEQ ? a->n : 0;
    if (ne != na) return false;
    for (size_t i = 0; i < ne; i++) {
        const ynode *x = e->vals[i], *y = a->vals[i];
        if (!streq0(sval(ymap_get(x, "source")), sval(ymap_get(y, "source")))) return false;
        if (!scalar_list_equal(ymap_get(x, "requests"), ymap_get(y, "requests"))) return false;
        const ynode *ox = ymap_get(x, "opaque"), *oy = ymap_get(y, "opaque");
        if (!streq0(sval(ymap_get(ox, "driver")), sval(ymap_get(oy, "driver")))) return false;
        if (!data_equal(ymap_get(ox, "parameters"), ymap_get(oy, "parameters"))) return false;
    }
    return true;
}

/* Compare printed claims with the expected ones. */
static bool compare_claims(const ynode *expect_claims, const yfile *out, strbuf *why) {
    size_t ne = expect_claims && expect_claims->kind == YN_SEQ ? expect_claims->n : 0;
    if (out->ndocs != ne) {
        sb_printf(why, "expected %zu claims, got %zu", ne, out->ndocs);
        return false;
    }
    for (size_t i = 0; i < ne; i++) {
        const ynode *ec = expect_claims->vals[i];
        const char *name = sval(ymap_get(ec, "name"));
        const ynode *al = NULL;
        for (size_t d = 0; d < out->ndocs; d++)
            if (streq0(sval(ymap_get(ymap_get(out->docs[d], "metadata"), "name")), name))
                al = ymap_get(ymap_get(out->docs[d], "status"), "allocation");
        if (!al) {
            sb_printf(why, "claim %s: not printed or without status.allocation", name ? name : "?");
            return false;
        }
        if (!multiset_equal(ymap_get(ec, "results"), ymap_get(ymap_get(al, "devices"), "results"), result_equal)) {
            sb_printf(why, "claim %s: device results differ", name);
            return false;
        }
        if (!selector_equal(ymap_get(ec, "nodeSelector"), ymap_get(al, "nodeSelector"))) {
            sb_printf(why, "claim %s: nodeSelector differs", name);
            return false;
        }
        if (ymap_get(ec, "config") && !config_equal(ymap_get(ec, "config"), ymap_get(ymap_get(al, "devices"), "config"))) {
            sb_printf(why, "claim %s: config differs", name);
            return false;
        }
    }
    return true;
}

/* ---- one case ---------------------------------------------------------------------- */

static bool run_case(const char *drasim, const char *dir, strbuf *why) {
    char path[4096];
    snprintf(path, sizeof path, "%s/args", dir);
    char *args = read_file(path, NULL);
    snprintf(path, sizeof path, "%s/expect.yaml", dir);
    yfile ex;
    strbuf err = {0}, out = {0}, errout = {0};
    bool ok = false;
    VEC(char *) argv = {0};
    if (!args) { sb_printf(why, "cannot read %s/args", dir); return false; }
    if (yfile_load(path, &ex, &err)) {
        sb_printf(why, "%s", sb_str(&err));
        free(args);
        sb_free(&err);
        return false;
    }
    const ynode *root = ex.ndocs ? ex.docs[0] : NULL;
    const char *exit_s = sval(ymap_get(root, "exit")), *steps_s = sval(ymap_get(root, "steps"));
    int want_exit = exit_s ? atoi(exit_s) : -1;
    VEC_PUSH(argv, (char *)drasim);
    VEC_PUSH(argv, "allocate");
    for (char *t = strtok(args, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) VEC_PUSH(argv, t);
    if (steps_s) VEC_PUSH(argv, "--stats");
    char input[4096];
    snprintf(input, sizeof input, "%s/input.yaml", dir);
    VEC_PUSH(argv, input);
    VEC_PUSH(argv, NULL);
    int rc = run_capture(argv.data, &out, &errout, why);
    if (rc < 0) goto done;
    if (rc != want_exit) {
        sb_printf(why, "exit %d, expected %d; stderr: %.300s", rc, want_exit, sb_str(&errout));
        goto done;
    }
    if (rc == 2 || rc == 3) {
        const char *want = sval(ymap_get(root, "error_contains"));
        if (want && !strstr(sb_str(&errout), want)) {
            sb_printf(why, "stderr lacks '%s'; got: %.300s", want, sb_str(&errout));
            goto done;
        }
    }
    if (rc == 0) {
        yfile res;
        if (yfile_load_mem("stdout", sb_str(&out), out.len, &res, &err)) {
            sb_printf(why, "unparsable output: %s", sb_str(&err));
            goto done;
        }
        bool same = compare_claims(ymap_get(root, "claims"), &res, why);
        yfile_free(&res);
        if (!same) goto done;
    }
    if (steps_s) {
        const char *p = sb_str(&errout), *last = NULL;
        while ((p = strstr(p, "search steps: "))) last = p++;
        if (!last) { sb_printf(why, "no 'search steps' line on stderr"); goto done; }
        long got = strtol(last + 14, NULL, 10);
        if (got != atol(steps_s)) { sb_printf(why, "search steps %ld, expected %s", got, steps_s); goto done; }
    }
    ok = true;
done:
    VEC_FREE(argv);
    free(args);
    yfile_free(&ex);
    sb_free(&err);
    sb_free(&out);
    sb_free(&errout);
    return ok;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

typedef VEC(char *) strvec;

static void collect(const char *dir, strvec *cases) {
    char p[4096];
    struct stat st;
    snprintf(p, sizeof p, "%s/expect.yaml", dir);
    if (stat(p, &st) == 0) {
        VEC_PUSH(*cases, strdup(dir));
        return;
    }
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    VEC(char *) subs = {0};
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) VEC_PUSH(subs, strdup(p));
    }
    closedir(d);
    qsort(subs.data, subs.len, sizeof *subs.data, cmp_str);
    for (size_t i = 0; i < subs.len; i++) {
        collect(subs.data[i], cases);
        free(subs.data[i]);
    }
    VEC_FREE(subs);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s DRASIM CASE_DIR...\n", argv[0]);
        return 2;
    }
    strvec cases = {0};
    for (int i = 2; i < argc; i++) collect(argv[i], &cases);
    int passed = 0, failed = 0;
    for (size_t i = 0; i < cases.len; i++) {
        strbuf why = {0};
        if (run_case(argv[1], cases.data[i], &why)) passed++;
        else {
            failed++;
            printf("FAIL %s: %s\n", cases.data[i], sb_str(&why));
        }
        sb_free(&why);
        free(cases.data[i]);
    }
    VEC_FREE(cases);
    printf("%d passed, %d failed\n", passed, failed);
    return failed || !passed ? 1 : 0;
}
