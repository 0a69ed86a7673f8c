/* cli_signals.c -- signals and the files a command is writing.
 *
 * cli_signals_install() (every command, from main): SIGINT, SIGTERM, SIGHUP
 * and SIGQUIT remove the tracked temporary and lock files
 * (store/output_path.h) and then end the process with the same signal;
 * SIGABRT (xalloc on out-of-memory, assertions) and exit() do the same; a
 * gnuplot child of `report` is ended and reaped first (report_gnuplot_stop). SIGPIPE and
 * SIGXFSZ are ignored: the write that raised them fails with EPIPE / EFBIG
 * and the command's ordinary error path removes what it was writing (a
 * closed standard output does not lose a results database).
 *
 * cli_catch_interrupts() (long commands: run, check, sweep): the first
 * SIGINT/SIGTERM/SIGHUP/SIGQUIT only sets a flag that the run polls, so it
 * stops cleanly and says "interrupted"; a second one ends the process at
 * once as above. SIGKILL cannot be caught: then PATH.tmp-<pid> stays (the
 * final PATH is never half-written) and PATH.lock stays without blocking. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/report.h"
#include "store/output_path.h"
#include "util/interrupt.h"

static volatile sig_atomic_t interrupted;
static volatile sig_atomic_t polling;   /* a long command polls `interrupted` */

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/* Remove what we were writing, then die of `sig` as if uncaught. */
static void die_of(int sig) {
    report_gnuplot_stop();   /* a child drawing plots dies with us */
    output_tmp_remove_all();
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

static void on_signal(int sig) {
    if (polling && !interrupted && sig != SIGABRT) {
        interrupted = 1;
        return;
    }
    die_of(sig);
}

void cli_signals_install(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof stop_signals / sizeof *stop_signals; i++) {
        struct sigaction old;
        /* a signal ignored by whoever started us (nohup) stays ignored */
        if (sigaction(stop_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(stop_signals[i], &sa, NULL);
    }
    sigaction(SIGABRT, &sa, NULL);
    atexit(output_tmp_remove_all);   /* exit() on an error path: nothing tracked is left */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
}

volatile sig_atomic_t *cli_catch_interrupts(void) {
    polling = 1;
    interrupt_watch(&interrupted);   /* polled by YAML parsing and inventory building too */
    return &interrupted;
}
