// SPDX-License-Identifier: MIT
/*
 * cdt_image_raw: image --raw, the job around the rescue engine (engine.h)
 * as cdt_image() (image.c) is, over the raw stream of rawplan.h with a
 * sector size of 2352 and the reads of rawread.c.  The same invariants
 * make a killed run resumable: a sector is marked finished only after it
 * is in its track file, and the map is replaced only after every track
 * file is synced; the files are made at their full size before the first
 * save, so sectors never read good are zeros.
 *
 * The map's comment lines hold the caller's line, a "cdtail raw" line
 * naming the stream (sectors, files) and the identity record (identity.h)
 * over stream sectors, which a resume and a medium change compare by
 * reading those sectors raw again.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include "core/abi.h"
#include "core/cmds.h"
#include "core/device.h"
#include "probe/trackmodes.h"
#include "engine/engine.h"
#include "jobs/job.h"
#include "book/lock.h"
#include "engine/passes.h"
#include "jobs/rawjob.h"
#include "engine/sink.h"
#include "mmc/readcd.h"
#include "cd/sector.h"
#include "cd/subq.h"
#include "cd/trackhash.h"

#define SHEET_MAX (1024 * 1024)	/* CD-TEXT lines too: verify --cue reads as much */

/* ---- the files ---------------------------------------------------------- */

/* OUT.cue without ".cue": the files' common name. */
static char *base_of(const char *cue_path)
{
	size_t n = strlen(cue_path);
	char *b = strdup(cue_path);

	if (b && n > 4 && !strcasecmp(b + n - 4, ".cue"))
		b[n - 4] = '\0';
	return b;
}

static int make_paths(struct raw_job *j)
{
	char *base = base_of(j->cue_path);
	size_t i, cap;
	int rc = 0;

	j->fds = calloc(j->plan.n, sizeof(*j->fds));
	j->paths = calloc(j->plan.n, sizeof(*j->paths));
	if (!base || !j->fds || !j->paths) {
		free(base);
		return CDT_ENOMEM;
	}
	cap = strlen(base) + 32;
	for (i = 0; i < j->plan.n; i++)
		j->fds[i] = -1;
	for (i = 0; i < j->plan.n && !rc; i++) {
		j->paths[i] = malloc(cap);
		if (!j->paths[i])
			rc = CDT_ENOMEM;
		else
			raw_bin_name(j->paths[i], cap, base, j->plan.f[i].t->number,
				     j->opts->single_file ? 1 : j->plan.n);
	}
	free(base);
	return rc;
}

static int file_error(struct raw_job *j, const char *path)
{
	cdt_dev_seterr(j->dev, "%s: %s", path, strerror(errno));
	return errno == EEXIST ? CDT_EUSAGE : CDT_EIO;
}

/*
 * A resume writes each sector at its place in its track's file, so the
 * files must be cut where the first run cut them.  The cuts come from the
 * pregaps, read from subchannel Q where the drive gives it: a drive whose
 * Q fails now and then, or a resume with other options, can cut them
 * elsewhere with the same total, and the sectors read before would then
 * lie in the wrong file.  The files' sizes (each set whole when it was
 * made) say where the first run cut; the run is refused before any file
 * is touched when one differs.
 */
static int check_cuts(struct raw_job *j)
{
	struct stat st;
	size_t i;

	if (!book_resumed(&j->book) || j->opts->single_file)
		return 0;
	for (i = 0; i < j->plan.n; i++) {
		if (stat(j->paths[i], &st) || (uint64_t)st.st_size == j->plan.f[i].n * CD_RAW)
			continue;	/* a missing file: open_bin says so */
		cdt_dev_seterr(j->dev, "%s holds %" PRIu64 " bytes where this run's track split puts %" PRIu64
			       " sectors: the pregaps read now are not those the first run cut its files by;"
			       " resume with the drive and options of the first run, or start over with --force",
			       j->paths[i], (uint64_t)st.st_size, j->plan.f[i].n);
		book_decline(&j->book);
		return CDT_EOTHERDISC;
	}
	return 0;
}

