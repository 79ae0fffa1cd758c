// SPDX-License-Identifier: MIT
/*
 * The run's own part of an acquisition record (acqrun.h).  Every value is
 * what the library reported for this run; what the run did not establish
 * (the end of a disc whose search never ran, digests of a run that did
 * not finish) is null, never a guess.
 */
#include <stdio.h>
#include <string.h>
#include "acqrun.h"
#include "readui.h"

static const char *const verify_verdicts[] = {
	[CDT_VERIFY_IDENTICAL] = "identical",
	[CDT_VERIFY_DIFFERENT] = "different",
	[CDT_VERIFY_UNREADABLE] = "unreadable",
	[CDT_VERIFY_PREFIX] = "prefix",
	[CDT_VERIFY_INCOMPLETE] = "incomplete",
};

static json_object *drive_json(struct cdt_dev *dev, const struct cdt_inquiry *inq)
{
	json_object *o = json_object_new_object();
	char serial[64];

	json_object_object_add(o, "vendor", json_object_new_string(inq->vendor));
	json_object_object_add(o, "product", json_object_new_string(inq->product));
	json_object_object_add(o, "revision", json_object_new_string(inq->revision));
	/* asked last, so the run's own command counts are what they were */
	json_object_object_add(o, "serial", dev && !cdt_unit_serial(dev, serial, sizeof(serial)) &&
				serial[0] ? json_object_new_string(serial) : NULL);
	return o;
}

static json_object *sizes_json(const struct cdt_probe_result *p)
{
	const struct cdt_sizes *s = &p->sizes;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "read_capacity", cli_json_count(s->read_capacity));
	json_object_object_add(o, "toc_leadout", cli_json_count(s->toc_leadout));
	json_object_object_add(o, "track_end", cli_json_count(s->track_end));
	json_object_object_add(o, "disc_leadout", cli_json_count(s->disc_leadout));
	json_object_object_add(o, "filesystem", cli_json_count(s->filesystem));
	json_object_object_add(o, "kernel", cli_json_count(s->kernel));
	return o;
}

/*
 * The medium.  A search that never ran (a run stopped during the
 * data-first copy, cdt_image_result.end_pending, or before the probe
 * ended: a true end of 0) is "not searched", its size null, rather than
 * an end made of what was read.
 */
static json_object *medium_json(const struct cdt_probe_result *p, bool pending)
{
	json_object *o = json_object_new_object();
	bool searched = p->true_blocks > 0 && !pending;
	uint32_t bs = p->sizes.block_size;

	json_object_object_add(o, "profile", json_object_new_string(cdt_profile_name(p->sizes.profile)));
	json_object_object_add(o, "block_size", json_object_new_int((int)bs));
	json_object_object_add(o, "filesystem", p->sizes.fs_type[0] ?
			       json_object_new_string(p->sizes.fs_type) : NULL);
	json_object_object_add(o, "reported_blocks", json_object_new_int64((int64_t)p->reported_blocks));
	json_object_object_add(o, "true_blocks", searched ?
			       json_object_new_int64((int64_t)p->true_blocks) : NULL);
	json_object_object_add(o, "size_bytes", searched ?
			       json_object_new_int64((int64_t)(p->true_blocks * bs)) : NULL);
	json_object_object_add(o, "end", json_object_new_string(searched ?
			       cdt_verdict_name(p->verdict) : "not searched"));
	json_object_object_add(o, "sizes", sizes_json(p));
	return o;
}

static json_object *ranges_json(const struct cdt_range *r, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "start", json_object_new_int64((int64_t)r[i].first));
		json_object_object_add(e, "blocks", json_object_new_int64((int64_t)(r[i].last - r[i].first + 1)));
		json_object_array_add(a, e);
	}
	return a;
}

/* How blocks still bad were tried again, in words (cdt_read_opts.retries). */
static const char *retry_words(const struct acqlog_run *run, char *buf, size_t len)
{
	int n = run->rd->retries;

	if (n < 0 && run->verify)
		n = CDT_DEFAULT_RETRIES;
	if (n < 0)
		return "learning plan: after the copy, the first block of one bad area of each size "
		       "is read again, the other areas only where that block reads";
	if (!n)
		return "none: a block still bad after the copy passes is not read again";
	snprintf(buf, len, "every block still bad read %d more time%s", n, n == 1 ? "" : "s");
	return buf;
}

