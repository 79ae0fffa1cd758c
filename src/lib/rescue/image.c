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
#include "rescue/image.h"

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

int rescue_probe(struct cdt_dev *dev, const struct cdt_read_opts *rd,
		 struct cdt_read_summary *sum)
{
	struct cdt_probe_opts po = CDT_INIT(po);
	int rc;

	po.max_extra = rd ? rd->max_extra : 0;
	po.progress = rd ? rd->progress : NULL;
	po.progress_ctx = rd ? rd->progress_ctx : NULL;
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
	};
	rd->progress(rd->progress_ctx, &p);
}

int rescue_save(struct rescue *r)
{
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
	rc = map_save(r->map_path, r->map, r->map_comment, err, sizeof(err));
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

static void feed_stream(struct rescue *r, uint64_t off, size_t len)
{
	if (!r->stream || r->stream_broken)
		return;
	/* only an unbroken run of good reads from 0 gives the digest */
	if (off != r->stream_pos || dg_update(r->stream, r->buf, len)) {
		r->stream_broken = true;
		return;
	}
	r->stream_pos += len;
}

static int read_fatal(struct rescue *r, uint64_t lba,
		      const struct cdt_read_result *rr)
{
	cdt_dev_seterr(r->dev, "READ at LBA %" PRIu64 " failed: sense %02x/%02x/%02x",
		       lba, rr->sense_key, rr->asc, rr->ascq);
	return CDT_ETRANSPORT;
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
	rc = cdt_read_blocks(r->dev, lba, n, r->buf, (size_t)r->chunk * r->bs, &rr);
	if (rc)
		return rc;
	if (rr.cls == CDT_READ_FATAL)
		return read_fatal(r, lba, &rr);
	if (rr.cls != CDT_READ_OK || rr.resid) {
		r->stream_broken = true;
		r->failed_reads++;
		return SPAN_BAD;
	}
	rc = rescue_pwrite(r->fd, r->buf, len, lba * r->bs);
	if (rc) {
		cdt_dev_seterr(r->dev, "cannot write the output at byte %" PRIu64 ": %s",
			       lba * r->bs, strerror(errno));
		return rc;
	}
	feed_stream(r, lba * r->bs, len);
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
 * Passes 1 and 3: the untried blocks from the start upwards; with
 * skipping, a failure jumps ahead (in blocks).  Returns 0 or <0 on error.
 */
static int copy_forward(struct rescue *r, bool skipping)
{
	uint64_t skip = 0, pos = 0, start, len, lba;
	int got;

	while (map_find(r->map, MAP_NONTRIED, pos * r->bs, &start, &len)) {
		uint32_t n;

		lba = start / r->bs;
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
 * Pass 2: the untried blocks from the end downwards, skipping down after a
 * failure.  Returns 0 or <0 on error.
 */
static int copy_backward(struct rescue *r)
{
	uint64_t skip = 0, end = r->map->size / r->bs, start, len, top;
	int got;

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
 * have been seen to pay:
 *  1. sample: retry the first block of some bad areas, spread evenly over
 *     them, at most one for every RETRY_SAMPLE_SHARE failures the run has
 *     seen so far (at least one).  An area's first block is the one tried
 *     most already (the failing chunk and the trim both stopped on it), so
 *     a block that fails a few times and then reads shows up there first;
 *  2. if a sample read, the disc has such blocks: sample every other area
 *     too;
 *  3. in each area whose sample read, retry every bad block, up to
 *     CDT_DEFAULT_RETRIES passes, until a pass recovers nothing.
 * Permanent damage then costs ~1/RETRY_SAMPLE_SHARE more failures than no
 * retries at all; flaky areas get the passes GNU ddrescue's -r2 would give.
 */
#define RETRY_SAMPLE_SHARE 10

struct retry_area {
	uint64_t a, b;		/* blocks [a, b) were bad when retrying began */
	bool sampled, recovered;
};

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
		k++;
	}
	*n = k;
	return 0;
}

/* Retry an area's first block.  Returns 0 or <0 on error. */
static int sample_area(struct rescue *r, struct retry_area *ar)
{
	int got;

	ar->sampled = true;
	got = try_span(r, ar->a, 1, MAP_BAD);
	if (got < 0)
		return got;
	ar->recovered = got == SPAN_GOOD;
	return 0;
}

/*
 * Up to `passes` retries of every bad block of [a, b), stopping when a
 * pass recovers nothing.  Returns 0 or <0 on error.
 */
static int retry_area_blocks(struct rescue *r, const struct retry_area *ar, int passes)
{
	uint64_t lba, got_any;
	int pass, got;

	for (pass = 1; pass <= passes; pass++) {
		got_any = 0;
		for (lba = ar->a; lba < ar->b; lba++) {
			if (map_status_at(r->map, lba * r->bs) != MAP_BAD)
				continue;
			got = try_span(r, lba, 1, MAP_BAD);
			if (got < 0)
				return got;
			got_any += got == SPAN_GOOD;
		}
		if (!got_any)
			break;
	}
	return 0;
}

/* The learning retry policy above.  Returns 0 or <0 on error. */
static int retry_learning(struct rescue *r)
{
	struct retry_area *ar;
	size_t n, i, samples;
	bool any = false;
	int rc;

	rc = bad_areas(r, &ar, &n);
	if (rc || !n)
		goto out;
	samples = (size_t)(r->failed_reads / RETRY_SAMPLE_SHARE);
	samples = samples < 1 ? 1 : samples > n ? n : samples;
	for (i = 0; i < samples && !rc; i++) {
		rc = sample_area(r, &ar[i * n / samples]);
		any |= ar[i * n / samples].recovered;
	}
	for (i = 0; i < n && !rc && any; i++)
		if (!ar[i].sampled)
			rc = sample_area(r, &ar[i]);
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

int rescue_run(struct rescue *r)
{
	int rc;

	r->last_save_ms = rescue_now_ms();
	enter_phase(r, CDT_PHASE_COPY, 1);
	rc = copy_forward(r, true);
	if (!rc && map_count(r->map, MAP_NONTRIED)) {
		enter_phase(r, CDT_PHASE_COPY, 2);
		rc = copy_backward(r);
	}
	if (!rc && map_count(r->map, MAP_NONTRIED)) {
		enter_phase(r, CDT_PHASE_COPY, 3);
		rc = copy_forward(r, false);
	}
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
	int fd;
};

static int check_map(struct image_job *j)
{
	uint32_t bs = j->res->sum.block_size;
	size_t i;

	if (j->map.size != j->extent_bytes) {
		cdt_dev_seterr(j->dev,
			       "map %s covers %" PRIu64 " bytes but this disc holds %" PRIu64
			       " (%" PRIu64 " blocks of %u): a map of another disc?",
			       j->opts->map_path, j->map.size, j->extent_bytes,
			       j->res->extent_blocks, bs);
		return CDT_EFORMAT;
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

/* Load the map when one is named and exists.  1 loaded, 0 fresh, <0 error. */
static int load_map(struct image_job *j)
{
	char err[400];
	int rc;

	if (!j->opts->map_path)
		return 0;
	rc = map_load(j->opts->map_path, &j->map, err, sizeof(err));
	if (rc == CDT_EOPEN)
		return 0;
	if (rc) {
		cdt_dev_seterr(j->dev, "%s", err);
		return rc;
	}
	rc = check_map(j);
	if (rc) {
		map_free(&j->map);
		return rc;
	}
	return 1;
}

/* The last byte the map says holds good data, +1. */
static uint64_t finished_end(const struct cdt_map *m)
{
	uint64_t start, len;

	if (!map_find_back(m, MAP_FINISHED, m->size, &start, &len))
		return 0;
	return start + len;
}

static int open_resumed(struct image_job *j)
{
	uint64_t need = finished_end(&j->map);
	struct stat st;

	j->fd = open(j->out_path, O_RDWR | O_CLOEXEC | (need ? 0 : O_CREAT), 0644);
	if (j->fd < 0) {
		cdt_dev_seterr(j->dev, "%s: %s%s", j->out_path, strerror(errno),
			       errno == ENOENT ? ", but its map says part of it was read" : "");
		return errno == ENOENT ? CDT_EUSAGE : CDT_EIO;
	}
	if (fstat(j->fd, &st) || !S_ISREG(st.st_mode)) {
		cdt_dev_seterr(j->dev, "%s: not a regular file", j->out_path);
		return CDT_EUSAGE;
	}
	if ((uint64_t)st.st_size < need || (uint64_t)st.st_size > j->extent_bytes) {
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
	if (ftruncate(j->fd, (off_t)j->extent_bytes)) {
		cdt_dev_seterr(j->dev, "%s: %s", j->out_path, strerror(errno));
		return CDT_EIO;
	}
	return 0;
}

static int open_fresh(struct image_job *j)
{
	int flags = O_RDWR | O_CREAT | O_CLOEXEC;
	struct stat st;

	/* O_EXCL: refuse an existing OUT atomically, not after a stat */
	flags |= j->opts->force ? O_TRUNC : O_EXCL;
	if (j->opts->force && !stat(j->out_path, &st) && !S_ISREG(st.st_mode)) {
		cdt_dev_seterr(j->dev, "%s: not a regular file", j->out_path);
		return CDT_EUSAGE;
	}
	j->fd = open(j->out_path, flags, 0644);
	if (j->fd < 0) {
		if (errno == EEXIST) {
			cdt_dev_seterr(j->dev,
				       "%s exists: use --force to overwrite it, or --map with its map to resume",
				       j->out_path);
			return CDT_EUSAGE;
		}
		cdt_dev_seterr(j->dev, "%s: %s", j->out_path, strerror(errno));
		return CDT_EIO;
	}
	if (ftruncate(j->fd, (off_t)j->extent_bytes)) {
		cdt_dev_seterr(j->dev, "%s: %s", j->out_path, strerror(errno));
		return CDT_EIO;
	}
	return 0;
}

static int prepare(struct image_job *j)
{
	int rc;

	rc = load_map(j);
	if (rc < 0)
		return rc;
	if (rc == 1) {
		j->res->resumed = true;
		j->res->finished_before = map_count(&j->map, MAP_FINISHED) /
					  j->res->sum.block_size;
		return open_resumed(j);
	}
	rc = map_init(&j->map, j->extent_bytes, MAP_NONTRIED);
	if (rc)
		return rc;
	return open_fresh(j);
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

static int run_job(struct image_job *j)
{
	struct cdt_image_result *res = j->res;
	uint32_t bs = res->sum.block_size;
	struct rescue r = {
		.dev = j->dev,
		.fd = j->fd,
		.map = &j->map,
		.bs = bs,
		.rd = &j->opts->rd,
		.retries = j->opts->rd.retries,
		.map_path = j->opts->map_path,
		.map_comment = j->opts->map_comment,
		.map_interval_ms = j->opts->map_interval_ms,
		.t0 = rescue_now_ms(),
	};
	struct dg stream = { 0 };
	int rc, rc2;

	r.chunk = rescue_chunk_blocks(j->dev, bs, j->opts->rd.chunk_blocks);
	r.buf = malloc((size_t)r.chunk * bs);
	if (!r.buf)
		return CDT_ENOMEM;
	/* a fresh map is all untried: reading it in order gives the digest */
	if (j->digests && map_count(&j->map, MAP_NONTRIED) == j->extent_bytes &&
	    !dg_init(&stream, j->digests))
		r.stream = &stream;
	rc = rescue_save(&r);
	if (!rc)
		rc = rescue_run(&r);
	res->sum.blocks_read = r.blocks_read;
	/* save whatever happened: an interrupted run resumes from here */
	rc2 = rescue_save(&r);
	if (!rc)
		rc = rc2;
	if (!rc)
		rc = finish_digests(j, &r);
	if (r.stream)
		dg_free(r.stream);
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

static int image(struct cdt_dev *dev, const char *out_path,
		 const struct cdt_image_opts *opts, struct cdt_image_result *res)
{
	struct image_job j = { .dev = dev, .out_path = out_path, .opts = opts,
			       .res = res, .fd = -1 };
	double t0 = rescue_now_ms();
	int rc, rc2;

	if (!digest_bits(opts->digests, &j.digests)) {
		cdt_dev_seterr(dev, "digests 0x%x: not a choice of CDT_HASH_MD5, CDT_HASH_SHA256 or CDT_HASH_NONE",
			       opts->digests);
		return CDT_EUSAGE;
	}
	rc = rescue_probe(dev, &opts->rd, &res->sum);
	if (rc)
		return rc;
	res->extent_blocks = res->sum.probe.extent_blocks;
	j.extent_bytes = res->extent_blocks * res->sum.block_size;
	if (!res->extent_blocks) {
		cdt_dev_seterr(dev, "nothing on the disc can be read, not even LBA 0");
		return CDT_ETRANSPORT;
	}
	rc = prepare(&j);
	if (!rc)
		rc = run_job(&j);
	rc2 = j.map.n ? rescue_bad_ranges(&j.map, res->sum.block_size, &res->sum) : 0;
	if (!rc)
		rc = rc2;
	if (j.fd >= 0 && close(j.fd) && !rc) {
		cdt_dev_seterr(dev, "%s: %s", out_path, strerror(errno));
		rc = CDT_EIO;
	}
	map_free(&j.map);
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
	return rc;
}

void cdt_image_result_free(struct cdt_image_result *res)
{
	if (res && CDT_HAS(res, sum.n_bad))
		rescue_summary_free(&res->sum);
}
