/* SPDX-License-Identifier: MIT */
/*
 * The Q subchannel (ECMA-130 22.3; IEC 60908): 96 bits a sector, 12 bytes:
 * control (4 bits) and ADR (4 bits), 9 bytes of data, a CRC-16 (x^16 +
 * x^12 + x^5 + 1, register 0, stored inverted, most significant byte
 * first) over the first 10.  ADR 1 (mode 1 Q, the position): TNO, INDEX,
 * relative M:S:F (counting down to index 01 in a pregap), a zero byte,
 * absolute M:S:F (the address + 150), all BCD; TNO AA in the lead-out.
 *
 * READ CD returns Q two ways (MMC, READ CD sub-channel selection):
 * formatted (010b): 16 bytes, the 10 Q bytes, the CRC (zeros when the
 * drive leaves it out) and 4 reserved bytes; raw P-W (001b): 96 bytes,
 * one per subchannel symbol, P in bit 7, Q in bit 6, ... W in bit 0.
 */
#ifndef CDT_SUBQ_H
#define CDT_SUBQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CD_Q_LEN 12
#define CD_Q_FORMATTED 16
#define CD_PW_LEN 96
#define CD_TRACK_LEADOUT 0xAA

enum cd_q_crc {
	CD_Q_CRC_OK,
	CD_Q_CRC_BAD,
	CD_Q_CRC_ABSENT,	/* both CRC bytes zero: not sent by the drive */
};

struct cd_subq {
	uint8_t control, adr;
	enum cd_q_crc crc;
	/* ADR 1 only (else 0); bcd_ok: every field is BCD within range */
	bool bcd_ok;
	uint8_t track;		/* 1..99, or CD_TRACK_LEADOUT */
	uint8_t index;
	int64_t relative;	/* frames from the track's index 01 (>= 0) */
	int64_t lba;		/* absolute M:S:F - 150 */
};

/* CRC-16 of the 10 Q bytes, before inversion. */
uint16_t cd_q_crc(const uint8_t *q);

/* Q from 12 or more bytes (a formatted Q or the result of cd_pw_to_q). */
int cd_subq_parse(const uint8_t *q, size_t len, struct cd_subq *out);

/* Mode 1 Q with its CRC into q[12]: the position of lba in the track. */
void cd_subq_build(uint8_t *q, uint8_t control, uint8_t track, uint8_t index,
		   int64_t relative, int64_t lba);

/*
 * Mode 2 Q (ADR 2, ECMA-130 22.3's q-Mode 2) with its CRC into q[12]:
 * the Media Catalog Number mcn (13 digits, BCD, 4 bits each), 12 zero
 * bits, AFRAME (the frame of lba's absolute time, BCD).  mcn: 13
 * characters '0'..'9'.
 */
void cd_subq_build_mcn(uint8_t *q, uint8_t control, const char *mcn, int64_t lba);

/*
 * Mode 3 Q (ADR 3; ECMA-130 leaves its layout to IEC 60908) with its CRC
 * into q[12]: the ISRC's first 5 characters (country, owner) in the 6-bit
 * code ('0'..'9' 00h-09h, 'A'..'Z' 11h-2Ah: the table of Aaru's
 * Aaru.Decoders/CD/Subchannel.cs, _isrcTable), 2 zero bits, its last 7
 * (year, serial) BCD, 4 zero bits, AFRAME.  isrc: 12 characters, 5 of
 * [0-9A-Z] then 7 digits.
 */
void cd_subq_build_isrc(uint8_t *q, uint8_t control, const char *isrc, int64_t lba);

/* Q from 96 raw P-W bytes (bit 6 of each, most significant bit first). */
int cd_pw_to_q(const uint8_t *pw, size_t len, uint8_t *q);
/* 96 raw P-W bytes holding q[12] in Q and p (0 or 1) in every P bit. */
void cd_q_to_pw(const uint8_t *q, bool p, uint8_t *pw);

#endif
