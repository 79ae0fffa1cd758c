// SPDX-License-Identifier: MIT
/*
 * The rescue engine's passes (passes.h): GNU ddrescue's copying,
 * trimming, scraping and retrying, in its order, each over the map's
 * blocks of one status.  Every read goes through rescue_try (engine.c),
 * which reads, hands the blocks to the sink and records the outcome; the
 * passes only choose what to read next.  Apart from engine.c so that the
 * order of reads (what this file decides) and what one read does (what
 * engine.c decides) can each be read and changed alone; the learning
 * retry plan is in retry.c.
 */
#include <stdbool.h>
#include <stdint.h>
#include "engine/engine.h"
#include "engine/passes.h"
#include "engine/retry.h"

/*
 * The copying passes follow GNU ddrescue's (its manual, "Algorithm"):
 * pass 1 reads the untried blocks forwards and skips ahead after a
 * failure, pass 2 reads what was skipped backwards, skipping again, and
 * pass 3 sweeps forwards without skipping.  Reading backwards from beyond
 * a long scratch reaches the good blocks after it first; a forward pass
 * that does not skip would fail its way through the whole scratch before
 * them.  Reads keep to the chunk grid (a read ends on a multiple of the
 * chunk size), also after a skip, so that a failed chunk never straddles
 * two grid cells and the failures stay where the damage is.
 */

/* The read that starts at block lba going up: up to the next grid line. */
static uint32_t grid_up(const struct rescue *r, uint64_t lba, uint64_t left)
{
	uint64_t n = r->chunk - lba % r->chunk;

	return (uint32_t)(n < left ? n : left);
}

/* The read that ends at block end going down: from the grid line below. */
static uint32_t grid_down(const struct rescue *r, uint64_t end, uint64_t left)
{
	uint64_t n = (end - 1) % r->chunk + 1;

	return (uint32_t)(n < left ? n : left);
}

/*
 * What a failed copying read of [lba, lba + n) leaves: non-trimmed, but a
 * read of exactly one unit on its grid (a BD cluster, the default chunk)
 * is bad at once, as GNU ddrescue marks a failed read of one sector: a
 * trim would read the very same unit again, which is a retry, and the
 * retry phase decides on those.
 */
static char copy_failed_status(const struct rescue *r, uint64_t lba, uint32_t n)
{
	return r->unit > 1 && n == r->unit && lba % r->unit == 0 ? MAP_BAD : MAP_NONTRIMMED;
}

/*
 * A copying read: one whole unit through rescue_try_unit, so that a unit
 * refused for a mode or copy protection (per sector, not per unit) is
 * read again block by block rather than taken for one defect.
 */
static int copy_read(struct rescue *r, uint64_t lba, uint32_t n)
{
	char status = copy_failed_status(r, lba, n);

	if (status == MAP_BAD)
		return rescue_try_unit(r, lba, n, status);
	return rescue_try(r, lba, n, status);
}

/* The next skip after a failure: doubling while failures follow each other. */
static uint64_t next_skip(const struct rescue *r, uint64_t skip)
{
	uint64_t max = r->map->size / r->bs / 64;

	if (max < r->chunk)
		max = r->chunk;
	skip = skip ? skip * 2 : r->chunk;
	return skip < max ? skip : max;
}

/*
 * Copying passes 1 and 3.
 * Reads: the untried ('?') blocks of [pos, end), upwards, in reads of up
 *   to a chunk that end on the chunk grid; with skipping, a failed read
 *   jumps ahead by next_skip() blocks (pass 1), without it every untried
 *   block is read (pass 3).
 * Leaves: '+' what read, '*' (non-trimmed) each read that failed; what a
 *   skip jumped over stays '?'.
 * Returns: 0, or <0 (an error that ends the run: the map holds every
 *   read before it).
 */
static int copy_forward(struct rescue *r, bool skipping, uint64_t pos, uint64_t end)
{
	uint64_t skip = 0, start, len, lba;
	int got;

	while (pos < end && map_find(r->map, MAP_NONTRIED, pos * r->bs, &start, &len)) {
		uint32_t n;

		lba = start / r->bs;
		if (lba >= end)
			break;
		if (len / r->bs > end - lba)
			len = (end - lba) * r->bs;
		n = grid_up(r, lba, len / r->bs);
		got = copy_read(r, lba, n);
		if (got < 0)
			return got;
		pos = lba + n;
		if (got == SPAN_GOOD || !skipping) {
			skip = 0;
			continue;
		}
		skip = next_skip(r, skip);
		pos += skip;
	}
	return 0;
}

