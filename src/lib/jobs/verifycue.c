// SPDX-License-Identifier: MIT
/*
 * verify --cue: the disc read raw (READ CD, 2352 bytes a sector) against
 * the .bin files a CUE sheet names, track by track.
 *
 * The sheet (cd/cue.c, the parser sim:FILE.cue uses) says what each
 * FILE holds for a track: from its INDEX 00 (or 01) to the next track's in
 * the same FILE, or the FILE's end.  The disc says where the track is:
 * the TOC's start is INDEX 01, so FILE's sector x of track t is the disc's
 * LBA start(t) + x - index1(t) (a PREGAP is in neither the FILE nor
 * between them).  MODE1/2048 files hold the user data only: it is
 * compared with bytes 16-2063 of the raw sector; every other mode, all
 * 2352 bytes.
 *
 * Lengths come from the TOC too: a track's blocks run to the next track's
 * start, so the sheet's track plus the next one's pregap (stored or
 * PREGAP) must fill them; the disc's last track runs to the probe's
 * extent, hidden tail included.  A TAO run-out (2 blocks the drive cannot
 * read) is never in a .bin (issue 26), so a track that ends in one may be
 * 2 blocks longer on the disc.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "core/device.h"
#include "engine/compare.h"
#include "engine/engine.h"
#include "engine/passes.h"
#include "engine/reader.h"
#include "jobs/job.h"
#include "jobs/verifycue.h"
#include "jobs/verifysub.h"
#include "cd/cue.h"
#include "cd/sector.h"

#define SHEET_MAX (1u << 20)	/* a sheet of 99 tracks is a few KiB */
#define CHUNK 26		/* sectors a step of the walk compares; the raw
				 * reader splits its READ CDs to the drive's
				 * largest transfer */
#define MODE1_USER 16		/* where a Mode 1 sector's 2048 bytes start */

struct cue_job {
	struct cdt_dev *dev;
	const struct cdt_verify_opts *opts;
	struct cdt_verify_result *res;
	const char *path;
	struct cue_sheet sheet;
	int fds[CUE_MAX_FILES];
	uint64_t extent;
	struct cmp_ranges bad;
	struct probe_findings found;	/* the probe's: the disc's tracks */
	bool c2;		/* the drive gives C2 error pointers: asked for */
	struct reader reader;	/* raw, with C2 when c2 */
	uint8_t file[CHUNK * CD_RAW];
	double t0;
	/*
	 * The walk: the engine's in-order pass (passes.h) into the compare
	 * sink, a track at a time, read through the raw reader.  The engine
	 * counts blocks from 0; a track 1 pregap the sheet stores lies below
	 * LBA 0, so the engine's block b is the disc's LBA b - bias.
	 */
	struct rescue r;
	struct cdt_map map;
	struct cmp_sink sink;
	uint64_t bias;
	struct skip_plan skip;	/* none: a sheet's tracks are all read */
	/* the track under way */
	const struct cue_track *t;
	struct cdt_cue_track *ct;
	int64_t first_lba;	/* its FILE's sector 0 on the disc */
	struct cue_sub sub;	/* OUT.sub beside the sheet, where there is one */
};

