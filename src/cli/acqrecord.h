/* SPDX-License-Identifier: MIT */
/*
 * What an acquisition record is made of (acqlog.h writes it, acqrun.c
 * fills in each kind of run's part): the options as given and what a run
 * ended with.  Types only.
 */
#ifndef CDT_CLI_ACQRECORD_H
#define CDT_CLI_ACQRECORD_H

#include <stdbool.h>
#include "cli.h"

/* The record's options as given. */
struct acqlog_opts {
	const char *log_path;	/* --log FILE */
	bool no_log;		/* --no-log */
	const char *dfxml;	/* --dfxml FILE */
	const char *case_number, *evidence_number, *examiner, *description, *notes;
};

/* The verification pass after an image (--verify-after). */
struct acqlog_verify {
	bool ran;
	int rc;				/* cdt_verify()'s return */
	const struct cdt_verify_result *res;
	const char *error;		/* its message when rc */
};

/* What the run ended with, for one entry. */
struct acqlog_run {
	const char *addr, *out;
	const char *map_path;
	const struct cdt_read_opts *rd;
	unsigned int digests;			/* asked for: CDT_HASH_* or NONE */
	const struct cdt_read_summary *sum;	/* NULL: the run failed early */
	const struct cdt_image_result *image;	/* one of these, or none */
	const struct cdt_raw_result *raw;
	const struct cdt_tail_result *tail;
	const struct cdt_verify_result *verify;
	const struct acqlog_verify *after;	/* --verify-after, or NULL */
	int status;				/* the exit status */
	const char *verdict;
	bool interrupted;
	const char *error;			/* the failure's message, or NULL */
	/* a run without a read summary (export): the bytes it read, its own keys */
	uint64_t bytes;
	json_object *own;
};

#endif
