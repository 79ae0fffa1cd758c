/* SPDX-License-Identifier: MIT */
/*
 * The disc's structure (struct cdt_layout, include/cdtail.h): built from
 * READ TOC formats 0 and 2, disc and track information, returned in the
 * probe's findings (probe.h) for image, tail and verify.
 */
#ifndef CDT_LAYOUT_H
#define CDT_LAYOUT_H

#include "core/device.h"
#include "mmc/mmc.h"

/* What cdt_read_sizes() already asked, so the layout does not ask twice. */
struct layout_answers {
	bool have_toc, have_di, have_last_ti;
	struct mmc_toc toc;		/* format 0, LBA, from track 1 */
	struct mmc_disc_info di;
	struct mmc_track_info last_ti;	/* of DISC INFO's last track */
};

struct probe_findings;

/*
 * Read the rest of the structure into pf->layout (replacing any), and
 * take sz->filesystem from the last data session's volume descriptor.
 * Returns 0 (a drive that answers nothing gives the one-track fallback)
 * or CDT_ENOMEM.
 */
int layout_read(struct cdt_dev *dev, struct probe_findings *pf,
		struct cdt_sizes *sz, const struct layout_answers *a);

/*
 * Where the last data session's first data track starts (its volume
 * descriptors are 16 blocks on): 0 for the session at LBA 0, or no layout.
 */
uint64_t layout_last_session_start(const struct cdt_layout *l);

/* The disc's last track, or NULL when the layout has none. */
const struct cdt_track *layout_last_track(const struct cdt_layout *l);

/*
 * Once the end is known (l may be NULL): the last data track is as long as the search
 * found (kept when the end is its TAO run-out: runout_end), and the skip
 * list is built over [0, extent).  Returns 0 or CDT_ENOMEM.
 */
int layout_finish(struct cdt_layout *l, uint64_t extent, bool runout_end);

/*
 * The gaps between sessions again, once a session's first pregap moved
 * (probe/qindex.c).  0 or CDT_ENOMEM.
 */
int layout_regap(struct cdt_layout *l);

/*
 * Pure: the skip list of l over [0, extent): audio tracks, gaps between
 * sessions, run-outs of data tracks, ascending and never overlapping.
 * Returns the count written to out (room for cap).
 */
size_t layout_skips(const struct cdt_layout *l, uint64_t extent,
		    struct cdt_skip *out, size_t cap);

#endif
