// SPDX-License-Identifier: MIT
/* cdt_probe: identify, gather the size sources, run the end search. */
#include <stdlib.h>
#include <string.h>
#include "core/abi.h"
#include "core/device.h"
#include "mmc/answer.h"
#include "probe/fsend.h"
#include "probe/endboundary.h"
#include "probe/boundaries.h"
#include "probe/endsearch.h"
#include "probe/judge.h"
#include "probe/layout.h"
#include "probe/probe.h"
#include "probe/trackmodes.h"
#include "probe/qindex.h"
#include "probe/sizes.h"
#include "probe/structure.h"

struct probe_reader {
	struct cdt_dev *dev;
	struct probe_findings *pf;	/* its failed reads noted there */
	const struct cdt_probe_opts *opts;	/* for the progress hook */
	uint64_t reported, reads, failed_reads;
	bool raw;		/* the drive reads true raw sectors: headers witness reads */
	double ms;
	uint8_t *buf;
	uint32_t buf_blocks;
	size_t buf_len;
	struct eb_search es;	/* the search's rounds and boundary: its failures */
	int64_t agreed;		/* probe_agreed_end(), -1: none */
	uint64_t above;		/* the search starts here: an earlier run's end */
	/*
	 * Filler past the reported end (issue 32): zeros, or the last data
	 * block again, is never hidden data.  last_data is the highest block
	 * read that was data (last_lba), data_top 1 + it (every block below
	 * the reported end or above counts as data), filler_lo the lowest
	 * filler block read at or above data_top, there_top 1 + the highest
	 * block alone that failed as a block that is there (MEDIUM, a
	 * timeout, 05/64/00).
	 */
	uint8_t *last_data;
	uint64_t last_lba;
	bool last_known;
	bool filler_past;	/* a block past the reported end was filler */
	uint64_t data_top, filler_lo, there_top;
};

static void keep_data(struct probe_reader *r, uint64_t b, const uint8_t *blk)
{
	uint32_t bs = r->dev->block_size;

	if (b + 1 > r->data_top)
		r->data_top = b + 1;
	if (r->filler_lo < r->data_top)
		r->filler_lo = UINT64_MAX;
	if (!r->last_known || b >= r->last_lba) {
		memcpy(r->last_data, blk, bs);
		r->last_lba = b;
		r->last_known = true;
	}
}

/*
 * Blocks of a GOOD read: at or past the reported end, do they hold
 * anything but filler (all zeros, the last data block read below them
 * again, or the block before them in the same read again: a stale
 * cache)?  Blocks below the reported end are data whatever they hold.
 */
static void note_past(struct probe_reader *r, uint64_t lba, uint32_t got)
{
	uint32_t bs = r->dev->block_size, i;

	if (!r->last_data || !r->reported)
		return;
	for (i = 0; i < got; i++) {
		const uint8_t *blk = r->buf + (size_t)i * bs;
		uint64_t b = lba + i;
		bool filler = b >= r->reported &&
			(probe_filler_block(blk, r->last_known && r->last_lba < b ?
					    r->last_data : NULL, bs) ||
			 (i && !memcmp(blk, blk - bs, bs)));

		if (!filler) {
			keep_data(r, b, blk);
			continue;
		}
		r->filler_past = true;
		if (b >= r->data_top && b < r->filler_lo)
			r->filler_lo = b;
	}
}

/* A block read alone that failed as a block that is there: never filler. */
static void note_there(struct probe_reader *r, uint64_t lba, uint32_t n,
		       const struct es_outcome *o)
{
	if (n == 1 && o->cls != CDT_READ_OK && (o->medium_error || o->wrong_mode ||
						o->cls == CDT_READ_TIMEOUT) &&
	    lba + 1 > r->there_top)
		r->there_top = lba + 1;
}

/* Every read of the search comes through here: tell the caller, who may be waiting minutes. */
static void tell_progress(struct probe_reader *r, uint64_t lba,
			  const struct cdt_read_result *rr)
{
	struct cdt_progress p = { .size = sizeof(p), .phase = CDT_PHASE_SEARCH };

	r->reads++;
	r->failed_reads += rr->cls != CDT_READ_OK && rr->cls != CDT_READ_SHORT;
	r->ms += rr->ms;
	if (!r->opts->progress)
		return;
	p.pos = lba;
	p.total = r->reported;
	p.done = r->reads;
	p.bad = r->failed_reads;
	p.elapsed_ms = r->ms;
	r->opts->progress(r->opts->progress_ctx, &p);
}

/* The caller asked for a stop (a signal): checked before every read. */
static bool stopped(const struct probe_reader *r)
{
	return r->opts && r->opts->stop && *r->opts->stop;
}

