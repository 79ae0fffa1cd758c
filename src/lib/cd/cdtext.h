/* SPDX-License-Identifier: MIT */
/*
 * CD-TEXT: the packs READ TOC/PMA/ATIP format 5 returns from the lead-in
 * (MMC-3 annex J, MMC-5 annex J "CD-TEXT"; the Red Book's CD-TEXT
 * addendum, IEC 61866; facts as libcdio lib/driver/cdtext.c and redumper
 * cd/toc.ixx updateCDTEXT read them).  The answer is a 4-byte header (a
 * data length, two reserved bytes) and packs of 18 bytes:
 *   0      pack type, 80h..8Fh
 *   1      track number (0: the disc) of the first character in the pack;
 *          bit 7 the extension flag (such packs are skipped)
 *   2      sequence number of the pack in its block
 *   3      bit 7 DBCC (two bytes a character), bits 6-4 the block (0..7),
 *          bits 3-0 how many characters of the string came in earlier
 *          packs (15: 15 or more)
 *   4..15  12 bytes of payload
 *   16..17 CRC-16 (x^16 + x^12 + x^5 + 1, register 0, stored inverted,
 *          most significant byte first: the Q subchannel's) over 0..15
 * Text packs hold NUL-terminated strings one after the other, one a track
 * from the track byte's, a string spanning packs; a string of one TAB
 * (09h; two for DBCC) means "the same as the previous track's".  The
 * size information (8Fh, three packs, track bytes 0, 1, 2) holds the
 * block's character code, first and last track, copyright flags, packs of
 * each type, each block's last sequence number and each block's language
 * (EBU Tech 3258 codes: 09h English, 08h German, ...).  GENRE (87h) starts
 * with a 2-byte genre code; TOC (88h, 89h) is binary and only counted.
 *
 * Bounded and pure: nothing in the buffer is trusted (the header's length,
 * a track byte, a string's end), a pack whose CRC fails is dropped and
 * counted, a string whose beginning was in a dropped pack is lost, never
 * joined to another.  Text comes out as UTF-8 by the block's character
 * code; a byte that cannot be converted (MS-JIS, Korean, Chinese, ASCII's
 * upper half, controls) is written \xNN, a backslash \\, never guessed.
 * Fuzzed by tests/fuzz/fuzz_cdtext.c.
 */
#ifndef CDT_CDTEXT_H
#define CDT_CDTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CD_TEXT_PACK 18
#define CD_TEXT_HEADER 4
#define CD_TEXT_BLOCKS 8
#define CD_TEXT_TRACKS 99
/* 256 sequence numbers a block, 8 blocks: packs beyond are not read */
#define CD_TEXT_MAX_PACKS (256 * CD_TEXT_BLOCKS)

/* the block's character code (size information, byte 0) */
#define CD_TEXT_ISO8859_1 0x00
#define CD_TEXT_ASCII 0x01
#define CD_TEXT_MS_JIS 0x80
#define CD_TEXT_KOREAN 0x81
#define CD_TEXT_MANDARIN 0x82

enum cd_text_field {
	CD_TEXT_TITLE,		/* 80h */
	CD_TEXT_PERFORMER,	/* 81h */
	CD_TEXT_SONGWRITER,	/* 82h */
	CD_TEXT_COMPOSER,	/* 83h */
	CD_TEXT_ARRANGER,	/* 84h */
	CD_TEXT_MESSAGE,	/* 85h */
	CD_TEXT_DISC_ID,	/* 86h */
	CD_TEXT_GENRE,		/* 87h, the text after the genre code */
	CD_TEXT_CLOSED,		/* 8Dh, closed information */
	CD_TEXT_UPC_ISRC,	/* 8Eh, UPC/EAN of the disc, ISRC of a track */
	CD_TEXT_FIELDS
};

struct cd_text_block {
	bool size_info;		/* its three 8Fh packs were read */
	bool dbcc;		/* its packs say two bytes a character */
	uint8_t charset;	/* CD_TEXT_*; ISO 8859-1 without size info */
	uint8_t language;	/* EBU code; 0 without size info */
	uint8_t first_track, last_track, copyright;	/* size information */
	uint16_t genre;		/* 87h's genre code, 0 none */
	/* [0] the disc, [n] track n; NULL where absent: UTF-8, escaped */
	char *text[CD_TEXT_TRACKS + 1][CD_TEXT_FIELDS];
};

struct cd_text {
	unsigned int packs;		/* packs in the answer (at most MAX_PACKS) */
	unsigned int bad_crc;		/* of them dropped for their CRC */
	unsigned int toc_packs;		/* 88h, 89h: counted, not decoded */
	unsigned int skipped;		/* extension, reserved type, track > 99,
					 * a TAB with no track before it */
	struct cd_text_block *block[CD_TEXT_BLOCKS];	/* NULL: absent */
};

/*
 * The READ TOC format 5 answer of len bytes (its header included) into
 * out; 0 (out holds what could be read, maybe no block), -1 when len is
 * below the header or memory ran out (out is left empty).  Free with
 * cd_text_free.
 */
int cd_text_parse(const uint8_t *buf, size_t len, struct cd_text *out);
void cd_text_free(struct cd_text *t);

/* A block that holds any text at all. */
bool cd_text_has_text(const struct cd_text *t);

/* CRC-16 of a pack's first 16 bytes, before inversion. */
uint16_t cd_text_crc(const uint8_t *pack);

/* "TITLE", "PERFORMER", ... as CUE sheets name them; "DISC_ID" and others. */
const char *cd_text_field_name(enum cd_text_field f);
/* "English", ... for the codes seen on discs, NULL for the others */
const char *cd_text_language_name(uint8_t code);
/* "ISO-8859-1", "ASCII", "MS-JIS", "Korean", "Mandarin", NULL for others */
const char *cd_text_charset_name(uint8_t code);

/*
 * The packs of one block (block 0, ISO 8859-1, English) holding
 * text[n][f] (n 0 the disc, first..last the tracks; NULL or "" absent;
 * bytes as they are to stand on the disc), the size information last;
 * a string equal to the previous track's is written as a TAB.  Writes at
 * most cap bytes into out (no header); returns the bytes it needed
 * (a multiple of 18, 0 when there is no text), or 0 when the text would
 * take more than 253 packs.
 */
size_t cd_text_build(const char *const text[][CD_TEXT_FIELDS], unsigned int first,
		     unsigned int last, uint8_t *out, size_t cap);

#endif
