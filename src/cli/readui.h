/* SPDX-License-Identifier: MIT */
/*
 * What image, tail and verify share in the CLI: their extra options, the
 * progress line, SIGINT/SIGTERM, the JSON pieces of a read summary.
 */
#ifndef CDT_READUI_H
#define CDT_READUI_H

#include <signal.h>
#include "cli.h"

#define RUI_OPT_CHUNK 0x1101
#define RUI_OPT_RETRIES 0x1102
#define RUI_READ_LONGOPTS \
	{ "chunk", required_argument, NULL, RUI_OPT_CHUNK }, \
	{ "retries", required_argument, NULL, RUI_OPT_RETRIES }

struct rui {
	const char *cmd;
	struct cli_common co;
	struct cdt_read_opts rd;
	bool drawing;		/* a progress line is on the terminal */
	struct cdt_dev *dev;	/* for the block size in the ETA */
};

void rui_init(struct rui *u, const char *cmd);

#define RUI_MAX_OPERANDS 4
struct rui_args {
	char *op[RUI_MAX_OPERANDS];
	int n;			/* may exceed RUI_MAX_OPERANDS: too many */
};

/*
 * getopt_long over the common short options that also takes options
 * after the operands (verify DEV --image FILE); operands go to a.
 */
int rui_getopt(struct rui_args *a, int argc, char **argv,
	       const struct option *longopts);
/* --chunk, --retries and the common options: 1 handled, 0 not, -1 error. */
int rui_opt(struct rui *u, int opt, const char *arg);
/* After the options: progress on a terminal unless -q, signal handlers. */
void rui_start(struct rui *u, struct cdt_dev *dev);
/* Clear the progress line before printing anything else. */
void rui_end_line(struct rui *u);
/* 130 or 143 for the signal that stopped the run. */
int rui_interrupted_status(void);

/* Exit status for an error from cdt_image/tail/verify, message printed. */
int rui_fail(struct rui *u, struct cdt_dev *dev, const char *what, int rc);

/* "bad_blocks": [[first, last], ...] */
json_object *rui_json_ranges(const struct cdt_range *r, size_t n);
/* The keys every read summary has. */
void rui_json_summary(json_object *o, const char *addr,
		      const struct cdt_read_summary *s, bool virt);
/* "0-9, 20, 30-31" (at most a few, then "..."). */
void rui_print_ranges(const char *label, const struct cdt_range *r, size_t n);
void rui_print_summary(const char *addr, const struct cdt_read_summary *s,
		       bool virt);

#endif
