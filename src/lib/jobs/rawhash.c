// SPDX-License-Identifier: MIT
/* image --raw's checksums from the written bytes (rawhash.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cd/sector.h"
#include "jobs/rawhash.h"

#define READ_BACK_BYTES (1u << 20)

/*
 * The AccurateRip run of audio file i (as image --raw always took it):
 * from its index 01 to the next track's, the next file's pregap counted
 * when it is in the same session.
 */
static void arip_run(struct rawhash *h, size_t i)
{
	const struct raw_file *f = &h->plan->f[i];
	uint64_t more = 0;

	if (i + 1 < h->plan->n && h->plan->f[i + 1].t->session == f->t->session)
		more = h->plan->f[i + 1].pregap;
	h->ar_from[i] = h->start[i] + f->pregap * CD_RAW;
	h->ar_to[i] = h->start[i] + (f->n + more) * CD_RAW;
}

static void arip_all(struct rawhash *h)
{
	size_t i, n = h->plan->n, first = n, last = 0;

	for (i = 0; i < n; i++) {
		h->audio[i] = h->plan->f[i].t->mode == CDT_TRACK_AUDIO;
		if (h->audio[i]) {
			first = first < i ? first : i;
			last = i;
		}
	}
	for (i = 0; i < n; i++) {
		if (!h->audio[i])
			continue;
		arip_run(h, i);
		arip_init(&h->ar[i], (h->ar_to[i] - h->ar_from[i]) / CD_RAW * AR_SAMPLES_PER_SECTOR,
			  i == first, i == last);
	}
}

/* Where file fi's bytes begin in its file: --single-file's OUT.bin holds the stream. */
static uint64_t file_base(const struct rawhash *h, size_t fi)
{
	return h->one_file ? h->plan->f[fi].stream * CD_RAW : 0;
}

int rawhash_init(struct rawhash *h, const struct raw_plan *plan, const int *fds,
		 int64_t shift, bool one_file)
{
	size_t i, n = plan->n;
	bool contiguous = true;

	memset(h, 0, sizeof(*h));
	h->plan = plan;
	h->fds = fds;
	h->one_file = one_file;
	h->start = calloc(n + 1, sizeof(*h->start));
	h->th = calloc(n, sizeof(*h->th));
	h->ar = calloc(n, sizeof(*h->ar));
	h->ar_from = calloc(n, sizeof(*h->ar_from));
	h->ar_to = calloc(n, sizeof(*h->ar_to));
	h->audio = calloc(n, sizeof(*h->audio));
	if (!h->start || !h->th || !h->ar || !h->ar_from || !h->ar_to || !h->audio)
		return CDT_ENOMEM;
	for (i = 0; i < n; i++) {
		h->start[i + 1] = h->start[i] + plan->f[i].n * CD_RAW;
		contiguous = contiguous && plan->f[i].stream * CD_RAW == h->start[i];
		if (trackhash_init(&h->th[i]))
			return CDT_ENOMEM;
	}
	h->total = h->start[n];
	h->stream_is_map = contiguous && !shift;
	arip_all(h);
	return 0;
}

/* The run's bytes [g, g + len) in order at the frontier: to each file's and track's sums. */
static int hash_at_frontier(struct rawhash *h, const uint8_t *p, uint64_t len)
{
	uint64_t g = h->frontier, end = g + len;
	size_t i;

	for (i = 0; i < h->plan->n; i++) {
		uint64_t a = g > h->start[i] ? g : h->start[i];
		uint64_t b = end < h->start[i + 1] ? end : h->start[i + 1];

		if (a < b && trackhash_update(&h->th[i], p + (a - g), (size_t)(b - a)))
			return CDT_ENOMEM;
		a = g > h->ar_from[i] ? g : h->ar_from[i];
		b = end < h->ar_to[i] ? end : h->ar_to[i];
		if (h->audio[i] && a < b)
			arip_update(&h->ar[i], p + (a - g), (size_t)(b - a));
	}
	h->frontier = end;
	return 0;
}

