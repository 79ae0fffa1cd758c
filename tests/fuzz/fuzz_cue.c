// SPDX-License-Identifier: MIT
/*
 * The CUE sheet reader of the emulated drive (transport/sim/cue.c): the
 * input as a sheet's text.  What it accepts must hold what the reader
 * promises: tracks numbered up by one from the first, sessions from 1 up
 * by at most one, each track's file one of the sheet's, INDEX 01 present
 * and not before INDEX 00.  Seeds: tests/fuzz/corpus/fuzz_cue (the sheets
 * of tests/raw/model.py's discs and Redump-style ones).
 */
#include "fuzz.h"
#include "cd/cue.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cue_sheet c;
	char err[200];
	unsigned int i;

	if (cue_parse((const char *)data, size, &c, err, sizeof(err)))
		return 0;
	if (!c.n_tracks || c.n_tracks > CUE_MAX_TRACKS || !c.n_files)
		__builtin_trap();
	for (i = 0; i < c.n_tracks; i++) {
		const struct cue_track *t = &c.tracks[i];

		if (t->file >= c.n_files || t->index1 < 0 ||
		    (t->index0 >= 0 && t->index0 >= t->index1) || t->session < 1)
			__builtin_trap();
		if (i && (t->number != c.tracks[i - 1].number + 1 ||
			  t->session < c.tracks[i - 1].session ||
			  t->session > c.tracks[i - 1].session + 1 ||
			  t->file < c.tracks[i - 1].file))
			__builtin_trap();
		(void)cue_sector_size(t->mode);
	}
	cue_free(&c);
	return 0;
}
