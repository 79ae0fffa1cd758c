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
	return !j->id.present && j->map.size < j->extent_bytes && !(j->map.size % j->bs);
}

static int check_map(struct image_job *j)
{
	uint32_t bs = j->bs;
	size_t i;

	if (j->map.size != j->extent_bytes && !adoptable(j)) {
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
			return image_busy(j, "map", mp);
		if (rc && rc != CDT_EOPEN) {
			cdt_dev_seterr(j->dev, "map %s: %s", mp, strerror(errno));
			return errno == EISDIR ? CDT_EUSAGE : CDT_EIO;
		}
		/* ours now: what a killed run of it left is not in use */
		if (!rc)
			map_remove_stale(mp);
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
			return image_busy(j, "OUT", j->out_path);
		if (rc && rc != CDT_EOPEN) {
			cdt_dev_seterr(j->dev, "%s: %s", j->out_path, strerror(errno));
			return CDT_EIO;
		}
	}
	return 0;
}

/* The map's "# cdtail drive: " line into out ("" without one). */
static void find_drive(const char *text, char *out, size_t len)
{
	const char *p = text, *v;
	size_t n;

	out[0] = '\0';
	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "# " DRIVE_HEAD, 2 + strlen(DRIVE_HEAD)))
			continue;
		v = p + 2 + strlen(DRIVE_HEAD);
		n = strcspn(v, "\n");
		if (n >= len)
			n = len - 1;
		memcpy(out, v, n);
		out[n] = '\0';
	}
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
	find_drive(text, j->map_drive, sizeof(j->map_drive));
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

	rc = probe_known_end(j->dev, j->id.true_blocks, j->id.extent, sum->probe);
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

	if (p->reported_blocks + run_max_extra(j) <= j->id.extent) {
		p->notes |= CDT_NOTE_WINDOW_LIMIT;
		j->window_extra = j->id.max_extra;
		return;
	}
	j->search_above = j->id.true_blocks;
	j->data_first = true;
}

/*
 * A finished search can leave blocks undecided past the true end it
 * found: blocks that never answered (a run-out or the lead-out that timed
 * out, a hang) are failed blocks, not the end, so the extent took them
 * in.  Where a resume finds such a block neither read nor skipped in the
 * map, the search runs again after the copy, as a pending one does: where
 * those blocks now answer as the end (a run-out's 05/64/00 at once), the
 * extent shrinks to the true end (settle_extent, shrink_out).
 */
static bool undecided_tail(const struct image_job *j)
{
	uint64_t bs = j->id.block_size, b;

	if (!bs || j->id.extent <= j->id.true_blocks)
		return false;
	for (b = j->id.true_blocks; b < j->id.extent; b++)
		if (!skip_at(&j->skip, b) && map_status_at(&j->map, b * bs) != MAP_FINISHED)
			return true;
	return false;
}

/*
 * The probe up to the end search; then the search, unless the data comes
 * first (a fresh run that may, a resume of a map whose search is pending
 * or left blocks undecided: its provisional extent stands).
 */
static int find_extent_once(struct image_job *j)
{
	struct cdt_read_summary *sum = &j->res->sum;
	struct cdt_probe_opts po = CDT_INIT(po);
	int rc;

	sum->size = sizeof(*sum);
	sum->stats.size = sizeof(sum->stats);
	j->window_extra = run_max_extra(j);
	if (j->id.present && !j->id.pending && !undecided_tail(j)) {
		rc = known_extent(j);
		if (!rc && j->id.window)
			window_resume(j);
		return rc;
	}
	rc = probe_begin(j->dev, sum->probe);
	if (rc)
		return rc;
	sum->block_size = sum->probe->sizes.block_size;
	if (!sum->block_size) {
		cdt_dev_seterr(j->dev, "the drive reported a block size of 0");
		return CDT_ETRANSPORT;
	}
	if (j->loaded && j->id.present) {
		sum->probe->extent_blocks = j->id.extent;
		j->data_first = true;
		return check_block_size(j);
	}
	/* a map of its own extent (GNU ddrescue's) needs the search first */
	sum->probe->extent_blocks = j->loaded ? 0 : agreed_extent(j->dev, &sum->probe->sizes);
	if (sum->probe->extent_blocks) {
		j->data_first = true;
		return 0;
	}
	rescue_probe_opts(&j->opts->rd, &po);
	return probe_end(j->dev, &po, sum->probe);
}

/*
 * The medium changed during the end search, before anything was written
 * or recorded: the probe starts again on the disc now in the drive, so no
 * size source, skip plan or identity mixes two discs (a change while the
 * sizes are read is probe_begin's own).
 */
#define FIND_EXTENT_STARTS 3