/* Track file i opened (made, on a fresh run), locked, at its size. */
static int open_bin(struct raw_job *j, size_t i)
{
	bool resumed = book_resumed(&j->book);
	int flags = O_RDWR | O_CLOEXEC | (resumed ? 0 : O_CREAT |
					  (j->opts->force ? O_TRUNC : O_EXCL));
	const char *p = j->paths[i];
	uint64_t size = j->plan.f[i].n * CD_RAW;
	int rc;

	/* --single-file: every track's part of the one OUT.bin, opened once */
	if (j->opts->single_file && i) {
		j->fds[i] = j->fds[0];
		return 0;
	}
	if (j->opts->single_file)
		size = j->plan.total * CD_RAW;

	j->fds[i] = open(p, flags, 0644);
	if (j->fds[i] < 0) {
		if (errno == EEXIST) {
			cdt_dev_seterr(j->dev, "%s exists: add --force to replace it, or give the map of its run", p);
		} else if (errno == ENOENT && resumed) {
			cdt_dev_seterr(j->dev, "%s is missing: the map says part of it was read", p);
			book_decline(&j->book);
		} else {
			return file_error(j, p);
		}
		return errno == EEXIST ? CDT_EUSAGE : CDT_EOTHERDISC;
	}
	rc = book_add_file(&j->book, p, j->fds[i], !resumed);
	if (rc) {
		close(j->fds[i]);
		j->fds[i] = -1;
		return rc;
	}
	rc = lock_fd(j->fds[i]);
	if (rc == CDT_EBUSY) {
		cdt_dev_seterr(j->dev, "%s is in use by another run", p);
		return rc;
	}
	if (!rc && ftruncate(j->fds[i], (off_t)size))
		return file_error(j, p);
	return rc;
}

/* The sheet, replaced whole (a new file renamed over it). */
static int write_sheet(struct raw_job *j)
{
	struct raw_sheet_notes notes = {
		.offset_set = j->opts->offset_set,
		.offset_samples = j->opts->offset_samples,
		.audio_checked = j->c2,
	};
	char *text = malloc(SHEET_MAX), *base = base_of(j->cue_path), tmp[4200];
	size_t i, len;
	FILE *f;
	int rc = CDT_EIO;

	for (i = 0; i < j->plan.n; i++)
		notes.has_audio |= j->plan.f[i].t->mode == CDT_TRACK_AUDIO;
	if (!text || !base) {
		free(text);
		free(base);
		return CDT_ENOMEM;
	}
	len = raw_sheet(text, SHEET_MAX, &j->plan, basename(base), &notes);
	if (j->opts->single_file && len < SHEET_MAX)
		len = raw_single_sheet(j, &text, SHEET_MAX);
	snprintf(tmp, sizeof(tmp), "%s.cdtail-tmp", j->cue_path);
	f = len < SHEET_MAX ? fopen(tmp, "w") : NULL;
	if (f && fwrite(text, 1, len, f) == len && !fflush(f) && !fsync(fileno(f)))
		rc = 0;
	if (f && fclose(f))
		rc = CDT_EIO;
	if (!rc && rename(tmp, j->cue_path))
		rc = CDT_EIO;
	if (rc) {
		cdt_dev_seterr(j->dev, "cannot write %s: %s", j->cue_path, strerror(errno));
		unlink(tmp);
	}
	free(text);
	free(base);
	return rc;
}

/* OUT.sub (rawsub.c), named as the track files are */
static int open_sub(struct raw_job *j)
{
	char *base = base_of(j->cue_path);
	int rc;

	if (!base)
		return CDT_ENOMEM;
	rc = raw_sub_open(j, base);
	free(base);
	return rc;
}

/* ---- the sink ----------------------------------------------------------- */

/* Files i and i + 1 are one run of audio: the shift carries samples across. */
static bool joined(const struct raw_job *j, size_t i)
{
	const struct raw_file *a = &j->plan.f[i], *b = &j->plan.f[i + 1];

	return i + 1 < j->plan.n && a->t->mode == CDT_TRACK_AUDIO &&
	       b->t->mode == CDT_TRACK_AUDIO && a->t->session == b->t->session &&
	       a->first + a->n == b->first;
}

