// SPDX-License-Identifier: MIT
/*
 * Unit tests of the CD-TEXT packs (cd/cdtext.c): packs written here by
 * hand from MMC-5 annex J's layout (their CRC by a bit-at-a-time CRC-16
 * of this file, checked against the catalogue's check value), read back:
 * text spanning packs, the TAB rule, a bad CRC dropped and counted, the
 * header's length never trusted, eight blocks with their languages, the
 * character codes (ISO 8859-1 converted, the others escaped), DBCC, the
 * genre code; and cd_text_build's packs read back the same.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cd/cdtext.h"

/* CRC-16, x^16 + x^12 + x^5 + 1, register 0 (CRC-16/XMODEM), a bit a step */
static uint16_t crc16(const uint8_t *p, size_t n)
{
	uint16_t r = 0;
	size_t i;
	int b;

	for (i = 0; i < n; i++)
		for (b = 7; b >= 0; b--) {
			int bit = ((r >> 15) & 1) ^ ((p[i] >> b) & 1);

			r = (uint16_t)(r << 1);
			if (bit)
				r ^= 0x1021;
		}
	return r;
}

struct answer {
	uint8_t buf[4 + 300 * CD_TEXT_PACK];
	unsigned int n;		/* packs */
	uint8_t seq[CD_TEXT_BLOCKS];
};

/* One pack: its payload (pay_len bytes, the rest zero) and a right CRC. */
static uint8_t *add(struct answer *a, uint8_t type, uint8_t track, uint8_t block,
		    uint8_t pos, const void *pay, size_t pay_len)
{
	uint8_t *p = a->buf + 4 + a->n * CD_TEXT_PACK;
	uint16_t crc;

	memset(p, 0, CD_TEXT_PACK);
	p[0] = type;
	p[1] = track;
	p[2] = a->seq[block & 7]++;
	p[3] = (uint8_t)((block & 7) << 4 | (block & 8) << 4 | pos);
	memcpy(p + 4, pay, pay_len);
	crc = (uint16_t)~crc16(p, 16);
	p[16] = crc >> 8;
	p[17] = crc & 0xff;
	a->n++;
	a->buf[0] = (uint8_t)((2 + a->n * CD_TEXT_PACK) >> 8);
	a->buf[1] = (uint8_t)(2 + a->n * CD_TEXT_PACK);
	return p;
}

static size_t len_of(const struct answer *a)
{
	return 4 + (size_t)a->n * CD_TEXT_PACK;
}

/* The three 8Fh packs of block b. */
static void size_info(struct answer *a, uint8_t b, uint8_t charset, uint8_t last,
		      const uint8_t lang[8])
{
	uint8_t si[36] = { charset, 1, last, 0 };

	memcpy(si + 28, lang, 8);
	add(a, 0x8f, 0, b, 0, si, 12);
	add(a, 0x8f, 1, b, 0, si + 12, 12);
	add(a, 0x8f, 2, b, 0, si + 24, 12);
}

static const uint8_t english[8] = { 0x09 };

/* "Album" / "One" / "Two" titles, "Artist" / "Band" / TAB performers */
static void album(struct answer *a)
{
	memset(a, 0, sizeof(*a));
	add(a, 0x80, 0, 0, 0, "Album\0One\0Tw", 12);
	add(a, 0x80, 2, 0, 2, "o\0", 2);
	add(a, 0x81, 0, 0, 0, "Artist\0Band\0", 12);
	add(a, 0x81, 2, 0, 0, "\t\0", 2);
	size_info(a, 0, CD_TEXT_ISO8859_1, 2, english);
}

static void test_crc_check_value(void **state)
{
	uint8_t p[18] = { 0 };

	(void)state;
	assert_int_equal(crc16((const uint8_t *)"123456789", 9), 0x31c3);
	memcpy(p, "0123456789abcdef", 16);
	assert_int_equal(cd_text_crc(p), crc16(p, 16));
}

