/*
 * escape.h -- the one place where text from a results database, a scenario
 * or the command line becomes gnuplot code, XML or HTML. Every string that
 * reaches plots.gp, a data file comment, index.html or a JUnit file goes
 * through these functions (docs/SECURITY.md).
 */
#ifndef DRASIM_REPORT_ESCAPE_H
#define DRASIM_REPORT_ESCAPE_H

#include <stdbool.h>

#include "util/strbuf.h"

/* Longest label (bytes) written into a gnuplot script by gp_label(); longer
 * ones are cut at a UTF-8 character boundary and end in "...". */
enum { GP_LABEL_MAX = 400 };

/* gnuplot string literal of s: single quotes, in which gnuplot does no
 * backquote (`cmd`), macro (@var) or backslash processing; a ' is written
 * ''. Control characters (a newline would end the command) become spaces.
 * For file names: never shortened. */
void gp_quote(strbuf *b, const char *s);
/* The same for a label shown on a plot: at most GP_LABEL_MAX bytes. */
void gp_label(strbuf *b, const char *s);
/* s as the text of a one-line comment (control characters become spaces). */
void gp_comment_text(strbuf *b, const char *s);
/* True when s is a plain name, [A-Za-z0-9_]+ (at most 100 bytes): safe as a
 * file stem, a gnuplot output name, an HTML id and an SQL identifier. */
bool plain_name(const char *s);
/* XML 1.0 / HTML text or attribute value of s: & < > " ' escaped, tab,
 * newline and carriage return as character references, other characters
 * that XML 1.0 forbids (C0 controls, DEL is allowed) and invalid UTF-8
 * bytes replaced by U+FFFD. */
void xml_escape(strbuf *b, const char *s);
/* s for a terminal: C0 and C1 control characters and DEL become '?', so
 * text from a database cannot move the cursor, recolour or forge lines. */
void terminal_text(strbuf *b, const char *s);
/* The same for HTML pages. */
void html_escape(strbuf *b, const char *s);
/* s as one word of a POSIX shell command: as is when made only of
 * [A-Za-z0-9_./=,:+@%-] (and not empty), else in single quotes, inside
 * which the shell gives no character a meaning ( ' is written '\'' ). */
void sh_quote(strbuf *b, const char *s);
/* s as one RFC 4180 CSV cell that a spreadsheet shows as text, never runs:
 * quoted when it holds , " CR or LF; a cell starting with = + - @ tab or CR
 * (OWASP "CSV injection") gets a leading ' -- except a cell that is a plain
 * decimal number (-3.5, +1e3, -inf, +2.50%) or compare's lone "-" (no
 * value), which stays as it is. */
void csv_text_cell(strbuf *b, const char *s);
/* A JSON string literal of s (RFC 8259: quotes, backslash and control
 * characters escaped). */
void json_quote(strbuf *b, const char *s);

#endif
