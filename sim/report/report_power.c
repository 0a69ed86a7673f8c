/*
 * report_power.c -- inside `drasim report`: the facility's power over time
 * (table power_samples, written for runs with `cluster.power`), one curve per
 * configuration, with the site's envelope (`power.envelope`, summary metric
 * power_envelope_kw) as a dashed line. Formulas: docs/COST.md "Power".
 */
#include <math.h>

#include "report/rdb.h"
#include "report/report_plot.h"

static const xaxis POWER_AXIS = {"power_samples", "time_ms", 3600000.0, "simulated time (h)"};

int rp_power(report *rp, strbuf *err) {
    if (rp_curve(rp, "power", "Facility power over time (IT power x PUE)", &POWER_AXIS, "power_kw",
                 "power (kW)", err))
        return -1;
    /* every run of a scenario shares one envelope; configurations may differ: draw the lowest */
    int m = rdb_metric_index(rp->r, "power_envelope_kw");
    rdb_stats env = m >= 0 ? rdb_group_stats(rp->r, SIZE_MAX, m) : (rdb_stats){0};
    if (env.n && isfinite(env.min) && env.min > 0) {
        rplot *p = &rp->plots.data[rp->plots.len - 1];
        sb_printf(&p->vars, "envelope_kw = %.6g\n", env.min);
    }
    return 0;
}
