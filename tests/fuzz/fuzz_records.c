// SPDX-License-Identifier: MIT
/*
 * Every comment record of a map (book/records.h: the drive, the identity,
 * the skip list, the raw line), read by the one strict parser.  An
 * accepted set holds only values in their ranges (a known block size,
 * counts below 2^63 bytes, a raw stream of 1 to 99 files, a skip list
 * ascending and apart, a drive line that fits its record); a refusal is
 * CDT_EFORMAT with words that say why, or CDT_ENOMEM.  What the map book
 * writes back from an accepted set with an identity (every run records
 * one; book_make_comment) reads back the same.
 */
#include <stdlib.h>
#include <string.h>
#include "cdtail.h"
#include "fuzz.h"
#include "book/book.h"
#include "book/records.h"

static void check(const struct book_records *r)
{
	size_t i;

	if (memchr(r->drive, '\0', sizeof(r->drive)) == NULL)
		__builtin_trap();
	if (r->raw && (!r->raw_sectors || r->raw_sectors > (uint64_t)INT64_MAX / 2352 ||
		       !r->raw_files || r->raw_files > RAW_FILES_MAX))
		__builtin_trap();
	for (i = 0; i < r->skip.n; i++)
		if (!r->skip.v[i].blocks || (i && r->skip.v[i].start <
		    r->skip.v[i - 1].start + r->skip.v[i - 1].blocks))
			__builtin_trap();
	if (r->id.present) {
		uint64_t most = (uint64_t)INT64_MAX / (r->id.block_size ? r->id.block_size : 1);

		if (!r->id.extent || r->id.extent > most || r->id.true_blocks > most)
			__builtin_trap();
	}
}

/* The book's lines as a map holds them: "# " before each. */
static char *as_map(const char *lines)
{
	size_t n = strlen(lines), k = 0;
	char *text = malloc(3 * n + 8);
	const char *p;

	if (!text)
		return NULL;
	for (p = lines; ; p++) {
		if (p == lines || p[-1] == '\n') {
			text[k++] = '#';
			text[k++] = ' ';
		}
		text[k++] = *p ? *p : '\n';
		if (!*p)
			break;
	}
	text[k] = '\0';
	return text;
}

static void round_trip(struct book_records *r)
{
	struct book_records again;
	struct map_book b;
	char why[300];
	char *text;

	book_init(&b, NULL, NULL, NULL, "block");
	b.rec = *r;
	memcpy(b.drive, r->drive, sizeof(b.drive));
	if (book_make_comment(&b)) {
		free(b.base);
		free(b.comment);
		return;
	}
	text = as_map(b.comment);
	free(b.base);
	free(b.comment);
	if (!text)
		return;
	if (records_parse(text, &again, why, sizeof(why)) ||
	    again.id.present != r->id.present || again.id.extent != r->id.extent ||
	    again.id.true_blocks != r->id.true_blocks || again.raw != r->raw ||
	    again.raw_sectors != r->raw_sectors || again.raw_files != r->raw_files ||
	    again.skip.n != r->skip.n ||
	    (r->skip.n && memcmp(again.skip.v, r->skip.v, r->skip.n * sizeof(*r->skip.v))))
		__builtin_trap();
	records_free(&again);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size), why[300] = "";
	struct book_records r;
	int rc;

	if (!text)
		return 0;
	rc = records_parse(text, &r, why, sizeof(why));
	free(text);
	if (rc) {
		if ((rc != CDT_EFORMAT && rc != CDT_ENOMEM) || (rc == CDT_EFORMAT && !why[0]))
			__builtin_trap();
		records_free(&r);
		return 0;
	}
	check(&r);
	/* the book saves an identity always (a run records one) */
	if (r.id.present)
		round_trip(&r);
	records_free(&r);
	return 0;
}
