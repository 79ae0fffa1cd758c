/* SPDX-License-Identifier: MIT */
/*
 * The acquisition record of every run that reads evidence or changes a
 * file: image (OUT.log), image --raw (OUT.cue.log), tail (IMAGE.log), verify
 * (with --log FILE).  What an examiner files with the image (tool, host,
 * user, command, case fields, drive, medium, sizes, times, reads, passes,
 * bad areas, digests, the verification pass, verdict), one entry a run
 * appended to the log, and with --dfxml the same acquisition as Digital
 * Forensics XML (dfxml.c).
 */
#ifndef CDT_CLI_ACQLOG_H
#define CDT_CLI_ACQLOG_H

#include <stdbool.h>
#include <time.h>
#include "acqrecord.h"

#define ACQ_K_LOG 0x1801
#define ACQ_K_NO_LOG 0x1802
#define ACQ_K_DFXML 0x1803
#define ACQ_K_CASE 0x1804
#define ACQ_K_EVIDENCE 0x1805
#define ACQ_K_EXAMINER 0x1806
#define ACQ_K_DESCRIPTION 0x1807
#define ACQ_K_NOTES 0x1808

/* The case fields, named as export names them (cmd_export.c). */
#define ACQLOG_OPTS_CASE \
	{ "dfxml", ACQ_K_DFXML, "FILE", "write the acquisition as Digital Forensics XML to FILE" }, \
	{ "case-number", ACQ_K_CASE, "TEXT", "the case number to record" }, \
	{ "evidence-number", ACQ_K_EVIDENCE, "TEXT", "the evidence number to record" }, \
	{ "examiner", ACQ_K_EXAMINER, "TEXT", "the examiner's name to record" }, \
	{ "description", ACQ_K_DESCRIPTION, "TEXT", "a description of the evidence" }, \
	{ "notes", ACQ_K_NOTES, "TEXT", "notes to record" }

/* One of ACQ_K_*: 0 taken, 1 not one of them, else the usage error's status. */
int acqlog_opt(struct acqlog_opts *o, const char *cmd, int key, const char *arg);

/* Which phase the run entered, and its highest pass (the progress calls). */
struct acqlog_passes {
	unsigned int seen;		/* 1 << enum cdt_phase */
	unsigned int max_pass[8];
	cdt_progress_fn inner;		/* the screen's, or NULL */
	void *inner_ctx;
};

struct acqlog {
	char path[4096];	/* "" with --no-log (or verify without --log) */
	bool json;		/* entries as JSON lines (--json, or a JSON log) */
	const char *cmd;	/* "image", "image --raw", "tail", "verify" */
	const struct acqlog_opts *opts;
	int argc;
	char **argv;		/* the command's words, after "cdtail" */
	struct timespec start;
	struct acqlog_passes passes;
};

/*
 * Before the run: the log's path (--log FILE, else default_path: NULL for
 * none, as verify's), the start time.  Then acqlog_check() refuses a log
 * or DFXML file that is also one of the run's files (NULL-ended list) or
 * cannot be created: 0, or the usage error's status after its message.
 */
void acqlog_begin(struct acqlog *l, const char *cmd, const struct acqlog_opts *o,
		  const char *default_path, bool json, int argc, char **argv);
int acqlog_check(const struct acqlog *l, const char *const *others);

/* Note the passes the run enters: wraps rd's progress call. */
void acqlog_watch(struct acqlog *l, struct cdt_read_opts *rd);

/*
 * Append the entry (the drive asked for its serial number first) and
 * write the DFXML file.  0, or -1 after printing why on stderr: the log is
 * an output the user asked for, so a log that cannot be written makes the
 * run's status 3.
 */
int acqlog_write(const struct acqlog *l, struct cdt_dev *dev, const struct acqlog_run *run);

/*
 * The run's outcome into run (err: the job's return; its verdict
 * "interrupted", "failed", or done_verdict; dev's message as the error),
 * then acqlog_write().  Returns the run's status (run->status), or 3 when
 * the record could not be written and the run had not failed already.
 */
int acqlog_finish(const struct acqlog *l, struct cdt_dev *dev, struct acqlog_run *run,
		  int err, const char *done_verdict);

#endif
