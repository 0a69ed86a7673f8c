/*
 * yaml_tree.c -- libyaml event stream -> ynode trees; checked accessors;
 * builder and block-style dumper.
 */
#include "model/yaml_tree.h"
#include "model/yaml_fast.h"
#include "model/yaml_scalar.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util/fileio.h"
#include "util/intern.h"
#include "util/interrupt.h"
#include "util/xalloc.h"

#define YAML_MAX_DEPTH 200
#define YAML_MAX_EXPANDED 10000000u   /* nodes reachable through aliases, per document */

/* ---- tree building helpers ------------------------------------------------- */

static ynode *new_node(arena *a, ynode_kind k, const char *file, int line, int col) {
    ynode *n = ARENA_NEW(a, ynode, 1);
    n->kind = k;
    n->file = file;
    n->line = line;
    n->col = col;
    return n;
}

/* Grow a node's child arrays inside the arena (old blocks are simply left). */
static void add_child(arena *a, ynode *parent, ynode *key, ynode *val) {
    if (parent->n == parent->cap) {
        size_t nc = parent->cap ? parent->cap * 2 : 4;
        ynode **nv = ARENA_NEW(a, ynode *, nc);
        if (parent->n) memcpy(nv, parent->vals, parent->n * sizeof *nv);
        parent->vals = nv;
        if (parent->kind == YN_MAP) {
            ynode **nk = ARENA_NEW(a, ynode *, nc);
            if (parent->n) memcpy(nk, parent->keys, parent->n * sizeof *nk);
            parent->keys = nk;
        }
        parent->cap = nc;
    }
    if (parent->kind == YN_MAP) parent->keys[parent->n] = key;
    parent->vals[parent->n++] = val;
}

/* ---- loading ---------------------------------------------------------------- */

typedef struct anchor { const char *name; ynode *node; uint64_t weight; } anchor;

typedef struct loader {
    yaml_parser_t parser;
    yfile *f;
    strbuf *err;
    anchor *anchors;
    size_t nanchors, capanchors;
    const unsigned char *input;   /* the raw bytes, for positions of encoding errors */
    size_t input_len;
    uint64_t nevents;             /* events so far: Ctrl-C is polled every 64Ki */
    bool saw_alias;               /* an alias was met (the size cap's message says so) */
    uint64_t max_nodes;           /* per document, aliases counted fully (YAML_MAX_EXPANDED) */
} loader;

