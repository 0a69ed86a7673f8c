/*
 * yaml_same.c -- are two loaded YAML streams the same tree? The check the
 * fast reader's tests and fuzz target make against libyaml (yaml_fast.h).
 */
#include "model/yaml_fast.h"

#include <string.h>

static bool str_same(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

static bool node_same(const ynode *a, const ynode *b, strbuf *why, const char *path);

/* Compare one node; on a difference, describe it at a's mark. */
static bool node_same(const ynode *a, const ynode *b, strbuf *why, const char *path) {
    const char *what = NULL;
    if (!a || !b) what = a == b ? NULL : "one node missing";
    else if (a->kind != b->kind) what = "kind";
    else if (a->line != b->line || a->col != b->col) what = "mark";
    else if (!str_same(a->file, b->file)) what = "file";
    else if (a->plain != b->plain) what = "style";
    else if (!str_same(a->tag, b->tag)) what = "tag";
    else if (a->kind == YN_SCALAR && (a->len != b->len || memcmp(a->str, b->str, a->len) != 0)) what = "value";
    else if (a->kind != YN_SCALAR && a->n != b->n) what = "number of children";
    if (what) {
        sb_clear(why);
        sb_printf(why, "%s: %s differs", path, what);
        if (a && b)
            sb_printf(why, " (%d:%d %s '%.*s' vs %d:%d %s '%.*s')", a->line, a->col, ykind_name(a),
                      a->kind == YN_SCALAR ? (int)(a->len > 60 ? 60 : a->len) : 0, a->kind == YN_SCALAR ? a->str : "",
                      b->line, b->col, ykind_name(b),
                      b->kind == YN_SCALAR ? (int)(b->len > 60 ? 60 : b->len) : 0, b->kind == YN_SCALAR ? b->str : "");
        return false;
    }
    if (!a || a->kind == YN_SCALAR) return true;
    for (size_t i = 0; i < a->n; i++) {
        if (a->kind == YN_MAP && !node_same(a->keys[i], b->keys[i], why, "key")) return false;
        if (!node_same(a->vals[i], b->vals[i], why, a->kind == YN_MAP ? "value" : "item")) return false;
    }
    return true;
}

bool yfile_same(const yfile *a, const yfile *b, strbuf *why) {
    if (a->ndocs != b->ndocs) {
        sb_clear(why);
        sb_printf(why, "%zu documents vs %zu", a->ndocs, b->ndocs);
        return false;
    }
    if (!str_same(a->name, b->name)) {
        sb_clear(why);
        sb_printf(why, "file name '%s' vs '%s'", a->name, b->name);
        return false;
    }
    for (size_t i = 0; i < a->ndocs; i++)
        if (!node_same(a->docs[i], b->docs[i], why, "document")) return false;
    return true;
}
