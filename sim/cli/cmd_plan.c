/* cmd_plan.c -- `drasim plan SCENARIO --expect SLO.yaml --vary POOL=MIN..MAX ...`:
 * the smallest (or, with --cost, cheapest) fleet whose runs meet every
 * expectation (sim/report/plan.h: the search; docs/CI.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/plan_price.h"
#include "cli/plan_vary.h"
#include "model/yaml_tree.h"
#include "report/plan.h"
#include "report/runner.h"
#include "store/output_path.h"
#include "store/store.h"
#include "util/intern.h"
#include "util/xalloc.h"
#include "model/trace_fleet.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: drasim plan SCENARIO --expect SLO.yaml --vary POOL=MIN..MAX [--vary ...]\n"
            "                   [--vary POOL.FIELD=V1,V2,...]...\n"
            "                   [--cost POOL=PRICE_PER_HOUR]... [--seeds LIST] [--set KEY=VALUE]...\n"
            "                   [--confidence C [--max-seeds N]] [--minimize cost|energy]\n"
            "                   [-o PLAN.db] [--report DIR] [-j N] [--force] [--quiet]\n\n"
            "Find the smallest fleet (fewest nodes of the varied pools; with --cost the\n"
            "cheapest: sum of PRICE x nodes) whose runs meet every expectation of SLO.yaml\n"
            "(the format of `drasim check`, docs/CI.md). A point passes when the run of\n"
            "every seed meets every expectation (the thresholds' mean/min/max over the\n"
            "seeds, as `drasim check` evaluates them). The search assumes more nodes never\n"
            "hurt: it bisects each pool's count, then walks the frontier; it never runs the\n"
            "full grid. Probes run in parallel, one child process each.\n\n"
            "  --expect FILE        expectations (required)\n"
            "  --vary POOL=MIN..MAX the node count of node pool POOL (by name), 0 <= MIN <= MAX;\n"
            "                       for a pool with `autoscaling`, its max (MIN >= its min, >= 1), and\n"
            "                       each probe's measured ca_cost and ca_node_hours are reported\n"
            "  --vary POOL.FIELD=V1,V2,...  a value per probe, searched per combination: FIELD\n"
            "                       gpu.migLayout (migLayout), gpu.model (gpuModel; MODEL:PRICE prices\n"
            "                       the pool per model), devicePlugin.timeSlicing.replicas,\n"
            "                       devicePlugin.mps.replicas; ties go to the earlier values\n"
            "  --vary queues.CQ.FLAVOR.RESOURCE=V1,V2,... (or =LO..HI/STEP)  a ClusterQueue's\n"
            "                       nominalQuota (.borrowingLimit, .lendingLimit) per probe, every\n"
            "                       value run; list ascending: the smallest passing quota wins\n"
            "  --cost POOL=PRICE    price per node and hour (> 0); given for one pool, needed for all\n"
            "                       (a node group defaults to its autoscaling.price)\n"
            "  --seeds LIST         42..51 or 1,5,9 (overrides the expect file's seeds)\n"
            "  --confidence C       add seeds to a probe until each threshold's pass/fail is decided\n"
            "                       at level C, 0 < C < 1 (a sequential test, docs/CI.md); the first\n"
            "                       batch is the seeds (default 1..2), then doubling\n"
            "  --max-seeds N        the cap of seeds per probe with --confidence (default 32)\n"
            "  --minimize cost|energy  answer with the passing fleet of least measured cost_total\n"
            "                       (prices from the scenario, docs/COST.md) or energy_kwh, and print\n"
            "                       the Pareto front of it against the first threshold's value\n"
            "  --set KEY=VALUE      scenario override, after the expect file's `set`\n"
            "  -o, --output FILE    results database: every probe's runs, `sweep` and `plan` tables\n"
            "  --report DIR         index.html and plots of each threshold's metric against fleet size\n"
            "  -j, --jobs N         probes run at a time (default: the number of cores); the\n"
            "                       probes themselves never depend on it\n"
            "  --force              replace FILE / DIR even when drasim did not write them\n"
            "  -q, --quiet          print only the answer\n"
            "exit codes: 0 a fleet passes, 1 no fleet in the ranges passes, 2 usage or\n"
            "            processing error, 3 invalid scenario or expect file\n");
}

static int parse_i64(const char *s, const char *end, int64_t *out) {
    if (s == end || end - s > 18) return -1;
    int64_t v = 0;
    bool neg = *s == '-';
    if (neg) s++;
    if (s == end) return -1;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9') return -1;
        v = v * 10 + (*s - '0');
    }
    *out = neg ? -v : v;
    return 0;
}

/* "POOL=MIN..MAX" */
static int parse_vary(const char *text, plan_dim *d, strbuf *err) {
    const char *eq = strchr(text, '='), *dots = eq ? strstr(eq, "..") : NULL;
    if (!eq || eq == text || !dots || parse_i64(eq + 1, dots, &d->lo) ||
        parse_i64(dots + 2, dots + 2 + strlen(dots + 2), &d->hi)) {
        sb_printf(err, "--vary %s: expected POOL=MIN..MAX (node counts)", text);
        return -1;
    }
    d->pool = intern_n(text, (size_t)(eq - text));
    if (d->lo < 0) sb_printf(err, "--vary %s: MIN must be at least 0", text);
    else if (d->lo > d->hi) sb_printf(err, "--vary %s: inverted range (MIN %lld > MAX %lld)", text,
                                      (long long)d->lo, (long long)d->hi);
    else if (d->hi > 1000000) sb_printf(err, "--vary %s: MAX must be at most 1000000", text);
    d->price = 1;
    return err->len ? -1 : 0;
}

