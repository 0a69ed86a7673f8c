/*
 * yaml_fast.c -- the fast YAML reader (model/yaml_fast.h): one pass over the
 * bytes, no token queue, nodes straight into the yfile's arena.
 *
 * It follows libyaml 0.2.5 (yaml/libyaml tag 0.2.5, src/scanner.c and
 * src/parser.c) on the subset it accepts, mark for mark:
 *  - a block mapping starts at its first key, a block sequence at its first
 *    '-', a flow collection at its bracket, a scalar at its first character
 *    (quoted: at the quote);
 *  - an empty value is an empty plain scalar marked just after its ':' or
 *    '-' (parse_block_mapping_value, parse_block_sequence_entry);
 *  - columns count characters, not bytes.
 * It gives up (longjmp to yfast_load) on everything else: tabs, CR, non-
 * UTF-8, BOM, control or line-break characters other than LF, anchors,
 * aliases, tags, directives, `...`, block scalars, explicit keys, plain
 * scalars or quoted scalars over more than one line, content on a `---`
 * line, duplicate keys, keys over 900 bytes, deep nesting, and every
 * syntax error. Giving up is always correct: the caller parses again with
 * libyaml. tests/fuzz/fuzz_yaml_fast.c and tests/yaml_fast check that
 * what it accepts is libyaml's tree.
 */
#include "model/yaml_fast.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "util/interrupt.h"
#include "util/xalloc.h"

#define FAST_MAX_DEPTH 190     /* below yaml_tree.c's 200: deeper input goes to libyaml */
#define FAST_MAX_KEY 900       /* libyaml drops a simple key after 1,024 characters */

typedef struct fp {
    const char *p;             /* cursor in the NUL-terminated copy */
    const char *ls;            /* start of the cursor's line */
    int line;                  /* 1-based line of the cursor */
    bool ascii;                /* no byte >= 0x80: columns are byte offsets */
    yfile *f;
    uint64_t nodes, max_nodes; /* per document */
    ynode **stk;               /* children of the collections being read */
    size_t nstk, capstk;
    char *buf;                 /* a scalar with escapes being decoded */
    size_t nbuf, capbuf;
    const char *why;
    jmp_buf jb;
} fp;

static _Noreturn void give_up(fp *P, const char *why) {
    P->why = why;
    longjmp(P->jb, 1);
}