/*
 * Where the drive reads raw, the sectors' headers say what a read meant
 * (probe/trackmodes.c): blocks past the reported end that READ(10) returned are
 * data only if their headers name them (not a cached sector again, not
 * the lead-out); blocks READ(10) refuses with 05/64/00 are data of the
 * disc when they are Mode 2 sectors that name themselves (Form 2: a Video
 * CD's last track).  Each changes the read's class as the headers say;
 * a block the headers deny reads as out of range (05/21/00), so the
 * boundary search takes it for the end, not for damage.
 */
static void witness(struct probe_reader *r, uint64_t lba, uint32_t n,
		    struct cdt_read_result *rr)
{
	uint64_t from = lba > r->reported ? lba : r->reported, first;

	if ((rr->cls == CDT_READ_OK || rr->cls == CDT_READ_SHORT) &&
	    lba + n > r->reported &&
	    !probe_raw_confirm(r->dev, from, (uint32_t)(lba + n - from), &first)) {
		rr->cls = CDT_READ_END;
		rr->info_valid = true;
		rr->info = first;
		rr->sense_key = 0x05;
		rr->asc = 0x21;
		rr->ascq = 0;
	} else if (rr->cls == CDT_READ_WRONG_MODE &&
		   probe_raw_confirm(r->dev, lba, n, &first)) {
		/*
		 * The refused READ moved nothing (its residual is the whole
		 * transfer); the headers say every block is there, so none
		 * is missing: without this the search counted none of them
		 * and a Video CD's Form 2 track was not the disc's end.
		 */
		rr->cls = CDT_READ_OK;
		rr->info_valid = false;
		rr->resid = 0;
	}
}

/*
 * The end search's outcome keeps its own terms (endsearch.h): a GOOD read
 * with blocks missing is OK with es_outcome.missing, and a block not of
 * user data answers like the end; the structure (probe/layout.c) and the
 * outcome's wrong_mode tell the two apart.
 */
static enum cdt_read_class es_class(enum cdt_read_class cls, uint32_t n)
{
	if (cls == CDT_READ_SHORT)
		return CDT_READ_OK;
	/*
	 * 05/6F/xx (copy protection, a CSS-scrambled sector): a block read
	 * alone that answers so is on the disc, as a read block is, never
	 * the end and never damage; a longer read's answer says nothing of
	 * the blocks after it, so the search reads smaller, as after a
	 * failed block.
	 */
	if (cls == CDT_READ_PROTECTED)
		return n == 1 ? CDT_READ_OK : CDT_READ_MEDIUM;
	return cls == CDT_READ_WRONG_MODE ? CDT_READ_END : cls;
}

/*
 * [lba, lba+n) read, witnessed where the drive reads raw, the filler past
 * the agreed end noted, the answer as an es_outcome: what both the
 * search's reads and the boundary's one-block reads share.
 */
static int read_witnessed(struct probe_reader *r, uint64_t lba, uint32_t n,
			  struct cdt_read_result *rr, struct es_outcome *out)
{
	uint32_t bs = r->dev->block_size ? r->dev->block_size : 1;
	int rc;

	if (n > r->buf_blocks)
		return CDT_EUSAGE;
	if (stopped(r))
		return CDT_EINTR;
	rc = probe_read_blocks(r->dev, r->pf, lba, n, r->buf, r->buf_len, rr);
	if (rc)
		return rc;
	if (rr->cls == CDT_READ_CHANGED)
		return CDT_ECHANGED;
	if (r->raw)
		witness(r, lba, n, rr);
	out->cls = es_class(rr->cls, n);
	out->info_valid = rr->info_valid;
	out->info = rr->info;
	out->ms = rr->ms;
	/* a GOOD read's residual: whole blocks that did not arrive */
	if (rr->cls == CDT_READ_SHORT)
		out->missing = (uint32_t)((rr->resid + bs - 1) / bs);
	out->medium_error = answer_is_medium_error(rr->sense_key);
	out->wrong_mode = rr->cls == CDT_READ_WRONG_MODE;
	out->user_area_end = answer_is_end_of_user_area(rr->sense_key, rr->asc);
	/* only the blocks that arrived: a GOOD read's residual is not data */
	if (rr->cls == CDT_READ_PROTECTED && n == 1 && lba + 1 > r->there_top)
		r->there_top = lba + 1;
	else if ((rr->cls == CDT_READ_OK || rr->cls == CDT_READ_SHORT) &&
	    out->missing < n && !r->raw)
		note_past(r, lba, n - out->missing);
	else
		note_there(r, lba, n, out);
	return 0;
}

/* The search's reads (es_read_fn): counted, and told to the caller. */
static int probe_read(void *ctx, uint64_t lba, uint32_t n,
		      struct es_outcome *out)
{
	struct probe_reader *r = ctx;
	struct cdt_read_result rr = CDT_INIT(rr);
	int rc = read_witnessed(r, lba, n, &rr, out);

