// SPDX-License-Identifier: MIT
/*
 * CD-TEXT packs: see cd/cdtext.h.  Two walks over the packs: the size
 * information first (it comes last in a block but says how to read the
 * text), then the text, a string at a time.  A string is carried from
 * pack to pack only while the packs follow one another (same block and
 * type, the next sequence number, the track byte the string's): a pack
 * dropped for its CRC breaks the chain, and a string whose beginning is
 * lost (a pack that says characters came before it) is skipped to its
 * end, never joined to a stranger's.
 */
#include <stdlib.h>
#include <string.h>
#include "cd/cdtext.h"

#define CRC_POLY 0x1021	/* the Q subchannel's CRC-16 (cd/subq.c) */
#define PAYLOAD 12
#define SIZE_INFO 36	/* 8Fh: three packs of 12 */
#define STR_MAX (256 * PAYLOAD)	/* a block's whole payload */
#define TYPE_SIZE_INFO 0x8f
#define TAB 0x09

uint16_t cd_text_crc(const uint8_t *pack)
{
	uint16_t crc = 0;
	int i, b;

	for (i = 0; i < 16; i++) {
		crc ^= (uint16_t)(pack[i] << 8);
		for (b = 0; b < 8; b++)
			crc = crc & 0x8000 ? (uint16_t)(crc << 1) ^ CRC_POLY :
			      (uint16_t)(crc << 1);
	}
	return crc;
}

static bool crc_ok(const uint8_t *p)
{
	uint16_t want = cd_text_crc(p) ^ 0xffff;

	return p[16] == want >> 8 && p[17] == (want & 0xff);
}

/* the field of a pack type, -1 for the types without text */
static int field_of(uint8_t type)
{
	static const int8_t fields[16] = {
		CD_TEXT_TITLE, CD_TEXT_PERFORMER, CD_TEXT_SONGWRITER, CD_TEXT_COMPOSER,
		CD_TEXT_ARRANGER, CD_TEXT_MESSAGE, CD_TEXT_DISC_ID, CD_TEXT_GENRE,
		-1, -1, -1, -1, -1, CD_TEXT_CLOSED, CD_TEXT_UPC_ISRC, -1,
	};

	return type >= 0x80 && type <= 0x8f ? fields[type - 0x80] : -1;
}

const char *cd_text_field_name(enum cd_text_field f)
{
	static const char *const names[CD_TEXT_FIELDS] = {
		"TITLE", "PERFORMER", "SONGWRITER", "COMPOSER", "ARRANGER",
		"MESSAGE", "DISC_ID", "GENRE", "CLOSED_INFO", "UPC_ISRC",
	};

	return (unsigned int)f < CD_TEXT_FIELDS ? names[f] : "";
}

/* EBU Tech 3258 codes as libcdio's include/cdio/cdtext.h lists them */
const char *cd_text_language_name(uint8_t code)
{
	static const struct { uint8_t code; const char *name; } langs[] = {
		{ 0x08, "German" }, { 0x09, "English" }, { 0x0a, "Spanish" },
		{ 0x0f, "French" }, { 0x15, "Italian" }, { 0x1d, "Dutch" },
		{ 0x20, "Polish" }, { 0x21, "Portuguese" }, { 0x28, "Swedish" },
		{ 0x56, "Russian" }, { 0x65, "Korean" }, { 0x69, "Japanese" },
		{ 0x75, "Chinese" },
	};
	size_t i;

	for (i = 0; i < sizeof(langs) / sizeof(langs[0]); i++)
		if (langs[i].code == code)
			return langs[i].name;
	return NULL;
}

const char *cd_text_charset_name(uint8_t code)
{
	switch (code) {
	case CD_TEXT_ISO8859_1:
		return "ISO-8859-1";
	case CD_TEXT_ASCII:
		return "ASCII";
	case CD_TEXT_MS_JIS:
		return "MS-JIS";
	case CD_TEXT_KOREAN:
		return "Korean";
	case CD_TEXT_MANDARIN:
		return "Mandarin";
	default:
		return NULL;
	}
}

static size_t put_escaped(char *out, uint8_t c)
{
	static const char hex[] = "0123456789ABCDEF";

	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 15];
	return 4;
}

/* a Shift-JIS lead byte: it and the next byte are one character */
static bool sjis_lead(uint8_t c)
{
	return (c >= 0x81 && c <= 0x9f) || (c >= 0xe0 && c <= 0xfc);
}

