// SPDX-License-Identifier: MIT
/* Options, progress line, signals and output shared by image, tail, verify. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "readui.h"

/* The one piece of process state: what the signal handler saw. */
static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t stop_signal;

/* Built once the timeout is known; a handler only write(2)s it, once set. */
static char stop_msg[96];
static volatile sig_atomic_t stop_msg_len;

static void on_signal(int sig)
{
	if (!stop_flag && stop_msg_len) {
		ssize_t w = write(STDERR_FILENO, stop_msg, (size_t)stop_msg_len);

		(void)w;
	}
	stop_signal = sig;
	stop_flag = 1;
}

/*
 * The handlers come first, before the options are read or the device is
 * opened: a SIGINT or SIGTERM in the first milliseconds once killed the
 * run outright (issue 28, I).  Caught that early, it stops the run at its
 * first read, as any later one does.
 */
static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/*
	 * No SA_RESTART: a restarted SG_IO on /dev/sgN sends the READ in
	 * flight again (sg.c orphans the first), so a slow failing read
	 * would be paid twice.  The interrupted read counts as not done.
	 * (SG_IO on /dev/srN waits uninterruptibly: its read completes.)
	 */
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

volatile sig_atomic_t *rui_catch_signals(void)
{
	catch_signals();
	return &stop_flag;
}

void rui_init(struct rui *u, const char *cmd)
{
	catch_signals();
	memset(u, 0, sizeof(*u));
	u->cmd = cmd;
	u->rd.size = sizeof(u->rd);
	u->rd.retries = -1;
	u->rd.stop = &stop_flag;
}

int rui_opt(struct rui *u, int key, const char *arg)
{
	uint64_t v;
	int rc;

	switch (key) {
	case RUI_K_CHUNK:
		rc = cli_opt_u64(u->cmd, "chunk", "a block count", arg, 1, 65535, &v);
		u->rd.chunk_blocks = (uint32_t)v;
		return rc;
	case RUI_K_RETRIES:
		rc = cli_opt_u64(u->cmd, "retries", "a number", arg, 0, 1000, &v);
		if (!rc)
			u->rd.retries = (int)v;
		return rc;
	}
	return 1;
}

/*
 * What the handler writes at Ctrl-C.  On the progress screen it takes the
 * place of the screen's last line (the cursor's line), so the screen keeps
 * its height and the next redraw, or the last status at the end, covers it
 * cleanly; elsewhere it is a line of its own.
 */
static void stop_message(const struct rui *u)
{
	unsigned int secs = (u->co.timeout_ms ? u->co.timeout_ms : CLI_TIMEOUT_DEFAULT_S * 1000) / 1000;

	if (u->screen.mode == SCREEN_TERM)
		snprintf(stop_msg, sizeof(stop_msg), "\r\033[Kcdtail %s: stopping after the current"
			 " read (up to %u s)", u->cmd, secs);
	else
		snprintf(stop_msg, sizeof(stop_msg), "%scdtail: stopping after the current read"
			 " (up to %u s)\n", isatty(STDERR_FILENO) ? "\n" : "", secs);
	stop_msg_len = (sig_atomic_t)strlen(stop_msg);
}

void rui_start(struct rui *u, struct cdt_dev *dev)
{
	u->rd.max_extra = u->co.max_extra;
	if (screen_start(&u->screen, u->cmd, &u->co)) {
		u->screen.dev = dev;
		/* a log is read afterwards: how to stop is for the terminal */
		if (u->screen.mode == SCREEN_TERM)
			u->screen.stop_hint = u->stop_hint;
		u->rd.progress = screen_draw;
		u->rd.progress_ctx = &u->screen;
	}
	/* a read in flight is not cut short: it ends within the timeout */
	stop_message(u);
}

void rui_end_line(struct rui *u)
{
	screen_end(&u->screen);
}

int rui_interrupted_status(void)
{
	return 128 + (stop_signal ? stop_signal : SIGINT);
}

