/*
 * cel_parse.c -- lexer and recursive-descent parser for the full CEL grammar
 * (cel-spec CEL.g4 as of cel-go v0.26.0), producing cnode trees. Macros (has,
 * all, exists, exists_one, map, filter, optMap, optFlatMap, sortBy, cel.bind)
 * become dedicated nodes instead of comprehension ASTs.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/cel_internal.h"

#define MAX_PARSE_DEPTH 250
#define MAX_TREE_DEPTH 1000

typedef enum {
    TK_EOF, TK_INT, TK_UINT, TK_DOUBLE, TK_STRING, TK_BYTES, TK_IDENT, TK_TRUE, TK_FALSE, TK_NULL,
    TK_IN, TK_LPAREN, TK_RPAREN, TK_LBRACK, TK_RBRACK, TK_LBRACE, TK_RBRACE, TK_DOT, TK_COMMA,
    TK_COLON, TK_QUEST, TK_NOT, TK_MINUS, TK_PLUS, TK_STAR, TK_SLASH, TK_PERCENT, TK_LT, TK_LE,
    TK_GT, TK_GE, TK_EQ, TK_NE, TK_AND, TK_OR
} tok_kind;

typedef struct token {
    tok_kind k;
    int32_t pos, end;       /* byte offsets */
    const char *s;          /* ident text, or decoded string/bytes literal */
    size_t n;
    int64_t i;
    uint64_t u;
    double d;
    bool neg_ok;            /* numeric literal text that may take a leading '-' */
} token;

typedef struct parser {
    arena *a;
    const char *src;
    size_t len;
    token *toks;
    size_t ntoks, captoks, p;
    strbuf *err;
    bool failed;
    int depth;
    int nslots;
} parser;

void cel_pos_linecol(const char *expr, size_t len, int32_t pos, int *line, int *col) {
    int l = 1, c = 1;
    for (size_t i = 0; i < len && (int32_t)i < pos;) {
        if (expr[i] == '\n') {
            l++;
            c = 1;
            i++;
            continue;
        }
        uint32_t cp;
        i += (size_t)utf8_decode(expr + i, len - i, &cp);
        c++;
    }
    *line = l;
    *col = c;
}