/*
 * s[n] in the block's character code as UTF-8: ISO 8859-1 converts, the
 * printable ASCII passes, a backslash doubles, every other byte (a
 * double-byte character's both) is \xNN.  At most 4 * n + 1 bytes.
 */
static char *to_utf8(const uint8_t *s, size_t n, uint8_t charset, bool dbcc)
{
	char *out = malloc(4 * n + 1), *p = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		uint8_t c = s[i];

		if (dbcc || (charset == CD_TEXT_MS_JIS && sjis_lead(c) && i + 1 < n)) {
			p += put_escaped(p, c);
			if (!dbcc)
				p += put_escaped(p, s[++i]);
		} else if (c == '\\') {
			*p++ = '\\';
			*p++ = '\\';
		} else if (c >= 0x20 && c < 0x7f) {
			*p++ = (char)c;
		} else if (c >= 0xa0 && charset == CD_TEXT_ISO8859_1) {
			*p++ = (char)(0xc0 | c >> 6);
			*p++ = (char)(0x80 | (c & 0x3f));
		} else {
			p += put_escaped(p, c);
		}
	}
	*p = '\0';
	return out;
}

/* the string being gathered in one block */
struct text_state {
	bool active;		/* a pack of it was taken; the next may continue */
	bool lost;		/* the string's beginning was not read: skip it */
	uint8_t type, next_seq;
	unsigned int track;	/* the string's track */
	unsigned int genre_bytes;	/* of the genre code still to come */
	size_t len;
	uint8_t buf[STR_MAX];
};

struct parse {
	struct cd_text *out;
	uint8_t size_info[CD_TEXT_BLOCKS][SIZE_INFO];
	uint8_t got_info[CD_TEXT_BLOCKS];	/* bit n: the 8Fh pack of track byte n */
	struct text_state st[CD_TEXT_BLOCKS];
};

static struct cd_text_block *block_of(struct parse *ps, unsigned int b)
{
	struct cd_text_block **blk = &ps->out->block[b];

	if (!*blk) {
		*blk = calloc(1, sizeof(**blk));
		if (*blk)
			(*blk)->charset = CD_TEXT_ISO8859_1;
	}
	return *blk;
}

/* The first walk: each block's size information, from its own 8Fh packs. */
static int read_size_info(struct parse *ps, const uint8_t *packs, unsigned int n)
{
	unsigned int i, b;

	for (i = 0; i < n; i++) {
		const uint8_t *p = packs + (size_t)i * CD_TEXT_PACK;

		b = (p[3] >> 4) & 7;
		if (p[0] != TYPE_SIZE_INFO || p[1] > 2 || !crc_ok(p))
			continue;
		memcpy(ps->size_info[b] + p[1] * PAYLOAD, p + 4, PAYLOAD);
		ps->got_info[b] |= (uint8_t)(1u << p[1]);
	}
	for (b = 0; b < CD_TEXT_BLOCKS; b++) {
		const uint8_t *si = ps->size_info[b];
		struct cd_text_block *blk;

		if (ps->got_info[b] != 7)
			continue;
		blk = block_of(ps, b);
		if (!blk)
			return -1;
		blk->size_info = true;
		blk->charset = si[0];
		blk->first_track = si[1];
		blk->last_track = si[2];
		blk->copyright = si[3];
		blk->language = si[28 + b];
	}
	return 0;
}

static bool is_tab(const uint8_t *s, size_t len, bool dbcc)
{
	return dbcc ? len == 2 && s[0] == TAB && s[1] == TAB : len == 1 && s[0] == TAB;
}

/* A whole string of track st->track: kept unless empty, a repeat, out of range. */
static int store(struct parse *ps, unsigned int b, int field, struct text_state *st,
		 bool dbcc)
{
	struct cd_text_block *blk = ps->out->block[b];
	unsigned int t = st->track, first;
	char **slot;

	if (st->lost || !st->len)
		return 0;
	if (t > CD_TEXT_TRACKS) {
		ps->out->skipped++;
		return 0;
	}
	slot = &blk->text[t][field];
	if (*slot)
		return 0;	/* the first one read stands */
	if (is_tab(st->buf, st->len, dbcc)) {
		first = blk->size_info && blk->first_track ? blk->first_track : 1;
		if (t <= first || !blk->text[t - 1][field]) {
			ps->out->skipped++;
			return 0;
		}
		*slot = strdup(blk->text[t - 1][field]);
	} else {
		*slot = to_utf8(st->buf, st->len, blk->charset, dbcc);
	}
	return *slot ? 0 : -1;
}

