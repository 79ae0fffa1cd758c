/* SPDX-License-Identifier: MIT */
/*
 * What image --raw stores (rawplan.c): one file per track, from the
 * track's pregap (index 00) where the layout knows one, to the next
 * track's pregap in the same session, or to the track's end (its TAO
 * run-out left out); the last track to the image's extent, so a hidden
 * tail is in its file.  Track 1's pregap lies before LBA 0 and is not
 * read (Redump's track 1 starts at index 01 too).  The raw stream is the
 * files one after the other: sector k of the stream is what the map's
 * bytes [k * 2352, (k + 1) * 2352) stand for.  Pure functions over the
 * layout, and the CUE sheet's text.
 */
#ifndef CDT_RAWPLAN_H
#define CDT_RAWPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"

struct raw_file {
	const struct cdt_track *t;	/* the layout's track */
	uint64_t first;			/* LBA of the file's first sector */
	uint64_t n;			/* sectors in the file */
	uint64_t pregap;		/* of them before index 01 */
	uint64_t runout;		/* TAO run-out after it, not stored */
	uint64_t stream;		/* its first sector's index in the stream */
	char isrc[13];			/* the drive's ISRC of the track, "" none */
	const struct cdt_index *marks;	/* its INDEX 02..99 (the layout's) */
	size_t n_marks;
};

struct raw_plan {
	struct raw_file *f;
	size_t n;
	uint64_t total;			/* stream sectors */
	uint64_t reported;		/* READ CAPACITY's blocks */
	uint64_t extent;		/* the image's end LBA */
	bool multisession;
	char catalog[14];		/* the drive's MCN, "" none */
	const struct cdt_text_block *text;	/* CD-TEXT for the sheet, NULL none */
	enum cdt_qmarks qmarks;		/* the layout's: how pregaps were found */
};

/* The plan of layout l up to extent (> 0).  0, CDT_EUSAGE (no track) or CDT_ENOMEM. */
int raw_plan_make(const struct cdt_layout *l, uint64_t extent, struct raw_plan *p);
void raw_plan_free(struct raw_plan *p);

/* The file holding stream sector k, or NULL past the end. */
const struct raw_file *raw_plan_find(const struct raw_plan *p, uint64_t k);

/* The file holding LBA lba, or NULL (a gap, a run-out, past the end). */
const struct raw_file *raw_plan_at_lba(const struct raw_plan *p, uint64_t lba);

/* "BASE (Track N).bin" (two digits past 9 tracks), "BASE.bin" for one track. */
void raw_bin_name(char *out, size_t cap, const char *base, unsigned int number,
		  size_t n_tracks);

/* What the sheet says besides the tracks. */
struct raw_sheet_notes {
	bool offset_set;
	int offset_samples;
	bool audio_checked;		/* C2 pointers */
	bool has_audio;
};

/*
 * The CUE sheet: FILE lines name the files as raw_bin_name(base_name)
 * (the sheet's own directory).  Returns the length it needed (as
 * snprintf); out holds it when that is below cap.
 */
size_t raw_sheet(char *out, size_t cap, const struct raw_plan *p,
		 const char *base_name, const struct raw_sheet_notes *notes);

#endif
