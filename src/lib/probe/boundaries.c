// SPDX-License-Identifier: MIT
/*
 * The track boundaries READ(10) cannot settle, settled by READ CD
 * (probe.h, probe_raw_boundaries): where a data track ends and an audio
 * track's pregap begins, and whether a data track's last 2 blocks are a
 * run-out.  The probe inferred both from READ(10)'s 05/64/00 (issue 23),
 * which Mode 2 Form 2 and formless sectors answer too; raw sectors say
 * which they are.  Here, beside the rest of the structure, so the probe
 * returns one layout: image --raw took the probe's layout and corrected
 * it itself (issue 31).
 */
#include <stdlib.h>
#include "core/cmds.h"
#include "probe/boundaries.h"
#include "probe/trackmodes.h"
#include "mmc/readcd.h"
#include "cd/sector.h"

struct raw_reader {
	struct cdt_dev *dev;
	uint8_t buf[CD_RAW];
};

/* Block lba read raw is audio (no sync pattern). */
static bool reads_as_audio(struct raw_reader *r, uint64_t lba)
{
	struct mmc_read_cd rq = { .type = MMC_ST_ANY, .fields = MMC_RCD_RAW };
	struct cdt_read_result rr = CDT_INIT(rr);
	struct cd_sector_info info;

	return !cdt_read_cd_blocks(r->dev, (int64_t)lba, 1, &rq, r->buf, CD_RAW, &rr) &&
	       rr.cls == CDT_READ_OK && !rr.resid &&
	       !cd_sector_parse(r->buf, CD_RAW, &info) && info.kind == CD_SECTOR_NONE;
}

/* Block lba read raw is a data sector naming its address. */
static bool reads_as_data(struct raw_reader *r, uint64_t lba)
{
	uint64_t first;

	return probe_raw_confirm(r->dev, lba, 1, &first);
}

/*
 * From x on, up to the first sector that reads as audio (or limit): past
 * the last one that reads as data (an unreadable one between data sectors
 * is damage in the data track).
 */
static uint64_t data_up_to(struct raw_reader *r, uint64_t x, uint64_t limit)
{
	uint64_t end = x;

	for (; x < limit && !reads_as_audio(r, x); x++)
		if (reads_as_data(r, x))
			end = x + 1;
	return end;
}

/*
 * Where a data track ends and the audio track after it begins, as the
 * probe inferred it from READ(10)'s 05/64/00 (issue 23), may be off both
 * ways: the audio pregap may begin with the data track's own Mode 2 Form 2
 * or formless sectors, which answer READ(10) so too, and a drive that
 * gives index 01 only hides the pregap in the data track's length (as a
 * "run-out" when it is 2 blocks).  Raw reads settle it where they
 * contradict the probe: the boundary moves back over sectors that read as
 * audio, or on over sectors that read as data; a sector that does not
 * read (a TAO run-out, damage) leaves it where it is.  The data track's
 * last 2 blocks are then a run-out unless they read raw as data
 * (confirm_runouts).
 */
static void data_before_audio(struct raw_reader *r, struct cdt_track *prev,
			      struct cdt_track *t)
{
	uint64_t x, end = prev->start + prev->blocks;

	if (prev->mode != CDT_TRACK_DATA || t->mode != CDT_TRACK_AUDIO ||
	    prev->session != t->session || t->pregap > t->start ||
	    t->start - t->pregap < prev->start)
		return;
	x = t->start - t->pregap;
	if (x > prev->start && reads_as_audio(r, x - 1)) {
		while (x > prev->start + 1 && reads_as_audio(r, x - 1))
			x--;
	} else {
		x = data_up_to(r, x, t->start);
	}
	t->pregap = t->start - x;
	if (x < end)
		prev->runout = true;
	prev->blocks = x - prev->start;
}

/*
 * A data track's pregap after an audio track, on a drive that gives index
 * 01 only, ends the audio track's length: the sectors before the data
 * track that read raw as data are its pregap.
 */
static void audio_before_data(struct raw_reader *r, struct cdt_track *prev,
			      struct cdt_track *t)
{
	uint64_t x;

	if (prev->mode != CDT_TRACK_AUDIO || t->mode != CDT_TRACK_DATA ||
	    prev->session != t->session || t->pregap > t->start ||
	    t->start - t->pregap <= prev->start + 1)
		return;
	x = t->start - t->pregap;
	while (x > prev->start + 1 && reads_as_data(r, x - 1))
		x--;
	t->pregap = t->start - x;
	if (x < prev->start + prev->blocks)
		prev->blocks = x - prev->start;
}

/*
 * A run-out the probe inferred from READ(10)'s 05/64/00 at a data track's
 * end is a real one only when READ CD cannot read those blocks either:
 * Mode 2 Form 2 and formless sectors answer READ(10) so too (issue 23).
 * Blocks that read raw as data sectors naming their address are the
 * track's, and the last track's extend the extent.
 */
static void confirm_runouts(struct raw_reader *r, struct cdt_layout *l,
			    uint64_t *extent)
{
	uint64_t first;
	size_t i;

	for (i = 0; i < l->n_tracks; i++) {
		struct cdt_track *t = &l->tracks[i];
		uint64_t end = t->start + t->blocks;

		if (!t->runout || t->blocks < 2)
			continue;
		/* either one data sector is enough: the other may be damaged */
		if (!probe_raw_confirm(r->dev, end - 2, 1, &first) &&
		    !probe_raw_confirm(r->dev, end - 1, 1, &first))
			continue;
		t->runout = false;
		if (i + 1 == l->n_tracks && end > *extent)
			*extent = end;
	}
}

int probe_raw_boundaries(struct cdt_dev *dev, struct probe_findings *pf)
{
	struct cdt_layout *l = pf->layout;
	struct raw_reader *r;
	size_t i;

	if (!l)
		return 0;
	r = malloc(sizeof(*r));
	if (!r)
		return CDT_ENOMEM;
	r->dev = dev;
	for (i = 1; i < l->n_tracks; i++) {
		data_before_audio(r, &l->tracks[i - 1], &l->tracks[i]);
		audio_before_data(r, &l->tracks[i - 1], &l->tracks[i]);
	}
	confirm_runouts(r, l, &pf->extent);
	free(r);
	return 0;
}
