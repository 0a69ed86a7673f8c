/* plan_vary.c -- `--vary POOL.FIELD=a,b,c` of `drasim plan` (plan_vary.h). */
#include "cli/plan_vary.h"
#include "cli/plan_vary_quota.h"

#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "model/yaml_tree.h"
#include "util/intern.h"
#include "util/xalloc.h"
#include "model/trace_fleet.h"

/* The fields a choice may set, each under its names (the scenario's own key
 * path first, docs/SCENARIOS.md; then the short name), and its integer range
 * (0..0: a name). */
static const struct field {
    const char *key, *alias;
    long lo, hi;
} fields[] = {
    {"gpu.migLayout", "migLayout", 0, 0},
    {"gpu.model", "gpuModel", 0, 0},
    /* time-slicing 1..1024, MPS 1..48 (docs/SHARING.md, model/cluster_spec.c) */
    {"devicePlugin.timeSlicing.replicas", "timeSlicing.replicas", 1, 1024},
    {"devicePlugin.mps.replicas", "mps.replicas", 1, 48},
    /* racks of a topology pool (docs/TOPOLOGY.md, model/topology_spec.h) */
    {"topology.racks", "racks", 1, 100000},
    {"topology.nodesPerRack", "nodesPerRack", 1, 10000},
    /* the reserved nodes of a priced pool (docs/COST.md; --minimize cost), 0..1000000 as model/cost_spec.c */
    {"price.reserved", "reserved", 0, 1000000},
};

bool plan_vary_is_choice(const char *text) {
    const char *eq = strchr(text, '='), *dot = strchr(text, '.');
    return dot && (!eq || dot < eq);
}

static const struct field *field_named(const char *name, size_t len) {
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if ((strlen(fields[i].key) == len && !strncmp(fields[i].key, name, len)) ||
            (strlen(fields[i].alias) == len && !strncmp(fields[i].alias, name, len)))
            return &fields[i];
    return NULL;
}

int plan_vary_choice(const char *text, plan_choice *ch, strbuf *err) {
    if (plan_vary_is_quota(text)) return plan_vary_quota(text, ch, err);
    const char *eq = strchr(text, '='), *dot = strchr(text, '.');
    memset(ch, 0, sizeof *ch);
    ch->arg = intern(text);
    strbuf o = {0};
    sb_printf(&o, "--vary %s", text);
    ch->origin = intern(sb_str(&o));
    sb_free(&o);
    const struct field *f = eq ? field_named(dot + 1, (size_t)(eq - dot - 1)) : NULL;
    if (!eq || dot == text) {
        sb_printf(err, "--vary %s: expected POOL.FIELD=V1,V2,... (FIELD: migLayout, gpuModel, "
                       "devicePlugin.timeSlicing.replicas, devicePlugin.mps.replicas, topology.racks, topology.nodesPerRack, "
                       "price.reserved)", text);
        return -1;
    }
    if (!f) {
        sb_printf(err, "--vary %s: unknown field '%.*s' (expected gpu.migLayout, gpu.model, "
                       "devicePlugin.timeSlicing.replicas, devicePlugin.mps.replicas, topology.racks, topology.nodesPerRack "
                       "or price.reserved; short: migLayout, gpuModel, racks, nodesPerRack, reserved)",
                  text, (int)(eq - dot - 1), dot + 1);
        return -1;
    }
    ch->pool = intern_n(text, (size_t)(dot - text));
    ch->field = f->key;
    const char *s = eq + 1;
    size_t priced = 0;
    if (!*s) {
        sb_printf(err, "--vary %s: the list of values is empty", text);
        return -1;
    }
    for (;;) {
        const char *comma = strchr(s, ','), *end = comma ? comma : s + strlen(s);
        const char *colon = memchr(s, ':', (size_t)(end - s));
        const char *vend = colon ? colon : end;
        if (vend == s) {
            sb_printf(err, "--vary %s: an empty value in the list", text);
            return -1;
        }
        const char *v = intern_n(s, (size_t)(vend - s));
        for (size_t i = 0; i < ch->n; i++)
            if (ch->values[i] == v) {
                sb_printf(err, "--vary %s: the value '%s' is listed twice", text, v);
                return -1;
            }
        double price = 0;
        if (colon) {
            char *pend;
            strbuf p = {0};
            sb_append(&p, colon + 1, (size_t)(end - colon - 1));
            price = strtod(sb_str(&p), &pend);
            bool bad = pend == sb_str(&p) || *pend || !(price > 0 && price < 1e12);
            sb_free(&p);
            if (strcmp(f->key, "gpu.model")) {
                sb_printf(err, "--vary %s: only gpu.model values take a price (MODEL:PRICE)", text);
                return -1;
            }
            if (bad) {
                sb_printf(err, "--vary %s: '%.*s': expected MODEL:PRICE with a price per node and hour > 0", text,
                          (int)(end - s), s);
                return -1;
            }
            priced++;
        }
        if (f->hi) {   /* replicas: a whole number in the field's range */
            char *iend;
            long r = strtol(v, &iend, 10);
            if (*iend || r < f->lo || r > f->hi) {
                sb_printf(err, "--vary %s: '%s': %s is a whole number %ld..%ld", text, v, f->key, f->lo, f->hi);
                return -1;
            }
        }
        ch->values = xrealloc(ch->values, (ch->n + 1) * sizeof *ch->values);
        ch->prices = xrealloc(ch->prices, (ch->n + 1) * sizeof *ch->prices);
        ch->values[ch->n] = v;
        ch->prices[ch->n++] = price;
        if (!comma) break;
        s = comma + 1;
    }
    if (priced && priced != ch->n) {
        sb_printf(err, "--vary %s: give a price for every model (MODEL:PRICE) or for none", text);
        return -1;
    }
    if (!priced) {
        free(ch->prices);
        ch->prices = NULL;
    }
    return 0;
}

