/* SPDX-License-Identifier: MIT */
/* Shared pieces of the cdtail subcommands: options, errors, output. */
#ifndef CDT_CLI_H
#define CDT_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>
#include "cdtail-tools.h"

/* Exit statuses: one table, documented in cdtail(1) and README.md. */
enum {
	EX_SAME = 0,
	EX_DIFFERENT = 1,
	EX_USAGE_ERR = 2,
	EX_DEVICE_ERR = 3,
	EX_UNREADABLE = 4,
	EX_WINDOW = 5,		/* image, tail, verify: the search window was reached */
	EX_HIDDEN_TAIL = 10,
	EX_SHORT = 11,
};

struct cli_common {
	bool json;
	bool quiet;
	int verbose;
	unsigned int timeout_ms;
	uint64_t max_extra;
	unsigned int status_every_s;	/* stderr not a terminal: a status line this often */
};

/*
 * One option of a subcommand: its getopt_long entry and its line in
 * --help.  A key that is a letter is also the short option.
 */
struct cli_opt {
	const char *name;	/* long name, without "--" */
	int key;		/* a letter, a CLI_K_* or a command's own code */
	const char *arg;	/* the value's name in --help; NULL for a flag */
	const char *help;	/* one line */
};

#define CLI_K_JSON 0x1000
#define CLI_K_TIMEOUT 0x1001
#define CLI_K_MAX_EXTRA 0x1002
#define CLI_K_STATUS_EVERY 0x1003
/*
 * nohup cdtail image ... 2>log: half a minute between lines tells a reader
 * of the log the run is alive without drowning the report in it.
 */
#define CLI_STATUS_EVERY_DEFAULT 30
#define CLI_TIMEOUT_DEFAULT_S 30
/* a default in --help is the code's own number (tests/cli/check_pages.py) */
#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)
#define CLI_OPT_JSON { "json", CLI_K_JSON, NULL, \
	"one JSON object on stdout, also on failure ({\"device\", \"error\"})" }
#define CLI_OPT_QUIET { "quiet", 'q', NULL, \
	"no progress screen; the text report keeps only its result lines (the " \
	"verdict, digests)" }
#define CLI_OPT_VERBOSE { "verbose", 'v', NULL, \
	"every SCSI command on stderr as sg3_utils' -v words it; -vv adds the sense " \
	"bytes and the transfer, -vvv the data-in bytes" }
#define CLI_OPT_TIMEOUT { "timeout", CLI_K_TIMEOUT, "SECONDS", \
	"bound every SCSI command, 1 to 3600 (default " CLI_STR(CLI_TIMEOUT_DEFAULT_S) ")" }
#define CLI_OPT_MAX_EXTRA { "max-extra", CLI_K_MAX_EXTRA, "BLOCKS", \
	"search at most BLOCKS past the reported end (default " \
	CLI_STR(CDT_DEFAULT_MAX_EXTRA) ")" }
#define CLI_OPT_STATUS_EVERY { "status-every", CLI_K_STATUS_EVERY, "SECONDS", \
	"stderr not a terminal: a status line every SECONDS (default " \
	CLI_STR(CLI_STATUS_EVERY_DEFAULT) ", 0 none)" }
#define CLI_OPT_HELP { "help", 'h', NULL, "show this help and exit" }
#define CLI_OPT_VERSION { "version", 'V', NULL, "show cdtail's version and exit" }
/* what every subcommand that talks to a device takes; end a table with these */
#define CLI_OPTS_COMMON CLI_OPT_JSON, CLI_OPT_QUIET, CLI_OPT_VERBOSE, \
	CLI_OPT_TIMEOUT, CLI_OPT_VERSION, CLI_OPT_HELP, { NULL, 0, NULL, NULL }
/*
 * for a command that talks to no device (map, export): no -v or
 * --timeout, which say how to talk to one; refused with that reason
 */
#define CLI_OPTS_NO_DEVICE CLI_OPT_JSON, CLI_OPT_QUIET, CLI_OPT_VERSION, CLI_OPT_HELP, \
	{ NULL, 0, NULL, NULL }

struct cli_cmd {
	const char *name;
	const char *operands;	/* "DEV OUT" after [OPTIONS] in the usage line */
	const char *about;	/* what it does, lines ending in \n */
	const char *exits;	/* "Exit: ..." lines ending in \n */
	const struct cli_opt *opts;
	int min_operands, max_operands;
	int (*run)(int argc, char **argv);
};

/* probe --all DEV... takes a rack's worth; the others take 1 or 2 */
#define CLI_MAX_OPERANDS 64
struct cli_args {
	char *op[CLI_MAX_OPERANDS];
	int n;
};

/* A command's own option: 0 taken, else an exit status, message printed. */
typedef int (*cli_opt_fn)(void *ctx, int key, const char *arg);

/* cli_parse() returns this after printing --help: exit 0. */
#define CLI_HELP_SHOWN (-1)