/*
 * len bytes at byte `at` of file fi's audio, which may start before the
 * file or end past it: those bytes go to the neighbouring file of the
 * same run of audio, or nowhere at the run's ends (zeros stay there).
 */
static int put_bytes(struct raw_job *j, size_t fi, int64_t at, const uint8_t *p,
		     int64_t len)
{
	int64_t size = (int64_t)(j->plan.f[fi].n * CD_RAW), part;
	int rc = 0;

	if (at < 0) {
		part = -at < len ? -at : len;
		if (fi && joined(j, fi - 1))
			rc = put_bytes(j, fi - 1, at + (int64_t)(j->plan.f[fi - 1].n * CD_RAW),
				       p, part);
		p += part;
		len -= part;
		at += part;
	}
	if (len <= 0 || rc)
		return rc;
	if (at >= size)
		return joined(j, fi) ? put_bytes(j, fi + 1, at - size, p, len) : 0;
	part = at + len > size ? size - at : len;
	if (!rc)
		rc = rescue_pwrite(j->fds[fi], p, (size_t)part, raw_file_base(j, fi) + (uint64_t)at);
	if (!rc && j->hash)
		rc = rawhash_put(j->hash, fi, (uint64_t)at, p, (uint64_t)part, &j->book.map);
	if (!rc && part < len && joined(j, fi))
		rc = put_bytes(j, fi + 1, at + part - size, p + part, len - part);
	return rc;
}

static int put_piece(struct raw_job *j, const struct raw_file *f, uint64_t k,
		     uint32_t n, const uint8_t *buf)
{
	size_t fi = (size_t)(f - j->plan.f);
	uint64_t i = k - f->stream;

	memset(j->edc_failed + k, 0, n);
	int rc;

	if (f->t->mode == CDT_TRACK_AUDIO && j->shift)
		return put_bytes(j, fi, (int64_t)(i * CD_RAW) - j->shift, buf,
				 (int64_t)n * CD_RAW);
	rc = rescue_pwrite(j->fds[fi], buf, (size_t)n * CD_RAW, raw_file_base(j, fi) + i * CD_RAW);
	/* the checksums from the bytes as written (rawhash.h) */
	if (!rc && j->hash)
		rc = rawhash_put(j->hash, fi, i * CD_RAW, buf, (uint64_t)n * CD_RAW, &j->book.map);
	return rc;
}

static int raw_put(void *ctx, uint64_t k, uint32_t n, const uint8_t *buf)
{
	struct raw_job *j = ctx;
	uint32_t done = 0;
	int rc;

	while (done < n) {
		const struct raw_file *f = raw_plan_find(&j->plan, k + done);
		uint64_t left = f->stream + f->n - (k + done);
		uint32_t piece = n - done < left ? n - done : (uint32_t)left;

		rc = put_piece(j, f, k + done, piece, buf + (size_t)done * CD_RAW);
		if (rc) {
			cdt_dev_seterr(j->dev, "cannot write %s: %s",
				       j->paths[f - j->plan.f], strerror(errno));
			return rc;
		}
		done += piece;
	}
	rc = raw_sub_put(j, k, n);
	return rc ? rc : id_note(&j->book.rec.id, k, n, buf);
}

/* The book's save order: every track file synced, then the map replaced. */
static int raw_save(void *ctx, const struct cdt_map *map)
{
	struct raw_job *j = ctx;

	return book_save(&j->book, map);
}

/*
 * The book's medium-change rule, over the identity's stream sectors read
 * raw (the book reads through raw_read, rawread.c) into the engine's buf.
 */
static int raw_changed(void *ctx, uint8_t *buf, size_t cap)
{
	struct raw_job *j = ctx;

	return book_changed(&j->book, buf, cap);
}

/* ---- the map and the disc ---------------------------------------------- */

/*
 * The drive reads raw sectors that can be trusted, or the run is refused:
 * a Mode 1 or Form 1 sector the probe read raw whose EDC/ECC did not hold
 * is a drive that makes sectors up (QEMU's ide-cd); formless Mode 2 and
 * Form 2 have nothing to hold.
 */
