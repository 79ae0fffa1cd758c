/* SPDX-License-Identifier: MIT */
/*
 * export's entry in the image's acquisition record (issue 34): appended
 * to the record export checked the image against (IMAGE.log, or --log
 * FILE) by acqlog.h's writer, with the keys every run has (tool, host,
 * user, command, case fields, start and end) and export's own: the EWF
 * files made, their format, segments and compression, the digests export
 * computed and whether they equal the record's, the checks that held,
 * and with --unchecked that it was unchecked and what the checks found.
 */
#ifndef CDT_CLI_EXPORTLOG_H
#define CDT_CLI_EXPORTLOG_H

#include <stdbool.h>
#include <stdint.h>
#include "acqlog.h"
#include "export_check.h"

/* What export made, for its entry. */
struct export_entry {
	const char *image, *ewf;
	const char *base;		/* OUT less ".E01": the segments are base.E01 ... */
	unsigned int segments;		/* 0: none left (a failed or refused export) */
	uint64_t segment_size;		/* 0: libewf's own, 1.4 GiB */
	const char *compression;	/* as --compression names it */
	bool xhash;
	uint64_t bytes;			/* IMAGE's size, all read */
	const char *md5, *sha1, *sha256;	/* hex as export read IMAGE, or "" */
	size_t n_bad;			/* acquiry errors sealed, and their blocks */
	uint64_t bad_blocks;
	const struct export_check *chk;
};

/*
 * Before the checks: where the entry goes (log_opt: --log FILE, else
 * IMAGE.log; o->no_log: nowhere), the start time, and a record that
 * cannot take the entry refused (usage error's status after its message;
 * others: the run's other files, NULL-ended).
 */
int exportlog_begin(struct acqlog *l, struct acqlog_opts *o, const char *image,
		    const char *log_opt, bool json, int argc, char **argv,
		    const char *const *others);

/*
 * Append the entry (o's case fields as the E01 got them, filled in by
 * the caller).  A file there that is not a cdtail record is left as it
 * is (said on stderr).  0, or -1 after printing why.
 */
int exportlog_write(const struct acqlog *l, const struct export_entry *e, int status,
		    const char *verdict, const char *error);

#endif
