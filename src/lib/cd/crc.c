// SPDX-License-Identifier: MIT
/*
 * Slice-by-8 reflected CRCs: see cd/crc.h.  A byte-at-a-time CRC waits
 * for each table look-up before the next; here the register XOR the next
 * eight bytes is split into its eight bytes, and byte j's contribution
 * after the remaining 7 - j bytes of the step is one look-up in table
 * 7 - j (the CRC of that byte followed by 7 - j zero bytes), so the eight
 * look-ups are independent (the tables: scripts/crc-tables.py; the unit
 * tests compare both CRCs with their bit-at-a-time definitions).
 */
#include "cd/crc.h"
#include "cd/crc_tables.h"

static uint32_t le32_at(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint32_t slice8(const uint32_t (*t)[256], uint32_t reg, const uint8_t *p)
{
	uint32_t lo = reg ^ le32_at(p), hi = le32_at(p + 4);

	return t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^
	       t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
	       t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^
	       t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
}

uint32_t crc_update(enum crc_kind kind, uint32_t reg, const uint8_t *p, size_t n)
{
	const uint32_t (*t)[256] = crc_tables[kind];

	for (; n >= 8; n -= 8, p += 8)
		reg = slice8(t, reg, p);
	while (n--)
		reg = (reg >> 8) ^ t[0][(reg ^ *p++) & 0xff];
	return reg;
}
