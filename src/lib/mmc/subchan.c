// SPDX-License-Identifier: MIT
/* READ SUB-CHANNEL's MCN and ISRC: see subchan.h for the layout and its sources. */
#include <string.h>
#include "mmc/bytes.h"
#include "mmc/subchan.h"

/* answer bytes: the format echoed, the valid bit's byte, the text */
#define SUBCH_FORMAT_AT 4
#define SUBCH_VALID_AT 8
#define SUBCH_TEXT_AT 9

unsigned int mmc_cdb_read_subchannel(uint8_t *cdb, uint8_t format,
				     uint8_t track, uint16_t alloc)
{
	memset(cdb, 0, 10);
	cdb[0] = MMC_READ_SUBCHANNEL;
	cdb[2] = 0x40;		/* SubQ: return the sub-channel data */
	cdb[3] = format;
	cdb[6] = format == MMC_SUBCH_ISRC ? track : 0;
	sg_put_unaligned_be16(alloc, cdb + 7);
	return 10;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool mmc_mcn_valid(const char *s, size_t n)
{
	size_t i;

	if (n != MMC_MCN_LEN)
		return false;
	for (i = 0; i < n; i++)
		if (!is_digit(s[i]))
			return false;
	return true;
}

bool mmc_isrc_valid(const char *s, size_t n)
{
	size_t i;

	if (n != MMC_ISRC_LEN)
		return false;
	for (i = 0; i < 5; i++)
		if (!is_digit(s[i]) && !(s[i] >= 'A' && s[i] <= 'Z'))
			return false;
	for (; i < n; i++)
		if (!is_digit(s[i]))
			return false;
	return true;
}

/*
 * The text of n bytes after the valid bit: 0 (out set), 1 (valid bit
 * clear) or -1.  Only the bytes received count: the header's length is
 * not trusted.
 */
static int subch_text(const uint8_t *buf, size_t len, uint8_t format, size_t n,
		      bool (*valid)(const char *, size_t), char *out)
{
	out[0] = '\0';
	if (len < SUBCH_TEXT_AT + n || buf[SUBCH_FORMAT_AT] != format)
		return -1;
	if (!(buf[SUBCH_VALID_AT] & 0x80))
		return 1;
	if (!valid((const char *)buf + SUBCH_TEXT_AT, n))
		return -1;
	memcpy(out, buf + SUBCH_TEXT_AT, n);
	out[n] = '\0';
	return 0;
}

int mmc_parse_mcn(const uint8_t *buf, size_t len, char out[MMC_MCN_LEN + 1])
{
	return subch_text(buf, len, MMC_SUBCH_MCN, MMC_MCN_LEN, mmc_mcn_valid, out);
}

int mmc_parse_isrc(const uint8_t *buf, size_t len, char out[MMC_ISRC_LEN + 1])
{
	return subch_text(buf, len, MMC_SUBCH_ISRC, MMC_ISRC_LEN, mmc_isrc_valid, out);
}
