// SPDX-License-Identifier: MIT
/*
 * P-W between a drive's raw symbols and CloneCD's channel-by-channel
 * record: see cd/subpw.h.  tests/raw/submodel.py does the same apart.
 */
#include <string.h>
#include "cd/subq.h"
#include "cd/subpw.h"

/* channel c (0 = P .. 7 = W) is bit 7 - c of each symbol */
void cd_pw_deinterleave(const uint8_t *raw, uint8_t *out)
{
	unsigned int i, c;

	memset(out, 0, CD_PW_LEN);
	for (i = 0; i < CD_PW_LEN; i++)
		for (c = 0; c < 8; c++)
			if (raw[i] & (0x80 >> c))
				out[c * CD_SUB_CHANNEL_LEN + i / 8] |= (uint8_t)(0x80 >> (i % 8));
}

void cd_pw_interleave(const uint8_t *chan, uint8_t *raw)
{
	unsigned int i, c;

	memset(raw, 0, CD_PW_LEN);
	for (i = 0; i < CD_PW_LEN; i++)
		for (c = 0; c < 8; c++)
			if (chan[c * CD_SUB_CHANNEL_LEN + i / 8] & (0x80 >> (i % 8)))
				raw[i] |= (uint8_t)(0x80 >> c);
}