static void perr(parser *ps, int32_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void perr(parser *ps, int32_t pos, const char *fmt, ...) {
    if (ps->failed) return;
    ps->failed = true;
    int line, col;
    cel_pos_linecol(ps->src, ps->len, pos, &line, &col);
    sb_clear(ps->err);
    sb_printf(ps->err, "compilation failed: ERROR: <input>:%d:%d: ", line, col);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(ps->err, fmt, ap);
    va_end(ap);
}

/* ---- lexer ---------------------------------------------------------------------- */

static void push_tok(parser *ps, token t) {
    if (ps->ntoks == ps->captoks) {
        size_t nc = ps->captoks ? ps->captoks * 2 : 64;
        token *nt = arena_alloc(ps->a, nc * sizeof *nt);
        if (ps->ntoks) memcpy(nt, ps->toks, ps->ntoks * sizeof *nt);
        ps->toks = nt;
        ps->captoks = nc;
    }
    ps->toks[ps->ntoks++] = t;
}

static bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
static int hexval(char c) { return is_digit(c) ? c - '0' : (c | 32) - 'a' + 10; }

typedef struct obuf { char *s; size_t n, cap; arena *a; } obuf;
static void ob_put(obuf *o, const char *s, size_t n) {
    if (o->n + n + 1 > o->cap) {
        size_t nc = o->cap ? o->cap * 2 : 64;
        while (nc < o->n + n + 1) nc *= 2;
        char *ns = arena_alloc(o->a, nc);
        if (o->n) memcpy(ns, o->s, o->n);
        o->s = ns;
        o->cap = nc;
    }
    memcpy(o->s + o->n, s, n);
    o->n += n;
    o->s[o->n] = 0;
}

/* Lex a string or bytes literal starting at the quote (index i). Returns the
 * index after the closing quote, or 0 on error. */
static size_t lex_quoted(parser *ps, size_t start, size_t i, bool raw, bool bytes, token *t) {
    const char *s = ps->src;
    size_t n = ps->len;
    char q = s[i];
    bool triple = i + 2 < n && s[i + 1] == q && s[i + 2] == q;
    i += triple ? 3 : 1;
    obuf o = {.a = ps->a};
    ob_put(&o, "", 0);
    for (;;) {
        if (i >= n) {
            perr(ps, (int32_t)start, "Syntax error: token recognition error at: '%.*s'", (int)(n - start > 20 ? 20 : n - start), s + start);
            return 0;
        }
        char c = s[i];
        if (triple) {
            if (c == q && i + 2 < n && s[i + 1] == q && s[i + 2] == q) { i += 3; break; }
        } else {
            if (c == q) { i++; break; }
            if (c == '\n' || c == '\r') {
                perr(ps, (int32_t)start, "Syntax error: token recognition error at: '%.*s'", (int)(i - start), s + start);
                return 0;
            }
        }
        if (c != '\\' || raw) {
            uint32_t cp;
            int l = utf8_decode(s + i, n - i, &cp);
            ob_put(&o, s + i, (size_t)l);
            i += (size_t)l;
            continue;
        }
        /* escape */
        size_t esc = i;
        if (i + 1 >= n) { perr(ps, (int32_t)esc, "Syntax error: token recognition error at: '\\'"); return 0; }
        char e = s[i + 1];
        i += 2;
        char ch;
        switch (e) {
        case 'a': ch = '\a'; goto simple;
        case 'b': ch = '\b'; goto simple;
        case 'f': ch = '\f'; goto simple;
        case 'n': ch = '\n'; goto simple;
        case 'r': ch = '\r'; goto simple;
        case 't': ch = '\t'; goto simple;
        case 'v': ch = '\v'; goto simple;
        case '\\': ch = '\\'; goto simple;
        case '\'': ch = '\''; goto simple;
        case '"': ch = '"'; goto simple;
        case '`': ch = '`'; goto simple;
        case '?': ch = '?'; goto simple;
        simple:
            ob_put(&o, &ch, 1);
            continue;
        default: break;
        }
        uint32_t cp = 0;
        int kind = 0;   /* 1 = byte-valued (octal/hex), 2 = unicode */
        if (e >= '0' && e <= '3') {
            if (i + 2 <= n && s[i] >= '0' && s[i] <= '7' && s[i + 1] >= '0' && s[i + 1] <= '7') {
                cp = (uint32_t)((e - '0') * 64 + (s[i] - '0') * 8 + (s[i + 1] - '0'));
                i += 2;
                kind = 1;
            }
        } else if (e == 'x' || e == 'X') {
            if (i + 2 <= n && is_hex(s[i]) && is_hex(s[i + 1])) {
                cp = (uint32_t)(hexval(s[i]) * 16 + hexval(s[i + 1]));
                i += 2;
                kind = 1;
            }
        } else if (e == 'u' || e == 'U') {
            int nd = e == 'u' ? 4 : 8;
            bool ok = i + (size_t)nd <= n;
            for (int k = 0; ok && k < nd; k++) {
                if (!is_hex(s[i + k])) ok = false;
                else cp = cp * 16 + (uint32_t)hexval(s[i + k]);
            }
            if (ok) {
                i += (size_t)nd;
                kind = 2;
            }
        }
        if (!kind) {
            perr(ps, (int32_t)esc, "Syntax error: token recognition error at: '%.*s'", (int)(i - esc), s + esc);
            return 0;
        }
        if (kind == 2) {
            if (bytes) {
                perr(ps, (int32_t)start, "Syntax error: unable to unescape string: unicode escape in bytes literal");
                return 0;
            }
            if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                perr(ps, (int32_t)start, "Syntax error: invalid unicode code point in escape sequence");
                return 0;
            }
        }
        if (bytes && kind == 1) {
            char b = (char)cp;
            ob_put(&o, &b, 1);
        } else {
            char buf[4];
            int l = utf8_encode(cp, buf);
            ob_put(&o, buf, (size_t)l);
        }
    }
    t->k = bytes ? TK_BYTES : TK_STRING;
    t->s = o.s;
    t->n = o.n;
    return i;
}

