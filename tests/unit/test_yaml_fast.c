/* test_yaml_fast.c -- the fast YAML reader (model/yaml_fast.h) builds libyaml's
 * tree or gives up: hand-written tricky inputs, each with the outcome
 * expected (read fast, or left to libyaml), and every .yaml/.yml file of the
 * repository, which must all give identical trees (most of them read fast). */
#define _GNU_SOURCE
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/yaml_fast.h"
#include "util/fileio.h"

#define CAP 10000000u

/* Load both ways. Returns 0 when the fast reader read it, 1 when it gave up;
 * fails the test when a tree differs or libyaml refuses what was read fast. */
static int compare(const char *name, const char *src, size_t len) {
    yfile a, b;
    strbuf err = {0}, why = {0};
    const char *gave = NULL;
    int fast = yfast_load(name, src, len, CAP, &a, &gave);
    int slow = yfile_load_mem_libyaml(name, src, len, CAP, &b, &err);
    if (fast == 0) {
        if (slow != 0) fail_msg("%s: read fast, but libyaml says: %s", name, sb_str(&err));
        if (!yfile_same(&a, &b, &why)) fail_msg("%s: trees differ: %s", name, sb_str(&why));
        yfile_free(&a);
    }
    if (slow == 0) yfile_free(&b);
    sb_free(&err);
    sb_free(&why);
    return fast;
}

static int cmp_str(const char *src) { return compare("t.yaml", src, strlen(src)); }

/* read fast and identical */
#define FAST(s) assert_int_equal(cmp_str(s), 0)
/* left to libyaml (whatever libyaml makes of it) */
#define SLOW(s) assert_int_equal(cmp_str(s), 1)

static void test_block_basics(void **state) {
    (void)state;
    FAST("a: 1\nb: two\n");
    FAST("a:\n  b:\n    c: d\n  e: f\ng: h\n");
    FAST("- a\n- b\n-\n- c\n");
    FAST("a:\n- x\n- y\nb: 1\n");                 /* a sequence at its key's column */
    FAST("a:\n  - x\n  -\n  - y: 1\n    z: 2\n");
    FAST("- - a\n  - b\n- - c\n");
    FAST("- a: 1\n  b: 2\n- c: 3\n");
    FAST("a:\nb:\nc: 1\n");                        /* empty values, marked after ':' */
    FAST("a:   # c\nb: 1\n");
    FAST("a: 1   \nb: 2  # trailing\n");          /* trailing spaces */
    FAST("  a: 1\n  b: 2\n");                     /* an indented root */
    FAST("a:\n\n\n  b: 1\n\n");
    FAST("key with spaces: value with:colon\n");
    SLOW("key: value with: colon\n");            /* libyaml's error */
    FAST("a: b#c\nd: e #f\n");
    FAST("url: http://x.y/z?q=1\ntime: 12:30\n");
    FAST("a : 1\n'b'  : 2\n");
    FAST("a: -1\nb: -x\n");
    FAST("a:\n  x\nb: 1\n");                       /* a scalar on the next line */
    FAST("- # c\n  a: 1\n");
    FAST("");
    FAST("# only a comment\n\n");
    FAST("a: 1");                                  /* no final newline */
    FAST("a: \xc3\xa9t\xc3\xa9\n\xc3\xa9: [\xc3\xa9, b]\n");   /* columns count characters */
}

static void test_quoted(void **state) {
    (void)state;
    FAST("\"quoted key\": 'it''s'\n'k': \"a\\\"b\\\\c\\n\\t\\x41\\u00e9\\U0001F600\\/\"\n");
    FAST("a: \"\"\nb: ''\nc: \"\\0x\"\n");        /* empty and NUL-containing strings */
    FAST("a: 'x' # c\nb: \"y\"#c\n");
    FAST("- \"a\": 1\n- 'b'\n");
    FAST("\"root string\"\n");
    SLOW("a: \"line\n  two\"\n");                 /* several lines: libyaml folds them */
    SLOW("a: 'line\n\n  two'\n");
    SLOW("a: \"\\q\"\n");                         /* unknown escape: libyaml's error */
    SLOW("a: \"\\ud800\"\n");
    SLOW("a: \"x\": 1\n");
}

