/* SPDX-License-Identifier: MIT */
/* The size sources, as the rest of the probe layer uses them. */
#ifndef CDT_SIZES_H
#define CDT_SIZES_H

#include "core/device.h"

/*
 * READ CAPACITY (core/cmds.h) with the probe's policy: an unusable block
 * size (0, 2352) is taken as 2048, a refusal gets a message.  It does not
 * change the device's block size: cdt_read_sizes() sets that.
 */
int cdt_probe_read_capacity(struct cdt_dev *dev, uint64_t *blocks,
			    uint32_t *block_size);

/* Bad blocks a head read passes over (zeros) before it gives up. */
#define PROBE_HEAD_BAD_MAX 4u

/*
 * One piece of a head of volume descriptors, [lba, lba + n), into buf: in
 * one read or, when that fails with a medium error (a bad block somewhere
 * in it), again block by block, a bad block left as zeros while *fails
 * allows (one less each).  Returns the blocks kept from lba: n, or fewer
 * where a read answers anything else or the failures allowed run out.
 */
uint32_t probe_read_piece(struct cdt_dev *dev, uint64_t lba, uint32_t n,
			  uint8_t *buf, unsigned int *fails);

#endif
