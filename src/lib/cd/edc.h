/* SPDX-License-Identifier: MIT */
/*
 * The error detection and correction codes of a CD-ROM sector (ECMA-130,
 * 14.3 and 14.5 with annex A), pure functions over a 2352-byte sector.
 *
 * EDC: a 32-bit CRC with the polynomial (x^16 + x^15 + x^2 + 1)
 * (x^16 + x^2 + x + 1) = 0x8001801B, least significant bit first
 * (reflected: 0xD8018001), register 0 at the start, no final inversion,
 * stored least significant byte first (ECMA-130 14.3).  Its check value
 * (CRC of "123456789") is 0x6EC2EDC4, as CRC-32/CD-ROM-EDC is catalogued.
 *
 * ECC: the Reed-Solomon product code over GF(2^8), field polynomial
 * x^8 + x^4 + x^3 + x^2 + 1 (0x11D), primitive element alpha = 2, on the
 * 2340 bytes from byte 12 seen as 1170 16-bit words in two independent
 * byte planes (ECMA-130 annex A): P, an RS(26,24) code over 43 columns of
 * 24 words (header to the 8 zero bytes, bytes 12-2075), parity in bytes
 * 2076-2247; Q, an RS(45,43) code over 26 diagonals of 43 words (P
 * included), parity in bytes 2248-2351.
 */
#ifndef CDT_EDC_H
#define CDT_EDC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CD_ECC_START 12		/* the first byte the ECC covers */
#define CD_ECC_P 2076		/* P parity: 172 bytes */
#define CD_ECC_Q 2248		/* Q parity: 104 bytes, to the end */

/* CRC of n bytes continuing from crc (0 to start). */
uint32_t cd_edc_update(uint32_t crc, const uint8_t *p, size_t n);

static inline uint32_t cd_edc(const uint8_t *p, size_t n)
{
	return cd_edc_update(0, p, n);
}

/* The 4 bytes at p, least significant first (how the EDC is stored). */
static inline uint32_t cd_get_le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline void cd_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/*
 * P and Q parity of s (2352 bytes) from its bytes 12-2075, written into
 * 2076-2351.  The caller zeroes the header first for Mode 2 Form 1
 * (ECMA-130 / the Yellow Book's XA extension: the address is not covered).
 */
void cd_ecc_compute(uint8_t *s);
/* Whether the stored P and Q parity of s match its bytes; either may be NULL. */
void cd_ecc_check(const uint8_t *s, bool *p_ok, bool *q_ok);

/* Product in GF(2^8) mod 0x11D (exported for the tests). */
uint8_t cd_gf_mul(uint8_t a, uint8_t b);

#endif
