/* zip_entry.c -- one entry of an in-memory ZIP archive (util/zip_entry.h).
 * Record layouts: PKWARE APPNOTE.TXT 6.3.10, 4.3.7 (local file header),
 * 4.3.12 (central directory header), 4.3.16 (end of central directory). */
#include "util/zip_entry.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/xalloc.h"

#define SIG_LOCAL 0x04034b50u
#define SIG_CENTRAL 0x02014b50u
#define SIG_END 0x06054b50u
#define SIG_END64_LOC 0x07064b50u
#define END_LEN 22u
#define CENTRAL_LEN 46u
#define LOCAL_LEN 30u

static uint32_t rd16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool zip_looks_like_zip(const unsigned char *buf, size_t len) {
    return len >= 4 && (rd32(buf) == SIG_LOCAL || rd32(buf) == SIG_END);
}

/* The end of central directory record: the last signature from which the
 * record and its comment reach the end of the buffer exactly (the comment is
 * at most 65,535 bytes). NULL when none. */
static const unsigned char *find_end(const unsigned char *buf, size_t len) {
    if (len < END_LEN) return NULL;
    size_t lowest = len - END_LEN > 65535 ? len - END_LEN - 65535 : 0;
    for (size_t at = len - END_LEN + 1; at-- > lowest;) {
        const unsigned char *p = buf + at;
        if (rd32(p) == SIG_END && at + END_LEN + rd16(p + 20) == len) return p;
    }
    return NULL;
}

/* Inflate raw deflate data src[0..n) into out; exactly `usize` bytes must come
 * out and the stream must end. 0, or -1 with a zlib reason in *why. */
static int inflate_to(const unsigned char *src, size_t n, size_t usize, strbuf *out, const char **why) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) { *why = "zlib could not start"; return -1; }
    unsigned char *dst = xmalloc(usize + 1);   /* one byte more, to see data beyond the recorded size */
    const unsigned char *in = src;
    size_t left = n, produced = 0;
    int rc;
    for (;;) {
        z.next_in = (unsigned char *)(uintptr_t)in;
        z.avail_in = left > 1u << 30 ? 1u << 30 : (uInt)left;
        size_t room = usize + 1 - produced;
        z.next_out = dst + produced;
        z.avail_out = room > 1u << 30 ? 1u << 30 : (uInt)room;
        uInt in0 = z.avail_in, out0 = z.avail_out;
        rc = inflate(&z, Z_NO_FLUSH);
        in += in0 - z.avail_in;
        left -= in0 - z.avail_in;
        produced += out0 - z.avail_out;
        if (rc == Z_STREAM_END) break;
        if (rc != Z_OK && rc != Z_BUF_ERROR) { *why = z.msg ? z.msg : "invalid deflate data"; break; }
        if (produced > usize) { *why = "it inflates to more bytes than its recorded size"; rc = Z_DATA_ERROR; break; }
        if (in0 == z.avail_in && out0 == z.avail_out) {   /* no progress: the input ran out */
            *why = "the deflate data ends early";
            rc = Z_DATA_ERROR;
            break;
        }
    }
    inflateEnd(&z);
    if (rc == Z_STREAM_END && produced != usize) {
        *why = "it inflates to fewer bytes than its recorded size";
        rc = Z_DATA_ERROR;
    }
    if (rc == Z_STREAM_END) sb_append(out, (const char *)dst, produced);
    free(dst);
    return rc == Z_STREAM_END ? 0 : -1;
}

static int fail(strbuf *err, const char *archive, const char *entry, const char *msg, unsigned long a) {
    sb_clear(err);
    if (entry) sb_printf(err, "%s:%s: ", archive, entry);
    else sb_printf(err, "%s: ", archive);
    sb_printf(err, msg, a);
    return -1;
}

