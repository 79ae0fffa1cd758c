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

struct probe_findings;

/*
 * cdt_read_sizes() for the probe: the sources into sz, the layout and the
 * block size into pf (emptied first: an earlier probe's layout says
 * nothing of this medium), its failing reads noted there.
 */
int probe_sizes(struct cdt_dev *dev, struct probe_findings *pf,
		struct cdt_sizes *sz);

#endif