static int check_drive(struct raw_job *j)
{
	const struct cdt_raw_caps *raw = &j->res->sum.probe->raw;
	enum cdt_sector_mode m = probe_raw_tried_mode(j->found.layout, raw->tried_lba);
	bool data = m == CDT_SECTOR_MODE1 || m == CDT_SECTOR_MODE2_FORM1;

	if (!raw->sectors) {
		cdt_dev_seterr(j->dev, "the drive does not read raw 2352-byte sectors (READ CD): image --raw needs them");
		return CDT_EUSAGE;
	}
	if (data && !raw->edc_ok) {
		cdt_dev_seterr(j->dev, "the drive's raw sectors do not hold a right EDC/ECC (it makes them up, as QEMU's ide-cd): not trusted for image --raw");
		return CDT_EUSAGE;
	}
	j->c2 = raw->c2;
	j->res->audio_checked = raw->c2;
	return 0;
}

/* Lock the map (made where it does not exist), read it (not with force). */
static int load_map(struct raw_job *j)
{
	int rc = book_lock(&j->book, true);

	return rc ? rc : book_load(&j->book, j->opts->force);
}

/*
 * A loaded map fits this disc's stream (its raw line and its identity
 * say this disc's sectors and files) and its identity sectors read the
 * same.
 */
static int check_loaded(struct raw_job *j)
{
	const struct book_records *rec = &j->book.rec;
	uint8_t sector[CD_RAW];
	unsigned int matched;
	bool verified;
	int rc;

	if (j->book.map.size != j->plan.total * CD_RAW || !rec->id.present ||
	    rec->id.block_size != CD_RAW || rec->id.extent != j->plan.total ||
	    (rec->raw && (rec->raw_sectors != j->plan.total || rec->raw_files != j->plan.n)))
		return book_other_disc(&j->book, "its raw stream is not this disc's"
				       " (or it is not an image --raw map)");
	rc = book_verify(&j->book, sector, sizeof(sector), &matched, &verified);
	if (rc)
		return rc;
	j->res->identity_blocks = matched;
	j->res->resumed = true;
	j->res->finished_before = map_count(&j->book.map, MAP_FINISHED) / CD_RAW;
	book_accept(&j->book);	/* this disc's: a resume can go on from it */
	return 0;
}

/* The map's lines: the caller's, the raw line naming the stream. */
static int make_comments(struct raw_job *j)
{
	j->book.rec.raw = true;
	j->book.rec.raw_sectors = j->plan.total;
	j->book.rec.raw_files = (unsigned int)j->plan.n;
	return book_make_comment(&j->book);
}

/*
 * The chunk: what one READ CD with C2 (and P-W with --subchannel) may
 * carry, in the transport's limit.
 */
static uint32_t raw_chunk(struct raw_job *j)
{
	uint32_t want = j->opts->rd.chunk_blocks ? j->opts->rd.chunk_blocks :
			65536 / CD_RAW;
	uint64_t max = (uint64_t)cdt_max_read_blocks(j->dev) * cdt_block_size(j->dev) /
		       (CD_RAW + MMC_C2_LEN + (j->opts->subchannel ? CD_PW_LEN : 0));

	if (max && want > max)
		want = (uint32_t)max;
	return want ? want : 1;
}

