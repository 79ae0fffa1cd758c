/* SPDX-License-Identifier: MIT */
/*
 * MD5 and SHA-256 side by side, through OpenSSL's EVP interface.
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

#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"

struct dg_pipe;

struct dg {
	struct dg_pipe *p;	/* NULL: never initialised or already freed */
};

/*
 * Start the digests in which: CDT_HASH_MD5 and/or CDT_HASH_SHA256 (other
 * bits are ignored).  Here 0 means none, not the default: then no thread
 * starts, dg_update() only checks its state and dg_final() gives "" for
 * both.  0 or CDT_ENOMEM; on failure d is left freed (dg_free() is then a
 * no-op).
 */
int dg_init(struct dg *d, unsigned int which);
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
