/* SPDX-License-Identifier: MIT */
/*
 * A CUE sheet as the emulated drive and verify --cue read it (pure: text
 * in, tables out; fuzzed by tests/fuzz/fuzz_cue.c).  What it takes, after the CDRWIN
 * convention redump.org and cdrdao's toc2cue write (GNU ccd2cue manual;
 * redumper cd/toc.ixx printCUE):
 *   FILE "name" BINARY             the tracks that follow are in this file
 *   TRACK nn MODE1/2048|MODE1/2352|MODE2/2352|AUDIO
 *   INDEX 00 mm:ss:ff, INDEX 01 mm:ss:ff   times in the FILE, 75 frames a
 *                                  second; index 00 starts the pregap
 *   PREGAP mm:ss:ff                a pregap that is not in the file
 *   REM SESSION nn                 the tracks that follow are in session nn
 *   FLAGS DCP|4CH|PRE ...          the track's Q control bits (mmc.h); SCMS
 *                                  and DATA are taken and ignored
 *   CATALOG nnnnnnnnnnnnn          the disc's Media Catalog Number (13
 *                                  digits; anything else is ignored)
 *   ISRC CCOOOYYSSSSS              the track's ISRC (subchan.h's form;
 *                                  anything else, or outside a TRACK, is
 *                                  ignored)
 *   INDEX nn mm:ss:ff (02..99)     a later index mark of the track (issue
 *                                  33): numbers and times rise within it
 *   TITLE, PERFORMER, SONGWRITER, COMPOSER, ARRANGER, MESSAGE "text"
 *                                  CD-TEXT (cd/cdtext.h): the disc's
 *                                  before the first TRACK, a track's after
 *                                  its TRACK (the text as it stands; the
 *                                  emulated drive serves it as READ TOC
 *                                  format 5)
 * POSTGAP and other REM lines are accepted and ignored.  Anything else is
 * an error naming its line, and so is a line longer than CUE_LINE_MAX
 * characters (never cut: the rest of it would be lost unseen) and, unless
 * CUE_ANY_PATH is given, a FILE outside the sheet's folder: an absolute
 * name or one with a ".." part (a sheet from elsewhere must not make a
 * reader open any file it names, issue 32).
 */
#ifndef CDT_CUE_H
#define CDT_CUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cd/cdtext.h"

#define CUE_MAX_TRACKS 99
/* the CD-TEXT a sheet holds: cd_text_field's first six, TITLE..MESSAGE */
#define CUE_TEXT_FIELDS (CD_TEXT_MESSAGE + 1)
#define CUE_MAX_FILES 99
#define CUE_LINE_MAX 1023	/* characters a line may have, its end aside */
#define CUE_MAX_MARKS 1024	/* INDEX 02..99 lines a sheet may have */

/* cue_parse's flags */
#define CUE_ANY_PATH 0x1u	/* FILE names outside the sheet's folder are taken */
/* cue_parse's answer when a FILE lies outside and CUE_ANY_PATH is not given */
#define CUE_EOUTSIDE (-2)

enum cue_mode {
	CUE_MODE1_2048,
	CUE_MODE1_2352,
	CUE_MODE2_2352,
	CUE_AUDIO,
};

struct cue_track {
	uint32_t number;
	uint32_t session;
	uint32_t file;		/* index into the sheet's files */
	enum cue_mode mode;
	int64_t index0;		/* frames into the file; -1 without INDEX 00 */
	int64_t index1;		/* frames into the file */
	uint64_t pregap;	/* PREGAP frames (not stored in the file) */
	uint8_t flags;		/* FLAGS as Q control bits: MMC_CONTROL_* */
	char isrc[13];		/* ISRC, "" without one */
	/* its INDEX 02..99 lines: the sheet's marks[mark0 .. mark0 + n_marks) */
	uint16_t mark0, n_marks;
};

/* An INDEX 02..99 line: its number and its time in the track's FILE. */
struct cue_mark {
	uint8_t number;
	int64_t at;		/* frames into the file */
};

struct cue_sheet {
	unsigned int n_files, n_tracks;
	char catalog[14];	/* CATALOG, "" without one */
	char *files[CUE_MAX_FILES];	/* as written in the sheet */
	struct cue_track tracks[CUE_MAX_TRACKS];
	/* CD-TEXT: [0] the disc's, [n] track number n's; NULL where absent */
	char *text[CUE_MAX_TRACKS + 1][CUE_TEXT_FIELDS];
	unsigned int n_marks;
	struct cue_mark marks[CUE_MAX_MARKS];	/* by track, then number */
};

/*
 * text of len bytes (need not end in NUL), flags CUE_ANY_PATH or 0; 0, or
 * with err set -1, or CUE_EOUTSIDE for a FILE outside the sheet's folder.
 */
int cue_parse(const char *text, size_t len, unsigned int flags,
	      struct cue_sheet *out, char *err, size_t errlen);
/* name lies in the sheet's folder or below: not absolute, no ".." part */
bool cue_path_inside(const char *name);
void cue_free(struct cue_sheet *c);
/*
 * The FLAGS words of control's bits ("DCP 4CH PRE", in CDRWIN's order)
 * into buf; what snprintf returns, 0 for none.
 */
int cue_flags_text(uint8_t control, char *buf, size_t len);
/* Bytes a sector of mode takes in its file. */
unsigned int cue_sector_size(enum cue_mode mode);

/* Where track t starts in its FILE, in sectors: INDEX 00, else INDEX 01. */
static inline int64_t cue_extent_start(const struct cue_track *t)
{
	return t->index0 >= 0 ? t->index0 : t->index1;
}

/*
 * The path of FILE name, relative to the sheet at sheet_path (as every
 * CUE reader takes it; an absolute name as it is: whether one is taken
 * at all is cue_parse's to say), into buf; -1 with errno ENAMETOOLONG
 * when it does not fit.
 */
int cue_file_path(const char *sheet_path, const char *name, char *buf, size_t len);

/*
 * Sectors track i's FILE, file_bytes long, holds for it from its extent's
 * start: to the next track's in the same FILE, else to the FILE's end.
 * 0, or -1 with *why and *track (the track at fault) set: the tracks of
 * one FILE differ in sector size, or the FILE ends before INDEX 01.
 */
int cue_stored_sectors(const struct cue_sheet *c, unsigned int i,
		       uint64_t file_bytes, uint64_t *n, const char **why,
		       unsigned int *track);

#endif
