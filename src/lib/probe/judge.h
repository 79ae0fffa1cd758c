/* SPDX-License-Identifier: MIT */
/*
 * What the sources' agreement makes of the blocks around the reported end
 * (probe/judge.c): pure decisions over the size sources and what the end
 * search saw, so unit tests drive them without a drive.
 */
#ifndef CDT_PROBE_JUDGE_H
#define CDT_PROBE_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"

/* CD-ROM, CD-R, CD-RW (MMC-6 table 91, profiles 0008h-000Ah) */
bool probe_cd_profile(uint16_t profile);

/*
 * READ CAPACITY's count when the TOC lead-out or the track information's
 * end says the same, else -1: the end the structure agrees on.
 */
int64_t probe_agreed_end(const struct cdt_sizes *sz);

/*
 * The end search stopped at end, the block there failing MEDIUM-class
 * (medium_at_end: 03/xx, or a block-level failure, never 05/21/00), and
 * the drive first says "out of range" at extent: is [end, agreed) damage
 * inside the disc rather than past its end?  Yes when the structure
 * agrees on a larger end, the drive says out of range from exactly that
 * end, the structure does not end at end itself, and the filesystem (if
 * any) declares exactly the agreed end.
 */
bool probe_damaged_tail(const struct cdt_sizes *sz, uint64_t end, uint64_t extent,
			bool medium_at_end);

/*
 * A block read past an agreed end that holds nothing a disc would: all
 * zeros (a drive reading the lead-out) or the same bytes as last (a stale
 * cache answering again; NULL: not known).
 */
bool probe_filler_block(const uint8_t *blk, const uint8_t *last, size_t bs);

/*
 * The search found blocks past the reported end: are they unconfirmed
 * (not to be counted) rather than a hidden tail?  Yes on CD media whose
 * structure agrees on the reported end, no source declaring more, when
 * no sector header could witness them (raw) and this run read blocks
 * past the end (filler_seen) that were all filler (data_seen false).
 */
bool probe_tail_unconfirmed(const struct cdt_sizes *sz, uint64_t end, bool raw,
			    bool filler_seen, bool data_seen);

#endif