static void errat(loader *L, yaml_mark_t m, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void errat(loader *L, yaml_mark_t m, const char *fmt, ...) {
    va_list ap;
    sb_clear(L->err);
    sb_printf(L->err, "%s:%zu:%zu: ", L->f->name, m.line + 1, m.column + 1);
    va_start(ap, fmt);
    sb_vprintf(L->err, fmt, ap);
    va_end(ap);
}

/* The mark (0-based line and column, in characters) of byte `offset` of the
 * UTF-8 input, counting line breaks as libyaml does (CRLF, CR, LF, NEL, LS,
 * PS). libyaml reports encoding errors with a byte offset only. */
static yaml_mark_t mark_at_offset(const unsigned char *s, size_t len, size_t offset) {
    yaml_mark_t m = {0};
    if (offset > len) offset = len;
    for (size_t i = 0; i < offset; i++) {
        unsigned char c = s[i];
        bool brk = c == '\n' || (c == '\r' && !(i + 1 < len && s[i + 1] == '\n')) ||
                   (c == 0xC2 && i + 1 < len && s[i + 1] == 0x85) ||
                   (c == 0xE2 && i + 2 < len && s[i + 1] == 0x80 && (s[i + 2] == 0xA8 || s[i + 2] == 0xA9));
        if (brk) { m.line++; m.column = 0; }
        else if ((c & 0xC0) != 0x80 && c != '\r') m.column++;
    }
    m.index = offset;
    return m;
}

static int next_event(loader *L, yaml_event_t *ev) {
    if (!yaml_parser_parse(&L->parser, ev)) {
        yaml_mark_t m = L->parser.problem_mark;
        if (L->parser.error == YAML_READER_ERROR) {   /* encoding: only an offset is known */
            m = mark_at_offset(L->input, L->input_len, L->parser.problem_offset);
            if (L->parser.problem_value >= 0)
                errat(L, m, "invalid YAML: %s (byte 0x%02x at offset %zu)", L->parser.problem,
                      (unsigned)L->parser.problem_value & 0xffu, L->parser.problem_offset);
            else
                errat(L, m, "invalid YAML: %s (at offset %zu)", L->parser.problem, L->parser.problem_offset);
        } else if (L->parser.problem)
            errat(L, m, "invalid YAML: %s%s%s", L->parser.problem,
                  L->parser.context ? " " : "", L->parser.context ? L->parser.context : "");
        else
            errat(L, m, "invalid YAML");
        return -1;
    }
    /* a 100 MB file is seconds of events: Ctrl-C is honoured here (util/interrupt.h) */
    if ((++L->nevents & 0xFFFF) == 0 && interrupt_pending()) {
        yaml_mark_t at = ev->start_mark;
        yaml_event_delete(ev);
        errat(L, at, "interrupted");
        return -1;
    }
    return 0;
}

static void remember_anchor(loader *L, const yaml_char_t *name, ynode *n, uint64_t weight) {
    if (!name) return;
    if (L->nanchors == L->capanchors) {
        L->capanchors = L->capanchors ? L->capanchors * 2 : 8;
        L->anchors = xrealloc(L->anchors, L->capanchors * sizeof *L->anchors);
    }
    L->anchors[L->nanchors++] = (anchor){arena_strndup(&L->f->a, (const char *)name, strlen((const char *)name)), n, weight};
}

/* Duplicate-key detection in linear time: an open-addressing hash set of the
 * scalar keys' indices in the map being parsed (the map's own arrays keep the
 * file's order, so iteration stays deterministic). Small maps scan instead. */
#define KEYSET_MIN 16

typedef struct keyset { uint32_t *slot; size_t cap; } keyset;   /* slot: index + 1, 0 = empty */

static uint64_t key_hash(const ynode *k) {
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
    for (size_t i = 0; i < k->len; i++) h = (h ^ (unsigned char)k->str[i]) * 1099511628211ull;
    return h;
}

static bool key_eq(const ynode *a, const ynode *b) {
    return a->kind == YN_SCALAR && a->len == b->len && memcmp(a->str, b->str, b->len) == 0;
}

static void keyset_put(keyset *ks, const ynode *m, size_t idx) {
    size_t mask = ks->cap - 1;
    for (size_t j = (size_t)key_hash(m->keys[idx]) & mask;; j = (j + 1) & mask)
        if (!ks->slot[j]) { ks->slot[j] = (uint32_t)idx + 1; return; }
}

/* Keep the set's load under one half, (re)building it from the map's keys. */
static void keyset_fit(keyset *ks, const ynode *m) {
    if (m->n < KEYSET_MIN || (m->n + 1) * 2 <= ks->cap) return;
    size_t cap = ks->cap ? ks->cap : 64;
    while ((m->n + 1) * 2 > cap) cap *= 2;
    free(ks->slot);
    ks->slot = xcalloc(cap, sizeof *ks->slot);
    ks->cap = cap;
    for (size_t i = 0; i < m->n; i++)
        if (m->keys[i]->kind == YN_SCALAR) keyset_put(ks, m, i);
}

/* Does map `m` already have a scalar key equal to k? */
static bool has_key(keyset *ks, const ynode *m, const ynode *k) {
    if (k->kind != YN_SCALAR) return false;
    keyset_fit(ks, m);
    if (!ks->cap) {
        for (size_t i = 0; i < m->n; i++)
            if (key_eq(m->keys[i], k)) return true;
        return false;
    }
    size_t mask = ks->cap - 1;
    for (size_t j = (size_t)key_hash(k) & mask; ks->slot[j]; j = (j + 1) & mask)
        if (key_eq(m->keys[ks->slot[j] - 1], k)) return true;
    return false;
}

/* Parse one node whose first event is `ev` (consumed). *weight receives the
 * number of nodes it expands to, counting aliases fully. */
static ynode *parse_node(loader *L, yaml_event_t *ev, int depth, uint64_t *weight) {
    yaml_mark_t m = ev->start_mark;
    int line = (int)m.line + 1, col = (int)m.column + 1;
    if (depth > YAML_MAX_DEPTH) {
        errat(L, m, "YAML nested deeper than %d levels", YAML_MAX_DEPTH);
        yaml_event_delete(ev);
        return NULL;
    }
    switch (ev->type) {
    case YAML_ALIAS_EVENT: {
        const char *name = (const char *)ev->data.alias.anchor;
        L->saw_alias = true;
        for (size_t i = L->nanchors; i-- > 0;) {
            if (strcmp(L->anchors[i].name, name) == 0) {
                *weight = L->anchors[i].weight;
                yaml_event_delete(ev);
                return L->anchors[i].node;
            }
        }
        errat(L, m, "unknown alias *%s", name);
        yaml_event_delete(ev);
        return NULL;
    }
    case YAML_SCALAR_EVENT: {
        ynode *n = new_node(&L->f->a, YN_SCALAR, L->f->name, line, col);
        n->str = arena_strndup(&L->f->a, (const char *)ev->data.scalar.value, ev->data.scalar.length);
        n->len = ev->data.scalar.length;
        n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        if (ev->data.scalar.tag && !ev->data.scalar.plain_implicit && !ev->data.scalar.quoted_implicit)
            n->tag = intern((const char *)ev->data.scalar.tag);
        else if (ev->data.scalar.tag)
            n->tag = intern((const char *)ev->data.scalar.tag);
        *weight = 1;
        remember_anchor(L, ev->data.scalar.anchor, n, 1);
        yaml_event_delete(ev);
        return n;
    }
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        bool is_map = ev->type == YAML_MAPPING_START_EVENT;
        ynode *n = new_node(&L->f->a, is_map ? YN_MAP : YN_SEQ, L->f->name, line, col);
        yaml_char_t *anc = is_map ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
        char *anchor_name = anc ? xstrdup((const char *)anc) : NULL;
        yaml_event_delete(ev);
        uint64_t total = 1;
        keyset ks = {0};
        ynode *done = NULL;
        for (;;) {
            yaml_event_t e;
            if (next_event(L, &e)) goto fail;
            if (e.type == YAML_SEQUENCE_END_EVENT || e.type == YAML_MAPPING_END_EVENT) {
                yaml_event_delete(&e);
                break;
            }
            uint64_t w = 0;
            yaml_mark_t km = e.start_mark;
            ynode *child = parse_node(L, &e, depth + 1, &w);
            if (!child) goto fail;
            total += w;
            ynode *val = NULL;
            if (is_map) {
                if (has_key(&ks, n, child)) {
                    errat(L, km, "duplicate key '%s'", child->str);
                    goto fail;
                }
                yaml_event_t e2;
                if (next_event(L, &e2)) goto fail;
                val = parse_node(L, &e2, depth + 1, &w);
                if (!val) goto fail;
                total += w;
                add_child(&L->f->a, n, child, val);
                if (ks.cap && child->kind == YN_SCALAR) keyset_put(&ks, n, n->n - 1);
            } else {
                add_child(&L->f->a, n, NULL, child);
            }
            if (total > L->max_nodes) {
                if (L->saw_alias)
                    errat(L, km, "document too large once aliases are expanded (more than %" PRIu64 " nodes)",
                          L->max_nodes);
                else
                    errat(L, km, "document too large (more than %" PRIu64 " nodes)", L->max_nodes);
                goto fail;
            }
        }
        *weight = total;
        if (anchor_name) remember_anchor(L, (const yaml_char_t *)anchor_name, n, total);
        done = n;
    fail:
        free(anchor_name);
        free(ks.slot);
        return done;
    }
    default:
        errat(L, m, "unexpected YAML event");
        yaml_event_delete(ev);
        return NULL;
    }
}

