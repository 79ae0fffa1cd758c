// SPDX-License-Identifier: MIT
/* The rescue engine's file sink (sink.h): OUT, the stream digest, the map book. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/device.h"
#include "engine/reader.h"
#include "engine/sink.h"

int rescue_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t w = pwrite(fd, p, len, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		/* nothing written, no error: a full device (gnulib's full_write) */
		if (w == 0)
			errno = ENOSPC;
		if (w <= 0)
			return CDT_EIO;
		p += w;
		len -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

/* Skipped areas are zeros in OUT: the stream takes them as such. */
static void stream_skipped(struct file_sink *s)
{
	const struct cdt_skip *k;

	while (s->skip && !s->stream_broken &&
	       (k = skip_at(s->skip, s->stream_pos / s->bs))) {
		uint64_t end = (k->start + k->blocks) * s->bs;

		if (dg_zeros(s->stream, end - s->stream_pos))
			s->stream_broken = true;
		s->stream_pos = end;
	}
}

#define CATCH_UP_BYTES (1u << 20)

int file_sink_catch_up(struct file_sink *s, uint64_t to)
{
	uint8_t *buf;
	int rc = 0;

	if (!s->stream || s->stream_broken)
		return 0;
	stream_skipped(s);
	if (s->stream_pos >= to)
		return 0;
	buf = malloc(CATCH_UP_BYTES);
	if (!buf)
		return CDT_ENOMEM;
	while (!rc && s->stream_pos < to && !s->stream_broken) {
		uint64_t want = to - s->stream_pos;
		ssize_t got;

		got = pread(s->fd, buf, want < CATCH_UP_BYTES ? (size_t)want : CATCH_UP_BYTES,
			    (off_t)s->stream_pos);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (!got)
				errno = EIO;	/* OUT shorter than its extent */
			rc = CDT_EIO;
			break;
		}
		rc = dg_update(s->stream, buf, (size_t)got);
		s->stream_pos += (uint64_t)got;
		s->read_back += (uint64_t)got;
		stream_skipped(s);
	}
	free(buf);
	if (rc == CDT_ENOMEM)
		s->stream_broken = true;
	return rc;
}

/* Every byte of OUT in [from, to) finished in the map: nothing changes it again. */
static bool settled(const struct file_sink *s, uint64_t from, uint64_t to)
{
	uint64_t start, len;

	while (s->book && from < to) {
		if (!map_find(&s->book->map, MAP_FINISHED, from, &start, &len) || start > from)
			return false;
		from = start + len;
	}
	return from >= to;
}

static void feed_stream(struct file_sink *s, const uint8_t *buf, uint64_t off, size_t len)
{
	if (!s->stream || s->stream_broken)
		return;
	stream_skipped(s);
	/* finished blocks before this one: read back once, then in order again */
	if (off > s->stream_pos && settled(s, s->stream_pos, off) &&
	    file_sink_catch_up(s, off))
		return;		/* tried again at the end */
	if (off < s->stream_pos) {
		/* a block hashed already is written again */
		s->stream_broken = true;
		return;
	}
	if (off > s->stream_pos)
		return;		/* behind a block not settled yet: hashed later */
	if (dg_update(s->stream, buf, len)) {
		s->stream_broken = true;
		return;
	}
	s->stream_pos += len;
	stream_skipped(s);
}

/* Good blocks: to OUT, into the stream, into the identity record. */
static int sink_put(void *ctx, uint64_t lba, uint32_t n, const uint8_t *buf)
{
	struct file_sink *s = ctx;
	size_t len = (size_t)n * s->bs;
	int rc;

	rc = rescue_pwrite(s->fd, buf, len, lba * s->bs);
	if (rc) {
		int e = errno;

		cdt_dev_seterr(s->dev, "cannot write the output at byte %" PRIu64 ": %s%s",
			       lba * s->bs, strerror(e),
			       (e == ENOSPC || e == EDQUOT) && s->book && s->book->path ?
			       ": free space and run the same command again" : "");
		return rc;
	}
	feed_stream(s, buf, lba * s->bs, len);
	return s->book ? id_note(&s->book->rec.id, lba, n, buf) : 0;
}

/*
 * A failed read: the stream waits at it (feed_stream) until a retry
 * reads it or the run ends and OUT's zeros there are final.
 */
static void sink_failed(void *ctx, uint64_t lba, uint32_t n)
{
	(void)ctx;
	(void)lba;
	(void)n;
}

/* The map book's save order: OUT synced, then the map replaced. */
static int sink_save(void *ctx, const struct cdt_map *map)
{
	struct file_sink *s = ctx;

	return s->book ? book_save(s->book, map) : 0;
}

/*
 * 06/28/00: the drive says the medium may have changed: the job's rule,
 * or the book's (book.h), decides before any block of another disc
 * reaches OUT; the caller saves the map.
 */
static int sink_changed(void *ctx, uint8_t *buf, size_t cap)
{
	struct file_sink *s = ctx;

	if (s->changed)
		return s->changed(s->job, buf, cap);
	return book_changed(s->book, buf, cap);
}

static int sink_wrong_mode(void *ctx, uint64_t lba, enum cdt_skip_why why)
{
	struct file_sink *s = ctx;

	return s->wrong_mode(s->job, lba, why);
}

void file_sink_attach(struct file_sink *s, struct rescue *r)
{
	r->sink = (struct rescue_sink){
		.put = sink_put,
		.failed = sink_failed,
		.wrong_mode = s->wrong_mode ? sink_wrong_mode : NULL,
		.save = sink_save,
		/* without an identity record the engine takes any change
		 * as another disc */
		.changed = s->book ? sink_changed : NULL,
		.ctx = s,
	};
}