static bool lex(parser *ps) {
    const char *s = ps->src;
    size_t n = ps->len, i = 0;
    if (!utf8_valid(s, n)) {
        perr(ps, 0, "Syntax error: invalid UTF-8 in expression");
        return false;
    }
    while (i < n) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') { i++; continue; }
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') i++;
            continue;
        }
        token t = {.pos = (int32_t)i};
        size_t start = i;
        /* string / bytes literals with optional r/b prefixes */
        {
            size_t j = i;
            bool raw = false, bytes = false;
            int npre = 0;
            while (j < n && npre < 2 && (s[j] == 'r' || s[j] == 'R' || s[j] == 'b' || s[j] == 'B')) {
                bool isr = s[j] == 'r' || s[j] == 'R';
                if ((isr && raw) || (!isr && bytes)) break;
                if (isr) raw = true; else bytes = true;
                j++;
                npre++;
            }
            if (j < n && (s[j] == '\'' || s[j] == '"')) {
                size_t e = lex_quoted(ps, start, j, raw, bytes, &t);
                if (!e) return false;
                t.end = (int32_t)e;
                push_tok(ps, t);
                i = e;
                continue;
            }
        }
        if (is_ident_start(c)) {
            size_t j = i + 1;
            while (j < n && (is_ident_start(s[j]) || is_digit(s[j]))) j++;
            size_t l = j - i;
            t.k = TK_IDENT;
            if (l == 4 && !memcmp(s + i, "true", 4)) t.k = TK_TRUE;
            else if (l == 5 && !memcmp(s + i, "false", 5)) t.k = TK_FALSE;
            else if (l == 4 && !memcmp(s + i, "null", 4)) t.k = TK_NULL;
            else if (l == 2 && !memcmp(s + i, "in", 2)) t.k = TK_IN;
            t.s = arena_strndup(ps->a, s + i, l);
            t.n = l;
            t.end = (int32_t)j;
            push_tok(ps, t);
            i = j;
            continue;
        }
        if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(s[i + 1]))) {
            size_t j = i;
            bool is_float = false;
            if (c == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X') && i + 2 < n && is_hex(s[i + 2])) {
                j = i + 2;
                while (j < n && is_hex(s[j])) j++;
                uint64_t v = 0;
                bool ovf = false;
                for (size_t k = i + 2; k < j; k++) {
                    if (v > (UINT64_MAX >> 4)) ovf = true;
                    v = v * 16 + (uint64_t)hexval(s[k]);
                }
                if (j < n && (s[j] == 'u' || s[j] == 'U')) {
                    if (ovf) { perr(ps, t.pos, "invalid uint literal"); return false; }
                    t.k = TK_UINT;
                    t.u = v;
                    j++;
                } else {
                    t.k = TK_INT;
                    t.u = v;     /* magnitude; sign applied by the parser */
                    t.neg_ok = true;
                    if (ovf) t.u = UINT64_MAX;
                }
                t.end = (int32_t)j;
                push_tok(ps, t);
                i = j;
                continue;
            }
            while (j < n && is_digit(s[j])) j++;
            if (j < n && s[j] == '.' && j + 1 < n && is_digit(s[j + 1])) {
                is_float = true;
                j++;
                while (j < n && is_digit(s[j])) j++;
            }
            if (j < n && (s[j] == 'e' || s[j] == 'E')) {
                size_t k = j + 1;
                if (k < n && (s[k] == '+' || s[k] == '-')) k++;
                if (k < n && is_digit(s[k])) {
                    is_float = true;
                    j = k;
                    while (j < n && is_digit(s[j])) j++;
                }
            }
            if (is_float) {
                char *txt = arena_strndup(ps->a, s + i, j - i);
                errno = 0;
                double d = strtod(txt, NULL);
                if (errno == ERANGE && isinf(d)) { perr(ps, t.pos, "invalid double literal"); return false; }
                t.k = TK_DOUBLE;
                t.d = d;
                t.neg_ok = true;
            } else {
                uint64_t v = 0;
                bool ovf = false;
                for (size_t k = i; k < j; k++) {
                    unsigned dg = (unsigned)(s[k] - '0');
                    if (v > (UINT64_MAX - dg) / 10) ovf = true;
                    v = v * 10 + dg;
                }
                if (j < n && (s[j] == 'u' || s[j] == 'U')) {
                    if (ovf) { perr(ps, t.pos, "invalid uint literal"); return false; }
                    t.k = TK_UINT;
                    t.u = v;
                    j++;
                } else {
                    t.k = TK_INT;
                    t.u = ovf ? UINT64_MAX : v;
                    t.neg_ok = true;
                }
            }
            t.end = (int32_t)j;
            push_tok(ps, t);
            i = j;
            continue;
        }
        tok_kind k;
        size_t l = 1;
        char d = i + 1 < n ? s[i + 1] : 0;
        switch (c) {
        case '(': k = TK_LPAREN; break;
        case ')': k = TK_RPAREN; break;
        case '[': k = TK_LBRACK; break;
        case ']': k = TK_RBRACK; break;
        case '{': k = TK_LBRACE; break;
        case '}': k = TK_RBRACE; break;
        case '.': k = TK_DOT; break;
        case ',': k = TK_COMMA; break;
        case ':': k = TK_COLON; break;
        case '?': k = TK_QUEST; break;
        case '-': k = TK_MINUS; break;
        case '+': k = TK_PLUS; break;
        case '*': k = TK_STAR; break;
        case '/': k = TK_SLASH; break;
        case '%': k = TK_PERCENT; break;
        case '!': if (d == '=') { k = TK_NE; l = 2; } else k = TK_NOT; break;
        case '<': if (d == '=') { k = TK_LE; l = 2; } else k = TK_LT; break;
        case '>': if (d == '=') { k = TK_GE; l = 2; } else k = TK_GT; break;
        case '=': if (d == '=') { k = TK_EQ; l = 2; break; } goto bad;
        case '&': if (d == '&') { k = TK_AND; l = 2; break; } goto bad;
        case '|': if (d == '|') { k = TK_OR; l = 2; break; } goto bad;
        default:
        bad: {
            uint32_t cp;
            int cl = utf8_decode(s + i, n - i, &cp);
            perr(ps, t.pos, "Syntax error: token recognition error at: '%.*s'", cl, s + i);
            return false;
        }
        }
        t.k = k;
        t.end = (int32_t)(i + l);
        push_tok(ps, t);
        i += l;
    }
    token e = {.k = TK_EOF, .pos = (int32_t)n, .end = (int32_t)n};
    push_tok(ps, e);
    return true;
}