static void test_album(void **state)
{
	struct answer a;
	struct cd_text t;
	struct cd_text_block *b;

	(void)state;
	album(&a);
	assert_int_equal(cd_text_parse(a.buf, len_of(&a), &t), 0);
	assert_int_equal(t.packs, 7);
	assert_int_equal(t.bad_crc, 0);
	b = t.block[0];
	assert_non_null(b);
	assert_true(b->size_info);
	assert_int_equal(b->language, 0x09);
	assert_string_equal(cd_text_language_name(b->language), "English");
	assert_int_equal(b->first_track, 1);
	assert_int_equal(b->last_track, 2);
	assert_string_equal(b->text[0][CD_TEXT_TITLE], "Album");
	assert_string_equal(b->text[1][CD_TEXT_TITLE], "One");
	assert_string_equal(b->text[2][CD_TEXT_TITLE], "Two");
	assert_string_equal(b->text[0][CD_TEXT_PERFORMER], "Artist");
	assert_string_equal(b->text[1][CD_TEXT_PERFORMER], "Band");
	/* the TAB: the same as track 1's */
	assert_string_equal(b->text[2][CD_TEXT_PERFORMER], "Band");
	assert_null(b->text[3][CD_TEXT_TITLE]);
	assert_null(b->text[1][CD_TEXT_SONGWRITER]);
	assert_null(t.block[1]);
	assert_true(cd_text_has_text(&t));
	cd_text_free(&t);
	assert_null(t.block[0]);
}

/* A title of 30 characters over three packs, then track 1's. */
static void test_spanning(void **state)
{
	const char *s = "A long title over three packs!";	/* 30 */
	struct answer a = { 0 };
	struct cd_text t;

	(void)state;
	add(&a, 0x80, 0, 0, 0, s, 12);
	add(&a, 0x80, 0, 0, 12, s + 12, 12);
	add(&a, 0x80, 0, 0, 15, "packs!\0Track", 12);	/* 15: 15 or more */
	add(&a, 0x80, 1, 0, 5, " 1\0", 3);
	assert_int_equal(cd_text_parse(a.buf, len_of(&a), &t), 0);
	assert_string_equal(t.block[0]->text[0][CD_TEXT_TITLE], s);
	assert_string_equal(t.block[0]->text[1][CD_TEXT_TITLE], "Track 1");
	/* no size information: ISO 8859-1, language unknown */
	assert_false(t.block[0]->size_info);
	assert_int_equal(t.block[0]->charset, CD_TEXT_ISO8859_1);
	cd_text_free(&t);
}

/*
 * A pack with a bad CRC is dropped and counted: the string it held part
 * of is lost (not joined to the next pack's), the strings after it stand.
 */
static void test_bad_crc(void **state)
{
	struct answer a = { 0 };
	struct cd_text t;
	uint8_t *p;

	(void)state;
	add(&a, 0x80, 0, 0, 0, "Disc title\0T", 12);
	p = add(&a, 0x80, 1, 0, 1, "rack one\0Tra", 12);
	add(&a, 0x80, 2, 0, 3, "ck two\0Three", 12);
	add(&a, 0x80, 3, 0, 5, "\0", 1);
	p[17] ^= 1;
	assert_int_equal(cd_text_parse(a.buf, len_of(&a), &t), 0);
	assert_int_equal(t.packs, 4);
	assert_int_equal(t.bad_crc, 1);
	assert_string_equal(t.block[0]->text[0][CD_TEXT_TITLE], "Disc title");
	assert_null(t.block[0]->text[1][CD_TEXT_TITLE]);
	/* track 2's beginning was in the dropped pack */
	assert_null(t.block[0]->text[2][CD_TEXT_TITLE]);
	assert_string_equal(t.block[0]->text[3][CD_TEXT_TITLE], "Three");
	cd_text_free(&t);

	/* every pack bad: no block at all */
	memset(&a, 0, sizeof(a));
	p = add(&a, 0x80, 0, 0, 0, "x", 1);
	p[16] ^= 0x80;
	assert_int_equal(cd_text_parse(a.buf, len_of(&a), &t), 0);
	assert_int_equal(t.bad_crc, 1);
	assert_null(t.block[0]);
	assert_false(cd_text_has_text(&t));
	cd_text_free(&t);
}

