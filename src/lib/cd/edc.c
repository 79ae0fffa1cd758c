// SPDX-License-Identifier: MIT
/*
 * CD-ROM EDC (ECMA-130 14.3): see cd/edc.h.  Eight bytes at a time
 * (cd/crc.c; the unit tests compare it with the bit-at-a-time
 * definition and with tests/raw/model.py).
 */
#include "cd/crc.h"
#include "cd/edc.h"

uint32_t cd_edc_update(uint32_t crc, const uint8_t *p, size_t n)
{
	return crc_update(CRC_EDC, crc, p, n);
}
