/* cli_signals.c -- Ctrl-C / SIGTERM for long commands: a flag the run polls,
 * so the command stops cleanly and leaves no half-written output. */
#include <signal.h>
#include <string.h>

#include "cli/cli.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig) {
    (void)sig;
    interrupted = 1;
}

volatile sig_atomic_t *cli_catch_interrupts(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return &interrupted;
}
