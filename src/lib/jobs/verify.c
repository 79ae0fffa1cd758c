// SPDX-License-Identifier: MIT
/*
 * cdt_verify: read the disc to its true end, in order, and compare it with
 * an image file or with digests.  A chunk that fails is read again block
 * by block (on DVD and BD unit by unit, as the medium fails), with the
 * retries, so one bad block costs one block (one unit), not a chunk;
 * unreadable blocks count as zeros in the digests.  What is not
 * data (skip.h) is never read: zeros in the digests, as image writes it,
 * and not compared with an image file, which another tool may have filled
 * with anything there (a real drive's READ CD of audio, say).  A block
 * that answers 05/64/00 alone inside a data track is Mode 2 Form 2 (the
 * engine's rule, engine.c): listed as skipped (form2) as image lists it,
 * zeros in the digests, not compared, and the verdict is INCOMPLETE, never
 * IDENTICAL: READ(10) cannot give what it holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include "core/abi.h"
#include "core/device.h"
#include "engine/compare.h"
#include "engine/digest.h"
#include "engine/engine.h"
#include "engine/passes.h"
#include "jobs/job.h"
#include "book/skip.h"
#include "jobs/verifycue.h"
#include "jobs/verifysub.h"

struct verify_job {
	struct cdt_dev *dev;
	const struct cdt_verify_opts *opts;
	struct cdt_verify_result *res;
	struct cmp_ranges bad, diff;
	struct skip_plan skip;	/* never read (skip.h) */
	uint64_t extent;	/* blocks: the probe's extent */
	struct dg dg;
	int fd;
	uint32_t bs;
	/*
	 * A FILE of whole blocks shorter than the disc: past file_blocks the
	 * burn question ("is my ISO on the disc?") asks only whether what
	 * follows is padding (wodim -pad, mkisofs padding, a DVD's ECC
	 * block) or data; any diff inside FILE is a difference as ever.
	 */
	uint64_t file_blocks;
	bool file_short, diff_inside, fd_open;
	/*
	 * A digest and a disc whose image may be shorter than its extent
	 * (an ISO of the filesystem's size, a dd copy of READ CAPACITY's):
	 * the same bytes into one more digest per candidate length, each
	 * finished where its length ends.
	 */
	struct { uint64_t blocks; struct dg dg; bool done; struct cdt_digests out; } cand[3];
	size_t n_cand;
	/*
	 * The walk: the engine's in-order pass (passes.h) into the compare
	 * sink (compare.h), which hands each step here whole.
	 */
	struct cmp_sink sink;
	uint64_t skipped_blocks;	/* of the skip plan, passed so far */
	uint64_t form2_blocks;	/* found while reading, listed in skip:
				 * Form 2 and protected (05/6F/xx) alike */
};

/*
 * Block lba answered 05/64/00 alone: a Form 2 block, listed; one the list
 * has no room for stays a bad block (skip.h).  0 listed, 1 not, or <0.
 */
static int list_form2(void *ctx, uint64_t lba, enum cdt_skip_why why)
{
	struct verify_job *j = ctx;
	int rc = skip_add(&j->skip, lba, why);

	if (rc == CDT_EFORMAT)
		return 1;
	if (!rc)
		j->form2_blocks++;
	return rc;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	return !n || (!p[0] && !memcmp(p, p + 1, n - 1));
}

static bool stop_at_diff(const struct verify_job *j)
{
	return j->res->have_diff && !j->opts->all;
}

static int note_diff(struct verify_job *j, uint64_t lba, const uint8_t *disc,
		     const uint8_t *file)
{
	struct cdt_verify_result *res = j->res;

	if (!res->have_diff) {
		res->have_diff = true;
		res->first_diff_lba = lba;
		if (j->opts->diff && disc && file)
			j->opts->diff(j->opts->diff_ctx, lba, disc, file, j->bs);
	}
	res->diff_blocks++;
	if (!j->file_short || lba < j->file_blocks)
		j->diff_inside = true;
	return cmp_range_add(&j->diff, lba);
}

/* A block past a short FILE: padding, or data (a difference: FILE is a prefix). */
static int past_file(struct verify_job *j, uint64_t lba, const uint8_t *disc)
{
	if (all_zero(disc, j->bs)) {
		j->res->padding_blocks++;
		return 0;
	}
	return note_diff(j, lba, NULL, NULL);
}

