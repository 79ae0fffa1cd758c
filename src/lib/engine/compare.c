// SPDX-License-Identifier: MIT
/*
 * The buffers and file of a disc-against-file comparison, and the compare
 * sink of the in-order pass (compare.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/device.h"
#include "engine/compare.h"
#include "engine/engine.h"

int compare_buffers(struct cdt_dev *dev, uint32_t bs, uint32_t want,
		    uint32_t *chunk, uint8_t **disc, uint8_t **file)
{
	*chunk = rescue_chunk_blocks(dev, bs, want);
	*disc = malloc((size_t)*chunk * bs);
	*file = malloc((size_t)*chunk * bs);
	return *disc && *file ? 0 : CDT_ENOMEM;
}

int compare_pread(int fd, uint8_t *buf, size_t len, uint64_t off, size_t *got)
{
	*got = 0;
	while (*got < len) {
		ssize_t r = pread(fd, buf + *got, len - *got, (off_t)(off + *got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return CDT_EIO;
		if (!r)
			break;
		*got += (size_t)r;
	}
	return 0;
}

void compare_release(int fd, uint8_t *disc, uint8_t *file)
{
	if (fd >= 0)
		close(fd);
	free(disc);
	free(file);
}

int cmp_range_add_span(struct cmp_ranges *r, uint64_t first, uint64_t last)
{
	if (r->n && r->v[r->n - 1].last + 1 == first) {
		r->v[r->n - 1].last = last;
		return 0;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 8;
		struct cdt_range *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return CDT_ENOMEM;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = (struct cdt_range){ first, last };
	return 0;
}

int cmp_sink_init(struct cmp_sink *s, uint32_t chunk, uint64_t from)
{
	size_t len = (size_t)chunk * s->bs;

	s->chunk = chunk;
	s->disc = malloc(len);
	s->file = malloc(len);
	s->read = malloc(len);
	s->state = calloc(chunk, sizeof(*s->state));
	s->base = from;
	return s->disc && s->file && s->read && s->state ? 0 : CDT_ENOMEM;
}

void cmp_sink_free(struct cmp_sink *s)
{
	compare_release(-1, s->disc, s->file);
	free(s->read);
	free(s->state);
	s->disc = s->file = s->read = NULL;
	s->state = NULL;
}

/* Good blocks: into the step at their place (the engine reads into its own buffer). */
static int cmp_put(void *ctx, uint64_t lba, uint32_t n, const uint8_t *buf)
{
	struct cmp_sink *s = ctx;
	uint64_t i = lba - s->base;

	if (lba < s->base || i + n > s->chunk)
		return CDT_EUSAGE;
	memcpy(s->disc + i * s->bs, buf, (size_t)n * s->bs);
	while (n--)
		s->state[i + n] = CMP_READ;
	return 0;
}

static int cmp_wrong_mode(void *ctx, uint64_t lba, enum cdt_skip_why why)
{
	struct cmp_sink *s = ctx;
	int rc;

	if (lba < s->base || lba - s->base >= s->chunk)
		return CDT_EUSAGE;
	rc = s->wrong_mode(s->job, lba, why);
	if (!rc)
		s->state[lba - s->base] = CMP_WRONG_MODE;
	return rc;
}

/* A step of data settled: zeros where nothing read, the digest, the file. */
static int settle_data(struct cmp_sink *s, uint64_t lba, uint32_t n)
{
	struct cmp_step st = { .disc = s->disc, .file = s->file, .state = s->state };
	uint32_t i;
	int rc = 0;

	for (i = 0; i < n; i++)
		if (s->state[i] != CMP_READ)
			memset(s->disc + (size_t)i * s->bs, 0, s->bs);
	if (s->stream)
		rc = dg_update(s->stream, s->disc, (size_t)n * s->bs);
	if (!rc && s->fd >= 0 &&
	    compare_pread(s->fd, s->file, (size_t)n * s->bs, lba * s->bs, &st.file_got)) {
		cdt_dev_seterr(s->dev, "cannot read %s: %s", s->path, strerror(errno));
		rc = CDT_EIO;
	}
	return rc ? rc : s->step(s->job, lba, n, &st);
}

static int cmp_settled(void *ctx, uint64_t lba, uint64_t n, bool read)
{
	struct cmp_sink *s = ctx;
	int rc;

	if (lba != s->base || (read && n > s->chunk))
		return CDT_EUSAGE;
	if (read) {
		rc = settle_data(s, lba, (uint32_t)n);
	} else {
		rc = s->stream ? dg_zeros(s->stream, n * s->bs) : 0;
		if (!rc && s->skipped)
			rc = s->skipped(s->job, lba, n);
	}
	memset(s->state, 0, (size_t)s->chunk * sizeof(*s->state));
	s->base = lba + n;
	return rc;
}

void cmp_sink_attach(struct cmp_sink *s, struct rescue *r)
{
	r->sink = (struct rescue_sink){
		.put = cmp_put,
		.wrong_mode = s->wrong_mode ? cmp_wrong_mode : NULL,
		.settled = cmp_settled,
		.ctx = s,
	};
	r->buf = s->read;
	r->chunk = s->chunk;
}
