/* SPDX-License-Identifier: MIT */
/*
 * The file sink of the rescue engine (engine.h): what image and tail do
 * with the blocks the passes read.  Each goes to OUT at its offset, feeds
 * the in-order digest while the reads come in order, and is noted for the
 * disc's identity record; a save is the map book's (book.h: OUT synced,
 * then the map replaced).  Apart from the engine because all of it is about files and about
 * what the job records, none of it about how a damaged disc is read.
 */
#ifndef CDT_SINK_H
#define CDT_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"
#include "engine/digest.h"
#include "engine/engine.h"
#include "book/book.h"
#include "book/skip.h"

struct file_sink {
	/* set by the caller */
	struct cdt_dev *dev;		/* for its error message */
	int fd;				/* OUT, written with pwrite */
	uint32_t bs;
	struct map_book *book;		/* the map, its saves and the disc's
					 * identity (recorded as read, checked
					 * after a medium change); NULL: none */
	struct dg *stream;		/* digest in order while it lasts, or NULL */
	const struct skip_plan *skip;	/* areas never read: zeros in the
					 * stream; or NULL */
	/* a block that answered 05/64/00 or 05/6F/xx (engine.h,
	 * wrong_mode): the job lists it as why; NULL: a failed block */
	int (*wrong_mode)(void *job, uint64_t lba, enum cdt_skip_why why);
	/* a medium change (06/28/00): the job tells whether the disc is the
	 * same (0) before the identity can (image: by its sizes and OUT);
	 * NULL: the book's identity rule alone (book_changed) */
	int (*changed)(void *job, uint8_t *buf, size_t cap);
	void *job;

	/* kept by the sink */
	uint64_t stream_pos;		/* bytes hashed into stream */
	uint64_t read_back;		/* of them, bytes read back from OUT */
	bool stream_broken;		/* a block below stream_pos was written
					 * again: the stream is not OUT */
};

/* r's sink: s. */
void file_sink_attach(struct file_sink *s, struct rescue *r);

/*
 * The stream follows OUT's bytes in order from 0.  A block written past
 * stream_pos waits (it is hashed later) while the blocks before it may
 * still change (a failed read the later passes retry); blocks the map
 * marks finished below it (an earlier run's, or this run's behind a
 * failed read since retried) are read back from OUT then, once each.
 * file_sink_catch_up() ends it: OUT's bytes [stream_pos, to) read back as
 * they are, when nothing will change them any more.  0, or CDT_EIO
 * (errno set) when OUT cannot be read, CDT_ENOMEM when a digest failed.
 */
int file_sink_catch_up(struct file_sink *s, uint64_t to);

/* pwrite all of it; 0 or CDT_EIO with errno set (ENOSPC: a write took nothing). */
int rescue_pwrite(int fd, const void *buf, size_t len, uint64_t off);

#endif
