/* test_yaml_scalar.c -- the one rule for strings written as YAML scalars
 * (sim/model/yaml_scalar.c, used by ydump: inventories, manifests, `sweep
 * --emit-job`): every string reads back as itself under YAML 1.1 and the 1.2
 * core schema (tests/lib/yaml_resolve.h writes both resolution rules from the
 * specifications), never spans lines, and a ConfigMap written by --emit-job
 * gives back each file's bytes (in `data` or, base64, in `binaryData`). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../lib/yaml_resolve.h"
#include "model/yaml_tree.h"
#include "report/sweep_job.h"
#include "util/arena.h"

/* Strings a careless or hostile user gives (file names, label values, file contents). */
static const char *const hostile[] = {
    /* numbers, bools, nulls and friends of YAML 1.1 or 1.2 */
    "1_000", "0b101", "1_0.5", "1234567890123456789012345678901234567890123456789012345678901234567890", "-.inf",
    ".NaN", ".nan", "+.Inf", "0o17", "0x1F", "017", "1e3", "1E+3", "1:20", "190:20:30.15", "2001-12-14",
    "2001-12-14t21:59:43.10-05:00", "570.172.8", "0000:18:00.0", "1.", ".", "+12", "-0", "yes", "Off", "y", "N",
    "~", "null", "NULL", "<<", "=", "",
    /* structure: documents, keys, comments, indicators */
    "--- x", "---", "... x", "key: value", "# x", "- x", "x #y", "x:", " x", "x ", "&a", "*a", "!t", "|", ">",
    "'q'", "\"q\"", "%x", "@x", "`x", "[a]", "{a: 1}", "?x", ":x",
    /* line breaks and controls: LF, CR, NEL, LS, PS, C1, BOM, U+FFFE, DEL, tab */
    "a\nb", "a\r---\rkind: Pod", "a\xc2\x85" "b", "a\xe2\x80\xa8" "b", "a\xe2\x80\xa9" "b", "\xc2\x9b" "31m",
    "\xef\xbb\xbf" "x", "x\xef\xbf\xbe", "x\xef\xbf\xbf", "a\x7f", "a\tb", "a\x01" "b", "\\", "\\n",
    /* ordinary values stay plain */
    "plain", "10Gi", "nvidia.com/gpu", "h100-80gb", "drasim-files", "deadbeef", "a,b", "Ünïcödé"};

static const ynode *load_value(const char *text, yfile *f) {
    strbuf err = {0};
    int rc = yfile_load_mem("t.yaml", text, strlen(text), f, &err);
    if (rc) fail_msg("%s does not load: %s", text, sb_str(&err));
    sb_free(&err);
    assert_int_equal(f->ndocs, 1);
    assert_int_equal(f->docs[0]->kind, YN_MAP);
    assert_int_equal(f->docs[0]->n, 1);
    return f->docs[0]->vals[0];
}

/* ydump of {k: s} is one line and reads back as s, a string under both versions. */
static void test_scalars_read_back(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof hostile / sizeof *hostile; i++) {
        const char *s = hostile[i];
        arena a = {0};
        ynode *m = yb_map(&a);
        yb_add(&a, m, "k", yb_str(&a, s));
        strbuf out = {0};
        ydump(&out, m);
        const char *nl = strchr(sb_str(&out), '\n');
        if (!nl || nl[1] || strchr(sb_str(&out), '\r') || strstr(sb_str(&out), "\xc2\x85") ||
            strstr(sb_str(&out), "\xe2\x80\xa8") || strstr(sb_str(&out), "\xe2\x80\xa9"))
            fail_msg("%s: written on more than one line: %s", s, sb_str(&out));
        yfile f;
        const ynode *v = load_value(sb_str(&out), &f);
        assert_int_equal(v->kind, YN_SCALAR);
        if (v->len != strlen(s) || memcmp(v->str, s, v->len)) fail_msg("'%s' read back as '%s'", s, v->str);
        const char *why = v->plain ? yaml_plain_not_str(v->str) : NULL;
        if (why) fail_msg("'%s' written plain reads as %s", s, why);
        yfile_free(&f);
        sb_free(&out);
        arena_free(&a);
    }
}

/* The numbers, bools and nulls yb_raw writes stay what they are. */
static void test_raw_stays_plain(void **state) {
    (void)state;
    arena a = {0};
    ynode *m = yb_map(&a);
    yb_add(&a, m, "num", yb_int(&a, -12));
    yb_add(&a, m, "flag", yb_bool(&a, true));
    yb_add(&a, m, "n", yb_str(&a, "x"));   /* the key n is false in YAML 1.1: quoted */
    strbuf out = {0};
    ydump(&out, m);
    assert_string_equal(sb_str(&out), "num: -12\nflag: true\n\"n\": x\n");
    sb_free(&out);
    arena_free(&a);
}