static int load(loader *L) {
    yaml_event_t ev;
    size_t cap = 0;
    for (;;) {
        if (next_event(L, &ev)) return -1;
        yaml_event_type_t t = ev.type;
        if (t == YAML_STREAM_END_EVENT) { yaml_event_delete(&ev); return 0; }
        if (t != YAML_DOCUMENT_START_EVENT) { yaml_event_delete(&ev); continue; }
        yaml_event_delete(&ev);
        L->nanchors = 0;
        if (next_event(L, &ev)) return -1;
        ynode *root = NULL;
        if (ev.type != YAML_DOCUMENT_END_EVENT) {
            uint64_t w;
            root = parse_node(L, &ev, 0, &w);
            if (!root) return -1;
            if (next_event(L, &ev)) return -1;   /* DOCUMENT_END */
        }
        yaml_event_delete(&ev);
        if (!root || (root->kind == YN_SCALAR && y_is_null(root))) continue;
        if (L->f->ndocs == cap) {
            cap = cap ? cap * 2 : 4;
            ynode **nd = ARENA_NEW(&L->f->a, ynode *, cap);
            if (L->f->ndocs) memcpy(nd, L->f->docs, L->f->ndocs * sizeof *nd);
            L->f->docs = nd;
        }
        L->f->docs[L->f->ndocs++] = root;
    }
}

