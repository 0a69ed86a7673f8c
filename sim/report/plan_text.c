/* plan_text.c -- the words of `drasim plan`'s answer, shared by its terminal
 * output (cli/cmd_plan.c) and its report page (plan_html.c). */
#include "report/plan.h"

#include <stdlib.h>
#include <string.h>

int64_t plan_nodes(const plan_ctx *c, const int64_t *x, const size_t *pick) {
    int64_t nodes = 0;
    for (size_t d = 0; d < c->k; d++) nodes += x[d];
    for (size_t j = 0; pick && j < c->nchoices; j++) {
        const plan_choice *ch = &c->choices[j];
        bool racks = !strcmp(ch->field, "topology.racks");
        if (!racks && strcmp(ch->field, "topology.nodesPerRack")) continue;
        int64_t v = atoll(ch->values[pick[j]]), other = ch->topo_other;
        for (size_t i = 0; i < c->nchoices; i++)   /* both varied: counted once, at the racks */
            if (i != j && !strcmp(c->choices[i].pool, ch->pool) &&
                !strcmp(c->choices[i].field, racks ? "topology.nodesPerRack" : "topology.racks")) {
                if (!racks) v = 0;
                else other = atoll(c->choices[i].values[pick[i]]);
            }
        nodes += v * other;
    }
    return nodes;
}

void plan_point_text(const plan_ctx *c, const int64_t *x, const size_t *pick, double cost, bool by_cost,
                     strbuf *out) {
    int64_t nodes = plan_nodes(c, x, pick);
    for (size_t d = 0; d < c->k; d++) sb_printf(out, "%s%s=%lld", d ? " " : "", c->dims[d].pool, (long long)x[d]);
    if (c->nchoices) sb_putc(out, ' ');
    plan_choices_text(c, pick, out);
    sb_printf(out, " (%lld node%s", (long long)nodes, nodes == 1 ? "" : "s");
    /* a node group's price x max bounds its cost: the measured cost is printed after the answer */
    if (by_cost) sb_printf(out, ", %s%.4g per hour", plan_autoscaled(c) ? "at most " : "", cost);
    sb_putc(out, ')');
}

void plan_nonmonotone_text(const plan_ctx *c, strbuf *out) {
    for (size_t i = 0; i < c->nprobes; i++)
        for (size_t j = 0; j < c->nprobes; j++) {
            const plan_probe *p = &c->probes[i], *q = &c->probes[j];
            bool ge = p->pass && !q->pass && i != j && plan_same_choices(c, p, q);
            for (size_t d = 0; d < c->k && ge; d++) ge = q->x[d] >= p->x[d];
            if (!ge) continue;
            sb_puts(out, " pass at ");
            plan_point_text(c, p->x, p->pick, p->cost, false, out);
            sb_puts(out, " but FAIL at ");
            plan_point_text(c, q->x, q->pick, q->cost, false, out);
            sb_putc(out, ';');
        }
}

const plan_probe *plan_answer_probe(const plan_ctx *c) {
    for (size_t i = 0; c->found && i < c->nprobes; i++) {
        const plan_probe *p = &c->probes[i];
        if (!memcmp(p->x, c->best, c->k * sizeof *p->x) &&
            (!c->nchoices || !memcmp(p->pick, c->best_pick, c->nchoices * sizeof *p->pick)))
            return p;
    }
    return NULL;
}
