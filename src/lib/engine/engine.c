// SPDX-License-Identifier: MIT
/*
 * The rescue engine (engine.h): one read of a pass (passes.c, retry.c)
 * from start to end.  The device is read, the good blocks go to the sink,
 * the outcome goes into the map, progress is reported and the map saved
 * when due; a failed read is logged for the retry plan.  Nothing here
 * opens a file, takes a lock or knows what the blocks are for: the jobs
 * (image.c, tail.c, verify.c) do, through the sink, so every job that walks a
 * disc with the passes walks it the same way.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>
#include "core/device.h"
#include "engine/engine.h"
#include "engine/reader.h"
#include "mmc/answer.h"
#include "probe/structure.h"

#define RESCUE_DEFAULT_SAVE_MS 5000
#define RESCUE_DEFAULT_CHUNK_BYTES 65536u

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

void rescue_progress(struct rescue *r, bool force)
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
	/* ddrescue's counts are the rescue's: an in-order walk has none */
	if (r->phase == CDT_PHASE_COMPARE)
		p.non_tried = p.non_trimmed = p.non_scraped = 0;
	rd->progress(rd->progress_ctx, &p);
}

int rescue_save(struct rescue *r)
{
	r->last_save_ms = rescue_now_ms();
	if (!r->sink.save)
		return 0;
	return r->sink.save(r->sink.ctx, r->map);
}

static int maybe_save(struct rescue *r)
{
	unsigned int every = r->map_interval_ms ? r->map_interval_ms :
		RESCUE_DEFAULT_SAVE_MS;

	if (rescue_now_ms() - r->last_save_ms < every)
		return 0;
	return rescue_save(r);
}

void rescue_enter_phase(struct rescue *r, enum cdt_phase phase, unsigned int pass)
{
	static const char status[] = {
		[CDT_PHASE_COPY] = MAP_NONTRIED,
		[CDT_PHASE_TRIM] = MAP_NONTRIMMED,
		[CDT_PHASE_SCRAPE] = MAP_NONSCRAPED,
		[CDT_PHASE_RETRY] = MAP_BAD,
		[CDT_PHASE_COMPARE] = MAP_NONTRIED,
	};

	r->phase = phase;
	r->pass = pass;
	r->map->cur_status = status[phase];
	r->map->cur_pass = pass;
	rescue_progress(r, true);
}

int rescue_read_fatal(struct cdt_dev *dev, uint64_t lba,
		      const struct cdt_read_result *rr)
{
	cdt_dev_seterr(dev, "READ at LBA %" PRIu64 " failed: sense %02x/%02x/%02x",
		       lba, rr->sense_key, rr->asc, rr->ascq);
	return CDT_ETRANSPORT;
}

/* 06/28/00: the sink decides whether the disc is still the same one. */
static int medium_changed(struct rescue *r)
{
	if (!r->sink.changed) {
		cdt_dev_seterr(r->dev, "the medium changed during the run");
		return CDT_ECHANGED;
	}
	return r->sink.changed(r->sink.ctx, r->buf, (size_t)r->chunk * r->bs);
}

/*
 * Note a failing read's first block: a drive reads in order, so that one
 * was tried, whichever block of the read failed.  0 or CDT_ENOMEM.
 */
int rescue_note_failure(struct rescue *r, uint64_t lba)
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
 * Read [lba, lba + n) and hand it to the sink.  SPAN_GOOD, SPAN_BAD (a
 * medium error, a timeout, or an end-of-medium answer inside the extent:
 * all mean "these blocks did not read"), or a negative error that ends
 * the run.
 */
