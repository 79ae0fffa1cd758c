// SPDX-License-Identifier: MIT
/*
 * Q subchannel: see cd/subq.h.  The CRC is computed bit at a time (12
 * bytes a sector need no table); tests/raw/model.py computes it apart.
 */
#include <string.h>
#include "mmc/mmc.h"
#include "cd/subq.h"

#define Q_CRC_POLY 0x1021	/* x^16 + x^12 + x^5 + 1 */

uint16_t cd_q_crc(const uint8_t *q)
{
	uint16_t crc = 0;
	unsigned int i, b;

	for (i = 0; i < 10; i++) {
		crc ^= (uint16_t)(q[i] << 8);
		for (b = 0; b < 8; b++)
			crc = crc & 0x8000 ? (uint16_t)(crc << 1) ^ Q_CRC_POLY :
			      (uint16_t)(crc << 1);
	}
	return crc;
}

static bool bcd(uint8_t b, unsigned int below)
{
	return (b >> 4) < 10 && (b & 0x0f) < 10 &&
	       (unsigned int)((b >> 4) * 10 + (b & 0x0f)) < below;
}

static uint8_t from_bcd(uint8_t b)
{
	return (b >> 4) * 10 + (b & 0x0f);
}

static uint8_t to_bcd(unsigned int v)
{
	return (uint8_t)((v / 10 % 10) << 4 | (v % 10));
}

static bool msf_ok(const uint8_t *p)
{
	return bcd(p[0], 100) && bcd(p[1], 60) && bcd(p[2], 75);
}

static int64_t msf_frames(const uint8_t *p)
{
	return ((int64_t)from_bcd(p[0]) * 60 + from_bcd(p[1])) * 75 + from_bcd(p[2]);
}

static void position(const uint8_t *q, struct cd_subq *out)
{
	out->bcd_ok = (q[1] == CD_TRACK_LEADOUT || bcd(q[1], 100)) &&
		      bcd(q[2], 100) && msf_ok(q + 3) && msf_ok(q + 7);
	if (!out->bcd_ok)
		return;
	out->track = q[1] == CD_TRACK_LEADOUT ? CD_TRACK_LEADOUT : from_bcd(q[1]);
	out->index = from_bcd(q[2]);
	out->relative = msf_frames(q + 3);
	out->lba = msf_frames(q + 7) - 150;
}

int cd_subq_parse(const uint8_t *q, size_t len, struct cd_subq *out)
{
	uint16_t stored, want;

	memset(out, 0, sizeof(*out));
	if (len < CD_Q_LEN)
		return -1;
	out->control = q[0] >> 4;
	out->adr = q[0] & 0x0f;
	stored = (uint16_t)(q[10] << 8 | q[11]);
	want = cd_q_crc(q) ^ 0xffff;
	if (!stored)
		out->crc = CD_Q_CRC_ABSENT;
	else
		out->crc = want == stored ? CD_Q_CRC_OK : CD_Q_CRC_BAD;
	if (out->adr == 1)
		position(q, out);
	return 0;
}

static void put_crc(uint8_t *q)
{
	uint16_t crc = cd_q_crc(q) ^ 0xffff;

	q[10] = crc >> 8;
	q[11] = crc & 0xff;
}

static void put_msf(uint8_t *p, int64_t frames)
{
	if (frames < 0)
		frames = 0;
	p[0] = to_bcd((unsigned int)(frames / (60 * 75)));
	p[1] = to_bcd((unsigned int)(frames / 75 % 60));
	p[2] = to_bcd((unsigned int)(frames % 75));
}

void cd_subq_build(uint8_t *q, uint8_t control, uint8_t track, uint8_t index,
		   int64_t relative, int64_t lba)
{
	q[0] = (uint8_t)(control << 4 | 1);
	q[1] = track == CD_TRACK_LEADOUT ? CD_TRACK_LEADOUT : to_bcd(track);
	q[2] = to_bcd(index);
	put_msf(q + 3, relative);
	q[6] = 0;
	put_msf(q + 7, lba + 150);
	put_crc(q);
}

/* the frame of the absolute time (lba + 150), as mode 1's AFRAME */
static uint8_t aframe(int64_t lba)
{
	return to_bcd((unsigned int)((lba + 150 < 0 ? 0 : lba + 150) % 75));
}

/* a 4-bit value at bit (0: q[0]'s most significant) */
static void put_nibble(uint8_t *q, unsigned int bit, uint8_t v)
{
	q[bit / 8] |= (uint8_t)((v & 0x0f) << (4 - bit % 8));
}

void cd_subq_build_mcn(uint8_t *q, uint8_t control, const char *mcn, int64_t lba)
{
	unsigned int i;

	memset(q, 0, CD_Q_LEN);
	q[0] = (uint8_t)(control << 4 | 2);
	for (i = 0; i < 13; i++)
		put_nibble(q, 8 + 4 * i, (uint8_t)(mcn[i] - '0'));
	q[9] = aframe(lba);
	put_crc(q);
}

/* ECMA-130's 6-bit character code of the ISRC's letters and digits */
static uint8_t six_bit(char c)
{
	if (c >= '0' && c <= '9')
		return (uint8_t)(c - '0');
	if (c >= 'A' && c <= 'Z')
		return (uint8_t)(c - 'A' + 0x11);
	return 0;
}

void cd_subq_build_isrc(uint8_t *q, uint8_t control, const char *isrc, int64_t lba)
{
	uint32_t chars = 0;
	unsigned int i;

	memset(q, 0, CD_Q_LEN);
	q[0] = (uint8_t)(control << 4 | 3);
	/* I1..I5, 30 bits, then 2 zero bits: bytes 1-4 */
	for (i = 0; i < 5; i++)
		chars = chars << 6 | six_bit(isrc[i]);
	chars <<= 2;
	for (i = 0; i < 4; i++)
		q[1 + i] = (uint8_t)(chars >> (24 - 8 * i));
	/* I6..I12 from bit 40, then 4 zero bits */
	for (i = 0; i < 7; i++)
		put_nibble(q, 40 + 4 * i, (uint8_t)(isrc[5 + i] - '0'));
	q[9] = aframe(lba);
	put_crc(q);
}

int cd_pw_to_q(const uint8_t *pw, size_t len, uint8_t *q)
{
	unsigned int i;

	if (len < CD_PW_LEN)
		return -1;
	memset(q, 0, CD_Q_LEN);
	for (i = 0; i < CD_PW_LEN; i++)
		if (pw[i] & 0x40)
			q[i / 8] |= 0x80 >> (i % 8);
	return 0;
}

void cd_q_to_pw(const uint8_t *q, bool p, uint8_t *pw)
{
	unsigned int i;

	for (i = 0; i < CD_PW_LEN; i++)
		pw[i] = (p ? 0x80 : 0) | (q[i / 8] & (0x80 >> (i % 8)) ? 0x40 : 0);
}
