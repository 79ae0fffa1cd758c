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
 * area's blocks, layer 0's on a dual-layer disc; a parallel-track-path
 * one's layer 1 asked again with LAYER NUMBER 1) or the BD disc
 * information (type and layers; no size: its addresses are physical).
 * A refusal, a CD, an answer that makes no data area: absent, never
 * guessed.
 */
void probe_structure(struct cdt_dev *dev, struct cdt_probe_result *res);

/* DVD-R, DVD-RW, DVD-R DL, DVD+R, DVD+R DL, BD-R: written track by track */
bool probe_sequential_profile(uint16_t profile);

/*
 * On those profiles, READ DISC INFORMATION and READ TRACK INFORMATION of
 * the last track (and, when it is an open disc's blank one, of the track
 * before it) into the recorded_* fields; elsewhere, or refused: absent.
 */
void probe_recorded_track(struct cdt_dev *dev, struct cdt_probe_result *res);

#endif
