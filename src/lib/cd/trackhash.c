// SPDX-License-Identifier: MIT
/*
 * Per-track CRC-32, MD5, SHA-1 and AccurateRip CRCs: see cd/trackhash.h.
 */
#include <stdio.h>
#include <string.h>
#include <openssl/evp.h>
#include "cdtail.h"
#include "cd/crc.h"
#include "cd/trackhash.h"

/*
 * CRC-32 eight bytes at a time (cd/crc.c; the unit tests compare it with
 * the bit-at-a-time definition; tests/raw/hashmodel.py checks the result
 * against Python's zlib.crc32).
 */
uint32_t th_crc32(uint32_t crc, const void *buf, size_t len)
{
	return ~crc_update(CRC_32, ~crc, buf, len);
}

static void *md_start(const EVP_MD *md)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();

	if (c && !EVP_DigestInit_ex(c, md, NULL)) {
		EVP_MD_CTX_free(c);
		c = NULL;
	}
	return c;
}

int trackhash_init(struct trackhash *h)
{
	memset(h, 0, sizeof(*h));
	h->md5 = md_start(EVP_md5());
	h->sha1 = md_start(EVP_sha1());
	if (!h->md5 || !h->sha1) {
		trackhash_free(h);
		return CDT_ENOMEM;
	}
	return 0;
}

int trackhash_update(struct trackhash *h, const void *buf, size_t len)
{
	if (!h->md5 || !h->sha1)
		return CDT_ENOMEM;
	h->crc32 = th_crc32(h->crc32, buf, len);
	h->size += len;
	if (!EVP_DigestUpdate(h->md5, buf, len) ||
	    !EVP_DigestUpdate(h->sha1, buf, len))
		return CDT_ENOMEM;
	return 0;
}

/* Finish one digest of want bytes into hex (2 * want + 1 chars). */
static int md_hex(void *ctx, unsigned int want, char *hex)
{
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;

	if (!ctx || !EVP_DigestFinal_ex(ctx, md, &n) || n != want)
		return CDT_ENOMEM;
	for (i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return 0;
}

int trackhash_final(struct trackhash *h, struct th_sums *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	out->size = h->size;
	out->crc32 = h->crc32;
	rc = md_hex(h->md5, 16, out->md5);
	if (!rc)
		rc = md_hex(h->sha1, 20, out->sha1);
	trackhash_free(h);
	return rc;
}

void trackhash_free(struct trackhash *h)
{
	EVP_MD_CTX_free(h->md5);
	EVP_MD_CTX_free(h->sha1);
	h->md5 = h->sha1 = NULL;
}

/* Append the n bytes at p to buf (cut to len), counting them all in *at. */
static void put(char *buf, size_t len, size_t *at, const char *p, size_t n)
{
	if (*at < len) {
		size_t room = len - *at - 1;

		memcpy(buf + *at, p, n < room ? n : room);
		buf[*at + (n < room ? n : room)] = 0;
	}
	*at += n;
}

/* XML's five special characters, escaped (redump.org's DATs are XML). */
static const char *xml_entity(char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&apos;";
	default: return NULL;
	}
}

int trackhash_rom_line(char *buf, size_t len, const char *name,
		       const struct th_sums *s)
{
	char tail[160];
	size_t at = 0;
	int n;

	if (len)
		buf[0] = 0;
	put(buf, len, &at, "<rom name=\"", 11);
	for (; *name; name++) {
		const char *e = xml_entity(*name);

		put(buf, len, &at, e ? e : name, e ? strlen(e) : 1);
	}
	n = snprintf(tail, sizeof(tail),
		     "\" size=\"%llu\" crc=\"%08x\" md5=\"%s\" sha1=\"%s\"/>",
		     (unsigned long long)s->size, s->crc32, s->md5, s->sha1);
	put(buf, len, &at, tail, (size_t)n);
	return at > INT32_MAX ? -1 : (int)at;
}

void arip_init(struct arip *a, uint64_t samples, bool first, bool last)
{
	memset(a, 0, sizeof(*a));
	a->from = first ? AR_SKIP_SAMPLES : 1;
	if (samples > UINT32_MAX)
		samples = UINT32_MAX;
	a->to = (uint32_t)samples;
	if (last)
		a->to = a->to > AR_SKIP_SAMPLES ? a->to - AR_SKIP_SAMPLES : 0;
}

static void arip_sample(struct arip *a, const uint8_t *p)
{
	uint32_t i = ++a->pos;
	uint32_t s = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		     (uint32_t)p[3] << 24;
	uint64_t prod = (uint64_t)s * i;

	if (i < a->from || i > a->to)
		return;
	a->v1 += (uint32_t)prod;
	a->v2 += (uint32_t)prod + (uint32_t)(prod >> 32);
}

void arip_update(struct arip *a, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (a->ncarry && len) {
		a->carry[a->ncarry++] = *p++;
		len--;
		if (a->ncarry == 4) {
			arip_sample(a, a->carry);
			a->ncarry = 0;
		}
	}
	if (a->ncarry)
		return;		/* len ran out inside the split sample */
	for (; len >= 4; p += 4, len -= 4)
		arip_sample(a, p);
	memcpy(a->carry, p, len);
	a->ncarry = len;
}
