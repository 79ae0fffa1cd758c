// SPDX-License-Identifier: MIT
/*
 * The files of image --raw and the CUE sheet (rawplan.h).  The sheet
 * follows Redump's layout (redumper cd/toc.ixx printCUE, REAL-DISCS.md):
 * a FILE per track, its pregap stored at the file's start (INDEX 00
 * 00:00:00, INDEX 01 at the pregap's length), REM SESSION nn before a
 * session's first FILE on a multi-session disc, CATALOG first and ISRC
 * after FLAGS (as redumper and the CDRWIN convention place them) where
 * the drive gave them, CD-TEXT (put_text) after CATALOG for the disc and
 * after TRACK for a track; what cdtail adds is in
 * REM lines, which every reader skips (libcue, libcdio, bchunk, cuetools,
 * libMirage): the offset correction, how audio was checked, a TAO run-out
 * left out, a hidden tail.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jobs/rawplan.h"
#include "cd/cue.h"

#define FRAMES_PER_SECOND 75

/* Where track i's file ends: the next track's pregap in its session, its own end. */
static uint64_t file_end(const struct cdt_layout *l, size_t i, uint64_t extent)
{
	const struct cdt_track *t = &l->tracks[i], *next = i + 1 < l->n_tracks ?
		&l->tracks[i + 1] : NULL;
	uint64_t end = t->start + t->blocks - (t->runout ? 2 : 0);

	if (next && next->session == t->session && next->start - next->pregap < end)
		end = next->start - next->pregap;
	/* the last track holds a hidden tail; never past the extent */
	if (!next || end > extent)
		end = !next && !t->runout ? extent : end < extent ? end : extent;
	return end;
}

/*
 * The index marks 02..99 of each file's track that lie in the file (issue
 * 33): the layout keeps them by track, then number.
 */
static void plan_marks(const struct cdt_layout *l, struct raw_plan *p)
{
	size_t i, k = 0;

	p->qmarks = l->qmarks;
	for (i = 0; i < p->n; i++) {
		struct raw_file *f = &p->f[i];

		while (k < l->n_indexes && l->indexes[k].track < f->t->number)
			k++;
		f->marks = l->indexes + k;
		while (k < l->n_indexes && l->indexes[k].track == f->t->number &&
		       l->indexes[k].lba >= f->first && l->indexes[k].lba < f->first + f->n) {
			f->n_marks++;
			k++;
		}
	}
}

int raw_plan_make(const struct cdt_layout *l, uint64_t extent, struct raw_plan *p)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	if (!l || !l->n_tracks)
		return CDT_EUSAGE;
	p->f = calloc(l->n_tracks, sizeof(*p->f));
	if (!p->f)
		return CDT_ENOMEM;
	p->extent = extent;
	p->multisession = l->sessions > 1;
	for (i = 0; i < l->n_tracks; i++) {
		const struct cdt_track *t = &l->tracks[i];
		struct raw_file *f = &p->f[p->n];
		uint64_t pregap = i && t->pregap <= t->start ? t->pregap : 0;
		uint64_t end = file_end(l, i, extent);

		if (t->start - pregap >= end)
			continue;	/* past the extent: nothing of it is read */
		f->t = t;
		f->first = t->start - pregap;
		f->pregap = pregap;
		f->n = end - f->first;
		f->runout = t->runout ? 2 : 0;
		f->stream = p->total;
		p->total += f->n;
		p->n++;
	}
	plan_marks(l, p);
	return p->n ? 0 : CDT_EUSAGE;
}

void raw_plan_free(struct raw_plan *p)
{
	free(p->f);
	memset(p, 0, sizeof(*p));
}

const struct raw_file *raw_plan_find(const struct raw_plan *p, uint64_t k)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct raw_file *f = &p->f[mid];

		if (k < f->stream)
			hi = mid;
		else if (k >= f->stream + f->n)
			lo = mid + 1;
		else
			return f;
	}
	return NULL;
}

const struct raw_file *raw_plan_at_lba(const struct raw_plan *p, uint64_t lba)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (lba >= p->f[i].first && lba < p->f[i].first + p->f[i].n)
			return &p->f[i];
	return NULL;
}

void raw_bin_name(char *out, size_t cap, const char *base, unsigned int number,
		  size_t n_tracks)
{
	if (n_tracks == 1)
		snprintf(out, cap, "%s.bin", base);
	else
		snprintf(out, cap, n_tracks > 9 ? "%s (Track %02u).bin" : "%s (Track %u).bin",
			 base, number);
}

static const char *cue_mode(const struct cdt_track *t)
{
	if (t->mode == CDT_TRACK_AUDIO)
		return "AUDIO";
	switch (t->sector_mode) {
	case CDT_SECTOR_MODE2:
	case CDT_SECTOR_MODE2_FORM1:
	case CDT_SECTOR_MODE2_FORM2:
		return "MODE2/2352";
	default:
		return "MODE1/2352";
	}
}

/* snprintf that appends at *used and never writes past cap */
#define PUT(...) (*used += (size_t)snprintf(out + (*used < cap ? *used : cap), \
					   *used < cap ? cap - *used : 0, __VA_ARGS__))

static void put_msf(char *out, size_t cap, size_t *used, const char *what, uint64_t f)
{
	PUT("    %s %02" PRIu64 ":%02" PRIu64 ":%02" PRIu64 "\n", what,
	    f / (60 * FRAMES_PER_SECOND), f / FRAMES_PER_SECOND % 60, f % FRAMES_PER_SECOND);
}

