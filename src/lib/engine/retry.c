// SPDX-License-Identifier: MIT
/*
 * The rescue engine's learning retry plan (engine.h): which bad blocks
 * are worth another read when the user gave no --retries.  Apart from
 * engine.c because it is a policy of its own, with its own bookkeeping
 * (classes, samples), over the engine's one primitive (rescue_try).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "engine/engine.h"
#include "engine/retry.h"

/*
 * The retry policy when the user gave no --retries.  A retry costs a full
 * failure and most damage is permanent, so retries are spent where they
 * have been seen to pay.  Bad areas (runs of bad blocks) fall into
 * classes by their length: 1 block, 2-3, 4-7, 8-15 and so on (the bit
 * length of the count), so that a scratch, the tiny defects around it and
 * a marginal stretch of a few dozen blocks are told apart:
 *  1. sample: the first block of each class's first area is retried until
 *     it has been tried as often as GNU ddrescue's -r2 tries a block (once
 *     before the retries, CDT_DEFAULT_RETRIES times in them), and at least
 *     once.  Tried means: a failing read started on it (a drive reads in
 *     order; a read that started lower may have failed before reaching
 *     it).  An area's first block is the one tried most already (the
 *     failing chunk and the trim both stopped on it), so a block that
 *     fails a few times and then reads shows up there first, and on a
 *     chunk's first block one retry is all -r2 would add;
 *  2. in a class whose sample read, the first block of every other area
 *     is sampled too;
 *  3. each area whose sample read gets CDT_DEFAULT_RETRIES passes over
 *     the bad blocks it has left, stopping early only when none is left,
 *     as -r2 does: a flaky block may need both, and the first pass may
 *     recover nothing (its neighbours were tried fewer times than the
 *     sample).
 * Permanent damage then costs one sample per class more than no retries
 * at all (one or two failures each); flaky areas get the tries -r2 would
 * give them.
 */
#define RETRY_CLASSES 65	/* bit lengths of a 64-bit block count */

struct retry_area {
	uint64_t a, b;		/* blocks [a, b) were bad when retrying began */
	unsigned int class;
	bool sampled, recovered;
};

struct retry_plan {
	size_t sorted;		/* r->fail_lba[0, sorted): the failing reads
				 * before the retries, in order */
	bool sampled[RETRY_CLASSES];	/* per class: a sample was taken */
	bool recovered[RETRY_CLASSES];	/* and it read */
};

/* An area's class: the bit length of its block count. */
static unsigned int area_class(uint64_t blocks)
{
	unsigned int c = 0;

	for (; blocks; blocks >>= 1)
		c++;
	return c;
}

/* The bad runs of the map as areas; *n of them. */
static int bad_areas(struct rescue *r, struct retry_area **out, size_t *n)
{
	size_t i, k = 0;

	*out = calloc(r->map->n ? r->map->n : 1, sizeof(**out));
	if (!*out)
		return CDT_ENOMEM;
	for (i = 0; i < r->map->n; i++) {
		const struct map_run *run = &r->map->runs[i];

		if (run->status != MAP_BAD)
			continue;
		(*out)[k].a = run->pos / r->bs;
		(*out)[k].b = (run->pos + run->size) / r->bs;
		(*out)[k].class = area_class((*out)[k].b - (*out)[k].a);
		k++;
	}
	*n = k;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* How many failing reads before the retries started on lba. */
static unsigned int tries_at(const struct rescue *r, const struct retry_plan *pl,
			     uint64_t lba)
{
	size_t lo = 0, hi = pl->sorted, n = pl->sorted, mid;
	unsigned int k = 0;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->fail_lba[mid] < lba)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo < n && r->fail_lba[lo++] == lba)
		k++;
	return k;
}

/*
 * Retry an area's first block until it reads or has had as many tries as
 * -r2 gives a block (every bad block had one, in this run or an earlier
 * one), at least once.  Returns 0 or <0 on error.
 */
static int sample_area(struct rescue *r, const struct retry_plan *pl,
		       struct retry_area *ar)
{
	unsigned int tries = tries_at(r, pl, ar->a);
	int got;