/* ---- parser ---------------------------------------------------------------------- */

cnode *cel_node(arena *a, node_op op, int32_t pos, int nargs) {
    cnode *nd = arena_alloc(a, sizeof *nd);
    nd->op = (uint8_t)op;
    nd->pos = pos;
    nd->nargs = (uint8_t)nargs;
    nd->slot = nd->slot2 = -1;
    if (nargs) nd->args = arena_alloc(a, sizeof(cnode *) * (size_t)nargs);
    return nd;
}

static token *peek(parser *ps) { return &ps->toks[ps->p]; }
static token *peek2(parser *ps) { return &ps->toks[ps->p + 1 < ps->ntoks ? ps->p + 1 : ps->p]; }
static token *next(parser *ps) {
    token *t = &ps->toks[ps->p];
    if (t->k != TK_EOF) ps->p++;
    return t;
}
static bool accept(parser *ps, tok_kind k) {
    if (peek(ps)->k == k) { next(ps); return true; }
    return false;
}

static const char *tok_text(parser *ps, token *t, char *buf, size_t bn) {
    if (t->k == TK_EOF) return "<EOF>";
    size_t l = (size_t)(t->end - t->pos);
    if (l >= bn) l = bn - 1;
    memcpy(buf, ps->src + t->pos, l);
    buf[l] = 0;
    return buf;
}

static void unexpected(parser *ps, token *t, const char *want) {
    char buf[64];
    if (t->k == TK_EOF)
        perr(ps, t->pos, "Syntax error: mismatched input '<EOF>' expecting %s", want);
    else
        perr(ps, t->pos, "Syntax error: mismatched input '%s' expecting %s", tok_text(ps, t, buf, sizeof buf), want);
}

static bool expect(parser *ps, tok_kind k, const char *what) {
    if (accept(ps, k)) return true;
    unexpected(ps, peek(ps), what);
    return false;
}

static cnode *parse_expr(parser *ps);

static cnode *mk_call(parser *ps, const char *name, int32_t pos, int nargs, bool receiver) {
    cnode *nd = cel_node(ps->a, N_CALL, pos, nargs);
    nd->name = name;
    if (receiver) nd->flags |= NF_RECEIVER;
    return nd;
}

static cnode *mk_const(parser *ps, cel_val v, int32_t pos) {
    cnode *nd = cel_node(ps->a, N_CONST, pos, 0);
    nd->cv = v;
    return nd;
}

static const char *const reserved[] = {"as", "break", "const", "continue", "else", "for", "function", "if",
                                       "import", "let", "loop", "package", "namespace", "return", "var",
                                       "void", "while", NULL};
static bool is_reserved(const char *s) {
    for (int i = 0; reserved[i]; i++)
        if (!strcmp(s, reserved[i])) return true;
    return false;
}

/* Parse a comma-separated argument list after '('; consumes ')'. */
static int parse_args(parser *ps, cnode ***out) {
    cnode *tmp[64];
    cnode **list = tmp;
    int n = 0, cap = 64;
    if (!accept(ps, TK_RPAREN)) {
        for (;;) {
            cnode *e = parse_expr(ps);
            if (!e) return -1;
            if (n == cap) {
                cnode **nl = arena_alloc(ps->a, sizeof *nl * (size_t)cap * 2);
                memcpy(nl, list, sizeof *nl * (size_t)n);
                list = nl;
                cap *= 2;
            }
            list[n++] = e;
            if (accept(ps, TK_COMMA)) continue;
            if (!expect(ps, TK_RPAREN, "{',', ')'}")) return -1;
            break;
        }
    }
    *out = arena_alloc(ps->a, sizeof(cnode *) * (size_t)(n ? n : 1));
    if (n) memcpy(*out, list, sizeof(cnode *) * (size_t)n);
    return n;
}

static bool simple_ident(const cnode *nd) { return nd->op == N_IDENT; }