/* The run's bytes [frontier, to) read back from the files and hashed. */
static int read_back(struct rawhash *h, uint64_t to)
{
	uint8_t *buf = malloc(READ_BACK_BYTES);
	size_t fi = 0;
	int rc = buf ? 0 : CDT_ENOMEM;

	while (!rc && h->frontier < to) {
		uint64_t g = h->frontier, want;
		ssize_t got;

		while (fi + 1 < h->plan->n && h->start[fi + 1] <= g)
			fi++;
		want = h->start[fi + 1] < to ? h->start[fi + 1] - g : to - g;
		if (want > READ_BACK_BYTES)
			want = READ_BACK_BYTES;
		got = pread(h->fds[fi], buf, (size_t)want, (off_t)(g - h->start[fi] + file_base(h, fi)));
		if (got < 0 && errno == EINTR)
			continue;
		h->err_file = fi;
		if (got < 0) {
			rc = CDT_EIO;
			break;
		}
		if ((uint64_t)got != want) {
			/* a regular file read short ends there: shorter than its sectors */
			h->err_short = true;
			h->err_at = g - h->start[fi] + (uint64_t)got;
			rc = CDT_EIO;
			break;
		}
		h->read_back += (uint64_t)got;
		rc = hash_at_frontier(h, buf, (uint64_t)got);
	}
	free(buf);
	return rc;
}

/* Every byte of the run in [from, to) finished in the map (the same bytes). */
static bool settled(const struct cdt_map *map, uint64_t from, uint64_t to)
{
	uint64_t start, len;

	while (map && from < to) {
		if (!map_find(map, MAP_FINISHED, from, &start, &len) || start > from)
			return false;
		from = start + len;
	}
	return from >= to;
}

int rawhash_put(struct rawhash *h, size_t fi, uint64_t at, const uint8_t *p, uint64_t len,
		const struct cdt_map *map)
{
	uint64_t g = h->start[fi] + at;
	int rc;

	if (h->broken)
		return 0;
	if (g < h->frontier) {
		h->broken = true;	/* hashed already: all read back at the end */
		return 0;
	}
	if (g > h->frontier && h->stream_is_map && settled(map, h->frontier, g)) {
		rc = read_back(h, g);
		if (rc)
			return rc;
	}
	if (g != h->frontier)
		return 0;	/* behind what is not final yet: read back later */
	return hash_at_frontier(h, p, len);
}

static int start_over(struct rawhash *h)
{
	size_t i;

	for (i = 0; i < h->plan->n; i++) {
		trackhash_free(&h->th[i]);
		if (trackhash_init(&h->th[i]))
			return CDT_ENOMEM;
	}
	arip_all(h);
	h->frontier = 0;
	h->broken = false;
	return 0;
}

int rawhash_finish(struct rawhash *h, struct cdt_raw_track *t)
{
	struct th_sums s;
	size_t i;
	int rc = h->broken ? start_over(h) : 0;

	if (!rc)
		rc = read_back(h, h->total);
	for (i = 0; !rc && i < h->plan->n; i++) {
		rc = trackhash_final(&h->th[i], &s);
		if (rc)
			break;
		t[i].hashed = true;
		t[i].crc32 = s.crc32;
		memcpy(t[i].md5, s.md5, sizeof(t[i].md5));
		memcpy(t[i].sha1, s.sha1, sizeof(t[i].sha1));
		if (h->audio[i]) {
			t[i].accuraterip = true;
			t[i].arip_v1 = arip_v1(&h->ar[i]);
			t[i].arip_v2 = arip_v2(&h->ar[i]);
		}
	}
	return rc;
}

void rawhash_free(struct rawhash *h)
{
	size_t i;

	for (i = 0; h->th && i < h->plan->n; i++)
		trackhash_free(&h->th[i]);
	free(h->th);
	free(h->ar);
	free(h->ar_from);
	free(h->ar_to);
	free(h->audio);
	free(h->start);
	memset(h, 0, sizeof(*h));
}
