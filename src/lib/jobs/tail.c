// SPDX-License-Identifier: MIT
/*
 * cdt_tail: complete an image that stopped at the reported length.  The
 * existing bytes are never rewritten: the image is checked (length, then
 * its last blocks against the disc) and only then extended, through the
 * same rescue engine imaging uses, over a map that marks the existing
 * whole blocks finished.  What is not data (skip.h) is never read: the
 * comparison takes the last CDT_TAIL_COMPARE_BLOCKS data blocks, passing
 * over skipped areas (another tool may have written anything there), and
 * an extension across a skipped area leaves zeros there, as image does.
 * A block that answers 05/64/00 alone inside a data track, in the window
 * or in the extension, is Mode 2 Form 2 (engine.c): listed as skipped
 * (form2), not compared, zeros where IMAGE grows over it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "core/abi.h"
#include "core/device.h"
#include "engine/compare.h"
#include "engine/engine.h"
#include "engine/passes.h"
#include "jobs/job.h"
#include "engine/sink.h"

struct tail_job {
	struct cdt_dev *dev;
	const char *path;
	const struct cdt_read_opts *rd;
	struct cdt_tail_result *res;
	int fd;
	uint32_t bs;
	uint32_t chunk;
	uint8_t *disc, *file;	/* chunk blocks each */
	struct skip_plan skip;	/* never read */
	uint64_t window;	/* the first LBA of the compared window */
	char *note;		/* IMAGE.cdtail-tail: the length before appending */
	struct dg after;	/* IMAGE's digests as extended: its old whole
				 * blocks, then the blocks as appended */
};

/* Which size the image's length matches, if any. */
static enum cdt_tail_basis judge_length(const struct cdt_probe_result *p,
					uint32_t bs, uint64_t len)
{
	uint64_t extent = p->extent_blocks * bs, truth = p->true_blocks * bs;

	if (len > extent || !len)
		return CDT_TAIL_NONE;
	if (len == p->reported_blocks * bs)
		return CDT_TAIL_REPORTED;
	if (p->sizes.kernel_512 >= 0 && len == (uint64_t)p->sizes.kernel_512 * 512)
		return CDT_TAIL_KERNEL;
	if (len == extent || len == truth)
		return CDT_TAIL_COMPLETE;
	return CDT_TAIL_NONE;
}

/* Block lba answered 05/64/00 or 05/6F/xx alone: Form 2 or protected, listed (engine.h, wrong_mode). */
static int list_wrong_mode(void *ctx, uint64_t lba, enum cdt_skip_why why)
{
	struct tail_job *j = ctx;

	return skip_add(&j->skip, lba, why);
}

/*
 * A step of the window settled (compare.h): in ascending order, a block
 * that never read is UNREADABLE, one that differs from IMAGE is a
 * MISMATCH, the first of either the finding (the pass then ends: 1); a
 * listed Form 2 block is passed over.  The block at IMAGE's partial end
 * is compared on the bytes IMAGE holds.  0 the step is the same, 1 a
 * finding, <0 an error.
 */
static int window_step(void *ctx, uint64_t lba, uint32_t n, const struct cmp_step *st)
{
	struct tail_job *j = ctx;
	uint64_t end = (lba + n) * j->bs;
	size_t len, off;
	uint32_t i, compared = 0;

	if (end > j->res->image_bytes)
		end = j->res->image_bytes;
	len = (size_t)(end - lba * j->bs);
	if (st->file_got < len) {
		cdt_dev_seterr(j->dev, "cannot read %s", j->path);
		return CDT_EIO;
	}
	for (i = 0; i < n; i++) {
		off = (size_t)i * j->bs;
		if (st->state[i] == CMP_WRONG_MODE)
			continue;
		if (st->state[i] == CMP_BAD) {
			j->res->verdict = CDT_TAIL_UNREADABLE;
			j->res->mismatch_lba = lba + i;
			return 1;
		}
		if (memcmp(st->disc + off, st->file + off, len - off < j->bs ? len - off : j->bs)) {
			j->res->verdict = CDT_TAIL_MISMATCH;
			j->res->mismatch_lba = lba + i;
			return 1;
		}
		compared++;
	}
	/* a step with a finding counts none: the window is not the same */
	j->res->compared_blocks += compared;
	return 0;
}

