/* plan_html.c -- `drasim plan --report DIR`: DIR/index.html, the answer
 * first (the chosen point, its SLO values, the probes --confidence left
 * undecided, a NOT MONOTONE warning with its points), then every probe, then
 * the plots (plan_plot.c), in the style of `drasim report`'s page
 * (report_html_begin, report_html_figures). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/plan.h"
#include "report/report.h"

static void num(strbuf *b, double v) {
    if (isnan(v)) sb_puts(b, "–");
    else sb_printf(b, "%.6g", v);
}

/* The answer's SLO values: one row per threshold of the expect file. */
static void answer_values(const plan_ctx *c, const plan_probe *at, strbuf *b) {
    const expect_spec *e = c->expect;
    sb_puts(b, "<table>\n<tr><th>expectation</th><th>value at the answer</th><th>result</th></tr>\n");
    for (size_t t = 0; t < e->nthresholds; t++) {
        const expect_threshold *th = &e->thresholds[t];
        double v = at && at->values ? at->values[t] : NAN;
        sb_puts(b, "<tr><td><code>");
        html_escape(b, th->text);
        sb_puts(b, "</code></td><td class=\"num\">");
        num(b, v);
        bool ok = !isnan(v) && expect_compare(v, th->op, th->value);
        sb_printf(b, "</td><td>%s</td></tr>\n", ok ? "pass" : "FAIL");
    }
    sb_puts(b, "</table>\n");
}

static void answer_section(const plan_ctx *c, bool by_cost, strbuf *b) {
    strbuf t = {0};
    size_t searched = 0, undecided = 0, runs = 0;
    double grid = 1;
    for (size_t i = 0; i < c->nprobes; i++)
        searched += !c->probes[i].verify, undecided += c->probes[i].undecided, runs += c->probes[i].nruns;
    for (size_t d = 0; d < c->k; d++) grid *= (double)(c->dims[d].hi - c->dims[d].lo + 1);
    for (size_t j = 0; j < c->nchoices; j++) grid *= (double)c->choices[j].n;
    sb_puts(b, "<h2 id=\"answer\">Answer</h2>\n");
    if (!c->found) {
        sb_puts(b, "<div class=\"note\">No fleet in the ranges meets every expectation: the largest point fails (");
        html_escape(b, c->nprobes && c->probes[0].failing ? c->probes[0].failing : "?");
        sb_puts(b, ").</div>\n");
        return;
    }
    plan_point_text(c, c->best, c->best_pick, c->best_cost, by_cost, &t);
    sb_puts(b, "<p class=\"answer\"><strong>");
    html_escape(b, sb_str(&t));
    sb_printf(b, "</strong> after %zu probes (a full grid: %.0f points).</p>\n", searched, grid);
    const plan_probe *at = plan_answer_probe(c);
    answer_values(c, at, b);
    if (c->nonmonotone) {
        sb_clear(&t);
        plan_nonmonotone_text(c, &t);
        sb_puts(b, "<div class=\"note\"><strong>NOT MONOTONE, the answer is not trustworthy:</strong>");
        html_escape(b, sb_str(&t));
        sb_puts(b, " more seeds (--confidence) or common random numbers may settle it.</div>\n");
    } else {
        sb_puts(b, "<p class=\"meta\">Monotone one step above the answer on every axis.</p>\n");
    }
    if (c->confidence) {
        sb_printf(b, "<p class=\"meta\">Confidence %g: %zu of %zu probes decided, %zu runs in all (%zu to %zu seeds a probe).</p>\n",
                  c->confidence, c->nprobes - undecided, c->nprobes, runs, c->nseeds, c->max_seeds);
        if (undecided) sb_puts(b, "<div class=\"note\">Undecided at the cap of seeds (taken at their point estimate):<ul>\n");
        for (size_t i = 0; i < c->nprobes; i++) {
            const plan_probe *p = &c->probes[i];
            if (!p->undecided) continue;
            sb_clear(&t);
            plan_point_text(c, p->x, p->pick, p->cost, by_cost, &t);
            sb_printf(b, "<li>%zu seeds: ", p->nruns);
            html_escape(b, sb_str(&t));
            sb_puts(b, " (");
            html_escape(b, p->undecided_by ? p->undecided_by : "?");
            sb_printf(b, "; taken as %s)</li>\n", p->pass ? "pass" : "FAIL");
        }
        if (undecided) sb_puts(b, "</ul></div>\n");
    }
    sb_free(&t);
}