/* Where a pack does not continue the string before it: start afresh. */
static void restart(struct text_state *st, const uint8_t *p)
{
	st->active = true;
	st->type = p[0];
	st->track = p[1];
	st->len = 0;
	/* characters came before this pack: the string's beginning is lost */
	st->lost = (p[3] & 0x0f) != 0;
	st->genre_bytes = p[0] == 0x87 && !st->lost && p[1] == 0 ? 2 : 0;
}

static int take_text(struct parse *ps, const uint8_t *p, int field)
{
	unsigned int b = (p[3] >> 4) & 7, j, step;
	bool dbcc = p[3] & 0x80;
	struct text_state *st = &ps->st[b];
	struct cd_text_block *blk = block_of(ps, b);

	if (!blk)
		return -1;
	blk->dbcc |= dbcc;
	if (!st->active || st->type != p[0] || st->next_seq != p[2] || st->track != p[1])
		restart(st, p);
	st->next_seq = (uint8_t)(p[2] + 1);
	step = dbcc ? 2 : 1;
	for (j = 0; j + step <= PAYLOAD; j += step) {
		const uint8_t *c = p + 4 + j;

		if (st->genre_bytes) {
			blk->genre = (uint16_t)(blk->genre << 8 | c[0]);
			st->genre_bytes--;
			if (dbcc && st->genre_bytes) {
				blk->genre = (uint16_t)(blk->genre << 8 | c[1]);
				st->genre_bytes--;
			}
			continue;
		}
		if (c[0] == 0 && (!dbcc || c[1] == 0)) {
			if (store(ps, b, field, st, dbcc))
				return -1;
			st->track++;
			st->len = 0;
			st->lost = false;
			continue;
		}
		if (st->len + step > STR_MAX) {
			st->lost = true;	/* longer than a block holds */
			continue;
		}
		memcpy(st->buf + st->len, c, step);
		st->len += step;
	}
	return 0;
}

/* The second walk: every pack but the size information's. */
static int read_packs(struct parse *ps, const uint8_t *packs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const uint8_t *p = packs + (size_t)i * CD_TEXT_PACK;
		int field = field_of(p[0]);

		if (!crc_ok(p)) {
			ps->out->bad_crc++;
			continue;
		}
		if (p[0] == TYPE_SIZE_INFO)
			continue;
		if (p[0] == 0x88 || p[0] == 0x89) {
			ps->out->toc_packs++;
			continue;
		}
		if (field < 0 || (p[1] & 0x80)) {
			ps->out->skipped++;
			continue;
		}
		if (take_text(ps, p, field))
			return -1;
	}
	return 0;
}

int cd_text_parse(const uint8_t *buf, size_t len, struct cd_text *out)
{
	struct parse *ps;
	size_t body, stated;
	unsigned int n;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (len < CD_TEXT_HEADER)
		return -1;
	/* the header's length counts the two bytes after it; never past len */
	stated = (size_t)buf[0] << 8 | buf[1];
	body = len - CD_TEXT_HEADER;
	if (stated >= 2 && stated - 2 < body)
		body = stated - 2;
	n = (unsigned int)(body / CD_TEXT_PACK);
	if (n > CD_TEXT_MAX_PACKS)
		n = CD_TEXT_MAX_PACKS;
	out->packs = n;
	ps = calloc(1, sizeof(*ps));
	if (!ps)
		return -1;
	ps->out = out;
	if (!read_size_info(ps, buf + CD_TEXT_HEADER, n) &&
	    !read_packs(ps, buf + CD_TEXT_HEADER, n))
		rc = 0;
	free(ps);
	if (rc)
		cd_text_free(out);
	return rc;
}

void cd_text_free(struct cd_text *t)
{
	unsigned int b, n, f;

	for (b = 0; b < CD_TEXT_BLOCKS; b++) {
		if (!t->block[b])
			continue;
		for (n = 0; n <= CD_TEXT_TRACKS; n++)
			for (f = 0; f < CD_TEXT_FIELDS; f++)
				free(t->block[b]->text[n][f]);
		free(t->block[b]);
	}
	memset(t, 0, sizeof(*t));
}

