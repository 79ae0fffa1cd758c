// SPDX-License-Identifier: MIT
/*
 * CD-ROM EDC (ECMA-130 14.3): see scsi/edc.h.  Four bits at a time from a
 * 16-entry table: the remainder of each nibble value shifted through the
 * reflected polynomial 0xD8018001 four times (the unit tests compare it
 * with the bit-at-a-time definition and with tests/raw/model.py).
 */
#include "scsi/edc.h"

static const uint32_t edc_nibble[16] = {
	0x00000000, 0x99011001, 0x82012001, 0x1b003000,
	0xb4014001, 0x2d005000, 0x36006000, 0xaf017001,
	0xd8018001, 0x41009000, 0x5a00a000, 0xc301b001,
	0x6c00c000, 0xf501d001, 0xee01e001, 0x7700f000,
};

uint32_t cd_edc_update(uint32_t crc, const uint8_t *p, size_t n)
{
	while (n--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ edc_nibble[crc & 0x0f];
		crc = (crc >> 4) ^ edc_nibble[crc & 0x0f];
	}
	return crc;
}
