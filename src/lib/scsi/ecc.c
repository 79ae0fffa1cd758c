// SPDX-License-Identifier: MIT
/*
 * CD-ROM ECC, the RS product code of ECMA-130 annex A: see scsi/edc.h.
 *
 * Each code word V = (v_0 .. v_{n-1}) satisfies H x V = 0 with
 * H = [ 1 1 ... 1 ; a^(n-1) ... a^1 a^0 ]: the plain sum of the word and
 * its sum weighted by powers of alpha are both zero.  The last two
 * elements are the parity (weights a^1 and a^0).  With A the plain sum of
 * the data and B their weighted sum, parity p0 (a^1) and p1 (a^0) solve
 *   p0 + p1 = A,  a*p0 + p1 = B   =>   p0 = (A + B) / (a + 1),  p1 = A + p0
 * B is accumulated by Horner's rule (B = B*a + v), so only a multiply by
 * alpha is needed per byte.  Word addresses, from annex A: P column c
 * (0..42), row r (0..25) is word 43r + c; Q diagonal d (0..25), element
 * m (0..42) is word (44m + 43d) mod 1118, its parity words 1118 + d and
 * 1144 + d.  Word w is bytes 12 + 2w (one plane) and 12 + 2w + 1 (the
 * other); the planes are coded alike and apart.
 */
#include "scsi/edc.h"

#define P_COLS 43
#define P_ROWS 24	/* data rows; rows 24 and 25 hold the parity */
#define Q_DIAGS 26
#define Q_LEN 43	/* data elements; then the two parity words */
#define Q_WORDS 1118	/* words the Q diagonals run over (P included) */
#define INV_A_PLUS_1 0xf4	/* 1 / (alpha + 1) = 1/3 in GF(2^8) mod 0x11D */

static uint8_t gf_mul_a(uint8_t x)
{
	return (uint8_t)(x << 1) ^ (x & 0x80 ? 0x1d : 0);
}

uint8_t cd_gf_mul(uint8_t a, uint8_t b)
{
	uint8_t r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a = gf_mul_a(a);
		b >>= 1;
	}
	return r;
}

/* Parity (p0, p1) of the data sums A and B (B not yet times a^2). */
static void parity(uint8_t a, uint8_t b, uint8_t *p0, uint8_t *p1)
{
	b = gf_mul_a(gf_mul_a(b));
	*p0 = cd_gf_mul(a ^ b, INV_A_PLUS_1);
	*p1 = a ^ *p0;
}

static const uint8_t *word(const uint8_t *s, unsigned int w, unsigned int plane)
{
	return s + CD_ECC_START + 2 * w + plane;
}

/* P parity of column c in one plane. */
static void p_parity(const uint8_t *s, unsigned int c, unsigned int plane,
		     uint8_t *p0, uint8_t *p1)
{
	uint8_t a = 0, b = 0, v;
	unsigned int r;

	for (r = 0; r < P_ROWS; r++) {
		v = *word(s, P_COLS * r + c, plane);
		a ^= v;
		b = gf_mul_a(b) ^ v;
	}
	parity(a, b, p0, p1);
}

/* Q parity of diagonal d in one plane. */
static void q_parity(const uint8_t *s, unsigned int d, unsigned int plane,
		     uint8_t *p0, uint8_t *p1)
{
	uint8_t a = 0, b = 0, v;
	unsigned int m;

	for (m = 0; m < Q_LEN; m++) {
		v = *word(s, (44 * m + 43 * d) % Q_WORDS, plane);
		a ^= v;
		b = gf_mul_a(b) ^ v;
	}
	parity(a, b, p0, p1);
}

/* Byte offsets of the two parity bytes of P column c / Q diagonal d. */
static unsigned int p_at(unsigned int c, unsigned int row, unsigned int plane)
{
	return CD_ECC_START + 2 * (P_COLS * row + c) + plane;
}

static unsigned int q_at(unsigned int d, unsigned int k, unsigned int plane)
{
	return CD_ECC_START + 2 * (Q_WORDS + Q_DIAGS * k + d) + plane;
}

void cd_ecc_compute(uint8_t *s)
{
	unsigned int i, plane;
	uint8_t p0, p1;

	/* P first: Q covers the P parity */
	for (plane = 0; plane < 2; plane++)
		for (i = 0; i < P_COLS; i++) {
			p_parity(s, i, plane, &p0, &p1);
			s[p_at(i, P_ROWS, plane)] = p0;
			s[p_at(i, P_ROWS + 1, plane)] = p1;
		}
	for (plane = 0; plane < 2; plane++)
		for (i = 0; i < Q_DIAGS; i++) {
			q_parity(s, i, plane, &p0, &p1);
			s[q_at(i, 0, plane)] = p0;
			s[q_at(i, 1, plane)] = p1;
		}
}

void cd_ecc_check(const uint8_t *s, bool *p_ok, bool *q_ok)
{
	unsigned int i, plane;
	bool p = true, q = true;
	uint8_t p0, p1;

	for (plane = 0; plane < 2; plane++) {
		for (i = 0; i < P_COLS; i++) {
			p_parity(s, i, plane, &p0, &p1);
			p &= s[p_at(i, P_ROWS, plane)] == p0 &&
			     s[p_at(i, P_ROWS + 1, plane)] == p1;
		}
		for (i = 0; i < Q_DIAGS; i++) {
			q_parity(s, i, plane, &p0, &p1);
			q &= s[q_at(i, 0, plane)] == p0 &&
			     s[q_at(i, 1, plane)] == p1;
		}
	}
	if (p_ok)
		*p_ok = p;
	if (q_ok)
		*q_ok = q;
}