/* The header's length is never trusted past the buffer, nor a part pack. */
static void test_lengths(void **state)
{
	struct answer a;
	struct cd_text t;

	(void)state;
	album(&a);
	assert_int_equal(cd_text_parse(a.buf, 3, &t), -1);
	assert_int_equal(cd_text_parse(a.buf, 4, &t), 0);
	assert_int_equal(t.packs, 0);
	assert_null(t.block[0]);
	cd_text_free(&t);
	/* cut in the middle of the second pack: one pack read */
	assert_int_equal(cd_text_parse(a.buf, 4 + CD_TEXT_PACK + 5, &t), 0);
	assert_int_equal(t.packs, 1);
	assert_string_equal(t.block[0]->text[0][CD_TEXT_TITLE], "Album");
	assert_string_equal(t.block[0]->text[1][CD_TEXT_TITLE], "One");
	/* "Tw" never ended */
	assert_null(t.block[0]->text[2][CD_TEXT_TITLE]);
	cd_text_free(&t);
	/* the header says 2 packs of the 7 there */
	a.buf[0] = 0;
	a.buf[1] = 2 + 2 * CD_TEXT_PACK;
	assert_int_equal(cd_text_parse(a.buf, len_of(&a), &t), 0);
	assert_int_equal(t.packs, 2);
	assert_string_equal(t.block[0]->text[2][CD_TEXT_TITLE], "Two");
	assert_null(t.block[0]->text[0][CD_TEXT_PERFORMER]);
	cd_text_free(&t);
	/* the header says more than there is: what is there */
	a.buf[0] = 0xff;
	a.buf[1] = 0xff;
	assert_int_equal(cd_text_parse(a.buf, len_of(&a), &t), 0);
	assert_int_equal(t.packs, 7);
	cd_text_free(&t);
	/* a header length below 2 is read as "what is there" too */
	a.buf[0] = a.buf[1] = 0;
	assert_int_equal(cd_text_parse(a.buf, len_of(&a), &t), 0);
	assert_int_equal(t.packs, 7);
	cd_text_free(&t);
}

/* Eight blocks, each its own language and title. */
static void test_eight_blocks(void **state)
{
	static const uint8_t langs[8] = { 0x09, 0x08, 0x0f, 0x0a, 0x15, 0x1d, 0x69, 0x75 };
	struct answer a = { 0 };
	struct cd_text t;
	char title[16];
	uint8_t b;

	(void)state;
	for (b = 0; b < 8; b++) {
		snprintf(title, sizeof(title), "Block %u", b);
		add(&a, 0x80, 0, b, 0, title, strlen(title) + 1);
		size_info(&a, b, CD_TEXT_ISO8859_1, 1, langs);
	}
	assert_int_equal(cd_text_parse(a.buf, len_of(&a), &t), 0);
	assert_int_equal(t.packs, 32);
	for (b = 0; b < 8; b++) {
		snprintf(title, sizeof(title), "Block %u", b);
		assert_non_null(t.block[b]);
		assert_true(t.block[b]->size_info);
		assert_int_equal(t.block[b]->language, langs[b]);
		assert_string_equal(t.block[b]->text[0][CD_TEXT_TITLE], title);
	}
	assert_string_equal(cd_text_language_name(t.block[6]->language), "Japanese");
	cd_text_free(&t);
}

static char *one_title(uint8_t charset, const char *s, size_t n, bool dbcc,
		       struct cd_text *t)
{
	struct answer a = { 0 };

