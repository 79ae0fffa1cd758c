/* SPDX-License-Identifier: MIT */
/*
 * The P-W subchannel as CloneCD's .sub file keeps it: 96 bytes a sector,
 * channel by channel, P in bytes 0-11, Q in 12-23, then R, S, T, U, V, W
 * 12 bytes each; bit i of a channel's 96 bits (in the order the disc
 * gives them) is bit 7 - i % 8 of its byte i / 8.  A drive's raw P-W (READ
 * CD sub-channel selection 001b, MMC-3 6.1.15) is the other order: one
 * byte a symbol, P in bit 7, Q in bit 6, ... W in bit 0.  [CloneCD .sub:
 * the myce.com thread "Decoding and editing CloneCD's .sub and .ccd
 * files" and psx-spx "CDROM Disk Images CCD/IMG/SUB"; Aaru's CloneCD
 * plugin (aaru-dps/Aaru DiscImageChef.DiscImages/CloneCD.cs) notes that
 * CloneCD stores subchannel de-interleaved; redumper cd/subcode.ixx
 * subcode_extract_channel takes a channel out the same way.]
 */
#ifndef CDT_SUBPW_H
#define CDT_SUBPW_H

#include <stdint.h>

#define CD_SUB_CHANNEL_LEN 12	/* bytes of one channel in a sector */
#define CD_SUB_Q_AT 12		/* Q's 12 bytes in a de-interleaved record */

/* Raw P-W symbols raw[96] to the channel-by-channel record out[96]. */
void cd_pw_deinterleave(const uint8_t *raw, uint8_t *out);

/* The record chan[96] back to raw P-W symbols raw[96]. */
void cd_pw_interleave(const uint8_t *chan, uint8_t *raw);

#endif