	if (rc)
		return rc;
	tell_progress(r, lba, &rr);
	if (rr.cls == CDT_READ_TIMEOUT)
		cdt_dev_seterr(r->dev, "READ at LBA %llu did not complete within the timeout",
			       (unsigned long long)lba);
	else if (rr.cls == CDT_READ_FATAL)
		cdt_dev_seterr(r->dev, "READ at LBA %llu failed: sense %02x/%02x/%02x",
			       (unsigned long long)lba, rr.sense_key, rr.asc, rr.ascq);
	return 0;
}

/* One block on its own for the boundary (es_read_fn): not the search's count. */
static int probe_read_alone(void *ctx, uint64_t lba, uint32_t n,
			    struct es_outcome *out)
{
	struct cdt_read_result rr = CDT_INIT(rr);

	return read_witnessed(ctx, lba, n, &rr, out);
}

/*
 * How far READ CAPACITY must lie past the filesystem for the medium to be
 * a formatted one with unwritten space, not a drive's error of a block or
 * two: one BD cluster (32 blocks of 2048 bytes, two DVD ECC blocks).
 */
#define FORMATTED_SLACK_BYTES 65536u

/*
 * A formatted rewritable medium (DVD+RW, DVD-RAM, BD-RE) whose READ
 * CAPACITY, the formatted size, lies far past the filesystem, the written
 * data: known from the medium before any block is read, whatever the end
 * search then meets (bad blocks at the filesystem's end are damage, not
 * the end).
 */
static bool formatted_medium(const struct cdt_layout *l, const struct cdt_sizes *sz)
{
	uint64_t slack;

	if (!l || !l->formatted || sz->filesystem <= 0 || sz->read_capacity <= 0 ||
	    !sz->block_size)
		return false;
	slack = FORMATTED_SLACK_BYTES / sz->block_size;
	return (uint64_t)sz->read_capacity > (uint64_t)sz->filesystem + slack;
}

static void add_candidate(struct es_params *p, int64_t v)
{
	if (v > 0 && p->ncandidates < ES_MAX_CANDIDATES)
		p->candidates[p->ncandidates++] = (uint64_t)v;
}

/*
 * The search runs on the last track: it starts there (floor), so nothing
 * before it (audio, a gap, a run-out inside the disc) can be the end.
 * DISC INFO's last possible lead-out is a blank disc's capacity, not a
 * data end: shown, never a candidate; nor is a formatted medium's
 * filesystem size, the end of its written data.
 */
static void fill_params(struct es_params *p, const struct cdt_sizes *sz,
			const struct cdt_layout *l, uint64_t max_extra,
			uint32_t max_read)
{
	const struct cdt_track *last = layout_last_track(l);

	memset(p, 0, sizeof(*p));
	p->reported = (uint64_t)sz->read_capacity;
	p->max_extra = max_extra ? max_extra : CDT_DEFAULT_MAX_EXTRA;
	/* the end search never needs big transfers to be correct */
	p->max_read_blocks = max_read;
	/* DVD and BD are recorded in whole ECC blocks and clusters (endsearch.c) */
	p->unit = probe_bd_profile(sz->profile) ? 32 : probe_dvd_profile(sz->profile) ? 16 : 1;
	if (l && l->has_toc && last && last->mode == CDT_TRACK_DATA) {
		p->floor = last->start;
		if (p->reported < p->floor)
			p->reported = p->floor;
	}
	add_candidate(p, sz->toc_leadout);
	add_candidate(p, sz->track_end);
	/* a formatted medium reads past its filesystem: never the end there */
	if (!formatted_medium(l, sz))
		add_candidate(p, sz->filesystem);
	add_candidate(p, sz->kernel);
}

/* Does a source beside READ CAPACITY put the end at reported too? */
static bool end_agreed(const struct cdt_sizes *sz, uint64_t reported)
{
	return sz->toc_leadout == (int64_t)reported || sz->track_end == (int64_t)reported;
}

/* 05/64/00, or (with user_area) 05/63/00 END OF USER AREA as well */
static bool not_user_data(const struct eb_failure *f, bool user_area)
{
	return f && (f->wrong_mode || (user_area && f->user_area_end));
}

/*
 * One block: 1 it answers 05/64/00 (or 05/63/00 with user_area), 0
 * anything else, <0 an error.  A failed read of that block alone, kept
 * from the search, is its answer.
 */
static int wrong_mode_answer(struct probe_reader *r, uint64_t lba, bool user_area)
{
	const struct eb_failure *f = eb_failure_at(&r->es, lba);
	int rc;

	if (f && f->n == 1 && f->lba == lba)
		return not_user_data(f, user_area);
	rc = eb_class_at(&r->es, lba);

	if (rc <= 0)
		return rc;
	return not_user_data(eb_failure_at(&r->es, lba), user_area);
}

static int wrong_mode_at(struct probe_reader *r, uint64_t lba)
{
	return wrong_mode_answer(r, lba, false);
}

