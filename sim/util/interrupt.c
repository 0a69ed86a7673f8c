/* interrupt.c -- the registered Ctrl-C flag (interrupt.h). */
#include "util/interrupt.h"

#include <stddef.h>

static volatile sig_atomic_t *watched;

void interrupt_watch(volatile sig_atomic_t *flag) { watched = flag; }

bool interrupt_pending(void) { return watched && *watched; }
