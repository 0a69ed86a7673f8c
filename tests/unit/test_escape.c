/* test_escape.c -- the one escaping module (sim/report/escape.c): gnuplot
 * literals that gnuplot cannot turn into commands, XML that stays well formed
 * whatever bytes a label holds, plain names for file stems. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "report/escape.h"

static char *gp(strbuf *b, const char *s) {
    sb_clear(b);
    gp_quote(b, s);
    return (char *)sb_str(b);
}

static void test_gp_quote_hostile(void **state) {
    (void)state;
    strbuf b = {0};
    /* single quotes: no `...`, $(...), @macro or backslash processing in gnuplot */
    assert_string_equal(gp(&b, "demo`touch PWNED`"), "'demo`touch PWNED`'");
    assert_string_equal(gp(&b, "$(id) @x \\n \""), "'$(id) @x \\n \"'");
    assert_string_equal(gp(&b, "it's"), "'it''s'");
    assert_string_equal(gp(&b, "'"), "''''");
    /* a newline would end the command: every control character becomes a space */
    assert_string_equal(gp(&b, "a\nb\rc\td\x1b" "e\x7f"), "'a b c d e '");
    assert_string_equal(gp(&b, ""), "''");
    sb_free(&b);
}

static void test_gp_quote_long_label_cut_on_character(void **state) {
    (void)state;
    char s[GP_LABEL_MAX + 40];
    memset(s, 'a', sizeof s);
    /* a 2-byte character across the cut */
    s[GP_LABEL_MAX - 1] = '\xc3';
    s[GP_LABEL_MAX] = '\xa9';
    s[sizeof s - 1] = 0;
    strbuf b = {0};
    gp_label(&b, s);
    const char *q = sb_str(&b);
    assert_int_equal(b.len, 1 + (GP_LABEL_MAX - 1) + 3 + 1);
    assert_int_equal(strcmp(q + b.len - 4, "...'"), 0);
    assert_true((unsigned char)q[b.len - 5] == 'a');
    /* a path is never shortened */
    sb_clear(&b);
    gp_quote(&b, s);
    assert_int_equal(b.len, strlen(s) + 2);
    sb_free(&b);
}

static void test_comment_text(void **state) {
    (void)state;
    strbuf b = {0};
    gp_comment_text(&b, "g1\n1 2 3\r\n");
    assert_string_equal(sb_str(&b), "g1 1 2 3  ");
    sb_free(&b);
}

static void test_plain_name(void **state) {
    (void)state;
    assert_true(plain_name("frag_gpu_pct"));
    assert_true(plain_name("A9_"));
    assert_false(plain_name(""));
    assert_false(plain_name("frag/../../x"));
    assert_false(plain_name("frag`id`"));
    assert_false(plain_name("a b"));
    assert_false(plain_name("a\"b"));
    char longname[120];
    memset(longname, 'x', sizeof longname);
    longname[101] = 0;
    assert_false(plain_name(longname));
    longname[100] = 0;
    assert_true(plain_name(longname));
}

static char *xml(strbuf *b, const char *s) {
    sb_clear(b);
    xml_escape(b, s);
    return (char *)sb_str(b);
}

static void test_xml_escape(void **state) {
    (void)state;
    strbuf b = {0};
    assert_string_equal(xml(&b, "<a href=\"x\">&'</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
    assert_string_equal(xml(&b, "a\tb\nc\rd"), "a&#9;b&#10;c&#13;d");
    /* C0 controls are not XML 1.0 characters, not even as references */
    assert_string_equal(xml(&b, "x\x01y\x1bz\x1f"), "x\xEF\xBF\xBDy\xEF\xBF\xBDz\xEF\xBF\xBD");
    /* valid UTF-8 kept; invalid bytes, overlongs, surrogates, U+FFFE replaced */
    assert_string_equal(xml(&b, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    assert_string_equal(xml(&b, "\xff"), "\xEF\xBF\xBD");
    assert_string_equal(xml(&b, "\xc0\xaf"), "\xEF\xBF\xBD\xEF\xBF\xBD");
    assert_string_equal(xml(&b, "\xed\xa0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    assert_string_equal(xml(&b, "\xef\xbf\xbe"), "\xEF\xBF\xBD");
    /* a truncated sequence at the end of the string: never read past the NUL */
    assert_string_equal(xml(&b, "a\xe2\x82"), "a\xEF\xBF\xBD\xEF\xBF\xBD");
    sb_free(&b);
}

static void test_terminal_text(void **state) {
    (void)state;
    strbuf b = {0};
    terminal_text(&b, "a\x1b[2Jb\nc\x7f\xc2\x9b" "1m\xc3\xa9");
    assert_string_equal(sb_str(&b), "a?[2Jb?c??1m\xc3\xa9");
    sb_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gp_quote_hostile),
        cmocka_unit_test(test_gp_quote_long_label_cut_on_character),
        cmocka_unit_test(test_comment_text),
        cmocka_unit_test(test_plain_name),
        cmocka_unit_test(test_xml_escape),
        cmocka_unit_test(test_terminal_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