/* Every probe, in the order run: the point, its result and first failing check. */
static void probe_table(const plan_ctx *c, bool by_cost, strbuf *b) {
    sb_puts(b, "<h2 id=\"probes\">Probes</h2>\n<table>\n<tr><th>probe</th>");
    for (size_t d = 0; d < c->k; d++) {
        sb_puts(b, "<th>");
        html_escape(b, c->dims[d].pool);
        sb_puts(b, "</th>");
    }
    for (size_t j = 0; j < c->nchoices; j++) {
        sb_puts(b, "<th>");
        html_escape(b, c->choices[j].pool);
        sb_putc(b, '.');
        html_escape(b, c->choices[j].field);
        sb_puts(b, "</th>");
    }
    sb_printf(b, "<th>nodes</th>%s<th>runs</th><th>result</th><th>failing</th></tr>\n", by_cost ? "<th>cost</th>" : "");
    const plan_probe *at = plan_answer_probe(c);
    for (size_t i = 0; i < c->nprobes; i++) {
        const plan_probe *p = &c->probes[i];
        int64_t nodes = plan_nodes(c, p->x, p->pick);
        sb_printf(b, "<tr%s><td class=\"num\">%zu</td>", p == at ? " class=\"answer\"" : "", i + 1);
        for (size_t d = 0; d < c->k; d++) sb_printf(b, "<td class=\"num\">%lld</td>", (long long)p->x[d]);
        for (size_t j = 0; j < c->nchoices; j++) {
            sb_puts(b, "<td>");
            html_escape(b, c->choices[j].values[p->pick[j]]);
            sb_puts(b, "</td>");
        }
        sb_printf(b, "<td class=\"num\">%lld</td>", (long long)nodes);
        if (by_cost) sb_printf(b, "<td class=\"num\">%.4g</td>", p->cost);
        sb_printf(b, "<td class=\"num\">%zu</td><td>%s</td><td>", p->nruns,
                  p->undecided ? (p->pass ? "pass?" : "FAIL?") : p->pass ? "pass" : "FAIL");
        if (p->undecided) sb_puts(b, "undecided: ");
        html_escape(b, p->undecided ? (p->undecided_by ? p->undecided_by : "") : p->failing ? p->failing : "");
        if (p == at) sb_puts(b, " (the answer)");
        if (p->verify) sb_puts(b, " (one step above the answer)");
        if (p->nonmonotone) sb_puts(b, " <strong>not monotone</strong>");
        sb_puts(b, "</td></tr>\n");
    }
    sb_puts(b, "</table>\n");
}

int plan_html(const plan_ctx *c, const struct report *rp, bool by_cost, strbuf *err) {
    strbuf b = {0}, path = {0};
    const char *base = strrchr(c->scenario, '/') ? strrchr(c->scenario, '/') + 1 : c->scenario;
    sb_printf(&path, "drasim plan: %s", base);
    report_html_begin(&b, sb_str(&path));
    sb_puts(&b, "<h1>drasim plan</h1>\n<p class=\"meta\">scenario <code>");
    html_escape(&b, base);
    sb_puts(&b, "</code>, varied: ");
    for (size_t d = 0; d < c->k; d++) {
        sb_puts(&b, d ? ", <code>" : "<code>");
        html_escape(&b, c->dims[d].pool);
        sb_printf(&b, "=%lld..%lld</code>", (long long)c->dims[d].lo, (long long)c->dims[d].hi);
    }
    for (size_t j = 0; j < c->nchoices; j++) {
        sb_puts(&b, ", <code>");
        html_escape(&b, c->choices[j].arg);
        sb_puts(&b, "</code>");
    }
    sb_puts(&b, ".</p>\n<nav><a href=\"#answer\">answer</a><a href=\"#probes\">probes</a><a href=\"#plots\">plots</a></nav>\n");
    answer_section(c, by_cost, &b);
    probe_table(c, by_cost, &b);
    sb_puts(&b, "<h2 id=\"plots\">Plots</h2>\n");
    report_html_figures(rp, &b);
    sb_puts(&b, "</body>\n</html>\n");
    sb_clear(&path);
    sb_printf(&path, "%s/index.html", rp->dir);
    FILE *f = report_file_create(sb_str(&path));
    int rc = 0;
    if (!f || fwrite(b.s, 1, b.len, f) != b.len || fclose(f)) {
        sb_clear(err);
        sb_printf(err, "%s: cannot write: %s", sb_str(&path), strerror(errno));
        rc = -1;
    }
    sb_free(&b);
    sb_free(&path);
    return rc;
}
