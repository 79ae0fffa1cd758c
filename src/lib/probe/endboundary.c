// SPDX-License-Identifier: MIT
/*
 * The end search's rounds and the boundary past the end (endboundary.h):
 * moved out of probe.c, which read the drive here directly, so the whole
 * search runs through es_read_fn and is tested with scripted outcomes.
 */
#include <string.h>
#include "probe/endboundary.h"

static bool stopped(const struct eb_search *s)
{
	return s->stop && *s->stop;
}

/*
 * An outcome of [lba, lba+n): how high the disc reads (only the blocks
 * that arrived: a GOOD read's residual is not data), and a failure kept.
 */
static void keep(struct eb_search *s, uint64_t lba, uint32_t n,
		 const struct es_outcome *o)
{
	uint64_t got = o->missing >= n ? 0 : n - o->missing;

	if (o->cls == CDT_READ_OK) {
		if (got && lba + got > s->good_end)
			s->good_end = lba + got;
		return;
	}
	s->fails[s->nfails++ % EB_FAILS_KEPT] = (struct eb_failure){
		.lba = lba, .n = n, .cls = o->cls, .medium_error = o->medium_error,
		.wrong_mode = o->wrong_mode, .user_area_end = o->user_area_end,
	};
}

static unsigned int kept(const struct eb_search *s)
{
	return s->nfails < EB_FAILS_KEPT ? s->nfails : EB_FAILS_KEPT;
}

const struct eb_failure *eb_failure_at(const struct eb_search *s, uint64_t lba)
{
	unsigned int i, n = kept(s);
	const struct eb_failure *hit = NULL;

	for (i = 0; i < n; i++)
		if (lba >= s->fails[i].lba && lba < s->fails[i].lba + s->fails[i].n &&
		    (!hit || s->fails[i].n < hit->n))
			hit = &s->fails[i];
	return hit;
}

/* es_find_end's reads: the caller's, every outcome kept. */
static int read_kept(void *ctx, uint64_t lba, uint32_t n, struct es_outcome *out)
{
	struct eb_search *s = ctx;
	int rc = s->read(s->ctx, lba, n, out);

	if (!rc)
		keep(s, lba, n, out);
	return rc;
}

int eb_class_at(struct eb_search *s, uint64_t lba)
{
	struct es_outcome o;
	int rc;

	if (stopped(s))
		return CDT_EINTR;
	memset(&o, 0, sizeof(o));
	rc = s->probe(s->ctx, lba, 1, &o);
	if (rc)
		return rc;
	keep(s, lba, 1, &o);
	if (o.cls == CDT_READ_END)
		return 1;
	/* a block that failed or timed out is there, unreadable */
	if (o.cls == CDT_READ_OK || o.cls == CDT_READ_MEDIUM ||
	    o.cls == CDT_READ_TIMEOUT)
		return 0;
	return CDT_ECHECK;
}

/*
 * No END-class failure seen above lo: look for one, the reported length
 * first (a drive that says out of range past what it reports is the
 * common case), then at growing distances up to the search window.
 * Returns 0 with *hi set, 1 when the window ends first, <0 when a read
 * could not be classed.
 */
static int find_end_class(struct eb_search *s, uint64_t *lo, uint64_t reported,
			  uint64_t window, uint64_t *hi)
{
	uint64_t step = 1, at;
	int rc;

	if (reported > *lo && reported < window) {
		rc = eb_class_at(s, reported);
		if (rc < 0)
			return rc;
		if (rc) {
			*hi = reported;
			return 0;
		}
		*lo = reported;
	}
	while (*lo + 1 < window) {
		at = window - *lo > step ? *lo + step : window - 1;
		rc = eb_class_at(s, at);
		if (rc < 0)
			return rc;
		if (rc) {
			*hi = at;
			return 0;
		}
		*lo = at;
		step *= 2;
	}
	return 1;
}

/*
 * Where the blocks the drive holds but cannot read (MEDIUM ERROR) give way
 * to blocks it says do not exist (END-class): an image keeps the first and
 * not the second.  The failures the search saw bound it; where they do not,
 * find_end_class looks; then bisect between.  Below the boundary blocks
 * read or fail MEDIUM, at and above it they fail END-class, so the
 * bisection holds whatever mix of good and bad blocks lies between.
 * Sets *b; true when the window was reached first (*b is the window).
 * Every read stays below the window.
 */
