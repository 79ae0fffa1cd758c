/* SPDX-License-Identifier: MIT */
/* MD5 and SHA-256 side by side, through OpenSSL's EVP interface. */
#ifndef CDT_DIGEST_H
#define CDT_DIGEST_H

#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"

struct dg {
	void *md5;		/* EVP_MD_CTX * */
	void *sha;
};

int dg_init(struct dg *d);
int dg_update(struct dg *d, const void *buf, size_t len);
/* Finish both digests into hex; d stays allocated until dg_free(). */
int dg_final(struct dg *d, struct cdt_digests *out);
void dg_free(struct dg *d);

/*
 * Digest the first len bytes of fd with pread through buf (buf_len bytes),
 * calling progress (may be NULL) as cdt_read_opts says.
 */
int dg_file(int fd, uint64_t len, uint8_t *buf, size_t buf_len,
	    const struct cdt_read_opts *rd, struct cdt_digests *out);

/* Lower-case hex of n bytes into out (2n + 1 bytes). */
void dg_hex(const uint8_t *bin, size_t n, char *out);

#endif
