/* SPDX-License-Identifier: MIT */
/*
 * Raw sectors in the probe (probe/trackmodes.c): what the drive reads raw, each
 * track's sector mode from its first sector's header, and the header's
 * address as a witness of what a READ(10) past the reported end returned.
 */
#ifndef CDT_PROBE_RAW_H
#define CDT_PROBE_RAW_H

#include <stdbool.h>
#include <stdint.h>
#include "cdtail.h"

struct probe_findings;

/*
 * res->raw (copied to pf->raw), sector_mode of pf->layout's tracks, and
 * pf->cd_text on a disc with an audio track (CD profiles only).
 */
void probe_raw(struct cdt_dev *dev, struct probe_findings *pf,
	       struct cdt_probe_result *res);

/*
 * Blocks lba..lba+n-1 read raw: each a data sector (not audio, not Mode 0)
 * whose header names its own address.  False at the first that is not,
 * *first its LBA (a READ CD that fails counts as not).
 */
bool probe_raw_confirm(struct cdt_dev *dev, uint64_t lba, uint32_t n,
		       uint64_t *first);

/* The mode of the sector cdt_raw_caps() tried: the track starting at lba's. */
enum cdt_sector_mode probe_raw_tried_mode(const struct cdt_layout *l, int64_t lba);

/*
 * The drive's raw sectors are real, fit to witness what READ(10) gave:
 * the tried sector's EDC/ECC held, or it is a formless Mode 2 or Form 2
 * sector naming its address, which has no EDC/ECC to hold (Form 2's EDC
 * may be zero) and which a drive that makes sectors up does not produce
 * (QEMU's ide-cd makes Mode 1 with a binary header: REAL-DISCS.md).
 */
bool probe_raw_witnesses(const struct cdt_raw_caps *raw, const struct cdt_layout *l);

/*
 * The drive's raw sectors can be trusted for a raw image: it reads them,
 * and a Mode 1 or Form 1 sector it read raw held its EDC/ECC (a drive that
 * makes sectors up, QEMU's ide-cd, does not); formless Mode 2 and Form 2
 * have nothing to hold.
 */
bool probe_raw_trusted(const struct cdt_raw_caps *raw, const struct cdt_layout *l);

#endif
