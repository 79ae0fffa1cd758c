// SPDX-License-Identifier: MIT
/*
 * CD-ROM ECC, the RS product code of ECMA-130 annex A: see cd/edc.h.
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
#include <string.h>
#include "cd/edc.h"

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

/*
 * The check computes syndromes instead of regenerating the parity: a word
 * V of the code is good iff H x V = 0 (the header comment), that is the
 * plain sum S0 and the Horner sum S1 = (..(v_0 a + v_1) a + ..) + v_{n-1}
 * of all its n elements, parity included, are both zero.  The parity is
 * the only solution of those two equations, so this says the same as
 * "the stored parity equals the computed one" (test_raw.c compares both
 * on random sectors).  All the code words of P (and all of Q) advance
 * together, one element at a time, eight bytes per 64-bit lane operation:
 *  - P: element r of column c, plane k is byte 12 + 86 r + 2 c + k, so
 *    element r of all 86 P words (43 columns x 2 planes) is one row of
 *    86 contiguous bytes;
 *  - Q: element m of diagonal d is word 43 ((m + d) mod 26) + m (annex A's
 *    (44 m + 43 d) mod 1118 written as row and column), gathered from row
 *    m + d of column m for m < 43; its two parity elements (words 1118 + d
 *    and 1144 + d) are 52 contiguous bytes each, in diagonal order.
 */
#define LANES 11	/* 88 bytes: the 86 of a P row, the 52 of a Q element */
#define P_BYTES (2 * P_COLS)
#define Q_BYTES (2 * Q_DIAGS)

struct syndromes {
	uint64_t s0[LANES], s1[LANES];
};

/* alpha x each of the eight bytes of x */
static uint64_t lanes_mul_a(uint64_t x)
{
	uint64_t high = (x >> 7) & 0x0101010101010101ull;

	return ((x & 0x7f7f7f7f7f7f7f7full) << 1) ^ (high * 0x1d);
}

/* The next element, 88 bytes at e, of all the words in sy. */
static void syndromes_add(struct syndromes *sy, const uint8_t *e)
{
	uint64_t v;
	unsigned int i;

	for (i = 0; i < LANES; i++) {
		memcpy(&v, e + 8 * i, 8);
		sy->s0[i] ^= v;
		sy->s1[i] = lanes_mul_a(sy->s1[i]) ^ v;
	}
}

/* Whether the first n bytes of both syndromes are zero. */
static bool syndromes_zero(const struct syndromes *sy, unsigned int n)
{
	uint8_t acc[8 * LANES];
	uint64_t both[LANES];
	unsigned int i;
	uint8_t any = 0;

	for (i = 0; i < LANES; i++)
		both[i] = sy->s0[i] | sy->s1[i];
	memcpy(acc, both, sizeof(acc));
	for (i = 0; i < n; i++)
		any |= acc[i];
	return !any;
}

static bool p_words_ok(const uint8_t *s)
{
	struct syndromes sy = { { 0 }, { 0 } };
	unsigned int r;

	/* 88 bytes from each row of 86: the last ends at byte 2250 */
	for (r = 0; r < P_ROWS + 2; r++)
		syndromes_add(&sy, s + CD_ECC_START + P_BYTES * r);
	return syndromes_zero(&sy, P_BYTES);
}

/* Element m < 43 of the 26 Q diagonals (both planes) into e. */
static void q_gather(const uint8_t *s, unsigned int m, uint8_t *e)
{
	unsigned int d, r = m % Q_DIAGS;

	for (d = 0; d < Q_DIAGS; d++) {
		memcpy(e + 2 * d, s + CD_ECC_START + P_BYTES * r + 2 * m, 2);
		if (++r == Q_DIAGS)
			r = 0;
	}
}

static bool q_words_ok(const uint8_t *s)
{
	struct syndromes sy = { { 0 }, { 0 } };
	uint8_t e[8 * LANES] = { 0 };
	unsigned int m;

	for (m = 0; m < Q_LEN; m++) {
		q_gather(s, m, e);
		syndromes_add(&sy, e);
	}
	for (m = 0; m < 2; m++) {
		memcpy(e, s + CD_ECC_Q + Q_BYTES * m, Q_BYTES);
		syndromes_add(&sy, e);
	}
	return syndromes_zero(&sy, Q_BYTES);
}

void cd_ecc_check(const uint8_t *s, bool *p_ok, bool *q_ok)
{
	if (p_ok)
		*p_ok = p_words_ok(s);
	if (q_ok)
		*q_ok = q_words_ok(s);
}
