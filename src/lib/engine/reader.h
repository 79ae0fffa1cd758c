/* SPDX-License-Identifier: MIT */
/*
 * The one disc reader (issue 31): every read of user data (READ 10/12/16,
 * reader.c) or of raw sectors (READ CD, reader_raw.c) that a job makes
 * goes through reader_read(), which has the rescue engine's read hook's
 * signature (engine.h, struct rescue's read).  It splits every command to
 * the device's largest transfer in bytes (the queue's max_hw_sectors: a
 * longer SG_IO fails with EINVAL before the drive sees it), so no caller
 * sizes a command itself, and answers with the public class of the
 * answer table (mmc/answer.c through core/cmds.c): OK, SHORT, MEDIUM (a
 * bad block), WRONG_MODE, END, TIMEOUT, CHANGED, FATAL.  The first piece
 * that does not arrive whole ends the read with its class; resid then
 * counts every byte of the span that did not arrive (the pieces after it
 * included), in the caller's units: the block size, or 2352 a raw sector.
 * No caller decodes sense bytes.
 *
 * The raw reader checks each sector that arrived GOOD, as GNU ddrescue
 * takes a block only when it read: its C2 pointers, when asked for, all
 * clear (an audio sector has no other check) and, where the caller says
 * the sectors are data, sync and a header naming the LBA asked (firmware
 * that answers with a cached sector again: redumper's PLEXTOR notes) and
 * EDC/ECC right (ECMA-130 14.3, 14.5).  The first that is not is a bad
 * block there (MEDIUM, 03/11/00, INFORMATION its LBA), so the passes
 * retry it.
 */
#ifndef CDT_READER_H
#define CDT_READER_H

#include <stdbool.h>
#include <stdint.h>
#include "cdtail.h"

struct cdt_dev;

/* What the raw reader demands of each sector besides its C2 pointers. */
struct reader_expect {
	bool data;		/* a data track's: sync, header, EDC/ECC */
	int64_t gap_end;	/* before this LBA a sector without sync is a
				 * written gap of zeros (a stored pregap) */
};

struct reader {
	struct cdt_dev *dev;
	bool raw;		/* READ CD of whole 2352-byte sectors */
	bool c2;		/* raw: C2 pointers asked for and checked */
	bool pw;		/* raw: P-W asked for along (READ CD 001b) */
	uint8_t *pw_out;	/* raw, pw: each good sector's 96 raw P-W
				 * bytes go here, 96 a sector of the read
				 * (set by the caller per read; NULL: none) */
	uint32_t per;		/* raw: bytes a sector takes in an answer */
	uint32_t cap;		/* raw: sectors the answer buffer holds */
	uint8_t *answer;	/* raw: one command's answer */
	struct reader_expect expect;	/* raw: set by the caller per read */
	/* raw: the sector the last read found not right, if any */
	bool found_bad;
	uint32_t bad_at;	/* its index in that read */
	bool bad_edc;		/* it failed its EDC/ECC */
	/*
	 * The implementation, set by reader_init (reader.c) or
	 * reader_init_raw (reader_raw.c): reader_read and reader_max_sectors
	 * dispatch through them, so the one interface never calls back into
	 * the raw file that builds on it (one reader, two kinds: redumper's
	 * DataReader).
	 */
	uint32_t (*max)(const struct reader *r);
	int (*read_at)(struct reader *r, int64_t lba, uint32_t n, uint8_t *buf,
		       struct cdt_read_result *rr);
};

/* A reader of user data in the device's block size (no allocation). */
void reader_init(struct reader *r, struct cdt_dev *dev);

/*
 * A reader of raw sectors, with C2 pointers when c2; buf receives 2352
 * bytes a sector (the pointers are checked, not handed back).  0 or
 * CDT_ENOMEM; reader_fini() frees it.
 */
int reader_init_raw(struct reader *r, struct cdt_dev *dev, bool c2);
/*
 * The same, with the raw P-W subchannel read along in the same command
 * when pw (96 bytes a sector after the C2 pointers: MMC-3 READ CD), so
 * the largest transfer holds fewer sectors; they reach r->pw_out.
 */
int reader_init_raw_pw(struct reader *r, struct cdt_dev *dev, bool c2, bool pw);
void reader_fini(struct reader *r);

/*
 * Sectors of one command: the device's largest transfer over a
 * sector's bytes, at least 1.
 */
uint32_t reader_max_sectors(const struct reader *r);

/*
 * n sectors from lba into buf (n times the block size, or 2352 raw).
 * Returns 0 when the drive answered (rr says how), or a negative error
 * that ends the run (the device gone, no medium, a signal, a refused
 * command).  The engine's read hook: ctx is the struct reader.
 */
int reader_read(void *ctx, uint64_t lba, uint32_t n, uint8_t *buf,
		struct cdt_read_result *rr);

/* reader_max_sectors() of a raw reader. */
uint32_t reader_raw_max(const struct reader *r);

/* The raw reader at a signed LBA: a pregap before LBA 0 is negative. */
int reader_read_raw(struct reader *r, int64_t lba, uint32_t n, uint8_t *buf,
		    struct cdt_read_result *rr);

/* The sectors of n that arrived whole, by rr's residual (unit: bytes a sector). */
static inline uint32_t reader_arrived(const struct cdt_read_result *rr,
				      uint32_t n, uint32_t unit)
{
	uint64_t missing = ((uint64_t)rr->resid + unit - 1) / unit;

	return missing >= n ? 0 : n - (uint32_t)missing;
}

#endif