/*
 * A TAO-written CD ends in a run-out the drive reports but answers with
 * 05/64/00 "illegal mode for this track" (or 05/63/00); an over-reporting
 * drive says LBA out of range, and MEDIUM ERROR is a damaged block, never
 * a run-out (issue 32).  It starts where the search ended, or past the
 * MEDIUM ERROR blocks it ended at (the drive's first END-class block,
 * extent); every block from there to the reported end must answer so
 * (the search read the last one first, so mostly no read is needed).
 * Sets *runout (probe_runout_blocks()); 0 or a read's error.
 */
static int runout_at_end(struct probe_reader *r, const struct es_result *er,
			 uint64_t extent, uint64_t reported, unsigned int *runout)
{
	uint64_t from = er->medium_end ? extent : er->end, lba;
	int rc;

	*runout = 0;
	if (er->nothing_readable && er->medium_end)
		return 0;
	if (!probe_runout_blocks(from, reported, true))
		return 0;
	for (lba = from; lba < reported; lba++) {
		rc = wrong_mode_answer(r, lba, true);
		if (rc <= 0)
			return rc;
	}
	*runout = probe_runout_blocks(from, reported, true);
	return 0;
}

/*
 * 05/64/00 ILLEGAL MODE FOR THIS TRACK ends the disc only where the
 * structure puts a TAO run-out: the last 2 blocks of the data track that
 * ends at the reported length.  The search's boundary (the first block
 * the drive does not hold, above a trailing bad run if one came first)
 * lies lower, at a 05/64/00: where another source agrees with READ
 * CAPACITY, the last 2 reported blocks answer 05/64/00 (a run-out there,
 * not past the end) and so does the block just below them, the blocks
 * from the boundary up are Mode 2 Form 2 sectors of the track (READ(10)
 * cannot give them as 2048-byte data; dvdisaster issue 62,
 * doc/disc-kinds.md): the disc holds them, up to the run-out, and a bad
 * run below them is damage inside the disc, not its end.  Up to three
 * reads, failing, fewer where the search read those blocks alone.
 */
static int form2_below_runout(struct probe_reader *r, const struct cdt_probe_result *res,
			      const struct cdt_layout *l, struct es_result *er,
			      uint64_t *extent)
{
	const struct cdt_track *last = layout_last_track(l);
	const struct eb_failure *f = eb_failure_at(&r->es, *extent);
	uint64_t rep = r->reported;
	int rc;

	if (!f || !f->wrong_mode || rep < 3 || *extent + 2 >= rep ||
	    !end_agreed(&res->sizes, rep) || (last && last->mode != CDT_TRACK_DATA))
		return 0;
	rc = wrong_mode_at(r, rep - 1);
	if (rc == 1)
		rc = wrong_mode_at(r, rep - 3);
	if (rc == 1)
		rc = wrong_mode_at(r, rep - 2);
	if (rc != 1)
		return rc;
	er->end = rep - 2;
	*extent = er->end;
	er->medium_end = false;
	return 1;
}

/* The search's end is now end: nothing past it, nothing below it missing. */
static void hold_at(struct es_result *er, uint64_t *extent, uint64_t end,
		    bool *window_limit)
{
	er->end = end;
	er->medium_end = false;
	er->window_limit = false;
	*extent = end;
	*window_limit = false;
}

/*
 * Does the search's end fail as damage (probe_damaged_before()'s
 * medium_at_end)?  MEDIUM ERROR or a timeout, but just before a run-out
 * only MEDIUM ERROR: a block that never answered there may be the
 * run-out's own (a read of one can hang a drive), so the old answer
 * stays (trailing-medium-error) and a resume searches again.
 */
static bool damage_at(const struct probe_reader *r, const struct es_result *er,
		      unsigned int runout)
{
	const struct eb_failure *f = eb_failure_at(&r->es, er->end);

	return er->medium_end && (!runout || (f && f->medium_error));
}

/*
 * Where the structure agrees on the reported end (probe/judge.c): a
 * MEDIUM ERROR run up to it, or up to the run-out that closes it (runout
 * blocks), is damage inside the disc (damaged-tail, the image marks
 * those blocks bad; with tao-runout too), and filler read past it with
 * no header to witness it is no hidden tail (unconfirmed-tail), on a CD
 * however far it reaches (filler_end has taken the window's and the far
 * cases, on any medium).  Either way the agreed end stands (its run-out
 * left out), and the extent with it.
 */
static void agreed_end(struct probe_reader *r, struct cdt_probe_result *res,
		       struct es_result *er, unsigned int runout, bool *window_limit)
{
	uint64_t agreed = (uint64_t)r->agreed;

