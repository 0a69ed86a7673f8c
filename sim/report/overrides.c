/* overrides.c -- `--set key=value` on a YAML tree (see overrides.h). */
#include "report/overrides.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Next path segment of *p: a bracketed "[...]" or text up to '.' or '['.
 * Sets *bracket when it was bracketed. Returns its length or -1. */
static int next_segment(const char **p, const char **seg, bool *bracket) {
    const char *s = *p;
    if (*s == '.') s++;
    if (*s == '[') {
        const char *end = strchr(s, ']');
        if (!end || end == s + 1) return -1;
        *seg = s + 1;
        *bracket = true;
        *p = end + 1;
        return (int)(end - s - 1);
    }
    size_t n = strcspn(s, ".[");
    if (!n) return -1;
    *seg = s;
    *bracket = false;
    *p = s + n;
    return (int)n;
}

static bool all_digits(const char *s, int n) {
    for (int i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return n > 0;
}

/* The slot (pointer to a child pointer) that segment `seg` names in `parent`;
 * creates a missing map key when `create`. NULL when absent. */
static ynode **child_slot(arena *a, ynode *parent, const char *seg, int n, bool bracket, const ynode *mark) {
    if (parent->kind == YN_MAP) {
        for (size_t i = 0; i < parent->n; i++)
            if (parent->keys[i]->len == (size_t)n && !memcmp(parent->keys[i]->str, seg, (size_t)n))
                return &parent->vals[i];
        char *key = xstrndup(seg, (size_t)n);
        ynode *v = yb_map(a);
        v->file = mark->file;
        v->line = mark->line;
        v->col = mark->col;
        yb_add(a, parent, key, v);
        free(key);
        parent->keys[parent->n - 1]->file = mark->file;
        parent->keys[parent->n - 1]->line = mark->line;
        parent->keys[parent->n - 1]->col = mark->col;
        return &parent->vals[parent->n - 1];
    }
    if (parent->kind == YN_SEQ) {
        if (bracket && all_digits(seg, n)) {
            size_t idx = (size_t)strtoul(seg, NULL, 10);
            return idx < parent->n ? &parent->vals[idx] : NULL;
        }
        for (size_t i = 0; i < parent->n; i++) {
            const ynode *name = parent->vals[i]->kind == YN_MAP ? ymap_get(parent->vals[i], "name") : NULL;
            if (name && name->kind == YN_SCALAR && name->len == (size_t)n && !memcmp(name->str, seg, (size_t)n))
                return &parent->vals[i];
        }
    }
    return NULL;
}

int override_apply(ynode *root, const char *assignment, override_set *keep, strbuf *err) {
    return override_apply_from(root, assignment, NULL, keep, err);
}

int override_apply_from(ynode *root, const char *assignment, const char *origin, override_set *keep, strbuf *err) {
    const char *by = origin ? origin : "--set";
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment) {
        sb_clear(err);
        sb_printf(err, "%s %s: expected KEY=VALUE", by, assignment);
        return -1;
    }
    char *key = xstrndup(assignment, (size_t)(eq - assignment));
    /* short aliases for the fields swept most often */
    static const char *const aliases[][2] = {{"policy", "scheduling.policy"}, {"mode", "scheduling.mode"},
                                             {"scoring", "scheduling.scoring"}};
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (!strcmp(key, aliases[i][0])) {
            free(key);
            key = xstrdup(aliases[i][1]);
            break;
        }
    strbuf name = {0};
    sb_printf(&name, "%s %s", by, key);
    keep->files = xrealloc(keep->files, (keep->n + 1) * sizeof *keep->files);
    yfile *vf = &keep->files[keep->n];
    int rc = -1;
    if (yfile_load_mem(sb_str(&name), eq + 1, strlen(eq + 1), vf, err)) goto out;
    keep->n++;
    /* the file name must outlive `name`: keep a copy in the value's arena */
    const char *fname = arena_strndup(&vf->a, sb_str(&name), name.len);
    ynode *value = vf->ndocs ? vf->docs[0] : yb_raw(&vf->a, "");
    value->file = fname;
    value->line = 1;
    value->col = (int)(eq - assignment) + 2 + 6;   /* column in "--set KEY=VALUE" */
    if (root->kind != YN_MAP) {
        yerr(err, root, "%s %s: the scenario is not a map", by, key);
        goto out;
    }
    ynode *cur = root;
    ynode **slot = NULL;
    const char *p = key;
    while (*p) {
        const char *seg;
        bool bracket;
        int n = next_segment(&p, &seg, &bracket);
        if (n < 0) {
            sb_clear(err);
            sb_printf(err, "%s %s: malformed key (expected a.b[0].c or a.b[name.with.dots])", by, key);
            goto out;
        }
        if (cur->kind == YN_SCALAR && y_is_null(cur) && slot) {
            /* `key:` with no value: make it a map so we can descend */
            *slot = cur = yb_map(&vf->a);
            cur->file = value->file;
        }
        if (cur->kind == YN_SCALAR) {
            yerr(err, cur, "%s %s: '%.*s' is inside a scalar, not a map or list", by, key, n, seg);
            goto out;
        }
        slot = child_slot(&vf->a, cur, seg, n, bracket, value);
        if (!slot) {
            yerr(err, cur, "%s %s: no list item '%.*s' (use an index in brackets or a `name`)", by, key, n, seg);
            goto out;
        }
        cur = *slot;
    }
    if (!slot) {
        sb_clear(err);
        sb_printf(err, "%s %s: empty key", by, assignment);
        goto out;
    }
    *slot = value;
    rc = 0;
out:
    free(key);
    sb_free(&name);
    return rc;
}

void overrides_free(override_set *keep) {
    for (size_t i = 0; i < keep->n; i++) yfile_free(&keep->files[i]);
    free(keep->files);
    keep->files = NULL;
    keep->n = 0;
}