/* The pool map of the scenario named `name`, or NULL. */
static const ynode *find_pool(const ynode *root, const char *name) {
    const ynode *cl = root && root->kind == YN_MAP ? ymap_get(root, "cluster") : NULL;
    const ynode *pools = cl && cl->kind == YN_MAP ? ymap_get(cl, "nodePools") : NULL;
    for (size_t i = 0; pools && pools->kind == YN_SEQ && i < pools->n; i++) {
        const ynode *p = pools->vals[i];
        const ynode *nm = p->kind == YN_MAP ? ymap_get(p, "name") : NULL;
        if (nm && nm->kind == YN_SCALAR && !strcmp(nm->str, name)) return p;
    }
    return NULL;
}

static const char *scalar_of(const ynode *map, const char *key) {
    const ynode *v = map && map->kind == YN_MAP ? ymap_get(map, key) : NULL;
    return v && v->kind == YN_SCALAR ? v->str : NULL;
}

/* Every model of the catalog, "A100-40GB, H100-80GB, ...". */
static void model_list(const gpu_catalog *cat, strbuf *out) {
    for (int i = 0; i < cat->nmodels; i++) sb_printf(out, "%s%s", i ? ", " : "", cat->models[i].key);
}

/* The layouts of model m, "all-1g.10gb, ...". */
static void layout_list(const gpu_model *m, strbuf *out) {
    for (int i = 0; i < m->nlayouts; i++) sb_printf(out, "%s%s", i ? ", " : "", m->layouts[i].name);
}

/* The choice of `field` on `pool` among all[n], or NULL. */
static const plan_choice *choice_of(const plan_choice *all, size_t n, const char *pool, const char *field) {
    for (size_t j = 0; j < n; j++)
        if (all[j].pool == pool && !strcmp(all[j].field, field)) return &all[j];
    return NULL;
}

/* Every MIG layout the pool may have (its varied ones, else its gpu.migLayout)
 * exists for every model it may have (its varied ones, else its gpu.model).
 * 0 or -1 with err naming the choice `ch`. */
static int check_pairs(const ynode *gpu, const plan_choice *ch, const plan_choice *all, size_t n,
                       const gpu_catalog *cat, strbuf *err) {
    const plan_choice *models = choice_of(all, n, ch->pool, "gpu.model");
    const plan_choice *layouts = choice_of(all, n, ch->pool, "gpu.migLayout");
    const char *own_model = scalar_of(gpu, "model"), *own_layout = scalar_of(gpu, "migLayout");
    size_t nm = models ? models->n : 1, nl = layouts ? layouts->n : 1;
    for (size_t m = 0; m < nm; m++) {
        const gpu_model *gm = catalog_find(cat, models ? models->values[m] : own_model ? own_model : "");
        for (size_t l = 0; gm && l < nl; l++) {
            const char *layout = layouts ? layouts->values[l] : own_layout;
            if (!layout || gpu_model_layout(gm, layout)) continue;
            strbuf list = {0};
            layout_list(gm, &list);
            sb_printf(err, "--vary %s: the GPU catalog has no MIG layout '%s' for %s (its layouts: %s)", ch->arg,
                      layout, gm->key, gm->nlayouts ? sb_str(&list) : "none");
            sb_free(&list);
            return -1;
        }
    }
    return 0;
}

