/* SPDX-License-Identifier: MIT */
/*
 * What identifies a disc (not the drive: a disc moved to another drive to
 * read its bad areas is still the same disc): the block size, the image's
 * extent, and the SHA-256 of a few fixed blocks, the volume descriptors
 * (LBA 16, 17: ISO 9660; 256: the UDF anchor), LBA 0, the last block and
 * blocks spread evenly over the disc.  A block is recorded when the
 * imaging passes read it good (no read of its own: a damaged or flaky
 * disc behaves as without the record); one that never reads stays out.
 *
 * Kept in the map as comment lines, which GNU ddrescue skips:
 *   # cdtail identity: block_size=2048 extent=3000 true_blocks=3000
 *   # cdtail identity block 16 sha256=<64 hex digits>
 * While image copies the reported extent before its end search, the first
 * line ends in " search=pending": the extent is provisional, the true end
 * not yet known, and a resume runs the search (image.c, data first).
 * A search that stopped at the --max-extra window, not at an end it found,
 * ends the line in " max_extra=M search=window" (M the window used): the
 * extent is the window's edge, and a resume whose window reaches further
 * searches on from the record's true_blocks (issue 28, B).  A record
 * without either (an older cdtail's) is a search that found its end.
 */
#ifndef CDT_IDENTITY_H
#define CDT_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"

#define ID_MAX_BLOCKS 16
#define ID_TEXT_MAX 2048

struct disc_id {
	bool present;
	bool pending;		/* the end search is still to come */
	bool window;		/* the search stopped at the window, max_extra */
	uint64_t max_extra;	/* the window's --max-extra, with window */
	uint32_t block_size;
	uint64_t extent, true_blocks;
	unsigned int n;
	uint64_t lba[ID_MAX_BLOCKS];
	uint8_t sha256[ID_MAX_BLOCKS][32];
	/* the blocks to record (id_init), nwant of them */
	unsigned int nwant;
	uint64_t want[ID_MAX_BLOCKS];
};

/* The blocks an identity of a disc of extent blocks reads; returns n. */
unsigned int id_pick(uint64_t extent, uint64_t *lba);

/* A record of no block yet for this disc, its blocks picked. */
void id_init(struct disc_id *id, uint32_t block_size, uint64_t extent,
	     uint64_t true_blocks);

/*
 * Only blocks below end are picked (end < the extent: filler past it, which
 * identifies no disc).  Before any id_note.
 */
void id_pick_below(struct disc_id *id, uint64_t end);

/*
 * n blocks from lba read good into buf: record the picked ones among them
 * not recorded yet.  0 or CDT_ENOMEM.
 */
int id_note(struct disc_id *id, uint64_t lba, uint32_t n, const uint8_t *buf);

/*
 * How the recorded blocks are read: the disc reader's call
 * (engine/reader.h reader_read, a floor above this one, hands itself in).
 */
typedef int id_read_fn(void *ctx, uint64_t lba, uint32_t n, uint8_t *buf,
		       struct cdt_read_result *rr);

/*
 * Read the recorded blocks again through read (buf holds one block).  0
 * when every one that reads is equal and at least one read (*matched of
 * them); 1 when one differs (*lba); 2 when none could be read;
 * CDT_ECHANGED or a device error.
 */
int id_check(id_read_fn *read, void *read_ctx, const struct disc_id *id,
	     uint8_t *buf, unsigned int *matched, uint64_t *lba);

/* The comment lines, without "# " on the first (map_write adds them). */
void id_format(const struct disc_id *id, char *out, size_t len);

/* Read back by the map's one record parser: id_parse (records.h). */

#endif
