/* SPDX-License-Identifier: MIT */
/*
 * MD5, SHA-256 and SHA-1 side by side, through OpenSSL's EVP interface,
 * of a stream and of byte ranges of it (a disc's tracks).
 *
 * Each digest asked for runs on a worker thread of its own, so that they
 * overlap with the caller's reading and with each other: dg_update() only
 * copies the bytes into a small fixed ring (bounded memory, whatever the
 * input size) and returns.  A context belongs to one caller thread: call
 * dg_update(), dg_final() and dg_free() on it from one thread at a time.
 * The workers block every signal, so signals still reach the caller's
 * threads as before.
 */
#ifndef CDT_DIGEST_H
#define CDT_DIGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"

/* Every digest a stream can compute. */
#define DG_HASH_ANY (CDT_HASH_MD5 | CDT_HASH_SHA256 | CDT_HASH_SHA1)

struct dg_pipe;

/* Lower-case hex; "" where not computed. */
struct dg_sums {
	char md5[33];
	char sha256[65];
	char sha1[41];
};

/* Bytes [start, end) of the stream, digested on their own too. */
struct dg_range {
	uint64_t start, end;
};

struct dg {
	struct dg_pipe *p;	/* NULL: never initialised or already freed */
};

/*
 * Start the digests in which: CDT_HASH_MD5, CDT_HASH_SHA256 and/or
 * CDT_HASH_SHA1 (other bits are ignored).  Here 0 means none, not the default: then no thread
 * starts, dg_update() only checks its state and dg_final() gives "" for
 * both.  0 or CDT_ENOMEM; on failure d is left freed (dg_free() is then a
 * no-op).
 */
int dg_init(struct dg *d, unsigned int which);
/*
 * Before the first byte: n ranges of the stream (a disc's tracks) whose
 * digests dg_range_sums() gives after dg_final(), computed by the same
 * workers from the same bytes, so the stream is read once.  A range from
 * byte 0 costs nothing but a copy of the stream's state at its end; any
 * other range one more digest of its bytes.  0 or CDT_ENOMEM (then only
 * dg_free() is useful).
 */
int dg_ranges(struct dg *d, const struct dg_range *r, size_t n);
/*
 * Queue len bytes for the digests; may wait while the ring is full.
 * Fails (CDT_ENOMEM) if a digest failed earlier or after dg_final().
 */
int dg_update(struct dg *d, const void *buf, size_t len);
/* dg_update() of len zero bytes: what OUT holds where nothing was read. */
int dg_zeros(struct dg *d, uint64_t len);
/*
 * Wait for the digests to take in every byte, then finish them into hex;
 * a digest not computed is "".  d stays allocated until dg_free().
 */
int dg_final(struct dg *d, struct cdt_digests *out);
/* dg_final() with SHA-1 too. */
int dg_final_sums(struct dg *d, struct dg_sums *out);
/*
 * After dg_final(): range i's digests; false (and "" for those missing)
 * when the stream ended before the range did.
 */
bool dg_range_sums(const struct dg *d, size_t i, struct dg_sums *out);
/*
 * Stop the workers (discarding anything still queued), join them and free
 * everything.  Safe on every path: after dg_final(), without it, after a
 * failed dg_init(), on a zeroed struct dg, and twice.
 */
void dg_free(struct dg *d);

/*
 * Digest the first len bytes of fd with pread through buf (buf_len bytes),
 * calling progress (may be NULL) as cdt_read_opts says; which as for
 * dg_init() (0: nothing is read, both are "").
 */
int dg_file(int fd, uint64_t len, uint8_t *buf, size_t buf_len,
	    const struct cdt_read_opts *rd, unsigned int which,
	    struct cdt_digests *out);

/* Lower-case hex of n bytes into out (2n + 1 bytes). */
void dg_hex(const uint8_t *bin, size_t n, char *out);

#endif
