/* SPDX-License-Identifier: MIT */
/*
 * Pregaps and index marks from subchannel Q (probe/qindex.c, issue 33):
 * where Q's index turns from 00 to 01 before each track, and every later
 * index mark (02..99) in it, found by bounded searches over Q read one
 * sector at a time, never by a scan of the disc.  The searches are pure
 * over a "read Q at one LBA" function, so they are unit-tested with
 * scripted discs; probe_q_marks() runs them on the drive.
 */
#ifndef CDT_PROBE_QINDEX_H
#define CDT_PROBE_QINDEX_H

#include <stdbool.h>
#include <stdint.h>
#include "cd/subq.h"

struct cdt_dev;
struct probe_findings;

/* What one read of Q at an LBA gave. */
enum qi_got {
	QI_GOT_Q,		/* a mode 1 Q naming that LBA, its CRC not wrong */
	QI_GOT_NOTHING,		/* READ CD failed */
	QI_GOT_UNUSABLE,	/* a wrong CRC, another LBA, another ADR but 2/3 */
	/*
	 * A mode 2 or 3 Q (the catalogue number, an ISRC) with a CRC not
	 * wrong: a frame without a position, which goes with the position
	 * before it (see qindex.c)
	 */
	QI_GOT_NO_POSITION,
};

typedef enum qi_got (*qi_read_fn)(void *ctx, int64_t lba, struct cd_subq *q);

/* A track as the searches see it. */
struct qi_track {
	unsigned int number;
	int64_t start;		/* its index 01 as the TOC gives it */
	/*
	 * Its pregap begins at floor or later: the track before's start + 1,
	 * or, for a session's first track, start - 150 (the pregap the
	 * session's lead-in leaves: Orange Book; CONTRACT's gaps).
	 */
	int64_t floor;
	bool gap_below;		/* a read that fails there is the session gap */
	int64_t end;		/* past its own last block (the next pregap's start) */
};

/* A search's reads are at most this many a track: bounded, whatever Q says. */
#define QI_READS_MAX 2048
#define QI_MARKS_MAX 98

struct qi_pregap {
	bool known;		/* Q said where the pregap begins, or that there is none */
	int64_t from;		/* its first LBA; start: no pregap */
	bool index1_differs;	/* Q has index 01 (or later) before the TOC's start */
	unsigned int reads;
};

struct qi_marks {
	bool known;		/* Q at the track's end and every mark found */
	unsigned int n;
	uint8_t number[QI_MARKS_MAX];
	int64_t lba[QI_MARKS_MAX];
	unsigned int reads;
};

/*
 * Where t's pregap begins: Q at start - 1 says whether there is one (index
 * 00 of t); then the standard 2 seconds (start - 150, start - 151) are
 * tried first, and halving finds any other length down to t->floor.
 */
void qi_find_pregap(const struct qi_track *t, qi_read_fn fn, void *ctx,
		    struct qi_pregap *out);

/*
 * t's index marks 02..99: Q at its last block gives the highest; each
 * mark's first block is found by halving between the blocks already read.
 */
void qi_find_marks(const struct qi_track *t, qi_read_fn fn, void *ctx,
		   struct qi_marks *out);

/*
 * Both searches on the drive, into pf->layout: every track's pregap as Q
 * marks it (a session's first track's too; track 1's lies before LBA 0
 * and is not searched), the track before ending where it begins, and its
 * index marks; qmarks, q_reads, q_differs and indexes set.  Only where the
 * drive reads raw sectors that can be trusted (probe_raw_trusted()):
 * formatted Q where it gives it, else raw P-W (cd_pw_to_q).  0 or
 * CDT_ENOMEM.
 */
int probe_q_marks(struct cdt_dev *dev, struct probe_findings *pf);

/*
 * probe_q_marks() after the end search, published for cdt_dev_layout()
 * and its reads counted in res's stats: 0, CDT_ENOMEM, or CDT_ECHANGED
 * when the medium changed while Q was read.
 */
struct cdt_probe_result;
int probe_q_marks_published(struct cdt_dev *dev, struct probe_findings *pf,
			    struct cdt_probe_result *res);

#endif