/*
 * Copying pass 2.
 * Reads: the untried ('?') blocks below block end, downwards, each read
 *   from the chunk grid line below the top of its untried run; a failed
 *   read skips down by next_skip() blocks.
 * Leaves: '+' what read, '*' each read that failed; what a skip jumped
 *   over stays '?' (pass 3 reads it).
 * Returns: 0 or <0 on error.
 */
static int copy_backward(struct rescue *r, uint64_t end)
{
	uint64_t skip = 0, start, len, top;
	int got;

	if (end > r->map->size / r->bs)
		end = r->map->size / r->bs;
	while (end && map_find_back(r->map, MAP_NONTRIED, end * r->bs, &start, &len)) {
		uint32_t n;

		top = (start + len) / r->bs;
		n = grid_down(r, top, len / r->bs);
		got = copy_read(r, top - n, n);
		if (got < 0)
			return got;
		end = top - n;
		if (got == SPAN_GOOD) {
			skip = 0;
			continue;
		}
		skip = next_skip(r, skip);
		end = end > skip ? end - skip : 0;
	}
	return 0;
}

/*
 * Trimming one non-trimmed area [a, b).
 * Reads: single blocks (on DVD and BD whole units, r->unit: an ECC block
 *   or cluster fails as one) from a upwards until one fails, then from
 *   b - 1 downwards until one fails (or the upward walk's failure is
 *   reached).
 * Leaves: '+' each block that read, '-' (bad) the two that failed, '/'
 *   (non-scraped) what lies between them.
 * Returns: 0 or <0 on error.
 */
static int trim_area(struct rescue *r, uint64_t a, uint64_t b)
{
	uint64_t lba, start, len;
	int got = SPAN_GOOD;
	uint32_t n;

	for (lba = a; lba < b && got == SPAN_GOOD; lba += n) {
		n = rescue_unit_up(r, lba, b);
		got = rescue_try_unit(r, lba, n, MAP_BAD);
		if (got < 0)
			return got;
	}
	/* the upward walk stopped below lba: the downward one stops there */
	a = lba;
	got = SPAN_GOOD;
	for (lba = b; lba > a && got == SPAN_GOOD &&
	     map_status_at(r->map, (lba - 1) * r->bs) == MAP_NONTRIMMED; lba -= n) {
		n = rescue_unit_down(r, lba, a);
		got = rescue_try_unit(r, lba - n, n, MAP_BAD);
		if (got < 0)
			return got;
	}
	/* what lies between the two failures waits for scraping */
	if (map_find(r->map, MAP_NONTRIMMED, a * r->bs, &start, &len) &&
	    start < b * r->bs) {
		if (start + len > b * r->bs)
			len = b * r->bs - start;
		return map_set(r->map, start, len, MAP_NONSCRAPED);
	}
	return 0;
}

/*
 * The trimming pass.
 * Reads: every non-trimmed ('*') area in ascending order, as trim_area.
 * Leaves: no '*' in the map: each area became '+', '-' and '/'.
 * Returns: 0 or <0 on error.
 */
