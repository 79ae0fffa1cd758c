// SPDX-License-Identifier: MIT
/*
 * Imaging: the rescue engine (ddrescue's passes over a map) and
 * cdt_image() around it.
 *
 * Invariants that make a killed run resumable:
 *  - a block is marked finished in the map only after its data went to the
 *    output with pwrite, and the map file is replaced only after an
 *    fdatasync of the output, so the saved map never claims more than the
 *    output holds, whatever moment the process dies at;
 *  - the output is created (or truncated with force) at the extent's size
 *    before the first map is saved, so blocks never read good are zeros:
 *    bad blocks need no explicit zero-fill.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "core/abi.h"
#include "core/device.h"
#include "probe/probe.h"
#include "rescue/image.h"
#include "rescue/lock.h"

#define RESCUE_PROGRESS_MS 250
#define RESCUE_DEFAULT_SAVE_MS 5000
#define RESCUE_DEFAULT_CHUNK_BYTES 65536u

enum span_outcome {
	SPAN_BAD = 0,
	SPAN_GOOD = 1,
};

double rescue_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

const char *cdt_phase_name(enum cdt_phase phase)
{
	static const char *const names[] = {
		[CDT_PHASE_COPY] = "copying",
		[CDT_PHASE_TRIM] = "trimming",
		[CDT_PHASE_SCRAPE] = "scraping",
		[CDT_PHASE_RETRY] = "retrying",
		[CDT_PHASE_COMPARE] = "comparing",
		[CDT_PHASE_DIGEST] = "hashing",
		[CDT_PHASE_SEARCH] = "searching",
	};

	if ((unsigned int)phase >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	return names[phase];
}

void rescue_summary_free(struct cdt_read_summary *sum)
{
	free(sum->bad);
	sum->bad = NULL;
	sum->n_bad = 0;
}

int rescue_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t w = pwrite(fd, p, len, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return CDT_EIO;
		p += w;
		len -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

uint32_t rescue_chunk_blocks(struct cdt_dev *dev, uint32_t bs, uint32_t want)
{
	uint32_t max = cdt_max_read_blocks(dev);

	if (!want) {
		want = RESCUE_DEFAULT_CHUNK_BYTES / bs;
		if (!want)
			want = 1;
	}
	return want < max ? want : max;
}

/* The end search's options from the read options: window, progress, stop. */
static void probe_opts(const struct cdt_read_opts *rd, struct cdt_probe_opts *po)
{
	po->max_extra = rd ? rd->max_extra : 0;
	po->progress = rd ? rd->progress : NULL;
	po->progress_ctx = rd ? rd->progress_ctx : NULL;
	po->stop = rd ? rd->stop : NULL;
}

int rescue_probe(struct cdt_dev *dev, const struct cdt_read_opts *rd,
		 struct cdt_read_summary *sum)
{
	struct cdt_probe_opts po = CDT_INIT(po);
	int rc;

	probe_opts(rd, &po);
	sum->size = sizeof(*sum);
	sum->probe.size = sizeof(sum->probe);
	sum->stats.size = sizeof(sum->stats);
	rc = cdt_probe(dev, &po, &sum->probe);
	if (rc)
		return rc;
	sum->block_size = sum->probe.sizes.block_size;
	if (!sum->block_size) {
		cdt_dev_seterr(dev, "the drive reported a block size of 0");
		return CDT_ETRANSPORT;
	}
	return 0;
}

/* ---- the engine ---------------------------------------------------------- */

static void progress(struct rescue *r, bool force)
{
	const struct cdt_read_opts *rd = r->rd;
	struct cdt_progress p;
	double now;

	if (!rd || !rd->progress)
		return;
	now = rescue_now_ms();
	if (!force && now - r->last_progress_ms < RESCUE_PROGRESS_MS)
		return;
	r->last_progress_ms = now;
	p = (struct cdt_progress){
		.size = sizeof(p),
		.phase = r->phase,
		.pass = r->pass,
		.pos = r->map->cur_pos / r->bs,
		.total = r->map->size / r->bs,
		.done = map_count(r->map, MAP_FINISHED) / r->bs,
		.bad = (map_count(r->map, MAP_BAD) + map_count(r->map, MAP_NONTRIMMED) +
			map_count(r->map, MAP_NONSCRAPED)) / r->bs,
		.bytes_read = r->bytes_read,
		.elapsed_ms = now - r->t0,
		.bad_areas = map_areas(r->map, "-*/"),
		.non_tried = map_count(r->map, MAP_NONTRIED) / r->bs,
		.non_trimmed = map_count(r->map, MAP_NONTRIMMED) / r->bs,
		.non_scraped = map_count(r->map, MAP_NONSCRAPED) / r->bs,
	};
	rd->progress(rd->progress_ctx, &p);
}

void rescue_comment(char *buf, size_t cap, const char *base, const struct disc_id *id)
{
	size_t used;

	base = base ? base : "";
	snprintf(buf, cap, "%s%s", base, *base ? "\n" : "");
	used = strlen(buf);
	id_format(id, buf + used, cap - used);
}

int rescue_save(struct rescue *r)
{
	const char *comment;
	char err[300];
	int rc;

	r->last_save_ms = rescue_now_ms();
	if (!r->map_path)
		return 0;
	/* the map must never claim data the output does not durably hold */
	if (fdatasync(r->fd)) {
		cdt_dev_seterr(r->dev, "cannot sync the output: %s", strerror(errno));
		return CDT_EIO;
	}
	comment = r->map_comment;
	if (r->id && r->comment_buf) {
		rescue_comment(r->comment_buf, r->comment_cap, r->map_comment, r->id);
		comment = r->comment_buf;
	}
	if (r->map_lock)
		rc = map_save_locked(r->map_path, r->map, comment, r->map_lock,
				     true, err, sizeof(err));
	else
		rc = map_save(r->map_path, r->map, comment, err, sizeof(err));
	if (rc)
		cdt_dev_seterr(r->dev, "%s", err);
	return rc;
}

