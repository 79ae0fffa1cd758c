/* SPDX-License-Identifier: MIT */
/*
 * The rescue engine: GNU ddrescue's passes over a map (copy in large
 * chunks skipping ahead on errors, trim the edges of failed chunks, scrape
 * what is left block by block, retry bad blocks), as ddrescue's
 * rescuebook.cc is apart from its main.cc.  It knows a device, a map and
 * a sink; files, locks, identity records, digests and the end search are
 * the jobs' (image.c, tail.c, verify.c), behind the sink.  Three files, each
 * calling only the ones below it: passes.c (passes.h: which blocks to
 * read, in which order), retry.c (retry.h: the learning retry plan), and
 * this header's engine.c (one read: to the sink, into the map, progress,
 * saving).
 *
 * The contract with the sink, which makes a killed run resumable: a block
 * is marked finished in the map only after put() took it, and save() is
 * asked to make the map durable only with every put() before it (the file
 * sink, sink.h, syncs OUT before it replaces the map file).
 */
#ifndef CDT_ENGINE_H
#define CDT_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"
#include "book/mapfile.h"

/*
 * How often a walk of the disc reports progress, at most: every walker
 * (the passes, verify --cue's, the digest of a file) takes this one.
 */
#define RESCUE_PROGRESS_MS 250

/*
 * The drive stopped answering (mmc/answer.h CDT_TIMEOUTS_IN_ROW): reads
 * in a row that time out, each of a block no counted timeout started at,
 * so a block's own retries count once and one block that never answers
 * (a timeout-prone scratch) costs its retries, not the run.  Every job
 * that reads the disc in order (image's copy pass, verify) keeps one.
 */
struct timeout_row {
	unsigned int n;		/* timeouts in the row so far */
	uint64_t last_lba;	/* the first block of the last counted one */
};

/*
 * A read of [lba, ...) answered cls: true when the row reached
 * CDT_TIMEOUTS_IN_ROW.  A read that does not count (a later pass over
 * blocks known to fail, where timeouts are expected and the passes bound
 * them) ends the row, as any answer does.
 */
bool timeout_row_note(struct timeout_row *t, uint64_t lba,
		      enum cdt_read_class cls, bool counts);

/*
 * The run's end when the row is full: the message (the last LBA, and
 * "run the same command again when it answers", with what a resume does
 * when the job has a map) and CDT_ETIMEOUT.
 */
int rescue_stopped_answering(struct cdt_dev *dev, uint64_t lba, bool resumable);

/* Where the blocks the engine reads go; every callback may be NULL. */
struct rescue_sink {
	/* [lba, lba + n) read good, in buf: keep them.  0 or an error
	 * that ends the run (the blocks are then not marked finished). */
	int (*put)(void *ctx, uint64_t lba, uint32_t n, const uint8_t *buf);
	/* a read of [lba, lba + n) failed */
	void (*failed)(void *ctx, uint64_t lba, uint32_t n);
	/*
	 * Block lba alone answered 05/64/00 ILLEGAL MODE FOR THIS TRACK (why
	 * CDT_SKIP_FORM2): it holds no 2048-byte user data (a Mode 2 Form 2
	 * sector, an audio pregap), it is not damaged; or 05/6F/xx, copy
	 * protection (why CDT_SKIP_PROTECTED: a CSS-scrambled sector read
	 * without authentication), whole but refused.  0: the sink listed
	 * it (skipped, zeros in OUT) and the map marks it finished; else it
	 * stays a failed block.  NULL: such blocks are failed blocks.
	 */
	int (*wrong_mode)(void *ctx, uint64_t lba, enum cdt_skip_why why);
	/* make the map as it stands durable.  0 or an error. */
	int (*save)(void *ctx, const struct cdt_map *map);
	/* 06/28/00: 0 the same disc is in, CDT_ECHANGED another, or an
	 * error; buf (cap bytes) is free for reading.  NULL: CDT_ECHANGED. */
	int (*changed)(void *ctx, uint8_t *buf, size_t cap);
	void *ctx;
	/*
	 * The in-order pass (passes.h, rescue_in_order) only: blocks [lba,
	 * lba + n) are settled, every read of them made (read: they were
	 * read, and put, failed and wrong_mode said how; else they were
	 * passed over, never read: an area of the skip plan).  0 goes on, 1
	 * the sink has its answer (the pass ends after this step), or an
	 * error that ends the run.  Last, so that a sink written in order
	 * without it (the passes' tests) needs no change.
	 */
	int (*settled)(void *ctx, uint64_t lba, uint64_t n, bool read);
};