static json_object *reads_json(const struct acqlog_run *run, bool resumed, uint64_t before)
{
	const struct cdt_read_summary *s = run->sum;
	json_object *o = json_object_new_object();
	char words[96];

	json_object_object_add(o, "commands", json_object_new_int64((int64_t)s->stats.commands));
	json_object_object_add(o, "reads", json_object_new_int64((int64_t)s->stats.reads));
	json_object_object_add(o, "failed_reads", json_object_new_int64((int64_t)s->stats.failed_reads));
	json_object_object_add(o, "blocks_read", json_object_new_int64((int64_t)s->blocks_read));
	json_object_object_add(o, "resumed", json_object_new_boolean(resumed));
	json_object_object_add(o, "finished_before", json_object_new_int64((int64_t)before));
	json_object_object_add(o, "retries", json_object_new_string(retry_words(run, words,
									     sizeof(words))));
	json_object_object_add(o, "retry_limit", run->rd->retries < 0 && !run->verify ? NULL :
			       json_object_new_int(run->rd->retries < 0 ? CDT_DEFAULT_RETRIES :
						   run->rd->retries));
	return o;
}

static json_object *hex_or_null(const char *h)
{
	return h && h[0] ? json_object_new_string(h) : NULL;
}

/* The digests asked for: sha1 only when it was (the default pair has none). */
static json_object *digests_json(const char *md5, const char *sha256, const char *sha1,
				 bool want_sha1)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "md5", hex_or_null(md5));
	json_object_object_add(o, "sha256", hex_or_null(sha256));
	if (want_sha1)
		json_object_object_add(o, "sha1", hex_or_null(sha1));
	return o;
}

static bool asked(unsigned int digests, unsigned int bit)
{
	if (digests == CDT_HASH_NONE)
		return false;
	return (digests ? digests : CDT_HASH_ALL) & bit;
}

/* "md5,sha256", or "none": what --digest asked for, said even when none. */
static json_object *asked_json(unsigned int digests)
{
	char buf[32] = "";

	if (asked(digests, CDT_HASH_MD5))
		strcat(buf, ",md5");
	if (asked(digests, CDT_HASH_SHA256))
		strcat(buf, ",sha256");
	if (asked(digests, CDT_HASH_SHA1))
		strcat(buf, ",sha1");
	return json_object_new_string(buf[0] ? buf + 1 : "none");
}

/*
 * Each data track of the extent with its digests: the library computed
 * them from the same stream of blocks as the image's (never OUT read
 * again here).  Listed with null digests when none were computed.
 */
static json_object *image_tracks(struct cdt_dev *dev, const struct acqlog_run *run)
{
	const struct cdt_image_result *r = run->image;
	bool sha1 = asked(run->digests, CDT_HASH_SHA1);
	struct cdt_layout *lay = NULL;
	json_object *a = json_object_new_array();
	size_t i, n = r->n_track_digests;

	if (!n)
		lay = cdt_dev_layout(dev);
	for (i = 0; i < (n ? n : lay ? lay->n_tracks : 0); i++) {
		struct cdt_track_digests t = { 0 };
		json_object *e;

		if (n) {
			t = r->track_digests[i];
		} else {
			const struct cdt_track *k = &lay->tracks[i];

			if (k->mode != CDT_TRACK_DATA || k->start >= r->extent_blocks)
				continue;
			t.number = k->number;
			t.session = k->session;
			t.start = k->start;
			t.blocks = k->start + k->blocks > r->extent_blocks ?
				   r->extent_blocks - k->start : k->blocks;
		}
		e = json_object_new_object();
		json_object_object_add(e, "number", json_object_new_int((int)t.number));
		json_object_object_add(e, "session", json_object_new_int((int)t.session));
		json_object_object_add(e, "start", json_object_new_int64((int64_t)t.start));
		json_object_object_add(e, "blocks", json_object_new_int64((int64_t)t.blocks));
		json_object_object_add(e, "digests", digests_json(t.md5, t.sha256, t.sha1, sha1));
		json_object_array_add(a, e);
	}
	cdt_layout_free(lay);
	return a;
}