	add(&a, 0x80, 0, dbcc ? 8 : 0, 0, s, n);
	size_info(&a, 0, charset, 1, english);
	assert_int_equal(cd_text_parse(a.buf, len_of(&a), t), 0);
	assert_non_null(t->block[0]);
	return t->block[0]->text[0][CD_TEXT_TITLE];
}

/* ISO 8859-1 becomes UTF-8; what cannot be converted is \xNN, never made up. */
static void test_charsets(void **state)
{
	struct cd_text t;

	(void)state;
	assert_string_equal(one_title(CD_TEXT_ISO8859_1, "Caf\xe9 \xbd", 7, false, &t),
			    "Caf\xc3\xa9 \xc2\xbd");
	cd_text_free(&t);
	assert_string_equal(one_title(CD_TEXT_ISO8859_1, "a\\b\x01\x85", 6, false, &t),
			    "a\\\\b\\x01\\x85");
	cd_text_free(&t);
	/* ASCII's upper half is not ASCII */
	assert_string_equal(one_title(CD_TEXT_ASCII, "Caf\xe9", 5, false, &t), "Caf\\xE9");
	cd_text_free(&t);
	/* MS-JIS: a lead byte takes its trail byte (here 'A') with it */
	assert_string_equal(one_title(CD_TEXT_MS_JIS, "x\x82\x41y", 5, false, &t),
			    "x\\x82\\x41y");
	assert_string_equal(cd_text_charset_name(t.block[0]->charset), "MS-JIS");
	cd_text_free(&t);
	/* an unknown code: its bytes escaped */
	assert_string_equal(one_title(0x42, "\xc4k", 3, false, &t), "\\xC4k");
	assert_null(cd_text_charset_name(0x42));
	cd_text_free(&t);
	/* DBCC: two bytes a character, 00 00 ends the string, all escaped */
	assert_string_equal(one_title(CD_TEXT_MS_JIS, "\x82\xa0\x00\x41\x00\x00\x41", 7,
				      true, &t), "\\x82\\xA0\\x00\\x41");
	assert_true(t.block[0]->dbcc);
	cd_text_free(&t);
}

/* GENRE: a 2-byte code, then its text; a TAB for track 1 has no track before it. */
static void test_genre_and_tab(void **state)
{
	struct answer a = { 0 };
	struct cd_text t;

	(void)state;
	add(&a, 0x87, 0, 0, 0, "\x00\x07Jazz\0", 7);
	add(&a, 0x80, 0, 0, 0, "D\0\t\0\t\0", 6);
	size_info(&a, 0, CD_TEXT_ISO8859_1, 2, english);
	assert_int_equal(cd_text_parse(a.buf, len_of(&a), &t), 0);
	assert_int_equal(t.block[0]->genre, 7);
	assert_string_equal(t.block[0]->text[0][CD_TEXT_GENRE], "Jazz");
	assert_string_equal(t.block[0]->text[0][CD_TEXT_TITLE], "D");
	assert_null(t.block[0]->text[1][CD_TEXT_TITLE]);
	assert_null(t.block[0]->text[2][CD_TEXT_TITLE]);
	assert_int_equal(t.skipped, 2);
	cd_text_free(&t);
}

/* TOC packs counted, extension packs and reserved types skipped. */
static void test_other_types(void **state)
{
	struct answer a = { 0 };
	struct cd_text t;

	(void)state;
	add(&a, 0x88, 0, 0, 0, "\x01\x02", 2);
	add(&a, 0x89, 0, 0, 0, "", 0);
	add(&a, 0x8a, 0, 0, 0, "junk", 4);
	add(&a, 0x80, 0x80, 0, 0, "ext\0", 4);
	add(&a, 0x8e, 0, 0, 0, "012345678901", 12);
	add(&a, 0x8e, 0, 0, 12, "2\0USABC99000", 12);
	add(&a, 0x8e, 1, 0, 10, "01\0", 3);
	assert_int_equal(cd_text_parse(a.buf, len_of(&a), &t), 0);
	assert_int_equal(t.toc_packs, 2);
	assert_int_equal(t.skipped, 2);
	assert_null(t.block[0]->text[0][CD_TEXT_TITLE]);
	assert_string_equal(t.block[0]->text[0][CD_TEXT_UPC_ISRC], "0123456789012");
	assert_string_equal(t.block[0]->text[1][CD_TEXT_UPC_ISRC], "USABC9900001");
	cd_text_free(&t);
}