static int maybe_save(struct rescue *r)
{
	unsigned int every = r->map_interval_ms ? r->map_interval_ms :
		RESCUE_DEFAULT_SAVE_MS;

	if (rescue_now_ms() - r->last_save_ms < every)
		return 0;
	return rescue_save(r);
}

static void enter_phase(struct rescue *r, enum cdt_phase phase, unsigned int pass)
{
	static const char status[] = {
		[CDT_PHASE_COPY] = MAP_NONTRIED,
		[CDT_PHASE_TRIM] = MAP_NONTRIMMED,
		[CDT_PHASE_SCRAPE] = MAP_NONSCRAPED,
		[CDT_PHASE_RETRY] = MAP_BAD,
	};

	r->phase = phase;
	r->pass = pass;
	r->map->cur_status = status[phase];
	r->map->cur_pass = pass;
	progress(r, true);
}

/* Skipped areas are zeros in OUT: the stream takes them as such. */
static void stream_skipped(struct rescue *r)
{
	const struct cdt_skip *k;

	while (r->skip && !r->stream_broken &&
	       (k = skip_at(r->skip, r->stream_pos / r->bs))) {
		uint64_t end = (k->start + k->blocks) * r->bs;

		if (dg_zeros(r->stream, end - r->stream_pos))
			r->stream_broken = true;
		r->stream_pos = end;
	}
}

static void feed_stream(struct rescue *r, uint64_t off, size_t len)
{
	if (!r->stream || r->stream_broken)
		return;
	stream_skipped(r);
	/* only an unbroken run of good reads from 0 gives the digest */
	if (off != r->stream_pos || dg_update(r->stream, r->buf, len)) {
		r->stream_broken = true;
		return;
	}
	r->stream_pos += len;
	stream_skipped(r);
}

static int read_fatal(struct rescue *r, uint64_t lba,
		      const struct cdt_read_result *rr)
{
	cdt_dev_seterr(r->dev, "READ at LBA %" PRIu64 " failed: sense %02x/%02x/%02x",
		       lba, rr->sense_key, rr->asc, rr->ascq);
	return CDT_ETRANSPORT;
}

/*
 * 06/28/00: the drive says the medium may have changed.  Read the disc's
 * identity again: the same disc goes on (the read is sent again), another
 * one, or one whose identity cannot be read, ends the run before any of
 * its blocks reaches OUT; the caller saves the map.
 */
int rescue_medium_changed(struct rescue *r)
{
	unsigned int matched;
	uint64_t lba = 0;
	int rc;

	if (!r->id) {
		cdt_dev_seterr(r->dev, "the medium changed during the run");
		return CDT_ECHANGED;
	}
	rc = id_check(r->dev, r->id, r->buf, (size_t)r->chunk * r->bs, &matched, &lba);
	if (!rc)
		return 0;
	if (rc == 1)
		cdt_dev_seterr(r->dev, "the medium changed: block %" PRIu64
			       " is not the one of the disc this run began with", lba);
	else if (rc == 2 || rc == CDT_ECHANGED)
		cdt_dev_seterr(r->dev, "the medium changed and the new disc's identity cannot be read");
	else
		return rc;
	return CDT_ECHANGED;
}

/*
 * Note a failing read's first block: a drive reads in order, so that one
 * was tried, whichever block of the read failed.  0 or CDT_ENOMEM.
 */
static int note_failure(struct rescue *r, uint64_t lba)
{
	if (r->failed_reads >= r->fail_cap) {
		size_t cap = r->fail_cap ? 2 * r->fail_cap : 64;
		uint64_t *p = realloc(r->fail_lba, cap * sizeof(*p));

		if (!p)
			return CDT_ENOMEM;
		r->fail_lba = p;
		r->fail_cap = cap;
	}
	r->fail_lba[r->failed_reads++] = lba;
	return 0;
}

void rescue_fini(struct rescue *r)
{
	free(r->fail_lba);
	r->fail_lba = NULL;
	r->fail_cap = 0;
}

/*
 * Read [lba, lba + n) and write it out.  SPAN_GOOD, SPAN_BAD (a medium
 * error, a timeout, or an end-of-medium answer inside the extent: all
 * mean "these blocks did not read"), or a negative error that ends the run.
 */
static int read_span(struct rescue *r, uint64_t lba, uint32_t n)
{
	size_t len = (size_t)n * r->bs;
	struct cdt_read_result rr = CDT_INIT(rr);
	int rc;

	if (r->rd && r->rd->stop && *r->rd->stop)
		return CDT_EINTR;
	r->map->cur_pos = lba * r->bs;
	for (;;) {
		rc = cdt_read_blocks(r->dev, lba, n, r->buf, (size_t)r->chunk * r->bs, &rr);
		if (rc)
			return rc;
		if (rr.cls != CDT_READ_CHANGED)
			break;
		/* nothing of this read is kept: the disc may be another */
		rc = rescue_medium_changed(r);
		if (rc)
			return rc;
	}
	if (rr.cls == CDT_READ_FATAL)
		return read_fatal(r, lba, &rr);
	if (rr.cls != CDT_READ_OK || rr.resid) {
		r->stream_broken = true;
		rc = note_failure(r, lba);
		return rc ? rc : SPAN_BAD;
	}
	rc = rescue_pwrite(r->fd, r->buf, len, lba * r->bs);
	if (rc) {
		cdt_dev_seterr(r->dev, "cannot write the output at byte %" PRIu64 ": %s",
			       lba * r->bs, strerror(errno));
		return rc;
	}
	feed_stream(r, lba * r->bs, len);
	if (r->id) {
		rc = id_note(r->id, lba, n, r->buf);
		if (rc)
			return rc;
	}
	r->blocks_read += n;
	r->bytes_read += len;
	return SPAN_GOOD;
}

