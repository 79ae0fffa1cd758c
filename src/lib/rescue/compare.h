/* SPDX-License-Identifier: MIT */
/*
 * What tail and verify --image share: a chunk of the disc read beside the
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

/* Closes fd unless it is negative (never opened) and frees both buffers. */
void compare_release(int fd, uint8_t *disc, uint8_t *file);

#endif
