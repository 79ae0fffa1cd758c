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

/* The most 05/64/00 blocks at a last track's end that are a TAO run-out. */
#define PROBE_RUNOUT_MAX 2u

/*
 * The blocks from lba up to the reported end answer 05/64/00 ILLEGAL MODE
 * FOR THIS TRACK (or 05/63/00), every one of them (all_wrong_mode): how
 * many are a TAO run-out, 0 when none are.  1 or 2 are the run-out; 3 or
 * more are Mode 2 Form 2 sectors below one (the caller's form2 decision),
 * never an end.  MEDIUM ERROR is damage, never a run-out: the caller says
 * all_wrong_mode only for blocks that answered 05/64/00 or 05/63/00.
 */
unsigned int probe_runout_blocks(uint64_t lba, uint64_t reported, bool all_wrong_mode);

/*
 * probe_damaged_tail() where the agreed end closes with a run-out of
 * runout blocks (probe_runout_blocks()): MEDIUM ERROR blocks [end, extent)
 * just before it, the drive's END-class answers starting at the run-out
 * (extent + runout == the agreed end), are damage inside the disc too.
 * A filesystem may declare the agreed end or the run-out's start.
 */
bool probe_damaged_before(const struct cdt_sizes *sz, uint64_t end, uint64_t extent,
			  bool medium_at_end, unsigned int runout);

/*
 * The verdict on a search's end: unreadable when no block read
 * (nothing_readable), else the end against READ CAPACITY, where an end
 * exactly runout blocks short of it at a run-out the probe confirmed
 * (probe_runout_blocks()) is no data missing: ok.  hidden is true_blocks
 * minus READ CAPACITY.
 */
enum cdt_verdict probe_verdict(int64_t hidden, unsigned int runout, bool nothing_readable);

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
