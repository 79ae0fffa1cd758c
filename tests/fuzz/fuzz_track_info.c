// SPDX-License-Identifier: MIT
/*
 * READ TRACK INFORMATION: the whole input as one answer of any length (the
 * parser alone, as the kernel's 8-byte probe or a short MMC-2 answer gives
 * it), then the input as answers of 36 bytes each, as the layout reads one
 * per track, and the skip list built over the tracks they describe.
 * Seeds: tests/fuzz/seeds/track_info (the emulated drive's answers per disc
 * kind, gen_sim_seeds) and corpus/fuzz_track_info (gen_corpus), negative
 * starts among them (regress/track_info_negative).  This
 * target took over fuzz_trackinfo, which fuzzed the first step alone.
 */
#include <string.h>
#include "fuzz.h"
#include "probe/layout.h"
#include "mmc/mmc.h"

#define REC 36
#define MAX_TRACKS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cdt_track tracks[MAX_TRACKS];
	struct cdt_skip skip[2 * MAX_TRACKS], gaps[MAX_TRACKS];
	struct cdt_layout l = { .size = sizeof(l), .tracks = tracks, .gaps = gaps };
	struct mmc_track_info ti;
	size_t off, n, i;
	uint64_t end = 0;

	/* the addresses are signed 32-bit LBAs: never a wrapped value */
	if (!mmc_parse_track_info(data, size, &ti) &&
	    (ti.start < INT32_MIN || ti.start > INT32_MAX ||
	     ti.last_recorded < INT32_MIN || ti.last_recorded > INT32_MAX))
		__builtin_trap();
	memset(tracks, 0, sizeof(tracks));
	for (off = 0; off < size && l.n_tracks < MAX_TRACKS; off += REC) {
		size_t len = size - off < REC ? size - off : REC;
		struct cdt_track *t = &tracks[l.n_tracks];

		if (mmc_parse_track_info(data + off, len, &ti) || ti.blank)
			continue;
		t->number = ti.track;
		t->session = ti.session;
		t->mode = mmc_control_is_data(ti.track_mode) ? CDT_TRACK_DATA : CDT_TRACK_AUDIO;
		/* a start before LBA 0 (the pregap of track 1): from 0 */
		t->start = ti.start > 0 ? (uint64_t)ti.start : 0;
		t->blocks = ti.size;
		/* any pregap, even one that claims more than lies before it */
		t->pregap = ti.fixed_packet_size;
		t->runout = mmc_control_incremental(ti.track_mode);
		/* the layout keeps tracks ascending; a gap where sessions change */
		if (l.n_tracks && t->start < end)
			continue;
		if (l.n_tracks && t->session != tracks[l.n_tracks - 1].session &&
		    t->start > end)
			gaps[l.n_gaps++] = (struct cdt_skip){ end, t->start - end, CDT_SKIP_GAP };
		end = t->start + t->blocks;
		l.n_tracks++;
	}
	n = layout_skips(&l, end, skip, 2 * MAX_TRACKS);
	if (n > 2 * MAX_TRACKS)
		__builtin_trap();
	for (i = 0; i < n; i++) {
		if (!skip[i].blocks || skip[i].start + skip[i].blocks > end)
			__builtin_trap();
		if (i && skip[i].start < skip[i - 1].start + skip[i - 1].blocks)
			__builtin_trap();
	}
	return 0;
}