/* Build a macro or a call node. target may be NULL (global call). */
static cnode *make_call(parser *ps, cnode *target, const char *name, int32_t pos, cnode **args, int n) {
    if (n > 200) {
        perr(ps, pos, "too many arguments in call to '%s'", name);
        return NULL;
    }
    if (!target) {
        if (!strcmp(name, "has") && n == 1) {
            cnode *a = args[0];
            if (a->op != N_SELECT || (a->flags & NF_OPTIONAL)) {
                perr(ps, a->pos, "invalid argument to has() macro");
                return NULL;
            }
            cnode *h = cel_node(ps->a, N_HAS, pos, 1);
            h->args[0] = a->args[0];
            h->name = a->name;
            return h;
        }
    } else {
        int comp = -1;
        if (n == 2 && !strcmp(name, "all")) comp = COMP_ALL;
        else if (n == 2 && !strcmp(name, "exists")) comp = COMP_EXISTS;
        else if (n == 2 && !strcmp(name, "exists_one")) comp = COMP_EXISTS_ONE;
        else if (n == 2 && !strcmp(name, "map")) comp = COMP_MAP;
        else if (n == 3 && !strcmp(name, "map")) comp = COMP_MAP_FILTER;
        else if (n == 2 && !strcmp(name, "filter")) comp = COMP_FILTER;
        else if (n == 2 && !strcmp(name, "sortBy")) comp = COMP_SORTBY;
        if (comp >= 0) {
            if (!simple_ident(args[0])) {
                perr(ps, args[0]->pos, "argument must be a simple name");
                return NULL;
            }
            cnode *c = cel_node(ps->a, N_COMP, pos, n);
            c->sub = (uint8_t)comp;
            c->args[0] = target;
            c->name = args[0]->name;
            c->slot = ps->nslots++;
            if (comp == COMP_MAP_FILTER) {
                c->args[1] = args[1];  /* filter */
                c->args[2] = args[2];  /* transform */
            } else {
                c->args[1] = args[1];
                c->nargs = 2;
            }
            return c;
        }
        int comp2 = -1;
        if (n == 3 && !strcmp(name, "all")) comp2 = COMP2_ALL;
        else if (n == 3 && !strcmp(name, "exists")) comp2 = COMP2_EXISTS;
        else if (n == 3 && (!strcmp(name, "existsOne") || !strcmp(name, "exists_one"))) comp2 = COMP2_EXISTS_ONE;
        else if ((n == 3 || n == 4) && !strcmp(name, "transformList")) comp2 = COMP2_TLIST;
        else if ((n == 3 || n == 4) && !strcmp(name, "transformMap")) comp2 = COMP2_TMAP;
        else if ((n == 3 || n == 4) && !strcmp(name, "transformMapEntry")) comp2 = COMP2_TMAPENTRY;
        if (comp2 >= 0) {
            if (!simple_ident(args[0]) || !simple_ident(args[1])) {
                perr(ps, args[simple_ident(args[0]) ? 1 : 0]->pos, "argument must be a simple name");
                return NULL;
            }
            if (!strcmp(args[0]->name, args[1]->name)) {
                perr(ps, args[1]->pos, "overlapping declaration name '%s' (value name must be different from key name)", args[1]->name);
                return NULL;
            }
            cnode *c = cel_node(ps->a, N_COMP2, pos, n - 1);
            c->sub = (uint8_t)comp2;
            c->args[0] = target;
            c->name = args[0]->name;
            c->name2 = args[1]->name;
            c->slot = ps->nslots++;
            c->slot2 = ps->nslots++;
            for (int i = 2; i < n; i++) c->args[i - 1] = args[i];
            return c;
        }
        if (n == 2 && (!strcmp(name, "optMap") || !strcmp(name, "optFlatMap"))) {
            if (!simple_ident(args[0])) {
                perr(ps, args[0]->pos, "%s() variable name must be a simple identifier", name);
                return NULL;
            }
            cnode *c = cel_node(ps->a, name[3] == 'M' ? N_OPTMAP : N_OPTFLATMAP, pos, 2);
            c->args[0] = target;
            c->args[1] = args[1];
            c->name = args[0]->name;
            c->slot = ps->nslots++;
            return c;
        }
        if (n == 3 && !strcmp(name, "bind") && target->op == N_IDENT && !strcmp(target->name, "cel")) {
            if (!simple_ident(args[0])) {
                perr(ps, args[0]->pos, "cel.bind() variable names must be simple identifiers");
                return NULL;
            }
            cnode *c = cel_node(ps->a, N_BIND, pos, 2);
            c->args[0] = args[1];
            c->args[1] = args[2];
            c->name = args[0]->name;
            c->slot = ps->nslots++;
            return c;
        }
    }
    cnode *c = mk_call(ps, name, pos, n + (target ? 1 : 0), target != NULL);
    int o = 0;
    if (target) c->args[o++] = target;
    for (int i = 0; i < n; i++) c->args[o++] = args[i];
    return c;
}