	/* nothing read at all: no block says the disc is there */
	if (r->agreed <= 0 || er->nothing_readable)
		return;
	if (probe_damaged_before(&res->sizes, er->end, res->extent_blocks,
				 damage_at(r, er, runout), runout)) {
		res->notes |= CDT_NOTE_DAMAGED_TAIL | (runout ? CDT_NOTE_TAO_RUNOUT : 0);
		res->damaged_tail_blocks = agreed - runout - er->end;
		hold_at(er, &res->extent_blocks, agreed - runout, window_limit);
		return;
	}
	/* a search from above agreed: an earlier run read the blocks between */
	if (r->above <= agreed &&
	    probe_tail_unconfirmed(&res->sizes, er->end, r->raw, r->filler_past,
				   r->data_top > agreed)) {
		res->notes |= CDT_NOTE_UNCONFIRMED_TAIL;
		res->unconfirmed_blocks = er->end - agreed;
		hold_at(er, &res->extent_blocks, agreed, window_limit);
	}
}

/* The largest size source: reads past it succeed past every one. */
static int64_t largest_source(const struct cdt_sizes *sz)
{
	int64_t v[] = { sz->read_capacity, sz->toc_leadout, sz->track_end,
			sz->filesystem, sz->kernel }, top = 0;
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i] > top)
			top = v[i];
	return top;
}

/*
 * Past the lowest filler block read, [data_top, top): bisect it down to
 * FILL_SPAN blocks, then read it all, so data_top is 1 + the last block
 * below top that is not filler.  The search reads every block up to 512
 * above the reported end, runs up to 8192, then single blocks 512 apart,
 * so the span left is seldom more than one gap.
 */
#define FILL_SPAN 1024

static int fill_in(struct probe_reader *r, uint64_t top)
{
	uint64_t lo = r->data_top, lba, alone = 0;
	struct es_outcome o;
	uint32_t n;
	int rc;

	while (lo < top && top - lo > FILL_SPAN) {
		lba = lo + (top - lo) / 2;
		memset(&o, 0, sizeof(o));
		rc = probe_read(r, lba, 1, &o);
		if (rc)
			return rc;
		/* data, or a block that is there: the filler starts above it */
		if (r->data_top > lba || r->there_top > lba)
			lo = lba + 1;
		else
			top = lba;
	}
	lba = r->data_top > lo ? r->data_top : lo;
	while (lba < top) {
		n = top - lba < r->buf_blocks ? (uint32_t)(top - lba) : r->buf_blocks;
		if (lba < alone)
			n = 1;
		memset(&o, 0, sizeof(o));
		rc = probe_read(r, lba, n, &o);
		if (rc)
			return rc;
		/* a chunk that failed: its blocks alone, each one noted */
		if ((o.cls != CDT_READ_OK || o.missing) && n > 1) {
			alone = lba + n;
			continue;
		}
		lba += n;
	}
	return 0;
}

/* Block lba alone: 1 it reads as cmp, 0 it reads otherwise or fails, <0 an error. */
static int reads_as(struct probe_reader *r, uint64_t lba, const uint8_t *cmp)
{
	struct es_outcome o;
	int rc;

	memset(&o, 0, sizeof(o));
	rc = probe_read(r, lba, 1, &o);
	if (rc)
		return rc;
	return o.cls == CDT_READ_OK && !o.missing && !memcmp(r->buf, cmp, r->dev->block_size);
}

/*
 * A stale cache answers past the end with the last block again, and a
 * read far past it cannot tell the copy from data: the first block of a
 * run of identical blocks ending at *t - 1 is the data, the rest filler.
 * Gallop down while blocks read the same, then bisect; never below the
 * reported end.  One read where block *t - 2 differs.  *t is then 1 + the
 * last block read that is not filler.
 */
static int repeat_start(struct probe_reader *r, uint64_t *t)
{
	uint32_t bs = r->dev->block_size;
	uint64_t hi = *t - 1, lo, d = 1, mid;
	uint8_t *cmp;
	int rc = 0;

	if (*t < r->reported + 2 || !r->last_known || r->last_lba != hi ||
	    probe_filler_block(r->last_data, NULL, bs))
		return 0;
	cmp = malloc(bs);
	if (!cmp)
		return CDT_ENOMEM;
	memcpy(cmp, r->last_data, bs);
	for (;;) {
		lo = hi >= r->reported + d ? hi - d : r->reported;
		rc = reads_as(r, lo, cmp);
		if (rc <= 0)
			break;
		hi = lo;
		if (lo == r->reported)
			break;
		d *= 2;
	}
	while (rc == 0 && hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		rc = reads_as(r, mid, cmp);
		if (rc > 0)
			hi = mid;
		else if (!rc)
			lo = mid;
		if (rc > 0)
			rc = 0;
	}
	free(cmp);
	if (rc < 0)
		return rc;
	/*
	 * Right above a block that is there but failed: the run repeats
	 * that block (what the drive holds of it), all of it filler.
	 */
	*t = r->there_top == hi ? hi - 1 : hi + 1;
	return 0;
}

/*
 * Filler is never hidden data (issue 32): where reads past the reported
 * end succeeded up to the window's edge or far past every size source
 * (FILLER_PAST_SOURCES), the
 * true end is 1 + the last block that is not filler (fill_in reads what
 * the search left unread below the lowest filler block), or the
 * filesystem's size where it covers the filler; the filler beyond is
 * unconfirmed-tail with its count, and the extent stops at the true end,
 * or past a block there that failed (a last block that does not read).
 * A run-out ends the search below the reported end, so filler after it
 * changes nothing.  Where the drive reads raw sectors, their headers
 * decided each block already (witness).
 */
