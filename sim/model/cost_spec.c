/* cost_spec.c -- prices, power and chargeback of a scenario (see cost_spec.h, docs/COST.md). */
#include "model/cost_spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/autoscaler_spec.h"
#include "model/cluster.h"

/* Prices are currency-agnostic numbers per node-hour, bounded as autoscaling.price. */
static int price_value(const ynode *v, const char *what, double *out, strbuf *err) {
    if (y_double(v, what, out, err)) return -1;
    if (!(*out >= 0 && *out < 1e12)) {
        yerr(err, v, "%s: expected a price per node-hour from 0 to below 1e12 (no negative prices)", what);
        return -1;
    }
    return 0;
}

int power_value_parse(const ynode *v, const char *what, double *watts, strbuf *err) {
    const char *s;
    if (y_str(v, what, &s, err)) return -1;
    char *end;
    double x = strtod(s, &end);
    double scale = 1;
    if (end != s && !strcmp(end, "kW")) scale = 1000;
    else if (end != s && !strcmp(end, "MW")) scale = 1e6;
    else if (end != s && (!strcmp(end, "W") || !*end)) scale = 1;
    else end = (char *)s;
    if (end == s || !(x >= 0 && x * scale < 1e12)) {
        yerr(err, v, "%s: expected a power from 0 (watts, or with W, kW or MW: '700W', '1.2kW'), found '%s'", what, s);
        return -1;
    }
    *watts = x * scale;
    return 0;
}

int pool_price_parse(const ynode *n, arena *a, node_pool_spec *p, strbuf *err) {
    static const char *const keys[] = {"onDemand", "reserved", "reservedPrice", NULL};
    if (y_expect(n, YN_MAP, "price", err) || ymap_check_keys(n, keys, "price", err)) return -1;
    pool_price *pr = ARENA_NEW(a, pool_price, 1);
    memset(pr, 0, sizeof *pr);
    pr->where = n;
    pr->on_demand = -1;
    const ynode *v;
    if ((v = ymap_get(n, "onDemand")) && price_value(v, "price.onDemand", &pr->on_demand, err)) return -1;
    if ((v = ymap_get(n, "reserved"))) {
        int64_t i64;
        if (y_int(v, "price.reserved", &i64, err)) return -1;
        if (i64 < 0 || i64 > 1000000) {
            yerr(err, v, "price.reserved: expected 0 to 1000000 nodes, found %lld", (long long)i64);
            return -1;
        }
        pr->reserved = (int)i64;
        if (ymap_need(n, "reservedPrice", "price (reserved nodes)", &v, err) ||
            price_value(v, "price.reservedPrice", &pr->reserved_price, err))
            return -1;
    } else if ((v = ymap_get(n, "reservedPrice"))) {
        yerr(err, v, "price.reservedPrice: give price.reserved (the nodes paid whole) with it");
        return -1;
    }
    p->price = pr;
    return 0;
}

/* An interruption rate with its unit: "0.05/h" (per node-hour) or "1.2/day" (per node-day). */
static int rate_parse(const ynode *v, double *per_ms, strbuf *err) {
    const char *s;
    if (y_str(v, "spot.interruptions.rate", &s, err)) return -1;
    char *end;
    double x = strtod(s, &end);
    double ms = !strcmp(end, "/h") ? 3600e3 : !strcmp(end, "/day") ? 86400e3 : 0;
    if (end == s || !(x >= 0 && x <= 1e6)) {
        yerr(err, v, "spot.interruptions.rate: expected interruptions per node-hour or node-day from 0 to 1e6 "
                     "('0.05/h', '1.2/day'), found '%s'", s);
        return -1;
    }
    if (ms == 0) {
        yerr(err, v, "spot.interruptions.rate: '%s' has no unit: give interruptions per node-hour ('%g/h') or "
                     "per node-day ('%g/day')", s, x, x);
        return -1;
    }
    *per_ms = x / ms;
    return 0;
}

