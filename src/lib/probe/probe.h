/* SPDX-License-Identifier: MIT */
/* What the layers above use of probe besides cdt_probe(). */
#ifndef CDT_PROBE_H
#define CDT_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"

/*
 * The probe's failing reads kept for the caller: image marks them in its
 * map before its first pass, so no block the probe already found bad is
 * read again without a reason.
 */
#define PROBE_FAILED_MAX 64

struct probe_failed_read {
	uint64_t lba;
	uint32_t n;
};

/*
 * What a probe found, beside its public result: the caller's, filled by
 * the probe and freed with probe_findings_free().  The probe returns it
 * instead of leaving it on the device handle (issue 31: the jobs read it
 * back from there, and the next probe freed what a caller still held);
 * the device keeps only what its command path needs (the block size its
 * READ commands are built with).
 */
struct probe_findings {
	struct cdt_layout *layout;	/* owned; NULL until read */
	uint32_t block_size;		/* READ CAPACITY's, as the probe took it */
	struct cdt_raw_caps raw;	/* what the drive reads raw */
	/*
	 * The end the layout covers: the result's extent_blocks, or past it
	 * where probe_raw_boundaries() found the last track's "run-out"
	 * reads raw as data.
	 */
	uint64_t extent;
	/* reads that failed with a medium error, up to PROBE_FAILED_MAX */
	struct probe_failed_read failed[PROBE_FAILED_MAX];
	unsigned int n_failed;
};

/* Free what pf holds and empty it (a zeroed one is fine). */
void probe_findings_free(struct probe_findings *pf);

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

/*
 * boundaries.c: where the probe put a data track's end from READ(10)'s
 * 05/64/00, raw reads settle it in pf->layout: a data track's end before
 * an audio track (and that track's pregap), an audio track's end before a
 * data track's pregap, and run-outs that read raw as data sectors naming
 * their address are none (the last track's extends pf->extent).
 * 0 or CDT_ENOMEM.
 */
int probe_raw_boundaries(struct cdt_dev *dev, struct probe_findings *pf);

/*
 * Within the probe (findings.c): a read of the probe, its medium errors
 * noted in pf as cdt_read_blocks() answers them; and pf's layout copied
 * to the handle for cdt_dev_layout() (NULL pf: none kept).
 */
int probe_read_blocks(struct cdt_dev *dev, struct probe_findings *pf,
		      uint64_t lba, uint32_t n, void *buf, size_t buf_len,
		      struct cdt_read_result *rr);
void probe_publish(struct cdt_dev *dev, const struct probe_findings *pf);

#endif
