// SPDX-License-Identifier: MIT
/*
 * READ SUB-CHANNEL's answers (mmc/subchan.c): the input as an MCN
 * answer and as an ISRC answer of every length up to its own.  What a
 * parser gives must be what the answer holds: 0 only with the valid bit
 * and 13 digits (12 ISRC characters) at byte 9, inside the bytes given;
 * otherwise an empty text.  The CDB builder is checked on the first bytes.
 */
#include <string.h>
#include "fuzz.h"
#include "mmc/subchan.h"

static void check_text(const uint8_t *data, size_t len, uint8_t format, size_t n,
		       int rc, const char *out)
{
	if (rc == 0) {
		if (len < 9 + n || data[4] != format || !(data[8] & 0x80) ||
		    strlen(out) != n || memcmp(out, data + 9, n))
			__builtin_trap();
		return;
	}
	if (out[0] || (rc != 1 && rc != -1))
		__builtin_trap();
	if (rc == 1 && (len < 9 + n || data[8] & 0x80))
		__builtin_trap();
}

static void check_cdb(const uint8_t *data, size_t size)
{
	uint8_t cdb[16];
	uint8_t format = size > 0 ? data[0] : 0, track = size > 1 ? data[1] : 0;
	uint16_t alloc = size > 3 ? (uint16_t)(data[2] << 8 | data[3]) : 0;

	if (mmc_cdb_read_subchannel(cdb, format, track, alloc) != 10 ||
	    cdb[0] != MMC_READ_SUBCHANNEL || cdb[3] != format || cdb[9] ||
	    (cdb[7] << 8 | cdb[8]) != alloc ||
	    cdb[6] != (format == MMC_SUBCH_ISRC ? track : 0))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char mcn[MMC_MCN_LEN + 1], isrc[MMC_ISRC_LEN + 1];
	size_t len, top = size < 40 ? size : 40;

	check_cdb(data, size);
	for (len = 0; len <= top; len++) {
		check_text(data, len, MMC_SUBCH_MCN, MMC_MCN_LEN,
			   mmc_parse_mcn(data, len, mcn), mcn);
		check_text(data, len, MMC_SUBCH_ISRC, MMC_ISRC_LEN,
			   mmc_parse_isrc(data, len, isrc), isrc);
	}
	return 0;
}
