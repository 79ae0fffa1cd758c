// SPDX-License-Identifier: MIT
/*
 * cdt_read_cd_text (include/cdtail.h): READ TOC format 5 (core/cmds.c)
 * read whole, in one command of the largest answer 8 blocks of 256 packs
 * make, its packs parsed by cd/cdtext.c and the blocks that hold text
 * handed over.  A drive that refuses the format (05/24/00: no CD-TEXT
 * support) or a disc without it is no error: answered false, or no block;
 * an interrupt (CDT_EINTR) is returned, as every command's.
 */
#include <stdlib.h>
#include <string.h>
#include "core/abi.h"
#include "core/cmds.h"
#include "core/device.h"
#include "cd/cdtext.h"

#define TEXT_ALLOC (CD_TEXT_HEADER + CD_TEXT_MAX_PACKS * CD_TEXT_PACK)

/* the public fields are the parser's first six, in its order */
_Static_assert(CDT_TEXT_FIELDS == CD_TEXT_MESSAGE + 1 &&
	       CDT_TEXT_TRACKS == CD_TEXT_TRACKS, "CD-TEXT fields");

/* The strings of ct's block b move into out (ct's left NULL). */
static void take_block(struct cd_text_block *in, unsigned int b, struct cdt_text_block *out)
{
	unsigned int n, f;

	out->number = b;
	out->language = in->language;
	out->charset = in->charset;
	out->size_info = in->size_info;
	for (n = 0; n <= CDT_TEXT_TRACKS; n++)
		for (f = 0; f < CDT_TEXT_FIELDS; f++) {
			out->text[n][f] = in->text[n][f];
			in->text[n][f] = NULL;
		}
}

static bool block_has_text(const struct cd_text_block *b)
{
	unsigned int n, f;

	for (n = 0; b && n <= CDT_TEXT_TRACKS; n++)
		for (f = 0; f < CDT_TEXT_FIELDS; f++)
			if (b->text[n][f])
				return true;
	return false;
}

static int take(struct cd_text *ct, struct cdt_cd_text *t)
{
	unsigned int b, n = 0;

	t->packs = ct->packs;
	t->bad_crc = ct->bad_crc;
	for (b = 0; b < CD_TEXT_BLOCKS; b++)
		n += block_has_text(ct->block[b]);
	if (!n)
		return 0;
	t->blocks = calloc(n, sizeof(*t->blocks));
	if (!t->blocks)
		return CDT_ENOMEM;
	for (b = 0; b < CD_TEXT_BLOCKS; b++)
		if (block_has_text(ct->block[b]))
			take_block(ct->block[b], b, &t->blocks[t->n_blocks++]);
	return 0;
}

/*
 * The answer asked for: all 8 blocks' packs, but never more than the host
 * moves in one command (the device's largest transfer): READ TOC has no
 * offset to read the rest with, so a longer CD-TEXT is read cut, and the
 * parser takes the whole packs that arrived.
 */
static uint32_t text_alloc(const struct cdt_dev *dev)
{
	uint32_t max = cdt_dev_max_bytes(dev);

	return max && max < TEXT_ALLOC ? max : TEXT_ALLOC;
}

int cdt_read_cd_text(struct cdt_dev *dev, struct cdt_cd_text *t)
{
	struct cdt_cd_text full;
	struct cd_text ct;
	uint32_t got = 0;
	uint8_t *buf;
	int rc = cdt_abi_res(dev, t, &full, sizeof(full), "struct cdt_cd_text");

	if (rc)
		return rc;
	buf = malloc(TEXT_ALLOC);
	if (!buf)
		return CDT_ENOMEM;
	rc = cdt_cmd_read_cd_text(dev, buf, text_alloc(dev), &got);
	if (!rc && got >= CD_TEXT_HEADER) {
		full.answered = true;
		rc = cd_text_parse(buf, got, &ct) ? CDT_ENOMEM : take(&ct, &full);
		cd_text_free(&ct);
	} else if (rc != CDT_EINTR) {
		rc = 0;		/* refused, or failed: no CD-TEXT, no error */
	}
	free(buf);
	if (cdt_abi_leave(t, &full, sizeof(full), CDT_END(struct cdt_cd_text, blocks)))
		cdt_cd_text_free(&full);
	return rc;
}

void cdt_cd_text_free(struct cdt_cd_text *t)
{
	size_t i;
	unsigned int n, f;

	if (!t || !CDT_HAS(t, blocks))
		return;
	for (i = 0; t->blocks && i < t->n_blocks; i++)
		for (n = 0; n <= CDT_TEXT_TRACKS; n++)
			for (f = 0; f < CDT_TEXT_FIELDS; f++)
				free(t->blocks[i].text[n][f]);
	free(t->blocks);
	t->blocks = NULL;
	t->n_blocks = 0;
}

/* b's strings copied into out (whose own are NULL); false when memory ran out */
static bool copy_block(const struct cdt_text_block *b, struct cdt_text_block *out)
{
	unsigned int n, f;
	bool ok = true;

	*out = *b;
	for (n = 0; n <= CDT_TEXT_TRACKS; n++)
		for (f = 0; f < CDT_TEXT_FIELDS; f++) {
			out->text[n][f] = b->text[n][f] ? strdup(b->text[n][f]) : NULL;
			ok &= !b->text[n][f] || out->text[n][f];
		}
	return ok;
}

struct cdt_cd_text *cdt_cd_text_copy(const struct cdt_cd_text *t)
{
	struct cdt_cd_text *c;
	bool ok = true;
	size_t i;

	if (!t)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	*c = *t;
	c->size = sizeof(*c);
	c->blocks = t->n_blocks ? calloc(t->n_blocks, sizeof(*c->blocks)) : NULL;
	if (t->n_blocks && !c->blocks)
		c->n_blocks = 0, ok = false;
	for (i = 0; ok && i < c->n_blocks; i++)
		ok = copy_block(&t->blocks[i], &c->blocks[i]);
	if (!ok) {
		cdt_cd_text_free(c);
		free(c);
		return NULL;
	}
	return c;
}

void cdt_dev_keep_cd_text(struct cdt_dev *dev, struct cdt_cd_text *t)
{
	if (dev->probed_cd_text != t) {
		cdt_cd_text_free(dev->probed_cd_text);
		free(dev->probed_cd_text);
	}
	dev->probed_cd_text = t;
}

int cdt_dev_cd_text(const struct cdt_dev *dev, struct cdt_cd_text *t)
{
	struct cdt_cd_text *c = NULL;
	size_t size;

	/* blocks is the last field: a caller's struct that holds it is whole */
	if (!dev || !t || !CDT_HAS(t, blocks))
		return CDT_EUSAGE;
	size = t->size;
	if (dev->probed_cd_text) {
		c = cdt_cd_text_copy(dev->probed_cd_text);
		if (!c)
			return CDT_ENOMEM;
	}
	*t = c ? *c : (struct cdt_cd_text){ 0 };
	t->size = size;
	free(c);
	return 0;
}

const char *cdt_text_field_name(enum cdt_text_field f)
{
	return (unsigned int)f < CDT_TEXT_FIELDS ? cd_text_field_name((enum cd_text_field)f) : "";
}

const char *cdt_text_language_name(unsigned int code)
{
	return code <= 0xff ? cd_text_language_name((uint8_t)code) : NULL;
}

const char *cdt_text_charset_name(unsigned int code)
{
	return code <= 0xff ? cd_text_charset_name((uint8_t)code) : NULL;
}
