/* SPDX-License-Identifier: MIT */
/*
 * What tail, verify --image and verify --cue share: a chunk of the disc read beside the
 * same blocks of a file, so both buffers are one chunk long, and the file
 * closed and the buffers freed on every way out.
 */
#ifndef CDT_COMPARE_H
#define CDT_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"

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

#endif
