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
 * CATALOG, ISRC, FLAGS, TITLE, PERFORMER, SONGWRITER, POSTGAP and other REM
 * lines are accepted and ignored; INDEX 02 and above too.  Anything else is
 * an error naming its line.
 */
#ifndef CDT_CUE_H
#define CDT_CUE_H

#include <stddef.h>
#include <stdint.h>

#define CUE_MAX_TRACKS 99
#define CUE_MAX_FILES 99

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
};

struct cue_sheet {
	unsigned int n_files, n_tracks;
	char *files[CUE_MAX_FILES];	/* as written in the sheet */
	struct cue_track tracks[CUE_MAX_TRACKS];
};

/* text of len bytes (need not end in NUL); 0, or -1 with err set. */
int cue_parse(const char *text, size_t len, struct cue_sheet *out,
	      char *err, size_t errlen);
void cue_free(struct cue_sheet *c);
/* Bytes a sector of mode takes in its file. */
unsigned int cue_sector_size(enum cue_mode mode);

#endif
