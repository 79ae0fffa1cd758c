// SPDX-License-Identifier: MIT
/* The map's comment records, one strict parser (records.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdtail.h"
#include "book/records.h"

#define ID_HEAD "cdtail identity: "
#define ID_BLOCK "cdtail identity block "
#define ID_PENDING "search=pending"
#define ID_WINDOW "search=window"
#define ID_MAX_EXTRA "max_extra="

/* Where a number may end: a word's or the line's end. */
static bool word_end(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\0';
}

/*
 * The decimal number at *p, digits only, at most max, ending a word;
 * *p moves past it.  false on anything else (a sign, no digit, a letter
 * after it, a value above max or past 64 bits).
 */
static bool take_u64(const char **p, uint64_t max, uint64_t *v)
{
	const char *s = *p;

	*v = 0;
	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		uint64_t d = (uint64_t)(*s - '0');

		/* d > max: max - d would wrap and let any number through */
		if (d > max || *v > (max - d) / 10)
			return false;
		*v = *v * 10 + d;
	}
	if (!word_end(*s))
		return false;
	*p = s;
	return true;
}

/* "KEY=NUMBER" at *p (after spaces), the number at most max. */
static bool take_key(const char **p, const char *key, uint64_t max, uint64_t *v)
{
	size_t n = strlen(key);

	while (**p == ' ')
		(*p)++;
	if (strncmp(*p, key, n) || (*p)[n] != '=')
		return false;
	*p += n + 1;
	return take_u64(p, max, v);
}

static int damaged(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return CDT_EFORMAT;
}

/* A block size some drive reads in, or the raw sector of image --raw. */
static bool known_block_size(uint64_t bs)
{
	return bs == 512 || bs == 1024 || bs == 2048 || bs == 4096 || bs == 2352;
}

/* The most blocks of bs bytes whose byte offsets stay below 2^63. */
static uint64_t most_blocks(uint64_t bs)
{
	return (uint64_t)INT64_MAX / (bs ? bs : 1);
}

static int hex_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* "LBA sha256=HEX" at p. */
static int parse_block(const char *p, struct disc_id *id, char *why, size_t len)
{
	uint64_t lba;
	int k, hi, lo;

	if (id->n >= ID_MAX_BLOCKS)
		return damaged(why, len, "more than %d identity blocks", ID_MAX_BLOCKS);
	if (!take_u64(&p, id->extent - 1, &lba))
		return damaged(why, len, "an identity block that is not an LBA below its extent %" PRIu64,
			       id->extent);
	if (strncmp(p, " sha256=", 8))
		return damaged(why, len, "identity block %" PRIu64 " has no sha256=", lba);
	p += 8;
	for (k = 0; k < 32; k++) {
		hi = hex_nibble(p[2 * k]);
		lo = hi < 0 ? -1 : hex_nibble(p[2 * k + 1]);
		if (lo < 0)
			break;
		id->sha256[id->n][k] = (uint8_t)(hi << 4 | lo);
	}
	if (k < 32 || !word_end(p[64]))
		return damaged(why, len, "identity block %" PRIu64 " has no 64-digit sha256", lba);
	id->lba[id->n++] = lba;
	return 0;
}

/*
 * The words after the first line's three counts: the search's state.
 * Words it does not know are left for a later cdtail; a window without
 * its --max-extra, or a search both pending and done, is damage.
 */
static int parse_state(const char *p, struct disc_id *id, char *why, size_t len)
{
	size_t n, ml = strlen(ID_MAX_EXTRA);
	const char *q;

	for (p += strspn(p, " "); !word_end(*p); p += strspn(p, " ")) {
		n = strcspn(p, " \r\n");
		if (n == strlen(ID_PENDING) && !strncmp(p, ID_PENDING, n)) {
			id->pending = true;
		} else if (n == strlen(ID_WINDOW) && !strncmp(p, ID_WINDOW, n)) {
			id->window = true;
		} else if (n > ml && !strncmp(p, ID_MAX_EXTRA, ml)) {
			q = p + ml;
			if (!take_u64(&q, most_blocks(id->block_size), &id->max_extra) ||
			    !id->max_extra)
				return damaged(why, len, "max_extra=%.*s is not a count of blocks",
					       (int)(n - ml), p + ml);
		}
		p += n;
	}
	if (!id->window)
		id->max_extra = 0;	/* the window's, and there is none */
	if (id->window && !id->max_extra)
		return damaged(why, len, "search=window without its max_extra");
	if (id->window && id->pending)
		return damaged(why, len, "a search both pending and stopped at its window");
	if (id->window && id->true_blocks > id->extent)
		return damaged(why, len, "true_blocks=%" PRIu64 " past the window's edge, extent=%"
			       PRIu64, id->true_blocks, id->extent);
	return 0;
}