int yfile_load_mem(const char *name, const char *data, size_t len, yfile *out, strbuf *err) {
    return yfile_load_mem_max(name, data, len, YAML_MAX_EXPANDED, out, err);
}

/* The fast reader first (model/yaml_fast.h); when it gives up, libyaml reads
 * the whole input again, so every error and unusual input is as before. */
int yfile_load_mem_max(const char *name, const char *data, size_t len, uint64_t max_nodes, yfile *out, strbuf *err) {
    if (yfast_load(name, data, len, max_nodes, out, NULL) == 0) return 0;
    return yfile_load_mem_libyaml(name, data, len, max_nodes, out, err);
}

/* yfile_load_mem for a file's bytes, which a strbuf keeps NUL-terminated. */
static int load_terminated(const char *name, const char *data, size_t len, yfile *out, strbuf *err) {
    if (yfast_load_z(name, data, len, YAML_MAX_EXPANDED, out, NULL) == 0) return 0;
    return yfile_load_mem_libyaml(name, data, len, YAML_MAX_EXPANDED, out, err);
}

int yfile_load_mem_libyaml(const char *name, const char *data, size_t len, uint64_t max_nodes, yfile *out,
                           strbuf *err) {
    memset(out, 0, sizeof *out);
    out->name = arena_strndup(&out->a, name, strlen(name));
    loader L = {.f = out, .err = err, .input = (const unsigned char *)data, .input_len = len, .max_nodes = max_nodes};
    if (!yaml_parser_initialize(&L.parser)) {
        sb_clear(err);
        sb_printf(err, "%s: cannot initialise the YAML parser", name);
        return -1;
    }
    yaml_parser_set_input_string(&L.parser, (const unsigned char *)data, len);
    int rc = load(&L);
    yaml_parser_delete(&L.parser);
    free(L.anchors);
    if (rc) yfile_free(out);
    return rc;
}

int yfile_load(const char *path, yfile *out, strbuf *err) {
    strbuf data = {0};
    if (file_read_all(path, &data, err)) {
        memset(out, 0, sizeof *out);
        sb_free(&data);
        return -1;
    }
    int rc = load_terminated(path, sb_str(&data), data.len, out, err);
    sb_free(&data);
    return rc;
}

const char *y_resolve_path(const ynode *n, const char *path) {
    const char *slash = n && n->file ? strrchr(n->file, '/') : NULL;
    if (path[0] == '/' || !slash) return intern(path);
    strbuf s = {0};
    sb_append(&s, n->file, (size_t)(slash - n->file) + 1);
    sb_puts(&s, path);
    const char *r = intern(sb_str(&s));
    sb_free(&s);
    return r;
}

void yfile_free(yfile *f) {
    arena_free(&f->a);
    f->docs = NULL;
    f->ndocs = 0;
}

/* ---- accessors ---------------------------------------------------------------- */

void yerr(strbuf *err, const ynode *n, const char *fmt, ...) {
    va_list ap;
    sb_clear(err);
    if (n && n->file) sb_printf(err, "%s:%d:%d: ", n->file, n->line, n->col);
    va_start(ap, fmt);
    sb_vprintf(err, fmt, ap);
    va_end(ap);
    sb_cut_echoes(err, SB_ECHO_MAX);
}

const char *ykind_name(const ynode *n) {
    if (!n) return "nothing";
    switch (n->kind) {
    case YN_SCALAR: return y_is_null(n) ? "null" : "a scalar";
    case YN_SEQ: return "a list";
    default: return "a map";
    }
}

const ynode *ymap_get(const ynode *map, const char *key) {
    if (!map || map->kind != YN_MAP) return NULL;
    size_t kl = strlen(key);
    for (size_t i = 0; i < map->n; i++) {
        const ynode *k = map->keys[i];
        if (k->kind == YN_SCALAR && k->len == kl && memcmp(k->str, key, kl) == 0) return map->vals[i];
    }
    return NULL;
}