/*
 * Parse argv (argv[0] is the command's name) against cmd: options before
 * and after operands, --opt=value, unambiguous abbreviations, -- ends the
 * options.  The common options go to co (initialised here), the others
 * to fn.  Returns 0, CLI_HELP_SHOWN, or EX_USAGE_ERR after the message.
 */
int cli_parse(const struct cli_cmd *cmd, int argc, char **argv,
	      struct cli_common *co, cli_opt_fn fn, void *ctx,
	      struct cli_args *a);
void cli_help(const struct cli_cmd *cmd, FILE *f);
/* cdtail help COMMAND: shows cdtail-COMMAND(1) with man(1), else cli_help (help.c) */
int cli_help_page(const struct cli_cmd *cmd);

/* The subcommands, in the order "cdtail --help" lists them. */
extern const struct cli_cmd *const cli_commands[];
const struct cli_cmd *cli_find_command(const char *name);

/* What cli_finish() needs: --json was asked for, DEV as given. */
void cli_note_json(bool on);
void cli_note_device(const char *dev);

/* "cdtail: <message>" on stderr (kept for --json's error object). */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a usage error for cmd and return EX_USAGE_ERR. */
int cli_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same in one line, for a message that already says what to type. */
int cli_usage_line(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The end of every run, in one place: with --json a status 2, 3 or
 * 128+signal that printed no object prints the error object (with
 * "interrupted": true for a signal); stdout is flushed and
 * closed, and a failure to write it is one line on stderr and status 3.
 */
int cli_finish(int status);

/* Strict unsigned parse: digits only (0x hex allowed), no overflow. */
int cli_parse_u64(const char *s, uint64_t *out);

/*
 * A command's option values, checked in one place.  Each returns 0 with
 * *out set, or the usage error's status after its message: "--NAME wants
 * WHAT from MIN to MAX, not 'ARG'" for a number (*out is then 0), "--NAME
 * wants a file name" for an empty file name.
 */
int cli_opt_u64(const char *cmd, const char *name, const char *what,
		const char *arg, uint64_t min, uint64_t max, uint64_t *out);
int cli_opt_file(const char *cmd, const char *name, const char *arg,
		 const char **out);
/* --formatted skip|cut|read (image and verify: the same policy, the same words) */
int cli_opt_formatted(const char *cmd, const char *arg,
		      enum cdt_formatted_policy *out);
#define CLI_FORMATTED_HELP \
	"a formatted DVD+RW/DVD-RAM/BD-RE past its filesystem: skip (the default: zeros, " \
	"never read), cut (the disc ends there) or read"

/*
 * Open DEV with the common options.  On failure prints one line and
 * returns the exit status (EX_USAGE_ERR for a bad address, else
 * EX_DEVICE_ERR); 0 on success.
 */
int cli_open(const char *addr, const struct cli_common *co,
	     struct cdt_dev **devp);

/* Exit status for an error opening or using DEV (the exit table's DEV rule). */
int cli_dev_status(const char *addr, int err);
/*
 * OUT or MAPFILE about to be created: a directory, or a directory that is
 * missing or not writable, is a usage error (printed, EX_USAGE_ERR); 0 ok.
 */
int cli_check_new_file(const char *cmd, const char *what, const char *path);
/* An existing file argument that is not a regular file: usage error; 0 ok. */
int cli_check_file(const char *cmd, const char *what, const char *path);

/* Exit status for a library error code. */
int cli_status_for(int err);

/* Print obj as one line of JSON on stdout, then release it. */
void cli_json_out(json_object *obj);
/* A duration in ms, rounded to 0.01 ms. */
json_object *cli_json_ms(double ms);
/*
 * The keys probe, image, tail and verify share: device, block_size,
 * reported/true/hidden/extent blocks, hidden_512, filesystem {type,
 * blocks}, search_reads, search_failed_reads, search_ms.
 */
void cli_json_disc(json_object *o, const char *addr, const struct cdt_probe_result *p);
/* "total": the whole run's commands, reads, failed reads and times. */
json_object *cli_json_total(const struct cdt_stats *st, double elapsed_ms, bool virt);
/*
 * A duration for people, with the exact figure beside it when rounded:
 * "57 ms", "8.0 s (8003.15 ms)", "82 min (4944713 ms)".
 */
void cli_duration(char *out, size_t len, double ms);
/*
 * Every line cdtail writes for people fits 80 columns (a terminal's
 * default, the width of a mail or a log viewer): CLI_COLUMNS is the last
 * column text may use.
 */
#define CLI_COLUMNS 80
/*
 * text after what is already on the line (col columns), its words wrapped
 * at CLI_COLUMNS, each further line indented by indent; ends the line.
 */
void cli_wrap(FILE *f, size_t col, size_t indent, const char *text);
/* Wall clock in ms, for elapsed times. */
double cli_now_ms(void);

/*
 * Blocks the filesystem declares past the true end (a burn that stopped
 * early: the files stored there are not on the disc), 0 when it fits.
 */
uint64_t cli_fs_past_end(const struct cdt_probe_result *p);
/*
 * The search stopped at the --max-extra window below the filesystem's
 * size, and the filesystem's last block read (cdt_probe_result's
 * fs_end_read): its files are on the disc.
 */
bool cli_fs_end_read(const struct cdt_probe_result *p);
/* Note filesystem-past-end: into notes (JSON) and o's count key, if any. */
void cli_json_fs_past_end(json_object *o, json_object *notes, const struct cdt_probe_result *p);
/* Notes damaged-tail and unconfirmed-tail with their counts (issue 23). */
void cli_json_agreed_end(json_object *o, json_object *notes, const struct cdt_probe_result *p);
/* The text note, with what it means for what (an image, the disc) */
void cli_print_fs_past_end(const struct cdt_probe_result *p, const char *lost);

/* A block count or JSON null for CDT_SIZE_ABSENT. */
json_object *cli_json_count(int64_t v);

/*
 * Every command's log callback (cmdlog.c; ctx points at the verbose
 * count): -v prints it as sg3_utils' -v does (the command decoded, its
 * CDB in hex, the sense decoded with its triple; virtual times say so),
 * -vv adds the sense bytes and the transfer's length and residual, -vvv
 * the data-in bytes (the first and last 64).  It also keeps the last
 * answer that was not GOOD, for the JSON error object.
 */
void cli_log_cmd(void *ctx, const struct cdt_cmd_log *log);
/* The library error a run failed with (cli_json_error_cause reads it). */
void cli_note_error(int err);
/*
 * "category" and "sense" {key, asc, ascq, text} of the error object e:
 * what the drive answered where the noted error came from the drive,
 * else null.
 */
void cli_json_error_cause(json_object *e);

/* A probe result rendered (probe_render.c): the probe and probe --all. */
/*
 * probe's JSON object for a result (probe --all prints one per drive).
 * lay: cli_layout_json() of the probed device (taken over), or NULL.
 */
json_object *cli_probe_json(const char *addr, const struct cdt_probe_result *r, bool virt,
			    double elapsed_ms, json_object *lay);
/* {"sessions", "tracks", "gaps"} of a layout (cdtail(1), JSON OUTPUT), NULL-safe. */
json_object *cli_layout_json(const struct cdt_layout *l);
/*
 * Pregaps and index marks from Q (qmarks.c, issue 33), only where Q was
 * searched (cli_q_searched): a track's [{"number", "lba"}] from index 00
 * (its pregap) and 01 to its marks; the layout's "qmarks", "q_reads" and
 * "q_differs" into o; its notes; the text lines.
 */
bool cli_q_searched(const struct cdt_layout *l);
json_object *cli_indexes_json(const struct cdt_layout *l, unsigned int track,
			      uint64_t index1, uint64_t pregap);
void cli_qmarks_json(json_object *o, const struct cdt_layout *l);
void cli_qmarks_notes(json_object *notes, const struct cdt_layout *l);
void cli_print_marks(const struct cdt_layout *l, unsigned int track);
void cli_print_qmarks(const struct cdt_layout *l);
/* 0, EX_HIDDEN_TAIL or EX_SHORT for a verdict. */
int cli_verdict_status(enum cdt_verdict v);
/* probe's text report: the drive, medium, layout, CD-TEXT, sources, end, notes. */
void cli_probe_text(const char *addr, const struct cdt_probe_result *r, bool virt,
		    const struct cdt_layout *l, const struct cdt_cd_text *text);
/* What probe --all was asked (cmd_probe.c parses it, probe_all.c runs it). */
struct cli_probe_all {
	bool all;
	const char *sysfs;	/* --sysfs ROOT, or NULL: /sys */
	const char *columns;	/* -o LIST (util-linux's), or NULL: the default */
	bool noheadings;	/* -n */
	bool raw;		/* -r: one space between columns, blanks as \x20 */
	bool bytes;		/* -b: reported, true, hidden in bytes */
	char *const *devs;	/* DEV... given with --all, else NULL: sysfs's drives */
	int n_devs;
};
/* --pretty: cli_json_out() indents (probe; a JSON Lines stream becomes objects) */
void cli_json_pretty(bool on);
/* probe --all: every optical drive (or every DEV given) in parallel. */
int cli_probe_all(const struct cli_common *co, const struct cli_probe_all *a);
/* -o LIST checked before anything is opened: 0, or the usage error's status */
int cli_probe_all_columns(const char *list);

/* Subcommands. */
extern const struct cli_cmd cli_cmd_probe, cli_cmd_image, cli_cmd_tail,
	cli_cmd_verify, cli_cmd_hazards, cli_cmd_map, cli_cmd_export;

#endif
