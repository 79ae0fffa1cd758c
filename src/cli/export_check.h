/* SPDX-License-Identifier: MIT */
/*
 * What export checks before it seals an image (issue 34): the image's
 * acquisition record (OUT.log beside it, or --log FILE) and its map
 * (--map, the map the record names, or OUT.map beside it).  Each check
 * that fails is a finding: without --unchecked the first refuses the
 * export (exit 2, the reason and the remedy); with it every finding is
 * kept, and the E01's notes and export's output say so.
 */
#ifndef CDT_CLI_EXPORT_CHECK_H
#define CDT_CLI_EXPORT_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "acqread.h"

#define CHK_MAX_FINDINGS 8
/* ewfinfo 20140813 prints a header value of up to 511 bytes, and none longer */
#define CHK_NOTES_MAX 511

/* The checks export made, each set in export_check.passed where it held. */
enum {
	CHK_VERDICT = 1,	/* the record's run finished */
	CHK_EXTENT = 2,		/* the record's extent is IMAGE's size */
	CHK_MAP = 4,		/* the map covers IMAGE and is finished */
	CHK_IDENTITY = 8,	/* the map's identity blocks equal IMAGE's */
	CHK_DIGESTS = 16,	/* the record's digests equal export's */
};

struct export_check {
	const char *image;
	uint64_t bytes;			/* IMAGE's size */
	bool unchecked;
	const char *log;		/* the record's path, or NULL: none found */
	const char *map;		/* the map's path, or NULL */
	char log_buf[4096], map_buf[4096];
	bool have_record;
	struct acq_record rec;
	unsigned int id_blocks;		/* identity blocks compared, all equal */
	unsigned int passed;		/* CHK_* of the checks that held */
	char refusal[1024];		/* the refusing finding's message (the record's error) */
	unsigned int n_findings;
	char findings[CHK_MAX_FINDINGS][512];
};

/*
 * Find and read the record and find the map (log_opt, map_opt: the paths
 * given, or NULL), and check IMAGE against the record: its verdict, its
 * extent.  0 to go on (findings kept with unchecked), else the exit
 * status after printing why.
 */
int chk_record(struct export_check *c, const char *log_opt, const char *map_opt);

/* Every identity block of the map against IMAGE's (open as fd): the disc's SHA-256.  As chk_record. */
int chk_identity(struct export_check *c, int fd);

/* A finding of the caller's own check (export_check.h's rule); 0 or the exit status. */
int chk_finding(struct export_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The digests export computed while it read IMAGE, against the record's
 * (hex; sha1 compared only where the record has one).  0 when they agree
 * or the record has none, else the exit status after printing why
 * (unchecked: kept as a finding, 0).
 */
int chk_digests(struct export_check *c, const char *md5, const char *sha1, const char *sha256);

/*
 * The E01's notes: the examiner's notes, what was checked or, with
 * --unchecked, that it was not and why, the SHA-256 (sha256: the image's
 * as export read it, or NULL: the record's, which export then checks;
 * for readers that know no xhash section, ewf.h), the verdict, the
 * medium and its size sources; cut at CHK_NOTES_MAX bytes.
 */
void chk_notes(const struct export_check *c, const char *user_notes, const char *sha256,
	       char *out, size_t len);

/* The acquisition's start from the record ("2026-12-07T17:14:38[.mmm]Z"); 0 if unsaid. */
time_t chk_started(const struct export_check *c);

#endif