/* What cd_text_build writes reads back the same, its CRCs right. */
static void test_build_round_trip(void **state)
{
	const char *text[4][CD_TEXT_FIELDS] = { { 0 } };
	uint8_t buf[4 + 256 * CD_TEXT_PACK];
	struct cd_text t;
	size_t n, i;

	(void)state;
	text[0][CD_TEXT_TITLE] = "A disc with a long name";
	text[0][CD_TEXT_PERFORMER] = "Someone";
	text[1][CD_TEXT_TITLE] = "First";
	text[2][CD_TEXT_TITLE] = "Second";
	text[3][CD_TEXT_TITLE] = "Second";
	text[1][CD_TEXT_COMPOSER] = "Caf\xe9";
	text[3][CD_TEXT_MESSAGE] = "msg";
	assert_int_equal(cd_text_build(text, 1, 3, NULL, 0) % CD_TEXT_PACK, 0);
	n = cd_text_build(text, 1, 3, buf + 4, sizeof(buf) - 4);
	assert_true(n > 3 * CD_TEXT_PACK && n < sizeof(buf) - 4);
	for (i = 0; i < n; i += CD_TEXT_PACK) {
		uint16_t crc = (uint16_t)~crc16(buf + 4 + i, 16);

		assert_int_equal(buf[4 + i + 16], crc >> 8);
		assert_int_equal(buf[4 + i + 17], crc & 0xff);
	}
	/* the TAB stands on the disc for track 3's title */
	assert_non_null(memchr(buf + 4, '\t', n));
	buf[0] = (uint8_t)((n + 2) >> 8);
	buf[1] = (uint8_t)(n + 2);
	buf[2] = buf[3] = 0;
	assert_int_equal(cd_text_parse(buf, n + 4, &t), 0);
	assert_int_equal(t.bad_crc, 0);
	assert_true(t.block[0]->size_info);
	assert_int_equal(t.block[0]->last_track, 3);
	assert_int_equal(t.block[0]->language, 0x09);
	assert_string_equal(t.block[0]->text[0][CD_TEXT_TITLE], "A disc with a long name");
	assert_string_equal(t.block[0]->text[0][CD_TEXT_PERFORMER], "Someone");
	assert_null(t.block[0]->text[1][CD_TEXT_PERFORMER]);
	assert_string_equal(t.block[0]->text[3][CD_TEXT_TITLE], "Second");
	assert_string_equal(t.block[0]->text[1][CD_TEXT_COMPOSER], "Caf\xc3\xa9");
	assert_string_equal(t.block[0]->text[3][CD_TEXT_MESSAGE], "msg");
	cd_text_free(&t);
	/* no text: no packs */
	memset(text, 0, sizeof(text));
	assert_int_equal(cd_text_build(text, 1, 3, buf, sizeof(buf)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_check_value),
		cmocka_unit_test(test_album),
		cmocka_unit_test(test_spanning),
		cmocka_unit_test(test_bad_crc),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_eight_blocks),
		cmocka_unit_test(test_charsets),
		cmocka_unit_test(test_genre_and_tab),
		cmocka_unit_test(test_other_types),
		cmocka_unit_test(test_build_round_trip),
	};

	return cmocka_run_group_tests_name("cdtext", tests, NULL, NULL);
}
