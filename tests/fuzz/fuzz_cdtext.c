// SPDX-License-Identifier: MIT
/*
 * The CD-TEXT packs (cd/cdtext.c): the input as a READ TOC format 5
 * answer.  What it gives must hold what the parser promises: no more
 * packs than the buffer holds or the bound, no more dropped than read,
 * every string of at most four bytes a payload byte (the \xNN escape)
 * and valid to its NUL.  Whatever text it read, cd_text_build writes
 * packs of it (block 0's raw fields as they stand) that read back with
 * no CRC dropped.  Seeds: tests/fuzz/corpus/fuzz_cdtext (packs written
 * by the unit test's hand and by cd_text_build).
 */
#include <string.h>
#include "fuzz.h"
#include "cd/cdtext.h"

#define MAX_STR (4 * 256 * 12)

static void check_block(const struct cd_text_block *b)
{
	unsigned int n, f;

	for (n = 0; n <= CD_TEXT_TRACKS; n++)
		for (f = 0; f < CD_TEXT_FIELDS; f++)
			if (b->text[n][f] && (!b->text[n][f][0] ||
					      strlen(b->text[n][f]) > MAX_STR))
				__builtin_trap();
	(void)cd_text_language_name(b->language);
	(void)cd_text_charset_name(b->charset);
}

/* block 0's text as the strings of a new disc: its packs read back whole */
static void rebuild(const struct cd_text_block *b)
{
	static uint8_t buf[CD_TEXT_HEADER + 256 * CD_TEXT_PACK];
	const char *text[CD_TEXT_TRACKS + 1][CD_TEXT_FIELDS];
	struct cd_text again;
	size_t n;

	memcpy(text, b->text, sizeof(text));
	n = cd_text_build(text, 1, CD_TEXT_TRACKS, buf + CD_TEXT_HEADER,
			  sizeof(buf) - CD_TEXT_HEADER);
	if (n % CD_TEXT_PACK || n > sizeof(buf) - CD_TEXT_HEADER)
		__builtin_trap();
	if (!n)
		return;
	buf[0] = (uint8_t)((n + 2) >> 8);
	buf[1] = (uint8_t)(n + 2);
	if (cd_text_parse(buf, n + CD_TEXT_HEADER, &again))
		return;		/* out of memory */
	if (again.bad_crc || again.packs != n / CD_TEXT_PACK || !again.block[0])
		__builtin_trap();
	cd_text_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cd_text t;
	unsigned int b;

	if (cd_text_parse(data, size, &t)) {
		if (size >= CD_TEXT_HEADER && size < 1000)
			__builtin_trap();
		return 0;
	}
	if (size < CD_TEXT_HEADER || t.packs > CD_TEXT_MAX_PACKS ||
	    t.packs > (size - CD_TEXT_HEADER) / CD_TEXT_PACK || t.bad_crc > t.packs)
		__builtin_trap();
	for (b = 0; b < CD_TEXT_BLOCKS; b++)
		if (t.block[b])
			check_block(t.block[b]);
	if (t.block[0])
		rebuild(t.block[0]);
	cd_text_free(&t);
	return 0;
}