	if (!tries)
		tries = 1;
	ar->sampled = true;
	do {
		got = rescue_try_unit(r, ar->a, rescue_unit_up(r, ar->a, ar->b), MAP_BAD);
		if (got < 0)
			return got;
		ar->recovered = got == SPAN_GOOD;
		/* a Form 2 block is listed, not damaged: nothing to retry */
	} while (!ar->recovered && got != SPAN_WRONG_MODE &&
		 ++tries < CDT_DEFAULT_RETRIES + 1);
	return 0;
}

/*
 * `passes` retries of every block of [a, b) still bad, stopping early only
 * when none is left.  Returns 0 or <0 on error.
 */
static int retry_area_blocks(struct rescue *r, const struct retry_area *ar, int passes)
{
	uint64_t lba, still_bad, start, len;
	uint32_t n;
	int pass, got;

	for (pass = 1; pass <= passes; pass++) {
		still_bad = 0;
		for (lba = ar->a; lba < ar->b; lba += n) {
			n = 1;
			if (map_status_at(r->map, lba * r->bs) != MAP_BAD)
				continue;
			/* a unit's bad blocks, never a block of another status */
			if (!map_find(r->map, MAP_BAD, lba * r->bs, &start, &len))
				break;
			n = rescue_unit_up(r, lba, (start + len) / r->bs);
			got = rescue_try_unit(r, lba, n, MAP_BAD);
			if (got < 0)
				return got;
			still_bad += got != SPAN_GOOD;
		}
		if (!still_bad)
			break;
	}
	return 0;
}

/* Step 1 of the policy above: each class's first area.  0 or <0. */
static int sample_classes(struct rescue *r, struct retry_area *ar, size_t n,
			  struct retry_plan *pl)
{
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		if (pl->sampled[ar[i].class])
			continue;
		pl->sampled[ar[i].class] = true;
		rc = sample_area(r, pl, &ar[i]);
		if (rc)
			return rc;
		pl->recovered[ar[i].class] = ar[i].recovered;
	}
	return 0;
}

/*
 * The learning retry pass (the policy above).
 * Reads: single bad ('-') blocks: each class's sample in the order of
 *   the map, then the first block of every other area of a class whose
 *   sample read, then the bad blocks left in each area whose sample read,
 *   ascending, up to CDT_DEFAULT_RETRIES passes.
 * Leaves: '+' each block that read, the rest '-'; r->fail_lba's first
 *   failed_reads entries sorted.
 * Returns: 0 or <0 on error.
 */
int rescue_retry_learning(struct rescue *r)
{
	struct retry_plan pl;
	struct retry_area *ar;
	size_t n, i;
	int rc;

	memset(&pl, 0, sizeof(pl));
	rc = bad_areas(r, &ar, &n);
	if (rc || !n)
		goto out;
	pl.sorted = (size_t)r->failed_reads;
	if (pl.sorted)
		qsort(r->fail_lba, pl.sorted, sizeof(*r->fail_lba), cmp_u64);
	rc = sample_classes(r, ar, n, &pl);
	for (i = 0; i < n && !rc; i++)
		if (!ar[i].sampled && pl.recovered[ar[i].class])
			rc = sample_area(r, &pl, &ar[i]);
	for (i = 0; i < n && !rc; i++)
		if (ar[i].recovered)
			rc = retry_area_blocks(r, &ar[i], CDT_DEFAULT_RETRIES);
out:
	free(ar);
	return rc;
}


/*
 * Another drive is the standard second try (its laser, firmware and error
 * recovery differ; GNU ddrescue's manual advises moving a disc between
 * drives): the learning plan's samples were learnt on the first drive and
 * say nothing of this one, so every bad block gets its try, but a block
 * this run has already failed on in this drive (the probe's reads) has had
 * it.
 */
int rescue_retry_once(struct rescue *r)
{
	struct retry_plan pl = { .sorted = (size_t)r->failed_reads };
	uint64_t pos = 0, start, len, lba;
	uint32_t n;
	int got;

	if (pl.sorted)
		qsort(r->fail_lba, pl.sorted, sizeof(*r->fail_lba), cmp_u64);
	while (map_find(r->map, MAP_BAD, pos, &start, &len)) {
		lba = start / r->bs;
		n = rescue_unit_up(r, lba, (start + len) / r->bs);
		pos = start + (uint64_t)n * r->bs;
		if (tries_at(r, &pl, lba))
			continue;
		got = rescue_try_unit(r, lba, n, MAP_BAD);
		if (got < 0)
			return got;
	}
	return 0;
}
