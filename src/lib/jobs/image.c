// SPDX-License-Identifier: MIT
/*
 * cdt_image: the image job around the rescue engine (engine.h), as GNU
 * ddrescue's main.cc is around its rescuebook.cc.  The job takes the
 * locks, reads or makes the map and its identity record, finds the extent
 * (the end search, data first where it may), creates and sizes OUT,
 * drives the engine's passes through the file sink (sink.h), and finishes
 * the digests; a run that read nothing removes what it made.
 *
 * Invariants that make a killed run resumable:
 *  - the engine marks a block finished only after the sink wrote it to
 *    OUT, and the sink replaces the map file only after an fdatasync of
 *    OUT, so the saved map never claims more than OUT holds, whatever
 *    moment the process dies at;
 *  - OUT is created (or truncated with force) at the extent's size
 *    before the first map is saved, so blocks never read good are zeros:
 *    bad blocks need no explicit zero-fill.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "core/abi.h"
#include "core/device.h"
#include "probe/probe.h"
#include "engine/engine.h"
#include "engine/passes.h"
#include "engine/reader.h"
#include "jobs/job.h"
#include "book/lock.h"
#include "engine/sink.h"

#include "jobs/imagejob.h"

/*
 * A map that stops short of the extent is grown to it only when it has no
 * cdtail identity (one with an identity covers its recorded extent, which
 * the resume has just checked): GNU ddrescue's of the kernel's node, which
 * Linux sizes from READ CAPACITY (drivers/scsi/sr.c, get_sectorsize), or
 * of any length short of the true end (ddrescue -s).  Its length is not
 * required to be READ CAPACITY's: a map of any shorter length of the same
 * disc holds nothing the true end contradicts, and what shows it is this
 * disc is OUT (open_resumed: no longer than the map; check_against_out:
 * up to 16 of its finished blocks read back the same).
 */
static bool adoptable(const struct image_job *j)
{
	const struct cdt_map *m = &j->book.map;

	return !j->book.rec.id.present && m->size < j->extent_bytes && !(m->size % j->bs);
}

static int check_map(struct image_job *j)
{
	uint32_t bs = j->bs;
	size_t i;

	if (j->book.map.size != j->extent_bytes && !adoptable(j)) {
		cdt_dev_seterr(j->dev,
			       "map %s covers %" PRIu64 " bytes but this disc holds %" PRIu64
			       " (%" PRIu64 " blocks of %u): a map of another disc?",
			       j->opts->map_path, j->book.map.size, j->extent_bytes,
			       j->res->extent_blocks, bs);
		return CDT_EOTHERDISC;
	}
	for (i = 0; i < j->book.map.n; i++) {
		if (j->book.map.runs[i].pos % bs || j->book.map.runs[i].size % bs) {
			cdt_dev_seterr(j->dev,
				       "map %s has a run at byte %" PRIu64
				       " that is not in whole %u-byte blocks",
				       j->opts->map_path, j->book.map.runs[i].pos, bs);
			return CDT_EFORMAT;
		}
	}
	return 0;
}

/*
 * Before anything else: lock the map and OUT where they exist, so a
 * second run fails at once, and refuse an OUT that is the source.
 */
