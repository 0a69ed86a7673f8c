/* interrupt.h -- the Ctrl-C flag of the command, for long loops below the CLI
 * (YAML parsing, inventory building) that have no flag passed to them: the CLI
 * registers its flag (cli_catch_interrupts), a loop polls interrupt_pending()
 * and fails with "interrupted"; the caller then reports an interruption, not
 * bad input (report/runner.c). Nothing is registered: never pending. */
#ifndef DRASIM_UTIL_INTERRUPT_H
#define DRASIM_UTIL_INTERRUPT_H
#include <signal.h>
#include <stdbool.h>

void interrupt_watch(volatile sig_atomic_t *flag);
bool interrupt_pending(void);

#endif