/* A scalar of map m as a number, or `dflt`. */
static double num_or(const ynode *m, const char *key, double dflt) {
    const ynode *v = m ? ymap_get(m, key) : NULL;
    char *end;
    double r = v && v->kind == YN_SCALAR ? strtod(v->str, &end) : dflt;
    return v && v->kind == YN_SCALAR && end != v->str && !*end ? r : dflt;
}

/* The pool is a node group (`autoscaling`, docs/AUTOSCALER.md): vary its max.
 * A range below its min (or below 1, a group's least max) is refused. 0 or -1 with err. */
static int autoscaled_dim(const ynode *pool, plan_dim *d, double *group_price, strbuf *err) {
    const ynode *as = ymap_get(pool, "autoscaling");
    if (!as || as->kind != YN_MAP) return 0;
    d->autoscaled = true;
    d->start_count = (int64_t)num_or(pool, "count", 0);
    *group_price = num_or(as, "price", 0);
    int64_t min = (int64_t)num_or(as, "min", 0);
    if (d->lo < min || d->lo < 1) {
        sb_printf(err,
                  "--vary %s=%lld..%lld: pool '%s' is an autoscaled node group: the range varies its autoscaling.max,"
                  " which cannot be below its min (%lld) nor below 1",
                  d->pool, (long long)d->lo, (long long)d->hi, d->pool, (long long)min);
        return -1;
    }
    return 0;
}

/* Equal YAML trees (same kinds, scalars, keys in the same order); a map's
 * keys `name` and `count` are skipped at the top (skip_top). */
static bool same_tree(const ynode *a, const ynode *b, bool skip_top) {
    if (!a || !b) return a == b;
    if (a->kind != b->kind) return false;
    if (a->kind == YN_SCALAR) return a->len == b->len && !memcmp(a->str, b->str, a->len);
    size_t i = 0, j = 0;
    for (;;) {
        if (skip_top && a->kind == YN_MAP)
            while (i < a->n && (y_scalar_eq(a->keys[i], "name") || y_scalar_eq(a->keys[i], "count"))) i++;
        if (skip_top && b->kind == YN_MAP)
            while (j < b->n && (y_scalar_eq(b->keys[j], "name") || y_scalar_eq(b->keys[j], "count"))) j++;
        if (i == a->n || j == b->n) return i == a->n && j == b->n;
        if (a->kind == YN_MAP && !same_tree(a->keys[i], b->keys[j], false)) return false;
        if (!same_tree(a->vals[i], b->vals[j], false)) return false;
        i++, j++;
    }
}

/* Does a scalar of n (other than `self`) name the pool: its name, or a node
 * name "<pool>-..."? */