int rui_fail(struct rui *u, struct cdt_dev *dev, const char *what, int rc)
{
	const char *msg = cdt_errmsg(dev);

	cli_note_error(rc);
	if (rc == CDT_EINTR) {
		screen_stop(&u->screen);
		cli_err("%s: interrupted", what);
		return rui_interrupted_status();
	}
	rui_end_line(u);
	cli_err("%s: %s", what, msg[0] ? msg : cdt_strerror(rc));
	if (rc == CDT_EUSAGE || rc == CDT_EFORMAT || rc == CDT_EBUSY ||
	    rc == CDT_EOTHERDISC)
		return EX_USAGE_ERR;
	return EX_DEVICE_ERR;
}

json_object *rui_json_ranges(const struct cdt_range *r, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_object *pair = json_object_new_array();

		json_object_array_add(pair, json_object_new_int64((int64_t)r[i].first));
		json_object_array_add(pair, json_object_new_int64((int64_t)r[i].last));
		json_object_array_add(a, pair);
	}
	return a;
}

static json_object *json_digest(const char *hex)
{
	return hex[0] ? json_object_new_string(hex) : NULL;
}

void rui_json_resume(json_object *o, const char *map_path, bool resumed,
		     uint64_t finished_before, uint64_t identity_blocks)
{
	json_object_object_add(o, "map", map_path ? json_object_new_string(map_path) : NULL);
	json_object_object_add(o, "resumed", json_object_new_boolean(resumed));
	json_object_object_add(o, "finished_before", json_object_new_int64((int64_t)finished_before));
	json_object_object_add(o, "identity_blocks", json_object_new_int64((int64_t)identity_blocks));
}

const struct cdt_probe_result *rui_probe(const struct cdt_read_summary *s)
{
	static const struct cdt_probe_result none = { .size = sizeof(none) };

	return s->probe ? s->probe : &none;
}

void rui_json_summary(json_object *o, const char *addr,
		      const struct cdt_read_summary *s, bool virt)
{
	cli_json_disc(o, addr, rui_probe(s));
	json_object_object_add(o, "blocks_read", json_object_new_int64((int64_t)s->blocks_read));
	json_object_object_add(o, "bad_count", json_object_new_int64((int64_t)s->bad_blocks));
	json_object_object_add(o, "bad_blocks", rui_json_ranges(s->bad, s->n_bad));
	json_object_object_add(o, "bad_bytes", json_object_new_int64((int64_t)(s->bad_blocks *
								   s->block_size)));
	json_object_object_add(o, "md5", json_digest(s->digests.md5));
	json_object_object_add(o, "sha256", json_digest(s->digests.sha256));
	json_object_object_add(o, "total", cli_json_total(&s->stats, s->elapsed_ms, virt));
}

void rui_print_ranges(const char *label, const struct cdt_range *r, size_t n)
{
	size_t i, shown = n < 8 ? n : 8;

	printf("%-10s ", label);
	for (i = 0; i < shown; i++) {
		if (r[i].first == r[i].last)
			printf("%s%" PRIu64, i ? ", " : "", r[i].first);
		else
			printf("%s%" PRIu64 "-%" PRIu64, i ? ", " : "", r[i].first, r[i].last);
	}
	if (n > shown)
		printf(", ... (%zu ranges)", n);
	putchar('\n');
}

/* "bytes A-B" of a block range */
static void print_range(const struct cdt_range *r, uint32_t bs)
{
	if (r->first == r->last)
		printf("LBA %" PRIu64, r->first);
	else
		printf("LBAs %" PRIu64 "-%" PRIu64, r->first, r->last);
	printf(" (bytes %" PRIu64 "-%" PRIu64 ")", r->first * bs, (r->last + 1) * bs - 1);
}

