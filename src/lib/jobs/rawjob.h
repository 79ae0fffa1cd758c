/* SPDX-License-Identifier: MIT */
/*
 * image --raw (cdt_image_raw): the job (rawimage.c) and its reads
 * (rawread.c).  The engine (engine.h) runs its passes over the raw
 * stream (rawplan.h) with a sector size of 2352: rawread.c's read hook
 * turns a span of the stream into READ CD commands and fails every
 * sector that arrived GOOD but is not what was written (EDC/ECC, header,
 * C2 pointers), so the passes retry it as they retry a bad block; the
 * sink (rawimage.c) writes the good sectors into the track files.
 */
#ifndef CDT_RAWJOB_H
#define CDT_RAWJOB_H

#include <stdbool.h>
#include <stdint.h>
#include "cdtail.h"
#include "book/book.h"
#include "engine/reader.h"
#include "jobs/rawhash.h"
#include "jobs/rawplan.h"
#include "probe/probe.h"

struct raw_job {
	struct cdt_dev *dev;
	const char *cue_path;
	const struct cdt_raw_opts *opts;
	struct cdt_raw_result *res;
	/* the probe's: the layout with its boundaries settled raw, and its
	 * end (found.extent), the image's end LBA */
	struct probe_findings found;
	struct raw_plan plan;
	/* the map, its lock and records (the identity over stream sectors
	 * of 2352 bytes, the raw line), its saves; the track files and the
	 * sheet are its outputs */
	struct map_book book;
	int *fds;			/* plan.n track files, locked (the book's) */
	char **paths;
	bool c2;			/* read C2 pointers along */
	uint32_t chunk;			/* sectors the engine reads at once */
	struct reader reader;		/* raw, with C2 when c2: every stream read */
	uint8_t *edc_failed;		/* per stream sector: its last read
					 * failed its EDC/ECC */
	int64_t shift;			/* audio bytes to move back: 4 x offset */
	/* --subchannel (rawsub.c): OUT.sub, 96 bytes a stream sector */
	bool pw;			/* P-W read along with every sector */
	int sub_fd;			/* OUT.sub, locked (the book's), or -1 */
	char *sub_path;
	uint8_t *pw_buf;		/* the last raw_read's raw P-W, 96 a sector */
	uint64_t pw_k;			/* its first stream sector */
	uint32_t pw_n;			/* and its sectors (0: none kept) */
	struct rawhash *hash;		/* the files' checksums as written, or NULL */
};

/* The read hook of the engine (engine.h, struct rescue's read). */
int raw_read(void *ctx, uint64_t k, uint32_t n, uint8_t *buf,
	     struct cdt_read_result *rr);

/*
 * The disc's MCN and each track's ISRC into the plan, where the drive
 * gives them (READ SUB-CHANNEL); a drive that refuses them leaves them "".
 */
void raw_read_ids(struct raw_job *j);

/*
 * The disc's CD-TEXT as the job's probe read it (j->found.cd_text, taken
 * over) into j->res->cd_text and its first block into the plan's sheet;
 * none leaves both NULL.  0 (rawtext.c).
 */
int raw_read_text(struct raw_job *j);
/* res->cd_text released (res's size need not reach it) */
void raw_text_free(struct cdt_raw_result *res);

/*
 * BASE.dat beside the sheet (base: the sheet's path without ".cue"): a
 * Logiqx datafile with the sheet's and every BIN's sums, the tracks'
 * hashed already (rawdat.c).  0, CDT_ENOMEM or CDT_EIO with dev's message.
 */
int raw_write_dat(struct raw_job *j, const char *base);

/*
 * --subchannel (rawsub.c).  raw_sub_check: the drive reads raw P-W, or the
 * run is refused before anything is made (CDT_EUSAGE, the message set).
 * raw_sub_open: OUT.sub beside the sheet made (or opened on a resume, where
 * it must exist, as it must not without --subchannel), locked, sized, in
 * the book.  raw_sub_put: stream sectors [k, k + n) of the last raw_read
 * into it, channel by channel.  raw_sub_count: each track's Q CRC errors
 * and zeroed records, read back from OUT.sub after the run (so a resumed
 * run counts what its file holds).  raw_sub_free: what they allocated.
 */
int raw_sub_check(struct raw_job *j);
int raw_sub_open(struct raw_job *j, const char *base);
int raw_sub_put(struct raw_job *j, uint64_t k, uint32_t n);
int raw_sub_count(struct raw_job *j);
void raw_sub_free(struct raw_job *j);
/* A result's subchannel fields freed (cdt_raw_result_free, and a caller
 * built before them). */
void raw_sub_result_free(struct cdt_raw_result *res);

/*
 * --single-file (rawsingle.c).  raw_file_base: where track file i's bytes
 * start in the file that holds them (0, or in OUT.bin its first stream
 * sector's).  raw_single_sheet: the sheet *text made one-FILE in a new
 * buffer of cap bytes, naming OUT.bin (*text replaced); its length (cap
 * or more: not made).  raw_rom_name: the name of track i's OUT.hash line.
 */
uint64_t raw_file_base(const struct raw_job *j, size_t i);
size_t raw_single_sheet(const struct raw_job *j, char **text, size_t cap);
void raw_rom_name(const struct raw_job *j, size_t i, const char *base,
		  char *out, size_t cap);

#endif
