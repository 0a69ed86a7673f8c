/*
 * datadir.h -- find an installed data file (GPU catalog, report templates):
 * $DRASIM_DATADIR, then the install directory (DRASIM_INSTALL_DATADIR), then
 * the source tree (DRASIM_SOURCE_DATADIR), first hit wins.
 */
#ifndef DRASIM_UTIL_DATADIR_H
#define DRASIM_UTIL_DATADIR_H

#include <stddef.h>

/* Write "<dir>/<rel>" of the first data directory where it exists into buf
 * and return buf, or NULL when none has it. */
const char *datadir_find(const char *rel, char *buf, size_t n);

#endif