json_object *rui_json_skipped(const struct cdt_skip *v, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_object *k = json_object_new_object();

		json_object_object_add(k, "start", json_object_new_int64((int64_t)v[i].start));
		json_object_object_add(k, "blocks", json_object_new_int64((int64_t)v[i].blocks));
		json_object_object_add(k, "why", json_object_new_string(cdt_skip_why_name(v[i].why)));
		json_object_array_add(a, k);
	}
	return a;
}

void rui_print_skipped(const struct cdt_skip *v, size_t n, uint64_t blocks,
		       const char *holds)
{
	size_t i, shown = n < 8 ? n : 8;

	if (!n)
		return;
	printf("skipped:   %" PRIu64 " block%s not data, never read (%s):\n", blocks,
	       blocks == 1 ? "" : "s", holds);
	for (i = 0; i < shown; i++)
		printf("           %" PRIu64 "-%" PRIu64 " %s\n", v[i].start,
		       v[i].start + v[i].blocks - 1, cdt_skip_why_name(v[i].why));
	if (n > shown)
		printf("           ... and %zu more areas (--json lists them all)\n", n - shown);
}

static uint64_t skip_blocks(const struct cdt_skip *v, size_t n, enum cdt_skip_why why)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].why == why)
			sum += v[i].blocks;
	return sum;
}

uint64_t rui_form2_blocks(const struct cdt_skip *v, size_t n)
{
	return skip_blocks(v, n, CDT_SKIP_FORM2);
}

uint64_t rui_protected_blocks(const struct cdt_skip *v, size_t n)
{
	return skip_blocks(v, n, CDT_SKIP_PROTECTED);
}

uint64_t rui_withheld_blocks(const struct cdt_skip *v, size_t n)
{
	return rui_form2_blocks(v, n) + rui_protected_blocks(v, n);
}

/*
 * 05/6F/xx (mmc/answer.c): a DVD-Video disc's CSS-scrambled sectors
 * (MMC-5 4.10.3, F.2 05/6F/03) read before the host authenticated.
 */
static void print_protected(const struct cdt_skip *v, size_t n, const char *lacks)
{
	uint64_t blocks = rui_protected_blocks(v, n);
	char text[4600];
	size_t i;

	if (!blocks)
		return;
	for (i = 0; i < n && v[i].why != CDT_SKIP_PROTECTED; i++)
		;
	/* lacks may name a long path: wrapped, never past 80 columns */
	snprintf(text, sizeof(text), "%" PRIu64 " block%s from LBA %" PRIu64 " answer 05/6F/xx"
		 " (copy protection: READ OF SCRAMBLED SECTOR WITHOUT AUTHENTICATION and its"
		 " kin): CSS-scrambled sectors of a DVD-Video disc, whole on the disc, not"
		 " damage; cdtail does not authenticate (no CSS key exchange); %s.",
		 blocks, blocks == 1 ? "" : "s", v[i].start, lacks);
	cli_wrap(stdout, (size_t)printf("protected: "), 11, text);
}

static void print_form2(const struct cdt_skip *v, size_t n, const char *lacks)
{
	uint64_t blocks = rui_form2_blocks(v, n);
	char text[4600];
	size_t i;

	if (!blocks)
		return;
	for (i = 0; i < n && v[i].why != CDT_SKIP_FORM2; i++)
		;
	/* lacks may name a long path: wrapped, never past 80 columns */
	snprintf(text, sizeof(text), "%" PRIu64 " block%s from LBA %" PRIu64 " answer 05/64/00"
		 " (ILLEGAL MODE FOR THIS TRACK) inside a data track: Mode 2 Form 2 sectors"
		 " (Video CD, CD-i, XA audio or video) that READ(10) cannot give as 2048-byte"
		 " data, not damage; %s. A raw reader (READ CD, 2352-byte sectors: cdtail"
		 " image --raw, redumper, cdrdao) reads them", blocks, blocks == 1 ? "" : "s",
		 v[i].start, lacks);
	cli_wrap(stdout, (size_t)printf("form2:     "), 11, text);
}

void rui_print_withheld(const struct cdt_skip *v, size_t n, const char *lacks)
{
	print_form2(v, n, lacks);
	print_protected(v, n, lacks);
}