/*
 * Reads that succeed this far past every size source without reaching the
 * window are a drive reading the lead-out (at least 6750 sectors, 90 s,
 * on a CD), not a hidden tail that merely ends in zeros (a zero-padded
 * image whose drive hides a few blocks keeps them).
 */
#define FILLER_PAST_SOURCES 6750

static int filler_end(struct probe_reader *r, struct cdt_probe_result *res,
		      struct es_result *er, bool *window_limit)
{
	const struct cdt_sizes *sz = &res->sizes;
	uint64_t e = er->end > res->extent_blocks ? er->end : res->extent_blocks;
	uint64_t t, there, reads = r->reads, failed = r->failed_reads;
	double ms = r->ms;
	int rc;

	if (r->raw || er->nothing_readable || !r->filler_past || !r->reported ||
	    !(er->window_limit || *window_limit ||
	      (int64_t)e >= largest_source(sz) + FILLER_PAST_SOURCES))
		return 0;
	rc = fill_in(r, r->filler_lo < e ? r->filler_lo : e);
	t = r->data_top;
	if (!rc)
		rc = repeat_start(r, &t);
	/* the reads that placed the end are the search's too */
	er->reads += r->reads - reads;
	er->failed_reads += r->failed_reads - failed;
	er->ms += r->ms - ms;
	if (rc)
		return rc;
	if (sz->filesystem > 0 && (uint64_t)sz->filesystem > t && (uint64_t)sz->filesystem <= e)
		t = (uint64_t)sz->filesystem;
	there = r->there_top > t && r->there_top <= e ? r->there_top : t;
	if (there >= e)
		return 0;
	if (t > r->data_top && there == t)
		r->pf->filler_from = r->data_top;
	er->end = t;
	er->medium_end = there > t;
	er->window_limit = false;
	*window_limit = false;
	res->extent_blocks = there;
	res->notes |= CDT_NOTE_UNCONFIRMED_TAIL;
	res->unconfirmed_blocks = e - there;
	return 0;
}

static int run_search(struct cdt_dev *dev, struct probe_findings *pf,
		      const struct cdt_probe_opts *opts, uint64_t above,
		      struct cdt_probe_result *res, struct es_result *er)
{
	struct probe_reader r = { .dev = dev, .pf = pf, .opts = opts,
				  .reported = (uint64_t)res->sizes.read_capacity,
				  /* made-up sectors (QEMU's ide-cd: zero EDC/ECC,
				   * and its header M:S:F binary, not BCD) witness
				   * nothing; Form 2 and formless Mode 2 have no
				   * EDC/ECC to hold (a Video CD after audio) */
				  .raw = probe_raw_witnesses(&res->raw, pf->layout) };
	struct es_params p;
	bool window_limit = false;
	unsigned int runout = 0;
	int rc;

	r.es = (struct eb_search){ .read = probe_read, .probe = probe_read_alone,
				   .ctx = &r, .stop = opts->stop };
	r.buf_blocks = cdt_max_read_blocks(dev);
	r.buf_len = (size_t)r.buf_blocks * dev->block_size;
	r.buf = malloc(r.buf_len);
	r.agreed = probe_agreed_end(&res->sizes);
	r.above = above;
	/* an earlier run read the blocks below above: data, as it judged */
	r.data_top = r.reported > above ? r.reported : above;
	r.filler_lo = UINT64_MAX;
	pf->filler_from = 0;
	r.last_data = malloc(dev->block_size ? dev->block_size : 1);
	if (!r.buf || !r.last_data) {
		free(r.buf);
		free(r.last_data);
		return CDT_ENOMEM;
	}
	fill_params(&p, &res->sizes, pf->layout, opts->max_extra, r.buf_blocks);
	add_candidate(&p, res->structure_blocks);
	add_candidate(&p, res->recorded_end);
	if (above > p.floor)
		p.floor = above;
	dev->errmsg[0] = '\0';
	rc = eb_rounds(&r.es, &p, er, &res->extent_blocks, &window_limit);
	if (!rc && !stopped(&r)) {
		rc = form2_below_runout(&r, res, pf->layout, er, &res->extent_blocks);
		if (rc == 1)
			res->notes |= CDT_NOTE_FORM2;
		rc = rc < 0 ? rc : 0;
	}
	if (!rc && !stopped(&r))
		rc = runout_at_end(&r, er, res->extent_blocks, p.reported, &runout);
	/* the end at the run-out; past MEDIUM ERROR blocks only as damage */
	if (!rc && runout && !er->medium_end)
		res->notes |= CDT_NOTE_TAO_RUNOUT;
	if (!rc && !stopped(&r))
		rc = filler_end(&r, res, er, &window_limit);
	if (!rc && !stopped(&r))
		agreed_end(&r, res, er, runout, &window_limit);
	if (window_limit)
		res->notes |= CDT_NOTE_WINDOW_LIMIT;
	/* a stop during the boundary search: its guess is not to be used */
	if (!rc && stopped(&r))
		rc = CDT_EINTR;
	free(r.buf);
	free(r.last_data);
	if (rc == CDT_ETIMEOUT)
		cdt_dev_seterr(dev, "the drive stopped answering: %d reads in a row did not complete within the timeout in the end search; run the same command again when it answers",
			       CDT_TIMEOUTS_IN_ROW);
	else if (rc && !dev->errmsg[0])
		cdt_dev_seterr(dev, "end search failed: %s", cdt_strerror(rc));
	return rc;
}