static void add_image(json_object *o, struct cdt_dev *dev, const struct acqlog_run *run)
{
	static const char *const src[] = { NULL, "stream", "file" };
	const struct cdt_image_result *r = run->image;

	json_object_object_add(o, "extent_blocks", json_object_new_int64((int64_t)r->extent_blocks));
	json_object_object_add(o, "out_bytes", json_object_new_int64((int64_t)(r->extent_blocks *
								  r->sum.block_size)));
	json_object_object_add(o, "reads", reads_json(run, r->resumed, r->finished_before));
	json_object_object_add(o, "bad_blocks", json_object_new_int64((int64_t)r->sum.bad_blocks));
	json_object_object_add(o, "bad_areas", ranges_json(r->sum.bad, r->sum.n_bad));
	json_object_object_add(o, "skipped_blocks", json_object_new_int64((int64_t)r->skipped_blocks));
	json_object_object_add(o, "skipped", rui_json_skipped(r->skipped, r->n_skipped));
	json_object_object_add(o, "digests_asked", asked_json(run->digests));
	json_object_object_add(o, "digests", digests_json(r->sum.digests.md5, r->sum.digests.sha256,
							  r->sha1, asked(run->digests, CDT_HASH_SHA1)));
	json_object_object_add(o, "digest_source", r->digest_source < 3 && src[r->digest_source] ?
			       json_object_new_string(src[r->digest_source]) : NULL);
	json_object_object_add(o, "digest_read_back", json_object_new_int64((int64_t)r->digest_read_back));
	/* a track's digests mean something only once the run is over */
	json_object_object_add(o, "tracks", run->error || run->interrupted ?
			       json_object_new_array() : image_tracks(dev, run));
}

static json_object *raw_tracks(const struct cdt_raw_result *r)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < r->n_tracks; i++) {
		const struct cdt_raw_track *t = &r->tracks[i];
		json_object *e = json_object_new_object(), *d = json_object_new_object();
		char crc[9];

		snprintf(crc, sizeof(crc), "%08x", t->crc32);
		json_object_object_add(e, "number", json_object_new_int((int)t->number));
		json_object_object_add(e, "session", json_object_new_int((int)t->session));
		json_object_object_add(e, "mode", json_object_new_string(
			t->mode == CDT_TRACK_AUDIO ? "audio" : cdt_sector_mode_name(t->sector_mode)[0] ?
			cdt_sector_mode_name(t->sector_mode) : "data"));
		json_object_object_add(e, "file", json_object_new_string(t->file ? t->file : ""));
		json_object_object_add(e, "start", json_object_new_int64((int64_t)t->first_lba));
		json_object_object_add(e, "sectors", json_object_new_int64((int64_t)t->sectors));
		json_object_object_add(e, "bad_sectors", json_object_new_int64((int64_t)t->bad_sectors));
		json_object_object_add(e, "edc_errors", json_object_new_int64((int64_t)t->edc_errors));
		json_object_object_add(d, "crc32", t->hashed ? json_object_new_string(crc) : NULL);
		json_object_object_add(d, "md5", t->hashed ? hex_or_null(t->md5) : NULL);
		json_object_object_add(d, "sha1", t->hashed ? hex_or_null(t->sha1) : NULL);
		json_object_object_add(e, "digests", d);
		json_object_array_add(a, e);
	}
	return a;
}

static void add_raw(json_object *o, const struct acqlog_run *run)
{
	const struct cdt_raw_result *r = run->raw;

	json_object_object_add(o, "extent_blocks", json_object_new_int64((int64_t)r->stream_sectors));
	json_object_object_add(o, "out_bytes", json_object_new_int64((int64_t)(r->stream_sectors * 2352)));
	json_object_object_add(o, "reads", reads_json(run, r->resumed, r->finished_before));
	json_object_object_add(o, "bad_blocks", json_object_new_int64((int64_t)r->sum.bad_blocks));
	json_object_object_add(o, "bad_areas", ranges_json(r->sum.bad, r->sum.n_bad));
	json_object_object_add(o, "audio_checked", json_object_new_boolean(r->audio_checked));
	json_object_object_add(o, "catalog", r->catalog[0] ? json_object_new_string(r->catalog) : NULL);
	json_object_object_add(o, "digests_asked", json_object_new_string("crc32,md5,sha1 of each track file"));
	json_object_object_add(o, "tracks", raw_tracks(r));
}