static cnode *parse_primary(parser *ps) {
    token *t = peek(ps);
    switch (t->k) {
    case TK_INT: {
        next(ps);
        if (t->u > (uint64_t)INT64_MAX) { perr(ps, t->pos, "invalid int literal"); return NULL; }
        return mk_const(ps, cv_int((int64_t)t->u), t->pos);
    }
    case TK_UINT: next(ps); return mk_const(ps, cv_uint(t->u), t->pos);
    case TK_DOUBLE: next(ps); return mk_const(ps, cv_double(t->d), t->pos);
    case TK_STRING: next(ps); return mk_const(ps, cv_str(t->s, t->n), t->pos);
    case TK_BYTES: next(ps); return mk_const(ps, cv_bytes(t->s, t->n), t->pos);
    case TK_TRUE: next(ps); return mk_const(ps, cv_bool(true), t->pos);
    case TK_FALSE: next(ps); return mk_const(ps, cv_bool(false), t->pos);
    case TK_NULL: next(ps); return mk_const(ps, CV_MK(CV_NULL), t->pos);
    case TK_LPAREN: {
        next(ps);
        cnode *e = parse_expr(ps);
        if (!e || !expect(ps, TK_RPAREN, "')'")) return NULL;
        return e;
    }
    case TK_LBRACK: {
        next(ps);
        cnode *tmp[32];
        uint8_t otmp[32];
        cnode **el = tmp;
        uint8_t *oe = otmp;
        int n = 0, cap = 32;
        bool anyopt = false;
        while (peek(ps)->k != TK_RBRACK) {
            bool opt = accept(ps, TK_QUEST);
            cnode *e = parse_expr(ps);
            if (!e) return NULL;
            if (n == cap) {
                cnode **ne = arena_alloc(ps->a, sizeof *ne * (size_t)cap * 2);
                uint8_t *no = arena_alloc(ps->a, (size_t)cap * 2);
                memcpy(ne, el, sizeof *ne * (size_t)n);
                memcpy(no, oe, (size_t)n);
                el = ne;
                oe = no;
                cap *= 2;
            }
            oe[n] = opt;
            anyopt |= opt;
            el[n++] = e;
            if (!accept(ps, TK_COMMA)) break;
        }
        if (!expect(ps, TK_RBRACK, "']'")) return NULL;
        cnode *l = cel_node(ps->a, N_LIST, t->pos, 0);   /* element count in cv.n */
        l->args = arena_alloc(ps->a, sizeof(cnode *) * (size_t)(n ? n : 1));
        memcpy(l->args, el, sizeof(cnode *) * (size_t)n);
        l->cv.n = (uint32_t)n;
        if (anyopt) {
            l->optel = arena_alloc(ps->a, (size_t)n);
            memcpy(l->optel, oe, (size_t)n);
        }
        return l;
    }
    case TK_LBRACE: {
        next(ps);
        cnode **el = NULL;
        uint8_t *oe = NULL;
        int n = 0, cap = 0;
        bool anyopt = false;
        while (peek(ps)->k != TK_RBRACE) {
            bool opt = accept(ps, TK_QUEST);
            cnode *k = parse_expr(ps);
            if (!k || !expect(ps, TK_COLON, "':'")) return NULL;
            cnode *v = parse_expr(ps);
            if (!v) return NULL;
            if (2 * n + 2 > cap) {
                int nc = cap ? cap * 2 : 16;
                cnode **ne = arena_alloc(ps->a, sizeof *ne * (size_t)nc);
                uint8_t *no = arena_alloc(ps->a, (size_t)nc);
                if (n) {
                    memcpy(ne, el, sizeof *ne * (size_t)(2 * n));
                    memcpy(no, oe, (size_t)n);
                }
                el = ne;
                oe = no;
                cap = nc;
            }
            el[2 * n] = k;
            el[2 * n + 1] = v;
            oe[n] = opt;
            anyopt |= opt;
            n++;
            if (!accept(ps, TK_COMMA)) break;
        }
        if (!expect(ps, TK_RBRACE, "'}'")) return NULL;
        cnode *m = cel_node(ps->a, N_MAP, t->pos, 0);
        m->args = el;
        m->cv.n = (uint32_t)n;
        if (anyopt) m->optel = oe;
        return m;
    }
    case TK_DOT:
    case TK_IDENT: {
        if (t->k == TK_DOT) {   /* leading dot: root namespace, same names here */
            next(ps);
            t = peek(ps);
            if (t->k != TK_IDENT) { unexpected(ps, t, "IDENTIFIER"); return NULL; }
        }
        next(ps);
        if (is_reserved(t->s)) {
            perr(ps, t->pos, "reserved identifier: %s", t->s);
            return NULL;
        }
        if (peek(ps)->k == TK_LPAREN) {
            next(ps);
            cnode **args;
            int n = parse_args(ps, &args);
            if (n < 0) return NULL;
            return make_call(ps, NULL, t->s, t->pos, args, n);
        }
        /* message construction: IDENT ('.' IDENT)* '{' */
        size_t save = ps->p;
        while (peek(ps)->k == TK_DOT && peek2(ps)->k == TK_IDENT) { next(ps); next(ps); }
        if (peek(ps)->k == TK_LBRACE) {
            next(ps);
            /* parse and discard the field initializers, then fail at check time */
            while (peek(ps)->k != TK_RBRACE) {
                accept(ps, TK_QUEST);
                if (!expect(ps, TK_IDENT, "IDENTIFIER")) return NULL;
                if (!expect(ps, TK_COLON, "':'")) return NULL;
                if (!parse_expr(ps)) return NULL;
                if (!accept(ps, TK_COMMA)) break;
            }
            if (!expect(ps, TK_RBRACE, "'}'")) return NULL;
            cnode *m = cel_node(ps->a, N_MSG, t->pos, 0);
            m->name = t->s;
            return m;
        }
        ps->p = save;
        cnode *id = cel_node(ps->a, N_IDENT, t->pos, 0);
        id->name = t->s;
        return id;
    }
    default:
        unexpected(ps, t, "an expression");
        return NULL;
    }
}

