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

#endif