static bool mentions(const ynode *n, const char *pool, const ynode *self) {
    if (!n || n == self) return false;
    if (n->kind == YN_SCALAR) {
        size_t l = strlen(pool);
        return n->len >= l && !strncmp(n->str, pool, l) && (n->len == l || n->str[l] == '-');
    }
    for (size_t i = 0; i < n->n; i++)
        if ((n->kind == YN_MAP && mentions(n->keys[i], pool, self)) || mentions(n->vals[i], pool, self)) return true;
    return false;
}

/* Pools identical but for their name (and count), priced and ranged alike,
 * that nothing else in the scenario or the overrides names: a fleet depends
 * only on their total (docs/CI.md), so the search varies the total of such
 * twins (plan_search.c). Sets dims[d].twin. */
static void find_twins(const ynode *root, const ynode *const *pool_node, plan_dim *dims, size_t k,
                       const char *const *sets, size_t nsets) {
    int next = 1;
    bool *named = xcalloc(k ? k : 1, sizeof *named);
    for (size_t d = 0; d < k; d++) {
        const ynode *nm = ymap_get(pool_node[d], "name");
        named[d] = dims[d].autoscaled || mentions(root, dims[d].pool, nm);
        for (size_t i = 0; i < nsets && !named[d]; i++) named[d] = strstr(sets[i], dims[d].pool) != NULL;
    }
    for (size_t d = 0; d < k; d++) {
        if (named[d] || dims[d].twin) continue;
        for (size_t e = d + 1; e < k; e++) {
            if (named[e] || dims[e].twin || dims[e].price != dims[d].price || dims[e].lo != dims[d].lo ||
                dims[e].hi != dims[d].hi || !same_tree(pool_node[d], pool_node[e], true))
                continue;
            if (!dims[d].twin) dims[d].twin = next++;
            dims[e].twin = dims[d].twin;
        }
    }
    free(named);
}

/* find_twins over the scenario file (already loaded once by check_pools). */
static void mark_twins(const char *scenario, plan_dim *dims, size_t k, const char *const *sets, size_t nsets) {
    yfile f;
    strbuf err = {0};
    if (scenario_file_load(scenario, &f, &err)) {
        sb_free(&err);
        return;
    }
    const ynode *root = f.ndocs ? f.docs[0] : NULL;
    const ynode *cl = root && root->kind == YN_MAP ? ymap_get(root, "cluster") : NULL;
    const ynode *pools = cl && cl->kind == YN_MAP ? ymap_get(cl, "nodePools") : NULL;
    const ynode **pool_node = xcalloc(k ? k : 1, sizeof *pool_node);
    bool all = true;
    for (size_t d = 0; d < k; d++) {
        for (size_t i = 0; pools && pools->kind == YN_SEQ && i < pools->n; i++) {
            const ynode *nm = pools->vals[i]->kind == YN_MAP ? ymap_get(pools->vals[i], "name") : NULL;
            if (nm && nm->kind == YN_SCALAR && !strcmp(nm->str, dims[d].pool)) pool_node[d] = pools->vals[i];
        }
        all &= pool_node[d] != NULL;
    }
    if (all) find_twins(root, pool_node, dims, k, sets, nsets);
    free(pool_node);
    yfile_free(&f);
    sb_free(&err);
}

/* Every --vary names a node pool of the scenario file; pools with
 * `autoscaling` are marked (group_price[d]: their autoscaling.price, else 0).
 * 0, -1 (usage: err), -2 (bad file: err). */
static int check_pools(const char *scenario, plan_dim *dims, size_t k, double *group_price, strbuf *err) {
    yfile f;
    if (scenario_file_load(scenario, &f, err)) return -2;
    const ynode *root = f.ndocs ? f.docs[0] : NULL;
    const ynode *cl = root && root->kind == YN_MAP ? ymap_get(root, "cluster") : NULL;
    const ynode *pools = cl && cl->kind == YN_MAP ? ymap_get(cl, "nodePools") : NULL;
    strbuf names = {0};
    int rc = 0;

    for (size_t i = 0; pools && pools->kind == YN_SEQ && i < pools->n; i++) {
        const ynode *nm = pools->vals[i]->kind == YN_MAP ? ymap_get(pools->vals[i], "name") : NULL;
        if (nm && nm->kind == YN_SCALAR) sb_printf(&names, "%s%s", names.len ? ", " : "", nm->str);
    }
    for (size_t d = 0; d < k && !rc; d++) {
        bool found = false;
        for (size_t i = 0; pools && pools->kind == YN_SEQ && i < pools->n && !found; i++) {
            const ynode *nm = pools->vals[i]->kind == YN_MAP ? ymap_get(pools->vals[i], "name") : NULL;
            found = nm && nm->kind == YN_SCALAR && !strcmp(nm->str, dims[d].pool);
            if (found && autoscaled_dim(pools->vals[i], &dims[d], &group_price[d], err)) rc = -1;
        }
        if (!found && !rc) {
            sb_clear(err);
            sb_printf(err, "--vary %s: %s has no node pool named '%s' (its pools: %s)", dims[d].pool, scenario,
                      dims[d].pool, names.len ? sb_str(&names) : "none");
            rc = -1;
        }
    }
    sb_free(&names);
    yfile_free(&f);
    return rc;
}