static cnode *parse_suffixes(parser *ps, cnode *e) {
    while (e) {
        token *t = peek(ps);
        if (t->k == TK_DOT) {
            next(ps);
            bool opt = accept(ps, TK_QUEST);
            token *id = peek(ps);
            if (id->k != TK_IDENT) { unexpected(ps, id, "IDENTIFIER"); return NULL; }
            next(ps);
            if (!opt && peek(ps)->k == TK_LPAREN) {
                next(ps);
                cnode **args;
                int n = parse_args(ps, &args);
                if (n < 0) return NULL;
                e = make_call(ps, e, id->s, id->pos, args, n);
                continue;
            }
            cnode *s = cel_node(ps->a, N_SELECT, id->pos, 1);
            s->args[0] = e;
            s->name = id->s;
            if (opt) s->flags |= NF_OPTIONAL;
            e = s;
        } else if (t->k == TK_LBRACK) {
            next(ps);
            bool opt = accept(ps, TK_QUEST);
            cnode *ix = parse_expr(ps);
            if (!ix || !expect(ps, TK_RBRACK, "']'")) return NULL;
            cnode *s = cel_node(ps->a, N_INDEX, t->pos, 2);
            s->args[0] = e;
            s->args[1] = ix;
            if (opt) s->flags |= NF_OPTIONAL;
            e = s;
        } else {
            break;
        }
    }
    return e;
}

static cnode *parse_member(parser *ps) { return parse_suffixes(ps, parse_primary(ps)); }

static cnode *parse_unary(parser *ps) {
    token *t = peek(ps);
    if (t->k == TK_MINUS) {
        int n = 0;
        int32_t pos = t->pos;
        while (peek(ps)->k == TK_MINUS) { next(ps); n++; }
        token *lit = peek(ps);
        if (n == 1 && lit->neg_ok) {
            /* a negative numeric literal (the grammar's `sign=MINUS? NUM`) */
            next(ps);
            cnode *c;
            if (lit->k == TK_INT) {
                if (lit->u > (uint64_t)INT64_MAX + 1) { perr(ps, pos, "invalid int literal"); return NULL; }
                c = mk_const(ps, cv_int((int64_t)(0 - lit->u)), pos);
            } else {
                c = mk_const(ps, cv_double(-lit->d), pos);
            }
            return parse_suffixes(ps, c);
        }
        cnode *m = parse_member(ps);
        if (!m) return NULL;
        if (n % 2 == 0) return m;
        cnode *c = mk_call(ps, "-_", pos, 1, false);
        c->args[0] = m;
        return c;
    }
    if (t->k == TK_NOT) {
        int n = 0;
        int32_t pos = t->pos;
        while (peek(ps)->k == TK_NOT) { next(ps); n++; }
        cnode *m = parse_member(ps);
        if (!m) return NULL;
        if (n % 2 == 0) return m;
        cnode *c = mk_call(ps, "!_", pos, 1, false);
        c->args[0] = m;
        return c;
    }
    return parse_member(ps);
}

static cnode *binary(parser *ps, const char *fn, int32_t pos, cnode *l, cnode *r) {
    cnode *c = mk_call(ps, fn, pos, 2, false);
    c->args[0] = l;
    c->args[1] = r;
    return c;
}

static cnode *parse_mul(parser *ps) {
    cnode *l = parse_unary(ps);
    while (l) {
        token *t = peek(ps);
        const char *fn = t->k == TK_STAR ? "_*_" : t->k == TK_SLASH ? "_/_" : t->k == TK_PERCENT ? "_%_" : NULL;
        if (!fn) break;
        next(ps);
        cnode *r = parse_unary(ps);
        if (!r) return NULL;
        l = binary(ps, fn, t->pos, l, r);
    }
    return l;
}

static cnode *parse_add(parser *ps) {
    cnode *l = parse_mul(ps);
    while (l) {
        token *t = peek(ps);
        const char *fn = t->k == TK_PLUS ? "_+_" : t->k == TK_MINUS ? "_-_" : NULL;
        if (!fn) break;
        next(ps);
        cnode *r = parse_mul(ps);
        if (!r) return NULL;
        l = binary(ps, fn, t->pos, l, r);
    }
    return l;
}

