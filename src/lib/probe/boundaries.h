/* SPDX-License-Identifier: MIT */
/* Raw reads settling the boundaries READ(10) could not (boundaries.c). */
#ifndef CDT_PROBE_BOUNDARIES_H
#define CDT_PROBE_BOUNDARIES_H

#include "probe/findings.h"

/*
 * Where the probe put a data track's end from READ(10)'s
 * 05/64/00, raw reads settle it in pf->layout: a data track's end before
 * an audio track (and that track's pregap), an audio track's end before a
 * data track's pregap, and run-outs that read raw as data sectors naming
 * their address are none (the last track's extends pf->extent).
 * 0 or CDT_ENOMEM.
 */
int probe_raw_boundaries(struct cdt_dev *dev, struct probe_findings *pf);

#endif