static void print_point(const plan_ctx *c, const int64_t *x, const size_t *pick, double cost, bool by_cost) {
    strbuf t = {0};
    plan_point_text(c, x, pick, cost, by_cost, &t);
    fputs(sb_str(&t), stdout);
    sb_free(&t);
}

/* The measured cost of a probe: ca_cost and ca_node_hours, means over the seeds. */
static void print_measured(const plan_probe *p) {
    if (isnan(p->ca_cost)) printf("  %10s  %10s", "-", "-");
    else printf("  %10.2f  %10.2f", p->ca_cost, p->ca_node_hours);
}

static void print_probes(const plan_ctx *c, bool by_cost) {
    printf("probe");
    for (size_t d = 0; d < c->k; d++) printf("  %s", c->dims[d].pool);
    for (size_t j = 0; j < c->nchoices; j++) printf("  %s.%s", c->choices[j].pool, c->choices[j].field);
    bool ca = plan_autoscaled(c);
    printf("  nodes%s%s%s%s  result  failing\n", by_cost ? "  cost" : "", ca ? "     ca_cost  node_hours" : "",
           c->confidence ? "  runs" : "", c->objective ? (strcmp(c->objective, "cost_total") ? "  energy_kwh" : "  cost_total") : "");
    for (size_t i = 0; i < c->nprobes; i++) {
        const plan_probe *p = &c->probes[i];
        int64_t nodes = plan_nodes(c, p->x, p->pick);
        printf("%5zu", i + 1);
        for (size_t d = 0; d < c->k; d++) printf("  %*lld", (int)strlen(c->dims[d].pool), (long long)p->x[d]);
        for (size_t j = 0; j < c->nchoices; j++)
            printf("  %*s", (int)(strlen(c->choices[j].pool) + 1 + strlen(c->choices[j].field)),
                   c->choices[j].values[p->pick[j]]);
        printf("  %5lld", (long long)nodes);
        if (by_cost) printf("  %.4g", p->cost);
        if (ca) print_measured(p);
        if (c->confidence) printf("  %4zu", p->nruns);
        if (c->objective) printf("  %10.6g", p->objective);   /* --minimize: measured, mean over the seeds */
        /* pass? / FAIL?: undecided at the cap of seeds, the point estimate */
        const char *result = p->undecided ? (p->pass ? "pass?" : "FAIL?") : p->pass ? "pass" : "FAIL";
        if (p->undecided || p->failing || p->verify || p->nonmonotone)
            printf("  %-6s  %s", result, p->undecided ? "undecided: " : "");
        else
            printf("  %s", result);   /* no trailing blanks on a plain pass */
        printf("%s", p->undecided ? p->undecided_by : p->failing ? p->failing : "");
        if (p->verify) printf("%s(one step above the answer)", p->failing || p->undecided ? " " : "");
        if (p->nonmonotone) printf(" <- not monotone");
        printf("\n");
    }
}

static void remove_probes(const plan_ctx *c, const char *tmpdir) {
    for (size_t i = 0; i < c->nprobes; i++)
        for (size_t j = 0; j < c->probes[i].ndbs; j++) unlink(c->probes[i].dbs[j]);
    rmdir(tmpdir);
}

