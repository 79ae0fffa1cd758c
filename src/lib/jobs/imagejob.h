/* SPDX-License-Identifier: MIT */
/*
 * The image job's state, shared by image.c (the job: the extent decision
 * over the map book, the engine's passes, the digests) and imageout.c
 * (OUT, the one file: created, opened on a resume, sized, checked for
 * space and holes).  The map, its records and saves are the book's.
 */
#ifndef CDT_IMAGEJOB_H
#define CDT_IMAGEJOB_H

#include <stdbool.h>
#include <stdint.h>
#include "cdtail.h"
#include "book/book.h"
#include "engine/reader.h"
#include "engine/sink.h"
#include "book/skip.h"
#include "probe/probe.h"

struct image_job {
	struct cdt_dev *dev;
	const char *out_path;
	const struct cdt_image_opts *opts;
	struct cdt_image_result *res;
	/* the map, its lock and records (the skip list, the identity,
	 * the drive), its saves; OUT is its one output */
	struct map_book book;
	struct probe_findings found;	/* the probe's: layout, failed reads */
	struct reader cooked;	/* every read of the job's own: the identity
				 * (the book's), the check against OUT */
	uint64_t extent_bytes;
	unsigned int digests;	/* CDT_HASH_MD5/SHA256 bits; 0: none */
	int fd;			/* OUT, locked for the whole run (the book's) */
	bool data_first;	/* copy the agreed extent, then search */
	uint64_t search_above;	/* the search starts here (a window resumed) */
	uint64_t window_extra;	/* the --max-extra of the search the record keeps */
	struct file_sink out;	/* the engine's sink while it runs */
	uint8_t *buf;		/* one block, for identity and checks */
	uint32_t bs;
};

/*
 * imagedigest.c: the stream of the digests asked for (j->digests), a
 * range for each data track of the layout inside the extent, the result's
 * track_digests allocated for them; then, after the passes, what the
 * stream lacks read back from OUT and the results filled.  0 or a CDT_E*.
 */
int image_stream_init(struct image_job *j, struct dg *d);
int image_finish_digests(struct image_job *j);

/* "MAPFILE/OUT is in use by another run": the message and CDT_EBUSY. */
int image_busy(struct image_job *j, const char *what, const char *path);

/*
 * imageout.c.  Each returns 0 or a CDT_E* error with the device's message
 * set, as the job's other steps do.
 */
/* OUT resized to the extent. */
int image_size_out(struct image_job *j);
/* OUT of a resumed map: it must exist when the map says blocks were read,
 * and its length lie between what was read and the map's size. */
int image_open_resumed(struct image_job *j);
/* A fresh run: the map saved first (so OUT never exists without it), then OUT. */
int image_create_fresh(struct image_job *j);
/* The identity's blocks a checked map marks read, noted from OUT. */
int image_note_from_out(struct image_job *j);
/* Free space for what OUT still needs, before anything is read. */
int image_check_space(struct image_job *j);
/* res->no_holes when OUT must grow on a filesystem that keeps no holes. */
void image_check_holes(struct image_job *j);

/*
 * imagechange.c: after a medium change (06/28/00), is the disc the one
 * this run began with?  0 when it is; CDT_ECHANGED (the device's message
 * saying why) when it is another or cannot be told; another error.
 * image_changed is the same as the file sink's hook (sink.h).
 */
int image_same_disc(struct image_job *j, uint8_t *buf, size_t cap);
int image_changed(void *job, uint8_t *buf, size_t cap);
/* The end search after the data-first copy, again after a change to the same disc. */
int image_search_after_copy(struct image_job *j, struct rescue *r);
/*
 * Up to 16 blocks the map marks read, spread over it, read back and
 * compared with OUT: 0 the same (*compared of them), 1 the disc's block
 * *at differs, 2 OUT lacks it, CDT_ECHANGED, or another error.
 */
int image_out_differs(struct image_job *j, unsigned int *compared, uint64_t *at);

#endif
