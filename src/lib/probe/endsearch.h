/* SPDX-License-Identifier: MIT */
/*
 * The true-end search: the algorithm and nothing else.  It sees the drive
 * only through es_read_fn, so unit tests drive it with scripted outcomes.
 *
 * "End" is a block count e: LBA e-1 is readable and nothing at or above e
 * is (within the bounds the search looks at).
 */
#ifndef CDT_ENDSEARCH_H
#define CDT_ENDSEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"
#include "mmc/answer.h"

struct es_outcome {
	enum cdt_read_class cls;
	bool info_valid;
	uint64_t info;		/* first unreadable LBA, if info_valid */
	double ms;		/* how long the read took */
	/*
	 * Blocks of a CDT_READ_OK read that did not arrive (the residual,
	 * rounded up to whole blocks): only the blocks before them count.
	 */
	uint32_t missing;
	bool info_exact;	/* info is known, not the drive's word (es_read) */
	/*
	 * What the answer was beside its class, for the boundary past the
	 * end (endboundary.h): a MEDIUM ERROR (sense key 3), the table's
	 * WRONG_MODE (05/64), END OF USER AREA (05/63).
	 */
	bool medium_error, wrong_mode, user_area_end;
};

/* Read [lba, lba + n); fill *out; return 0, or <0 to abort the search. */
typedef int (*es_read_fn)(void *ctx, uint64_t lba, uint32_t n,
			  struct es_outcome *out);

#define ES_MAX_CANDIDATES 8
/* CDT_TIMEOUTS_IN_ROW timeouts in a row end the search with CDT_ETIMEOUT. */

struct es_params {
	uint64_t reported;		/* READ CAPACITY's count */
	uint64_t candidates[ES_MAX_CANDIDATES];	/* other size sources */
	unsigned int ncandidates;
	uint64_t max_extra;		/* window above reported */
	uint32_t max_read_blocks;	/* largest single read */
	/*
	 * The end is at least this (0: anywhere): the last track's start,
	 * so no audio track, gap or run-out before it is ever the end.
	 */
	uint64_t floor;
	/*
	 * The medium's unit (0 or 1: none): 16 on a DVD (ECC block), 32 on
	 * a BD (cluster).  Such a disc normally ends on a unit's boundary, so
	 * the search tries those first where that saves failing reads; any
	 * end is still found exactly (endsearch.c).
	 */
	uint32_t unit;
};

struct es_result {
	uint64_t end;
	bool window_limit;	/* reads still succeeded at reported+max_extra */
	bool medium_end;	/* the block at end failed with MEDIUM (or timed
				 * out), not END */
	bool end_seen;		/* some read failed END-class (05/21, 05/63, 05/64) */
	bool nothing_readable;	/* LBA 0 failed */
	uint64_t reads, failed_reads;
	uint64_t timeouts;	/* reads that timed out, each a failed block */
	uint64_t short_reads;	/* GOOD reads with blocks missing */
	double ms;
};

int es_find_end(const struct es_params *p, es_read_fn read, void *ctx,
		struct es_result *res);

#endif