int pool_spot_parse(const ynode *n, arena *a, node_pool_spec *p, strbuf *err) {
    static const char *const keys[] = {"price", "interruptions", NULL};
    static const char *const ikeys[] = {"rate", "notice", "returnAfter", NULL};
    if (y_expect(n, YN_MAP, "spot", err) || ymap_check_keys(n, keys, "spot", err)) return -1;
    pool_spot *sp = ARENA_NEW(a, pool_spot, 1);
    memset(sp, 0, sizeof *sp);
    sp->where = n;
    const ynode *v, *in;
    if (ymap_need(n, "price", "spot", &v, err) || price_value(v, "spot.price", &sp->price, err)) return -1;
    if ((in = ymap_get(n, "interruptions"))) {
        if (y_expect(in, YN_MAP, "spot.interruptions", err) ||
            ymap_check_keys(in, ikeys, "spot.interruptions", err))
            return -1;
        sp->interrupts = true;
        if (ymap_need(in, "rate", "spot.interruptions", &v, err) || rate_parse(v, &sp->rate_per_node_ms, err))
            return -1;
        /* the providers' notices: AWS EC2 "Spot Instance interruption notices" (two minutes);
         * Google Compute Engine "Spot VMs" (preemption notice, 30 seconds); Azure Spot VMs
         * through Scheduled Events ("Preempt", at least 30 seconds) */
        if (ymap_need(in, "notice", "spot.interruptions", &v, err)) return -1;
        if (y_scalar_eq(v, "aws")) sp->notice = SIM_SECONDS(120);
        else if (y_scalar_eq(v, "gcp") || y_scalar_eq(v, "azure")) sp->notice = SIM_SECONDS(30);
        else if (scenario_parse_duration(v, "spot.interruptions.notice (aws, gcp, azure or a duration)", &sp->notice,
                                         err))
            return -1;
        if (ymap_need(in, "returnAfter", "spot.interruptions", &v, err) ||
            scenario_parse_duration_dist(v, &sp->return_after, err))
            return -1;
    }
    p->spot = sp;
    return 0;
}

int pool_power_parse(const ynode *n, arena *a, node_pool_spec *p, strbuf *err) {
    static const char *const keys[] = {"gpuIdle", "gpuMax", "nodeBase", NULL};
    if (y_expect(n, YN_MAP, "power", err) || ymap_check_keys(n, keys, "power", err)) return -1;
    pool_power *pw = ARENA_NEW(a, pool_power, 1);
    pw->gpu_idle_w = pw->gpu_max_w = pw->node_base_w = -1;
    pw->where = n;
    const ynode *v;
    if ((v = ymap_get(n, "gpuIdle")) && power_value_parse(v, "power.gpuIdle", &pw->gpu_idle_w, err)) return -1;
    if ((v = ymap_get(n, "gpuMax")) && power_value_parse(v, "power.gpuMax", &pw->gpu_max_w, err)) return -1;
    if ((v = ymap_get(n, "nodeBase")) && power_value_parse(v, "power.nodeBase", &pw->node_base_w, err)) return -1;
    p->power = pw;
    return 0;
}

int cluster_power_parse(const ynode *n, arena *a, cluster_spec *c, strbuf *err) {
    static const char *const keys[] = {"pue", "envelope", "nodeBase", "gpuIdle", NULL};
    if (y_expect(n, YN_MAP, "power", err) || ymap_check_keys(n, keys, "power", err)) return -1;
    cluster_power *cp = ARENA_NEW(a, cluster_power, 1);
    memset(cp, 0, sizeof *cp);
    cp->pue = 1;
    cp->gpu_idle_w = -1;
    cp->where = n;
    const ynode *v;
    if ((v = ymap_get(n, "pue"))) {
        if (y_double(v, "power.pue", &cp->pue, err)) return -1;
        if (!(cp->pue >= 1 && cp->pue <= 10)) {
            yerr(err, v, "power.pue: expected a power usage effectiveness from 1 to 10");
            return -1;
        }
    }
    if ((v = ymap_get(n, "envelope")) && power_value_parse(v, "power.envelope", &cp->envelope_w, err)) return -1;
    if ((v = ymap_get(n, "nodeBase")) && power_value_parse(v, "power.nodeBase", &cp->node_base_w, err)) return -1;
    if ((v = ymap_get(n, "gpuIdle")) && power_value_parse(v, "power.gpuIdle", &cp->gpu_idle_w, err)) return -1;
    c->power = cp;
    return 0;
}