static size_t unbase64(const char *s, unsigned char *out) {
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t n = 0;
    unsigned v = 0;
    int bits = 0;
    for (; *s && *s != '='; s++) {
        const char *p = strchr(t, *s);
        if (!p) fail_msg("not base64: %c", *s);
        v = v << 6 | (unsigned)(p - t);
        if ((bits += 6) >= 8) out[n++] = (unsigned char)(v >> (bits -= 8));
    }
    return n;
}

/* One-line files and files of any bytes: each ConfigMap item gives its file back. */
static void test_configmap_contents(void **state) {
    (void)state;
    static const char *const contents[] = {
        "1_000", "0b101", "1_0.5", "1234567890123456789012345678901234567890123456789012345678901234567890", "-.inf",
        ".NaN", "yes", "~", "", "a: 1\n", "x\xc2\x85y", "x\xe2\x80\xa8y\xe2\x80\xa9", "\xc2\x80\xc2\x9f", "\xed\xa0\x80",
        "\xef\xbf\xbe", "\xf4\x90\x80\x80", "\xff\xfe", "a\0b", "line\r\nline\r\n", "\xef\xbb\xbfhead"};
    enum { N = sizeof contents / sizeof *contents };
    char dir[] = "/tmp/test-yaml-scalar-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char paths[N][256], scen[256], out[256];
    const char *inputs[N];
    size_t lens[N];
    for (size_t i = 0; i < N; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/f%02zu.txt", dir, i);
        lens[i] = i == 17 ? 3 : strlen(contents[i]);   /* "a\0b" */
        FILE *fp = fopen(paths[i], "wb");
        assert_non_null(fp);
        fwrite(contents[i], 1, lens[i], fp);
        fclose(fp);
        inputs[i] = paths[i];
    }
    snprintf(scen, sizeof scen, "%s/s.yaml", dir);
    FILE *fp = fopen(scen, "w");
    fputs("apiVersion: drasim/v1\n", fp);
    fclose(fp);
    snprintf(out, sizeof out, "%s/out", dir);
    assert_int_equal(mkdir(out, 0755), 0);
    sweep_job j = {.scenario = scen, .shards = 2, .parallelism = 1, .image = "drasim:latest", .dir = out,
                   .inputs = inputs, .ninputs = N};
    strbuf err = {0}, path = {0};
    if (sweep_emit_job(&j, &err)) fail_msg("emit: %s", sb_str(&err));
    sb_printf(&path, "%s/configmap.yaml", out);
    yfile f;
    if (yfile_load(sb_str(&path), &f, &err)) fail_msg("%s", sb_str(&err));
    assert_int_equal(f.ndocs, 1);
    const ynode *data = ymap_get(f.docs[0], "data"), *bin = ymap_get(f.docs[0], "binaryData");
    size_t found = 0;
    for (size_t i = 0; i < N; i++) {
        char key[32];
        snprintf(key, sizeof key, "f%zu-f%02zu.txt", i + 1, i);   /* f0 is the scenario */
        const ynode *v = data ? ymap_get(data, key) : NULL, *b = bin ? ymap_get(bin, key) : NULL;
        if (!v == !b) fail_msg("%s: in data and binaryData, or in neither", key);
        if (v) {
            const char *why = v->plain ? yaml_plain_not_str(v->str) : NULL;
            if (why) fail_msg("file %zu written plain reads as %s", i, why);
            if (v->len != lens[i] || memcmp(v->str, contents[i], lens[i])) fail_msg("file %zu: data differs", i);
        } else {
            unsigned char dec[64];
            assert_true(strlen(b->str) < 80);
            size_t n = unbase64(b->str, dec);
            if (n != lens[i] || memcmp(dec, contents[i], n)) fail_msg("file %zu: binaryData differs", i);
        }
        found++;
    }
    assert_int_equal(found, N);
    yfile_free(&f);
    const char *names[] = {"configmap.yaml", "results-pvc.yaml", "job.yaml", "merge-job.yaml", "collect.sh", "slurm.sh"};
    for (size_t i = 0; i < 6; i++) {
        sb_clear(&path);
        sb_printf(&path, "%s/%s", out, names[i]);
        unlink(sb_str(&path));
    }
    rmdir(out);
    for (size_t i = 0; i < N; i++) unlink(paths[i]);
    unlink(scen);
    rmdir(dir);
    sb_free(&err);
    sb_free(&path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalars_read_back),
        cmocka_unit_test(test_raw_stays_plain),
        cmocka_unit_test(test_configmap_contents),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