/*
 * The last CDT_TAIL_COMPARE_BLOCKS whole data blocks, and a partial one
 * unless it is skipped: the engine's in-order pass (passes.h), as verify
 * reads, into the compare sink, in ascending order, so the first finding
 * is the lowest.  The pass decides the retries, timeouts, progress and a
 * medium change (no identity here: CDT_ECHANGED, never a verdict on
 * another disc's blocks).
 */
static int compare_tail(struct tail_job *j, uint64_t len)
{
	uint64_t whole = len / j->bs, extent = j->res->sum.probe->extent_blocks, reached;
	struct cmp_sink sink = {
		.dev = j->dev,
		.fd = j->fd,
		.path = j->path,
		.bs = j->bs,
		.wrong_mode = list_wrong_mode,
		.step = window_step,
		.job = j,
	};
	struct cdt_map map;
	struct rescue r = {
		.dev = j->dev,
		.map = &map,
		.bs = j->bs,
		.rd = j->rd,
		.retries = j->rd ? j->rd->retries : -1,
		.t0 = rescue_now_ms(),
	};
	int rc;

	j->window = skip_window_start(&j->skip, whole, CDT_TAIL_COMPARE_BLOCKS);
	rc = cmp_sink_init(&sink, j->chunk, j->window);
	cmp_sink_attach(&sink, &r);
	rescue_fit_unit(&r, j->res->sum.probe->sizes.profile);
	if (!rc)
		rc = map_init(&map, extent * j->bs, MAP_NONTRIED);
	if (!rc)
		rc = map_set(&map, 0, j->window * j->bs, MAP_FINISHED);
	if (!rc)
		rc = skip_mark(&j->skip, &map, j->bs);
	if (!rc)
		rc = rescue_in_order(&r, &j->skip, j->window, whole, &reached);
	/* the partial block alone, as a step of its own */
	if (!rc && len % j->bs && j->res->verdict == CDT_TAIL_APPENDED &&
	    !skip_at(&j->skip, whole))
		rc = rescue_in_order(&r, &j->skip, whole, whole + 1, &reached);
	rescue_fini(&r);
	map_free(&map);
	cmp_sink_free(&sink);
	return rc;
}

/*
 * IMAGE's len bytes as they were, read once: all of them into before (the
 * copy's digests before it changes) and its whole blocks into j->after,
 * which the appended blocks then continue (a partial last block is read
 * again whole from the disc).
 */
static int hash_old(struct tail_job *j, uint64_t len, uint64_t whole)
{
	size_t cap = (size_t)j->chunk * j->bs;
	struct dg before = { 0 };
	uint64_t done = 0;
	int rc = dg_init(&before, CDT_HASH_ALL);

	if (!rc)
		rc = dg_init(&j->after, CDT_HASH_ALL);
	while (!rc && done < len) {
		size_t want = len - done < cap ? (size_t)(len - done) : cap;
		ssize_t got = pread(j->fd, j->disc, want, (off_t)done);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			cdt_dev_seterr(j->dev, "cannot read %s to hash it", j->path);
			rc = CDT_EIO;
			break;
		}
		rc = dg_update(&before, j->disc, (size_t)got);
		if (!rc && done < whole)
			rc = dg_update(&j->after, j->disc, whole - done < (uint64_t)got ?
				       (size_t)(whole - done) : (size_t)got);
		done += (uint64_t)got;
	}
	if (!rc)
		rc = dg_final(&before, &j->res->digests_before);
	dg_free(&before);
	return rc;
}