static int trim_pass(struct rescue *r)
{
	uint64_t start, len;
	int rc;

	while (map_find(r->map, MAP_NONTRIMMED, 0, &start, &len)) {
		rc = trim_area(r, start / r->bs, (start + len) / r->bs);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * The scraping pass (status '/') and each pass of --retries N ('-').
 * Reads: every block of the given status, one read each (on DVD and BD
 *   one read per unit of them), ascending.
 * Leaves: '+' each block that read, '-' each that failed.
 * Returns: 0 or <0 on error.
 */
static int single_pass(struct rescue *r, char status)
{
	uint64_t pos = 0, start, len;
	uint32_t n;
	int got;

	while (map_find(r->map, status, pos, &start, &len)) {
		n = rescue_unit_up(r, start / r->bs, (start + len) / r->bs);
		got = rescue_try_unit(r, start / r->bs, n, MAP_BAD);
		if (got < 0)
			return got;
		pos = start + (uint64_t)n * r->bs;
	}
	return 0;
}

/*
 * The retrying phase.
 * Reads: with --retries N, up to N passes over every bad ('-') block in
 *   ascending order (single_pass), ending early when none is left; without
 *   it, what the learning plan (retry.c) chooses.
 * Leaves: '+' each block that read; the rest stays '-'.
 * Returns: 0 or <0 on error.
 */
static int retry_phase(struct rescue *r)
{
	int rc = 0, pass;

	if (!map_count(r->map, MAP_BAD))
		return 0;
	if (r->retries < 0) {
		rescue_enter_phase(r, CDT_PHASE_RETRY, 1);
		return r->once_more ? rescue_retry_once(r) : rescue_retry_learning(r);
	}
	for (pass = 1; !rc && pass <= r->retries && map_count(r->map, MAP_BAD); pass++) {
		rescue_enter_phase(r, CDT_PHASE_RETRY, (unsigned int)pass);
		rc = single_pass(r, MAP_BAD);
	}
	return rc;
}

/* Untried blocks in [from, to)? */
static bool untried(const struct rescue *r, uint64_t from, uint64_t to)
{
	uint64_t start, len;

	if (to > r->map->size / r->bs)
		to = r->map->size / r->bs;
	return map_find(r->map, MAP_NONTRIED, from * r->bs, &start, &len) &&
	       start < to * r->bs;
}

/*
 * The copying passes over blocks [from, to): pass 1 from `from` upwards,
 * passes 2 and 3 over all that is untried below to.  Returns 0 or <0.
 */
int rescue_copy(struct rescue *r, uint64_t from, uint64_t to)
{
	int rc;

	rescue_enter_phase(r, CDT_PHASE_COPY, 1);
	rc = copy_forward(r, true, from, to);
	if (!rc && untried(r, 0, to)) {
		rescue_enter_phase(r, CDT_PHASE_COPY, 2);
		rc = copy_backward(r, to);
	}
	if (!rc && untried(r, 0, to)) {
		rescue_enter_phase(r, CDT_PHASE_COPY, 3);
		rc = copy_forward(r, false, 0, to);
	}
	return rc;
}

/* Every pass after the copying ones.  Returns 0 or <0 on error. */
int rescue_rest(struct rescue *r)
{
	int rc = 0;

	if (!rc && map_count(r->map, MAP_NONTRIMMED)) {
		rescue_enter_phase(r, CDT_PHASE_TRIM, 1);
		rc = trim_pass(r);
	}
	if (!rc && map_count(r->map, MAP_NONSCRAPED)) {
		rescue_enter_phase(r, CDT_PHASE_SCRAPE, 1);
		rc = single_pass(r, MAP_NONSCRAPED);
	}
	if (!rc)
		rc = retry_phase(r);
	if (rc)
		return rc;
	r->map->cur_status = MAP_FINISHED;
	r->map->cur_pos = r->map->size;
	rescue_progress(r, true);
	return 0;
}

int rescue_run(struct rescue *r)
{
	int rc;

	r->last_save_ms = rescue_now_ms();
	rc = rescue_copy(r, 0, UINT64_MAX);
	return rc ? rc : rescue_rest(r);
}


/*
 * A retry of what is left bad in [lba, lba + n): each run of bad ('-')
 * blocks in one read, never the blocks that read or were listed as wrong
 * mode (the sink has them).  SPAN_GOOD when none is left bad, SPAN_BAD,
 * or <0 on error.
 */
static int retry_bad_runs(struct rescue *r, uint64_t lba, uint32_t n)
{
	uint64_t end = lba + n, at = lba, start, len, last;
	int got, left = SPAN_GOOD;

	while (at < end && map_find(r->map, MAP_BAD, at * r->bs, &start, &len) &&
	       start / r->bs < end) {
		at = start / r->bs;
		last = (start + len) / r->bs < end ? (start + len) / r->bs : end;
		got = rescue_try(r, at, (uint32_t)(last - at), MAP_BAD);
		if (got < 0)
			return got;
		if (got == SPAN_BAD)
			left = SPAN_BAD;
		at = last;
	}
	return left;
}

/*
 * One unit of the in-order pass alone (r->unit blocks on DVD and BD, a
 * block on CD), read until it reads, up to 1 + retries times (retries <
 * 0: CDT_DEFAULT_RETRIES, as -r2).  The first read is rescue_try_unit's
 * (engine.c): a DVD defect fails its whole ECC block, so one failing read
 * stands for the unit, not one per block (issue 36), while a unit refused
 * per sector (wrong mode, copy protection) is read block by block and the
 * good blocks before a defect are kept.  A retry reads only the blocks
 * still bad.  SPAN_GOOD, SPAN_BAD, SPAN_WRONG_MODE or <0 on error.
 */
static int in_order_unit(struct rescue *r, uint64_t lba, uint32_t n)
{
	int retries = r->retries < 0 ? CDT_DEFAULT_RETRIES : r->retries;
	int got = rescue_try_unit(r, lba, n, MAP_BAD);

	while (got == SPAN_BAD && retries-- > 0)
		got = retry_bad_runs(r, lba, n);
	return got;
}

/*
 * A step of data: one read, and when that fails its units alone
 * (in_order_unit).  A step inside one unit is that unit's read at once:
 * reading it whole first would only fail the same unit twice.
 */
static int in_order_step(struct rescue *r, uint64_t lba, uint64_t n)
{
	uint64_t at;
	uint32_t u;
	int got;

	if (rescue_unit_up(r, lba, lba + n) < n) {
		got = rescue_try(r, lba, (uint32_t)n, MAP_BAD);
		if (got != SPAN_BAD)
			return got < 0 ? got : 0;
	}
	for (at = lba; at < lba + n; at += u) {
		u = rescue_unit_up(r, at, lba + n);
		got = in_order_unit(r, at, u);
		if (got < 0)
			return got;
	}
	return 0;
}

/*
 * The in-order pass (verify, tail's compare window).  A job that reads
 * the disc once, in order, beside a file or into a digest, has no later
 * pass to come back to a block: a failed chunk is read again at once,
 * unit by unit (block by block on CD), so one defect costs its unit, not
 * a chunk, and each unit gets its retries there.
 * Reads: the steps of skip_step() over [from, to), on DVD and BD cut at
 *   the chunk grid: a skipped area is passed over unread; a span of data
 *   (up to a chunk, up to the next skipped area) is one read, and when
 *   that fails each of its units alone, as in_order_unit(); a span
 *   inside one unit is that unit's read alone.  Every read counts
 *   towards timeouts in a row (engine.c: CDT_TIMEOUTS_IN_ROW ends the
 *   run at once).
 * Tells the sink: put, failed and wrong_mode as every read does, then
 *   settled() for each step in order, read or passed over; settled()
 *   answering 1 ends the pass after that step.
 * Leaves: '+' what read (and blocks the sink listed as wrong mode), '-'
 *   each block that never read; skipped areas as they were.
 * Returns: 0 with *reached the end of the last step (to, unless the sink
 *   had its answer first), CDT_EINTR, CDT_ECHANGED (a medium change the
 *   sink did not take as the same disc), CDT_ETIMEOUT, or another error
 *   of the device or the sink.
 */
int rescue_in_order(struct rescue *r, const struct skip_plan *skip,
		    uint64_t from, uint64_t to, uint64_t *reached)
{
	uint64_t lba = from, n;
	bool skipped;
	int rc;

	*reached = from;
	r->last_save_ms = rescue_now_ms();
	rescue_enter_phase(r, CDT_PHASE_COMPARE, 1);
	while (lba < to) {
		n = skip_step(skip, lba, to, r->chunk, &skipped);
		/* on DVD and BD a step of data ends on the chunk grid, a
		 * whole number of units, so that no unit spans two steps */
		if (!skipped && r->unit > 1)
			n = grid_up(r, lba, n);
		if (!skipped) {
			rc = in_order_step(r, lba, n);
			if (rc < 0)
				return rc;
		}
		rc = r->sink.settled ? r->sink.settled(r->sink.ctx, lba, n, !skipped) : 0;
		if (rc < 0)
			return rc;
		lba += n;
		*reached = lba;
		if (rc)
			break;
	}
	return 0;
}