/* Compare a step just read with the image file; blocks it lacks differ. */
static int compare_step(struct verify_job *j, uint64_t lba, uint32_t n,
			const struct cmp_step *st)
{
	uint32_t i;
	int rc;

	for (i = 0; i < n && !stop_at_diff(j); i++) {
		size_t off = (size_t)i * j->bs;
		bool have = off + j->bs <= st->file_got;

		/* a Form 2 block past a short FILE is data FILE lacks */
		if (st->state[i] == CMP_WRONG_MODE && j->file_short &&
		    lba + i >= j->file_blocks) {
			rc = note_diff(j, lba + i, NULL, NULL);
			if (rc)
				return rc;
			continue;
		}
		if (st->state[i] != CMP_READ)
			continue;
		if (have && !memcmp(st->disc + off, st->file + off, j->bs))
			continue;
		if (j->file_short && lba + i >= j->file_blocks) {
			rc = past_file(j, lba + i, st->disc + off);
			if (rc)
				return rc;
			continue;
		}
		rc = note_diff(j, lba + i, st->disc + off, have ? st->file + off : NULL);
		if (rc)
			return rc;
	}
	return 0;
}

/* The candidate lengths' digests: buf (NULL: zeros) is [lba, lba + n). */
static int cand_update(struct verify_job *j, uint64_t lba, uint64_t n, const uint8_t *buf)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < j->n_cand && !rc; i++) {
		uint64_t end = j->cand[i].blocks, take;

		if (j->cand[i].done || lba >= end)
			continue;
		take = end - lba < n ? end - lba : n;
		rc = buf ? dg_update(&j->cand[i].dg, buf, take * j->bs) :
			   dg_zeros(&j->cand[i].dg, take * j->bs);
		if (!rc && lba + take == end) {
			rc = dg_final(&j->cand[i].dg, &j->cand[i].out);
			j->cand[i].done = true;
		}
	}
	return rc;
}

static void cand_add(struct verify_job *j, int64_t blocks)
{
	size_t i;

	if (blocks <= 0 || (uint64_t)blocks >= j->extent || j->n_cand == 3)
		return;
	for (i = 0; i < j->n_cand; i++)
		if (j->cand[i].blocks == (uint64_t)blocks)
			return;
	j->cand[j->n_cand++].blocks = (uint64_t)blocks;
}

/*
 * opts' length in bytes (an ISO's size, stat -c%s) as blocks; a length
 * that is not whole blocks is no image this drive can have made, so it is
 * refused rather than rounded.
 */
static int length_in_blocks(struct verify_job *j, uint64_t *blocks)
{
	uint64_t bytes = j->opts->length_bytes;
	uint32_t bs = j->res->sum.block_size;

	*blocks = 0;
	if (!bytes || !bs)
		return 0;
	if (bytes % bs) {
		cdt_dev_seterr(j->dev, "length %" PRIu64 " bytes is not a whole number of %" PRIu32
			       "-byte blocks (%" PRIu64 " and %" PRIu64 " bytes are)",
			       bytes, bs, bytes / bs * bs, (bytes / bs + 1) * bs);
		return CDT_EUSAGE;
	}
	*blocks = bytes / bs;
	if (j->opts->length_blocks && j->opts->length_blocks != *blocks) {
		cdt_dev_seterr(j->dev, "length %" PRIu64 " blocks and %" PRIu64
			       " bytes: two lengths, one is tried", j->opts->length_blocks, bytes);
		return CDT_EUSAGE;
	}
	return 0;
}

/* READ CAPACITY, the filesystem's size, --length: those shorter than the extent. */
static int cand_start(struct verify_job *j)
{
	const struct cdt_verify_opts *o = j->opts;
	unsigned int which = o->sha256 ? CDT_HASH_SHA256 : CDT_HASH_MD5;
	uint64_t bytes_as_blocks;
	size_t i;
	int rc;

	if (o->image_path || (!o->sha256 && !o->md5))
		return 0;
	rc = length_in_blocks(j, &bytes_as_blocks);
	if (rc)
		return rc;
	cand_add(j, (int64_t)j->res->sum.probe->reported_blocks);
	cand_add(j, j->res->sum.probe->sizes.filesystem);
	cand_add(j, (int64_t)o->length_blocks);
	cand_add(j, (int64_t)bytes_as_blocks);
	for (i = 0; i < j->n_cand; i++) {
		rc = dg_init(&j->cand[i].dg, which);
		if (rc)
			return rc;
	}
	return 0;
}

