/* SPDX-License-Identifier: MIT */
/*
 * What the three jobs (image.c, tail.c, verify.c) share around the
 * disc they read: the probe with the read options' window, the summary's
 * bad ranges from a map, and freeing the summary.
 */
#ifndef CDT_JOB_H
#define CDT_JOB_H

#include <stdint.h>
#include "cdtail.h"
#include "book/mapfile.h"

/* The end search's options from the read options: window, progress, stop. */
void rescue_probe_opts(const struct cdt_read_opts *rd, struct cdt_probe_opts *po);

/* Probe with the read options' window. */
int rescue_probe(struct cdt_dev *dev, const struct cdt_read_opts *rd,
		 struct cdt_read_summary *sum);

/* Fill sum->bad, n_bad, bad_blocks from the map's failed runs. */
int rescue_bad_ranges(const struct cdt_map *map, uint32_t bs,
		      struct cdt_read_summary *sum);

/*
 * Start a result's summary: its sizes, and the probe result it holds by
 * pointer (the library's own size, so that cdt_probe_result can grow
 * while four results hold it).  CDT_ENOMEM.
 */
int rescue_summary_start(struct cdt_read_summary *sum);

/* Free sum->probe and sum->bad; safe on a zeroed summary, idempotent. */
void rescue_summary_free(struct cdt_read_summary *sum);

#endif