/* The sheet's text, read whole; 0 or CDT_EUSAGE with the message set. */
static int read_sheet(struct cue_job *j, char **text, size_t *len)
{
	int fd = open(j->path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	char *buf;
	ssize_t n;

	if (fd < 0) {
		cdt_dev_seterr(j->dev, "%s: %s", j->path, strerror(errno));
		return CDT_EUSAGE;
	}
	buf = malloc(SHEET_MAX);
	if (!buf) {
		close(fd);
		return CDT_ENOMEM;
	}
	while (got < SHEET_MAX && (n = read(fd, buf + got, SHEET_MAX - got)) > 0)
		got += (size_t)n;
	close(fd);
	if (got == SHEET_MAX) {
		free(buf);
		cdt_dev_seterr(j->dev, "%s: larger than a CUE sheet can be", j->path);
		return CDT_EFORMAT;
	}
	*text = buf;
	*len = got;
	return 0;
}

/*
 * Each FILE, relative to the sheet's folder (one outside it the parser
 * refused, unless cue_paths_any); CDT_EUSAGE naming the one missing.
 */
static int open_files(struct cue_job *j)
{
	unsigned int i;

	for (i = 0; i < j->sheet.n_files; i++) {
		const char *name = j->sheet.files[i];
		char path[4096];

		if (!cue_file_path(j->path, name, path, sizeof(path)))
			j->fds[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (j->fds[i] < 0) {
			cdt_dev_seterr(j->dev, "%s: FILE \"%s\" cannot be opened: %s",
				       j->path, name, strerror(errno));
			return CDT_EUSAGE;
		}
	}
	return 0;
}

static int sheet_load(struct cue_job *j)
{
	char *text = NULL, why[256];
	size_t len = 0;
	int rc = read_sheet(j, &text, &len);

	if (rc)
		return rc;
	rc = cue_parse(text, len, j->opts->cue_paths_any ? CUE_ANY_PATH : 0, &j->sheet,
		       why, sizeof(why));
	free(text);
	if (rc) {
		cdt_dev_seterr(j->dev, "%s: %s%s", j->path, why, rc == CUE_EOUTSIDE ?
			       " (cue_paths_any, verify --cue-paths any, follows it)" : "");
		return rc == CUE_EOUTSIDE ? CDT_EUSAGE : CDT_EFORMAT;
	}
	return open_files(j);
}

/* Sectors FILE holds for track i, from its extent's start; CDT_EFORMAT if none. */
static int file_sectors(struct cue_job *j, unsigned int i, uint64_t *n)
{
	const struct cue_track *t = &j->sheet.tracks[i];
	const char *why;
	unsigned int track;
	struct stat st;

	if (fstat(j->fds[t->file], &st))
		return CDT_EIO;
	if (cue_stored_sectors(&j->sheet, i, (uint64_t)st.st_size, n, &why, &track)) {
		cdt_dev_seterr(j->dev, "%s: track %u: %s", j->path, track, why);
		return CDT_EFORMAT;
	}
	return 0;
}

static const struct cdt_track *disc_track(const struct cdt_layout *l,
					  unsigned int number)
{
	size_t i;

	for (i = 0; l && i < l->n_tracks; i++)
		if (l->tracks[i].number == number)
			return &l->tracks[i];
	return NULL;
}

/* Blocks the TOC gives the sheet's track i after INDEX 01, by the sheet. */
static uint64_t sheet_blocks(const struct cue_job *j, unsigned int i, uint64_t stored)
{
	const struct cue_track *t = &j->sheet.tracks[i], *next = t + 1;
	uint64_t n = stored - (uint64_t)(t->index1 - cue_extent_start(t));

	if (i + 1 < j->sheet.n_tracks && next->session == t->session)
		n += (uint64_t)(next->index1 - cue_extent_start(next)) + next->pregap;
	return n;
}

/*
 * Whether the disc's track d (of layout l) is as long as the sheet says
 * (n blocks): to the next track's start in its session (the probe's
 * blocks leave out a pregap it knows of), to the extent on the last.
 */
static bool length_matches(const struct cue_job *j, const struct cdt_layout *l,
			   const struct cdt_track *d, uint64_t n)
{
	const struct cdt_track *next = d + 1 < l->tracks + l->n_tracks ? d + 1 : NULL;
	uint64_t have = d->blocks;

	if (next && next->session == d->session)
		have = next->start - d->start;
	else if (!next && j->extent > d->start)
		have = j->extent - d->start;
	return n == have || (d->runout && n + 2 == have);
}

/*
 * The engine's read hook: n raw sectors from the engine's block lba
 * through the raw reader (engine/reader.h: split to the drive's largest
 * transfer, C2 pointers checked, an audio sector has no other check; the
 * sheet's bytes are the judge of the rest; a medium change is its answer,
 * CDT_READ_CHANGED, as for every read of sectors: core/device.c).
 */
static int read_raw(void *ctx, uint64_t lba, uint32_t n, uint8_t *buf,
		    struct cdt_read_result *rr)
{
	struct cue_job *j = ctx;

	/* the P-W of a step's sectors at their place in it (verifysub.h) */
	j->reader.pw_out = lba >= j->sink.base ? cue_sub_disc(&j->sub, lba - j->sink.base, n) : NULL;
	return reader_read_raw(&j->reader, (int64_t)lba - (int64_t)j->bias, n, buf, rr);
}

static int count_bad(struct cue_job *j, struct cdt_cue_track *ct, int64_t lba)
{
	ct->bad_sectors++;
	if (lba < 0)
		return 0;
	j->res->sum.bad_blocks++;
	return cmp_range_add(&j->bad, (uint64_t)lba);
}

static void note_diff(struct cue_job *j, struct cdt_cue_track *ct, int64_t lba,
		      uint64_t sector)
{
	struct cdt_verify_result *r = j->res;

	if (!ct->diff_sectors++) {
		ct->first_diff_lba = lba;
		ct->first_diff_sector = sector;
	}
	r->diff_blocks++;
	if (!r->have_diff && lba >= 0) {
		r->have_diff = true;
		r->first_diff_lba = (uint64_t)lba;
	}
}

/*
 * A step the pass settled (the compare sink): n sectors from the engine's
 * block b beside FILE's at the same place of the track under way.  1 at
 * the track's first difference without --all: its walk ends there.
 */
static int cue_step(void *ctx, uint64_t b, uint32_t n, const struct cmp_step *st)
{
	struct cue_job *j = ctx;
	const struct cue_track *t = j->t;
	struct cdt_cue_track *ct = j->ct;
	unsigned int ss = cue_sector_size(t->mode);
	int64_t lba = (int64_t)b - (int64_t)j->bias;
	uint64_t at = (uint64_t)(lba - j->first_lba);
	uint64_t off = ((uint64_t)cue_extent_start(t) + at) * ss;
	size_t got;
	uint32_t i;
	bool main_diff, sub_diff;
	int rc = compare_pread(j->fds[t->file], j->file, (size_t)n * ss, off, &got);

	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		const uint8_t *d = st->disc + (size_t)i * CD_RAW;

		if (st->state[i] != CMP_READ) {
			rc = count_bad(j, ct, lba + i);
			if (rc)
				return rc;
			continue;
		}
		ct->compared++;
		j->res->sum.blocks_read++;
		if (ss != CD_RAW)
			d += MODE1_USER;
		main_diff = memcmp(d, j->file + (size_t)i * ss, ss) != 0;
		rc = cue_sub_compare(&j->sub, (size_t)(t - j->sheet.tracks), at + i, i, lba + i,
				     j->res, &sub_diff);
		if (rc)
			return rc;
		if (!main_diff && !sub_diff)
			continue;
		/* -v's hex diff: the disc's first differing sector */
		if (main_diff && !j->res->have_diff && lba + i >= 0 && j->opts->diff)
			j->opts->diff(j->opts->diff_ctx, (uint64_t)(lba + i), d,
				      j->file + (size_t)i * ss, ss);
		note_diff(j, ct, lba + i, at + i);
		if (!j->opts->all)
			return 1;	/* the track's first difference: the rest is not compared */
	}
	return 0;
}

/*
 * Track i of the sheet against the disc from lba on, FILE's n sectors, as
 * far as the disc goes (past it the length check says so).
 */
static int compare_track(struct cue_job *j, unsigned int i, int64_t lba, uint64_t n)
{
	int64_t end = lba + (int64_t)n;
	uint64_t reached;

	if (lba >= 0 && (uint64_t)lba >= j->extent)
		return 0;
	if (end > 0 && (uint64_t)end > j->extent)
		end = (int64_t)j->extent;
	j->t = &j->sheet.tracks[i];
	j->ct = &j->res->tracks[i];
	j->first_lba = lba;
	j->sink.base = (uint64_t)(lba + (int64_t)j->bias);
	return rescue_in_order(&j->r, &j->skip, j->sink.base,
			       (uint64_t)(end + (int64_t)j->bias), &reached);
}

/* Where on the disc FILE's first sector for the track is. */
static int64_t track_first_lba(const struct cue_track *t, const struct cdt_track *d)
{
	return (int64_t)d->start - (t->index1 - cue_extent_start(t));
}

static int one_track(struct cue_job *j, unsigned int i)
{
	const struct cue_track *t = &j->sheet.tracks[i];
	struct cdt_cue_track *ct = &j->res->tracks[i];
	const struct cdt_layout *l = j->found.layout;
	const struct cdt_track *d = disc_track(l, t->number);
	uint64_t n;
	int rc = file_sectors(j, i, &n);

	if (rc)
		return rc;
	ct->number = t->number;
	snprintf(ct->file, sizeof(ct->file), "%s", j->sheet.files[t->file]);
	ct->sectors = n;
	if (!d) {
		ct->length_differs = true;
		return 0;
	}
	ct->first_lba = track_first_lba(t, d);
	ct->length_differs = !length_matches(j, l, d, sheet_blocks(j, i, n));
	return compare_track(j, i, ct->first_lba, n);
}

/* The disc's tracks the sheet has not: a difference at the first one's start. */
static void extra_disc_tracks(struct cue_job *j)
{
	const struct cdt_layout *l = j->found.layout;
	size_t i;
	unsigned int k;

	for (i = 0; l && i < l->n_tracks; i++) {
		for (k = 0; k < j->sheet.n_tracks; k++)
			if (j->sheet.tracks[k].number == l->tracks[i].number)
				break;
		if (k == j->sheet.n_tracks && !j->res->length_differs) {
			j->res->length_differs = true;
			if (!j->res->have_diff || l->tracks[i].start < j->res->first_diff_lba)
				j->res->first_diff_lba = l->tracks[i].start;
			j->res->have_diff = true;
		}
	}
}

static void judge(struct cue_job *j)
{
	struct cdt_verify_result *r = j->res;
	bool unread = false;
	size_t i;

	for (i = 0; i < r->n_tracks; i++) {
		struct cdt_cue_track *ct = &r->tracks[i];

		unread = unread || ct->bad_sectors;
		if (!ct->length_differs)
			continue;
		r->length_differs = true;
		if (!r->have_diff || (ct->first_lba >= 0 &&
				      (uint64_t)ct->first_lba < r->first_diff_lba)) {
			r->have_diff = true;
			r->first_diff_lba = ct->first_lba < 0 ? 0 : (uint64_t)ct->first_lba;
		}
	}
	extra_disc_tracks(j);
	r->verdict = r->have_diff || r->diff_blocks || r->sub_length_differs ? CDT_VERIFY_DIFFERENT :
		     unread ? CDT_VERIFY_UNREADABLE : CDT_VERIFY_IDENTICAL;
	r->complete = true;
}

/*
 * The engine over the disc from the lowest LBA a sheet's track starts at
 * (a stored pregap of track 1 lies below 0) to the extent, reading
 * through the raw reader into the compare sink.  0 or CDT_ENOMEM.
 */
static int walk_start(struct cue_job *j)
{
	const struct cdt_layout *l = j->found.layout;
	unsigned int i;
	int rc;

	for (i = 0; i < j->sheet.n_tracks; i++) {
		const struct cdt_track *d = disc_track(l, j->sheet.tracks[i].number);
		int64_t lba = d ? track_first_lba(&j->sheet.tracks[i], d) : 0;

		if (lba < 0 && (uint64_t)-lba > j->bias)
			j->bias = (uint64_t)-lba;
	}
	j->sink = (struct cmp_sink){
		.dev = j->dev,
		.fd = -1,
		.bs = CD_RAW,
		.step = cue_step,
		.job = j,
	};
	j->r = (struct rescue){
		.dev = j->dev,
		.map = &j->map,
		.bs = CD_RAW,
		.rd = &j->opts->rd,
		.retries = j->opts->rd.retries,
		.t0 = j->t0,
		.read = read_raw,
		.read_ctx = j,
	};
	rc = cmp_sink_init(&j->sink, CHUNK, 0);
	if (!rc)
		rc = map_init(&j->map, (j->extent + j->bias) * CD_RAW, MAP_NONTRIED);
	cmp_sink_attach(&j->sink, &j->r);
	return rc;
}

/*
 * Every FILE holds its tracks' sectors (before anything is read), and
 * OUT.sub's records are those sectors one after another.
 */
static int check_files(struct cue_job *j)
{
	uint64_t *n = calloc(j->sheet.n_tracks ? j->sheet.n_tracks : 1, sizeof(*n));
	unsigned int i;
	int rc = n ? 0 : CDT_ENOMEM;

	for (i = 0; !rc && i < j->sheet.n_tracks; i++)
		rc = file_sectors(j, i, &n[i]);
	if (!rc)
		rc = cue_sub_layout(&j->sub, n, j->sheet.n_tracks, j->res);
	free(n);
	return rc;
}

static int run(struct cue_job *j)
{
	struct cdt_verify_result *r = j->res;
	unsigned int i;
	int rc = sheet_load(j);

	if (!rc)
		rc = rescue_probe(j->dev, &j->opts->rd, &r->sum, &j->found);
	if (rc)
		return rc;
	j->extent = r->sum.probe->extent_blocks;
	j->c2 = r->sum.probe->raw.c2;
	rc = cue_sub_open(&j->sub, j->dev, j->path, r->sum.probe->raw.subpw, CHUNK,
			  j->sheet.n_tracks, r);
	if (!rc)
		rc = reader_init_raw_pw(&j->reader, j->dev, j->c2, j->sub.checked);
	if (rc)
		return rc;
	r->extent_blocks = j->extent;
	r->tracks = calloc(j->sheet.n_tracks, sizeof(*r->tracks));
	if (!r->tracks)
		return CDT_ENOMEM;
	r->n_tracks = j->sheet.n_tracks;
	rc = check_files(j);
	if (rc)
		return rc;
	rc = walk_start(j);
	for (i = 0; i < j->sheet.n_tracks && !rc; i++)
		rc = one_track(j, i);
	if (!rc)
		judge(j);
	rescue_progress(&j->r, true);
	return rc;
}

int rescue_verify_cue(struct cdt_dev *dev, const struct cdt_verify_opts *opts,
		      struct cdt_verify_result *res)
{
	struct cue_job *j;
	unsigned int i;
	int rc;

	if (opts->image_path || opts->md5 || opts->sha256) {
		cdt_dev_seterr(dev, "cdt_verify: cue_path goes alone, without an image or a digest");
		return CDT_EUSAGE;
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		return CDT_ENOMEM;
	j->dev = dev;
	j->opts = opts;
	j->res = res;
	j->path = opts->cue_path;
	j->t0 = rescue_now_ms();
	for (i = 0; i < CUE_MAX_FILES; i++)
		j->fds[i] = -1;
	res->fs_fits = -1;
	rc = run(j);
	rescue_fini(&j->r);
	map_free(&j->map);
	cmp_sink_free(&j->sink);
	for (i = 0; i < CUE_MAX_FILES; i++)
		if (j->fds[i] >= 0)
			close(j->fds[i]);
	cue_free(&j->sheet);
	probe_findings_free(&j->found);
	reader_fini(&j->reader);
	cue_sub_close(&j->sub);
	res->sum.bad = j->bad.v;
	res->sum.n_bad = j->bad.n;
	cdt_get_stats(dev, &res->sum.stats);
	res->sum.elapsed_ms = rescue_now_ms() - j->t0;
	free(j);
	return rc;
}