static void capacity_after(struct cdt_dev *dev, struct cdt_probe_result *res)
{
	uint64_t blocks;
	uint32_t bs;

	res->capacity_after = CDT_SIZE_ABSENT;
	if (cdt_probe_read_capacity(dev, &blocks, &bs))
		return;
	res->capacity_after = (int64_t)blocks;
	if (blocks != res->reported_blocks)
		res->notes |= CDT_NOTE_CAPACITY_CHANGED;
}

static void judge(struct cdt_probe_result *res, const struct es_result *er)
{
	unsigned int runout = 0;

	res->true_blocks = er->end;
	res->hidden_blocks = (int64_t)er->end - (int64_t)res->reported_blocks;
	/*
	 * extent_blocks was set by run_search: a drive that says "out of
	 * range" past its end but "medium error" for the blocks before it
	 * holds them, unreadable, and an image keeps them, marked bad.  A
	 * drive that answers medium error everywhere past the end (tgt) says
	 * nothing of the kind.
	 */
	if (er->medium_end)
		res->notes |= CDT_NOTE_TRAILING_MEDIUM;
	if (er->window_limit)
		res->notes |= CDT_NOTE_WINDOW_LIMIT;
	if (er->nothing_readable)
		res->notes |= CDT_NOTE_NO_READABLE;
	/*
	 * A TAO run-out the structure explains (the last 1 or 2 reported
	 * blocks answer 05/64/00, MMC-6 4.2.3.6) is how every TAO CD-R ends:
	 * no data is missing, so the verdict is ok (hidden_blocks stays -2
	 * for the scripts that look); short is kept for a disc that holds
	 * less.  The note is given only where the end lies at the run-out.
	 */
	if ((res->notes & CDT_NOTE_TAO_RUNOUT) && res->hidden_blocks < 0 &&
	    res->hidden_blocks >= -(int64_t)PROBE_RUNOUT_MAX)
		runout = (unsigned int)-res->hidden_blocks;
	res->verdict = probe_verdict(res->hidden_blocks, runout, er->nothing_readable);
	res->reads = er->reads;
	res->failed_reads = er->failed_reads;
	res->search_ms = er->ms;
}

/*
 * The last track is audio (a mixed-mode CD): READ(10) cannot read it, so
 * there is nothing to search; the end is where the structure puts it.
 */
static bool audio_last(const struct cdt_layout *l, struct es_result *er)
{
	const struct cdt_track *last = layout_last_track(l);

	if (!l || !l->has_toc || !last || last->mode != CDT_TRACK_AUDIO)
		return false;
	memset(er, 0, sizeof(*er));
	er->end = last->start + last->blocks;
	return true;
}

/* What the structure says beyond the search: notes, and the skip list. */
static int judge_layout(struct cdt_layout *l, struct cdt_probe_result *res)
{
	const struct cdt_sizes *sz = &res->sizes;

	if (!l)
		return 0;
	if (l->appendable)
		res->notes |= CDT_NOTE_APPENDABLE;
	/*
	 * Past the filesystem lies unwritten formatted space: the medium
	 * says so (READ CAPACITY far past it), or the search found the end
	 * past it.  Said so, but the verdict stays the search's, true
	 * against reported (a DVD-RAM that over-reports a block is still
	 * short, a BD-RE that hides blocks still has a hidden tail).
	 */
	if (formatted_medium(l, sz) || (l->formatted && sz->filesystem > 0 &&
					res->true_blocks > (uint64_t)sz->filesystem))
		res->notes |= CDT_NOTE_FORMATTED;
	return layout_finish(l, res->extent_blocks,
			     res->notes & CDT_NOTE_TAO_RUNOUT);
}

/* The verdict on the end er found, the structure's notes, the stats. */
static int probe_finish(struct cdt_dev *dev, struct probe_findings *pf,
			struct cdt_probe_result *res, const struct es_result *er)
{
	int rc;

	judge(res, er);
	rc = judge_layout(pf->layout, res);
	if (rc)
		return rc;
	pf->extent = res->extent_blocks;
	probe_publish(dev, pf);
	capacity_after(dev, res);
	cdt_get_stats(dev, &res->stats);
	return 0;
}

