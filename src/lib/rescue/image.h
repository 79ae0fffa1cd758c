/* SPDX-License-Identifier: MIT */
/*
 * The rescue engine behind image and tail: GNU ddrescue's passes over a
 * map (copy in large chunks skipping ahead on errors, trim the edges of
 * failed chunks, scrape what is left block by block, retry bad blocks),
 * writing what reads good to an output file at its offset.
 */
#ifndef CDT_IMAGE_H
#define CDT_IMAGE_H

#include <stdbool.h>
#include <stdint.h>
#include "cdtail.h"
#include "rescue/digest.h"
#include "rescue/identity.h"
#include "rescue/mapfile.h"
#include "rescue/skip.h"

struct rescue {
	/* set by the caller */
	struct cdt_dev *dev;
	int fd;				/* output, written with pwrite */
	struct cdt_map *map;		/* bytes; runs are whole blocks */
	uint32_t bs;
	uint32_t chunk;			/* blocks per large read */
	uint8_t *buf;			/* chunk * bs bytes */
	const struct cdt_read_opts *rd;
	int retries;
	const char *map_path;		/* NULL: never saved */
	const char *map_comment;
	unsigned int map_interval_ms;
	struct dg *stream;		/* digest in order while it lasts, or NULL */
	double t0;			/* start of the run, rescue_now_ms() */
	int *map_lock;			/* the locked map's fd (lock.h), or NULL */
	struct disc_id *id;		/* recorded as read, checked after a medium
					 * change; or NULL */
	const struct skip_plan *skip;	/* areas marked finished, never read:
					 * zeros in the stream; or NULL */
	char *comment_buf;		/* with id: map_comment and the record */
	size_t comment_cap;

	/* kept by the engine */
	uint64_t stream_pos;		/* bytes hashed into stream */
	bool stream_broken;
	uint64_t blocks_read;
	uint64_t bytes_read;
	uint64_t failed_reads;		/* reads of this run that failed */
	uint64_t *fail_lba;		/* the first block of each, in order
					 * (a block a failing read surely
					 * tried); rescue_fini frees it */
	size_t fail_cap;
	enum cdt_phase phase;
	unsigned int pass;
	double last_progress_ms;
	double last_save_ms;
};

double rescue_now_ms(void);

/* Run every pass.  0, CDT_EINTR, CDT_EIO or a device error. */
int rescue_run(struct rescue *r);

/* Free what the engine kept; safe to call twice. */
void rescue_fini(struct rescue *r);

/* After 06/28/00: 0 the same disc, CDT_ECHANGED another, or an error. */
int rescue_medium_changed(struct rescue *r);

/* base's lines, then the identity record's, into buf. */
void rescue_comment(char *buf, size_t cap, const char *base, const struct disc_id *id);

/* fdatasync the output, then replace the map file (if any). */
int rescue_save(struct rescue *r);

/* Fill sum->bad, n_bad, bad_blocks from the map's '-' runs. */
int rescue_bad_ranges(const struct cdt_map *map, uint32_t bs,
		      struct cdt_read_summary *sum);

/* The chunk size for a device: opts, else min(64 KiB, max transfer). */
uint32_t rescue_chunk_blocks(struct cdt_dev *dev, uint32_t bs, uint32_t want);

/* pwrite all of it; 0 or CDT_EIO. */
int rescue_pwrite(int fd, const void *buf, size_t len, uint64_t off);

/* Free sum->bad; safe on a zeroed summary, idempotent. */
void rescue_summary_free(struct cdt_read_summary *sum);

/* Probe with the read options' window. */
int rescue_probe(struct cdt_dev *dev, const struct cdt_read_opts *rd,
		 struct cdt_read_summary *sum);

#endif