static int append(struct tail_job *j, uint64_t start)
{
	struct cdt_tail_result *res = j->res;
	uint64_t extent = res->sum.probe->extent_blocks;
	struct cdt_map map;
	struct rescue r = {
		.dev = j->dev,
		.map = &map,
		.bs = j->bs,
		.chunk = j->chunk,
		.buf = j->disc,
		.rd = j->rd,
		.retries = j->rd ? j->rd->retries : -1,
		.t0 = rescue_now_ms(),
	};
	/* no map file, no identity: IMAGE's bytes, the digests as they go */
	struct file_sink out = { .dev = j->dev, .fd = j->fd, .bs = j->bs,
				 .skip = &j->skip, .wrong_mode = list_wrong_mode,
				 .job = j, .stream = &j->after,
				 .stream_pos = start * j->bs };
	int rc;

	file_sink_attach(&out, &r);
	/* DVD and BD: reads in whole ECC blocks (issue 36) */
	rescue_fit_unit(&r, res->sum.probe->sizes.profile);
	/* skipped areas finished: never read, zeros from the ftruncate below */
	rc = map_init(&map, extent * j->bs, MAP_NONTRIED);
	if (!rc)
		rc = map_set(&map, 0, start * j->bs, MAP_FINISHED);
	if (!rc)
		rc = skip_mark(&j->skip, &map, j->bs);
	if (!rc)
		rc = rescue_run(&r);
	rescue_fini(&r);
	res->sum.blocks_read = r.blocks_read;
	if (!rc && ftruncate(j->fd, (off_t)(extent * j->bs)))
		rc = CDT_EIO;
	if (!rc && fdatasync(j->fd))
		rc = CDT_EIO;
	/* what waited behind a failed read: read back now that it is final */
	if (!rc)
		rc = file_sink_catch_up(&out, extent * j->bs);
	if (!rc && (out.stream_broken || out.stream_pos != extent * j->bs))
		rc = CDT_ENOMEM;
	if (rc == CDT_EIO && !cdt_errmsg(j->dev)[0])
		cdt_dev_seterr(j->dev, "cannot write %s: %s", j->path, strerror(errno));
	if (!rc)
		rc = rescue_bad_ranges(&map, j->bs, &res->sum);
	map_free(&map);
	if (rc)
		return rc;
	res->appended_blocks = extent - start;
	res->final_bytes = extent * j->bs;
	return 0;
}

static int open_image(struct tail_job *j)
{
	struct stat st;

	j->fd = open(j->path, O_RDWR | O_CLOEXEC);
	if (j->fd < 0) {
		cdt_dev_seterr(j->dev, "%s: %s", j->path, strerror(errno));
		return errno == ENOENT ? CDT_EUSAGE : CDT_EIO;
	}
	if (fstat(j->fd, &st) || !S_ISREG(st.st_mode)) {
		cdt_dev_seterr(j->dev, "%s: not a regular file", j->path);
		return CDT_EUSAGE;
	}
	j->res->image_bytes = (uint64_t)st.st_size;
	j->res->final_bytes = (uint64_t)st.st_size;
	return 0;
}

/*
 * A tail killed while it appends leaves IMAGE longer than the image it
 * was given, and no length of the disc's fits it.  So before appending it
 * notes IMAGE's length in IMAGE.cdtail-tail (written and synced first);
 * a later run that finds the note takes IMAGE as that long again, cuts
 * off what the killed run appended, and appends anew.  The note goes when
 * a run ends, done or failed (IMAGE then cut back to the noted length).
 */
static int noted_length(struct tail_job *j, uint64_t *len)
{
	unsigned long long v;
	FILE *f;
	int got;

	if (!j->note)
		return 0;
	f = fopen(j->note, "re");
	if (!f)
		return 0;
	got = fscanf(f, "cdtail tail: image_bytes=%llu", &v);
	fclose(f);
	if (got == 1 && v <= *len)
		*len = v;
	return 0;
}

static int write_note(struct tail_job *j, uint64_t len)
{
	char text[64];
	int fd, n, rc = 0, e = 0;
	ssize_t w = 0;

	n = snprintf(text, sizeof(text), "cdtail tail: image_bytes=%" PRIu64 "\n", len);
	fd = open(j->note, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || (w = write(fd, text, (size_t)n)) != n || fsync(fd)) {
		rc = CDT_EIO;
		/* the failing call's errno, before close; a short write sets none */
		e = fd >= 0 && w >= 0 && w != n ? 0 : errno;
	}
	if (fd >= 0)
		close(fd);
	if (rc)
		cdt_dev_seterr(j->dev, "cannot write %s: %s", j->note,
			       e ? strerror(e) : "short write (a full device?)");
	return rc;
}

static int append_noted(struct tail_job *j, uint64_t len)
{
	int rc;

	rc = write_note(j, len);
	/* what a killed run appended goes: its bad blocks may hold its bytes */
	if (!rc && ftruncate(j->fd, (off_t)len))
		rc = CDT_EIO;
	if (!rc)
		rc = hash_old(j, len, len / j->bs * j->bs);
	return rc ? rc : append(j, len / j->bs);
}

/* The skipped areas from the compared window on, Form 2 found included. */
static int copy_skipped(struct tail_job *j)
{
	struct cdt_tail_result *res = j->res;

	return skip_copy_range(&j->skip, j->window, res->sum.probe->extent_blocks,
			       &res->skipped, &res->n_skipped, &res->skipped_blocks);
}

