/* SPDX-License-Identifier: MIT */
/*
 * The rescue engine's passes (engine.h, passes.c): what a job runs.  Each
 * returns 0, CDT_EINTR, CDT_EIO or a device error; the map then holds
 * every read made before the return.
 */
#ifndef CDT_PASSES_H
#define CDT_PASSES_H

#include <stdint.h>
#include "engine/engine.h"
#include "book/skip.h"

/*
 * Every pass: the copying passes over the whole map, then the rest
 * (rescue_rest).  0, CDT_EINTR, CDT_EIO or a device error.
 */
int rescue_run(struct rescue *r);

/*
 * The copying passes over blocks [from, to) (to may be UINT64_MAX: the
 * map's end).  Reads: pass 1 the untried blocks from `from` upwards,
 * skipping ahead after a failure; pass 2 what is untried below `to`
 * downwards, skipping down; pass 3 what is still untried below `to`
 * upwards, every block.  Leaves in the map: finished ('+') what read,
 * non-trimmed ('*') the chunks that failed.  Returns 0 or <0.
 */
int rescue_copy(struct rescue *r, uint64_t from, uint64_t to);

/*
 * Every pass after the copying ones: trimming, scraping, retrying (see
 * each in passes.c and retry.c); then the map's current position is its
 * end and a last progress report goes out.  Returns 0 or <0.
 */
int rescue_rest(struct rescue *r);

/*
 * The in-order pass (verify, tail's compare window): one walk up [from,
 * to) that never comes back to a block.  Reads the blocks outside skip's
 * areas ascending, a chunk a read, a failed read then unit by unit (a
 * block on CD, r->unit on DVD and BD) with the retries; tells the sink of
 * every step (settled).  0 (*reached: the
 * end of the last step, `to` unless the sink had its answer first),
 * CDT_EINTR, CDT_ECHANGED, CDT_ETIMEOUT, or a device or sink error.
 */
int rescue_in_order(struct rescue *r, const struct skip_plan *skip,
		    uint64_t from, uint64_t to, uint64_t *reached);

#endif
