/*
 * cli.h -- the drasim sub-commands. Each lives in its own cmd_*.c file and
 * receives argv starting at the sub-command name (argv[0] = "run", ...).
 *
 * Exit codes shared by every command (README.md, `drasim --help`):
 *   0  success
 *   1  a negative answer: does not fit, check failed, CEL evaluation error
 *   2  usage error, or an error while processing (allocator error, I/O)
 *   3  unreadable or invalid input file
 */
#ifndef DRASIM_CLI_CLI_H
#define DRASIM_CLI_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { EXIT_OK = 0, EXIT_NEGATIVE = 1, EXIT_ERROR = 2, EXIT_BAD_INPUT = 3 };

/* Signal handlers that remove the temporary files being written (every
 * command, called by main; cli_signals.c). */
void cli_signals_install(void);
/* From now on the first SIGINT/SIGTERM/SIGHUP/SIGQUIT only sets the returned
 * flag, which the run polls; a second one ends the process. */
volatile sig_atomic_t *cli_catch_interrupts(void);

int cmd_run(int argc, char **argv);
int cmd_inventory(int argc, char **argv);
/* inventory_at.c: `drasim inventory --at TIME`: the scenario (with --set
 * overrides and --seed) run to simulated time `at`, its cluster then in `out`.
 * Returns an exit code (errors printed). */
struct strbuf;
int inventory_at_build(const char *scenario, const char *catalog, const char *const *sets, size_t nsets,
                       bool has_seed, uint64_t seed, int64_t at, struct strbuf *out);
/* The same run to `at` for any writer (`drasim state`: cmd_state.c): `write`
 * gets the run stopped at `at` and its inventory; 0, or -1 with err set (bad
 * input). `cmd` names the command in messages. */
struct sim_run;
struct inventory;
struct arena;
typedef int (*scenario_at_writer)(struct sim_run *run, struct inventory *inv, struct arena *a, struct strbuf *out,
                                  struct strbuf *err);
int scenario_at_build(const char *cmd, const char *scenario, const char *catalog, const char *const *sets,
                      size_t nsets, bool has_seed, uint64_t seed, int64_t at, scenario_at_writer write,
                      struct strbuf *out);
int cmd_state(int argc, char **argv);
int cmd_cel(int argc, char **argv);
int cmd_allocate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_admit(int argc, char **argv);
/* `drasim kueue-perf`: Kueue's performance generator configs replayed (cmd_kueue_perf.c). */
int cmd_kueue_perf(int argc, char **argv);
/* `drasim admit` over a KAI-Scheduler snapshot (cmd_admit_kai.c). */
int cmd_admit_kai(const char **snaps, size_t nsnaps, const char *wfile, bool shares);

#endif
