// SPDX-License-Identifier: MIT
/* A disc's identity: fixed blocks' digests, kept in the map (identity.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "core/device.h"
#include "book/identity.h"

#define ID_SPREAD 10
/* records.c reads these lines back: the words must stay the same */
#define ID_HEAD "cdtail identity: "
#define ID_BLOCK "cdtail identity block "
#define ID_PENDING "search=pending"
#define ID_WINDOW "search=window"
#define ID_MAX_EXTRA "max_extra="

static void add_lba(uint64_t *lba, unsigned int *n, uint64_t v, uint64_t extent)
{
	unsigned int i;

	if (v >= extent || *n >= ID_MAX_BLOCKS)
		return;
	for (i = 0; i < *n; i++)
		if (lba[i] == v)
			return;
	lba[(*n)++] = v;
}

unsigned int id_pick(uint64_t extent, uint64_t *lba)
{
	unsigned int n = 0, k;

	add_lba(lba, &n, 16, extent);
	add_lba(lba, &n, 17, extent);
	add_lba(lba, &n, 256, extent);
	add_lba(lba, &n, 0, extent);
	add_lba(lba, &n, extent - 1, extent);
	for (k = 1; k < ID_SPREAD; k++)
		add_lba(lba, &n, extent / ID_SPREAD * k + extent % ID_SPREAD * k / ID_SPREAD,
			extent);
	return n;
}

/* 1 read (digest in md), 0 did not read, <0 error. */
static int read_digest(id_read_fn *read, void *ctx, uint64_t lba, uint32_t bs,
		       uint8_t *buf, uint8_t *md)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	unsigned int mdlen = 32;
	int rc;

	rc = read(ctx, lba, 1, buf, &rr);
	if (rc)
		return rc;
	if (rr.cls == CDT_READ_CHANGED)
		return CDT_ECHANGED;
	if (rr.cls != CDT_READ_OK)
		return 0;
	if (EVP_Digest(buf, bs, md, &mdlen, EVP_sha256(), NULL) != 1)
		return CDT_ENOMEM;
	return 1;
}

void id_init(struct disc_id *id, uint32_t block_size, uint64_t extent,
	     uint64_t true_blocks)
{
	memset(id, 0, sizeof(*id));
	id->present = true;
	id->block_size = block_size;
	id->extent = extent;
	id->true_blocks = true_blocks;
	id->nwant = id_pick(extent, id->want);
}

void id_pick_below(struct disc_id *id, uint64_t end)
{
	if (end && end < id->extent)
		id->nwant = id_pick(end, id->want);
}

static bool recorded(const struct disc_id *id, uint64_t lba)
{
	unsigned int i;

	for (i = 0; i < id->n; i++)
		if (id->lba[i] == lba)
			return true;
	return false;
}

int id_note(struct disc_id *id, uint64_t lba, uint32_t n, const uint8_t *buf)
{
	unsigned int i, mdlen = 32;

	for (i = 0; i < id->nwant && id->n < ID_MAX_BLOCKS; i++) {
		uint64_t b = id->want[i];

		if (b < lba || b - lba >= n || recorded(id, b))
			continue;
		if (EVP_Digest(buf + (b - lba) * id->block_size, id->block_size,
			       id->sha256[id->n], &mdlen, EVP_sha256(), NULL) != 1)
			return CDT_ENOMEM;
		id->lba[id->n++] = b;
	}
	return 0;
}

int id_check(id_read_fn *read, void *read_ctx, const struct disc_id *id,
	     uint8_t *buf, unsigned int *matched, uint64_t *lba)
{
	uint8_t md[32];
	unsigned int i;
	int rc;

	*matched = 0;
	for (i = 0; i < id->n; i++) {
		rc = read_digest(read, read_ctx, id->lba[i], id->block_size, buf, md);
		if (rc < 0)
			return rc;
		if (!rc)
			continue;	/* worn since: not a difference */
		if (memcmp(md, id->sha256[i], sizeof(md))) {
			*lba = id->lba[i];
			return 1;
		}
		(*matched)++;
	}
	return *matched ? 0 : 2;
}

void id_format(const struct disc_id *id, char *out, size_t len)
{
	size_t used;
	unsigned int i;
	char hex[65];
	int k;

	used = (size_t)snprintf(out, len, ID_HEAD "block_size=%" PRIu32 " extent=%" PRIu64
				" true_blocks=%" PRIu64, id->block_size, id->extent,
				id->true_blocks);
	if (id->pending && used < len)
		used += (size_t)snprintf(out + used, len - used, " " ID_PENDING);
	else if (id->window && used < len)
		used += (size_t)snprintf(out + used, len - used, " " ID_MAX_EXTRA "%" PRIu64
					 " " ID_WINDOW, id->max_extra);
	for (i = 0; i < id->n && used < len; i++) {
		for (k = 0; k < 32; k++)
			sprintf(hex + 2 * k, "%02x", id->sha256[i][k]);
		used += (size_t)snprintf(out + used, len - used,
					 "\n" ID_BLOCK "%" PRIu64 " sha256=%s", id->lba[i], hex);
	}
}