static cnode *parse_rel(parser *ps) {
    cnode *l = parse_add(ps);
    while (l) {
        token *t = peek(ps);
        const char *fn = NULL;
        switch (t->k) {
        case TK_LT: fn = "_<_"; break;
        case TK_LE: fn = "_<=_"; break;
        case TK_GT: fn = "_>_"; break;
        case TK_GE: fn = "_>=_"; break;
        case TK_EQ: fn = "_==_"; break;
        case TK_NE: fn = "_!=_"; break;
        case TK_IN: fn = "@in"; break;
        default: break;
        }
        if (!fn) break;
        next(ps);
        cnode *r = parse_add(ps);
        if (!r) return NULL;
        l = binary(ps, fn, t->pos, l, r);
    }
    return l;
}

/* && and || chains become balanced trees, as cel-go builds them. */
static cnode *balance(parser *ps, node_op op, cnode **terms, int32_t *ops, int lo, int hi) {
    if (lo == hi) return terms[lo];
    int mid = (lo + hi + 1) / 2;
    cnode *n = cel_node(ps->a, op, ops[mid - 1], 2);
    n->args[0] = balance(ps, op, terms, ops, lo, mid - 1);
    n->args[1] = balance(ps, op, terms, ops, mid, hi);
    return n;
}

static cnode *parse_chain(parser *ps, tok_kind tk, node_op op, cnode *(*sub)(parser *)) {
    cnode *first = sub(ps);
    if (!first || peek(ps)->k != tk) return first;
    size_t cap = 16, n = 1;
    cnode **terms = arena_alloc(ps->a, sizeof *terms * cap);
    int32_t *ops = arena_alloc(ps->a, sizeof *ops * cap);
    terms[0] = first;
    while (peek(ps)->k == tk) {
        token *t = next(ps);
        cnode *r = sub(ps);
        if (!r) return NULL;
        if (n == cap) {
            cnode **nt = arena_alloc(ps->a, sizeof *nt * cap * 2);
            int32_t *no = arena_alloc(ps->a, sizeof *no * cap * 2);
            memcpy(nt, terms, sizeof *nt * n);
            memcpy(no, ops, sizeof *no * n);
            terms = nt;
            ops = no;
            cap *= 2;
        }
        ops[n - 1] = t->pos;
        terms[n++] = r;
    }
    return balance(ps, op, terms, ops, 0, (int)n - 1);
}

static cnode *parse_and(parser *ps) { return parse_chain(ps, TK_AND, N_AND, parse_rel); }
static cnode *parse_or(parser *ps) { return parse_chain(ps, TK_OR, N_OR, parse_and); }

static cnode *parse_expr(parser *ps) {
    if (++ps->depth > MAX_PARSE_DEPTH) {
        perr(ps, peek(ps)->pos, "expression recursion limit exceeded: %d", MAX_PARSE_DEPTH);
        return NULL;
    }
    cnode *c = parse_or(ps);
    if (c && peek(ps)->k == TK_QUEST) {
        token *q = next(ps);
        cnode *a = parse_or(ps);
        if (!a || !expect(ps, TK_COLON, "':'")) { ps->depth--; return NULL; }
        cnode *b = parse_expr(ps);
        if (!b) { ps->depth--; return NULL; }
        cnode *t = cel_node(ps->a, N_COND, q->pos, 3);
        t->args[0] = c;
        t->args[1] = a;
        t->args[2] = b;
        c = t;
    }
    ps->depth--;
    return c;
}

static int nkids(const cnode *n) {
    if (n->op == N_LIST) return (int)n->cv.n;
    if (n->op == N_MAP) return (int)n->cv.n * 2;
    return n->nargs;
}

/* Depth check without unbounded recursion. */
static bool depth_ok(const cnode *n, int d) {
    if (d > MAX_TREE_DEPTH) return false;
    int k = nkids(n);
    for (int i = 0; i < k; i++)
        if (!depth_ok(n->args[i], d + 1)) return false;
    return true;
}

cnode *cel_parse(arena *a, const char *expr, size_t len, strbuf *err, int *nslots) {
    parser ps = {.a = a, .src = expr, .len = len, .err = err};
    if (!lex(&ps)) return NULL;
    cnode *root = parse_expr(&ps);
    if (root && peek(&ps)->k != TK_EOF) {
        char buf[64];
        perr(&ps, peek(&ps)->pos, "Syntax error: extraneous input '%s' expecting <EOF>", tok_text(&ps, peek(&ps), buf, sizeof buf));
        root = NULL;
    }
    if (ps.failed) return NULL;
    if (root && !depth_ok(root, 0)) {
        perr(&ps, 0, "expression recursion limit exceeded: %d", MAX_TREE_DEPTH);
        return NULL;
    }
    *nslots = ps.nslots;
    return root;
}