static int run(struct tail_job *j)
{
	struct cdt_tail_result *res = j->res;
	uint64_t len, start;
	int rc;

	rc = open_image(j);
	if (rc)
		return rc;
	len = res->image_bytes;
	noted_length(j, &len);
	res->image_bytes = len;
	res->basis = judge_length(res->sum.probe, j->bs, len);
	if (res->basis == CDT_TAIL_NONE) {
		res->verdict = CDT_TAIL_BAD_LENGTH;
		return 0;
	}
	rc = compare_tail(j, len);
	if (rc || res->verdict != CDT_TAIL_APPENDED)
		return rc ? rc : copy_skipped(j);
	/* a partial last block is read again whole: completed, not repeated */
	start = len / j->bs;
	if (res->basis == CDT_TAIL_COMPLETE || start >= res->sum.probe->extent_blocks) {
		res->verdict = CDT_TAIL_NOTHING_TO_ADD;
		/* IMAGE stays as it is: its digests, before and after alike */
		rc = hash_old(j, len, len);
	} else {
		rc = append_noted(j, len);
	}
	if (rc) {
		/* leave IMAGE as it was, so the command can simply be run again */
		if (ftruncate(j->fd, (off_t)len))
			cdt_dev_seterr(j->dev, "%s: cannot cut back to %" PRIu64 " bytes",
				       j->path, len);
		else
			unlink(j->note);
		return rc;
	}
	/* appended and synced: IMAGE's length speaks for itself again */
	unlink(j->note);
	rc = copy_skipped(j);
	if (rc)
		return rc;
	/* the old bytes and the appended ones, each hashed once (append) */
	return dg_final(&j->after, &res->sum.digests);
}

static int tail(struct cdt_dev *dev, const char *image_path,
		const struct cdt_read_opts *opts, struct cdt_tail_result *res)
{
	struct tail_job j = { .dev = dev, .path = image_path, .rd = opts,
			      .res = res, .fd = -1 };
	struct probe_findings pf = { 0 };
	double t0 = rescue_now_ms();
	uint64_t extent;
	int rc;

	rc = rescue_probe(dev, opts, &res->sum, &pf);
	if (!rc) {
		j.bs = res->sum.block_size;
		extent = res->sum.probe->extent_blocks;
		rc = skip_plan_make(pf.layout, res->sum.probe, CDT_FORMATTED_SKIP,
				    &extent, &j.skip);
	}
	probe_findings_free(&pf);
	if (rc)
		return rc;
	j.note = malloc(strlen(image_path) + sizeof(".cdtail-tail"));
	if (!j.note) {
		skip_free(&j.skip);
		return CDT_ENOMEM;
	}
	strcpy(stpcpy(j.note, image_path), ".cdtail-tail");
	rc = compare_buffers(dev, j.bs, opts->chunk_blocks, &j.chunk, &j.disc, &j.file);
	if (!rc)
		rc = run(&j);
	free(j.note);
	dg_free(&j.after);
	compare_release(j.fd, j.disc, j.file);
	skip_free(&j.skip);
	cdt_get_stats(dev, &res->sum.stats);
	res->sum.elapsed_ms = rescue_now_ms() - t0;
	return rc;
}

static const struct cdt_read_opts tail_defaults = {
	.size = sizeof(tail_defaults),
	.retries = -1,
};

int cdt_tail(struct cdt_dev *dev, const char *image_path,
	     const struct cdt_read_opts *opts, struct cdt_tail_result *res)
{
	struct cdt_read_opts o;
	struct cdt_tail_result full;
	int rc = cdt_abi_enter(dev, opts, &tail_defaults, &o, sizeof(o), res,
			       &full, sizeof(full), "cdt_tail");

	if (!rc)
		rc = rescue_summary_start(&full.sum);
	if (!rc)
		rc = tail(dev, image_path, &o, &full);
	if (cdt_abi_leave(res, &full, sizeof(full),
			  CDT_END(struct cdt_tail_result, sum.n_bad)))
		rescue_summary_free(&full.sum);
	if (!res || !CDT_HAS(res, n_skipped))
		skip_result_free(&full.skipped, &full.n_skipped, &full.skipped_blocks);
	return rc;
}

void cdt_tail_result_free(struct cdt_tail_result *res)
{
	if (res && CDT_HAS(res, sum.n_bad))
		rescue_summary_free(&res->sum);
	if (res && CDT_HAS(res, n_skipped))
		skip_result_free(&res->skipped, &res->n_skipped, &res->skipped_blocks);
}