static int find_extent(struct image_job *j)
{
	int i, rc = 0;

	for (i = 0; i < FIND_EXTENT_STARTS; i++) {
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
	j->id.window = !j->id.pending &&
		       (j->res->sum.probe->notes & CDT_NOTE_WINDOW_LIMIT);
	j->id.max_extra = j->id.window ? j->window_extra : 0;
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
	uint64_t extent = j->map.size / j->bs, last = UINT64_MAX, start, len, b;
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

/*
 * A short map checked against OUT (adoptable): the blocks past its end are
 * untried, so the passes read only those and what the map left undone.
 * OUT grows with the first save (size_out), after the map.
 */
static int grow_map(struct image_job *j)
{
	if (j->map.size == j->extent_bytes)
		return 0;
	j->res->map_grown_from = j->map.size / j->bs;
	return map_resize(&j->map, j->extent_bytes, MAP_NONTRIED);
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
		j->res->other_drive = strcmp(j->map_drive, j->drive) != 0;
		rc = image_open_resumed(j);
		if (!rc && !verified)
			rc = check_against_out(j);
		if (!rc)
			rc = grow_map(j);
		if (!rc)
			rc = skip_mark(&j->skip, &j->map, j->bs);
		if (rc)
			return rc;
		j->res->finished_before = map_count(&j->map, MAP_FINISHED) / j->bs -
					  j->skip.blocks;
	}
	if (!verified) {
		id_init(&j->id, j->bs, j->res->extent_blocks, j->data_first ?
			j->res->extent_blocks : j->res->sum.probe->true_blocks);
		j->id.pending = j->data_first;
		record_window(j);
		rc = j->loaded ? image_note_from_out(j) : 0;
		if (rc)
			return rc;
	}
	rc = image_check_space(j);
	if (!rc)
		rc = image_make_comment(j);
	if (!rc && !j->loaded)
		rc = image_create_fresh(j);
	if (!rc)
		image_check_holes(j);
	if (!rc)
		rc = image_size_out(j);
	return rc;
}

static int finish_digests(struct image_job *j, struct rescue *r)
{
	struct cdt_image_result *res = j->res;
	int rc;

	if (!j->digests)
		return 0;	/* digest_source stays CDT_DIGEST_NONE */
	if (j->out.stream && !j->out.stream_broken && j->out.stream_pos == j->extent_bytes) {
		res->digest_source = CDT_DIGEST_STREAM;
		return dg_final(j->out.stream, &res->sum.digests);
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

		j->out.stream_broken = true;
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
	if (j->out.stream_pos > e * j->bs)
		j->out.stream_broken = true;
	if (ftruncate(j->fd, (off_t)(e * j->bs))) {
		cdt_dev_seterr(j->dev, "%s: %s", j->out_path, strerror(errno));
		return CDT_EIO;
	}
	return 0;
}

/*
 * A block that answered 05/64/00 alone (engine.h, wrong_mode): listed as
 * Form 2, in the map's skip list too, so a resumed run knows it.
 */
static int list_wrong_mode(void *ctx, uint64_t lba)
{
	struct image_job *j = ctx;
	const struct cdt_skip *k = skip_at(&j->skip, lba);
	int rc;

	/* listed by an earlier read of it: the map marks it finished again */
	if (k)
		return k->why == CDT_SKIP_FORM2 ? 0 : CDT_EFORMAT;
	rc = skip_add(&j->skip, lba, CDT_SKIP_FORM2);

	return rc ? rc : image_attach_comment(j);
}

/* The Form 2 blocks of old below extent, into the new plan. */
static int keep_found(const struct skip_plan *old, uint64_t extent,
		      struct skip_plan *plan)
{
	size_t i;
	uint64_t b;

	for (i = 0; i < old->n; i++) {
		const struct cdt_skip *k = &old->v[i];

		if (k->why != CDT_SKIP_FORM2)
			continue;
		/* one the new plan skips already, or one too many: left out */
		for (b = k->start; b < k->start + k->blocks && b < extent; b++)
			if (skip_add(plan, b, CDT_SKIP_FORM2) == CDT_ENOMEM)
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
	struct skip_plan found = j->skip;
	int rc;

	rc = skip_plan_make(j->dev, res->sum.probe, j->opts->formatted, &e, &j->skip);
	if (!rc)
		rc = keep_found(&found, e, &j->skip);
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
	rc = map_resize(&j->map, e * j->bs, MAP_NONTRIED);
	if (!rc)
		rc = skip_mark(&j->skip, &j->map, j->bs);
	if (!rc)
		rc = zero_skipped(j, r, was);
	if (rc)
		return rc;
	res->extent_blocks = e;
	j->extent_bytes = e * j->bs;
	id_init(&j->id, j->bs, e, res->sum.probe->true_blocks);
	record_window(j);
	rc = image_note_from_out(j);
	if (!rc)
		rc = image_attach_comment(j);
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
	struct cdt_probe_opts po = CDT_INIT(po);
	uint64_t was = j->res->extent_blocks;
	uint64_t first = was > DATA_FIRST_MARGIN ? was - DATA_FIRST_MARGIN : 0;
	int rc;

	rc = rescue_copy(r, 0, first);
	if (!rc)
		rc = rescue_save(r);
	if (rc)
		return rc;
	rescue_probe_opts(&j->opts->rd, &po);
	rc = probe_end_above(j->dev, &po, j->search_above, j->res->sum.probe);
	if (!rc)
		rc = settle_extent(j, r);
	return rc ? rc : rescue_copy(r, first, UINT64_MAX);
}

/*
 * The map saved after the run, whatever ended it.  After an error the
 * first error is the one reported: a save that fails too (a full disk
 * fails both) adds its words to the first message, never replaces it.
 */
static int save_after(struct image_job *j, struct rescue *r, int rc)
{
	char first[sizeof(j->dev->errmsg)], second[sizeof(j->dev->errmsg)];
	int rc2;

	if (!rc)
		return rescue_save(r);
	snprintf(first, sizeof(first), "%s", cdt_errmsg(j->dev));
	j->dev->errmsg[0] = '\0';
	rc2 = rescue_save(r);
	snprintf(second, sizeof(second), "%s", cdt_errmsg(j->dev));
	if (rc2)
		cdt_dev_seterr(j->dev, "%s; and the map could not be saved: %s (it holds the last save)",
			       first, second[0] ? second : cdt_strerror(rc2));
	else
		cdt_dev_seterr(j->dev, "%s", first);
	return rc2;
}

/*
 * The probe's failing reads (device.h) into the map before pass 1, as the
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
static uint64_t chunk_stop(const struct cdt_dev *dev, unsigned int k)
{
	const struct dev_failed_read *c = &dev->failed[k];
	uint64_t low = UINT64_MAX;
	unsigned int i;

	for (i = k + 1; i < dev->n_failed; i++) {
		const struct dev_failed_read *f = &dev->failed[i];

		if (f->n == 1 && f->lba >= c->lba && f->lba - c->lba < c->n && f->lba < low)
			low = f->lba;
	}
	return low;
}

static int premark(struct image_job *j, struct rescue *r)
{
	const struct cdt_dev *dev = j->dev;
	uint64_t b, end, extent = j->res->extent_blocks;
	unsigned int i;
	char st, want;
	int rc;

	for (i = 0; i < dev->n_failed; i++) {
		const struct dev_failed_read *f = &dev->failed[i];

		if (f->lba >= extent)
			continue;
		b = f->n > 1 ? chunk_stop(dev, i) : UINT64_MAX;
		rc = rescue_note_failure(r, b < extent ? b : f->lba);
		if (rc)
			return rc;
		want = f->n == 1 ? MAP_BAD : MAP_NONTRIMMED;
		end = f->lba + f->n < extent ? f->lba + f->n : extent;
		for (b = f->lba; b < end; b++) {
			st = map_status_at(&j->map, b * j->bs);
			if (skip_at(&j->skip, b) || (st != MAP_NONTRIED &&
			    !(st == MAP_NONTRIMMED && want == MAP_BAD)))
				continue;
			rc = map_set(&j->map, b * j->bs, j->bs, want);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int run_job(struct image_job *j)
{
	struct cdt_image_result *res = j->res;
	uint32_t bs = j->bs;
	struct rescue r = {
		.dev = j->dev,
		.map = &j->map,
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
		.map_path = j->opts->map_path,
		.map_comment = j->base_comment,
		.map_lock = j->opts->map_path ? &j->map_lock : NULL,
		.id = &j->id,
		.comment_buf = j->comment,
		.comment_cap = j->comment_cap,
		.skip = &j->skip,
		.wrong_mode = list_wrong_mode,
		.job = j,
	};
	file_sink_attach(&j->out, &r);
	r.chunk = rescue_chunk_blocks(j->dev, bs, j->opts->rd.chunk_blocks);
	r.buf = malloc((size_t)r.chunk * bs);
	if (!r.buf)
		return CDT_ENOMEM;
	rc = premark(j, &r);
	if (rc) {
		free(r.buf);
		rescue_fini(&r);
		return rc;
	}
	/* a fresh map is all untried but what is skipped: reading it in
	 * order gives the digest */
	if (j->digests && map_count(&j->map, MAP_NONTRIED) +
	    j->skip.blocks * bs == j->extent_bytes &&
	    !dg_init(&stream, j->digests))
		j->out.stream = &stream;
	rc = rescue_save(&r);
	if (!rc)
		rc = j->data_first ? copy_then_search(j, &r) : rescue_copy(&r, 0, UINT64_MAX);
	if (!rc)
		rc = rescue_rest(&r);
	res->sum.blocks_read = r.blocks_read;
	/* save whatever happened: an interrupted run resumes from here */
	rc2 = save_after(j, &r, rc);
	if (!rc)
		rc = rc2;
	if (!rc)
		rc = finish_digests(j, &r);
	if (j->out.stream)
		dg_free(j->out.stream);
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
		return skip_plan_make(j->dev, res->sum.probe, j->opts->formatted,
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
	snprintf(j->drive, sizeof(j->drive), "%s %s %s", res->sum.probe->inq.vendor,
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
		rc = rescue_summary_start(&full.sum);
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
