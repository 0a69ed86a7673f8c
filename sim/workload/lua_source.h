/*
 * lua_source.h -- Lua 5.4 workload generators (docs/LUA.md): a scenario's
 * `workload.lua` script runs in a sandbox and submits pods through the
 * `drasim` API while the run goes. The engine sees it as a sim_source:
 * the main chunk runs at time 0, timers and arrivals are EV_SOURCE events
 * ordered by (time, seq) with everything else, and pods it submitted call
 * back when they finish.
 */
#ifndef DRASIM_WORKLOAD_LUA_SOURCE_H
#define DRASIM_WORKLOAD_LUA_SOURCE_H

#include "model/scenario.h"

struct sim_run;

/* Install the Lua generator `spec` as r's workload source. Nothing runs
 * yet: the script is loaded by the source's start hook (errors then stop the
 * run with r->error set). */
void lua_source_attach(struct sim_run *r, const lua_source_spec *spec);

/* The directory holding the Lua standard library (`<datadir>/lua`):
 * $DRASIM_DATADIR, then the install dir, then the source tree; NULL if none
 * has lua/drasim/. The result is a static buffer. */
const char *lua_library_dir(void);

#endif
