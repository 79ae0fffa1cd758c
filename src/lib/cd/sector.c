// SPDX-License-Identifier: MIT
/*
 * Raw CD sectors: see cd/sector.h.  Offsets and field extents from
 * ECMA-130 clause 14 and the CD-ROM XA extension (Mode 2 forms).
 */
#include <string.h>
#include "cd/edc.h"
#include "mmc/mmc.h"
#include "cd/sector.h"

#define HDR 12
#define M1_EDC 2064
#define M1_ZERO 2068
#define SUBHDR 16
#define F1_EDC 2072
#define F2_EDC 2348

static const uint8_t sync_pattern[12] = {
	0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00
};

static bool bcd_digit_pair(uint8_t b)
{
	return (b >> 4) < 10 && (b & 0x0f) < 10;
}

static uint8_t from_bcd(uint8_t b)
{
	return (b >> 4) * 10 + (b & 0x0f);
}

static uint8_t to_bcd(uint8_t v)
{
	return (uint8_t)((v / 10) << 4 | (v % 10));
}

static enum cd_sector_kind mode2_kind(const uint8_t *s)
{
	/* an XA sector carries its subheader twice (XA: 8 bytes) */
	if (memcmp(s + SUBHDR, s + SUBHDR + 4, 4))
		return CD_SECTOR_MODE2;
	return s[SUBHDR + 2] & CD_SUBMODE_FORM2 ? CD_SECTOR_FORM2 : CD_SECTOR_FORM1;
}

int cd_sector_parse(const uint8_t *buf, size_t len, struct cd_sector_info *out)
{
	uint8_t m, s, f;

	memset(out, 0, sizeof(*out));
	if (len < CD_RAW)
		return -1;
	if (memcmp(buf, sync_pattern, sizeof(sync_pattern))) {
		out->kind = CD_SECTOR_NONE;
		return 0;
	}
	m = buf[HDR];
	s = buf[HDR + 1];
	f = buf[HDR + 2];
	out->mode = buf[HDR + 3];
	out->bcd_ok = bcd_digit_pair(m) && bcd_digit_pair(s) && bcd_digit_pair(f) &&
		      from_bcd(s) < 60 && from_bcd(f) < 75;
	if (out->bcd_ok)
		out->lba = mmc_msf_to_lba(from_bcd(m), from_bcd(s), from_bcd(f));
	/* the mode byte's top 3 bits are block indicators (ECMA-130 14.3) */
	switch (out->mode & 0x1f) {
	case 0:
		out->kind = CD_SECTOR_MODE0;
		break;
	case 1:
		out->kind = CD_SECTOR_MODE1;
		break;
	case 2:
		out->kind = mode2_kind(buf);
		memcpy(out->subheader, buf + SUBHDR, 4);
		break;
	default:
		out->kind = CD_SECTOR_BADMODE;
	}
	return 0;
}