/*
 * A medium change (06/28/00) under a probe: every answer before it came
 * from the disc that was there, every one after from the new one, so the
 * size sources, the layout and the end must all be read again, never mixed.
 * A drive that keeps changing is given up on after this many starts.
 */
#define PROBE_STARTS 4

static int kept_changing(struct cdt_dev *dev)
{
	cdt_dev_seterr(dev, "the medium changed %d times while it was probed",
		       PROBE_STARTS);
	return CDT_ECHANGED;
}

static int begin_once(struct cdt_dev *dev, struct probe_findings *pf,
		      struct cdt_probe_result *res)
{
	int rc;

	cdt_reset_stats(dev);
	res->inq.size = sizeof(res->inq);
	res->sizes.size = sizeof(res->sizes);
	res->stats.size = sizeof(res->stats);
	rc = cdt_inquiry(dev, &res->inq);
	if (rc)
		return rc;
	rc = probe_sizes(dev, pf, &res->sizes);
	res->sizes.size = sizeof(res->sizes);
	if (rc)
		return rc;
	res->reported_blocks = (uint64_t)res->sizes.read_capacity;
	probe_raw(dev, pf, res);
	probe_structure(dev, res);
	probe_recorded_track(dev, res);
	return 0;
}

int probe_begin(struct cdt_dev *dev, struct probe_findings *pf,
		struct cdt_probe_result *res)
{
	unsigned int seen;
	int i, rc;

	for (i = 0; i < PROBE_STARTS; i++) {
		seen = dev->medium_changes;
		rc = begin_once(dev, pf, res);
		if (dev->medium_changes == seen)
			return rc;
	}
	return kept_changing(dev);
}

int probe_end_above(struct cdt_dev *dev, struct probe_findings *pf,
		    const struct cdt_probe_opts *opts, uint64_t above,
		    struct cdt_probe_result *res)
{
	unsigned int seen = dev->medium_changes;
	struct es_result er;
	int rc = 0;

	if (audio_last(pf->layout, &er)) {
		res->notes |= CDT_NOTE_LAST_TRACK_AUDIO;
		res->extent_blocks = er.end;
	} else {
		rc = run_search(dev, pf, opts, above, res, &er);
	}
	if (!rc)
		rc = probe_finish(dev, pf, res, &er);
	if (!rc)
		rc = probe_fs_end(dev, pf, res);
	/* the end of one disc beside the sizes of another: never */
	if (dev->medium_changes != seen) {
		cdt_dev_seterr(dev, "the medium changed during the end search");
		return CDT_ECHANGED;
	}
	return rc;
}

int probe_end(struct cdt_dev *dev, struct probe_findings *pf,
	      const struct cdt_probe_opts *opts, struct cdt_probe_result *res)
{
	return probe_end_above(dev, pf, opts, 0, res);
}

/* The whole probe, again from the start while the medium changes under it. */
int probe_whole(struct cdt_dev *dev, struct probe_findings *pf,
		const struct cdt_probe_opts *opts, bool raw,
		struct cdt_probe_result *res)
{
	int i, rc;

	for (i = 0; i < PROBE_STARTS; i++) {
		memset(res, 0, sizeof(*res));
		res->size = sizeof(*res);
		rc = probe_begin(dev, pf, res);
		if (!rc)
			rc = probe_end(dev, pf, opts, res);
		if (!rc && raw && probe_raw_trusted(&res->raw, pf->layout))
			rc = probe_raw_boundaries(dev, pf);
		if (!rc && raw)
			rc = probe_q_marks_published(dev, pf, res);
		if (rc != CDT_ECHANGED)
			return rc;
	}
	return kept_changing(dev);
}

int probe_known_end(struct cdt_dev *dev, struct probe_findings *pf,
		    uint64_t true_blocks, uint64_t extent,
		    struct cdt_probe_result *res)
{
	struct es_result er = { .end = true_blocks };
	int rc = probe_begin(dev, pf, res);

	if (rc)
		return rc;
	res->extent_blocks = extent;
	return probe_finish(dev, pf, res, &er);
}

int cdt_probe(struct cdt_dev *dev, const struct cdt_probe_opts *opts,
	      struct cdt_probe_result *res)
{
	struct probe_findings pf = { 0 };
	struct cdt_probe_opts o;
	struct cdt_probe_result full;
	int rc = cdt_abi_enter(dev, opts, NULL, &o, sizeof(o), res, &full,
			       sizeof(full), "cdt_probe");

	if (!rc)
		rc = probe_whole(dev, &pf, &o, false, &full);
	/* probe shows the pregaps and index marks Q gives (issue 33) */
	if (!rc)
		rc = probe_q_marks_published(dev, &pf, &full);
	probe_findings_free(&pf);
	cdt_abi_out(res, &full, sizeof(full));
	return rc;
}
