/* SPDX-License-Identifier: MIT */
/*
 * A raw CD sector (2352 bytes, as READ CD returns it with sync, headers,
 * user data and EDC/ECC: byte 9 = 0xF8): its parser, its checks and a
 * builder.  Layouts, byte offsets (ECMA-130 14, the Yellow Book's XA
 * extension for Mode 2 forms):
 *   sync 0-11 (00, ten FF, 00); header 12-15: minute, second, frame in
 *   BCD (the address + 150 frames), mode.
 *   Mode 1: user data 16-2063, EDC 2064-2067 over 0-2063, zero 2068-2075,
 *     ECC P 2076-2247, Q 2248-2351.
 *   Mode 2 Form 1: subheader 16-23 (file, channel, submode, coding, twice),
 *     user data 24-2071, EDC 2072-2075 over 16-2071, ECC as Mode 1
 *     computed with the header taken as zero.
 *   Mode 2 Form 2 (submode bit 5): user data 24-2347, EDC 2348-2351 over
 *     16-2347, 0 when not computed.
 *   Mode 2 formless: 16-2351 user data; Mode 0: zeros.
 */
#ifndef CDT_SECTOR_H
#define CDT_SECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CD_RAW 2352
#define CD_DATA 2048
#define CD_FORM2_DATA 2324
#define CD_SUBMODE_FORM2 0x20

enum cd_sector_kind {
	CD_SECTOR_NONE,		/* no sync: audio, or not a data sector */
	CD_SECTOR_MODE0,
	CD_SECTOR_MODE1,
	CD_SECTOR_MODE2,	/* formless: the subheader copies differ */
	CD_SECTOR_FORM1,
	CD_SECTOR_FORM2,
	CD_SECTOR_BADMODE,	/* sync, but a mode byte of 3 or more */
};

struct cd_sector_info {
	enum cd_sector_kind kind;
	bool bcd_ok;		/* the header's M:S:F are BCD digits, S < 60, F < 75 */
	int64_t lba;		/* from the header (M:S:F - 150); valid if bcd_ok */
	uint8_t mode;		/* header byte 15 */
	uint8_t subheader[4];	/* Mode 2: the first copy */
};

/* The sector at buf (len bytes received); -1 when len < 2352. */
int cd_sector_parse(const uint8_t *buf, size_t len, struct cd_sector_info *out);
const char *cd_sector_kind_name(enum cd_sector_kind k);

enum cd_check {
	CD_CHECK_OK,
	CD_CHECK_BAD,
	CD_CHECK_NONE,		/* the kind has no such field, or Form 2's EDC is 0 */
};

struct cd_sector_check {
	enum cd_check edc, ecc_p, ecc_q;
};

/*
 * The EDC and ECC of a sector of kind k (from cd_sector_parse).  Returns
 * true when nothing is CD_CHECK_BAD: the sector is what was written.
 */
bool cd_sector_check(const uint8_t *s, enum cd_sector_kind k,
		     struct cd_sector_check *out);

/* Sync, header (address lba, mode) into s[0..15]. */
void cd_sector_put_header(uint8_t *s, int64_t lba, uint8_t mode);
/* A valid raw Mode 1 sector of 2048 bytes of data at address lba. */
void cd_sector_build_mode1(uint8_t *s, const uint8_t *data, int64_t lba);
/*
 * A valid Mode 2 sector at lba with subheader sub (4 bytes, stored twice);
 * its form by submode bit 5; data is 2048 (Form 1) or 2324 (Form 2) bytes.
 * form2_edc: compute Form 2's EDC (false: leave it 0, as it may be).
 */
void cd_sector_build_mode2(uint8_t *s, const uint8_t *sub, const uint8_t *data,
			   int64_t lba, bool form2_edc);

/* The bytes of user data of kind k and where they start in the sector. */
unsigned int cd_sector_user_size(enum cd_sector_kind k);
unsigned int cd_sector_user_offset(enum cd_sector_kind k);

#endif