static void put_notes(char *out, size_t cap, size_t *used, const struct raw_sheet_notes *n)
{
	if (!n->has_audio)
		return;
	if (n->offset_set)
		PUT("REM cdtail: audio offset-corrected by %+d samples (the drive's read offset)\n",
		    n->offset_samples);
	else
		PUT("REM cdtail: audio not offset-corrected (no --offset)\n");
	PUT(n->audio_checked ? "REM cdtail: audio checked with C2 error pointers\n" :
	    "REM cdtail: audio not checked: the drive gives no C2 error pointers\n");
}

/*
 * CD-TEXT lines of track n (0: the disc), the first block's, as redumper
 * (cd/toc.ixx printCDTextCUE) and EAC write them: TITLE, PERFORMER,
 * SONGWRITER, then COMPOSER, ARRANGER, MESSAGE (CDRWIN's CD-TEXT words,
 * which libcue and cdrdao read too), each text in double quotes.  A CUE
 * sheet has no escape for a double quote: one in the text is written
 * \x22, as the text's other unconvertible bytes are (cdt_read_cd_text).
 * A line longer than sheet readers take (cd/cue.h, CUE_LINE_MAX) is not
 * cut: a REM says the text is in the JSON only.
 */
static void put_text(char *out, size_t cap, size_t *used, const struct cdt_text_block *b,
		     unsigned int n, const char *indent)
{
	unsigned int f;
	const char *c;

	for (f = 0; b && n <= CDT_TEXT_TRACKS && f < CDT_TEXT_FIELDS; f++) {
		size_t len = strlen(indent) + strlen(cdt_text_field_name(f)) + 3;

		if (!b->text[n][f])
			continue;
		for (c = b->text[n][f]; *c; c++)
			len += *c == '"' ? 4 : 1;
		if (len > CUE_LINE_MAX) {
			PUT("%sREM cdtail: CD-TEXT %s longer than a sheet line: in the JSON only\n",
			    indent, cdt_text_field_name(f));
			continue;
		}
		PUT("%s%s \"", indent, cdt_text_field_name(f));
		for (c = b->text[n][f]; *c; c++)
			if (*c == '"')
				PUT("\\x22");
			else
				PUT("%c", *c);
		PUT("\"\n");
	}
}

/* INDEX 02..99 at their times in the file, as the CDRWIN convention has them */
static void put_marks(char *out, size_t cap, size_t *used, const struct raw_file *f)
{
	char what[16];
	size_t i;

	for (i = 0; i < f->n_marks; i++) {
		snprintf(what, sizeof(what), "INDEX %02u", f->marks[i].number);
		put_msf(out, cap, used, what, f->marks[i].lba - f->first);
	}
}

/*
 * Where Q did not give the pregaps and index marks, the sheet says so:
 * a reader must not take a missing INDEX 00 or 02 for the disc's word.
 */
static void put_qmarks(char *out, size_t cap, size_t *used, const struct raw_plan *p)
{
	if (p->qmarks == CDT_QMARKS_NO_Q)
		PUT("REM cdtail: the drive gives no subchannel Q: pregaps as its other answers "
		    "say, index marks not known\n");
	else if (p->qmarks == CDT_QMARKS_PARTLY)
		PUT("REM cdtail: Q could not be read for every track: their pregaps as the "
		    "drive's other answers say, index marks not known\n");
}

static void put_track(char *out, size_t cap, size_t *used, const struct raw_plan *p,
		      const struct raw_file *f, const char *base)
{
	char name[4096], flags[16];

	raw_bin_name(name, sizeof(name), base, f->t->number, p->n);
	PUT("FILE \"%s\" BINARY\n  TRACK %02u %s\n", name, f->t->number, cue_mode(f->t));
	put_text(out, cap, used, p->text, f->t->number, "    ");
	if (cue_flags_text(f->t->control, flags, sizeof(flags)))
		PUT("    FLAGS %s\n", flags);
	if (f->isrc[0])
		PUT("    ISRC %s\n", f->isrc);
	if (f->pregap)
		put_msf(out, cap, used, "INDEX 00", 0);
	put_msf(out, cap, used, "INDEX 01", f->pregap);
	put_marks(out, cap, used, f);
	if (f->runout)
		PUT("REM cdtail: %" PRIu64 " TAO run-out blocks after track %u, not stored\n",
		    f->runout, f->t->number);
}

size_t raw_sheet(char *out, size_t cap, const struct raw_plan *p,
		 const char *base_name, const struct raw_sheet_notes *notes)
{
	size_t n = 0, *used = &n, i;
	unsigned int session = 0;

	if (cap)
		out[0] = '\0';
	if (p->catalog[0])
		PUT("CATALOG %s\n", p->catalog);
	put_text(out, cap, used, p->text, 0, "");
	put_notes(out, cap, used, notes);
	put_qmarks(out, cap, used, p);
	for (i = 0; i < p->n; i++) {
		const struct raw_file *f = &p->f[i];

		if (p->multisession && f->t->session != session)
			PUT("REM SESSION %02u\n", f->t->session);
		session = f->t->session;
		put_track(out, cap, used, p, f, base_name);
	}
	if (p->reported && p->extent > p->reported)
		PUT("REM cdtail: hidden tail of %" PRIu64 " sectors past the reported end, in track %u's file\n",
		    p->extent - p->reported, p->f[p->n - 1].t->number);
	return n;
}
