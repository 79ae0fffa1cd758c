// SPDX-License-Identifier: MIT
/*
 * The CUE sheet reader of the emulated drive (cd/cue.c): the
 * input as a sheet's text.  What it accepts must hold what the reader
 * promises: tracks numbered up by one from the first, sessions from 1 up
 * by at most one, each track's file one of the sheet's, INDEX 01 present
 * and not before INDEX 00; without CUE_ANY_PATH no FILE outside the
 * sheet's folder, no line is ever cut (a long one is an error: see
 * regress/fuzz_cue), and INDEX 02..99 are kept in order (check_marks).  Seeds: tests/fuzz/corpus/fuzz_cue (the sheets
 * of tests/raw/model.py's discs and Redump-style ones).
 */
#include <string.h>
#include "fuzz.h"
#include "cd/cue.h"

/* Without CUE_ANY_PATH every FILE lies in the sheet's folder (issue 32). */
static void check_inside(const uint8_t *data, size_t size)
{
	struct cue_sheet c;
	char err[200];
	unsigned int i;

	if (cue_parse((const char *)data, size, 0, &c, err, sizeof(err)))
		return;
	for (i = 0; i < c.n_files; i++)
		if (c.files[i][0] == '/' || !cue_path_inside(c.files[i]))
			__builtin_trap();
	cue_free(&c);
}

/* The longest line's characters (CR, LF or both end one; a BOM aside). */
static size_t longest_line(const uint8_t *data, size_t size)
{
	size_t i = size >= 3 && !memcmp(data, "\xef\xbb\xbf", 3) ? 3 : 0;
	size_t n = 0, most = 0;

	for (; i < size; i++) {
		if (data[i] == '\n' || data[i] == '\r') {
			n = 0;
			continue;
		}
		if (++n > most)
			most = n;
	}
	return most;
}

/*
 * INDEX 02..99 (issue 33): each track's marks lie in the sheet's array,
 * one after another, numbers 2..99 rising, times after INDEX 01's.
 */
static void check_marks(const struct cue_sheet *c)
{
	unsigned int i, k, next = 0;

	if (c->n_marks > CUE_MAX_MARKS)
		__builtin_trap();
	for (i = 0; i < c->n_tracks; i++) {
		const struct cue_track *t = &c->tracks[i];

		if (!t->n_marks)
			continue;
		if (t->mark0 != next || t->mark0 + t->n_marks > c->n_marks)
			__builtin_trap();
		for (k = 0; k < t->n_marks; k++) {
			const struct cue_mark *m = &c->marks[t->mark0 + k];

			if (m->number < 2 || m->number > 99 || m->at <= t->index1 ||
			    (k && (m->number <= m[-1].number || m->at <= m[-1].at)))
				__builtin_trap();
		}
		next = t->mark0 + t->n_marks;
	}
	if (next != c->n_marks)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cue_sheet c;
	char err[200];
	unsigned int i;

	check_inside(data, size);
	if (cue_parse((const char *)data, size, CUE_ANY_PATH, &c, err, sizeof(err)))
		return 0;
	/* a sheet with a line longer than the reader takes never parses */
	if (longest_line(data, size) > CUE_LINE_MAX)
		__builtin_trap();
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
	check_marks(&c);
	cue_free(&c);
	return 0;
}
