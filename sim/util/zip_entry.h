/* zip_entry.h -- read one named entry of a ZIP archive held in memory (a KAI
 * snapshot.zip's snapshot.json, docs/STATE.md). Stored (method 0) and deflate
 * (method 8) entries; the central directory gives the sizes, so entries written
 * with a data descriptor (Go's archive/zip Writer.Create, which KAI's snapshot
 * plugin uses) read as any other. The CRC-32 and the sizes are checked.
 * Encrypted entries, other methods, ZIP64 and multi-disk archives are refused
 * with a message. Format: PKWARE APPNOTE.TXT 6.3.10, sections 4.3.7, 4.3.12,
 * 4.3.16. */
#ifndef DRASIM_UTIL_ZIP_ENTRY_H
#define DRASIM_UTIL_ZIP_ENTRY_H
#include <stdbool.h>
#include <stddef.h>
#include "util/strbuf.h"

/* Does the buffer start as a ZIP archive does (a local file header, or the
 * end record of an empty archive)? */
bool zip_looks_like_zip(const unsigned char *buf, size_t len);

/* Append the uncompressed bytes of entry `name` of the archive buf[0..len) to
 * `out` (NUL-terminated by strbuf). Returns 0, or -1 with err
 * "ARCHIVE: ..." (not a ZIP, no such entry: the entries it has are named) or
 * "ARCHIVE:NAME: ..." (corrupt data, CRC or size mismatch, unsupported
 * method). `archive` is the name used in messages. An entry may not inflate
 * to more than `max_out` bytes. */
int zip_read_entry(const char *archive, const unsigned char *buf, size_t len, const char *name, size_t max_out,
                   strbuf *out, strbuf *err);
#endif
