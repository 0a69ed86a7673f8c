/*
 * cost_spec.h -- what a fleet costs and draws (issue 30, docs/COST.md): a node
 * pool's prices and power, the cluster's power site (PUE, envelope) and the
 * chargeback rule. Parsed from the scenario by model/cost_spec.c:
 *
 *   cluster:
 *     power: {pue: 1.3, envelope: 40kW, nodeBase: 1kW, gpuIdle: 70W}   # optional: energy and power on
 *     chargeback: {idle: none}                                       # or spread
 *     nodePools:
 *     - name: h100
 *       price: {onDemand: 98.32, reserved: 2, reservedPrice: 52}     # per node-hour, any currency
 *       power: {gpuIdle: 70W, gpuMax: 700W, nodeBase: 2kW}           # overrides the catalog's and the cluster's
 *     - name: h100-spot
 *       spot: {price: 30, interruptions: {rate: 0.05/h, notice: aws, returnAfter: 30m}}
 *
 * Nothing here is a default price: a pool without `price` costs nothing
 * (its autoscaling.price, if any, is its on-demand price).
 */
#ifndef DRASIM_MODEL_COST_SPEC_H
#define DRASIM_MODEL_COST_SPEC_H

#include <stdbool.h>

#include "model/scenario.h"
#include "model/yaml_tree.h"
#include "util/arena.h"
#include "util/strbuf.h"

struct node_pool_spec;
struct cluster_spec;

/* `price:` of a node pool, per node-hour. */
typedef struct pool_price {
    double on_demand;                 /* a node beyond the reserved ones, while billed */
    int reserved;                     /* nodes paid for the whole run, used or not */
    double reserved_price;            /* their price per node-hour */
    const ynode *where;
} pool_price;

/* `spot:` of a node pool: every node is spot capacity, billed at `price`
 * while present; with `interruptions` the cloud reclaims nodes (a Poisson
 * process per node at `rate`), giving `notice` before it takes the node, and
 * the capacity comes back `returnAfter` later (workload/faults_source.c). */
typedef struct pool_spot {
    double price;
    bool interrupts;
    double rate_per_node_ms;
    sim_time notice;
    duration_dist return_after;
    const ynode *where;
} pool_spot;

/* `power:` of a node pool (watts); < 0 = not given (the cluster's, the catalog's). */
typedef struct pool_power {
    double gpu_idle_w, gpu_max_w, node_base_w;
    const ynode *where;
} pool_power;

typedef enum { CHARGE_IDLE_NONE, CHARGE_IDLE_SPREAD } charge_idle_rule;

/* `cluster.power:` (on when given) and `cluster.chargeback:`. */
typedef struct cluster_power {
    double pue;                       /* facility / IT power, >= 1 (default 1) */
    double envelope_w;                /* the site's power envelope, 0 = none */
    double node_base_w;               /* per node: CPU, memory, networking (default 0) */
    double gpu_idle_w;                /* per GPU when the catalog/pool give none, < 0 = not given */
    const ynode *where;
} cluster_power;

/* A power value: a number (watts) or a string with W or kW ("700W", "1.2kW"). */
int power_value_parse(const ynode *v, const char *what, double *watts, strbuf *err);
int pool_price_parse(const ynode *n, arena *a, struct node_pool_spec *p, strbuf *err);
int pool_spot_parse(const ynode *n, arena *a, struct node_pool_spec *p, strbuf *err);
int pool_power_parse(const ynode *n, arena *a, struct node_pool_spec *p, strbuf *err);
int cluster_power_parse(const ynode *n, arena *a, struct cluster_spec *c, strbuf *err);
int cluster_chargeback_parse(const ynode *n, struct cluster_spec *c, strbuf *err);
/* After all pools: reserved counts within a pool's max nodes (count, or
 * autoscaling.max). Returns 0 or -1 with err = "FILE:LINE:COL: ...". */
int cost_spec_check(const struct cluster_spec *c, strbuf *err);
struct gpu_model;
/* With `power:`: a GPU pool's board power must be known (pool power.gpuMax or
 * the catalog's maxPowerW; error at its gpu.model) and its idle power given
 * (pool or cluster power.gpuIdle), idle <= max. */
int cost_pool_power_check(const struct cluster_spec *c, const struct node_pool_spec *p, const struct gpu_model *m,
                          strbuf *err);
/* A pool's effective figures (watts) once checked. */
double cost_gpu_max_w(const struct node_pool_spec *p, const struct gpu_model *m);
double cost_gpu_idle_w(const struct cluster_spec *c, const struct node_pool_spec *p);
double cost_node_base_w(const struct cluster_spec *c, const struct node_pool_spec *p);
/* Its on-demand price per node-hour: price.onDemand, else autoscaling.price, else 0. */
double cost_on_demand(const struct node_pool_spec *p);

#endif
