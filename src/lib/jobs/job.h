/* SPDX-License-Identifier: MIT */
/*
 * What the jobs share around the disc they read: the probe with the read
 * options' window (its findings, probe.h, held by the job that asked),
 * the summary's bad ranges from a map, and freeing the summary.
 */
#ifndef CDT_JOB_H
#define CDT_JOB_H

#include <stdint.h>
#include "cdtail.h"
#include "book/mapfile.h"
#include "probe/probe.h"

/* The end search's options from the read options: window, progress, stop. */
void rescue_probe_opts(const struct cdt_read_opts *rd, struct cdt_probe_opts *po);

/*
 * Probe with the read options' window; what it found beside the summary
 * into *pf, the job's to free (probe_findings_free()).
 */
int rescue_probe(struct cdt_dev *dev, const struct cdt_read_opts *rd,
		 struct cdt_read_summary *sum, struct probe_findings *pf);

/*
 * rescue_probe() for image --raw: the layout's boundaries settled by READ
 * CD too (probe.h, probe_whole), its end in pf->extent.
 */
int rescue_probe_raw(struct cdt_dev *dev, const struct cdt_read_opts *rd,
		     struct cdt_read_summary *sum, struct probe_findings *pf);

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
