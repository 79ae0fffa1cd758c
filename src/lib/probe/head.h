/* SPDX-License-Identifier: MIT */
/*
 * Reading a head of volume descriptors past bad blocks: the disc's head at
 * LBA 0 (sizes.c) and the last session's (layout.c) alike.
 */
#ifndef CDT_HEAD_H
#define CDT_HEAD_H

#include <stdint.h>
#include "core/device.h"

/* Bad blocks a head read passes over (zeros) before it gives up. */
#define PROBE_HEAD_BAD_MAX 4u

/*
 * One piece of a head of volume descriptors, [lba, lba + n), into buf: in
 * one read or, when that fails with a medium error (a bad block somewhere
 * in it), again block by block, a bad block left as zeros while *fails
 * allows (one less each); medium errors noted in pf (probe.h).  Returns the blocks kept from lba: n, or fewer
 * where a read answers anything else or the failures allowed run out.
 */
struct probe_findings;
uint32_t probe_read_piece(struct cdt_dev *dev, struct probe_findings *pf,
			  uint64_t lba, uint32_t n, uint8_t *buf,
			  unsigned int *fails);

#endif