bool y_is_null(const ynode *n) {
    if (!n) return true;
    if (n->kind != YN_SCALAR || !n->plain) return false;
    return n->len == 0 || strcmp(n->str, "~") == 0 || strcmp(n->str, "null") == 0 ||
           strcmp(n->str, "Null") == 0 || strcmp(n->str, "NULL") == 0;
}

bool y_scalar_eq(const ynode *n, const char *s) {
    return n && n->kind == YN_SCALAR && n->len == strlen(s) && memcmp(n->str, s, n->len) == 0;
}

int y_expect(const ynode *n, ynode_kind kind, const char *what, strbuf *err) {
    if (n && n->kind == kind) return 0;
    static const char *names[] = {"a scalar", "a list", "a map"};
    yerr(err, n, "%s: expected %s, found %s", what, names[kind], ykind_name(n));
    return -1;
}

bool y_str_try(const ynode *n, const char **out) {
    if (!n || n->kind != YN_SCALAR || memchr(n->str, 0, n->len)) return false;
    *out = intern_n(n->str, n->len);
    return true;
}

int y_str(const ynode *n, const char *what, const char **out, strbuf *err) {
    if (y_str_try(n, out)) return 0;
    if (!n || n->kind != YN_SCALAR) {
        yerr(err, n, "%s: expected a string, found %s", what, ykind_name(n));
        return -1;
    }
    if (memchr(n->str, 0, n->len)) {
        yerr(err, n, "%s: string contains a NUL character", what);
        return -1;
    }
    *out = intern_n(n->str, n->len);
    return 0;
}

bool y_int_try(const ynode *n, int64_t *out) {
    if (!n || n->kind != YN_SCALAR || !n->plain || n->len == 0) return false;
    errno = 0;
    char *end;
    long long v = strtoll(n->str, &end, 10);
    if (*end || errno == ERANGE || end == n->str) return false;
    *out = v;
    return true;
}

int y_int(const ynode *n, const char *what, int64_t *out, strbuf *err) {
    if (y_int_try(n, out)) return 0;
    if (!n || n->kind != YN_SCALAR || !n->plain || n->len == 0) {
        yerr(err, n, "%s: expected an integer, found %s", what, n && n->kind == YN_SCALAR ? "a string" : ykind_name(n));
        return -1;
    }
    errno = 0;
    char *end;
    long long v = strtoll(n->str, &end, 10);
    if (*end || errno == ERANGE || end == n->str) {
        yerr(err, n, "%s: expected an integer, found '%s'", what, n->str);
        return -1;
    }
    *out = v;
    return 0;
}

int y_double(const ynode *n, const char *what, double *out, strbuf *err) {
    if (!n || n->kind != YN_SCALAR || !n->plain || n->len == 0) {
        yerr(err, n, "%s: expected a number, found %s", what, n && n->kind == YN_SCALAR ? "a string" : ykind_name(n));
        return -1;
    }
    errno = 0;
    char *end;
    double v = strtod(n->str, &end);
    if (*end || end == n->str || !isfinite(v)) {
        yerr(err, n, "%s: expected a number, found '%s'", what, n->str);
        return -1;
    }
    *out = v;
    return 0;
}

bool y_bool_try(const ynode *n, bool *out) {
    if (n && n->kind == YN_SCALAR && n->plain) {
        if (!strcmp(n->str, "true") || !strcmp(n->str, "True") || !strcmp(n->str, "TRUE")) { *out = true; return true; }
        if (!strcmp(n->str, "false") || !strcmp(n->str, "False") || !strcmp(n->str, "FALSE")) { *out = false; return true; }
    }
    return false;
}

int y_bool(const ynode *n, const char *what, bool *out, strbuf *err) {
    if (y_bool_try(n, out)) return 0;
    yerr(err, n, "%s: expected true or false, found %s%s%s", what,
         n && n->kind == YN_SCALAR ? "'" : "", n && n->kind == YN_SCALAR ? n->str : ykind_name(n),
         n && n->kind == YN_SCALAR ? "'" : "");
    return -1;
}