/* "block_size=B extent=E true_blocks=T ..." after ID_HEAD. */
static int parse_head(const char *p, struct disc_id *id, char *why, size_t len)
{
	uint64_t bs, most;
	const char *at;

	if (id->present)
		return damaged(why, len, "two identity lines");
	at = p;
	if (!take_key(&p, "block_size", 65536, &bs) || !known_block_size(bs))
		return damaged(why, len, "%.*s is not a block size (512, 1024, 2048, 4096 or 2352)",
			       (int)strcspn(at, " \r\n"), at);
	id->block_size = (uint32_t)bs;
	most = most_blocks(bs);
	at = p + strspn(p, " ");
	if (!take_key(&p, "extent", most, &id->extent) || !id->extent)
		return damaged(why, len, "%.*s is not a count of blocks (1 to %" PRIu64 ")",
			       (int)strcspn(at, " \r\n"), at, most);
	at = p + strspn(p, " ");
	if (!take_key(&p, "true_blocks", most, &id->true_blocks))
		return damaged(why, len, "%.*s is not a count of blocks (0 to %" PRIu64 ")",
			       (int)strcspn(at, " \r\n"), at, most);
	id->present = true;
	return parse_state(p, id, why, len);
}

/* The text after "# " + prefix on a line of its own, or NULL. */
static const char *after(const char *line, const char *prefix)
{
	if (line[0] != '#' || line[1] != ' ')
		return NULL;
	line += 2;
	return strncmp(line, prefix, strlen(prefix)) ? NULL : line + strlen(prefix);
}

static const char *next_line(const char *line)
{
	line = strchr(line, '\n');
	return line ? line + 1 : NULL;
}

static int parse_identity(const char *text, struct disc_id *id, char *why, size_t len)
{
	const char *line, *p;
	int rc;

	memset(id, 0, sizeof(*id));
	for (line = text; line && *line; line = next_line(line)) {
		if ((p = after(line, ID_HEAD)))
			rc = parse_head(p, id, why, len);
		else if ((p = after(line, ID_BLOCK)))
			rc = id->present ? parse_block(p, id, why, len) :
			     damaged(why, len, "an identity block before the identity line");
		else
			rc = 0;
		if (rc) {
			memset(id, 0, sizeof(*id));
			return rc;
		}
	}
	return 0;
}

int id_parse(const char *text, struct disc_id *id)
{
	return parse_identity(text, id, NULL, 0);
}

/* The last drive line's text, cut to what a record holds (image writes it so). */
static void parse_drive(const char *text, char *out)
{
	const char *line, *p;
	size_t n;

	out[0] = '\0';
	for (line = text; line && *line; line = next_line(line)) {
		p = after(line, DRIVE_HEAD);
		if (!p)
			continue;
		n = strcspn(p, "\r\n");
		if (n >= DRIVE_MAX)
			n = DRIVE_MAX - 1;
		memcpy(out, p, n);
		out[n] = '\0';
	}
}

void records_raw_line(char *out, size_t len, uint64_t sectors, size_t files)
{
	snprintf(out, len, RAW_HEAD RAW_WORDS " sectors=%" PRIu64 " files=%zu", sectors, files);
}

/* "sector=2352 stream=... sectors=S files=F" after RAW_HEAD. */
static int parse_raw_words(const char *p, struct book_records *r, char *why, size_t len)
{
	uint64_t v;

	if (r->raw)
		return damaged(why, len, "two raw lines");
	if (strncmp(p, RAW_WORDS, strlen(RAW_WORDS)))
		return damaged(why, len, "the raw line does not say its stream is 2352-byte sectors");
	p += strlen(RAW_WORDS);
	if (!take_key(&p, "sectors", most_blocks(2352), &r->raw_sectors) || !r->raw_sectors)
		return damaged(why, len, "the raw line's sectors= is not a count of sectors");
	if (!take_key(&p, "files", RAW_FILES_MAX, &v) || !v)
		return damaged(why, len, "the raw line's files= is not 1 to %d", RAW_FILES_MAX);
	p += strspn(p, " \r");
	if (*p && *p != '\n')
		return damaged(why, len, "the raw line goes on after files=");
	r->raw_files = (unsigned int)v;
	r->raw = true;
	return 0;
}

static int parse_raw(const char *text, struct book_records *r, char *why, size_t len)
{
	const char *line, *p;
	int rc;

	for (line = text; line && *line; line = next_line(line)) {
		p = after(line, RAW_HEAD);
		if (p && (rc = parse_raw_words(p, r, why, len)))
			return rc;
	}
	return 0;
}

int records_parse(const char *text, struct book_records *r, char *why, size_t len)
{
	char what[200];
	int rc;

	memset(r, 0, sizeof(*r));
	parse_drive(text, r->drive);
	rc = parse_identity(text, &r->id, what, sizeof(what));
	if (rc)
		return damaged(why, len, "identity record: %s", what);
	rc = skip_parse(text, strlen(text), &r->skip);
	if (rc == CDT_EFORMAT)
		return damaged(why, len, "skipped list");
	if (rc)
		return rc;
	rc = parse_raw(text, r, what, sizeof(what));
	if (rc)
		return damaged(why, len, "raw line: %s", what);
	return 0;
}

void records_free(struct book_records *r)
{
	skip_free(&r->skip);
}
