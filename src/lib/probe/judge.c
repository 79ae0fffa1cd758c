// SPDX-License-Identifier: MIT
/* The agreement of the size sources around the reported end (judge.h). */
#include <string.h>
#include "probe/judge.h"

bool probe_cd_profile(uint16_t profile)
{
	return profile >= 0x0008 && profile <= 0x000a;
}

int64_t probe_agreed_end(const struct cdt_sizes *sz)
{
	int64_t rc = sz->read_capacity;

	if (rc <= 0 || (sz->toc_leadout != rc && sz->track_end != rc))
		return -1;
	return rc;
}

/*
 * MEDIUM ERROR says "the block is there and could not be read", not "out
 * of range" (SPC-4 4.5.6, sense key 3): where READ CAPACITY, the TOC or
 * track information and the filesystem all put the end further, the
 * failing run is damage (issue 23 item 5), when the drive itself says
 * "out of range" from there on (extent).  05/21/00 below the agreed end,
 * MEDIUM ERROR on past it (blocks hidden past it, or tgt: never silent,
 * the old answer's window limit), a track that ends at end, or a
 * filesystem that says anything else leaves the old answer.
 */
bool probe_damaged_tail(const struct cdt_sizes *sz, uint64_t end, uint64_t extent,
			bool medium_at_end)
{
	return probe_damaged_before(sz, end, extent, medium_at_end, 0);
}

/*
 * A run-out closes the agreed end with blocks the drive answers END-class
 * (05/64/00): the damage ends where it starts (issue 32, the manual's open
 * questions decided: MEDIUM ERROR just before a run-out is damage, and
 * both notes are given).  A TAO disc's filesystem counts its data, the
 * run-out's start, or the track's whole length.
 */
bool probe_damaged_before(const struct cdt_sizes *sz, uint64_t end, uint64_t extent,
			  bool medium_at_end, unsigned int runout)
{
	int64_t agreed = probe_agreed_end(sz), data_end = agreed - (int64_t)runout;

	if (!medium_at_end || runout > PROBE_RUNOUT_MAX || data_end <= 0 ||
	    (uint64_t)data_end <= end || extent != (uint64_t)data_end)
		return false;
	if (sz->toc_leadout == (int64_t)end || sz->track_end == (int64_t)end)
		return false;
	return sz->filesystem <= 0 || sz->filesystem == agreed ||
	       (runout && sz->filesystem == data_end);
}

/*
 * A TAO track ends in 2 run-out blocks (MMC-6 4.2.3.6); a drive that
 * reports one of them less leaves 1.  Three or more are no run-out: Form 2
 * sectors of the track (a Video CD) before one, which the caller decides
 * by reading the 3 reported blocks at the end.  A MEDIUM ERROR there says
 * the block is there and damaged (SPC-4, sense key 3), never that it is
 * no user data: the caller never counts it as 05/64/00.
 */
unsigned int probe_runout_blocks(uint64_t lba, uint64_t reported, bool all_wrong_mode)
{
	if (!all_wrong_mode || lba >= reported || reported - lba > PROBE_RUNOUT_MAX)
		return 0;
	return (unsigned int)(reported - lba);
}

/*
 * cdtail-probe(1)'s table: every note with its verdict.  A disc none of
 * whose blocks reads is unreadable (exit 4, as image says of it), whatever
 * READ CAPACITY says; a run-out is no data missing.
 */
enum cdt_verdict probe_verdict(int64_t hidden, unsigned int runout, bool nothing_readable)
{
	if (nothing_readable)
		return CDT_VERDICT_UNREADABLE;
	if (hidden > 0)
		return CDT_VERDICT_HIDDEN_TAIL;
	if (hidden < 0 && hidden != -(int64_t)runout)
		return CDT_VERDICT_SHORT;
	return CDT_VERDICT_OK;
}

bool probe_filler_block(const uint8_t *blk, const uint8_t *last, size_t bs)
{
	if (!bs)
		return false;
	if (last && !memcmp(blk, last, bs))
		return true;
	return blk[0] == 0 && !memcmp(blk, blk + 1, bs - 1);
}

/* a source that puts the end past agreed: the blocks there are expected */
static bool declared_past(int64_t source, int64_t agreed)
{
	return source > agreed;
}

/*
 * A drive that reads the lead-out answers GOOD with its (zero) sectors,
 * one with a stale cache the last block again (redumper checks lead-out
 * reads by subchannel Q and the sector header, never by the command's
 * success: REAL-DISCS.md, doc/disc-kinds.md).  Where headers are read
 * (raw) they already decided each block; elsewhere filler past an agreed
 * end is not evidence of data.
 */
bool probe_tail_unconfirmed(const struct cdt_sizes *sz, uint64_t end, bool raw,
			    bool filler_seen, bool data_seen)
{
	int64_t agreed = probe_agreed_end(sz);

	if (raw || !filler_seen || data_seen || agreed <= 0 || end <= (uint64_t)agreed ||
	    !probe_cd_profile(sz->profile))
		return false;
	return !declared_past(sz->filesystem, agreed) && !declared_past(sz->kernel, agreed);
}
