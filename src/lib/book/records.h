/* SPDX-License-Identifier: MIT */
/*
 * The map's comment records, read by one strict parser: GNU ddrescue
 * skips every "# " line, cdtail keeps its own records there:
 *   # cdtail drive: VENDOR PRODUCT REVISION      (image: the drive that read last)
 *   # cdtail identity: block_size=B extent=E true_blocks=T [search state]
 *   # cdtail identity block LBA sha256=HEX       (identity.h)
 *   # cdtail skipped (...): LBA+BLOCKS WHY, ...   (skip.h)
 *   # cdtail raw: sector=2352 stream=the track files in order sectors=S files=F
 * Every number is decimal digits only: a sign, a fraction, trailing
 * letters or a value out of its range is damage, never a value read
 * anyway (sscanf's "%llu" took "-1" as 2^64 - 1, which a resume then
 * reported as true_blocks -1).  The ranges: a block size is one a drive
 * reads in (512, 1024, 2048, 4096) or the raw sector (2352); a count of
 * blocks times the block size stays a file offset (below 2^63 bytes); an
 * extent holds at least one block; a recorded block lies inside it; a
 * search that stopped at its window found its true end below the
 * window's edge; a raw stream has 1 to 99 files.  The true end of a
 * finished search may lie past the extent otherwise (a formatted medium
 * cut at its filesystem; image --raw's stream leaves out the gaps between
 * sessions and the run-outs, which the true end counts).
 */
#ifndef CDT_RECORDS_H
#define CDT_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "book/identity.h"
#include "book/skip.h"

#define DRIVE_HEAD "cdtail drive: "
#define DRIVE_MAX 40
#define RAW_HEAD "cdtail raw: "
#define RAW_WORDS "sector=2352 stream=the track files in order"
#define RAW_FILES_MAX 99

struct book_records {
	struct disc_id id;		/* .present: the map has one */
	struct skip_plan skip;		/* none: .n 0 */
	char drive[DRIVE_MAX];		/* "" none; longer ones cut as written */
	bool raw;			/* a raw line: an image --raw map */
	uint64_t raw_sectors;		/* with raw: the stream's sectors */
	unsigned int raw_files;		/* and its track files */
};

/*
 * Every record of a map file's text.  0, CDT_EFORMAT with why saying
 * which record and what is wrong with it, or CDT_ENOMEM.  Free with
 * records_free, whatever it returned.
 */
int records_parse(const char *text, struct book_records *r, char *why, size_t len);
void records_free(struct book_records *r);

/*
 * The identity record alone: 0 with id->present when found, 0 without
 * it when the map has none, CDT_EFORMAT when it is damaged.
 */
int id_parse(const char *text, struct disc_id *id);

/* The raw line's words after RAW_HEAD, for a stream of sectors in files. */
void records_raw_line(char *out, size_t len, uint64_t sectors, size_t files);

#endif
