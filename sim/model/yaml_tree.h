/*
 * yaml_tree.h -- YAML documents as trees of nodes that remember where they
 * came from (file, line, column: libyaml's marks, 1-based), plus the checked
 * accessors every decoder uses, and a builder + dumper for writing YAML.
 *
 * Every error message produced here has the form "FILE:LINE:COL: message".
 * A tree lives in its yfile's arena; nodes are never freed one by one.
 */
#ifndef DRASIM_MODEL_YAML_TREE_H
#define DRASIM_MODEL_YAML_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/strbuf.h"

typedef enum { YN_SCALAR, YN_SEQ, YN_MAP } ynode_kind;

typedef struct ynode {
    ynode_kind kind;
    bool plain;                 /* scalar written without quotes (so `true` is a bool) */
    const char *tag;            /* explicit tag such as "!!str", or NULL */
    const char *str;            /* scalar text, NUL-terminated (may contain NULs: use len) */
    size_t len;
    struct ynode **keys;        /* YN_MAP: keys[i] -> vals[i] */
    struct ynode **vals;        /* YN_SEQ: items; YN_MAP: values */
    size_t n, cap;
    const char *file;
    int line, col;
} ynode;

typedef struct yfile {
    arena a;
    const char *name;           /* file name used in messages */
    ynode **docs;               /* one root per document; empty documents skipped */
    size_t ndocs;
} yfile;

/* Load every document of a YAML stream. Returns 0, or -1 with err filled
 * ("FILE:LINE:COL: ..."). Aliases are expanded by sharing; documents whose
 * expansion exceeds a sane size are refused. Duplicate map keys are errors. */
int yfile_load(const char *path, yfile *out, strbuf *err);
int yfile_load_mem(const char *name, const char *data, size_t len, yfile *out, strbuf *err);
/* yfile_load_mem with the node cap (default 10,000,000 per document, aliases
 * counted fully) given: the same loader, for tests of the cap's messages. */
int yfile_load_mem_max(const char *name, const char *data, size_t len, uint64_t max_nodes, yfile *out, strbuf *err);
void yfile_free(yfile *f);

/* A path written in a file, resolved relative to that file's directory
 * (absolute paths unchanged); interned. */
const char *y_resolve_path(const ynode *n, const char *path);

/* Append "FILE:LINE:COL: " + message for node n to err (err is cleared first). */
void yerr(strbuf *err, const ynode *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *ykind_name(const ynode *n);   /* "a string", "a list", "a map" */

/* Lookups and type checks. Each y_* reader returns 0 or -1 with err set. */
const ynode *ymap_get(const ynode *map, const char *key);
bool y_is_null(const ynode *n);           /* ~, null, empty plain scalar */
bool y_scalar_eq(const ynode *n, const char *s);
int y_expect(const ynode *n, ynode_kind kind, const char *what, strbuf *err);
int y_str(const ynode *n, const char *what, const char **out, strbuf *err);  /* interned */
int y_int(const ynode *n, const char *what, int64_t *out, strbuf *err);
int y_double(const ynode *n, const char *what, double *out, strbuf *err);
int y_bool(const ynode *n, const char *what, bool *out, strbuf *err);
/* The same readers without a message: true and *out set, or false (then
 * the y_* reader above gives the error). For callers whose `what` is costly
 * to build: they build it only when the quiet reader says no. */
bool y_str_try(const ynode *n, const char **out);
bool y_int_try(const ynode *n, int64_t *out);
bool y_bool_try(const ynode *n, bool *out);
/* Every key of `map` must be in the NULL-terminated list `allowed`. */
int ymap_check_keys(const ynode *map, const char *const *allowed, const char *what, strbuf *err);
/* A required key: error "missing field 'key' in WHAT" at the map's position. */
int ymap_need(const ynode *map, const char *key, const char *what, const ynode **out, strbuf *err);

/* ---- building and writing YAML ------------------------------------------- */

ynode *yb_map(arena *a);
ynode *yb_seq(arena *a);
ynode *yb_str(arena *a, const char *s);            /* quoted when needed on output */
ynode *yb_strn(arena *a, const char *s, size_t n);
ynode *yb_raw(arena *a, const char *s);            /* plain scalar: numbers, bools, null */
ynode *yb_int(arena *a, int64_t v);
ynode *yb_bool(arena *a, bool v);
void yb_add(arena *a, ynode *map, const char *key, ynode *val);  /* append to a map */
void yb_push(arena *a, ynode *seq, ynode *val);                  /* append to a list */

/* Write a node as block-style YAML (document body, no "---"). Strings that a
 * YAML reader would not read back as the same string are double-quoted. */
void ydump(strbuf *out, const ynode *n);

#endif
