/* SPDX-License-Identifier: MIT */
/*
 * What image, tail and verify share in the CLI: their extra options, the
 * progress line, SIGINT/SIGTERM, the JSON pieces of a read summary.
 */
#ifndef CDT_READUI_H
#define CDT_READUI_H

#include <signal.h>
#include "cli.h"
#include "screen.h"

#define RUI_K_CHUNK 0x1101
#define RUI_K_RETRIES 0x1102
#define RUI_STR_(x) #x
#define RUI_STR(x) RUI_STR_(x)
#define RUI_OPT_CHUNK { "chunk", RUI_K_CHUNK, "BLOCKS", "read at most BLOCKS per command, " \
	"1 to 65535 (default: 64 KiB or the drive's largest transfer)" }
/*
 * Without --retries image and tail follow the learning plan (engine/
 * passes.c): its one word, "plan", is the help's, the pages' and the
 * acquisition log's (retries: plan).
 */
#define RUI_OPT_RETRIES_PLAN { "retries", RUI_K_RETRIES, "N", "try blocks still bad N more " \
	"times, 0 to 1000 (default: plan, retry where a sample reads; cdtail-image(1))" }
/* verify's reads take CDT_DEFAULT_RETRIES without --retries */
#define RUI_OPT_RETRIES_FIXED { "retries", RUI_K_RETRIES, "N", "try blocks still bad N more " \
	"times, 0 to 1000 (default " RUI_STR(CDT_DEFAULT_RETRIES) ")" }
/* the options image and tail add to the common ones; verify's retry differently */
#define RUI_OPTS RUI_OPT_CHUNK, RUI_OPT_RETRIES_PLAN, CLI_OPT_MAX_EXTRA, CLI_OPT_STATUS_EVERY
#define RUI_OPTS_VERIFY RUI_OPT_CHUNK, RUI_OPT_RETRIES_FIXED, CLI_OPT_MAX_EXTRA, \
	CLI_OPT_STATUS_EVERY

struct rui {
	const char *cmd;
	struct cli_common co;
	struct cdt_read_opts rd;
	const char *stop_hint;	/* what Ctrl-C does, on the progress screen */
	struct screen screen;
};

/*
 * probe: SIGINT and SIGTERM set the flag returned (cdt_probe_opts.stop),
 * so that the run ends with its status and, with --json, its object.
 */
volatile sig_atomic_t *rui_catch_signals(void);
/* First thing in image, tail, verify: SIGINT and SIGTERM stop the run. */
void rui_init(struct rui *u, const char *cmd);

/* --chunk and --retries: 0 taken, 1 not one of them, else EX_USAGE_ERR. */
int rui_opt(struct rui *u, int key, const char *arg);
/* After the options: progress on a terminal unless -q, the stop message. */
void rui_start(struct rui *u, struct cdt_dev *dev);
/* Clear the progress screen before printing anything else. */
void rui_end_line(struct rui *u);
/* 130 or 143 for the signal that stopped the run. */
int rui_interrupted_status(void);

/* Exit status for an error from cdt_image/tail/verify, message printed. */
int rui_fail(struct rui *u, struct cdt_dev *dev, const char *what, int rc);

/* "bad_blocks": [[first, last], ...] */
json_object *rui_json_ranges(const struct cdt_range *r, size_t n);
/* The keys every read summary has. */
/* The resume keys image and image --raw share: map, resumed, finished_before, identity_blocks. */
void rui_json_resume(json_object *o, const char *map_path, bool resumed,
		     uint64_t finished_before, uint64_t identity_blocks);
void rui_json_summary(json_object *o, const char *addr,
		      const struct cdt_read_summary *s, bool virt);
/* "0-9, 20, 30-31" (at most a few, then "..."). */
void rui_print_ranges(const char *label, const struct cdt_range *r, size_t n);
/*
 * After a run with unreadable blocks: after label ("lost:"), how much
 * (blocks, bytes, percent of the disc) and where, then the line holds
 * (what the output or the digests have there), if any.
 */
/*
 * The status after a finished run: rc, or EX_WINDOW (with a note on
 * stderr) when the end search stopped at the --max-extra window, so
 * the disc may hold more than was read (whatever rc said).
 */
int rui_window_status(const struct cdt_read_summary *s, uint64_t max_extra, int rc);

/* "skipped": [{"start", "blocks", "why"}, ...] */
json_object *rui_json_skipped(const struct cdt_skip *v, size_t n);
/*
 * "skipped:  12000 blocks not data, never read (zeros in OUT): 0-499 audio,
 * 500-11899 gap"; nothing when none was skipped.
 */
/* Form 2 blocks among the skipped areas (why "form2"). */
uint64_t rui_form2_blocks(const struct cdt_skip *v, size_t n);
/* Copy-protected blocks among them (why "protected", 05/6F/xx). */
uint64_t rui_protected_blocks(const struct cdt_skip *v, size_t n);
/* Blocks the disc holds that the reads found it would not give: Form 2
 * and protected; they make an image incomplete (exit 4). */
uint64_t rui_withheld_blocks(const struct cdt_skip *v, size_t n);
/*
 * The notes on blocks whole on the disc that a 2048-byte read does not
 * give: Mode 2 Form 2 (how many, where, what would read them) and
 * protected ones (CSS: cdtail does not authenticate); lacks says what
 * became of them ("d.iso lacks them (zeros)", "not compared").  Nothing
 * without any.
 */
void rui_print_withheld(const struct cdt_skip *v, size_t n, const char *lacks);
void rui_print_skipped(const struct cdt_skip *v, size_t n, uint64_t blocks,
		       const char *holds);

/*
 * The md5: and sha256: lines of the digests computed.  -q prints them too:
 * they are results an examiner logs, not progress.
 */
/*
 * The summary's probe (held by pointer since libcdtail.so.1), or an empty
 * one when the call failed before it: what the output showed while it was
 * embedded and zeroed.
 */
const struct cdt_probe_result *rui_probe(const struct cdt_read_summary *s);

void rui_print_digests(const struct cdt_read_summary *s);
void rui_print_lost(const struct cdt_read_summary *s, const char *label, const char *holds);
void rui_print_summary(const char *addr, const struct cdt_read_summary *s,
		       bool virt);

#endif
