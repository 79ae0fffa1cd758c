/* SPDX-License-Identifier: MIT */
/*
 * READ DISC STRUCTURE as a size source (issue 36): asked on DVD and BD
 * profiles only, its answer into the probe result's structure_* fields.
 */
#ifndef CDT_PROBE_STRUCTURE_H
#define CDT_PROBE_STRUCTURE_H

#include <stdbool.h>
#include <stdint.h>
#include "core/device.h"

/* DVD profiles (MMC-6 table 91): 0010h-001Bh and DVD+RW/+R DL 002Ah-002Bh */
bool probe_dvd_profile(uint16_t profile);
/* BD-ROM, BD-R SRM, BD-R RRM, BD-RE: 0040h-0043h */
bool probe_bd_profile(uint16_t profile);

/*
 * Format 00h for res->sizes.profile: the DVD physical format (its data
 * area's blocks, layer 0's on a dual-layer disc) or the BD disc
 * information (type and layers; no size: its addresses are physical).
 * A refusal, a CD, an answer that makes no data area: absent, never
 * guessed.
 */
void probe_structure(struct cdt_dev *dev, struct cdt_probe_result *res);

#endif