/* Read a span, record the outcome in the map; bad_status for a failure. */
static int try_span(struct rescue *r, uint64_t lba, uint32_t n, char bad_status)
{
	int got = read_span(r, lba, n);
	int rc;

	if (got < 0)
		return got;
	rc = map_set(r->map, lba * r->bs, (uint64_t)n * r->bs,
		     got == SPAN_GOOD ? MAP_FINISHED : bad_status);
	if (rc)
		return rc;
	progress(r, false);
	rc = maybe_save(r);
	return rc ? rc : got;
}

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
 * Passes 1 and 3: the untried blocks from block pos up to end; with
 * skipping, a failure jumps ahead (in blocks).  Returns 0 or <0 on error.
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
		got = try_span(r, lba, n, MAP_NONTRIMMED);
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
 * Pass 2: the untried blocks below block end downwards, skipping down
 * after a failure.  Returns 0 or <0 on error.
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
		got = try_span(r, top - n, n, MAP_NONTRIMMED);
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

/* Single blocks from the leading edge, then the trailing edge, of [a, b). */
static int trim_area(struct rescue *r, uint64_t a, uint64_t b)
{
	uint64_t lba, start, len;
	int got = SPAN_GOOD;

	for (lba = a; lba < b && got == SPAN_GOOD; lba++) {
		got = try_span(r, lba, 1, MAP_BAD);
		if (got < 0)
			return got;
	}
	got = SPAN_GOOD;
	for (lba = b; lba-- > a && got == SPAN_GOOD &&
	     map_status_at(r->map, lba * r->bs) == MAP_NONTRIMMED;) {
		got = try_span(r, lba, 1, MAP_BAD);
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

/* Every block of the given status, one read each, in ascending order. */
static int single_pass(struct rescue *r, char status)
{
	uint64_t pos = 0, start, len;
	int got;

	while (map_find(r->map, status, pos, &start, &len)) {
		got = try_span(r, start / r->bs, 1, MAP_BAD);
		if (got < 0)
			return got;
		pos = start + r->bs;
	}
	return 0;
}

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
		got = try_span(r, ar->a, 1, MAP_BAD);
		if (got < 0)
			return got;
		ar->recovered = got == SPAN_GOOD;
	} while (!ar->recovered && ++tries < CDT_DEFAULT_RETRIES + 1);
	return 0;
}

/*
 * `passes` retries of every block of [a, b) still bad, stopping early only
 * when none is left.  Returns 0 or <0 on error.
 */