static bool end_boundary(struct eb_search *s, uint64_t end, uint64_t reported,
			 uint64_t window, uint64_t *b)
{
	unsigned int i, n = kept(s);
	uint64_t lo = end, hi = UINT64_MAX, mid;
	int rc;

	for (i = 0; i < n; i++) {
		const struct eb_failure *f = &s->fails[i];
		uint64_t last = f->lba + f->n - 1;

		if (f->cls == CDT_READ_END && last < hi)
			hi = last;
	}
	if (hi <= end) {
		*b = end;	/* an END-class answer at end: nothing to extend */
		return false;
	}
	for (i = 0; i < n; i++) {
		const struct eb_failure *f = &s->fails[i];

		if (f->n == 1 && (f->medium_error || f->cls == CDT_READ_TIMEOUT) &&
		    f->lba > lo && f->lba < hi)
			lo = f->lba;
	}
	if (hi == UINT64_MAX) {
		rc = find_end_class(s, &lo, reported, window, &hi);
		/*
		 * MEDIUM ERROR all the way to the window, never "out of
		 * range", and only a read past the window, which --max-extra
		 * forbids, could say more.  tgt (tests/vm/README.md) answers
		 * so everywhere past its file, from the end on: the end
		 * stands there (trailing-medium-error).  A run that starts
		 * inside the reported length is damage the drive holds, and
		 * it reaches the window: unreadable blocks up to the window
		 * and perhaps beyond, never silent.  Which one it is rests on
		 * where the search's end lies, not on what failures cost.
		 */
		if (rc == 1) {
			*b = end < reported ? window : end;
			return end < reported;
		}
		/* a drive that stops answering: never fail the probe for it */
		if (rc < 0)
			hi = reported > lo ? reported : lo + 1;
	}
	/* the drive's own answer is the likeliest boundary: try it first */
	mid = reported > lo && reported < hi ? reported : lo + (hi - lo) / 2;
	while (hi - lo > 1) {
		rc = eb_class_at(s, mid);
		if (rc < 0)
			break;
		if (rc)
			hi = mid;
		else
			lo = mid;
		mid = lo + (hi - lo) / 2;
	}
	/*
	 * A drive that stops answering out here (seen with scsi_debug) leaves
	 * the boundary between lo and hi: the reported length, when it lies
	 * there, is the best guess; the imaging passes read those blocks
	 * again anyway.
	 */
	if (hi - lo > 1 && reported > lo && reported < hi)
		hi = reported;
	*b = hi;
	return false;
}

/*
 * Does the image end at end?  Only if the drive calls the block at end
 * out of range (END-class).  The search may stop at a MEDIUM ERROR (a
 * trailing bad run, LBA 0 itself unreadable) or give up on a drive whose
 * answers keep changing (flaky blocks): then the disc may go on,
 * unreadable or not, to where the drive says out of range, and the image
 * must cover that.  One read settles it when no kept failure does.
 */
static int needs_boundary(struct eb_search *s, uint64_t end, uint64_t window)
{
	unsigned int i, n = kept(s);
	int rc;

	/* the search reached the window: nothing past it is read */
	if (end >= window)
		return 0;
	for (i = 0; i < n; i++) {
		if (s->fails[i].lba == end && s->fails[i].cls == CDT_READ_END)
			return 0;
		/* timed out on its own: there, and never worth a second wait */
		if (s->fails[i].lba == end && s->fails[i].n == 1 &&
		    s->fails[i].cls == CDT_READ_TIMEOUT)
			return 1;
	}
	rc = eb_class_at(s, end);
	return rc < 0 ? 0 : !rc;
}

/*
 * Rounds of the search before the end is simply put past the highest
 * block read: each round starts above a block the last one read good, so
 * only a disc of many bad runs each with readable blocks between needs
 * more.
 */
#define EB_ROUNDS 16

int eb_rounds(struct eb_search *s, struct es_params *p, struct es_result *er,
	      uint64_t *extent, bool *window_limit)
{
	uint64_t window = p->reported + p->max_extra;
	struct es_result round;
	unsigned int i;
	int rc;

	memset(er, 0, sizeof(*er));
	for (i = 0; i < EB_ROUNDS; i++) {
		rc = es_find_end(p, read_kept, s, &round);
		if (rc)
			return rc;
		round.reads += er->reads;
		round.failed_reads += er->failed_reads;
		round.ms += er->ms;
		*er = round;
		*extent = er->end;
		*window_limit = false;
		if (needs_boundary(s, er->end, window))
			*window_limit = end_boundary(s, er->end, p->reported,
						     window, extent);
		if (s->good_end <= er->end || stopped(s))
			return 0;
		p->floor = s->good_end;
	}
	er->end = s->good_end;
	er->medium_end = false;
	if (*extent < er->end)
		*extent = er->end;
	return 0;
}