static void cand_free(struct verify_job *j)
{
	size_t i;

	for (i = 0; i < j->n_cand; i++)
		dg_free(&j->cand[i].dg);
}

static bool digest_matches(const struct cdt_verify_opts *o, const struct cdt_digests *d)
{
	if (o->sha256)
		return !strcasecmp(o->sha256, d->sha256);
	return !strcasecmp(o->md5, d->md5);
}

/* After a step ending at block end: the blocks read so far; 1 at a diff that ends the walk. */
static int walked(struct verify_job *j, uint64_t end)
{
	j->res->sum.blocks_read = end - j->skipped_blocks - j->res->sum.bad_blocks -
				  j->form2_blocks;
	return stop_at_diff(j);
}

/*
 * A step of data settled (cmp_sink): its bad blocks counted, the
 * candidate digests, the compare (the sink fed the digest).
 */
static int data_step(void *ctx, uint64_t lba, uint32_t n, const struct cmp_step *st)
{
	struct verify_job *j = ctx;
	uint32_t i;
	int rc = 0;

	for (i = 0; i < n && !rc; i++) {
		if (st->state[i] != CMP_BAD)
			continue;
		j->res->sum.bad_blocks++;
		rc = cmp_range_add(&j->bad, lba + i);
	}
	if (!rc)
		rc = cand_update(j, lba, n, st->disc);
	if (!rc && j->fd >= 0)
		rc = compare_step(j, lba, n, st);
	return rc ? rc : walked(j, lba + n);
}

/*
 * Skipped blocks past a short FILE: a run-out or unwritten formatted space
 * is padding; an audio track or a gap there is not (FILE is a prefix of a
 * longer disc), its first block the first difference.
 */
static void skipped_past_file(struct verify_job *j, uint64_t lba, uint64_t n)
{
	const struct cdt_skip *k = skip_at(&j->skip, lba);
	uint64_t from = lba > j->file_blocks ? lba : j->file_blocks;

	if (!j->file_short || !j->fd_open || from >= lba + n)
		return;
	if (k && (k->why == CDT_SKIP_RUNOUT || k->why == CDT_SKIP_UNWRITTEN))
		j->res->padding_blocks += lba + n - from;
	else if (!j->res->have_diff)
		note_diff(j, from, NULL, NULL);
}

/* A skipped area passed over (cmp_sink: zeros in the digest already). */
static int skipped_step(void *ctx, uint64_t lba, uint64_t n)
{
	struct verify_job *j = ctx;
	int rc = cand_update(j, lba, n, NULL);

	if (rc)
		return rc;
	skipped_past_file(j, lba, n);
	j->skipped_blocks += n;
	return walked(j, lba + n);
}

/*
 * The disc to its extent, once, in order: the engine's in-order pass
 * (passes.h) decides the reads, retries, timeouts, progress and what a
 * medium change means (no identity here: the run stops, CDT_ECHANGED,
 * rather than compare a second disc with FILE); the sink hands each step
 * here.
 */
static int read_all(struct verify_job *j)
{
	struct cdt_map map;
	struct rescue r = {
		.dev = j->dev,
		.map = &map,
		.bs = j->bs,
		.rd = &j->opts->rd,
		.retries = j->opts->rd.retries,
		.t0 = rescue_now_ms(),
	};
	uint64_t reached = 0;
	int rc;

	j->sink.fd = j->fd;
	cmp_sink_attach(&j->sink, &r);
	/* DVD and BD: a failed chunk read again in whole ECC blocks (issue 36) */
	rescue_fit_unit(&r, j->res->sum.probe->sizes.profile);
	rc = map_init(&map, j->extent * j->bs, MAP_NONTRIED);
	if (!rc)
		rc = skip_mark(&j->skip, &map, j->bs);
	if (!rc)
		rc = rescue_in_order(&r, &j->skip, 0, j->extent, &reached);
	rescue_fini(&r);
	map_free(&map);
	j->res->complete = !rc && reached >= j->extent;
	return rc;
}

