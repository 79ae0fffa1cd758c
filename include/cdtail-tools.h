/* SPDX-License-Identifier: MIT */
/*
 * cdtail: what the cdtail command line builds on beyond the disc library
 * of cdtail.h (which it includes), exported for tools like it: a logged
 * command and sense data as text (-v), the nearest name for "did you
 * mean" in messages, and a mapfile as a picture (cdtail map, image
 * --svg).  None of it talks to a drive.  The conventions of cdtail.h
 * hold here too.
 */
#ifndef CDTAIL_TOOLS_H
#define CDTAIL_TOOLS_H

#include "cdtail.h"

#ifdef __cplusplus
extern "C" {
#endif

/* exported from libcdtail.so like cdtail.h (libcdtail(3), ABI) */
#pragma GCC visibility push(default)

/*
 * The name of names[0..n) nearest word, when close enough to be a typo of
 * it (one edit for words up to 4 letters, else two; a swap of neighbours
 * is one edit), else NULL: for "did you mean" in messages.
 */
const char *cdt_nearest_name(const char *word, const char *const *names, size_t n);

/*
 * Sense data (fixed or descriptor format, sense_len bytes) as one line,
 * "03/11/00 Medium Error: Unrecovered read error", words from
 * libsgutils2.  Returns 0, or -1 with "no sense data" in buf when the
 * bytes hold no sense.  Never reads past sense_len.
 */
int cdt_sense_text(const uint8_t *sense, size_t sense_len, char *buf,
		   size_t len);

/*
 * A logged command in one line, as sg3_utils' -v words it: "Read(10)
 * lba=100 len=1: Check Condition, Medium Error, Unrecovered read error,
 * Info fld=0x64" (names from libsgutils2; LBA and length for the reads).
 * Never reads past cdb_len or sense_len; buf is always terminated.
 */
void cdt_cmd_text(const struct cdt_cmd_log *log, char *buf, size_t len);

/*
 * Sense data as sg3_utils' sg_get_sense_str (lib/sg_lib.c) words it, on
 * one line with "; " where it breaks lines: "Fixed format, current;
 * Sense key: Medium Error; Additional sense: Unrecovered read error; Info
 * fld=0x64 [100]" ("Descriptor format", "<<<deferred>>>" likewise).
 * Returns 0, or -1 with "no sense data" in buf when the bytes hold none.
 * Never reads past sense_len; buf is always terminated.
 */
int cdt_sense_detail(const uint8_t *sense, size_t sense_len, char *buf, size_t len);

/* ---- map views (cdtail map, image --svg) ----------------------------- */
/*
 * A GNU ddrescue mapfile (cdtail's or ddrescue's own) as a picture: the
 * disc's blocks split into cells, each shown with one status.  A cell that
 * holds blocks of several statuses shows the worst of them (the order of
 * enum cdt_area, last worst), so a single bad block is never hidden.
 * Skipped areas are the non-data areas (audio, gaps, run-outs, unwritten)
 * cdtail records in its own maps as comment lines; ddrescue's maps have
 * none.  The library only computes; the caller draws.
 */
enum cdt_area {
	CDT_AREA_FINISHED = 0,		/* '+' */
	CDT_AREA_SKIPPED,		/* not data: never read with READ(10) */
	CDT_AREA_NONTRIED,		/* '?' */
	CDT_AREA_NONTRIMMED,		/* '*' */
	CDT_AREA_NONSCRAPED,		/* '/' */
	CDT_AREA_BAD,			/* '-' */
	CDT_AREA_COUNT
};

/* "finished", "skipped", "non-tried", "non-trimmed", "non-scraped", "bad" */
const char *cdt_area_name(enum cdt_area a);

struct cdt_mapview_opts {
	size_t size;			/* sizeof(struct cdt_mapview_opts) */
	uint64_t max_cells;		/* at most this many cells; 0 = 4096 */
	uint32_t block_size;		/* bytes per block; 0 = 2048 */
};

/* Consecutive cells of one status. */
struct cdt_cell_run {
	uint64_t cell, cells;		/* first cell, how many */
	uint64_t lba, blocks;		/* the blocks they cover */
	enum cdt_area area;
};

struct cdt_mapview {
	size_t size;			/* sizeof(struct cdt_mapview) */
	uint32_t block_size;
	uint64_t bytes;			/* the map covers [0, bytes) */
	uint64_t blocks;		/* ceil(bytes / block_size) */
	uint64_t cells;			/* ceil(blocks / blocks_per_cell) */
	uint64_t blocks_per_cell;	/* the last cell may hold fewer */
	uint64_t area_bytes[CDT_AREA_COUNT];	/* totals, exact */
	struct cdt_cell_run *runs;	/* n_runs, in cell order */
	size_t n_runs;
	char tool[80];			/* "cdtail version 0.2.0", "" if unsaid */
	char command[512];		/* the "Command line:" comment, or "" */
	char when[40];			/* the "Current time:" comment, or "" */
	char cur_status;		/* ddrescue's current_status character */
	unsigned int cur_pass;
};

/*
 * Read the mapfile at path and fill *view; release it with
 * cdt_mapview_free().  CDT_EOPEN (missing), CDT_EFORMAT (not a mapfile),
 * CDT_EUSAGE (bad options), CDT_ENOMEM, CDT_EIO; err holds one line.
 */
int cdt_mapview_load(const char *path, const struct cdt_mapview_opts *opts,
		     struct cdt_mapview *view, char *err, size_t errlen);
/* The same over a mapfile's text held in buf. */
int cdt_mapview_parse(const char *buf, size_t len,
		      const struct cdt_mapview_opts *opts,
		      struct cdt_mapview *view, char *err, size_t errlen);
void cdt_mapview_free(struct cdt_mapview *view);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif /* CDTAIL_TOOLS_H */
