/* SPDX-License-Identifier: MIT */
/*
 * The reflected CRCs of raw imaging, eight bytes a step (slice-by-8):
 * the CD-ROM EDC (cd/edc.h) and CRC-32 (cd/trackhash.h).  A pure
 * function over a byte buffer; the register goes in and out as is (no
 * inversion: CRC-32's callers invert).
 */
#ifndef CDT_CRC_H
#define CDT_CRC_H

#include <stddef.h>
#include <stdint.h>

enum crc_kind {
	CRC_EDC,	/* ECMA-130 14.3, 0xD8018001 reflected */
	CRC_32,		/* ISO-HDLC / zlib, 0xEDB88320 reflected */
};

uint32_t crc_update(enum crc_kind kind, uint32_t reg, const uint8_t *p, size_t n);

#endif