static int start(struct raw_job *j)
{
	struct cdt_raw_result *res = j->res;
	bool created_cue;
	size_t i;
	int rc;

	rc = rescue_probe_raw(j->dev, &j->opts->rd, &res->sum, &j->found);
	if (!rc)
		rc = check_drive(j);
	if (rc)
		return rc;
	j->chunk = raw_chunk(j);
	rc = raw_sub_check(j);
	if (rc)
		return rc;
	if (reader_init_raw_pw(&j->reader, j->dev, j->c2, j->pw))
		return CDT_ENOMEM;
	/* the probe settled the boundaries READ(10) could not (probe.h) */
	rc = j->found.layout ? raw_plan_make(j->found.layout, j->found.extent, &j->plan) :
			       CDT_EUSAGE;
	if (rc == CDT_EUSAGE)
		cdt_dev_seterr(j->dev, "the disc lists no track to read");
	if (rc)
		return rc;
	j->plan.reported = res->sum.probe->reported_blocks;
	raw_read_ids(j);
	rc = raw_read_text(j);
	if (rc)
		return rc;
	res->sum.block_size = CD_RAW;
	res->stream_sectors = j->plan.total;
	j->shift = j->opts->offset_set ? 4 * (int64_t)j->opts->offset_samples : 0;
	j->edc_failed = calloc(j->plan.total, 1);
	if (!j->edc_failed)
		return CDT_ENOMEM;
	rc = load_map(j);
	if (!rc && book_resumed(&j->book))
		rc = check_loaded(j);
	if (!rc && !book_resumed(&j->book)) {
		id_init(&j->book.rec.id, CD_RAW, j->plan.total, res->sum.probe->true_blocks);
		rc = map_init(&j->book.map, j->plan.total * CD_RAW, MAP_NONTRIED);
	}
	if (!rc)
		rc = make_comments(j);
	if (!rc)
		rc = make_paths(j);
	created_cue = access(j->cue_path, F_OK) != 0;
	if (!rc && !created_cue && !book_resumed(&j->book) && !j->opts->force) {
		cdt_dev_seterr(j->dev, "%s exists: add --force to replace it, or give the map of its run",
			       j->cue_path);
		rc = CDT_EUSAGE;
	}
	if (!rc)
		rc = check_cuts(j);
	for (i = 0; !rc && i < j->plan.n; i++)
		rc = open_bin(j, i);
	if (!rc)
		rc = open_sub(j);
	/* the sheet, written whole by write_sheet: removed after the files */
	if (!rc)
		rc = book_add_file(&j->book, j->cue_path, -1, created_cue);
	return rc ? rc : write_sheet(j);
}

/* ---- the run and its outcome ------------------------------------------- */

static int run_engine(struct raw_job *j)
{
	struct rescue r = {
		.dev = j->dev,
		.map = &j->book.map,
		.bs = CD_RAW,
		.chunk = j->chunk,
		.rd = &j->opts->rd,
		.retries = j->opts->rd.retries,
		.map_interval_ms = j->opts->map_interval_ms,
		.t0 = rescue_now_ms(),
		.read = raw_read,
		.read_ctx = j,
	};
	int rc, rc2;

	r.sink = (struct rescue_sink){
		.put = raw_put,
		.save = raw_save,
		.changed = raw_changed,
		.ctx = j,
	};
	r.buf = malloc((size_t)r.chunk * CD_RAW);
	if (!r.buf)
		return CDT_ENOMEM;
	rc = rescue_save(&r);
	if (!rc)
		rc = rescue_run(&r);
	j->res->sum.blocks_read = r.blocks_read;
	/* whatever ended the run: the first error stays the one told */
	rc2 = book_save_after(&j->book, &j->book.map, rc);
	if (!rc)
		rc = rc2;
	rescue_fini(&r);
	free(r.buf);
	return rc;
}

static bool is_failed(char status)
{
	return status == MAP_BAD || status == MAP_NONTRIMMED || status == MAP_NONSCRAPED;
}

/* Append LBAs [first, first + n) to the summary's bad ranges. */
static int add_bad(struct cdt_read_summary *sum, uint64_t first, uint64_t n)
{
	struct cdt_range *v;

	if (sum->n_bad && sum->bad[sum->n_bad - 1].last + 1 == first) {
		sum->bad[sum->n_bad - 1].last += n;
		return 0;
	}
	v = realloc(sum->bad, (sum->n_bad + 1) * sizeof(*v));
	if (!v)
		return CDT_ENOMEM;
	sum->bad = v;
	sum->bad[sum->n_bad++] = (struct cdt_range){ first, first + n - 1 };
	return 0;
}