static int open_image(struct verify_job *j)
{
	uint64_t extent_bytes = j->extent * j->bs;
	struct stat st;

	j->fd = open(j->opts->image_path, O_RDONLY | O_CLOEXEC);
	if (j->fd < 0) {
		cdt_dev_seterr(j->dev, "%s: %s", j->opts->image_path, strerror(errno));
		return CDT_EUSAGE;
	}
	if (fstat(j->fd, &st) || !S_ISREG(st.st_mode)) {
		cdt_dev_seterr(j->dev, "%s: not a regular file", j->opts->image_path);
		return CDT_EUSAGE;
	}
	j->res->image_bytes = (uint64_t)st.st_size;
	j->res->length_differs = j->res->image_bytes != extent_bytes;
	j->file_blocks = j->res->image_bytes / j->bs;
	j->file_short = j->res->image_bytes < extent_bytes && !(j->res->image_bytes % j->bs);
	j->fd_open = true;
	return 0;
}

/*
 * An image longer than the disc: each block it holds past the end differs
 * (a part of one counting whole), counted as the compare counts the blocks
 * a shorter one lacks, every one with --all, else the first (issue 28, H:
 * one block longer said diff_count 0 beside a first_diff_lba).
 */
static int past_the_disc(struct verify_job *j)
{
	struct cdt_verify_result *res = j->res;
	uint64_t end = j->extent * j->bs, past;

	if (!res->complete || j->fd < 0 || res->image_bytes <= end)
		return 0;
	past = j->opts->all ? (res->image_bytes - end + j->bs - 1) / j->bs : 1;
	if (!res->have_diff) {
		res->have_diff = true;
		res->first_diff_lba = j->extent;
	}
	res->diff_blocks += past;
	return cmp_range_add_span(&j->diff, j->extent, j->extent + past - 1);
}

/*
 * After reading: an image longer than the disc differs past the end, one
 * shorter at the first block it lacks (found by the compare unless all
 * it lacks is skipped, never compared).
 */
/* The lengths tried, the true end's first; true when one matched. */
static bool judge_lengths(struct verify_job *j)
{
	struct cdt_verify_result *res = j->res;
	size_t i;

	res->lengths[res->n_lengths++] = j->extent;
	if (digest_matches(j->opts, &res->sum.digests))
		res->matched_blocks = j->extent;
	for (i = 0; i < j->n_cand; i++) {
		res->lengths[res->n_lengths++] = j->cand[i].blocks;
		if (!res->matched_blocks && j->cand[i].done &&
		    digest_matches(j->opts, &j->cand[i].out))
			res->matched_blocks = j->cand[i].blocks;
	}
	return res->matched_blocks != 0;
}

static int judge(struct verify_job *j)
{
	struct cdt_verify_result *res = j->res;
	const struct cdt_verify_opts *o = j->opts;
	bool digest_differs = false;
	int rc = past_the_disc(j);

	if (rc)
		return rc;
	/* data follows a short FILE that matches: FILE is the disc's start */
	if (j->file_short && res->have_diff && !j->diff_inside) {
		res->verdict = CDT_VERIFY_PREFIX;
		return 0;
	}
	/* a short FILE followed by padding alone is what the disc holds */
	if (res->complete && j->fd >= 0 && res->length_differs && !res->have_diff &&
	    !j->file_short) {
		res->have_diff = true;
		res->first_diff_lba = res->image_bytes / j->bs;
	}
	if (res->complete && (o->md5 || o->sha256))
		digest_differs = !judge_lengths(j);
	/* zeros for bad or Form 2 blocks may be all a digest differs by */
	if (res->have_diff || (digest_differs && !res->sum.bad_blocks && !j->form2_blocks))
		res->verdict = CDT_VERIFY_DIFFERENT;
	else if (res->sum.bad_blocks)
		res->verdict = CDT_VERIFY_UNREADABLE;
	else if (j->form2_blocks)
		res->verdict = CDT_VERIFY_INCOMPLETE;
	else
		res->verdict = CDT_VERIFY_IDENTICAL;
	return 0;
}

static int run(struct verify_job *j)
{
	struct cdt_verify_result *res = j->res;
	int rc;

	if (j->opts->image_path) {
		rc = open_image(j);
		if (rc)
			return rc;
	}
	rc = dg_init(&j->dg, CDT_HASH_ALL);
	if (rc)
		return rc;
	rc = cand_start(j);
	if (!rc)
		rc = read_all(j);
	if (!rc && res->complete)
		rc = dg_final(&j->dg, &res->sum.digests);
	dg_free(&j->dg);
	if (!rc)
		rc = judge(j);
	cand_free(j);
	return rc;
}

