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

enum { EXIT_OK = 0, EXIT_NEGATIVE = 1, EXIT_ERROR = 2, EXIT_BAD_INPUT = 3 };

/* Signal handlers that remove the temporary files being written (every
 * command, called by main; cli_signals.c). */
void cli_signals_install(void);
/* From now on the first SIGINT/SIGTERM/SIGHUP/SIGQUIT only sets the returned
 * flag, which the run polls; a second one ends the process. */
volatile sig_atomic_t *cli_catch_interrupts(void);

int cmd_run(int argc, char **argv);
int cmd_inventory(int argc, char **argv);
int cmd_cel(int argc, char **argv);
int cmd_allocate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_merge(int argc, char **argv);

#endif