static int read_span(struct rescue *r, uint64_t lba, uint32_t n)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct reader cooked;
	int rc;

	if (r->rd && r->rd->stop && *r->rd->stop)
		return CDT_EINTR;
	r->map->cur_pos = lba * r->bs;
	reader_init(&cooked, r->dev);
	for (;;) {
		rc = r->read ? r->read(r->read_ctx, lba, n, r->buf, &rr) :
			       reader_read(&cooked, lba, n, r->buf, &rr);
		if (rc)
			return rc;
		if (rr.cls != CDT_READ_CHANGED)
			break;
		/* nothing of this read is kept: the disc may be another */
		rc = medium_changed(r);
		if (rc)
			return rc;
	}
	r->last_cls = rr.cls;
	r->last_info_valid = rr.info_valid;
	r->last_info = rr.info;
	if (rr.cls == CDT_READ_FATAL)
		return rescue_read_fatal(r->dev, lba, &rr);
	/*
	 * Timeouts in a row over untried blocks mean the drive stopped
	 * answering; the later passes read blocks known to have failed,
	 * where timeouts are expected and bounded by the passes.  The
	 * in-order pass never comes back to a block: every read counts.
	 */
	r->drive_silent = timeout_row_note(&r->timeouts, lba, rr.cls,
					   r->phase == CDT_PHASE_COPY ||
					   r->phase == CDT_PHASE_COMPARE);
	/*
	 * 05/64/00 ILLEGAL MODE FOR THIS TRACK to a read of one block (the
	 * table's wrong mode): the block holds no 2048-byte user data.
	 * Inside a data track, where the layout put no run-out, that is a
	 * Mode 2 Form 2 sector (Video CD, CD-i, XA audio and video;
	 * dvdisaster issue 62) or a pregap the layout did not know: never
	 * damage, never the end (doc/disc-kinds.md).  The layout's skip list
	 * keeps every read away from audio, gaps and run-outs, so no other
	 * 05/64/00 reaches the engine.  05/6F/xx (the table's protected: a
	 * CSS-scrambled sector read without authentication, MMC-5 F.2) is
	 * a whole block the drive withholds: listed the same way, never
	 * damage.
	 */
	if (n == 1 && (rr.cls == CDT_READ_WRONG_MODE || rr.cls == CDT_READ_PROTECTED) &&
	    r->sink.wrong_mode) {
		enum cdt_skip_why why = rr.cls == CDT_READ_PROTECTED ?
					CDT_SKIP_PROTECTED : CDT_SKIP_FORM2;

		if (r->sink.failed)
			r->sink.failed(r->sink.ctx, lba, n);
		rc = rescue_note_failure(r, lba);
		if (!rc && !r->sink.wrong_mode(r->sink.ctx, lba, why))
			return SPAN_WRONG_MODE;
		if (rc)
			return rc;
		return SPAN_BAD;
	}
	if (rr.cls != CDT_READ_OK) {
		if (r->sink.failed)
			r->sink.failed(r->sink.ctx, lba, n);
		rc = rescue_note_failure(r, lba);
		return rc ? rc : SPAN_BAD;
	}
	rc = r->sink.put ? r->sink.put(r->sink.ctx, lba, n, r->buf) : 0;
	if (rc)
		return rc;
	r->blocks_read += n;
	r->bytes_read += (uint64_t)n * r->bs;
	return SPAN_GOOD;
}

bool timeout_row_note(struct timeout_row *t, uint64_t lba,
		      enum cdt_read_class cls, bool counts)
{
	if (cls != CDT_READ_TIMEOUT || !counts) {
		t->n = 0;
		return false;
	}
	if (t->n && t->last_lba == lba)
		return false;
	t->last_lba = lba;
	return ++t->n >= CDT_TIMEOUTS_IN_ROW;
}

int rescue_stopped_answering(struct cdt_dev *dev, uint64_t lba, bool resumable)
{
	cdt_dev_seterr(dev, "the drive stopped answering: %d reads of %s blocks in a row did not complete within the timeout (the last at LBA %" PRIu64
		       "); run the same command again when it answers%s",
		       CDT_TIMEOUTS_IN_ROW, resumable ? "untried" : "different", lba,
		       resumable ? ": the resume goes past those blocks and tries them last" : "");
	return CDT_ETIMEOUT;
}