/* Stream sectors [a, b) failed: counted in their track, listed as LBAs. */
static int count_failed(struct raw_job *j, uint64_t a, uint64_t b)
{
	while (a < b) {
		const struct raw_file *f = raw_plan_find(&j->plan, a);
		struct cdt_raw_track *t = &j->res->tracks[f - j->plan.f];
		uint64_t end = f->stream + f->n < b ? f->stream + f->n : b, k;
		int rc;

		for (k = a; k < end; k++)
			t->edc_errors += j->edc_failed[k];
		t->bad_sectors += end - a;
		j->res->sum.bad_blocks += end - a;
		rc = add_bad(&j->res->sum, f->first + (a - f->stream), end - a);
		if (rc)
			return rc;
		a = end;
	}
	return 0;
}

static int fill_tracks(struct raw_job *j)
{
	struct cdt_raw_result *res = j->res;
	size_t i;
	int rc = 0;

	res->tracks = calloc(j->plan.n, sizeof(*res->tracks));
	if (!res->tracks)
		return CDT_ENOMEM;
	res->n_tracks = j->plan.n;
	memcpy(res->catalog, j->plan.catalog, sizeof(res->catalog));
	for (i = 0; i < j->plan.n; i++) {
		const struct raw_file *f = &j->plan.f[i];

		res->tracks[i] = (struct cdt_raw_track){
			.number = f->t->number, .session = f->t->session,
			.mode = f->t->mode, .sector_mode = f->t->sector_mode,
			.file = strdup(j->paths[i]), .first_lba = f->first,
			.sectors = f->n, .pregap = f->pregap, .runout = f->runout,
		};
		memcpy(res->tracks[i].isrc, f->isrc, sizeof(f->isrc));
		if (!res->tracks[i].file)
			return CDT_ENOMEM;
	}
	for (i = 0; !rc && i < j->book.map.n; i++)
		if (is_failed(j->book.map.runs[i].status))
			rc = count_failed(j, j->book.map.runs[i].pos / CD_RAW,
					  (j->book.map.runs[i].pos + j->book.map.runs[i].size) / CD_RAW);
	return rc;
}

/* OUT.hash's line for an audio track, after the DAT's lines. */
static int arip_line(FILE *f, const struct cdt_raw_track *t)
{
	return fprintf(f, "<!-- accuraterip track=\"%u\" v1=\"%08x\" v2=\"%08x\" -->\n",
		       t->number, t->arip_v1, t->arip_v2);
}

/*
 * Every track's checksums, and OUT.hash beside the sheet: a line per file
 * as redump.org's DATs write a ROM, so it can be compared with the DAT's.
 */
static int write_hashes(struct raw_job *j)
{
	char *base = base_of(j->cue_path), path[4200], line[8400];
	FILE *f = NULL;
	size_t i;
	int rc = base ? 0 : CDT_ENOMEM;

	/* what the stream still lacks read back once (rawhash.h) */
	if (!rc)
		rc = j->hash ? rawhash_finish(j->hash, j->res->tracks) : CDT_ENOMEM;
	if (rc == CDT_EIO && j->hash->err_short)
		cdt_dev_seterr(j->dev, "%s: unexpected end of file at byte %" PRIu64,
			       j->paths[j->hash->err_file], j->hash->err_at);
	else if (rc == CDT_EIO)
		rc = file_error(j, j->paths[j->hash->err_file]);
	if (!rc) {
		snprintf(path, sizeof(path), "%s.hash", base);
		f = fopen(path, "w");
		if (!f)
			rc = file_error(j, path);
	}
	for (i = 0; !rc && i < j->plan.n; i++) {
		const struct cdt_raw_track *t = &j->res->tracks[i];
		struct th_sums s = { .size = j->plan.f[i].n * CD_RAW, .crc32 = t->crc32 };
		char name[4200];

		memcpy(s.md5, t->md5, sizeof(s.md5));
		memcpy(s.sha1, t->sha1, sizeof(s.sha1));
		raw_rom_name(j, i, base, name, sizeof(name));
		trackhash_rom_line(line, sizeof(line), name, &s);
		if (fprintf(f, "%s\n", line) < 0)
			rc = file_error(j, path);
	}
	for (i = 0; !rc && i < j->plan.n; i++)
		if (j->res->tracks[i].accuraterip && arip_line(f, &j->res->tracks[i]) < 0)
			rc = file_error(j, path);
	if (f && fclose(f) && !rc)
		rc = file_error(j, path);
	if (!rc)
		rc = raw_write_dat(j, base);
	free(base);
	return rc;
}

