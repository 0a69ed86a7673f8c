/* plan_price.c -- prices of the varied pools for `drasim plan --minimize` (plan_price.h). */
#include "cli/plan_price.h"

#include <stdlib.h>
#include <string.h>

#include "model/yaml_tree.h"
#include "model/trace_fleet.h"

/* A number under map m at key, or -1 (absent or not a number). */
static double number_at(const ynode *m, const char *key) {
    const ynode *v = m && m->kind == YN_MAP ? ymap_get(m, key) : NULL;
    char *end;
    double r = v && v->kind == YN_SCALAR ? strtod(v->str, &end) : -1;
    return v && v->kind == YN_SCALAR && end != v->str && !*end ? r : -1;
}

static const ynode *pool_named(const ynode *root, const char *name) {
    const ynode *cl = root && root->kind == YN_MAP ? ymap_get(root, "cluster") : NULL;
    const ynode *pools = cl && cl->kind == YN_MAP ? ymap_get(cl, "nodePools") : NULL;
    for (size_t i = 0; pools && pools->kind == YN_SEQ && i < pools->n; i++) {
        const ynode *nm = pools->vals[i]->kind == YN_MAP ? ymap_get(pools->vals[i], "name") : NULL;
        if (nm && nm->kind == YN_SCALAR && !strcmp(nm->str, name)) return pools->vals[i];
    }
    return NULL;
}

int plan_scenario_prices(const char *scenario, plan_dim *dims, size_t k, const bool *priced, bool need_price,
                         const plan_choice *ch, size_t nch, strbuf *err) {
    yfile f;
    if (scenario_file_load(scenario, &f, err)) return -2;
    const ynode *root = f.ndocs ? f.docs[0] : NULL;
    int rc = 0;
    for (size_t j = 0; j < nch && !rc; j++) {   /* a reserved split bounds the pool's count: it must vary */
        if (strcmp(ch[j].field, "price.reserved")) continue;
        size_t d = 0;
        while (d < k && strcmp(dims[d].pool, ch[j].pool)) d++;
        if (d == k) {
            sb_printf(err, "--vary %s: a reserved split needs the pool's count varied too (a fixed count: --vary %s=N..N)",
                      ch[j].arg, ch[j].pool);
            rc = -1;
        }
    }
    for (size_t d = 0; d < k && !rc; d++) {
        const ynode *pool = pool_named(root, dims[d].pool);
        const ynode *price = pool ? ymap_get(pool, "price") : NULL, *spot = pool ? ymap_get(pool, "spot") : NULL;
        const ynode *as = pool ? ymap_get(pool, "autoscaling") : NULL;
        bool split = false;
        for (size_t j = 0; j < nch; j++) split |= !strcmp(ch[j].pool, dims[d].pool) && !strcmp(ch[j].field, "price.reserved");
        double reserved = number_at(price, "reserved");
        if (!split && reserved > 0 && (double)dims[d].lo < reserved) {
            sb_printf(err, "--vary %s=%lld..%lld: pool '%s' has %g reserved nodes (price.reserved): vary it from %g up",
                      dims[d].pool, (long long)dims[d].lo, (long long)dims[d].hi, dims[d].pool, reserved, reserved);
            rc = -1;
            break;
        }
        if (!need_price || priced[d]) continue;
        double p = number_at(spot, "price");
        if (p < 0) p = number_at(price, "onDemand");
        if (p < 0) p = number_at(as, "price");
        if (!(p > 0)) {
            sb_printf(err, "--minimize cost: varied pool '%s' has no price per node-hour (price.onDemand, spot.price "
                           "or autoscaling.price, docs/COST.md; or --cost %s=PRICE)", dims[d].pool, dims[d].pool);
            rc = -1;
            break;
        }
        dims[d].price = p;
    }
    yfile_free(&f);
    return rc;
}