static void add_tail(json_object *o, const struct acqlog_run *run)
{
	static const char *const basis[] = { NULL, "reported", "kernel", "complete" };
	const struct cdt_tail_result *r = run->tail;
	bool done = !run->error && !run->interrupted;

	json_object_object_add(o, "image_bytes_before", json_object_new_int64((int64_t)r->image_bytes));
	json_object_object_add(o, "image_bytes_after", done ?
			       json_object_new_int64((int64_t)r->final_bytes) : NULL);
	json_object_object_add(o, "matched", r->basis < 4 && basis[r->basis] ?
			       json_object_new_string(basis[r->basis]) : NULL);
	json_object_object_add(o, "compared_blocks", json_object_new_int64((int64_t)r->compared_blocks));
	json_object_object_add(o, "appended_blocks", json_object_new_int64((int64_t)r->appended_blocks));
	json_object_object_add(o, "reads", reads_json(run, false, 0));
	json_object_object_add(o, "bad_blocks", json_object_new_int64((int64_t)r->sum.bad_blocks));
	json_object_object_add(o, "bad_areas", ranges_json(r->sum.bad, r->sum.n_bad));
	json_object_object_add(o, "skipped_blocks", json_object_new_int64((int64_t)r->skipped_blocks));
	json_object_object_add(o, "skipped", rui_json_skipped(r->skipped, r->n_skipped));
	json_object_object_add(o, "digests_asked", asked_json(CDT_HASH_ALL));
	json_object_object_add(o, "digests_before", done ?
			       digests_json(r->digests_before.md5, r->digests_before.sha256, NULL, false) :
			       NULL);
	json_object_object_add(o, "digests", done ? digests_json(r->sum.digests.md5,
								 r->sum.digests.sha256, NULL, false) : NULL);
}

static void add_verify(json_object *o, const struct acqlog_run *run)
{
	const struct cdt_verify_result *r = run->verify;

	json_object_object_add(o, "extent_blocks", json_object_new_int64((int64_t)r->extent_blocks));
	json_object_object_add(o, "reads", reads_json(run, false, 0));
	json_object_object_add(o, "bad_blocks", json_object_new_int64((int64_t)r->sum.bad_blocks));
	json_object_object_add(o, "bad_areas", ranges_json(r->sum.bad, r->sum.n_bad));
	json_object_object_add(o, "skipped_blocks", json_object_new_int64((int64_t)r->skipped_blocks));
	json_object_object_add(o, "skipped", rui_json_skipped(r->skipped, r->n_skipped));
	json_object_object_add(o, "first_difference", r->have_diff ?
			       json_object_new_int64((int64_t)r->first_diff_lba) : NULL);
	json_object_object_add(o, "differing_blocks", json_object_new_int64((int64_t)r->diff_blocks));
	json_object_object_add(o, "digests_asked", asked_json(CDT_HASH_ALL));
	json_object_object_add(o, "digests", r->complete ? digests_json(r->sum.digests.md5,
				r->sum.digests.sha256, NULL, false) : NULL);
}

void acqrun_add(json_object *o, struct cdt_dev *dev, const struct acqlog_run *run)
{
	const struct cdt_probe_result *p = rui_probe(run->sum);

	json_object_object_add(o, "drive", drive_json(dev, &p->inq));
	json_object_object_add(o, "medium", medium_json(p, run->image && run->image->end_pending));
	if (run->image)
		add_image(o, dev, run);
	else if (run->raw)
		add_raw(o, run);
	else if (run->tail)
		add_tail(o, run);
	else if (run->verify)
		add_verify(o, run);
}

const char *acqrun_verify_result(const struct acqlog_verify *v)
{
	if (!v->ran)
		return "not run";
	return v->rc ? "failed" : verify_verdicts[v->res->verdict];
}

json_object *acqrun_verification(const struct acqlog_verify *v)
{
	json_object *o = json_object_new_object();
	const struct cdt_verify_result *r = v->res;
	bool done = v->ran && !v->rc;

	json_object_object_add(o, "method", json_object_new_string(
		"the disc read again and compared with OUT block by block (cdtail verify --image OUT)"));
	json_object_object_add(o, "ran", json_object_new_boolean(v->ran));
	json_object_object_add(o, "result", json_object_new_string(acqrun_verify_result(v)));
	json_object_object_add(o, "blocks_read", done ?
			       json_object_new_int64((int64_t)r->sum.blocks_read) : NULL);
	json_object_object_add(o, "bad_blocks", done ?
			       json_object_new_int64((int64_t)r->sum.bad_blocks) : NULL);
	json_object_object_add(o, "first_difference", done && r->have_diff ?
			       json_object_new_int64((int64_t)r->first_diff_lba) : NULL);
	json_object_object_add(o, "digests", done && r->complete ?
			       digests_json(r->sum.digests.md5, r->sum.digests.sha256, NULL, false) : NULL);
	json_object_object_add(o, "error", v->ran && v->rc && v->error && v->error[0] ?
			       json_object_new_string(v->error) : NULL);
	return o;
}
