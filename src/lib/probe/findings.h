/* SPDX-License-Identifier: MIT */
/*
 * What a probe found beside its public result (findings.c), apart from
 * probe.h: every file of the probe records into it (its reads, its
 * layout), while probe.h's entry points call those files, so the
 * findings are the floor the probe's files share, not the probe's top.
 */
#ifndef CDT_PROBE_FINDINGS_H
#define CDT_PROBE_FINDINGS_H

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
	/* the disc's CD-TEXT (probe_raw, a CD with an audio track); owned,
	 * NULL: not read, or none */
	struct cdt_cd_text *cd_text;
	/*
	 * The end the layout covers: the result's extent_blocks, or past it
	 * where probe_raw_boundaries() found the last track's "run-out"
	 * reads raw as data.
	 */
	uint64_t extent;
	/*
	 * Blocks from here to the extent read only as filler (zeros, a
	 * repeat) and are in it because the filesystem's size covers them
	 * (issue 32): no identity block is picked there.  0: none.
	 */
	uint64_t filler_from;
	/* reads that failed with a medium error, up to PROBE_FAILED_MAX */
	struct probe_failed_read failed[PROBE_FAILED_MAX];
	unsigned int n_failed;
};

/* Free what pf holds and empty it (a zeroed one is fine). */
void probe_findings_free(struct probe_findings *pf);

/*
 * A read of the probe, its medium errors noted in pf as
 * cdt_read_blocks() answers them; and pf's layout copied to the handle
 * for cdt_dev_layout() (NULL pf: none kept).
 */
int probe_read_blocks(struct cdt_dev *dev, struct probe_findings *pf,
		      uint64_t lba, uint32_t n, void *buf, size_t buf_len,
		      struct cdt_read_result *rr);
void probe_publish(struct cdt_dev *dev, const struct probe_findings *pf);

#endif