static int retry_area_blocks(struct rescue *r, const struct retry_area *ar, int passes)
{
	uint64_t lba, still_bad;
	int pass, got;

	for (pass = 1; pass <= passes; pass++) {
		still_bad = 0;
		for (lba = ar->a; lba < ar->b; lba++) {
			if (map_status_at(r->map, lba * r->bs) != MAP_BAD)
				continue;
			got = try_span(r, lba, 1, MAP_BAD);
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

/* The learning retry policy above.  Returns 0 or <0 on error. */
static int retry_learning(struct rescue *r)
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
 * The retrying phase: `--retries N` passes over every bad block, or the
 * learning policy when N was not given.  Returns 0 or <0 on error.
 */
static int retry_phase(struct rescue *r)
{
	int rc = 0, pass;

	if (!map_count(r->map, MAP_BAD))
		return 0;
	if (r->retries < 0) {
		enter_phase(r, CDT_PHASE_RETRY, 1);
		return retry_learning(r);
	}
	for (pass = 1; !rc && pass <= r->retries && map_count(r->map, MAP_BAD); pass++) {
		enter_phase(r, CDT_PHASE_RETRY, (unsigned int)pass);
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
static int rescue_copy(struct rescue *r, uint64_t from, uint64_t to)
{
	int rc;

	enter_phase(r, CDT_PHASE_COPY, 1);
	rc = copy_forward(r, true, from, to);
	if (!rc && untried(r, 0, to)) {
		enter_phase(r, CDT_PHASE_COPY, 2);
		rc = copy_backward(r, to);
	}
	if (!rc && untried(r, 0, to)) {
		enter_phase(r, CDT_PHASE_COPY, 3);
		rc = copy_forward(r, false, 0, to);
	}
	return rc;
}

/* Every pass after the copying ones.  Returns 0 or <0 on error. */
static int rescue_rest(struct rescue *r)
{
	int rc = 0;

	if (!rc && map_count(r->map, MAP_NONTRIMMED)) {
		enter_phase(r, CDT_PHASE_TRIM, 1);
		rc = trim_pass(r);
	}
	if (!rc && map_count(r->map, MAP_NONSCRAPED)) {
		enter_phase(r, CDT_PHASE_SCRAPE, 1);
		rc = single_pass(r, MAP_NONSCRAPED);
	}
	if (!rc)
		rc = retry_phase(r);
	if (rc)
		return rc;
	r->map->cur_status = MAP_FINISHED;
	r->map->cur_pos = r->map->size;
	progress(r, true);
	return 0;
}

int rescue_run(struct rescue *r)
{
	int rc;

	r->last_save_ms = rescue_now_ms();
	rc = rescue_copy(r, 0, UINT64_MAX);
	return rc ? rc : rescue_rest(r);
}

/* Tried and failed; untried blocks of an interrupted run are not bad. */
static bool is_failed(char status)
{
	return status == MAP_BAD || status == MAP_NONTRIMMED ||
	       status == MAP_NONSCRAPED;
}

int rescue_bad_ranges(const struct cdt_map *map, uint32_t bs,
		      struct cdt_read_summary *sum)
{
	size_t i, n = 0;

	free(sum->bad);
	sum->bad = NULL;
	sum->n_bad = 0;
	sum->bad_blocks = 0;
	for (i = 0; i < map->n; i++)
		n += is_failed(map->runs[i].status);
	if (!n)
		return 0;
	sum->bad = calloc(n, sizeof(*sum->bad));
	if (!sum->bad)
		return CDT_ENOMEM;
	for (i = 0; i < map->n; i++) {
		const struct map_run *run = &map->runs[i];

		if (!is_failed(run->status))
			continue;
		sum->bad[sum->n_bad].first = run->pos / bs;
		sum->bad[sum->n_bad].last = (run->pos + run->size) / bs - 1;
		sum->bad_blocks += run->size / bs;
		sum->n_bad++;
	}
	return 0;
}

/* ---- cdt_image ----------------------------------------------------------- */

struct image_job {
	struct cdt_dev *dev;
	const char *out_path;
	const struct cdt_image_opts *opts;
	struct cdt_image_result *res;
	struct cdt_map map;
	uint64_t extent_bytes;
	unsigned int digests;	/* CDT_HASH_MD5/SHA256 bits; 0: none */
	int fd;			/* OUT, locked for the whole run */
	int map_lock;		/* the map, locked for the whole run, or -1 */
	struct skip_plan skip;	/* not data: never read (skip.h) */
	char *base_comment;	/* the caller's line and the skip list */
	bool loaded;		/* a map was read */
	bool data_first;	/* copy the agreed extent, then search */
	bool created_out, created_map;
	struct disc_id id;	/* the disc's, recorded or read from the map */
	char *comment;		/* map comment lines: the caller's, identity */
	size_t comment_cap;
	uint8_t *buf;		/* one block, for identity and checks */
	uint32_t bs;
};

static int check_map(struct image_job *j)
{
	uint32_t bs = j->bs;
	size_t i;

	if (j->map.size != j->extent_bytes) {
		cdt_dev_seterr(j->dev,
			       "map %s covers %" PRIu64 " bytes but this disc holds %" PRIu64
			       " (%" PRIu64 " blocks of %u): a map of another disc?",
			       j->opts->map_path, j->map.size, j->extent_bytes,
			       j->res->extent_blocks, bs);
		return CDT_EOTHERDISC;
	}
	for (i = 0; i < j->map.n; i++) {
		if (j->map.runs[i].pos % bs || j->map.runs[i].size % bs) {
			cdt_dev_seterr(j->dev,
				       "map %s has a run at byte %" PRIu64
				       " that is not in whole %u-byte blocks",
				       j->opts->map_path, j->map.runs[i].pos, bs);
			return CDT_EFORMAT;
		}
	}
	return 0;
}

static int busy(struct image_job *j, const char *what, const char *path)
{
	cdt_dev_seterr(j->dev, "%s %s is in use by another run", what, path);
	return CDT_EBUSY;
}

/*
 * Before anything else: lock the map and OUT where they exist, so a
 * second run fails at once, and refuse an OUT that is the source.
 */
static int lock_existing(struct image_job *j)
{
	const char *mp = j->opts->map_path;
	struct stat st;
	int rc;

	if (mp) {
		rc = lock_open(mp, false, &j->map_lock);
		if (rc == CDT_EBUSY)
			return busy(j, "map", mp);
		if (rc && rc != CDT_EOPEN) {
			cdt_dev_seterr(j->dev, "map %s: %s", mp, strerror(errno));
			return errno == EISDIR ? CDT_EUSAGE : CDT_EIO;
		}
	}
	if (!stat(j->out_path, &st)) {
		if (j->dev->t->ops->is_source && j->dev->t->ops->is_source(j->dev->t, &st)) {
			cdt_dev_seterr(j->dev, "%s is the disc being read: OUT must be another file",
				       j->out_path);
			return CDT_EOTHERDISC;
		}
		if (!S_ISREG(st.st_mode)) {
			cdt_dev_seterr(j->dev, "%s: not a regular file", j->out_path);
			return CDT_EUSAGE;
		}
		rc = lock_open(j->out_path, false, &j->fd);
		if (rc == CDT_EBUSY)
			return busy(j, "OUT", j->out_path);
		if (rc && rc != CDT_EOPEN) {
			cdt_dev_seterr(j->dev, "%s: %s", j->out_path, strerror(errno));
			return CDT_EIO;
		}
	}
	return 0;
}

/* Read the locked map and its identity record. */
static int load_map(struct image_job *j)
{
	char err[400], *text = NULL;
	int rc;

	if (j->map_lock < 0 || j->opts->force)
		return 0;
	rc = map_load_fd(j->map_lock, j->opts->map_path, &j->map, &text, err, sizeof(err));
	if (rc) {
		cdt_dev_seterr(j->dev, "%s", err);
		return rc;
	}
	rc = id_parse(text, &j->id);
	if (!rc) {
		rc = skip_parse(text, strlen(text), &j->skip);
		if (rc == CDT_EFORMAT)
			cdt_dev_seterr(j->dev, "map %s has a damaged cdtail skipped list",
				       j->opts->map_path);
	} else {
		cdt_dev_seterr(j->dev, "map %s has a damaged cdtail identity record",
			       j->opts->map_path);
	}
	free(text);
	if (rc) {
		map_free(&j->map);
		return rc;
	}
	j->loaded = true;
	return 0;
}

static int other_disc(struct image_job *j, uint64_t lba, const char *how)
{
	cdt_dev_seterr(j->dev, "map %s belongs to another disc: block %" PRIu64 " %s",
		       j->opts->map_path, lba, how);
	return CDT_EOTHERDISC;
}

/*
 * Data first (issue 13): the end search's failing reads cost seconds each
 * on a real drive, and a search that checks the end costs at least one
 * even on an undamaged disc, so a new image first copies what every size
 * source agrees the disc holds (READ CAPACITY, the TOC lead-out, the
 * filesystem: the least of them, the provisional extent of the map and
 * OUT), but for its last DATA_FIRST_MARGIN blocks (a TAO run-out, the
 * commonest over-report: blocks the search reads anyway, never worth a
 * failing chunk of their own), then searches, then copies the rest.  Only on a disc of one data track from LBA 0
 * that is not a formatted medium: there nothing below the reported end
 * depends on the search (the skip list of a multi-track disc, a formatted
 * medium's unwritten space do), so the provisional extent never holds a
 * block the final one would skip.  Until the search is done the map's
 * identity says search=pending and a resume does the same: copies the
 * rest of the provisional extent, then searches.
 */
#define DATA_FIRST_MARGIN 2

/* The extent to copy before the search, in blocks; 0: search first. */
static uint64_t agreed_extent(const struct cdt_dev *dev, const struct cdt_sizes *sz)
{
	const struct cdt_layout *l = cdt_dev_layout(dev);
	int64_t v = sz->read_capacity;

	if (l && (l->formatted || l->n_tracks > 1 || l->n_gaps ||
		  (l->n_tracks == 1 && (l->tracks[0].mode != CDT_TRACK_DATA ||
					l->tracks[0].start))))
		return 0;
	if (sz->toc_leadout > 0 && sz->toc_leadout < v)
		v = sz->toc_leadout;
	if (sz->filesystem > 0 && sz->filesystem < v)
		v = sz->filesystem;
	return v > DATA_FIRST_MARGIN ? (uint64_t)v : 0;
}

static int check_block_size(struct image_job *j)
{
	if (j->res->sum.block_size == j->id.block_size)
		return 0;
	cdt_dev_seterr(j->dev, "map %s belongs to another disc: %u-byte blocks, this one has %u",
		       j->opts->map_path, j->id.block_size, j->res->sum.block_size);
	return CDT_EOTHERDISC;
}

/*
 * With an identity record whose search is done the end is known and only
 * the recorded blocks are read (no failing read on an undamaged disc).
 */
static int known_extent(struct image_job *j)
{
	struct cdt_read_summary *sum = &j->res->sum;
	int rc;

	rc = probe_known_end(j->dev, j->id.true_blocks, j->id.extent, &sum->probe);
	if (rc)
		return rc;
	sum->block_size = sum->probe.sizes.block_size;
	return check_block_size(j);
}

/*
 * The probe up to the end search; then the search, unless the data comes
 * first (a fresh run that may, a resume of a map whose search is pending:
 * its provisional extent stands).
 */
static int find_extent(struct image_job *j)
{
	struct cdt_read_summary *sum = &j->res->sum;
	struct cdt_probe_opts po = CDT_INIT(po);
	int rc;

	sum->size = sizeof(*sum);
	sum->probe.size = sizeof(sum->probe);
	sum->stats.size = sizeof(sum->stats);
	if (j->id.present && !j->id.pending)
		return known_extent(j);
	rc = probe_begin(j->dev, &sum->probe);
	if (rc)
		return rc;
	sum->block_size = sum->probe.sizes.block_size;
	if (!sum->block_size) {
		cdt_dev_seterr(j->dev, "the drive reported a block size of 0");
		return CDT_ETRANSPORT;
	}
	if (j->loaded && j->id.present) {
		sum->probe.extent_blocks = j->id.extent;
		j->data_first = true;
		return check_block_size(j);
	}
	/* a map of its own extent (GNU ddrescue's) needs the search first */
	sum->probe.extent_blocks = j->loaded ? 0 : agreed_extent(j->dev, &sum->probe.sizes);
	if (sum->probe.extent_blocks) {
		j->data_first = true;
		return 0;
	}
	probe_opts(&j->opts->rd, &po);
	return probe_end(j->dev, &po, &sum->probe);
}

/* A resume: the recorded blocks read back as recorded. */
static int check_identity(struct image_job *j, bool *verified)
{
	unsigned int matched = 0;
	uint64_t lba = 0;
	int rc;

	*verified = false;
	if (!j->id.present)
		return 0;
	rc = id_check(j->dev, &j->id, j->buf, j->bs, &matched, &lba);
	if (rc == 1)
		return other_disc(j, lba, "differs from the one it recorded");
	if (rc == CDT_ECHANGED) {
		cdt_dev_seterr(j->dev, "the medium changed while its identity was read");
		return rc;
	}
	if (rc < 0)
		return rc;
	j->res->identity_blocks = matched;
	*verified = rc == 0;
	return 0;
}

/*
 * A map without a cdtail identity (GNU ddrescue's, an older cdtail's):
 * up to 16 finished blocks spread over the disc must read back equal to
 * what OUT holds for them.
 */
static int check_against_out(struct image_job *j)
{
	uint64_t extent = j->res->extent_blocks, last = UINT64_MAX, start, len, b;
	uint8_t *have = j->buf + j->bs;
	unsigned int k, compared = 0;

	for (k = 0; k < 16; k++) {
		struct cdt_read_result rr = CDT_INIT(rr);

		if (!map_find(&j->map, MAP_FINISHED, extent * k / 16 * j->bs, &start, &len))
			break;
		b = start / j->bs;
		if (b == last || skip_at(&j->skip, b))
			continue;
		last = b;
		if (pread(j->fd, have, j->bs, (off_t)(b * j->bs)) != (ssize_t)j->bs)
			return other_disc(j, b, "is missing from OUT");
		if (cdt_read_blocks(j->dev, b, 1, j->buf, j->bs, &rr))
			return CDT_ETRANSPORT;
		if (rr.cls == CDT_READ_CHANGED)
			return CDT_ECHANGED;
		if (rr.cls != CDT_READ_OK)
			continue;
		if (memcmp(j->buf, have, j->bs))
			return other_disc(j, b, "on the disc differs from OUT's (the map has no cdtail identity)");
		compared++;
	}
	j->res->identity_blocks = compared;
	return 0;
}

/* The last byte the map says holds good data, +1. */
static uint64_t finished_end(const struct cdt_map *m)
{
	uint64_t start, len;

	if (!map_find_back(m, MAP_FINISHED, m->size, &start, &len))
		return 0;
	return start + len;
}

/* OUT, created (exclusively unless force) and locked; or the one we hold. */
static int create_out(struct image_job *j, bool excl)
{
	int rc;

	if (j->fd >= 0)
		return 0;
	j->fd = open(j->out_path, O_RDWR | O_CREAT | O_CLOEXEC | (excl ? O_EXCL : 0), 0644);
	if (j->fd < 0) {
		if (errno == EEXIST) {
			cdt_dev_seterr(j->dev,
				       "%s exists: use --force to overwrite it, or --map with its map to resume",
				       j->out_path);
			return CDT_EUSAGE;
		}
		cdt_dev_seterr(j->dev, "%s: %s", j->out_path, strerror(errno));
		return errno == ENOENT || errno == ENOTDIR || errno == EISDIR ||
		       errno == ENAMETOOLONG ? CDT_EUSAGE : CDT_EIO;
	}
	j->created_out = true;
	rc = lock_fd(j->fd);
	if (rc)
		return busy(j, "OUT", j->out_path);
	return 0;
}

static int size_out(struct image_job *j)
{
	if (ftruncate(j->fd, (off_t)j->extent_bytes)) {
		cdt_dev_seterr(j->dev, "%s: %s", j->out_path, strerror(errno));
		return errno == EFBIG ? CDT_EUSAGE : CDT_EIO;
	}
	return 0;
}

static int open_resumed(struct image_job *j)
{
	uint64_t need = finished_end(&j->map);
	struct stat st;
	int rc;

	if (j->fd < 0 && need) {
		cdt_dev_seterr(j->dev, "%s: %s, but its map says part of it was read",
			       j->out_path, strerror(ENOENT));
		return CDT_EUSAGE;
	}
	rc = create_out(j, false);
	if (rc)
		return rc;
	if (fstat(j->fd, &st) || (uint64_t)st.st_size < need ||
	    (uint64_t)st.st_size > j->extent_bytes) {
		if (need == j->extent_bytes)
			cdt_dev_seterr(j->dev, "%s is %lld bytes; its map wants exactly %" PRIu64
				       ": not the output of this map",
				       j->out_path, (long long)st.st_size, need);
		else
			cdt_dev_seterr(j->dev, "%s is %lld bytes; its map wants %" PRIu64 " to %" PRIu64
				       ": not the output of this map",
				       j->out_path, (long long)st.st_size, need, j->extent_bytes);
		return CDT_EFORMAT;
	}
	return 0;
}

/* The map first (so OUT never exists without it), then OUT. */
static int create_fresh(struct image_job *j)
{
	char err[400];
	int rc;

	rc = map_init(&j->map, j->extent_bytes, MAP_NONTRIED);
	if (!rc)
		rc = skip_mark(&j->skip, &j->map, j->bs);
	if (rc)
		return rc;
	if (j->fd >= 0 && !j->opts->force) {
		cdt_dev_seterr(j->dev,
			       "%s exists: use --force to overwrite it, or --map with its map to resume",
			       j->out_path);
		return CDT_EUSAGE;
	}
	if (j->opts->map_path) {
		rc = map_save_locked(j->opts->map_path, &j->map, j->comment, &j->map_lock,
				     j->opts->force, err, sizeof(err));
		if (rc) {
			cdt_dev_seterr(j->dev, "%s", err);
			return rc == CDT_EIO && (errno == ENOENT || errno == ENOTDIR ||
						 errno == ENAMETOOLONG || errno == EISDIR) ?
			       CDT_EUSAGE : rc;
		}
		j->created_map = true;
	}
	rc = create_out(j, !j->opts->force);
	/*
	 * Only an overwritten OUT is cut: one made here is empty, and a
	 * truncate to 0 makes ext4 (auto_da_alloc) write the whole file back
	 * at close, 0.16 s of waiting for 700 MiB.
	 */
	if (!rc && j->opts->force && ftruncate(j->fd, 0))
		rc = CDT_EIO;
	return rc;
}

/* The comment lines of the map: the caller's, the skip list, the identity. */
static int make_comment(struct image_job *j)
{
	const char *c = j->opts->map_comment ? j->opts->map_comment : "";
	size_t clen = strlen(c), skip_len = skip_text_len(&j->skip);

	free(j->base_comment);
	free(j->comment);
	j->comment = NULL;
	j->base_comment = malloc(clen + skip_len + 2);
	if (!j->base_comment)
		return CDT_ENOMEM;
	memcpy(j->base_comment, c, clen);
	if (clen && skip_len)
		j->base_comment[clen++] = '\n';
	skip_format(&j->skip, j->base_comment + clen, skip_len + 1);
	j->comment_cap = strlen(j->base_comment) + ID_TEXT_MAX + 2;
	j->comment = malloc(j->comment_cap);
	if (!j->comment)
		return CDT_ENOMEM;
	rescue_comment(j->comment, j->comment_cap, j->base_comment, &j->id);
	return 0;
}

/*
 * A map checked against OUT: the identity's blocks it marks read are
 * recorded from OUT (which was just shown to hold this disc), the others
 * as the passes read them.
 */
static int note_from_out(struct image_job *j)
{
	unsigned int i;
	int rc;

	for (i = 0; i < j->id.nwant; i++) {
		uint64_t b = j->id.want[i];

		if (map_status_at(&j->map, b * j->bs) != MAP_FINISHED)
			continue;
		if (pread(j->fd, j->buf, j->bs, (off_t)(b * j->bs)) != (ssize_t)j->bs)
			continue;
		rc = id_note(&j->id, b, 1, j->buf);
		if (rc)
			return rc;
	}
	return 0;
}

static int prepare(struct image_job *j)
{
	bool verified = false;
	int rc;

	rc = check_identity(j, &verified);
	if (rc)
		return rc;
	if (j->loaded) {
		rc = check_map(j);
		if (rc)
			return rc;
		j->res->resumed = true;
		rc = open_resumed(j);
		if (!rc && !verified)
			rc = check_against_out(j);
		if (!rc)
			rc = skip_mark(&j->skip, &j->map, j->bs);
		if (rc)
			return rc;
		j->res->finished_before = map_count(&j->map, MAP_FINISHED) / j->bs -
					  j->skip.blocks;
	}
	if (!verified) {
		id_init(&j->id, j->bs, j->res->extent_blocks, j->data_first ?
			j->res->extent_blocks : j->res->sum.probe.true_blocks);
		j->id.pending = j->data_first;
		rc = j->loaded ? note_from_out(j) : 0;
		if (rc)
			return rc;
	}
	rc = make_comment(j);
	if (!rc && !j->loaded)
		rc = create_fresh(j);
	if (!rc)
		rc = size_out(j);
	return rc;
}

static int finish_digests(struct image_job *j, struct rescue *r)
{
	struct cdt_image_result *res = j->res;
	int rc;

	if (!j->digests)
		return 0;	/* digest_source stays CDT_DIGEST_NONE */
	if (r->stream && !r->stream_broken && r->stream_pos == j->extent_bytes) {
		res->digest_source = CDT_DIGEST_STREAM;
		return dg_final(r->stream, &res->sum.digests);
	}
	res->digest_source = CDT_DIGEST_FILE;
	rc = dg_file(j->fd, j->extent_bytes, r->buf, (size_t)r->chunk * r->bs,
		     r->rd, j->digests, &res->sum.digests);
	if (rc == CDT_EIO)
		cdt_dev_seterr(j->dev, "cannot read back %s to hash it", j->out_path);
	return rc;
}

/* Blocks [from, to) of OUT made zeros (they are skipped now). */
static int zero_out(struct image_job *j, struct rescue *r, uint64_t from, uint64_t to)
{
	uint64_t n;
	int rc;

	memset(r->buf, 0, (size_t)r->chunk * j->bs);
	for (; from < to; from += n) {
		n = to - from < r->chunk ? to - from : r->chunk;
		rc = rescue_pwrite(j->fd, r->buf, (size_t)n * j->bs, from * j->bs);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The final skip list may not reach below the provisional extent (see
 * agreed_extent); should it, what pass 1 read there is zeroed, as a
 * skipped block must be in OUT, and the digest comes from OUT.
 */
static int zero_skipped(struct image_job *j, struct rescue *r, uint64_t was)
{
	size_t i;
	int rc;

	for (i = 0; i < j->skip.n && j->skip.v[i].start < was; i++) {
		uint64_t end = j->skip.v[i].start + j->skip.v[i].blocks;

		r->stream_broken = true;
		rc = zero_out(j, r, j->skip.v[i].start, end < was ? end : was);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The search ended below the provisional extent: the blocks past its end
 * (they failed in pass 1) go.  A kill between the steps leaves a map, still
 * pending, that claims nothing OUT lacks.
 */
static int shrink_out(struct image_job *j, struct rescue *r, uint64_t e, uint64_t was)
{
	int rc;

	rc = map_set(&j->map, e * j->bs, (was - e) * j->bs, MAP_NONTRIED);
	if (!rc)
		rc = rescue_save(r);
	if (rc)
		return rc;
	if (r->stream_pos > e * j->bs)
		r->stream_broken = true;
	if (ftruncate(j->fd, (off_t)(e * j->bs))) {
		cdt_dev_seterr(j->dev, "%s: %s", j->out_path, strerror(errno));
		return CDT_EIO;
	}
	return 0;
}

/*
 * The search is done: the extent, skip list, identity and map become
 * final.  The map is saved before OUT grows, so it never claims more
 * than OUT holds.
 */
static int settle_extent(struct image_job *j, struct rescue *r)
{
	struct cdt_image_result *res = j->res;
	uint64_t was = res->extent_blocks, e = res->sum.probe.extent_blocks;
	int rc;

	skip_free(&j->skip);
	rc = skip_plan_make(j->dev, &res->sum.probe, j->opts->formatted, &e, &j->skip);
	if (rc)
		return rc;
	if (!e) {
		cdt_dev_seterr(j->dev, "nothing on the disc can be read, not even LBA 0");
		return CDT_ETRANSPORT;
	}
	if (e < was) {
		rc = shrink_out(j, r, e, was);
		if (rc)
			return rc;
	}
	rc = map_resize(&j->map, e * j->bs, MAP_NONTRIED);
	if (!rc)
		rc = skip_mark(&j->skip, &j->map, j->bs);
	if (!rc)
		rc = zero_skipped(j, r, was);
	if (rc)
		return rc;
	res->extent_blocks = e;
	j->extent_bytes = e * j->bs;
	id_init(&j->id, j->bs, e, res->sum.probe.true_blocks);
	rc = note_from_out(j);
	if (!rc)
		rc = make_comment(j);
	if (rc)
		return rc;
	r->map_comment = j->base_comment;
	r->comment_buf = j->comment;
	r->comment_cap = j->comment_cap;
	rc = rescue_save(r);
	return rc ? rc : size_out(j);
}

/*
 * Data first: the copying passes over the provisional extent (the good
 * blocks past a scratch, which pass 2 reads, come before the search's
 * failing read too), the end search, the extent settled, the copying
 * passes over what is left; the trimming, scraping and retries follow.
 */
static int copy_then_search(struct image_job *j, struct rescue *r)
{
	struct cdt_probe_opts po = CDT_INIT(po);
	uint64_t was = j->res->extent_blocks;
	uint64_t first = was > DATA_FIRST_MARGIN ? was - DATA_FIRST_MARGIN : 0;
	int rc;

	rc = rescue_copy(r, 0, first);
	if (!rc)
		rc = rescue_save(r);
	if (rc)
		return rc;
	probe_opts(&j->opts->rd, &po);
	rc = probe_end(j->dev, &po, &j->res->sum.probe);
	if (!rc)
		rc = settle_extent(j, r);
	return rc ? rc : rescue_copy(r, first, UINT64_MAX);
}

static int run_job(struct image_job *j)
{
	struct cdt_image_result *res = j->res;
	uint32_t bs = j->bs;
	struct rescue r = {
		.dev = j->dev,
		.fd = j->fd,
		.map = &j->map,
		.bs = bs,
		.rd = &j->opts->rd,
		.retries = j->opts->rd.retries,
		.map_path = j->opts->map_path,
		.map_comment = j->base_comment,
		.skip = &j->skip,
		.comment_buf = j->comment,
		.comment_cap = j->comment_cap,
		.map_interval_ms = j->opts->map_interval_ms,
		.t0 = rescue_now_ms(),
		.map_lock = j->opts->map_path ? &j->map_lock : NULL,
		.id = &j->id,
	};
	struct dg stream = { 0 };
	int rc, rc2;

	r.chunk = rescue_chunk_blocks(j->dev, bs, j->opts->rd.chunk_blocks);
	r.buf = malloc((size_t)r.chunk * bs);
	if (!r.buf)
		return CDT_ENOMEM;
	/* a fresh map is all untried but what is skipped: reading it in
	 * order gives the digest */
	if (j->digests && map_count(&j->map, MAP_NONTRIED) +
	    j->skip.blocks * bs == j->extent_bytes &&
	    !dg_init(&stream, j->digests))
		r.stream = &stream;
	rc = rescue_save(&r);
	if (!rc)
		rc = j->data_first ? copy_then_search(j, &r) : rescue_copy(&r, 0, UINT64_MAX);
	if (!rc)
		rc = rescue_rest(&r);
	res->sum.blocks_read = r.blocks_read;
	/* save whatever happened: an interrupted run resumes from here */
	rc2 = rescue_save(&r);
	if (!rc)
		rc = rc2;
	if (!rc)
		rc = finish_digests(j, &r);
	if (r.stream)
		dg_free(r.stream);
	rescue_fini(&r);
	free(r.buf);
	return rc;
}

/* opts->digests as CDT_HASH_MD5/SHA256 bits (0: none); false if invalid. */
static bool digest_bits(unsigned int want, unsigned int *bits)
{
	if (!want)
		*bits = CDT_HASH_ALL;
	else if (want == CDT_HASH_NONE)
		*bits = 0;
	else if (want & ~CDT_HASH_ALL)
		return false;
	else
		*bits = want;
	return true;
}

/*
 * A run that ends before its first block leaves nothing it made: no OUT
 * full of zeros for the next run to refuse, no map of nothing.
 */
static void remove_created(struct image_job *j)
{
	if (j->res->sum.blocks_read || (!j->created_out && !j->created_map))
		return;
	if (j->created_out)
		unlink(j->out_path);
	if (j->created_map)
		unlink(j->opts->map_path);
	j->res->removed = true;
}

/*
 * What not to read: the list a resumed map recorded (the first run's
 * choice, --formatted included), else the disc's layout.  A resume keeps
 * the recorded extent whatever --formatted says now.
 */
static int plan_skips(struct image_job *j)
{
	struct cdt_image_result *res = j->res;
	uint64_t extent = res->extent_blocks;
	const struct cdt_skip *last;

	if (!j->skip.n)
		return skip_plan_make(j->dev, &res->sum.probe, j->opts->formatted,
				      j->loaded ? &extent : &res->extent_blocks, &j->skip);
	last = &j->skip.v[j->skip.n - 1];
	if (last->start + last->blocks > extent) {
		cdt_dev_seterr(j->dev, "map %s skips blocks up to %" PRIu64
			       " but this disc holds %" PRIu64 ": a map of another disc?",
			       j->opts->map_path, last->start + last->blocks, extent);
		return CDT_EOTHERDISC;
	}
	return 0;
}

static int start(struct image_job *j)
{
	struct cdt_image_result *res = j->res;
	int rc;

	rc = lock_existing(j);
	if (!rc)
		rc = load_map(j);
	if (!rc)
		rc = find_extent(j);
	if (rc)
		return rc;
	j->bs = res->sum.block_size;
	res->extent_blocks = res->sum.probe.extent_blocks;
	rc = j->data_first ? 0 : plan_skips(j);
	if (rc)
		return rc;
	j->extent_bytes = res->extent_blocks * j->bs;
	if (!res->extent_blocks) {
		cdt_dev_seterr(j->dev, "nothing on the disc can be read, not even LBA 0");
		return CDT_ETRANSPORT;
	}
	j->buf = malloc(2 * (size_t)j->bs);
	if (!j->buf)
		return CDT_ENOMEM;
	return prepare(j);
}

static int image(struct cdt_dev *dev, const char *out_path,
		 const struct cdt_image_opts *opts, struct cdt_image_result *res)
{
	struct image_job j = { .dev = dev, .out_path = out_path, .opts = opts,
			       .res = res, .fd = -1, .map_lock = -1 };
	double t0 = rescue_now_ms();
	int rc, rc2;

	if (!digest_bits(opts->digests, &j.digests)) {
		cdt_dev_seterr(dev, "digests 0x%x: not a choice of CDT_HASH_MD5, CDT_HASH_SHA256 or CDT_HASH_NONE",
			       opts->digests);
		return CDT_EUSAGE;
	}
	rc = start(&j);
	if (!rc)
		rc = run_job(&j);
	rc2 = j.map.n ? rescue_bad_ranges(&j.map, j.bs, &res->sum) : 0;
	if (!rc)
		rc = rc2;
	if (j.map.n && j.bs)
		res->out_blocks = map_count(&j.map, MAP_FINISHED) / j.bs - j.skip.blocks;
	rc2 = skip_copy(&j.skip, &res->skipped, &res->n_skipped, &res->skipped_blocks);
	if (!rc)
		rc = rc2;
	if (!res->identity_blocks)
		res->identity_blocks = j.id.n;
	if (rc)
		remove_created(&j);
	if (j.fd >= 0 && close(j.fd) && !rc) {
		cdt_dev_seterr(dev, "%s: %s", out_path, strerror(errno));
		rc = CDT_EIO;
	}
	if (j.map_lock >= 0)
		close(j.map_lock);
	map_free(&j.map);
	skip_free(&j.skip);
	free(j.base_comment);
	free(j.comment);
	free(j.buf);
	cdt_get_stats(dev, &res->sum.stats);
	res->sum.elapsed_ms = rescue_now_ms() - t0;
	return rc;
}

static const struct cdt_image_opts image_defaults = {
	.size = sizeof(image_defaults),
	.rd.retries = -1,
};

int cdt_image(struct cdt_dev *dev, const char *out_path,
	      const struct cdt_image_opts *opts, struct cdt_image_result *res)
{
	struct cdt_image_opts o;
	struct cdt_image_result full;
	int rc = cdt_abi_enter(dev, opts, &image_defaults, &o, sizeof(o), res,
			       &full, sizeof(full), "cdt_image");

	if (!rc)
		rc = image(dev, out_path, &o, &full);
	if (cdt_abi_leave(res, &full, sizeof(full),
			  CDT_END(struct cdt_image_result, sum.n_bad)))
		rescue_summary_free(&full.sum);
	if (!res || !CDT_HAS(res, n_skipped))
		free(full.skipped);
	return rc;
}

void cdt_image_result_free(struct cdt_image_result *res)
{
	if (res && CDT_HAS(res, sum.n_bad))
		rescue_summary_free(&res->sum);
	if (res && CDT_HAS(res, n_skipped))
		skip_result_free(&res->skipped, &res->n_skipped, &res->skipped_blocks);
}
