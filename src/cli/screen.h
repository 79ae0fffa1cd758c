/* SPDX-License-Identifier: MIT */
/*
 * The progress screen: a few lines on stderr, redrawn in place, only on a
 * terminal, never wider than it (so it never wraps), silent in files and
 * pipes.  It shows the end search (probe, image, tail, verify) and the
 * copy: rescued bytes of the total, percent, bad areas and bytes, the
 * current and average rate, the time since the last good read, phase and
 * pass, the ETA, and how Ctrl-C ends the run.
 */
#ifndef CDT_SCREEN_H
#define CDT_SCREEN_H

#include "cli.h"

struct screen {
	const char *cmd;	/* "image" */
	const char *stop_hint;	/* "Ctrl-C stops; the map is saved", or NULL */
	const struct cdt_dev *dev;	/* its block size, known once probed */
	unsigned int lines;	/* lines of the screen now on the terminal */
	double t0, last_draw, last_good;
	double win_t;		/* current rate: a window of about 2 s */
	uint64_t win_bytes, last_bytes;
	double rate;		/* bytes per second in the last window */
	enum cdt_phase last_phase;
};

/*
 * Whether a screen should run: stderr is a terminal, and neither -q nor
 * -v (whose command log goes to stderr too) was given.  Fills s.
 */
bool screen_start(struct screen *s, const char *cmd, const struct cli_common *co);
/* A cdt_progress_fn; ctx is the struct screen. */
void screen_draw(void *ctx, const struct cdt_progress *p);
/* Clear the screen's lines before anything else goes to the terminal. */
void screen_end(struct screen *s);

/* "45.1 MB" (SI units, as ddrescue) into out. */
void screen_bytes(char *out, size_t len, double bytes);
/* "0:12", "1:02:03" into out. */
void screen_hms(char *out, size_t len, double seconds);

#endif