void rui_print_lost(const struct cdt_read_summary *s, const char *label, const char *holds)
{
	uint64_t blocks = rui_probe(s)->extent_blocks ? rui_probe(s)->extent_blocks : 1;
	char bytes[32];
	size_t i, shown = s->n_bad < 8 ? s->n_bad : 8;

	if (!s->bad_blocks)
		return;
	screen_bytes(bytes, sizeof(bytes), (double)s->bad_blocks * s->block_size);
	printf("%-10s %" PRIu64 " block%s (%" PRIu64 " bytes, %s; %.3f %% of the disc) in %zu area%s:\n",
	       label, s->bad_blocks, s->bad_blocks == 1 ? "" : "s", s->bad_blocks * s->block_size, bytes,
	       100.0 * (double)s->bad_blocks / (double)blocks, s->n_bad, s->n_bad == 1 ? "" : "s");
	for (i = 0; i < shown; i++) {
		fputs("           ", stdout);
		print_range(&s->bad[i], s->block_size);
		putchar('\n');
	}
	if (s->n_bad > shown)
		printf("           ... and %zu more areas (--json lists them all)\n", s->n_bad - shown);
	if (holds)
		printf("           %s\n", holds);
}

void rui_print_digests(const struct cdt_read_summary *s)
{
	/* a digest not computed (image --digest) is left out */
	if (s->digests.md5[0])
		printf("md5:       %s\n", s->digests.md5);
	if (s->digests.sha256[0])
		printf("sha256:    %s\n", s->digests.sha256);
}

void rui_print_summary(const char *addr, const struct cdt_read_summary *s,
		       bool virt)
{
	const struct cdt_probe_result *p = rui_probe(s);
	char el[32], dt[32];

	printf("device:    %s\n", addr);
	printf("true end:  %" PRIu64 " blocks of %u bytes (reported %" PRIu64, p->true_blocks,
	       s->block_size, p->reported_blocks);
	/* a count of blocks is never negative in words */
	if (p->hidden_blocks >= 0)
		printf(", hidden %" PRId64 ")\n", p->hidden_blocks);
	else
		printf(": %" PRId64 " more than the disc holds)\n", -p->hidden_blocks);
	if (p->extent_blocks != p->true_blocks)
		printf("extent:    %" PRIu64 " blocks (the drive reports unreadable blocks past the true end)\n",
		       p->extent_blocks);
	printf("read:      %" PRIu64 " blocks by this run, %" PRIu64 " unreadable\n",
	       s->blocks_read, s->bad_blocks);
	rui_print_digests(s);
	cli_duration(el, sizeof(el), s->elapsed_ms);
	printf("elapsed:   %s", el);
	if (virt) {
		cli_duration(dt, sizeof(dt), s->stats.virtual_ms);
		printf("; drive time (virtual) %s", dt);
	}
	putchar('\n');
}

int rui_window_status(const struct cdt_read_summary *s, uint64_t max_extra, int rc)
{
	const struct cdt_probe_result *p = rui_probe(s);
	char msg[256];

	/* what was compared or read stops short of the disc: nothing else holds */
	if (!(p->notes & CDT_NOTE_WINDOW_LIMIT))
		return rc;
	/* the window's edge is the extent: a resumed image's may be an earlier run's */
	if (p->extent_blocks > p->reported_blocks)
		max_extra = p->extent_blocks - p->reported_blocks;
	snprintf(msg, sizeof(msg), "note: the end search stopped at the --max-extra window"
		 " (%" PRIu64 " blocks past the reported %" PRIu64 "): the disc may hold more than"
		 " was read; run again with a larger --max-extra",
		 max_extra ? max_extra : (uint64_t)CDT_DEFAULT_MAX_EXTRA, p->reported_blocks);
	cli_wrap(stderr, (size_t)fprintf(stderr, "cdtail: "), 2, msg);
	return EX_WINDOW;
}