static inline bool blankz(char c) { return c == ' ' || c == '\n' || c == 0; }
static inline bool flow_ind(char c) { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'; }

/* Every byte libyaml's reader accepts and this reader understands: printable
 * ASCII, LF, and well-formed UTF-8 of U+00A0..U+10FFFF except the line and
 * paragraph separators, the BOM and U+FFFE/U+FFFF (reader.c's ranges). */
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* 0x80 in each byte of y that is zero, exactly (no carries between bytes). */
static inline uint64_t zero_bytes(uint64_t y) { return ~(((y & ~HIGHS) + ~HIGHS) | y | ~HIGHS); }

/* Are the 8 bytes printable ASCII or LF? (LF bytes are made ' '-like, then
 * no byte may be below 0x20 or be 0x7F; a byte >= 0x80 says no too.) */
static inline bool clean_word(uint64_t w) {
    if (w & HIGHS) return false;
    uint64_t v = w | (zero_bytes(w ^ (ONES * '\n')) >> 2);
    return !zero_bytes(v ^ (ONES * 0x7F)) && !((v - ONES * 0x20) & ~v & HIGHS);
}

static bool prescan(const unsigned char *s, size_t len, bool *ascii) {
    *ascii = true;
    for (size_t i = 0; i < len;) {
        if (i + 8 <= len) {   /* 8 bytes at a time while they are plain */
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (clean_word(w)) { i += 8; continue; }
        }
        unsigned c = s[i];
        if ((c >= 0x20 && c < 0x7F) || c == '\n') { i++; continue; }
        if (c < 0xC2 || c > 0xF4) return false;
        *ascii = false;
        unsigned w = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        if (i + w > len) return false;
        unsigned cp = c & (w == 2 ? 0x1F : w == 3 ? 0x0F : 0x07);
        for (unsigned k = 1; k < w; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (w == 2 && cp < 0xA0) return false;
        if (w == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0x2028 || cp == 0x2029 ||
                       cp == 0xFEFF || cp >= 0xFFFE))
            return false;
        if (w == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return false;
        i += w;
    }
    return true;
}

/* 0-based column (characters) of q on the cursor's line. */
static int colof(const fp *P, const char *q) {
    if (P->ascii) return (int)(q - P->ls);
    int c = 0;
    for (const char *r = P->ls; r < q; r++)
        if (((unsigned char)*r & 0xC0) != 0x80) c++;
    return c;
}

static ynode *mk(fp *P, ynode_kind k, int line, int col0) {
    if (++P->nodes >= P->max_nodes) give_up(P, "document near the node cap");
    if ((P->nodes & 0xFFFF) == 0 && interrupt_pending()) give_up(P, "interrupted");
    ynode *n = ARENA_NEW(&P->f->a, ynode, 1);
    n->kind = k;
    n->file = P->f->name;
    n->line = line;
    n->col = col0 + 1;
    return n;
}

static ynode *mk_at(fp *P, ynode_kind k, const char *at) { return mk(P, k, P->line, colof(P, at)); }

static ynode *scalar(fp *P, const char *at, const char *s, size_t len, bool plain) {
    ynode *n = mk_at(P, YN_SCALAR, at);
    char *d = arena_alloc(&P->f->a, len + 1);
    if (len) memcpy(d, s, len);
    n->str = d;
    n->len = len;
    n->plain = plain;
    return n;
}

static void push(fp *P, ynode *n) {
    if (P->nstk == P->capstk) {
        P->capstk = P->capstk ? P->capstk * 2 : 256;
        P->stk = xrealloc(P->stk, P->capstk * sizeof *P->stk);
    }
    P->stk[P->nstk++] = n;
}

static void buf_add(fp *P, const char *s, size_t n) {
    if (!n) return;
    if (P->nbuf + n > P->capbuf) {
        while (P->nbuf + n > P->capbuf) P->capbuf = P->capbuf ? P->capbuf * 2 : 256;
        P->buf = xrealloc(P->buf, P->capbuf);
    }
    memcpy(P->buf + P->nbuf, s, n);
    P->nbuf += n;
}

static bool key_same(const ynode *a, const ynode *b) {
    return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
}

static uint64_t key_hash(const ynode *k) {
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
    for (size_t i = 0; i < k->len; i++) h = (h ^ (unsigned char)k->str[i]) * 1099511628211ull;
    return h;
}

/* Is a key of the map being closed (pairs at stk[base..]) repeated? */
static bool has_duplicate(fp *P, size_t base, size_t npairs) {
    ynode **kv = P->stk + base;
    if (npairs <= 16) {
        for (size_t i = 1; i < npairs; i++)
            for (size_t j = 0; j < i; j++)
                if (key_same(kv[2 * i], kv[2 * j])) return true;
        return false;
    }
    size_t cap = 64;
    while (cap < npairs * 2) cap *= 2;
    uint32_t *slot = xcalloc(cap, sizeof *slot);
    bool dup = false;
    for (size_t i = 0; i < npairs && !dup; i++) {
        for (size_t j = (size_t)key_hash(kv[2 * i]) & (cap - 1);; j = (j + 1) & (cap - 1)) {
            if (!slot[j]) { slot[j] = (uint32_t)i + 1; break; }
            if (key_same(kv[2 * (slot[j] - 1)], kv[2 * i])) { dup = true; break; }
        }
    }
    free(slot);
    return dup;
}

/* Move the children pushed since `base` into n's arrays (exact size). */
static void close_coll(fp *P, ynode *n, size_t base) {
    size_t cnt = P->nstk - base;
    if (cnt) {
        ynode **arr = ARENA_NEW(&P->f->a, ynode *, cnt);
        if (n->kind == YN_MAP) {
            size_t k = cnt / 2;
            if (has_duplicate(P, base, k)) give_up(P, "duplicate key");
            for (size_t i = 0; i < k; i++) {
                arr[i] = P->stk[base + 2 * i];
                arr[k + i] = P->stk[base + 2 * i + 1];
            }
            n->keys = arr;
            n->vals = arr + k;
            n->n = n->cap = k;
        } else {
            memcpy(arr, P->stk + base, cnt * sizeof *arr);
            n->vals = arr;
            n->n = n->cap = cnt;
        }
    }
    P->nstk = base;
}

/* ---- lines ---------------------------------------------------------------- */

static inline void newline(fp *P) {
    P->p++;
    P->line++;
    P->ls = P->p;
}

static inline void skip_spaces(fp *P) {
    while (*P->p == ' ') P->p++;
}

static inline void skip_comment(fp *P) {
    if (*P->p == '#')
        while (*P->p && *P->p != '\n') P->p++;
}

/* `---` or `...` at the start of a line, followed by a blank or the end. */
static bool at_marker(const fp *P, char c) {
    const char *p = P->p;
    return p == P->ls && p[0] == c && p[1] == c && p[2] == c && blankz(p[3]);
}

/* After a node on its line: only spaces and a comment may follow. */
static void end_line(fp *P) {
    skip_spaces(P);
    skip_comment(P);
    if (*P->p != '\n' && *P->p) give_up(P, "more content after a value on its line");
}

/* From a line's end, skip blank and comment lines: the cursor ends on the
 * first character of the next line with content, or at the end. */
static void next_content(fp *P) {
    while (*P->p == '\n') {
        newline(P);
        skip_spaces(P);
        skip_comment(P);
    }
}

static inline int ccol(const fp *P) { return (int)(P->p - P->ls); }   /* structural: only spaces/dashes precede */

/* ---- scalars ---------------------------------------------------------------- */

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* One double-quoted escape at P->p ('\\'), decoded into P->buf (scanner.c
 * scan_flow_scalar's table). */
static void escape(fp *P) {
    char c = P->p[1], out[4];
    size_t n = 1, code = 0;
    switch (c) {
    case '0': out[0] = '\0'; break;
    case 'a': out[0] = '\x07'; break;
    case 'b': out[0] = '\x08'; break;
    case 't': out[0] = '\x09'; break;
    case 'n': out[0] = '\x0A'; break;
    case 'v': out[0] = '\x0B'; break;
    case 'f': out[0] = '\x0C'; break;
    case 'r': out[0] = '\x0D'; break;
    case 'e': out[0] = '\x1B'; break;
    case ' ': out[0] = ' '; break;
    case '"': out[0] = '"'; break;
    case '/': out[0] = '/'; break;
    case '\\': out[0] = '\\'; break;
    case 'N': out[0] = '\xC2'; out[1] = '\x85'; n = 2; break;
    case '_': out[0] = '\xC2'; out[1] = '\xA0'; n = 2; break;
    case 'L': out[0] = '\xE2'; out[1] = '\x80'; out[2] = '\xA8'; n = 3; break;
    case 'P': out[0] = '\xE2'; out[1] = '\x80'; out[2] = '\xA9'; n = 3; break;
    case 'x': code = 2; break;
    case 'u': code = 4; break;
    case 'U': code = 8; break;
    default: give_up(P, "escape outside the subset");
    }
    P->p += 2;
    if (code) {
        uint32_t v = 0;
        for (size_t k = 0; k < code; k++) {
            int h = hexval(P->p[k]);
            if (h < 0) give_up(P, "bad hex escape");
            v = (v << 4) | (uint32_t)h;
        }
        if ((v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF) give_up(P, "bad unicode escape");
        P->p += code;
        if (v <= 0x7F) { out[0] = (char)v; n = 1; }
        else if (v <= 0x7FF) { out[0] = (char)(0xC0 + (v >> 6)); out[1] = (char)(0x80 + (v & 0x3F)); n = 2; }
        else if (v <= 0xFFFF) {
            out[0] = (char)(0xE0 + (v >> 12)); out[1] = (char)(0x80 + ((v >> 6) & 0x3F));
            out[2] = (char)(0x80 + (v & 0x3F)); n = 3;
        } else {
            out[0] = (char)(0xF0 + (v >> 18)); out[1] = (char)(0x80 + ((v >> 12) & 0x3F));
            out[2] = (char)(0x80 + ((v >> 6) & 0x3F)); out[3] = (char)(0x80 + (v & 0x3F)); n = 4;
        }
    }
    buf_add(P, out, n);
}

/* A single- or double-quoted scalar on one line; the cursor ends after the
 * closing quote. */
static ynode *quoted(fp *P) {
    const char *at = P->p;
    char q = *at;
    const char *run = ++P->p;
    bool copied = false;
    P->nbuf = 0;
    for (;;) {
        char c = *P->p;
        if (c == '\n' || !c) give_up(P, "quoted scalar over several lines");
        if (c == q) {
            if (q == '\'' && P->p[1] == '\'') {   /* '' is one quote */
                buf_add(P, run, (size_t)(P->p + 1 - run));
                P->p += 2;
                run = P->p;
                copied = true;
                continue;
            }
            break;
        }
        if (c == '\\' && q == '"') {
            buf_add(P, run, (size_t)(P->p - run));
            escape(P);
            run = P->p;
            copied = true;
            continue;
        }
        P->p++;
    }
    ynode *n;
    if (!copied) n = scalar(P, at, run, (size_t)(P->p - run), false);
    else {
        buf_add(P, run, (size_t)(P->p - run));
        n = scalar(P, at, P->buf, P->nbuf, false);
    }
    P->p++;
    return n;
}

/* May a plain scalar start here? (fetch_next_token's test, less '?' and ':',
 * which this reader leaves to libyaml.) */
static bool plain_start(const fp *P) {
    char c = *P->p;
    switch (c) {
    case '-': return !blankz(P->p[1]);
    case '?': case ':': case ',': case '[': case ']': case '{': case '}': case '#': case '&': case '*':
    case '!': case '|': case '>': case '\'': case '"': case '%': case '@': case '`':
    case ' ': case '\n': case 0:
        return false;
    default: return true;
    }
}

/* A plain scalar in block context, on one line: it ends before ": ", " #",
 * or trailing spaces and the line's end. Whether it would go on to the next
 * line is the enclosing collection's check (a deeper next line gives up). */
static ynode *plain_block(fp *P) {
    const char *st = P->p, *e;
    for (;;) {
        while (*P->p != ' ' && *P->p != '\n' && *P->p) {
            if (*P->p == ':' && blankz(P->p[1])) { e = P->p; goto done; }
            P->p++;
        }
        e = P->p;
        if (*P->p != ' ') goto done;
        const char *q = P->p;
        while (*q == ' ') q++;
        if (*q == '#' || *q == '\n' || !*q || (*q == ':' && blankz(q[1]))) goto done;
        P->p = q;
    }
done:
    P->p = e;
    return scalar(P, st, st, (size_t)(e - st), true);
}

/* A plain scalar in flow context, on one line (scan_plain_scalar with
 * flow_level > 0). */
static ynode *plain_flow(fp *P) {
    const char *st = P->p, *e;
    for (;;) {
        while (*P->p != ' ' && *P->p != '\n' && *P->p) {
            char c = *P->p;
            if (c == ':') {
                char d = P->p[1];
                if (d == '?' || flow_ind(d)) give_up(P, "':' before a flow indicator");
                if (blankz(d)) break;
            }
            if (flow_ind(c)) break;
            P->p++;
        }
        e = P->p;
        if (*P->p != ' ' && *P->p != '\n') break;
        const char *q = P->p;
        bool crossed = false;
        while (*q == ' ' || *q == '\n') crossed |= *q++ == '\n';
        char c = *q;
        if (c == '#' || !c || flow_ind(c) || (c == ':' && blankz(q[1]))) break;
        if (crossed) give_up(P, "plain scalar over several lines");
        P->p = q;
    }
    P->p = e;
    return scalar(P, st, st, (size_t)(e - st), true);
}

/* ---- flow collections ---------------------------------------------------------- */

/* Skip spaces, comments and line breaks inside a flow collection. A new
 * line must not hold a document marker and its content must be deeper than
 * the enclosing block's indentation `bind` (libyaml 0.2.5 does not ask for
 * it; this reader leaves those cases to it). */
static void flow_ws(fp *P, int bind) {
    for (;;) {
        skip_spaces(P);
        skip_comment(P);
        if (*P->p != '\n') return;
        newline(P);
        if (at_marker(P, '-') || at_marker(P, '.')) give_up(P, "document marker inside a flow collection");
        skip_spaces(P);
        if (*P->p && *P->p != '\n' && *P->p != '#' && ccol(P) <= bind)
            give_up(P, "flow collection line not indented");
    }
}

static ynode *flow_node(fp *P, int bind, int depth);

static ynode *flow_seq(fp *P, int bind, int depth) {
    ynode *n = mk_at(P, YN_SEQ, P->p);
    size_t base = P->nstk;
    P->p++;
    flow_ws(P, bind);
    if (*P->p == ']') { P->p++; close_coll(P, n, base); return n; }
    for (;;) {
        push(P, flow_node(P, bind, depth + 1));
        flow_ws(P, bind);
        if (*P->p == ',') {
            P->p++;
            flow_ws(P, bind);
            if (*P->p == ']') { P->p++; break; }
            continue;
        }
        if (*P->p == ']') { P->p++; break; }
        give_up(P, "flow sequence: expected ',' or ']'");
    }
    close_coll(P, n, base);
    return n;
}

static ynode *flow_map(fp *P, int bind, int depth) {
    ynode *n = mk_at(P, YN_MAP, P->p);
    size_t base = P->nstk;
    P->p++;
    flow_ws(P, bind);
    if (*P->p == '}') { P->p++; close_coll(P, n, base); return n; }
    for (;;) {
        const char *kst = P->p;
        int kline = P->line;
        ynode *k;
        if (*P->p == '"' || *P->p == '\'') k = quoted(P);
        else if (plain_start(P)) k = plain_flow(P);
        else give_up(P, "flow mapping key outside the subset");
        skip_spaces(P);
        if (*P->p != ':' || P->line != kline || P->p - kst > FAST_MAX_KEY || (P->p[1] != ' ' && P->p[1] != '\n'))
            give_up(P, "flow mapping: expected ': '");
        P->p++;
        flow_ws(P, bind);
        if (*P->p == ',' || *P->p == '}') give_up(P, "flow mapping: empty value");
        push(P, k);
        push(P, flow_node(P, bind, depth + 1));
        flow_ws(P, bind);
        if (*P->p == ',') {
            P->p++;
            flow_ws(P, bind);
            if (*P->p == '}') { P->p++; break; }
            continue;
        }
        if (*P->p == '}') { P->p++; break; }
        give_up(P, "flow mapping: expected ',' or '}'");
    }
    close_coll(P, n, base);
    return n;
}

static ynode *flow_node(fp *P, int bind, int depth) {
    if (depth > FAST_MAX_DEPTH) give_up(P, "deep nesting");
    char c = *P->p;
    if (c == '[') return flow_seq(P, bind, depth);
    if (c == '{') return flow_map(P, bind, depth);
    if (c == '"' || c == '\'') return quoted(P);
    if (plain_start(P)) return plain_flow(P);
    give_up(P, "flow node outside the subset");
}

/* ---- block collections ------------------------------------------------------- */

static ynode *block_node(fp *P, int pind, int depth);

/* An empty value: an empty plain scalar at the given mark. */
static ynode *empty(fp *P, int line, int col0) {
    ynode *n = mk(P, YN_SCALAR, line, col0);
    n->str = arena_alloc(&P->f->a, 1);
    n->plain = true;
    return n;
}

/* A block mapping's key at the cursor (column c): a quoted or plain scalar
 * followed on its line by ':' and a blank. The cursor ends on the ':'. */
static ynode *block_key(fp *P) {
    const char *st = P->p;
    ynode *k;
    if (*P->p == '"' || *P->p == '\'') k = quoted(P);
    else if (plain_start(P)) k = plain_block(P);
    else give_up(P, "block key outside the subset");
    skip_spaces(P);
    if (*P->p != ':' || !blankz(P->p[1])) give_up(P, "expected a key");
    if (P->p - st > FAST_MAX_KEY) give_up(P, "long key");
    return k;
}

/* A value after "key:" on the key's line (map at column c). */
static ynode *inline_value(fp *P, int c, int depth) {
    char ch = *P->p;
    ynode *n;
    if (depth > FAST_MAX_DEPTH) give_up(P, "deep nesting");
    if (ch == '[' || ch == '{') n = flow_node(P, c, depth);
    else if (ch == '"' || ch == '\'') n = quoted(P);
    else if (plain_start(P)) n = plain_block(P);
    else give_up(P, "value outside the subset");
    end_line(P);
    next_content(P);
    return n;
}

/* Block sequence with its '-' at column c (`indentless`: the value of a
 * mapping key at the same column). Ends on the next content line. */
static ynode *block_seq(fp *P, int c, bool indentless, int depth) {
    ynode *n = mk_at(P, YN_SEQ, P->p);
    size_t base = P->nstk;
    for (;;) {
        int al = P->line, ac = colof(P, P->p + 1);   /* an empty entry's mark: after the '-' */
        P->p++;
        skip_spaces(P);
        skip_comment(P);
        ynode *v;
        if (*P->p == '\n' || !*P->p) {
            next_content(P);
            if (!*P->p || ccol(P) <= c) v = empty(P, al, ac);
            else v = block_node(P, c, depth + 1);
        } else {
            v = block_node(P, c, depth + 1);
        }
        push(P, v);
        if (!*P->p) break;
        int nc = ccol(P);
        if (nc < c) break;
        if (nc > c) give_up(P, "sequence entry indented deeper");
        if (c == 0 && (at_marker(P, '-') || at_marker(P, '.'))) break;
        if (*P->p == '-' && blankz(P->p[1])) continue;
        if (indentless) break;
        give_up(P, "expected '-'");
    }
    close_coll(P, n, base);
    return n;
}

/* Block mapping at column c whose first key k is read (cursor on its ':'). */
static ynode *block_map(fp *P, int c, ynode *k, int depth) {
    ynode *n = mk(P, YN_MAP, k->line, k->col - 1);
    size_t base = P->nstk;
    for (;;) {
        P->p++;   /* the ':' */
        int al = P->line, ac = colof(P, P->p);
        skip_spaces(P);
        skip_comment(P);
        ynode *v;
        if (*P->p == '\n' || !*P->p) {
            next_content(P);
            int nc = ccol(P);
            if (!*P->p || nc < c) v = empty(P, al, ac);
            else if (nc == c) {
                if (*P->p == '-' && blankz(P->p[1])) v = block_seq(P, c, true, depth + 1);
                else v = empty(P, al, ac);
            } else v = block_node(P, c, depth + 1);
        } else {
            v = inline_value(P, c, depth + 1);
        }
        push(P, k);
        push(P, v);
        if (!*P->p) break;
        int nc = ccol(P);
        if (nc < c) break;
        if (nc > c) give_up(P, "mapping line indented deeper");
        if (c == 0 && (at_marker(P, '-') || at_marker(P, '.'))) break;
        k = block_key(P);
    }
    close_coll(P, n, base);
    return n;
}

/* Any block node whose first character is at the cursor, deeper than the
 * enclosing collection's column pind (-1 for a document's root). Ends on the
 * next content line. */
static ynode *block_node(fp *P, int pind, int depth) {
    if (depth > FAST_MAX_DEPTH) give_up(P, "deep nesting");
    char ch = *P->p;
    int c = ccol(P);
    if (ch == '-' && blankz(P->p[1])) return block_seq(P, c, false, depth);
    if (ch == '[' || ch == '{') {
        ynode *n = flow_node(P, pind, depth);
        end_line(P);
        next_content(P);
        return n;
    }
    const char *st = P->p;
    ynode *k;
    if (ch == '"' || ch == '\'') k = quoted(P);
    else if (plain_start(P)) k = plain_block(P);
    else give_up(P, "node outside the subset");
    const char *q = P->p;
    while (*q == ' ') q++;
    if (*q == ':' && blankz(q[1])) {
        if (q - st > FAST_MAX_KEY) give_up(P, "long key");
        P->p = q;
        return block_map(P, c, k, depth);
    }
    if (pind < 0 && k->plain) give_up(P, "plain scalar document");
    end_line(P);
    next_content(P);
    return k;
}

/* ---- documents ------------------------------------------------------------------- */

static void add_doc(fp *P, ynode *root, size_t *cap) {
    if (root->kind == YN_SCALAR && y_is_null(root)) return;
    yfile *f = P->f;
    if (f->ndocs == *cap) {
        *cap = *cap ? *cap * 2 : 4;
        ynode **nd = ARENA_NEW(&f->a, ynode *, *cap);
        if (f->ndocs) memcpy(nd, f->docs, f->ndocs * sizeof *nd);
        f->docs = nd;
    }
    f->docs[f->ndocs++] = root;
}

static void stream(fp *P) {
    size_t cap = 0;
    skip_spaces(P);
    skip_comment(P);
    next_content(P);
    bool first = true;
    while (*P->p) {
        if (at_marker(P, '.')) give_up(P, "document end marker");
        if (at_marker(P, '-')) {
            P->p += 3;
            end_line(P);
            next_content(P);
        } else if (!first) {
            give_up(P, "expected a document start");
        }
        first = false;
        P->nodes = 0;
        if (!*P->p || at_marker(P, '-')) continue;   /* an empty document */
        if (at_marker(P, '.')) give_up(P, "document end marker");
        add_doc(P, block_node(P, -1, 0), &cap);
        if (*P->p && !at_marker(P, '-')) give_up(P, "content after the document");
    }
}

/* terminated: data[len] is 0, so the input is read in place (no copy). */
static int fast_load(const char *name, const char *data, size_t len, uint64_t max_nodes, bool terminated, yfile *out,
                     const char **why) {
    memset(out, 0, sizeof *out);
    bool ascii;
    if (!prescan((const unsigned char *)data, len, &ascii)) {
        if (why) *why = "characters outside the subset";
        return 1;
    }
    /* the state lives on the heap: nothing local changes between setjmp and longjmp */
    fp *const P = xcalloc(1, sizeof *P);
    /* NUL-terminated: 0 is the end (prescan refused NULs) */
    char *const z = terminated ? NULL : xmalloc(len + 1);
    if (z) {
        if (len) memcpy(z, data, len);
        z[len] = 0;
    }
    out->name = arena_strndup(&out->a, name, strlen(name));
    P->p = P->ls = z ? z : data;
    P->line = 1;
    P->ascii = ascii;
    P->f = out;
    P->max_nodes = max_nodes;
    volatile int rc = 1;
    if (setjmp(P->jb) == 0) {
        stream(P);
        rc = 0;
    }
    if (rc) {
        yfile_free(out);
        memset(out, 0, sizeof *out);
        if (why) *why = P->why;
    }
    free(z);
    free(P->stk);
    free(P->buf);
    free(P);
    return rc;
}

int yfast_load(const char *name, const char *data, size_t len, uint64_t max_nodes, yfile *out, const char **why) {
    return fast_load(name, data, len, max_nodes, false, out, why);
}

int yfast_load_z(const char *name, const char *data, size_t len, uint64_t max_nodes, yfile *out, const char **why) {
    return fast_load(name, data, len, max_nodes, true, out, why);
}