static void test_flow(void **state) {
    (void)state;
    FAST("a: {b: 1, c: [x, y, {d: e}]}\n");
    FAST("a: [1, 2,]\nb: {c: 1,}\nc: []\nd: {}\n");
    FAST("a: [1,\n  2,\n  # c\n  3]\nb: {c: 1,\n  d: 2}\n");   /* spanning lines */
    FAST("[a, b]\n");
    FAST("{a: 1}\n");
    FAST("a: [b#c, 'd', \"e\"] # c\n");
    FAST("a: [-1, -x]\n");
    FAST("a: {\"b\": 1, 'c': 2}\n");
    FAST("a: [a b, c  d]\n");
    SLOW("a: [1,\n2]\n");                         /* not deeper than the key: left to libyaml */
    SLOW("a: [b: 1]\n");                          /* a single-pair mapping */
    SLOW("a: {b}\n");
    SLOW("a: {b: }\n");
    SLOW("a: {\"b\":1}\n");
    SLOW("a: [b\n  c]\n");                        /* a plain scalar over two lines */
    SLOW("a: [1, 2\nb: 3\n");                     /* libyaml's error */
    SLOW("[a]: b\n");
    SLOW("a: [? b]\n");
}

static void test_documents(void **state) {
    (void)state;
    FAST("a: 1\n---\nb: 2\n");
    FAST("---\na: 1\n---\n---\nb: 2\n---\n");     /* empty documents are skipped */
    FAST("--- # c\na: 1\n");
    FAST("a: ~\n---\n---\nb: null\n");
    SLOW("a: ~\n---\nnull\n---\n~\n");           /* plain scalar documents */
    FAST("- a\n---\n- b\n");
    FAST("a:\n- x\n---\nb:\n");
    SLOW("a: 1\n...\n---\nb: 2\n");
    SLOW("--- a: 1\n");
    SLOW("%YAML 1.1\n---\na: 1\n");
    SLOW("--- |\n  text\n");
}

static void test_gives_up(void **state) {
    (void)state;
    SLOW("a: &x 1\nb: *x\n");
    SLOW("a: !!str 1\n");
    SLOW("a: |\n  text\n");
    SLOW("a: >\n  text\n");
    SLOW("? a\n: b\n");
    SLOW("a:\tb\n");
    SLOW("a: 1\r\nb: 2\r\n");                    /* CRLF: left to libyaml */
    SLOW("\xef\xbb\xbf" "a: 1\n");               /* BOM */
    SLOW("a: \xff\n");                           /* not UTF-8: libyaml's error */
    SLOW("a: 1\na: 2\n");                        /* duplicate: libyaml's message */
    SLOW("a: b: c\n");
    SLOW("a: b\n  c\n");                         /* plain scalar continued */
    SLOW("- a\n  b\n");
    SLOW("a:\n  b: 1\n c: 2\n");
    SLOW("a: 1\n  b: 2\n");
    SLOW("a\n");                                 /* a plain scalar document */
    SLOW("a: - b\n");
    SLOW("- a\nb: 1\n");
    SLOW("a:\n  - x\n  b: 1\n");
    SLOW("a: @x\n");
}

/* every .yaml/.yml file under the repository */
static int nfiles, nfast;
static char gave[64][160];
static int ngave;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st;
    const char *base = path + ftw->base;
    if (type == FTW_D && (base[0] == '.' || strncmp(base, "build", 5) == 0) && ftw->level > 0) return FTW_SKIP_SUBTREE;
    if (type != FTW_F) return FTW_CONTINUE;
    size_t n = strlen(base);
    if (!((n > 5 && !strcmp(base + n - 5, ".yaml")) || (n > 4 && !strcmp(base + n - 4, ".yml")))) return FTW_CONTINUE;
    strbuf data = {0}, err = {0};
    if (file_read_all(path, &data, &err) == 0) {
        nfiles++;
        if (compare(path, sb_str(&data), data.len) == 0) nfast++;
        else if (ngave < 64) snprintf(gave[ngave++], sizeof gave[0], "%s", path);
    }
    sb_free(&data);
    sb_free(&err);
    return FTW_CONTINUE;
}

static void test_repository_files(void **state) {
    (void)state;
    assert_int_equal(nftw(TEST_DATA_DIR "/..", visit, 32, FTW_PHYS | FTW_ACTIONRETVAL), 0);
    printf("yaml_fast: %d of %d repository YAML files read fast, all trees identical to libyaml's\n", nfast, nfiles);
    for (int i = 0; i < ngave; i++) printf("  left to libyaml: %s\n", gave[i]);
    assert_true(nfiles > 500);
    assert_true(nfast * 10 >= nfiles * 9);   /* most of them */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block_basics),
        cmocka_unit_test(test_quoted),
        cmocka_unit_test(test_flow),
        cmocka_unit_test(test_documents),
        cmocka_unit_test(test_gives_up),
        cmocka_unit_test(test_repository_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