const char *cd_sector_kind_name(enum cd_sector_kind k)
{
	static const char *const names[] = {
		[CD_SECTOR_NONE] = "none", [CD_SECTOR_MODE0] = "mode0",
		[CD_SECTOR_MODE1] = "mode1", [CD_SECTOR_MODE2] = "mode2",
		[CD_SECTOR_FORM1] = "mode2-form1", [CD_SECTOR_FORM2] = "mode2-form2",
		[CD_SECTOR_BADMODE] = "bad-mode",
	};

	return (unsigned int)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

static enum cd_check edc_at(const uint8_t *s, unsigned int from, unsigned int at)
{
	return cd_edc(s + from, at - from) == cd_get_le32(s + at) ?
	       CD_CHECK_OK : CD_CHECK_BAD;
}

static void ecc_of(const uint8_t *s, bool zero_header, struct cd_sector_check *out)
{
	uint8_t copy[CD_RAW];
	bool p, q;

	if (zero_header) {
		memcpy(copy, s, CD_RAW);
		memset(copy + HDR, 0, 4);
		s = copy;
	}
	cd_ecc_check(s, &p, &q);
	out->ecc_p = p ? CD_CHECK_OK : CD_CHECK_BAD;
	out->ecc_q = q ? CD_CHECK_OK : CD_CHECK_BAD;
}

static bool zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

bool cd_sector_check(const uint8_t *s, enum cd_sector_kind k,
		     struct cd_sector_check *out)
{
	out->edc = out->ecc_p = out->ecc_q = CD_CHECK_NONE;
	switch (k) {
	case CD_SECTOR_MODE1:
		out->edc = edc_at(s, 0, M1_EDC);
		/* the 8 intermediate bytes are zero by definition (ECMA-130 14.4) */
		if (!zero(s + M1_ZERO, 8))
			out->edc = CD_CHECK_BAD;
		ecc_of(s, false, out);
		break;
	case CD_SECTOR_FORM1:
		out->edc = edc_at(s, SUBHDR, F1_EDC);
		ecc_of(s, true, out);
		break;
	case CD_SECTOR_FORM2:
		if (cd_get_le32(s + F2_EDC))
			out->edc = edc_at(s, SUBHDR, F2_EDC);
		break;
	default:
		break;
	}
	return out->edc != CD_CHECK_BAD && out->ecc_p != CD_CHECK_BAD &&
	       out->ecc_q != CD_CHECK_BAD;
}

void cd_sector_put_header(uint8_t *s, int64_t lba, uint8_t mode)
{
	uint8_t m, sec, f;

	memcpy(s, sync_pattern, sizeof(sync_pattern));
	mmc_lba_to_msf(lba, &m, &sec, &f);
	s[HDR] = to_bcd(m % 100);
	s[HDR + 1] = to_bcd(sec);
	s[HDR + 2] = to_bcd(f);
	s[HDR + 3] = mode;
}

void cd_sector_build_mode1(uint8_t *s, const uint8_t *data, int64_t lba)
{
	cd_sector_put_header(s, lba, 1);
	memcpy(s + SUBHDR, data, CD_DATA);
	cd_put_le32(s + M1_EDC, cd_edc(s, M1_EDC));
	memset(s + M1_ZERO, 0, 8);
	cd_ecc_compute(s);
}

void cd_sector_build_mode2(uint8_t *s, const uint8_t *sub, const uint8_t *data,
			   int64_t lba, bool form2_edc)
{
	uint8_t header[4];

	cd_sector_put_header(s, lba, 2);
	memcpy(s + SUBHDR, sub, 4);
	memcpy(s + SUBHDR + 4, sub, 4);
	if (sub[2] & CD_SUBMODE_FORM2) {
		memcpy(s + 24, data, CD_FORM2_DATA);
		cd_put_le32(s + F2_EDC, form2_edc ? cd_edc(s + SUBHDR, F2_EDC - SUBHDR) : 0);
		return;
	}
	memcpy(s + 24, data, CD_DATA);
	cd_put_le32(s + F1_EDC, cd_edc(s + SUBHDR, F1_EDC - SUBHDR));
	/* Form 1's ECC does not cover the address: computed with it zeroed */
	memcpy(header, s + HDR, 4);
	memset(s + HDR, 0, 4);
	cd_ecc_compute(s);
	memcpy(s + HDR, header, 4);
}

unsigned int cd_sector_user_size(enum cd_sector_kind k)
{
	switch (k) {
	case CD_SECTOR_MODE1:
	case CD_SECTOR_FORM1:
		return CD_DATA;
	case CD_SECTOR_FORM2:
		return CD_FORM2_DATA;
	case CD_SECTOR_MODE2:
		return CD_RAW - SUBHDR;
	case CD_SECTOR_NONE:
		return CD_RAW;
	default:
		return 0;
	}
}

unsigned int cd_sector_user_offset(enum cd_sector_kind k)
{
	switch (k) {
	case CD_SECTOR_FORM1:
	case CD_SECTOR_FORM2:
		return 24;
	case CD_SECTOR_NONE:
		return 0;
	default:
		return SUBHDR;
	}
}
