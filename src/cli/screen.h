/* SPDX-License-Identifier: MIT */
/*
 * The progress screen: a few lines on stderr, redrawn in place, only on a
 * terminal, never wider than it (so it never wraps).  It shows the end
 * search (probe, image, tail, verify) and the copy: rescued bytes of the
 * total, percent, what is non-tried, non-trimmed, non-scraped and
 * bad-sector as ddrescue counts them, the bad areas, the current and
 * average rate, the time since the last good read, phase and pass, the
 * ETA, and how Ctrl-C ends the run.  When stderr is a file or a pipe
 * (nohup ... 2>log) it is one status line every --status-every seconds
 * instead.  A run that is stopped leaves its last status in full.
 */
#ifndef CDT_SCREEN_H
#define CDT_SCREEN_H

#include "cli.h"

enum screen_mode {
	SCREEN_OFF = 0,
	SCREEN_TERM,		/* lines redrawn in place on a terminal */
	SCREEN_LOG,		/* a line now and then into a file or pipe */
};

struct screen {
	const char *cmd;	/* "image" */
	const char *stop_hint;	/* "Ctrl-C stops; the map is saved", or NULL */
	const struct cdt_dev *dev;	/* its block size, known once probed */
	enum screen_mode mode;
	double log_every_ms;	/* SCREEN_LOG: between two lines */
	unsigned int lines;	/* lines of the screen now on the terminal */
	double t0, last_draw, last_good, last_log;
	double win_t;		/* current rate: a window of about 2 s */
	uint64_t win_bytes, last_bytes;
	double rate;		/* bytes per second in the last window */
	enum cdt_phase last_phase;
	struct cdt_progress last;	/* the last report, for the final status */
	bool have_last;
};

/*
 * Whether progress is shown, and how (fills s): on a terminal the screen,
 * unless -q or -v (whose command log goes to stderr too); into a file or
 * pipe a status line every --status-every seconds, unless -q or 0.
 */
bool screen_start(struct screen *s, const char *cmd, const struct cli_common *co);
/* A cdt_progress_fn; ctx is the struct screen. */
void screen_draw(void *ctx, const struct cdt_progress *p);
/* Clear the screen's lines before anything else goes to the terminal. */
void screen_end(struct screen *s);
/*
 * The run was stopped: leave its last status in full (the screen's lines
 * stay on the terminal; a last line into a file), so that what was done
 * is on record above the "interrupted" that follows.
 */
void screen_stop(struct screen *s);

/* "45.1 MB" (SI units, as ddrescue) into out. */
void screen_bytes(char *out, size_t len, double bytes);
/* "0:12", "1:02:03" into out. */
void screen_hms(char *out, size_t len, double seconds);

#endif
