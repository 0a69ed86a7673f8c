/* trace_fleet.c -- `cluster.fleet:` the published cluster of a public trace
 * (see trace_fleet.h). */
#include "model/trace_fleet.h"

#include <stdio.h>
#include <string.h>

#include "util/datadir.h"
#include "util/intern.h"

/* A deep copy of n into a: the fleet file's tree outlives its yfile (node
 * pools keep `where` nodes for later messages). File names and tags are
 * interned, scalars copied. */
static ynode *copy_tree(arena *a, const ynode *n) {
    ynode *c = ARENA_NEW(a, ynode, 1);
    *c = *n;
    c->file = n->file ? intern(n->file) : NULL;
    if (n->str) c->str = arena_memdup(a, n->str, n->len + 1);
    c->keys = c->vals = NULL;
    c->cap = n->n;
    if (n->n) {
        c->vals = ARENA_NEW(a, ynode *, n->n);
        if (n->kind == YN_MAP) c->keys = ARENA_NEW(a, ynode *, n->n);
        for (size_t i = 0; i < n->n; i++) {
            c->vals[i] = copy_tree(a, n->vals[i]);
            if (n->kind == YN_MAP) c->keys[i] = copy_tree(a, n->keys[i]);
        }
    }
    return c;
}

/* A name (lower-case letters, digits, '-') is a shipped fleet; anything else
 * is a file written relative to the scenario. */
static bool is_fleet_name(const char *s) {
    if (!*s) return false;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-')) return false;
    return true;
}

const ynode *trace_fleet_pools(const ynode *at, arena *a, strbuf *err) {
    const char *name;
    if (y_str(at, "fleet", &name, err)) return NULL;
    char rel[300], buf[4096];
    const char *path;
    if (is_fleet_name(name)) {
        snprintf(rel, sizeof rel, "data/traces/fleets/%s.yaml", name);
        if (!(path = datadir_find(rel, buf, sizeof buf))) {
            yerr(err, at, "fleet: unknown fleet '%s' (no %s; shipped: %s)", name, rel, TRACE_FLEETS_SHIPPED);
            return NULL;
        }
    } else {
        path = y_resolve_path(at, name);
    }
    yfile f;
    strbuf e2 = {0};
    if (yfile_load(path, &f, &e2)) {
        yerr(err, at, "fleet '%s': %s", name, sb_str(&e2));
        sb_free(&e2);
        return NULL;
    }
    sb_free(&e2);
    const ynode *root = f.ndocs ? f.docs[0] : NULL, *pools = NULL;
    static const char *const keys[] = {"source", "nodePools", NULL};
    if (!root || root->kind != YN_MAP) {
        yerr(err, root ? root : at, "fleet: expected a map with nodePools");
    } else if (!ymap_check_keys(root, keys, "a fleet", err) &&
               !ymap_need(root, "nodePools", "a fleet", &pools, err)) {
        pools = copy_tree(a, pools);
    } else {
        pools = NULL;
    }
    yfile_free(&f);
    return pools;
}

int trace_fleet_inline(ynode *root, arena *a, strbuf *err) {
    ynode *cl = root && root->kind == YN_MAP ? (ynode *)ymap_get(root, "cluster") : NULL;
    if (!cl || cl->kind != YN_MAP || ymap_get(cl, "nodePools") || ymap_get(cl, "inventory"))
        return 0;   /* no fleet, or more than one source: cluster_spec_parse says so */
    for (size_t i = 0; i < cl->n; i++) {
        ynode *k = cl->keys[i];
        if (k->kind != YN_SCALAR || k->len != 5 || memcmp(k->str, "fleet", 5)) continue;
        const ynode *pools = trace_fleet_pools(cl->vals[i], a, err);
        if (!pools) return -1;
        ynode *nk = ARENA_NEW(a, ynode, 1);
        *nk = *k;   /* the key keeps the place of `fleet:` */
        nk->str = arena_memdup(a, "nodePools", sizeof "nodePools");
        nk->len = sizeof "nodePools" - 1;
        cl->keys[i] = nk;
        cl->vals[i] = (ynode *)pools;
        return 0;
    }
    return 0;
}

bool trace_fleet_set_names_fleet(const char *const *sets, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!strncmp(sets[i], "cluster.fleet", 13) && (sets[i][13] == '=' || sets[i][13] == '.')) return true;
    return false;
}

int scenario_file_load_sets(const char *path, const char *const *sets, size_t nsets, yfile *f, strbuf *err) {
    if (yfile_load(path, f, err)) return -1;
    if (f->ndocs == 1 && !trace_fleet_set_names_fleet(sets, nsets) && trace_fleet_inline(f->docs[0], &f->a, err)) {
        yfile_free(f);
        return -1;
    }
    return 0;
}

int scenario_file_load(const char *path, yfile *f, strbuf *err) {
    return scenario_file_load_sets(path, NULL, 0, f, err);
}
