/* SPDX-License-Identifier: MIT */
/*
 * What tail, verify --image and verify --cue share: a chunk of the disc
 * read beside the same blocks of a file, so both buffers are one chunk
 * long, and the file closed and the buffers freed on every way out.  The
 * compare sink (struct cmp_sink) is that for the in-order pass
 * (passes.h): it gathers each step's blocks as the reads settle them and
 * hands the job the step whole, beside the file's bytes and into the
 * in-order digest.
 */
#ifndef CDT_COMPARE_H
#define CDT_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"
#include "engine/digest.h"
#include "engine/engine.h"

/*
 * Sets *chunk (rescue_chunk_blocks of want) and allocates *disc and *file
 * of *chunk blocks of bs bytes each; CDT_ENOMEM if either fails (both
 * pointers are then still safe to pass to compare_release).
 */
int compare_buffers(struct cdt_dev *dev, uint32_t bs, uint32_t want,
		    uint32_t *chunk, uint8_t **disc, uint8_t **file);

/*
 * Read up to len bytes of fd from off into buf, retrying after EINTR and
 * short reads, stopping at the file's end: *got says how many.  0, or
 * CDT_EIO with errno set by the failing pread.
 */
int compare_pread(int fd, uint8_t *buf, size_t len, uint64_t off, size_t *got);

/* Ranges of LBAs growing in order: verify's bad and differing blocks. */
struct cmp_ranges {
	struct cdt_range *v;
	size_t n, cap;
};

/* Add [first, last] to r, joining the last range it continues; CDT_ENOMEM. */
int cmp_range_add_span(struct cmp_ranges *r, uint64_t first, uint64_t last);

static inline int cmp_range_add(struct cmp_ranges *r, uint64_t lba)
{
	return cmp_range_add_span(r, lba, lba);
}

/* Closes fd unless it is negative (never opened) and frees both buffers. */
void compare_release(int fd, uint8_t *disc, uint8_t *file);

/* What a block of a step came to. */
enum cmp_block {
	CMP_BAD = 0,		/* never read: zeros in the step's disc bytes */
	CMP_READ,
	CMP_WRONG_MODE,		/* 05/64/00 alone, listed by the job: zeros */
};

/* A settled step of data, as the job's step() sees it. */
struct cmp_step {
	const uint8_t *disc;		/* n blocks: what read, zeros elsewhere */
	const uint8_t *file;		/* what the file holds there */
	size_t file_got;		/* of it, bytes (< n blocks at its end) */
	const enum cmp_block *state;	/* per block */
};

/*
 * The sink of the in-order pass for a job that compares the disc with a
 * file (fd), hashes it in order (stream), or both.
 */
struct cmp_sink {
	/* set by the caller */
	struct cdt_dev *dev;		/* for its error message */
	int fd;				/* the file, or -1: nothing to compare */
	const char *path;		/* its name, for the message */
	uint32_t bs;
	struct dg *stream;		/* the disc in order, unread blocks and
					 * skipped areas as zeros; or NULL */
	/* block lba answered 05/64/00 or 05/6F/xx alone (engine.h
	 * wrong_mode): 0 the job listed it as why, else it stays a bad
	 * block; NULL: a bad block */
	int (*wrong_mode)(void *job, uint64_t lba, enum cdt_skip_why why);
	/* [lba, lba + n) of data settled; 0, 1 the job has its answer, <0 */
	int (*step)(void *job, uint64_t lba, uint32_t n, const struct cmp_step *st);
	/* [lba, lba + n) a skipped area, never read; 0, 1, <0; may be NULL */
	int (*skipped)(void *job, uint64_t lba, uint64_t n);
	void *job;

	/* kept by the sink */
	uint32_t chunk;			/* blocks per step at most */
	uint8_t *disc, *file, *read;	/* chunk blocks each; read the engine's */
	enum cmp_block *state;		/* chunk of them */
	uint64_t base;			/* the first block of the step under way */
};

/*
 * The buffers for steps of up to chunk blocks (the job's: the engine's
 * chunk, rescue_chunk_blocks, for a cooked read), from block `from` on.
 * 0 or CDT_ENOMEM (cmp_sink_free is then still safe).
 */
int cmp_sink_init(struct cmp_sink *s, uint32_t chunk, uint64_t from);

/* r's sink, buffer and chunk: s's. */
void cmp_sink_attach(struct cmp_sink *s, struct rescue *r);

/* Free the buffers (not fd); safe twice. */
void cmp_sink_free(struct cmp_sink *s);

#endif