int cluster_chargeback_parse(const ynode *n, cluster_spec *c, strbuf *err) {
    static const char *const keys[] = {"idle", NULL};
    if (y_expect(n, YN_MAP, "chargeback", err) || ymap_check_keys(n, keys, "chargeback", err)) return -1;
    const ynode *v = ymap_get(n, "idle");
    if (!v) return 0;
    if (y_scalar_eq(v, "none")) c->charge_idle = CHARGE_IDLE_NONE;
    else if (y_scalar_eq(v, "spread")) c->charge_idle = CHARGE_IDLE_SPREAD;
    else {
        yerr(err, v, "chargeback.idle: expected none (idle capacity is charged to nobody) or spread (in proportion "
                     "to each group's allocated cost)");
        return -1;
    }
    return 0;
}

int cost_spec_check(const cluster_spec *c, strbuf *err) {
    for (size_t i = 0; i < c->npools; i++) {
        const node_pool_spec *p = &c->pools[i];
        /* one price per node; a spot node group's reclaimed nodes are replaced (autoscale/ca_run.c) */
        if (p->spot && p->price) {
            yerr(err, p->spot->where, "spot: pool %s is spot capacity: give its price in spot.price, not price",
                 p->name);
            return -1;
        }
        if (!p->price) continue;
        int max = p->autoscaling ? p->autoscaling->max : p->count;
        if (p->price->reserved > max) {
            yerr(err, ymap_get(p->price->where, "reserved"),
                 "price.reserved: %d reserved nodes, but pool %s has at most %d (%s)", p->price->reserved, p->name,
                 max, p->autoscaling ? "autoscaling.max" : "count");
            return -1;
        }
        /* a node beyond the reserved ones needs an on-demand price (or the node group's autoscaling.price) */
        if (p->price->on_demand < 0 && p->price->reserved < max && !(p->autoscaling && p->autoscaling->price > 0)) {
            yerr(err, p->price->where, "price: pool %s may bill %d nodes beyond its %d reserved ones: give "
                 "price.onDemand", p->name, max - p->price->reserved, p->price->reserved);
            return -1;
        }
    }
    return 0;
}

double cost_gpu_max_w(const node_pool_spec *p, const gpu_model *m) {
    if (p->power && p->power->gpu_max_w >= 0) return p->power->gpu_max_w;
    return m ? m->max_power_w : 0;
}

double cost_gpu_idle_w(const cluster_spec *c, const node_pool_spec *p) {
    if (p->power && p->power->gpu_idle_w >= 0) return p->power->gpu_idle_w;
    return c->power ? c->power->gpu_idle_w : -1;
}

double cost_node_base_w(const cluster_spec *c, const node_pool_spec *p) {
    if (p->power && p->power->node_base_w >= 0) return p->power->node_base_w;
    return c->power ? c->power->node_base_w : 0;
}

double cost_on_demand(const node_pool_spec *p) {
    if (p->spot) return p->spot->price;
    if (p->price && p->price->on_demand >= 0) return p->price->on_demand;
    return p->autoscaling ? p->autoscaling->price : 0;
}

int cost_pool_power_check(const cluster_spec *c, const node_pool_spec *p, const gpu_model *m, strbuf *err) {
    if (!p->gpu_model || p->gpus <= 0) return 0;
    double max = cost_gpu_max_w(p, m), idle = cost_gpu_idle_w(c, p);
    if (max <= 0) {
        yerr(err, p->gpu_model_where, "gpu.model: no power figure for GPU model '%s' (cluster.power is set; the "
             "catalog has no maxPowerW for it): give the pool's power.gpuMax", p->gpu_model);
        return -1;
    }
    if (idle < 0) {
        yerr(err, p->power ? p->power->where : c->power->where, "power: pool %s needs the GPUs' idle power "
             "(power.gpuIdle of the pool or the cluster; NVIDIA's data sheets publish none)", p->name);
        return -1;
    }
    if (idle > max) {
        yerr(err, p->power && p->power->gpu_idle_w >= 0 ? ymap_get(p->power->where, "gpuIdle") : c->power->where,
             "power.gpuIdle: %g W is above the GPU's maximum %g W (pool %s)", idle, max, p->name);
        return -1;
    }
    return 0;
}
