/* SPDX-License-Identifier: MIT */
/* What the layers above use of probe besides cdt_probe(). */
#ifndef CDT_PROBE_H
#define CDT_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"
#include "probe/findings.h"

/*
 * cdt_probe() for a disc whose end is already known (a resumed image's
 * identity record): identify the drive and read the size sources, but
 * send no read past the end, so an undamaged disc costs no failing read.
 */
int probe_known_end(struct cdt_dev *dev, struct probe_findings *pf,
		    uint64_t true_blocks, uint64_t extent,
		    struct cdt_probe_result *res);

/*
 * cdt_probe() in two halves, for image to copy the reported extent in
 * between (its data before the end search's failing reads): identify the
 * drive and read the size sources (the device's stats start here), then
 * the end search and what depends on it.
 */
int probe_begin(struct cdt_dev *dev, struct probe_findings *pf,
		struct cdt_probe_result *res);
int probe_end(struct cdt_dev *dev, struct probe_findings *pf,
	      const struct cdt_probe_opts *opts, struct cdt_probe_result *res);

/*
 * probe_end() for a disc known to read up to above blocks (a resumed
 * image whose last search stopped at its --max-extra window, issue 28 B):
 * the search starts there, as search_rounds starts each round above the
 * blocks the last one read good.
 */
int probe_end_above(struct cdt_dev *dev, struct probe_findings *pf,
		    const struct cdt_probe_opts *opts, uint64_t above,
		    struct cdt_probe_result *res);

/*
 * The whole probe (cdt_probe()'s), its findings into pf; with raw, and a
 * drive whose raw sectors can be trusted (probe_raw_trusted()), the
 * boundaries READ CD settles too (probe_raw_boundaries()): image --raw
 * asks, the jobs that read with READ(10) keep the layout READ(10) saw.
 */
int probe_whole(struct cdt_dev *dev, struct probe_findings *pf,
		const struct cdt_probe_opts *opts, bool raw,
		struct cdt_probe_result *res);

#endif
