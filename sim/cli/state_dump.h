/* state_dump.h -- a run stopped at `at` written as the kubectl List that
 * `cluster.state` reads (docs/STATE.md; state_dump.c). */
#ifndef DRASIM_CLI_STATE_DUMP_H
#define DRASIM_CLI_STATE_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/strbuf.h"

struct sim_run;

/* Append the List of r's running and pending pods and their ResourceClaims
 * at time `at` (r stopped there) to out; YAML nodes go to `a`. Returns the
 * pods left out (terminating ones). */
size_t state_dump_build(const struct sim_run *r, int64_t at, arena *a, strbuf *out);

#endif
