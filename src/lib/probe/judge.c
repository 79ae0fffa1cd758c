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
	int64_t agreed = probe_agreed_end(sz);

	if (!medium_at_end || agreed <= 0 || (uint64_t)agreed <= end ||
	    extent != (uint64_t)agreed)
		return false;
	if (sz->toc_leadout == (int64_t)end || sz->track_end == (int64_t)end)
		return false;
	return sz->filesystem <= 0 || sz->filesystem == agreed;
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
