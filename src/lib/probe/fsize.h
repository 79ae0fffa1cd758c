/* SPDX-License-Identifier: MIT */
/*
 * Filesystem-declared sizes: pure readers over the first blocks of a disc.
 * buf holds len bytes starting at byte 0 of the medium (block 0).  They
 * never trust an embedded length or location beyond len.
 */
#ifndef CDT_FSIZE_H
#define CDT_FSIZE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes a caller should read from the start of the medium for these. */
#define CDT_FS_PROBE_BYTES (260u * 2048u)

/*
 * ISO 9660: the Primary Volume Descriptor at byte 32768 (and the following
 * descriptors up to the terminator).  *blocks = volume space size converted
 * to units of dev_block bytes (rounded up).  Returns 0, or -1 when there is
 * no valid PVD within len.
 */
int cdt_iso9660_size(const uint8_t *buf, size_t len, uint32_t dev_block,
		     uint64_t *blocks);

/*
 * UDF: Anchor Volume Descriptor Pointer at sector 256 (sector = dev_block
 * bytes; 2048 when dev_block is 512 since UDF sectors on optical media are
 * 2048), then the main Volume Descriptor Sequence, when it lies within len;
 * *blocks = end of the partition (start + length) in dev_block units.
 */
int cdt_udf_size(const uint8_t *buf, size_t len, uint32_t dev_block,
		 uint64_t *blocks);

#endif
