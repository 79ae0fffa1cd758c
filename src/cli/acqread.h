/* SPDX-License-Identifier: MIT */
/*
 * What export checks an image against, read back: the acquisition log
 * acqlog.c writes (its last entry: entries are appended a run each, so
 * the last says what the image is now; a verify or an export run's entry
 * changes no image and is passed over), in either of its forms, one JSON
 * object a line or the indented "key: value" text built from the same
 * object; and the identity lines of a cdtail map (the SHA-256 of fixed
 * blocks, book/identity.h), which the CLI reads from the map's text
 * itself since the library keeps its parser internal.  Pure parsers over
 * a byte buffer: no embedded length or count is trusted.
 */
#ifndef CDT_CLI_ACQREAD_H
#define CDT_CLI_ACQREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ACQ_MAX_TRACKS 99
#define ACQ_TEXT 256
#define ACQ_LONG 1024

struct acq_track {
	unsigned int number, session;
	uint64_t start, blocks;
};

struct acq_area {
	uint64_t start, blocks;
};

/* "" where the entry does not say; counts with their own has_ flag. */
struct acq_record {
	char run[32];		/* "image", "tail", ...; "" in an older log (image's) */
	char verdict[32];
	bool interrupted;	/* "interrupted": true, whatever the verdict says */
	char started[40];	/* "2026-12-07T17:14:38Z", maybe ".123" before Z */
	char tool[ACQ_TEXT], command[ACQ_LONG], device[ACQ_TEXT], out[ACQ_LONG], map[ACQ_LONG];
	char vendor[ACQ_TEXT], product[ACQ_TEXT], revision[ACQ_TEXT], serial[ACQ_TEXT];
	char profile[ACQ_TEXT], filesystem[ACQ_TEXT], end[ACQ_TEXT];
	char sizes[ACQ_LONG];	/* "read_capacity=N toc_leadout=N ..." as logged */
	uint32_t block_size;	/* 0: not said */
	bool has_extent, has_reported, has_true;
	uint64_t extent_blocks, reported_blocks, true_blocks, bad_blocks;
	char md5[33], sha1[41], sha256[65];
	bool digests_none;	/* the run computed none (--digest none) */
	char case_number[ACQ_TEXT], evidence_number[ACQ_TEXT], examiner[ACQ_TEXT];
	char description[ACQ_LONG], notes[ACQ_LONG];
	unsigned int n_tracks;
	struct acq_track tracks[ACQ_MAX_TRACKS];
	struct acq_area *bad;	/* the run's bad areas, n_bad (acq_free) */
	size_t n_bad;
	bool bad_unread;	/* an area the parser could not read */
};

/*
 * The last entry of a log held in buf[0, len).  0 with *r filled (release
 * it with acq_free), or -1 with err saying what is wrong (no entry, not
 * JSON, a line that is not "key: value", a key twice in one entry).
 */
int acq_parse(const char *buf, size_t len, struct acq_record *r, char *err, size_t errlen);
void acq_free(struct acq_record *r);

/* The same over the file at path; -1 with err (errno kept when it cannot be read). */
int acq_read(const char *path, struct acq_record *r, char *err, size_t errlen);

#define ACQ_ID_MAX 16

/* A map's identity record (book/identity.h's lines). */
struct acq_identity {
	bool present;
	uint32_t block_size;
	uint64_t extent;
	unsigned int n;
	uint64_t lba[ACQ_ID_MAX];
	uint8_t sha256[ACQ_ID_MAX][32];
};

/*
 * The identity lines of a map's text in buf[0, len): 0 (present false
 * when the map has none), or -1 with err for a line that starts as one
 * but is not (a digit out of range, a digest that is not 64 hex digits,
 * a block outside the extent, more blocks than a record holds).
 */
int acq_identity_parse(const char *buf, size_t len, struct acq_identity *id,
		       char *err, size_t errlen);

#endif