int cmd_plan(int argc, char **argv) {
    const char *scenario = NULL, *expect_path = NULL, *out = NULL, *report_dir = NULL, *seeds_text = NULL;
    bool quiet = false, force = false, by_cost = false;
    plan_dim *dims = xcalloc((size_t)argc, sizeof *dims);
    plan_choice *choices = xcalloc((size_t)argc, sizeof *choices);
    size_t nch = 0;
    double *group_price = xcalloc((size_t)argc, sizeof *group_price);
    bool *priced = xcalloc((size_t)argc, sizeof *priced);
    const char **costs = xcalloc((size_t)argc, sizeof *costs), **cli_sets = xcalloc((size_t)argc, sizeof *cli_sets);
    size_t k = 0, ncosts = 0, ncli = 0;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN), max_seeds = 0;
    double confidence = 0;
    const char *objective = NULL;   /* --minimize: cost_total or energy_kwh */
    uint64_t *more = NULL;
    int rc = EXIT_OK;
    strbuf err = {0};
    expect_spec e = {0};
    bool have_e = false, have_tmp = false;
    uint64_t *seeds = NULL;
    size_t nseeds = 0;
    const char **sets = NULL, **origins = NULL;
    char tmpdir[] = "/tmp/drasim-plan-XXXXXX";
    plan_ctx c = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            goto done;
        } else if (!strcmp(a, "--expect") && i + 1 < argc) {
            expect_path = argv[++i];
        } else if (!strcmp(a, "--vary") && i + 1 < argc && plan_vary_is_choice(argv[i + 1])) {
            if (plan_vary_choice(argv[++i], &choices[nch++], &err)) goto usage_error;
        } else if (!strcmp(a, "--vary") && i + 1 < argc) {
            if (parse_vary(argv[++i], &dims[k++], &err)) goto usage_error;
        } else if (!strcmp(a, "--cost") && i + 1 < argc) {
            costs[ncosts++] = argv[++i];
        } else if (!strcmp(a, "--seeds") && i + 1 < argc) {
            seeds_text = argv[++i];
        } else if (!strcmp(a, "--set") && i + 1 < argc) {
            cli_sets[ncli++] = argv[++i];
        } else if (!strcmp(a, "--confidence") && i + 1 < argc) {
            char *end;
            confidence = strtod(argv[++i], &end);
            if (*end || end == argv[i] || !(confidence > 0 && confidence < 1)) {
                sb_printf(&err, "--confidence %s: expected a level between 0 and 1 (exclusive), e.g. 0.95", argv[i]);
                goto usage_error;
            }
        } else if (!strcmp(a, "--minimize") && i + 1 < argc) {
            const char *m = argv[++i];
            objective = !strcmp(m, "cost") ? "cost_total" : !strcmp(m, "energy") ? "energy_kwh" : NULL;
            if (!objective) {
                sb_printf(&err, "--minimize %s: expected cost or energy", m);
                goto usage_error;
            }
        } else if (!strcmp(a, "--max-seeds") && i + 1 < argc) {
            char *end;
            max_seeds = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || max_seeds < 1 || max_seeds > 10000) {
                sb_printf(&err, "--max-seeds %s: expected a number of seeds, 1..10000", argv[i]);
                goto usage_error;
            }
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--report") && i + 1 < argc) {
            report_dir = argv[++i];
        } else if ((!strcmp(a, "-j") || !strcmp(a, "--jobs")) && i + 1 < argc) {
            char *end;
            jobs = strtol(argv[++i], &end, 10);
            if (*end || jobs < 1 || jobs > 256) {
                sb_printf(&err, "-j %s: expected a number of probes at a time, 1..256", argv[i]);
                goto usage_error;
            }
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
        } else if (!strcmp(a, "--force")) {
            force = true;
        } else if (a[0] == '-' || scenario) {
            sb_printf(&err, "unexpected argument '%s'", a);
            goto usage_error;
        } else {
            scenario = a;
        }
    }
    if (!scenario || !expect_path || !k) {
        sb_puts(&err, !scenario ? "give a SCENARIO" : !expect_path ? "--expect FILE is required"
                                                                     : "give at least one --vary POOL=MIN..MAX"
                                                                       " (a fixed count: POOL=N..N)");
        goto usage_error;
    }
    for (size_t d = 0; d < k; d++)
        for (size_t j = 0; j < d; j++)
            if (dims[j].pool == dims[d].pool) {
                sb_printf(&err, "--vary %s: the pool is varied twice", dims[d].pool);
                goto usage_error;
            }
    for (size_t i = 0; i < ncosts; i++) {
        const char *eq = strchr(costs[i], '=');
        char *end = NULL;
        double price = eq ? strtod(eq + 1, &end) : 0;
        const char *pool = eq ? intern_n(costs[i], (size_t)(eq - costs[i])) : NULL;
        size_t d = 0;
        while (d < k && dims[d].pool != pool) d++;
        if (!eq || !end || *end || end == eq + 1 || !(price > 0 && price < 1e12)) {
            sb_printf(&err, "--cost %s: expected POOL=PRICE with a price per node and hour > 0", costs[i]);
            goto usage_error;
        }
        if (d == k) {
            sb_printf(&err, "--cost %s: no --vary names the pool '%s'", costs[i], pool);
            goto usage_error;
        }
        dims[d].price = price;
        priced[d] = true;
        by_cost = true;
    }
    /* gpu.model values priced MODEL:PRICE: the pool's price per probe (its --cost would be a second one) */
    for (size_t j = 0; j < nch; j++) {
        if (!choices[j].prices) continue;
        size_t d = 0;
        while (d < k && dims[d].pool != choices[j].pool) d++;
        if (d == k) {
            sb_printf(&err, "--vary %s: a priced model needs the pool's count varied too (a fixed count: --vary %s=N..N)",
                      choices[j].arg, choices[j].pool);
            goto usage_error;
        }
        if (priced[d]) {
            sb_printf(&err, "--vary %s: pool '%s' has a --cost too; give its price once (per model, or --cost)",
                      choices[j].arg, choices[j].pool);
            goto usage_error;
        }
        priced[d] = true;
        by_cost = true;
    }
    if (expect_load(expect_path, &e, &err)) {
        fprintf(stderr, "drasim plan: %s\n", sb_str(&err));
        rc = EXIT_BAD_INPUT;
        goto done;
    }
    have_e = true;
    int pr = check_pools(scenario, dims, k, group_price, &err);
    if (!pr) pr = plan_vary_check(scenario, choices, nch, &err);
    bool min_cost = objective && !strcmp(objective, "cost_total");
    if (!pr && objective) pr = plan_scenario_prices(scenario, dims, k, priced, min_cost, choices, nch, &err);
    for (size_t d = 0; d < k && !pr && min_cost; d++) priced[d] = by_cost = true;
    if (pr) {
        fprintf(stderr, "drasim plan: %s\n", sb_str(&err));
        rc = pr == -2 ? EXIT_BAD_INPUT : EXIT_ERROR;
        goto done;
    }
    /* a node group without --cost is priced by its autoscaling.price; when every varied pool is
     * such a group the search is by cost (price x max, an upper bound of the cost per hour) */
    bool groups_priced = true;
    for (size_t d = 0; d < k; d++) groups_priced &= dims[d].autoscaled && group_price[d] > 0;
    by_cost |= groups_priced;
    for (size_t d = 0; d < k && by_cost; d++) {
        if (priced[d]) continue;
        if (dims[d].autoscaled && group_price[d] > 0) {
            dims[d].price = group_price[d];
            continue;
        }
        sb_printf(&err, "--vary %s: the pool has no --cost (with --cost, every varied pool needs a price%s)",
                  dims[d].pool, dims[d].autoscaled ? "; the node group has no autoscaling.price" : "");
        goto usage_error;
    }
    /* outputs are checked before any run (docs/SECURITY.md) */
    const char *inputs[] = {scenario, expect_path, e.baseline_file};
    output_target targets[2] = {
        {.path = out, .kind = OUTPUT_DATABASE, .force = force, .inputs = inputs, .ninputs = 3, .option = "-o"},
        {.path = report_dir, .kind = OUTPUT_DIRECTORY, .force = force, .inputs = inputs, .ninputs = 3,
         .option = "--report"}};
    for (int t = 0; t < 2; t++)
        if (targets[t].path && output_check(&targets[t], &err)) {
            fprintf(stderr, "drasim plan: %s\n", sb_str(&err));
            rc = EXIT_ERROR;
            goto done;
        }
    if (seeds_text && parse_seed_list(seeds_text, &seeds, &nseeds, &err)) goto usage_error;
    if (max_seeds && !confidence) {
        sb_puts(&err, "--max-seeds: only with --confidence");
        goto usage_error;
    }
    size_t n0 = seeds ? nseeds : e.nseeds, cap = max_seeds ? (size_t)max_seeds : 32, looks = 1;
    if (confidence) {   /* the seeds of every batch: the first ones, then the next integers not among them */
        const uint64_t *first = seeds ? seeds : e.seeds;
        static const uint64_t dflt[] = {1, 2};
        if (!n0) first = dflt, n0 = 2;
        if (e.nbaseline) {
            sb_puts(&err, "--confidence: the expect file has a baseline, which holds fixed seeds; drop one of them");
            goto usage_error;
        }
        if (cap < n0) cap = n0;
        more = xcalloc(cap, sizeof *more);
        uint64_t next = 0;
        for (size_t i = 0; i < cap; i++) {
            if (i < n0) {
                more[i] = first[i];
                if (first[i] >= next) next = first[i] + 1;
                continue;
            }
            bool taken;
            do {
                taken = false;
                for (size_t j = 0; j < n0 && !taken; j++) taken = first[j] == next;
                if (taken) next++;
            } while (taken);
            more[i] = next++;
        }
        for (size_t r = n0; r < cap; r *= 2) looks++;
    }
    sets = xcalloc(e.nsets + ncli + nch + 1, sizeof *sets);
    origins = xcalloc(e.nsets + ncli + nch + 1, sizeof *origins);
    for (size_t i = 0; i < e.nsets; i++) {
        sets[i] = e.sets[i];
        origins[i] = e.set_origins[i];
    }
    for (size_t i = 0; i < ncli; i++) sets[e.nsets + i] = cli_sets[i];
    for (size_t j = 0; j < nch; j++) sets[e.nsets + ncli + j] = choices[j].arg;   /* a pool with choices is no twin */
    mark_twins(scenario, dims, k, sets, e.nsets + ncli + nch);
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "drasim plan: cannot create a temporary directory: %s\n", strerror(errno));
        rc = EXIT_ERROR;
        goto done;
    }
    have_tmp = true;
    c = (plan_ctx){.dims = dims, .k = k, .jobs = (int)jobs, .probe = plan_probe_run, .scenario = scenario,
                   .sets = sets, .set_origins = origins, .nsets = e.nsets + ncli,
                   .seeds = more ? more : seeds ? seeds : e.seeds, .nseeds = more ? n0 : seeds ? nseeds : e.nseeds,
                   .expect = &e, .tmpdir = tmpdir, .interrupt = cli_catch_interrupts(), .confidence = confidence,
                   .more_seeds = more, .max_seeds = cap, .looks = looks, .choices = choices, .nchoices = nch,
                   .objective = objective, .batch = objective ? 4 : 2};
    if (confidence) c.probe = plan_probe_confident;
    int code = EXIT_ERROR;
    if (plan_search_all(&c, &code, &err) || (objective && plan_minimize_answer(&c, &err))) {
        fprintf(stderr, "drasim plan: %s\n", *c.interrupt ? "interrupted" : sb_str(&err));
        rc = code;
        goto done;
    }
    double grid = 1;
    for (size_t d = 0; d < k; d++) grid *= (double)(dims[d].hi - dims[d].lo + 1);
    for (size_t j = 0; j < nch; j++) grid *= (double)choices[j].n;
    if (!quiet) {
        for (size_t d = 0; d < k; d++) {   /* twins: the pools whose total is searched */
            bool first = dims[d].twin != 0;
            for (size_t e = 0; e < d && first; e++) first = dims[e].twin != dims[d].twin;
            for (size_t e = d; first && e < k; e++)
                if (dims[e].twin == dims[d].twin) printf("%s%s", e == d ? "" : ", ", dims[e].pool);
            if (first) printf(": identical but for their name, so their total is searched\n");
        }
        for (size_t d = 0; d < k; d++)
            if (dims[d].autoscaled)
                printf("%s is a node group: varying its autoscaling.max%s\n", dims[d].pool,
                       by_cost ? " (price x max: an upper bound of its cost per hour)" : "");
        print_probes(&c, by_cost);
    }
    if (c.found) {
        printf("answer: ");
        print_point(&c, c.best, c.best_pick, c.best_cost, by_cost);
        size_t searched = 0, undecided = 0;
        for (size_t i = 0; i < c.nprobes; i++) searched += !c.probes[i].verify, undecided += c.probes[i].undecided;
        printf(" after %zu probes (a full grid: %.0f points)\n", searched, grid);
        if (confidence) {
            size_t runs = 0;
            for (size_t i = 0; i < c.nprobes; i++) runs += c.probes[i].nruns;
            printf("confidence %g: %zu of %zu probes decided, %zu runs in all (%zu to %zu seeds a probe)\n", confidence,
                   c.nprobes - undecided, c.nprobes, runs, n0, cap);
            for (size_t i = 0; i < c.nprobes; i++)
                if (c.probes[i].undecided) {
                    printf("undecided at %zu seeds: ", c.probes[i].nruns);
                    print_point(&c, c.probes[i].x, c.probes[i].pick, c.probes[i].cost, by_cost);
                    printf(" (%s; taken as %s)\n", c.probes[i].undecided_by, c.probes[i].pass ? "pass" : "FAIL");
                }
        }
        if (c.nonmonotone) {
            fprintf(stderr, "drasim plan: warning: not monotone, the answer is not trustworthy:");
            strbuf pairs = {0};
            plan_nonmonotone_text(&c, &pairs);
            printf("NOT MONOTONE, the answer is not trustworthy:%s", sb_str(&pairs));
            sb_free(&pairs);
            printf(" more seeds (--confidence) or common random numbers may settle it\n");
            fprintf(stderr, " see the probes marked 'not monotone'\n");
        } else if (c.found) {
            printf("monotone one step above the answer on every axis\n");
        }
        if (objective) {   /* the measured objective at the answer, then the Pareto front */
            const plan_probe *ap = plan_answer_probe(&c);
            strbuf front = {0};
            if (ap) printf("minimized %s: %.6g at the answer (mean over the seeds)\n", objective, ap->objective);
            if (!quiet) plan_pareto_text(&c, by_cost, &front);
            fputs(sb_str(&front), stdout);
            sb_free(&front);
        }
        const plan_probe *at = plan_answer_probe(&c);
        if (at && plan_autoscaled(&c) && !isnan(at->ca_cost))
            printf("measured at the answer: ca_cost %.2f, ca_node_hours %.2f (mean over %zu seed%s)\n", at->ca_cost,
                   at->ca_node_hours, c.nseeds ? c.nseeds : 1, c.nseeds == 1 || !c.nseeds ? "" : "s");
    } else {
        printf("no fleet in the ranges meets every expectation: the largest point fails (%s)\n",
               c.nprobes && c.probes[0].failing ? c.probes[0].failing : "?");
        rc = EXIT_NEGATIVE;
    }
    if (out) {
        store st = {0};
        int64_t *first = xcalloc(c.nprobes + 1, sizeof *first);
        int wrc = store_open(&st, out, &err) || plan_merge(&c, st.db, first, &err) ? -1 : 0;
        if (wrc) store_abort(&st);
        else if (store_commit(&st, &err)) wrc = -1;
        free(first);
        if (wrc) {
            fprintf(stderr, "drasim plan: %s\n", sb_str(&err));
            rc = EXIT_ERROR;
            goto done;
        }
        if (!quiet) printf("wrote %zu probes to %s\n", c.nprobes, out);
    }
    if (report_dir) {
        if (plan_plot(&c, report_dir, by_cost, &err)) {
            fprintf(stderr, "drasim plan: %s\n", sb_str(&err));
            rc = EXIT_ERROR;
            goto done;
        }
        if (!quiet) printf("wrote the plots to %s\n", report_dir);
    }
    goto done;
usage_error:
    fprintf(stderr, "drasim plan: %s\n", sb_str(&err));
    usage(stderr);
    rc = EXIT_ERROR;
done:
    if (have_tmp) remove_probes(&c, tmpdir);
    plan_free(&c);
    if (have_e) expect_free(&e);
    free(dims);
    for (size_t j = 0; j < nch; j++) plan_choice_free(&choices[j]);
    free(choices);
    free(group_price);
    free(priced);
    free(costs);
    free(cli_sets);
    free(seeds);
    free(more);
    free(sets);
    free(origins);
    sb_free(&err);
    intern_reset();
    return rc;
}