static int lock_existing(struct image_job *j)
{
	struct stat st;
	int rc;

	rc = book_lock(&j->book, false);
	if (rc)
		return rc;
	if (!stat(j->out_path, &st)) {
		if (j->dev->t->ops->is_source && j->dev->t->ops->is_source(j->dev->t, &st)) {
			cdt_dev_seterr(j->dev, "%s is the disc being read: the image must be another file",
				       j->out_path);
			return CDT_EOTHERDISC;
		}
		if (!S_ISREG(st.st_mode)) {
			cdt_dev_seterr(j->dev, "%s: not a regular file", j->out_path);
			return CDT_EUSAGE;
		}
		rc = lock_open(j->out_path, false, &j->fd);
		if (rc == CDT_EBUSY)
			return image_busy(j, "OUT", j->out_path);
		if (rc && rc != CDT_EOPEN) {
			cdt_dev_seterr(j->dev, "%s: %s", j->out_path, strerror(errno));
			return CDT_EIO;
		}
		if (!rc)
			rc = book_add_file(&j->book, j->out_path, j->fd, false);
		if (rc == CDT_ENOMEM) {
			close(j->fd);
			j->fd = -1;
			return rc;
		}
	}
	return 0;
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
static uint64_t agreed_extent(const struct cdt_layout *l, const struct cdt_sizes *sz)
{
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
	if (j->res->sum.block_size == j->book.rec.id.block_size)
		return 0;
	cdt_dev_seterr(j->dev, "map %s belongs to another disc: %u-byte blocks, this one has %u",
		       j->opts->map_path, j->book.rec.id.block_size, j->res->sum.block_size);
	return CDT_EOTHERDISC;
}

/*
 * With an identity record whose search is done the end is known and only
 * the recorded blocks are read (no failing read on an undamaged disc).
 */
static int known_extent(struct image_job *j)
{
	struct cdt_read_summary *sum = &j->res->sum;
	const struct disc_id *id = &j->book.rec.id;
	int rc;

	rc = probe_known_end(j->dev, &j->found, id->true_blocks, id->extent, sum->probe);
	if (rc)
		return rc;
	sum->block_size = sum->probe->sizes.block_size;
	return check_block_size(j);
}

/* This run's --max-extra, its default made explicit. */
static uint64_t run_max_extra(const struct image_job *j)
{
	return j->opts->rd.max_extra ? j->opts->rd.max_extra : CDT_DEFAULT_MAX_EXTRA;
}

/*
 * A record whose search stopped at the --max-extra window (issue 28 B):
 * the disc may hold more than its extent.  While this run's window ends
 * there too (the same --max-extra, or a smaller one), the extent stands and
 * so does the window limit: exit 5 again, never "complete".  A window that
 * reaches further searches on, data first, from the record's true end (the
 * block before it read good in that search; none above it did): the
 * extent grows to the end found, or to the new window's edge.
 */
static void window_resume(struct image_job *j)
{
	struct cdt_probe_result *p = j->res->sum.probe;

	if (p->reported_blocks + run_max_extra(j) <= j->book.rec.id.extent) {
		p->notes |= CDT_NOTE_WINDOW_LIMIT;
		j->window_extra = j->book.rec.id.max_extra;
		return;
	}
	j->search_above = j->book.rec.id.true_blocks;
	j->data_first = true;
}

/*
 * The extent decision, from the book's state (book.h): a known end reads
 * only the recorded extent (no failing read on an undamaged disc), a
 * window resumed may search on; otherwise the probe up to the end search,
 * then the search, unless the data comes first (a fresh run that may, a
 * resume of a pending search: its provisional extent stands).  A map of
 * its own extent (GNU ddrescue's) needs the search first.
 */
static int find_extent_once(struct image_job *j)
{
	struct cdt_read_summary *sum = &j->res->sum;
	struct cdt_probe_opts po = CDT_INIT(po);
	int rc;

	sum->size = sizeof(*sum);
	sum->stats.size = sizeof(sum->stats);
	j->window_extra = run_max_extra(j);
	if (j->book.state == BOOK_KNOWN || j->book.state == BOOK_WINDOW) {
		rc = known_extent(j);
		if (!rc && j->book.state == BOOK_WINDOW)
			window_resume(j);
		return rc;
	}
	rc = probe_begin(j->dev, &j->found, sum->probe);
	if (rc)
		return rc;
	sum->block_size = sum->probe->sizes.block_size;
	if (!sum->block_size) {
		cdt_dev_seterr(j->dev, "the drive reported a block size of 0");
		return CDT_ETRANSPORT;
	}
	switch (j->book.state) {
	case BOOK_PENDING:
		sum->probe->extent_blocks = j->book.rec.id.extent;
		j->data_first = true;
		return check_block_size(j);
	case BOOK_NONE:
	case BOOK_NEW:
		sum->probe->extent_blocks = agreed_extent(j->found.layout, &sum->probe->sizes);
		if (sum->probe->extent_blocks) {
			j->data_first = true;
			return 0;
		}
		break;
	default:	/* BOOK_FOREIGN */
		sum->probe->extent_blocks = 0;
		break;
	}
	rescue_probe_opts(&j->opts->rd, &po);
	return probe_end(j->dev, &j->found, &po, sum->probe);
}

/*
 * The medium changed during the end search, before anything was written
 * or recorded: the probe starts again on the disc now in the drive, so no
 * size source, skip plan or identity mixes two discs (a change while the
 * sizes are read is probe_begin's own).  Nothing of the first attempt
 * stays: its notes are the other disc's as much as its sizes.
 */
#define FIND_EXTENT_STARTS 3

static int find_extent(struct image_job *j)
{
	struct cdt_probe_result *p = j->res->sum.probe;
	int i, rc = 0;

	for (i = 0; i < FIND_EXTENT_STARTS; i++) {
		if (i) {
			memset(p, 0, sizeof(*p));
			p->size = sizeof(*p);
		}
		rc = find_extent_once(j);
		if (rc != CDT_ECHANGED)
			break;
	}
	return rc;
}

/*
 * The record says whether the search stopped at the window, and of which
 * --max-extra: a resume must know the disc may go on (issue 28 B).
 */
static void record_window(struct image_job *j)
{
	j->book.rec.id.window = !j->book.rec.id.pending &&
		       (j->res->sum.probe->notes & CDT_NOTE_WINDOW_LIMIT);
	j->book.rec.id.max_extra = j->book.rec.id.window ? j->window_extra : 0;
}

/* A resume: the recorded blocks read back as recorded. */
static int check_identity(struct image_job *j, bool *verified)
{
	unsigned int matched;
	int rc = book_verify(&j->book, j->buf, j->bs, &matched, verified);

	if (!rc && j->book.rec.id.present)
		j->res->identity_blocks = matched;
	return rc;
}

/*
 * A map without a cdtail identity (GNU ddrescue's, an older cdtail's):
 * up to 16 finished blocks spread over the disc must read back equal to
 * what OUT holds for them.
 */
static int check_against_out(struct image_job *j)
{
	unsigned int compared;
	uint64_t at = 0;
	int rc = image_out_differs(j, &compared, &at);

	if (rc == 2)
		return book_other_disc(&j->book, "block %" PRIu64 " is missing from %s", at,
				       j->out_path);
	if (rc == 1)
		return book_other_disc(&j->book, "block %" PRIu64 " on the disc differs"
				       " from %s's (the map has no cdtail identity)", at,
				       j->out_path);
	if (rc == CDT_ECHANGED)
		cdt_dev_seterr(j->dev, "the medium changed while the disc was compared with %s",
			       j->out_path);
	if (rc)
		return rc;
	j->res->identity_blocks = compared;
	return 0;
}

/*
 * A short map checked against OUT (adoptable): the blocks past its end are
 * untried, so the passes read only those and what the map left undone.
 * OUT grows with the first save (size_out), after the map.
 */
static int grow_map(struct image_job *j)
{
	if (j->book.map.size == j->extent_bytes)
		return 0;
	j->res->map_grown_from = j->book.map.size / j->bs;
	return map_resize(&j->book.map, j->extent_bytes, MAP_NONTRIED);
}

/*
 * A resume's check that the disc is the map's: a medium change while it
 * reads is checked again, the check being what tells the disc (a bounded
 * number of times: a drive whose medium keeps changing ends the run).
 */
#define CHECK_STARTS 4

static int check_resumed(struct image_job *j, int (*check)(struct image_job *, bool *),
			 bool *verified)
{
	int i, rc = CDT_ECHANGED;

	for (i = 0; i < CHECK_STARTS && rc == CDT_ECHANGED; i++)
		rc = check(j, verified);
	return rc;
}

static int check_out(struct image_job *j, bool *verified)
{
	(void)verified;
	return check_against_out(j);
}

static int prepare(struct image_job *j)
{
	bool verified = false;
	int rc;

	rc = check_resumed(j, check_identity, &verified);
	if (rc)
		return rc;
	if (book_resumed(&j->book)) {
		rc = check_map(j);
		if (rc)
			return rc;
		j->res->resumed = true;
		j->res->other_drive = strcmp(j->book.rec.drive, j->book.drive) != 0;
		rc = image_open_resumed(j);
		if (!rc && !verified)
			rc = check_resumed(j, check_out, &verified);
		if (!rc)
			rc = grow_map(j);
		if (!rc)
			rc = skip_mark(&j->book.rec.skip, &j->book.map, j->bs);
		if (rc)
			return rc;
		j->res->finished_before = map_count(&j->book.map, MAP_FINISHED) / j->bs -
					  j->book.rec.skip.blocks;
		book_accept(&j->book);	/* this disc's: a resume can go on from it */
	}
	if (!verified) {
		id_init(&j->book.rec.id, j->bs, j->res->extent_blocks, j->data_first ?
			j->res->extent_blocks : j->res->sum.probe->true_blocks);
		id_pick_below(&j->book.rec.id, j->found.filler_from);
		j->book.rec.id.pending = j->data_first;
		record_window(j);
		rc = book_resumed(&j->book) ? image_note_from_out(j) : 0;
		if (rc)
			return rc;
	}
	rc = image_check_space(j);
	if (!rc)
		rc = book_make_comment(&j->book);
	if (!rc && !book_resumed(&j->book))
		rc = image_create_fresh(j);
	if (!rc)
		image_check_holes(j);
	if (!rc)
		rc = image_size_out(j);
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

	for (i = 0; i < j->book.rec.skip.n && j->book.rec.skip.v[i].start < was; i++) {
		uint64_t end = j->book.rec.skip.v[i].start + j->book.rec.skip.v[i].blocks;

		j->out.stream_broken = true;
		rc = zero_out(j, r, j->book.rec.skip.v[i].start, end < was ? end : was);
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

	rc = map_set(&j->book.map, e * j->bs, (was - e) * j->bs, MAP_NONTRIED);
	if (!rc)
		rc = rescue_save(r);
	if (rc)
		return rc;
	if (j->out.stream_pos > e * j->bs)
		j->out.stream_broken = true;
	if (ftruncate(j->fd, (off_t)(e * j->bs))) {
		cdt_dev_seterr(j->dev, "%s: %s", j->out_path, strerror(errno));
		return CDT_EIO;
	}
	return 0;
}

/*
 * A block that answered 05/64/00 or 05/6F/xx alone (engine.h,
 * wrong_mode): listed as Form 2 or protected, in the map's skip list too,
 * so a resumed run knows it.
 */
static int list_wrong_mode(void *ctx, uint64_t lba, enum cdt_skip_why why)
{
	struct image_job *j = ctx;
	const struct cdt_skip *k = skip_at(&j->book.rec.skip, lba);
	int rc;

	/* listed by an earlier read of it: the map marks it finished again */
	if (k)
		return k->why == why ? 0 : CDT_EFORMAT;
	rc = skip_add(&j->book.rec.skip, lba, why);

	return rc ? rc : book_make_comment(&j->book);
}

/* The Form 2 and protected blocks of old below extent, into the new plan. */
static int keep_found(const struct skip_plan *old, uint64_t extent,
		      struct skip_plan *plan)
{
	size_t i;
	uint64_t b;

	for (i = 0; i < old->n; i++) {
		const struct cdt_skip *k = &old->v[i];

		if (k->why != CDT_SKIP_FORM2 && k->why != CDT_SKIP_PROTECTED)
			continue;
		/* one the new plan skips already, or one too many: left out */
		for (b = k->start; b < k->start + k->blocks && b < extent; b++)
			if (skip_add(plan, b, k->why) == CDT_ENOMEM)
				return CDT_ENOMEM;
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
	uint64_t was = res->extent_blocks, e = res->sum.probe->extent_blocks;
	struct skip_plan found = j->book.rec.skip;
	int rc;

	rc = skip_plan_make(j->found.layout, res->sum.probe, j->opts->formatted, &e, &j->book.rec.skip);
	if (!rc)
		rc = keep_found(&found, e, &j->book.rec.skip);
	skip_free(&found);
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
	rc = map_resize(&j->book.map, e * j->bs, MAP_NONTRIED);
	if (!rc)
		rc = skip_mark(&j->book.rec.skip, &j->book.map, j->bs);
	if (!rc)
		rc = zero_skipped(j, r, was);
	if (rc)
		return rc;
	res->extent_blocks = e;
	j->extent_bytes = e * j->bs;
	id_init(&j->book.rec.id, j->bs, e, res->sum.probe->true_blocks);
	/* identity blocks are data blocks, never filler (issue 32) */
	id_pick_below(&j->book.rec.id, j->found.filler_from);
	record_window(j);
	rc = image_note_from_out(j);
	if (!rc)
		rc = book_make_comment(&j->book);
	if (rc)
		return rc;
	rc = rescue_save(r);
	return rc ? rc : image_size_out(j);
}

/*
 * Data first: the copying passes over the provisional extent (the good
 * blocks past a scratch, which pass 2 reads, come before the search's
 * failing read too), the end search, the extent settled, the copying
 * passes over what is left; the trimming, scraping and retries follow.
 */
static int copy_then_search(struct image_job *j, struct rescue *r)
{
	uint64_t was = j->res->extent_blocks;
	uint64_t first = was > DATA_FIRST_MARGIN ? was - DATA_FIRST_MARGIN : 0;
	int rc;

	rc = rescue_copy(r, 0, first);
	if (!rc)
		rc = rescue_save(r);
	if (rc)
		return rc;
	rc = image_search_after_copy(j, r);
	if (!rc)
		rc = settle_extent(j, r);
	return rc ? rc : rescue_copy(r, first, UINT64_MAX);
}

/*
 * The probe's failing reads (probe.h, its findings) into the map before pass 1, as the
 * passes would have left them: one block read alone and failed is bad
 * ('-', trimmed and scraped already), a chunk that failed is non-trimmed
 * ('*'), so pass 1 does not fail on it again; each counts as this run's
 * try of its first block (the retry plans'). Only blocks still untried
 * change: a resumed map's own record stands.
 */
/*
 * The lowest block a later single read failed on inside the failed chunk
 * k: the probe reads a failed chunk's blocks alone in order, so the chunk,
 * read in order by the drive, stopped there and tried it too (the retry
 * plan counts a block's tries, retry.c).  UINT64_MAX: none.
 */
static uint64_t chunk_stop(const struct probe_findings *pf, unsigned int k)
{
	const struct probe_failed_read *c = &pf->failed[k];
	uint64_t low = UINT64_MAX;
	unsigned int i;

	for (i = k + 1; i < pf->n_failed; i++) {
		const struct probe_failed_read *f = &pf->failed[i];

		if (f->n == 1 && f->lba >= c->lba && f->lba - c->lba < c->n && f->lba < low)
			low = f->lba;
	}
	return low;
}

static int premark(struct image_job *j, struct rescue *r)
{
	const struct probe_findings *pf = &j->found;
	uint64_t b, end, extent = j->res->extent_blocks;
	unsigned int i;
	char st, want;
	int rc;

	for (i = 0; i < pf->n_failed; i++) {
		const struct probe_failed_read *f = &pf->failed[i];

		if (f->lba >= extent)
			continue;
		b = f->n > 1 ? chunk_stop(pf, i) : UINT64_MAX;
		rc = rescue_note_failure(r, b < extent ? b : f->lba);
		if (rc)
			return rc;
		want = f->n == 1 ? MAP_BAD : MAP_NONTRIMMED;
		end = f->lba + f->n < extent ? f->lba + f->n : extent;
		for (b = f->lba; b < end; b++) {
			st = map_status_at(&j->book.map, b * j->bs);
			if (skip_at(&j->book.rec.skip, b) || (st != MAP_NONTRIED &&
			    !(st == MAP_NONTRIMMED && want == MAP_BAD)))
				continue;
			rc = map_set(&j->book.map, b * j->bs, j->bs, want);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* 1 + the highest block the map marks read and does not skip; 0: none. */
static uint64_t read_end(const struct image_job *j)
{
	const struct cdt_skip *k;
	size_t i = j->book.map.n;
	uint64_t b, first;

	while (i--) {
		const struct map_run *run = &j->book.map.runs[i];

		if (run->status != MAP_FINISHED || run->size < j->bs)
			continue;
		first = run->pos / j->bs;
		/* skipped blocks are finished unread: below their start */
		for (b = (run->pos + run->size) / j->bs; b > first; b = k->start) {
			k = skip_at(&j->book.rec.skip, b - 1);
			if (!k)
				return b;
		}
	}
	return 0;
}

/*
 * The true end is never below a block read good (issue 32): an end search
 * that met only failures near the reported end (a damaged start, a hidden
 * tail) may say less than the passes then read, and a resume and the
 * report take the record's.  Raised to 1 + the last block the map marks
 * read (this run's or, on a resume, an earlier run's of the same disc),
 * the hidden count and the verdict with it, as the probe judges them.
 */
static void true_end_covers_reads(struct image_job *j)
{
	struct cdt_probe_result *p = j->res->sum.probe;
	uint64_t end = read_end(j);

	if (end > p->true_blocks) {
		p->true_blocks = end;
		p->hidden_blocks = (int64_t)end - (int64_t)p->reported_blocks;
		p->notes &= ~(unsigned int)CDT_NOTE_NO_READABLE;
		if (p->hidden_blocks > 0)
			p->verdict = CDT_VERDICT_HIDDEN_TAIL;
	}
	if (!j->book.rec.id.pending && end > j->book.rec.id.true_blocks)
		j->book.rec.id.true_blocks = end;
}

static int run_job(struct image_job *j)
{
	struct cdt_image_result *res = j->res;
	uint32_t bs = j->bs;
	struct rescue r = {
		.dev = j->dev,
		.map = &j->book.map,
		.bs = bs,
		.rd = &j->opts->rd,
		.retries = j->opts->rd.retries,
		/* a resume in another drive than the map's last (or a map
		 * naming none: GNU ddrescue's, whose bad blocks cdtail never
		 * tried): every bad block once more (DRIVE_HEAD) */
		.once_more = j->res->other_drive,
		.map_interval_ms = j->opts->map_interval_ms,
		.t0 = rescue_now_ms(),
	};
	struct dg stream = { 0 };
	int rc, rc2;

	j->out = (struct file_sink){
		.dev = j->dev,
		.fd = j->fd,
		.bs = bs,
		.book = &j->book,
		.skip = &j->book.rec.skip,
		.wrong_mode = list_wrong_mode,
		.changed = image_changed,
		.job = j,
	};
	file_sink_attach(&j->out, &r);
	r.chunk = rescue_chunk_blocks(j->dev, bs, j->opts->rd.chunk_blocks);
	/* DVD and BD: reads in whole ECC blocks, on their grid (issue 36) */
	rescue_fit_unit(&r, res->sum.probe ? res->sum.probe->sizes.profile : 0);
	r.buf = malloc((size_t)r.chunk * bs);
	if (!r.buf)
		return CDT_ENOMEM;
	rc = premark(j, &r);
	if (rc) {
		free(r.buf);
		rescue_fini(&r);
		return rc;
	}
	/* the image's digests and its tracks', from the blocks as written */
	if (j->digests) {
		rc = image_stream_init(j, &stream);
		j->out.stream = &stream;
	}
	if (!rc)
		rc = rescue_save(&r);
	if (!rc)
		rc = j->data_first ? copy_then_search(j, &r) : rescue_copy(&r, 0, UINT64_MAX);
	if (!rc)
		rc = rescue_rest(&r);
	res->sum.blocks_read = r.blocks_read;
	true_end_covers_reads(j);
	/* save whatever happened: an interrupted run resumes from here */
	rc2 = book_save_after(&j->book, &j->book.map, rc);
	if (!rc)
		rc = rc2;
	if (!rc)
		rc = image_finish_digests(j);
	if (rc) {
		free(res->track_digests);
		res->track_digests = NULL;
		res->n_track_digests = 0;
	}
	if (j->out.stream)
		dg_free(j->out.stream);
	rescue_fini(&r);
	free(r.buf);
	return rc;
}

/* opts->digests as CDT_HASH_MD5/SHA256/SHA1 bits (0: none); false if invalid. */
static bool digest_bits(unsigned int want, unsigned int *bits)
{
	if (!want)
		*bits = CDT_HASH_ALL;
	else if (want == CDT_HASH_NONE)
		*bits = 0;
	else if (want & ~DG_HASH_ANY)
		return false;
	else
		*bits = want;
	return true;
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

	if (!j->book.rec.skip.n)
		return skip_plan_make(j->found.layout, res->sum.probe, j->opts->formatted,
				      book_resumed(&j->book) ? &extent : &res->extent_blocks,
				      &j->book.rec.skip);
	last = &j->book.rec.skip.v[j->book.rec.skip.n - 1];
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
		rc = book_load(&j->book, j->opts->force);
	if (!rc)
		rc = find_extent(j);
	if (rc)
		return rc;
	j->bs = res->sum.block_size;
	snprintf(j->book.drive, sizeof(j->book.drive), "%s %s %s", res->sum.probe->inq.vendor,
		 res->sum.probe->inq.product, res->sum.probe->inq.revision);
	res->extent_blocks = res->sum.probe->extent_blocks;
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
			       .res = res, .fd = -1 };
	double t0 = rescue_now_ms();
	int rc, rc2;

	book_init(&j.book, dev, opts->map_path, opts->map_comment, "block");
	reader_init(&j.cooked, dev);
	j.book.read = reader_read;
	j.book.read_ctx = &j.cooked;

	if (!digest_bits(opts->digests, &j.digests)) {
		cdt_dev_seterr(dev, "digests 0x%x: not a choice of CDT_HASH_MD5, CDT_HASH_SHA256, CDT_HASH_SHA1 or CDT_HASH_NONE",
			       opts->digests);
		return CDT_EUSAGE;
	}
	rc = start(&j);
	if (!rc)
		rc = run_job(&j);
	rc2 = j.book.map.n ? rescue_bad_ranges(&j.book.map, j.bs, &res->sum) : 0;
	if (!rc)
		rc = rc2;
	if (j.book.map.n && j.bs)
		res->out_blocks = map_count(&j.book.map, MAP_FINISHED) / j.bs -
				  j.book.rec.skip.blocks;
	rc2 = skip_copy(&j.book.rec.skip, &res->skipped, &res->n_skipped, &res->skipped_blocks);
	if (!rc)
		rc = rc2;
	if (!res->identity_blocks)
		res->identity_blocks = j.book.rec.id.n;
	/* a run that ends before its first block leaves nothing it made:
	 * no OUT full of zeros for the next run to refuse, no map of nothing */
	if (rc && !res->sum.blocks_read)
		res->removed = book_remove_created(&j.book);
	res->map_saved = book_map_saved(&j.book);
	/* a data-first run stopped before its search: no end was found */
	res->end_pending = j.data_first && j.book.rec.id.pending;
	rc = book_close(&j.book, rc);
	probe_findings_free(&j.found);
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
		rc = rescue_summary_start(&full.sum);
	if (!rc)
		rc = image(dev, out_path, &o, &full);
	if (cdt_abi_leave(res, &full, sizeof(full),
			  CDT_END(struct cdt_image_result, sum.n_bad)))
		rescue_summary_free(&full.sum);
	if (!res || !CDT_HAS(res, n_skipped))
		free(full.skipped);
	if (!res || !CDT_HAS(res, n_track_digests))
		free(full.track_digests);
	return rc;
}

void cdt_image_result_free(struct cdt_image_result *res)
{
	if (res && CDT_HAS(res, sum.n_bad))
		rescue_summary_free(&res->sum);
	if (res && CDT_HAS(res, n_skipped))
		skip_result_free(&res->skipped, &res->n_skipped, &res->skipped_blocks);
	if (res && CDT_HAS(res, n_track_digests)) {
		free(res->track_digests);
		res->track_digests = NULL;
		res->n_track_digests = 0;
	}
}
