/* SPDX-License-Identifier: MIT */
/*
 * The acquisition log of cdtail image: what an examiner files with the
 * image (tool, command, drive, medium, sizes, times, reads, bad areas,
 * digests, verdict), one entry a run appended to OUT.log or --log FILE.
 */
#ifndef CDT_CLI_ACQLOG_H
#define CDT_CLI_ACQLOG_H

#include <stdbool.h>
#include <time.h>
#include "cli.h"

struct acqlog {
	char path[4096];	/* "" with --no-log */
	bool json;		/* entries as JSON lines (--json, or a JSON log) */
	int argc;
	char **argv;		/* the command's words, after "cdtail" */
	struct timespec start;
};

/*
 * Before the run: the log's path (explicit, else OUT.log) and the start
 * time.  explicit_path NULL and no_log false: OUT.log.
 */
void acqlog_begin(struct acqlog *l, const char *out, const char *explicit_path,
		  bool no_log, bool json, int argc, char **argv);

/* What the run ended with, for one entry. */
struct acqlog_run {
	const char *addr, *out;
	const struct cdt_image_opts *io;
	const struct cdt_image_result *res;	/* NULL: the run failed early */
	int status;				/* the exit status */
	const char *verdict;
	const char *error;			/* the failure's message, or NULL */
};

/*
 * Append the entry (the drive asked for its serial number first).  0, or
 * -1 after printing why on stderr: the log is an output the user asked
 * for, so a log that cannot be written makes the run's status 3.
 */
int acqlog_write(const struct acqlog *l, struct cdt_dev *dev, const struct acqlog_run *run);

#endif
