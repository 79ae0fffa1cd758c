/* SPDX-License-Identifier: MIT */
/*
 * The areas of a disc's extent that image, tail and verify never read
 * with READ(10)/(12) because they are not data (struct cdt_skip): the
 * layout's audio tracks, gaps between sessions and run-outs, and on a
 * formatted rewritable medium the unwritten space past the filesystem.
 * They are zeros in OUT and in the digests, finished ('+') in the map so
 * GNU ddrescue never reads them either, and listed in one map comment
 *   # cdtail skipped (not data; LBA+blocks): 150+300 audio, 11700+11400 gap
 * so a resume (and `cdtail map`) knows them from bad or unread blocks.
 */
#ifndef CDT_SKIP_H
#define CDT_SKIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"
#include "book/mapfile.h"

struct skip_plan {
	struct cdt_skip *v;		/* n of them, ascending, not overlapping */
	size_t n;
	uint64_t blocks;		/* their blocks */
};

/* The comment line's first words; a line with them is cdtail's list. */
#define SKIP_TAG "cdtail skipped"

/*
 * The most areas a list may hold: a CD has at most 99 tracks, so at most
 * 99 audio tracks and pregaps, 98 gaps and 99 run-outs, plus one
 * unwritten rest, and runs of Form 2 sectors found while reading
 * (skip_add) up to the bound; a Form 2 block past it stays a bad block.
 * A longer list is no list cdtail wrote and is refused (CDT_EFORMAT).
 */
#define SKIP_MAX_AREAS 512

/*
 * The plan for [0, *extent) of a probed disc: the layout's skip list and,
 * when the probe noted a formatted medium, [filesystem, *extent) as
 * unwritten (CDT_FORMATTED_SKIP) or *extent cut to the filesystem
 * (CDT_FORMATTED_CUT).  0 or CDT_ENOMEM; free with skip_free().
 */
int skip_plan_make(const struct cdt_layout *l, const struct cdt_probe_result *p,
		   enum cdt_formatted_policy policy, uint64_t *extent,
		   struct skip_plan *out);

void skip_free(struct skip_plan *s);

/* The skipped area holding lba, or NULL. */
const struct cdt_skip *skip_at(const struct skip_plan *s, uint64_t lba);

/* The first skipped LBA at or after lba; UINT64_MAX when there is none. */
uint64_t skip_next(const struct skip_plan *s, uint64_t lba);

/*
 * Block lba found while reading to be why (CDT_SKIP_FORM2): into the
 * plan, in order, joined to an area of the same why it touches.  0,
 * CDT_ENOMEM, or CDT_EFORMAT when the plan holds SKIP_MAX_AREAS already
 * or lba is skipped already.
 */
int skip_add(struct skip_plan *s, uint64_t lba, enum cdt_skip_why why);

/*
 * One step of an in-order walk over the extent (verify's whole disc,
 * tail's compared window): from lba, the skipped area holding it, whole
 * (*skipped set), else the data blocks up to the next skipped area or
 * end, at most chunk.  Returns the blocks the step covers (lba < end).
 */
uint64_t skip_step(const struct skip_plan *s, uint64_t lba, uint64_t end,
		   uint32_t chunk, bool *skipped);

/* Mark every area finished in m (bytes, bs-byte blocks).  0 or CDT_ENOMEM. */
int skip_mark(const struct skip_plan *s, struct cdt_map *m, uint32_t bs);

/*
 * The comment line, without "# " (map_write adds it), into out; "" when
 * there is nothing skipped.  Needs at most skip_text_len() + 1 bytes.
 */
void skip_format(const struct skip_plan *s, char *out, size_t cap);
size_t skip_text_len(const struct skip_plan *s);

/*
 * Find cdtail's list in a map file's text (all of it, comments and runs):
 * 0 with the areas in out (none when there is no such line), CDT_EFORMAT
 * when the line is damaged, CDT_ENOMEM.  Pure; bounded by len.
 */
int skip_parse(const char *text, size_t len, struct skip_plan *out);

/* A copy of the plan's areas for a result (NULL when none). */
int skip_copy(const struct skip_plan *s, struct cdt_skip **v, size_t *n,
	      uint64_t *blocks);

/* The same for the parts of the areas inside [from, to).  0 or CDT_ENOMEM. */
int skip_copy_range(const struct skip_plan *s, uint64_t from, uint64_t to,
		    struct cdt_skip **v, size_t *n, uint64_t *blocks);

/* Skipped blocks inside [from, to). */
uint64_t skip_blocks_in(const struct skip_plan *s, uint64_t from, uint64_t to);

/*
 * The LBA from which [start, end) holds count data (not skipped) blocks;
 * 0 when all of [0, end) holds fewer.  tail compares that window.
 */
uint64_t skip_window_start(const struct skip_plan *s, uint64_t end, uint64_t count);

/* Free a result's copy; safe on a zeroed result, idempotent. */
void skip_result_free(struct cdt_skip **v, size_t *n, uint64_t *blocks);

#endif