int zip_read_entry(const char *archive, const unsigned char *buf, size_t len, const char *name, size_t max_out,
                   strbuf *out, strbuf *err) {
    const unsigned char *end = find_end(buf, len);
    if (!end) return fail(err, archive, NULL, "not a ZIP archive (no end-of-central-directory record)%.0lu", 0);
    if ((size_t)(end - buf) >= 20 && rd32(end - 20) == SIG_END64_LOC)
        return fail(err, archive, NULL, "a ZIP64 archive, which drasim does not read (unzip it and give the JSON "
                                        "file)%.0lu", 0);
    if (rd16(end + 4) != 0 || rd16(end + 6) != 0 || rd16(end + 8) != rd16(end + 10))
        return fail(err, archive, NULL, "a multi-disk ZIP archive, which drasim does not read%.0lu", 0);
    size_t count = rd16(end + 10), cd_size = rd32(end + 12), cd_off = rd32(end + 16);
    size_t end_at = (size_t)(end - buf);
    if (cd_off > end_at || cd_size > end_at - cd_off)
        return fail(err, archive, NULL, "corrupt ZIP archive: its central directory lies outside the file%.0lu", 0);
    size_t nlen = strlen(name), at = cd_off;
    strbuf seen = {0};
    for (size_t i = 0; i < count; i++) {
        const unsigned char *h = buf + at;
        if (at + CENTRAL_LEN > cd_off + cd_size || rd32(h) != SIG_CENTRAL) {
            sb_free(&seen);
            return fail(err, archive, NULL, "corrupt ZIP archive: central directory entry %lu is damaged",
                        (unsigned long)i + 1);
        }
        uint32_t flags = rd16(h + 8), method = rd16(h + 10), crc = rd32(h + 16);
        size_t csize = rd32(h + 20), usize = rd32(h + 24), fn = rd16(h + 28), ex = rd16(h + 30), cm = rd16(h + 32);
        size_t local = rd32(h + 42);
        if (at + CENTRAL_LEN + fn + ex + cm > cd_off + cd_size) {
            sb_free(&seen);
            return fail(err, archive, NULL, "corrupt ZIP archive: central directory entry %lu is damaged",
                        (unsigned long)i + 1);
        }
        const char *fname = (const char *)h + CENTRAL_LEN;
        at += CENTRAL_LEN + fn + ex + cm;
        if (fn != nlen || memcmp(fname, name, nlen) != 0) {
            if (seen.len < 200) {
                if (seen.len) sb_puts(&seen, ", ");
                sb_append(&seen, fname, fn > 100 ? 100 : fn);
            }
            continue;
        }
        sb_free(&seen);
        /* the first entry of that name, as Go's archive/zip loop in KAI's snapshot-tool takes it */
        if (flags & 1u) return fail(err, archive, name, "the entry is encrypted%.0lu", 0);
        if (method != 0 && method != 8)
            return fail(err, archive, name, "compression method %lu is not supported (stored or deflate)", method);
        if (csize == 0xffffffffu || usize == 0xffffffffu || local == 0xffffffffu)
            return fail(err, archive, name, "ZIP64 sizes, which drasim does not read (unzip it and give the JSON "
                                            "file)%.0lu", 0);
        if (usize > max_out)
            return fail(err, archive, name, "the entry is larger (%lu bytes) than the input limit",
                        (unsigned long)usize);
        if (local > end_at || end_at - local < LOCAL_LEN || rd32(buf + local) != SIG_LOCAL)
            return fail(err, archive, name, "corrupt ZIP archive: no local header at offset %lu",
                        (unsigned long)local);
        size_t data = local + LOCAL_LEN + rd16(buf + local + 26) + rd16(buf + local + 28);
        if (data > end_at || csize > end_at - data)
            return fail(err, archive, name, "corrupt ZIP archive: the entry's data runs past the file%.0lu", 0);
        size_t base = out->len;
        if (method == 0) {
            if (csize != usize)
                return fail(err, archive, name, "corrupt ZIP archive: a stored entry whose sizes differ%.0lu", 0);
            sb_append(out, (const char *)buf + data, csize);
        } else {
            const char *why = NULL;
            if (inflate_to(buf + data, csize, usize, out, &why)) {
                sb_clear(err);
                sb_printf(err, "%s:%s: corrupt deflate data (%s)", archive, name, why);
                return -1;
            }
        }
        uint32_t got = (uint32_t)crc32(0L, (const Bytef *)(out->s ? out->s + base : ""), (uInt)0);
        for (size_t k = 0; k < out->len - base;) {   /* crc32 takes at most uInt bytes at a time */
            size_t step = out->len - base - k > 1u << 30 ? 1u << 30 : out->len - base - k;
            got = (uint32_t)crc32(got, (const Bytef *)out->s + base + k, (uInt)step);
            k += step;
        }
        if (got != crc) {
            out->len = base;
            if (out->s) out->s[base] = 0;
            return fail(err, archive, name, "CRC-32 mismatch (the entry's data is damaged; recorded %08lx)",
                        (unsigned long)crc);
        }
        return 0;
    }
    sb_clear(err);
    sb_printf(err, "%s: the ZIP archive has no entry %s (it has: %s)", archive, name,
              seen.len ? sb_str(&seen) : "no entries");
    sb_free(&seen);
    return -1;
}
