/*
 * compare.h -- `drasim compare A.db B.db`: every summary metric of A and B
 * side by side with absolute and relative deltas. Runs are matched by their
 * key (scenario, mode, policy, sweep point, seed); when the seeds differ,
 * by configuration (mean over its runs); when both hold a single
 * configuration that differs, the means over all runs are compared.
 */
#ifndef DRASIM_REPORT_COMPARE_H
#define DRASIM_REPORT_COMPARE_H

#include <stdbool.h>

#include "report/rdb.h"
#include "util/strbuf.h"

/* Append the comparison to out, as aligned text or CSV. */
void compare_dbs(const rdb *a, const rdb *b, bool csv, strbuf *out);

#endif