bool cd_text_has_text(const struct cd_text *t)
{
	unsigned int b, n, f;

	for (b = 0; b < CD_TEXT_BLOCKS; b++)
		for (n = 0; t->block[b] && n <= CD_TEXT_TRACKS; n++)
			for (f = 0; f < CD_TEXT_FIELDS; f++)
				if (t->block[b]->text[n][f])
					return true;
	return false;
}

/* the packs being written by cd_text_build */
struct builder {
	uint8_t *out;
	size_t cap, used;
	unsigned int seq;
	uint8_t counts[16];	/* packs of each type, for the size information */
	uint8_t pay[PAYLOAD];
	size_t k;		/* payload bytes gathered */
	uint8_t track, pos;	/* of the gathered pack's first character */
};

static void emit(struct builder *bd, uint8_t type, uint8_t track, uint8_t pos,
		 const uint8_t *payload)
{
	uint8_t p[CD_TEXT_PACK];
	uint16_t crc;

	p[0] = type;
	p[1] = track;
	p[2] = (uint8_t)bd->seq;
	p[3] = pos;		/* block 0, one byte a character */
	memcpy(p + 4, payload, PAYLOAD);
	crc = cd_text_crc(p) ^ 0xffff;
	p[16] = crc >> 8;
	p[17] = crc & 0xff;
	if (bd->used + CD_TEXT_PACK <= bd->cap)
		memcpy(bd->out + bd->used, p, CD_TEXT_PACK);
	bd->used += CD_TEXT_PACK;
	bd->seq++;
	bd->counts[type - 0x80]++;
}

static void put_byte(struct builder *bd, uint8_t type, uint8_t c, unsigned int track,
		     size_t at)
{
	if (!bd->k) {
		bd->track = (uint8_t)track;
		bd->pos = at < 15 ? (uint8_t)at : 15;
	}
	bd->pay[bd->k++] = c;
	if (bd->k == PAYLOAD) {
		emit(bd, type, bd->track, bd->pos, bd->pay);
		bd->k = 0;
	}
}

/* One field's strings, the disc's then each track's, each with its NUL. */
static void build_field(struct builder *bd, const char *const text[][CD_TEXT_FIELDS],
			int f, unsigned int last)
{
	uint8_t type = (uint8_t)(f == CD_TEXT_CLOSED ? 0x8d : f == CD_TEXT_UPC_ISRC ?
				 0x8e : 0x80 + f);
	const char *prev = NULL;
	unsigned int n;
	size_t i, len;

	for (n = 0; n <= last; n++) {
		const char *s = text[n][f] ? text[n][f] : "";

		/* the TAB rule: the same as the previous track's (never track 1's) */
		if (n >= 2 && *s && prev && !strcmp(s, prev))
			s = "\t";
		len = strlen(s) + 1;
		for (i = 0; i < len; i++)
			put_byte(bd, type, (uint8_t)s[i], n, i);
		prev = text[n][f];
	}
	if (bd->k) {
		memset(bd->pay + bd->k, 0, PAYLOAD - bd->k);
		emit(bd, type, bd->track, bd->pos, bd->pay);
		bd->k = 0;
	}
}

static bool field_used(const char *const text[][CD_TEXT_FIELDS], int f, unsigned int last)
{
	unsigned int n;

	for (n = 0; n <= last; n++)
		if (text[n][f] && text[n][f][0])
			return true;
	return false;
}

size_t cd_text_build(const char *const text[][CD_TEXT_FIELDS], unsigned int first,
		     unsigned int last, uint8_t *out, size_t cap)
{
	struct builder bd = { .out = out, .cap = cap };
	uint8_t si[SIZE_INFO] = { 0 };
	int f, i;

	if (last > CD_TEXT_TRACKS)
		last = CD_TEXT_TRACKS;
	for (f = 0; f < CD_TEXT_FIELDS; f++)
		if (f != CD_TEXT_GENRE && field_used(text, f, last))
			build_field(&bd, text, f, last);
	if (!bd.used || bd.seq > 253)
		return 0;
	bd.counts[15] = 3;
	si[0] = CD_TEXT_ISO8859_1;
	si[1] = (uint8_t)first;
	si[2] = (uint8_t)last;
	for (i = 0; i < 16; i++)
		si[4 + i] = bd.counts[i];
	si[20] = (uint8_t)(bd.seq + 2);	/* block 0's last sequence number */
	si[28] = 0x09;			/* English */
	for (i = 0; i < 3; i++)
		emit(&bd, TYPE_SIZE_INFO, (uint8_t)i, 0, si + i * PAYLOAD);
	return bd.used;
}