static int verify(struct cdt_dev *dev, const struct cdt_verify_opts *opts,
		  struct cdt_verify_result *res)
{
	struct verify_job j = { .dev = dev, .opts = opts, .res = res, .fd = -1 };
	struct probe_findings pf = { 0 };
	const struct cdt_sizes *sz;
	double t0 = rescue_now_ms();
	int rc;

	res->fs_fits = -1;
	rc = rescue_probe(dev, &opts->rd, &res->sum, &pf);
	if (rc) {
		probe_findings_free(&pf);
		return rc;
	}
	sz = &res->sum.probe->sizes;
	if (sz->filesystem >= 0)
		res->fs_fits = (uint64_t)sz->filesystem <= res->sum.probe->true_blocks;
	j.bs = res->sum.block_size;
	j.extent = res->sum.probe->extent_blocks;
	rc = skip_plan_make(pf.layout, res->sum.probe, opts->formatted, &j.extent, &j.skip);
	probe_findings_free(&pf);
	res->extent_blocks = j.extent;
	if (rc) {
		skip_free(&j.skip);
		return rc;
	}
	j.sink = (struct cmp_sink){
		.dev = dev,
		.fd = -1,
		.path = opts->image_path,
		.bs = j.bs,
		.stream = &j.dg,
		.wrong_mode = list_form2,
		.step = data_step,
		.skipped = skipped_step,
		.job = &j,
	};
	rc = cmp_sink_init(&j.sink, rescue_chunk_blocks(dev, j.bs, opts->rd.chunk_blocks), 0);
	if (!rc)
		rc = run(&j);
	/* the plan with the Form 2 blocks the reads found */
	if (!rc)
		rc = skip_copy(&j.skip, &res->skipped, &res->n_skipped, &res->skipped_blocks);
	compare_release(j.fd, NULL, NULL);
	cmp_sink_free(&j.sink);
	skip_free(&j.skip);
	res->sum.bad = j.bad.v;
	res->sum.n_bad = j.bad.n;
	res->diffs = j.diff.v;
	res->n_diffs = j.diff.n;
	cdt_get_stats(dev, &res->sum.stats);
	res->sum.elapsed_ms = rescue_now_ms() - t0;
	return rc;
}

static void tracks_free(struct cdt_verify_result *res)
{
	free(res->tracks);
	res->tracks = NULL;
	res->n_tracks = 0;
}

static void verify_free(struct cdt_verify_result *res)
{
	rescue_summary_free(&res->sum);
	free(res->diffs);
	res->diffs = NULL;
	res->n_diffs = 0;
	skip_result_free(&res->skipped, &res->n_skipped, &res->skipped_blocks);
	tracks_free(res);
	cue_sub_result_free(res);
}

static const struct cdt_verify_opts verify_defaults = {
	.size = sizeof(verify_defaults),
	.rd.retries = -1,
};

int cdt_verify(struct cdt_dev *dev, const struct cdt_verify_opts *opts,
	       struct cdt_verify_result *res)
{
	struct cdt_verify_opts o;
	struct cdt_verify_result full;
	int rc = cdt_abi_enter(dev, opts, &verify_defaults, &o, sizeof(o), res,
			       &full, sizeof(full), "cdt_verify");

	if (!rc)
		rc = rescue_summary_start(&full.sum);
	if (!rc)
		rc = o.cue_path ? rescue_verify_cue(dev, &o, &full) : verify(dev, &o, &full);
	if (cdt_abi_leave(res, &full, sizeof(full),
			  CDT_END(struct cdt_verify_result, n_diffs))) {
		verify_free(&full);
		return rc;
	}
	if (!CDT_HAS(res, n_skipped))
		skip_result_free(&full.skipped, &full.n_skipped, &full.skipped_blocks);
	if (!CDT_HAS(res, n_tracks))
		tracks_free(&full);
	if (!CDT_HAS(res, sub_length_differs))
		cue_sub_result_free(&full);
	return rc;
}

void cdt_verify_result_free(struct cdt_verify_result *res)
{
	if (!res || !CDT_HAS(res, n_diffs))
		return;
	rescue_summary_free(&res->sum);
	free(res->diffs);
	res->diffs = NULL;
	res->n_diffs = 0;
	if (CDT_HAS(res, n_skipped))
		skip_result_free(&res->skipped, &res->n_skipped, &res->skipped_blocks);
	if (CDT_HAS(res, n_tracks))
		tracks_free(res);
	if (CDT_HAS(res, sub_length_differs))
		cue_sub_result_free(res);
}
