/*
 * test_cel_regex.c -- RE2 semantics past PCRE2's backtracking limit (issue 10):
 * leftmost-first find/findAll after the fallback, `matches` on long subjects,
 * and a differential check of the linear-time matcher against PCRE2 wherever
 * PCRE2 finishes (both must give RE2's leftmost-first answer).
 */
#include "test_cel_util.h"

#include "cel/cel_internal.h"

#define EV(e) cel_t_eval((e), NULL, NULL)

/* Evaluate `'SUBJECT'.CALL` with SUBJECT built from a repeated unit. */
static const char *eval_on(const char *unit, int times, const char *tail, const char *call) {
    strbuf e = {0};
    sb_putc(&e, '\'');
    for (int i = 0; i < times; i++) sb_puts(&e, unit);
    sb_printf(&e, "%s'.%s", tail, call);
    const char *r = EV(sb_str(&e));
    sb_free(&e);
    return r;
}

static void test_fallback_is_leftmost_first(void **state) {
    (void)state;
    /* (a*)*b exhausts PCRE2's match limit on 30 a's; then RE2 takes the
     * first alternative that matches at the leftmost start: `a`, not a+c */
    assert_string_equal(eval_on("a", 30, "c", "find('(?:(a*)*b|a|a+c)')"), "\"a\"");
    const char *all = eval_on("a", 30, "c", "findAll('(?:(a*)*b|a|a+c)')");
    assert_non_null(strstr(all, "[\"a\", \"a\", \"a\""));
    assert_null(strstr(all, "c\""));
    /* non-greedy stays non-greedy */
    assert_string_equal(eval_on("a", 30, "c", "find('(?:(a*)*b|a+?)')"), "\"a\"");
    assert_string_equal(eval_on("a", 30, "c", "find('(?:(a*)*b|a+)')"), "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"");
    /* Go: with (?m), ^ matches after a newline that ends the text (fuzz_regex finding) */
    assert_string_equal(EV("'a\\n'.findAll('(?m)^')"), "[\"\", \"\"]");
    /* PCRE2 10.42's JIT start optimizations missed this match (fuzz_regex finding) */
    assert_string_equal(EV("'abc'.find('(a(a)|(a)bc||bcd)(d*).')"), "\"a\"");
    assert_string_equal(EV("'abc'.find('(?:abc|)(?:d*).')"), "\"a\"");
    /* PCRE2 10.42's auto-possessification made \PN* possessive before \PL
     * although a newline is in both (fuzz_regex finding): RE2 matches "k\n" */
    assert_string_equal(EV("'k\\n'.find('\\\\PN*\\\\PL')"), "\"k\\n\"");
    assert_string_equal(EV("'k\\n'.matches('^\\\\PN*\\\\PL$')"), "true");
}

static void test_long_subjects(void **state) {
    (void)state;
    /* 'ab' x 1500 + '!': 3,001 characters (errors before the fix) */
    assert_string_equal(eval_on("ab", 1500, "!", "matches('^(a|b|ab)*$')"), "false");
    assert_string_equal(eval_on("ab", 1500, "!", "matches('^(?:a|b|ab)*!$')"), "true");
    assert_string_equal(eval_on("ab", 1500, "!", "find('(?:a|b|ab)*!').size()"), "3001");
    assert_string_equal(eval_on("ab", 1500, "!", "find('b(?:ab)*').size()"), "2999");
    assert_string_equal(eval_on("x", 9000, "", "matches('^(x+x+)+y$')"), "false");
    assert_string_equal(eval_on("é", 5000, "z", "matches('^(?:\\\\pL|é)*z$')"), "true");
}

/* The linear matcher and PCRE2 agree on leftmost-first spans. */
static void test_differential(void **state) {
    (void)state;
    static const char *pats[] = {
        "a|ab", "ab|a", "(a|ab)(c|bcd)", "a*", "a*?", "a+?b", "(a*)*", "(a*)+b", "(?:a|b)*?b", "x*",
        "^", "$", "\\b", "\\B", "\\bfoo\\b", "(?m)^b$", "(?m)^$", "(?:abc|)(?:d*).", "^ab$", "a{2,3}", "a{2,3}?", "(ab){1,2}c?",
        "[a-c]+", "[^a]+", ".", "(?s).+", ".+", "(?i)AB|k", "\\d+", "\\w+\\s", "(?U)a+", "(?i:K)",
        "\\pL+", "[[:alpha:]]+", "é+|e", "\\x{e9}", "a(?:)b", "(a|b)+?b", "\\Aab", "b\\z", "(?i)σ",
        /* not compared: loops whose body can match empty, such as (|a)+, where Perl (PCRE2) and RE2
         * disagree (Perl stops at an empty iteration; RE2 follows thread priorities) */
    };
    static const char *subjects[] = {"", "a", "a\n", "ab\n\n", "ab", "abc", "abcd", "aab", "ba", "b", "foo bar", "a\nb\nc",
                                     "aaa", "ababab", "KELVIN \xe2\x84\xaa k", "\xc3\xa9t\xc3\xa9", "x1 22 333",
                                     "AbAB", "\xce\xa3\xcf\x83\xcf\x82", "bab"};
    for (size_t i = 0; i < sizeof pats / sizeof *pats; i++) {
        strbuf err = {0};
        void *re = cel_regex_compile(pats[i], strlen(pats[i]), &err);
        if (!re) fail_msg("%s: %s", pats[i], sb_str(&err));
        for (size_t j = 0; j < sizeof subjects / sizeof *subjects; j++) {
            const char *s = subjects[j];
            size_t n = strlen(s);
            for (size_t from = 0; from <= n; from++) {
                if (from < n && ((unsigned char)s[from] & 0xC0) == 0x80) continue;   /* inside a character */
                size_t a1 = 0, b1 = 0, a2 = 0, b2 = 0;
                const char *msg = NULL;
                int r1 = cel_regex_search(re, s, n, from, &a1, &b1, &msg, NULL);
                int r2 = cel_regex_search_linear(re, s, n, from, &a2, &b2);
                if (r1 != r2 || (r1 == 1 && (a1 != a2 || b1 != b2)))
                    fail_msg("/%s/ on '%s' from %zu: pcre2 %d [%zu,%zu) linear %d [%zu,%zu)", pats[i], s, from, r1,
                             a1, b1, r2, a2, b2);
            }
        }
        cel_regex_free(re);
        sb_free(&err);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fallback_is_leftmost_first),
        cmocka_unit_test(test_long_subjects),
        cmocka_unit_test(test_differential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