/* One choice against its pool and the catalog. 0 or -1 with err. */
static int check_one(const ynode *root, const char *scenario, const plan_choice *ch, const plan_choice *all, size_t n,
                     const gpu_catalog *cat, strbuf *err) {
    const ynode *pool = find_pool(root, ch->pool);
    const ynode *gpu = pool ? ymap_get(pool, "gpu") : NULL;
    strbuf list = {0};
    int rc = -1;
    const ynode *topo = pool ? ymap_get(pool, "topology") : NULL;
    if (!pool) {
        sb_printf(err, "--vary %s: %s has no node pool named '%s'", ch->arg, scenario, ch->pool);
    } else if (!strncmp(ch->field, "topology.", 9) && (!topo || topo->kind != YN_MAP)) {
        sb_printf(err, "--vary %s: node pool '%s' has no topology (give it topology: {racks, nodesPerRack})", ch->arg,
                  ch->pool);
    } else if (!strncmp(ch->field, "topology.", 9) && ymap_get(pool, "count")) {
        sb_printf(err, "--vary %s: node pool '%s' gives count, which must equal racks x nodesPerRack: leave it out "
                       "when the racks vary", ch->arg, ch->pool);
    } else if (!strcmp(ch->field, "price.reserved")) {
        const ynode *price = ymap_get(pool, "price");
        rc = price && price->kind == YN_MAP && ymap_get(price, "reservedPrice") ? 0 : -1;
        if (rc) sb_printf(err, "--vary %s: node pool '%s' has no price.reservedPrice (the price of a reserved node)",
                          ch->arg, ch->pool);
    } else if (!gpu || gpu->kind != YN_MAP) {
        sb_printf(err, "--vary %s: node pool '%s' has no GPUs (no gpu: {model, count})", ch->arg, ch->pool);
    } else if (!strcmp(ch->field, "gpu.model")) {
        rc = 0;
        for (size_t i = 0; i < ch->n && !rc; i++)
            if (!catalog_find(cat, ch->values[i])) {
                model_list(cat, &list);
                sb_printf(err, "--vary %s: the GPU catalog has no model '%s' (its models: %s)", ch->arg, ch->values[i],
                          sb_str(&list));
                rc = -1;
            }
        /* a statically partitioned pool keeps its layout: every model must have it (unless layouts vary too) */
        const char *mig = scalar_of(gpu, "mig");
        if (!rc && mig && !strcmp(mig, "static") && !choice_of(all, n, ch->pool, "gpu.migLayout"))
            rc = check_pairs(gpu, ch, all, n, cat, err);
    } else if (!strcmp(ch->field, "gpu.migLayout")) {
        const char *mig = scalar_of(gpu, "mig");
        if (!mig || strcmp(mig, "static"))
            sb_printf(err, "--vary %s: node pool '%s' is not statically MIG-partitioned (give it gpu.mig: static)",
                      ch->arg, ch->pool);
        else
            rc = check_pairs(gpu, ch, all, n, cat, err);
    } else {
        rc = 0;
    }
    sb_free(&list);
    return rc;
}

int plan_vary_check(const char *scenario, plan_choice *ch, size_t n, strbuf *err) {
    if (!n) return 0;
    yfile f;
    if (scenario_file_load(scenario, &f, err)) return -2;
    gpu_catalog cat;
    if (catalog_load(NULL, &cat, err)) {
        yfile_free(&f);
        return -2;
    }
    const ynode *root = f.ndocs ? f.docs[0] : NULL;
    int rc = 0;
    for (size_t j = 0; j < n && !rc; j++) {
        for (size_t i = 0; i < j && !rc; i++)
            if (ch[i].pool == ch[j].pool && !strcmp(ch[i].field, ch[j].field)) {
                sb_printf(err, "--vary %s: %s.%s is varied twice", ch[j].arg, ch[j].pool, ch[j].field);
                rc = -1;
            }
        if (!rc && ch[j].set_key == NULL && plan_vary_is_quota(ch[j].arg))
            rc = plan_vary_quota_check(root, scenario, &ch[j], err);
        else if (!rc)
            rc = check_one(root, scenario, &ch[j], ch, n, &cat, err);
        if (!rc && !strncmp(ch[j].field, "topology.", 9)) {   /* the other factor of the pool's nodes */
            const ynode *topo = ymap_get(find_pool(root, ch[j].pool), "topology");
            const char *o = scalar_of(topo, strcmp(ch[j].field, "topology.racks") ? "racks" : "nodesPerRack");
            ch[j].topo_other = o ? atoll(o) : 0;
        }
    }
    catalog_free(&cat);
    yfile_free(&f);
    return rc;
}

void plan_choice_free(plan_choice *ch) {
    free(ch->values);
    free(ch->prices);
}
