// SPDX-License-Identifier: MIT
/*
 * The image job's digests (imagejob.h): the image's and each data
 * track's, from one stream of the blocks as the file sink writes them
 * (sink.h), so OUT and its tracks are hashed once, together.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/device.h"
#include "jobs/imagejob.h"

/*
 * The data tracks of the layout inside OUT, as digest ranges (dg_ranges)
 * and result entries, both n of them; ranges from the extent we know now.
 */
static int track_ranges(struct image_job *j, struct dg_range **rp, size_t *np)
{
	const struct cdt_layout *l = j->found.layout;
	struct cdt_image_result *res = j->res;
	struct dg_range *r;
	size_t i, n = 0;

	*rp = NULL;
	*np = 0;
	if (!l || !l->n_tracks)
		return 0;
	r = calloc(l->n_tracks, sizeof(*r));
	res->track_digests = calloc(l->n_tracks, sizeof(*res->track_digests));
	if (!r || !res->track_digests) {
		free(r);
		return CDT_ENOMEM;
	}
	for (i = 0; i < l->n_tracks; i++) {
		const struct cdt_track *t = &l->tracks[i];
		uint64_t end = t->start + t->blocks;
		struct cdt_track_digests *d = &res->track_digests[n];

		if (t->mode != CDT_TRACK_DATA || t->start >= res->extent_blocks || !t->blocks)
			continue;
		if (end > res->extent_blocks)
			end = res->extent_blocks;
		d->number = t->number;
		d->session = t->session;
		d->start = t->start;
		d->blocks = end - t->start;
		r[n].start = t->start * j->bs;
		r[n].end = end * j->bs;
		n++;
	}
	*rp = r;
	*np = n;
	return 0;
}

/* A stream of the digests asked for, with a range for each data track. */
int image_stream_init(struct image_job *j, struct dg *d)
{
	struct dg_range *r;
	size_t n;
	int rc = dg_init(d, j->digests);

	if (!rc)
		rc = track_ranges(j, &r, &n);
	if (!rc) {
		rc = dg_ranges(d, r, n);
		j->res->n_track_digests = n;
		free(r);
	}
	return rc;
}

/* The image's digests and its tracks' from a finished stream. */
static int stream_results(struct image_job *j, struct dg *d)
{
	struct cdt_image_result *res = j->res;
	struct dg_sums sums;
	size_t i;
	int rc = dg_final_sums(d, &sums);

	if (rc)
		return rc;
	memcpy(res->sum.digests.md5, sums.md5, sizeof(sums.md5));
	memcpy(res->sum.digests.sha256, sums.sha256, sizeof(sums.sha256));
	memcpy(res->sha1, sums.sha1, sizeof(sums.sha1));
	for (i = 0; i < res->n_track_digests; i++) {
		struct cdt_track_digests *t = &res->track_digests[i];

		dg_range_sums(d, i, &sums);
		memcpy(t->md5, sums.md5, sizeof(sums.md5));
		memcpy(t->sha256, sums.sha256, sizeof(sums.sha256));
		memcpy(t->sha1, sums.sha1, sizeof(sums.sha1));
	}
	return 0;
}

/*
 * The stream ends: what it still lacks (blocks behind a failed read, an
 * earlier run's after this run's last) read back from OUT once, now that
 * nothing changes them.  Only a stream broken by a block written twice
 * (a medium change, a skip list grown below the extent) starts again,
 * from OUT whole.
 */
int image_finish_digests(struct image_job *j)
{
	struct cdt_image_result *res = j->res;
	struct file_sink *s = &j->out;
	struct dg again = { 0 };
	int rc;

	if (!j->digests)
		return 0;	/* digest_source stays CDT_DIGEST_NONE */
	if (!s->stream)
		return CDT_ENOMEM;
	if (s->stream_broken) {
		dg_free(s->stream);
		free(res->track_digests);
		res->track_digests = NULL;
		res->n_track_digests = 0;
		s->stream_pos = 0;
		s->stream_broken = false;
		rc = image_stream_init(j, &again);
		if (rc) {
			dg_free(&again);
			return rc;
		}
		*s->stream = again;
	}
	rc = file_sink_catch_up(s, j->extent_bytes);
	if (rc == CDT_EIO)
		cdt_dev_seterr(j->dev, "cannot read back %s to hash it: %s", j->out_path,
			       strerror(errno));
	if (!rc && (s->stream_broken || s->stream_pos != j->extent_bytes))
		rc = CDT_ENOMEM;
	res->digest_read_back = s->read_back;
	res->digest_source = s->read_back ? CDT_DIGEST_FILE : CDT_DIGEST_STREAM;
	return rc ? rc : stream_results(j, s->stream);
}