int ymap_check_keys(const ynode *map, const char *const *allowed, const char *what, strbuf *err) {
    if (y_expect(map, YN_MAP, what, err)) return -1;
    for (size_t i = 0; i < map->n; i++) {
        const ynode *k = map->keys[i];
        bool ok = false;
        if (k->kind == YN_SCALAR)
            for (const char *const *a = allowed; *a; a++)
                if (k->len == strlen(*a) && memcmp(k->str, *a, k->len) == 0) { ok = true; break; }
        if (!ok) {
            strbuf list = {0};
            for (const char *const *a = allowed; *a; a++) sb_printf(&list, "%s%s", a == allowed ? "" : ", ", *a);
            yerr(err, k, "unknown field '%s' in %s (expected one of: %s)",
                 k->kind == YN_SCALAR ? k->str : "<non-scalar key>", what, sb_str(&list));
            sb_free(&list);
            return -1;
        }
    }
    return 0;
}

int ymap_need(const ynode *map, const char *key, const char *what, const ynode **out, strbuf *err) {
    const ynode *v = ymap_get(map, key);
    if (!v) {
        yerr(err, map, "missing field '%s' in %s", key, what);
        return -1;
    }
    *out = v;
    return 0;
}

/* ---- builder -------------------------------------------------------------------- */

ynode *yb_map(arena *a) { return new_node(a, YN_MAP, NULL, 0, 0); }
ynode *yb_seq(arena *a) { return new_node(a, YN_SEQ, NULL, 0, 0); }

ynode *yb_strn(arena *a, const char *s, size_t n) {
    ynode *x = new_node(a, YN_SCALAR, NULL, 0, 0);
    x->str = arena_strndup(a, s, n);
    x->len = n;
    return x;
}
ynode *yb_str(arena *a, const char *s) { return yb_strn(a, s, strlen(s)); }
ynode *yb_raw(arena *a, const char *s) {
    ynode *x = yb_str(a, s);
    x->plain = true;
    return x;
}
ynode *yb_int(arena *a, int64_t v) {
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, v);
    return yb_raw(a, buf);
}
ynode *yb_bool(arena *a, bool v) { return yb_raw(a, v ? "true" : "false"); }
void yb_add(arena *a, ynode *map, const char *key, ynode *val) { add_child(a, map, yb_str(a, key), val); }
void yb_push(arena *a, ynode *seq, ynode *val) { add_child(a, seq, NULL, val); }

/* ---- dumper ----------------------------------------------------------------------- */

/* Every string through the one scalar rule (model/yaml_scalar.h); yb_raw's
 * numbers, bools and null stay plain. */
static void dump_scalar(strbuf *out, const ynode *n) {
    if (n->plain) sb_append(out, n->str, n->len);
    else yaml_scalar(out, n->str, n->len);
}

static bool is_empty_coll(const ynode *n) { return n->kind != YN_SCALAR && n->n == 0; }

static void indent(strbuf *out, int k) {
    for (int i = 0; i < k; i++) sb_putc(out, ' ');
}

/* Emit node n whose first line continues the current line (after "key:" or "- "). */
static void dump_node(strbuf *out, const ynode *n, int ind, bool after_dash);

static void dump_inline_or_block(strbuf *out, const ynode *v, int ind) {
    if (v->kind == YN_SCALAR) { sb_putc(out, ' '); dump_scalar(out, v); sb_putc(out, '\n'); }
    else if (is_empty_coll(v)) sb_puts(out, v->kind == YN_MAP ? " {}\n" : " []\n");
    else { sb_putc(out, '\n'); dump_node(out, v, ind, false); }
}

static void dump_node(strbuf *out, const ynode *n, int ind, bool after_dash) {
    if (n->kind == YN_SCALAR) { dump_scalar(out, n); sb_putc(out, '\n'); return; }
    if (is_empty_coll(n)) { sb_puts(out, n->kind == YN_MAP ? "{}\n" : "[]\n"); return; }
    for (size_t i = 0; i < n->n; i++) {
        if (!(after_dash && i == 0)) indent(out, ind);
        if (n->kind == YN_MAP) {
            dump_scalar(out, n->keys[i]);
            sb_putc(out, ':');
            const ynode *v = n->vals[i];
            /* lists under a key are written at the key's indentation, as kubectl does */
            dump_inline_or_block(out, v, v->kind == YN_SEQ ? ind : ind + 2);
        } else {
            const ynode *v = n->vals[i];
            sb_puts(out, "- ");
            if (v->kind == YN_SCALAR || is_empty_coll(v)) dump_node(out, v, ind + 2, true);
            else dump_node(out, v, ind + 2, true);
        }
    }
}

void ydump(strbuf *out, const ynode *n) { dump_node(out, n, 0, false); }