struct rescue {
	/* set by the caller */
	struct cdt_dev *dev;
	struct cdt_map *map;		/* bytes; runs are whole blocks */
	struct rescue_sink sink;
	uint32_t bs;
	uint32_t chunk;			/* blocks per large read */
	uint8_t *buf;			/* chunk * bs bytes */
	const struct cdt_read_opts *rd;	/* stop, progress; or NULL */
	int retries;			/* <0: the learning plan (retry.h) */
	bool once_more;			/* with retries <0: one more try of
					 * every bad block instead (a resume
					 * in another drive, retry.h) */
	unsigned int map_interval_ms;	/* between saves; 0: 5 s */
	double t0;			/* start of the run, rescue_now_ms() */
	/*
	 * How blocks [lba, lba + n) are read into buf (chunk * bs bytes),
	 * answered as reader_read() answers; NULL: the cooked reader
	 * (engine/reader.h).
	 * Raw mode (rawimage.c) reads READ CD here and fails what arrives
	 * GOOD but is not what was written, so the passes retry it.
	 */
	int (*read)(void *ctx, uint64_t lba, uint32_t n, uint8_t *buf,
		    struct cdt_read_result *rr);
	void *read_ctx;
	/*
	 * The medium's unit (rescue_medium_unit): 16 on DVD (an ECC block),
	 * 32 on BD (a cluster), where one defect fails the whole unit; the
	 * trim, scrape and retry reads are then whole units aligned to it,
	 * one failing read per unit, not per block.  0 or 1: single blocks.
	 */
	uint32_t unit;

	/* kept by the engine */
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
	struct timeout_row timeouts;	/* CDT_TIMEOUTS_IN_ROW: stop */
	bool drive_silent;		/* the row is full: stop after marking */
	enum cdt_read_class last_cls;	/* the last read's class */
	bool last_info_valid;		/* its sense named the first bad LBA */
	uint64_t last_info;		/* that LBA, when last_info_valid */
};

/* What a read of a span came to (rescue_try). */
enum span_outcome {
	SPAN_BAD = 0,
	SPAN_GOOD = 1,
	SPAN_WRONG_MODE = 2,	/* one block, listed by the sink: finished,
				 * yet a failed read to the passes */
};

double rescue_now_ms(void);

/*
 * The unit a medium of this profile is written in (ECMA-267: a DVD's ECC
 * block of 16 sectors; the BD cluster of 32, 64 KiB): 16 on DVD, 32 on
 * BD, 1 elsewhere; 1 also where the largest read (max_blocks) or the
 * chunk cannot hold one.
 */
uint32_t rescue_medium_unit(uint16_t profile, uint32_t chunk, uint32_t max_blocks);

/*
 * r->unit for a run on this profile's medium (r->dev and r->chunk set),
 * and r->chunk cut to a whole number of units, so that every read of the
 * passes, copying and in order, stays on the unit grid.
 */
void rescue_fit_unit(struct rescue *r, uint16_t profile);

/*
 * The "one block" read of the trim, scrape and retry passes at lba, no
 * further than limit (exclusive): one block, or with r->unit > 1 up to
 * the end of lba's unit.  rescue_unit_down: the read that ends at end
 * (exclusive), from end - 1's unit start, no lower than floor.
 */
uint32_t rescue_unit_up(const struct rescue *r, uint64_t lba, uint64_t limit);
uint32_t rescue_unit_down(const struct rescue *r, uint64_t end, uint64_t floor);

/*
 * rescue_try of such a read; one of several blocks that failed as not
 * data (05/64/00, or 05/6F/xx copy protection: per sector, not per unit)
 * is read again block by block so each is listed as what it is.  The
 * outcome: SPAN_GOOD when all read, SPAN_BAD when any stayed bad, else
 * SPAN_WRONG_MODE; <0 on error.
 */
int rescue_try_unit(struct rescue *r, uint64_t lba, uint32_t n, char bad_status);

/* The chunk size for a device: want, else min(64 KiB, max transfer). */
uint32_t rescue_chunk_blocks(struct cdt_dev *dev, uint32_t bs, uint32_t want);

/* Reset the save timer and have the sink save the map.  0 or an error. */
int rescue_save(struct rescue *r);

/*
 * Count a failing read that started on lba as this run's (the probe's
 * before the passes): the retry plans take it as a try.  0 or CDT_ENOMEM.
 */
int rescue_note_failure(struct rescue *r, uint64_t lba);

/* Free what the engine kept; safe to call twice. */
void rescue_fini(struct rescue *r);

/* For the passes (passes.c, retry.c): */

/*
 * A read the drive answered with an error that is not the medium's
 * (CDT_READ_FATAL) ends the run: the message, CDT_ETRANSPORT.  verify.c
 * takes such an answer the same way.
 */
int rescue_read_fatal(struct cdt_dev *dev, uint64_t lba,
		      const struct cdt_read_result *rr);

/* Report progress: when force, else at most every RESCUE_PROGRESS_MS. */
void rescue_progress(struct rescue *r, bool force);

/* Enter a phase and pass: the map's current status, a progress report. */
void rescue_enter_phase(struct rescue *r, enum cdt_phase phase, unsigned int pass);

/*
 * Read [lba, lba + n), give what read to the sink, record the outcome in
 * the map (bad_status for a failure), report progress, save when due.
 * SPAN_GOOD, SPAN_BAD, SPAN_WRONG_MODE, or <0: an error that ends the run.
 */
int rescue_try(struct rescue *r, uint64_t lba, uint32_t n, char bad_status);

#endif