int rescue_try(struct rescue *r, uint64_t lba, uint32_t n, char bad_status)
{
	int got = read_span(r, lba, n);
	int rc;

	if (got < 0)
		return got;
	rc = map_set(r->map, lba * r->bs, (uint64_t)n * r->bs,
		     got == SPAN_BAD ? bad_status : MAP_FINISHED);
	if (rc)
		return rc;
	/*
	 * The blocks that timed out are marked first: a resume goes past
	 * them.  An in-order walk has no map to resume from.
	 */
	if (r->drive_silent)
		return rescue_stopped_answering(r->dev, lba,
						r->phase != CDT_PHASE_COMPARE);
	rescue_progress(r, false);
	rc = maybe_save(r);
	return rc ? rc : got;
}

uint32_t rescue_medium_unit(uint16_t profile, uint32_t chunk, uint32_t max_blocks)
{
	uint32_t unit = probe_bd_profile(profile) ? 32 : probe_dvd_profile(profile) ? 16 : 1;

	return unit <= chunk && unit <= max_blocks ? unit : 1;
}

void rescue_fit_unit(struct rescue *r, uint16_t profile)
{
	r->unit = rescue_medium_unit(profile, r->chunk, cdt_max_read_blocks(r->dev));
	r->chunk -= r->chunk % r->unit;
}

uint32_t rescue_unit_up(const struct rescue *r, uint64_t lba, uint64_t limit)
{
	uint64_t n = r->unit > 1 ? r->unit - lba % r->unit : 1;

	if (limit > lba && n > limit - lba)
		n = limit - lba;
	return (uint32_t)(n ? n : 1);
}

uint32_t rescue_unit_down(const struct rescue *r, uint64_t end, uint64_t floor)
{
	uint64_t from = r->unit > 1 ? (end - 1) - (end - 1) % r->unit : end - 1;

	if (from < floor)
		from = floor;
	return (uint32_t)(end > from ? end - from : 1);
}

/* Block lba read already ('+'): the disc gave data there. */
static bool block_finished(const struct rescue *r, uint64_t lba)
{
	return (lba + 1) * r->bs <= r->map->size &&
	       map_status_at(r->map, lba * r->bs) == MAP_FINISHED;
}

/*
 * A failed unit just after blocks that read: one defect fails a whole ECC
 * block on the medium, but a unit can also hold the last blocks before the
 * disc's real end (a LUN or image whose size is no whole number of units)
 * or the edge of damage that is no whole unit.  Where the sense names the
 * first bad LBA (the INFORMATION field, SPC-4 4.5.2.3), the blocks before
 * it are read again in one command and cost nothing on a real ECC defect
 * (it names the unit's first block); where it names none, the blocks are
 * read one at a time from the good side while they read.  The rest of
 * the unit is left bad.
 */
static int try_from_good_side(struct rescue *r, uint64_t lba, uint32_t n, char bad_status)
{
	uint32_t i;
	int one;

	if (r->last_info_valid) {
		if (r->last_info <= lba || r->last_info >= lba + n)
			return SPAN_BAD;
		one = rescue_try(r, lba, (uint32_t)(r->last_info - lba), bad_status);
		return one < 0 ? one : SPAN_BAD;
	}
	for (i = 0; i < n; i++) {
		one = rescue_try(r, lba + i, 1, bad_status);
		if (one != SPAN_GOOD)
			return one < 0 ? one : SPAN_BAD;
	}
	return SPAN_GOOD;
}

int rescue_try_unit(struct rescue *r, uint64_t lba, uint32_t n, char bad_status)
{
	int got = rescue_try(r, lba, n, bad_status), one, bad = 0;
	uint32_t i;

	if (got == SPAN_BAD && n > 1 && r->last_cls == CDT_READ_MEDIUM &&
	    lba && block_finished(r, lba - 1))
		return try_from_good_side(r, lba, n, bad_status);
	if (got != SPAN_BAD || n == 1 ||
	    (r->last_cls != CDT_READ_WRONG_MODE && r->last_cls != CDT_READ_PROTECTED))
		return got;
	for (i = 0; i < n; i++) {
		one = rescue_try(r, lba + i, 1, bad_status);
		if (one < 0)
			return one;
		bad += one == SPAN_BAD;
	}
	return bad ? SPAN_BAD : SPAN_WRONG_MODE;
}
