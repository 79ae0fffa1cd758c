// SPDX-License-Identifier: MIT
/* MD5 and SHA-256 of an image, computed while reading or from a file. */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <openssl/evp.h>
#include "digest.h"

int dg_init(struct dg *d)
{
	EVP_MD_CTX *md5 = EVP_MD_CTX_new(), *sha = EVP_MD_CTX_new();

	d->md5 = md5;
	d->sha = sha;
	if (!md5 || !sha || !EVP_DigestInit_ex(md5, EVP_md5(), NULL) ||
	    !EVP_DigestInit_ex(sha, EVP_sha256(), NULL)) {
		dg_free(d);
		return CDT_ENOMEM;
	}
	return 0;
}

int dg_update(struct dg *d, const void *buf, size_t len)
{
	if (!EVP_DigestUpdate(d->md5, buf, len) ||
	    !EVP_DigestUpdate(d->sha, buf, len))
		return CDT_ENOMEM;
	return 0;
}

void dg_hex(const uint8_t *bin, size_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = hex[bin[i] >> 4];
		out[2 * i + 1] = hex[bin[i] & 15];
	}
	out[2 * n] = '\0';
}

int dg_final(struct dg *d, struct cdt_digests *out)
{
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned int n;

	if (!EVP_DigestFinal_ex(d->md5, md, &n) || n != 16)
		return CDT_ENOMEM;
	dg_hex(md, n, out->md5);
	if (!EVP_DigestFinal_ex(d->sha, md, &n) || n != 32)
		return CDT_ENOMEM;
	dg_hex(md, n, out->sha256);
	return 0;
}

void dg_free(struct dg *d)
{
	EVP_MD_CTX_free(d->md5);
	EVP_MD_CTX_free(d->sha);
	d->md5 = NULL;
	d->sha = NULL;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void report(const struct cdt_read_opts *rd, uint64_t done,
		   uint64_t len, double t0)
{
	struct cdt_progress p = {
		.phase = CDT_PHASE_DIGEST,
		.pass = 1,
		.pos = done,
		.total = len,
		.done = done,
		.elapsed_ms = now_ms() - t0,
	};

	rd->progress(rd->progress_ctx, &p);
}

int dg_file(int fd, uint64_t len, uint8_t *buf, size_t buf_len,
	    const struct cdt_read_opts *rd, struct cdt_digests *out)
{
	double t0 = now_ms(), last = t0;
	uint64_t done = 0;
	struct dg d;
	int rc;

	rc = dg_init(&d);
	if (rc)
		return rc;
	while (done < len && !rc) {
		size_t want = len - done < buf_len ? (size_t)(len - done) : buf_len;
		ssize_t got = pread(fd, buf, want, (off_t)done);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			rc = CDT_EIO;
			break;
		}
		rc = dg_update(&d, buf, (size_t)got);
		done += (uint64_t)got;
		if (rd && rd->stop && *rd->stop)
			rc = CDT_EINTR;
		if (rd && rd->progress && now_ms() - last >= 250) {
			last = now_ms();
			report(rd, done, len, t0);
		}
	}
	if (!rc)
		rc = dg_final(&d, out);
	dg_free(&d);
	return rc;
}
