/* SPDX-License-Identifier: MIT */
/* Shared pieces of the cdtail subcommands: options, errors, output. */
#ifndef CDT_CLI_H
#define CDT_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "cdtail.h"

/* Exit statuses: one table, documented in cdtail(1). */
enum {
	EX_SAME = 0,
	EX_DIFFERENT = 1,
	EX_USAGE_ERR = 2,
	EX_DEVICE_ERR = 3,
	EX_UNREADABLE = 4,
	EX_HIDDEN_TAIL = 10,
	EX_SHORT = 11,
};

struct cli_common {
	bool json;
	bool quiet;
	int verbose;
	unsigned int timeout_ms;
	uint64_t max_extra;
};

/* Long options every subcommand takes; end a command's table with these. */
#define CLI_OPT_TIMEOUT 0x1001
#define CLI_OPT_MAX_EXTRA 0x1002
#define CLI_COMMON_LONGOPTS \
	{ "json", no_argument, NULL, 'j' }, \
	{ "verbose", no_argument, NULL, 'v' }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "timeout", required_argument, NULL, CLI_OPT_TIMEOUT }, \
	{ "max-extra", required_argument, NULL, CLI_OPT_MAX_EXTRA }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ NULL, 0, NULL, 0 }
/* '+' stops at the first operand, ':' reports a missing value as ':' */
#define CLI_COMMON_SHORTOPTS "+:vqh"

void cli_common_init(struct cli_common *co);
/*
 * Handle one of the common options.  Returns 1 when handled, 0 when opt is
 * not a common option, -1 after printing a usage error for a bad value.
 */
int cli_common_opt(struct cli_common *co, const char *cmd, int opt,
		   const char *arg);

/* Usage error for an option getopt_long rejected ('?' or ':'). */
int cli_bad_option(const char *cmd, int opt, char **argv);

/* "cdtail: <message>" on stderr. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a usage error for cmd and return EX_USAGE_ERR. */
int cli_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Strict unsigned parse: digits only (0x hex allowed), no overflow. */
int cli_parse_u64(const char *s, uint64_t *out);

/*
 * Open DEV with the common options.  On failure prints one line and
 * returns the exit status (EX_USAGE_ERR for a bad address, else
 * EX_DEVICE_ERR); 0 on success.
 */
int cli_open(const char *addr, const struct cli_common *co,
	     struct cdt_dev **devp);

/* Exit status for a library error code. */
int cli_status_for(int err);

/* Print obj as one line of JSON on stdout, then release it. */
void cli_json_out(json_object *obj);
/* A block count or JSON null for CDT_SIZE_ABSENT. */
json_object *cli_json_count(int64_t v);

/* -v: one line per command on stderr. */
void cli_log_cmd(void *ctx, const struct cdt_cmd_log *log);

/* Subcommands. */
int cmd_probe(int argc, char **argv);
int cmd_image(int argc, char **argv);
int cmd_tail(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_hazards(int argc, char **argv);

#endif