static int close_files(struct raw_job *j, int rc)
{
	size_t i;

	rc = book_close(&j->book, rc);
	for (i = 0; j->paths && i < j->plan.n; i++)
		free(j->paths[i]);
	free(j->fds);
	free(j->paths);
	return rc;
}

static int image_raw(struct cdt_dev *dev, const char *cue_path,
		     const struct cdt_raw_opts *opts, struct cdt_raw_result *res)
{
	struct raw_job j = { .dev = dev, .cue_path = cue_path, .opts = opts,
			     .res = res, .sub_fd = -1 };
	struct rawhash hash = { 0 };
	double t0 = rescue_now_ms();
	int rc, rc2;

	book_init(&j.book, dev, opts->map_path, opts->map_comment, "stream sector");
	/* the identity's stream sectors are read raw, as the run reads them */
	j.book.read = raw_read;
	j.book.read_ctx = &j;

	rc = start(&j);
	if (!rc)
		rc = rawhash_init(&hash, &j.plan, j.fds, j.shift, opts->single_file);
	if (!rc) {
		j.hash = &hash;
		rc = run_engine(&j);
	}
	rc2 = j.plan.n && j.paths && j.book.map.n ? fill_tracks(&j) : 0;
	if (!rc2 && res->tracks)
		rc2 = raw_sub_count(&j);
	if (!rc)
		rc = rc2;
	if (!rc)
		rc = write_hashes(&j);
	if (!res->identity_blocks)
		res->identity_blocks = j.book.rec.id.n;
	/* a run that read nothing leaves nothing it made */
	if (rc && rc != CDT_EBUSY && !res->sum.blocks_read)
		res->removed = book_remove_created(&j.book);
	res->map_saved = book_map_saved(&j.book);
	rawhash_free(&hash);
	rc = close_files(&j, rc);
	raw_plan_free(&j.plan);
	reader_fini(&j.reader);
	free(j.edc_failed);
	raw_sub_free(&j);
	probe_findings_free(&j.found);
	cdt_get_stats(dev, &res->sum.stats);
	res->sum.elapsed_ms = rescue_now_ms() - t0;
	return rc;
}

static const struct cdt_raw_opts raw_defaults = {
	.size = sizeof(raw_defaults),
	.rd.retries = -1,
};

int cdt_image_raw(struct cdt_dev *dev, const char *cue_path,
		  const struct cdt_raw_opts *opts, struct cdt_raw_result *res)
{
	struct cdt_raw_opts o;
	struct cdt_raw_result full;
	int rc = cdt_abi_enter(dev, opts, &raw_defaults, &o, sizeof(o), res,
			       &full, sizeof(full), "cdt_image_raw");

	if (!rc)
		rc = rescue_summary_start(&full.sum);
	if (!rc && !cue_path) {
		cdt_dev_seterr(dev, "cdt_image_raw: no sheet path");
		rc = CDT_EUSAGE;
	}
	if (!rc)
		rc = image_raw(dev, cue_path, &o, &full);
	if (cdt_abi_leave(res, &full, sizeof(full), CDT_END(struct cdt_raw_result, n_tracks))) {
		struct cdt_raw_result tmp = full;

		cdt_raw_result_free(&tmp);
	} else {
		/* a caller built before issue 33 cannot hold these to free them */
		if (!CDT_HAS(res, cd_text))
			raw_text_free(&full);
		if (!CDT_HAS(res, sub_zeroed))
			raw_sub_result_free(&full);
	}
	return rc;
}

void cdt_raw_result_free(struct cdt_raw_result *res)
{
	size_t i;

	if (!res || !CDT_HAS(res, n_tracks))
		return;
	rescue_summary_free(&res->sum);
	for (i = 0; res->tracks && i < res->n_tracks; i++)
		free(res->tracks[i].file);
	free(res->tracks);
	res->tracks = NULL;
	res->n_tracks = 0;
	if (CDT_HAS(res, cd_text))
		raw_text_free(res);
	if (CDT_HAS(res, sub_zeroed))
		raw_sub_result_free(res);
}
