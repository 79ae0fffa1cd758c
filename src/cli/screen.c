// SPDX-License-Identifier: MIT
/* The progress screen (screen.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "screen.h"

#define SCREEN_LINES 4
#define LINE_MAX_LEN 512
#define DRAW_EVERY_MS 200.0
#define RATE_WINDOW_MS 2000.0

bool screen_start(struct screen *s, const char *cmd, const struct cli_common *co)
{
	memset(s, 0, sizeof(*s));
	s->cmd = cmd;
	s->t0 = cli_now_ms();
	s->last_good = s->t0;
	s->win_t = s->t0;
	s->last_phase = (enum cdt_phase)-1;
	return !co->quiet && !co->verbose && isatty(STDERR_FILENO);
}

void screen_bytes(char *out, size_t len, double b)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB" };
	unsigned int i = 0;

	while (b >= 1000 && i < 4) {
		b /= 1000;
		i++;
	}
	if (i)
		snprintf(out, len, "%.1f %s", b, unit[i]);
	else
		snprintf(out, len, "%.0f B", b);
}

void screen_hms(char *out, size_t len, double sec)
{
	unsigned long t = sec > 0 ? (unsigned long)(sec + 0.5) : 0;

	if (t >= 3600)
		snprintf(out, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(out, len, "%lu:%02lu", t / 60, t % 60);
}

/* Columns of the terminal, minus one: a line as wide as it wraps on some. */
static size_t width(void)
{
	struct winsize ws;

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1)
		return ws.ws_col - 1u;
	return 79;
}

/* Replace the lines on the terminal with these, each cut to the width. */
static void show(struct screen *s, char lines[][LINE_MAX_LEN], unsigned int n)
{
	size_t w = width();
	unsigned int i;

	if (s->lines > 1)
		fprintf(stderr, "\033[%uA", s->lines - 1);
	fputs("\r\033[J", stderr);
	for (i = 0; i < n; i++) {
		size_t len = strlen(lines[i]);

		fwrite(lines[i], 1, len < w ? len : w, stderr);
		if (i + 1 < n)
			fputc('\n', stderr);
	}
	fflush(stderr);
	s->lines = n;
}

static unsigned int search_lines(const struct screen *s, const struct cdt_progress *p,
				 char l[][LINE_MAX_LEN])
{
	char dt[32];

	screen_hms(dt, sizeof(dt), p->elapsed_ms / 1000);
	if (p->pos >= p->total)
		snprintf(l[0], LINE_MAX_LEN, "cdtail %s: reading past the reported end: LBA %" PRIu64
			 ", %" PRIu64 " failing read%s so far", s->cmd, p->pos, p->bad,
			 p->bad == 1 ? "" : "s");
	else
		snprintf(l[0], LINE_MAX_LEN, "cdtail %s: checking the end: LBA %" PRIu64
			 ", %" PRIu64 " failing read%s so far", s->cmd, p->pos, p->bad,
			 p->bad == 1 ? "" : "s");
	snprintf(l[1], LINE_MAX_LEN, "  %" PRIu64 " reads, %s of drive time; %" PRIu64
		 " blocks reported", p->done, dt, p->total);
	return 2;
}

static void update_rate(struct screen *s, const struct cdt_progress *p, double now)
{
	if (p->bytes_read > s->last_bytes)
		s->last_good = now;
	s->last_bytes = p->bytes_read;
	if (now - s->win_t >= RATE_WINDOW_MS) {
		s->rate = (double)(p->bytes_read - s->win_bytes) * 1000 / (now - s->win_t);
		s->win_t = now;
		s->win_bytes = p->bytes_read;
	}
}

static unsigned int copy_lines(struct screen *s, const struct cdt_progress *p, double now,
			       char l[][LINE_MAX_LEN])
{
	double bs = s->dev ? cdt_block_size(s->dev) : 0, secs = (now - s->t0) / 1000;
	double avg = p->elapsed_ms > 0 ? (double)p->bytes_read * 1000 / p->elapsed_ms : 0;
	double pct = p->total ? 100.0 * (double)p->done / (double)p->total : 100;
	char done[32], total[32], bad[32], cur[32], mean[32], el[32], eta[32] = "-", idle[32];

	screen_bytes(done, sizeof(done), (double)p->done * bs);
	screen_bytes(total, sizeof(total), (double)p->total * bs);
	screen_bytes(bad, sizeof(bad), (double)p->bad * bs);
	screen_bytes(cur, sizeof(cur), s->rate);
	screen_bytes(mean, sizeof(mean), avg);
	screen_hms(el, sizeof(el), secs);
	if (now - s->last_good < 60000)
		snprintf(idle, sizeof(idle), "%.0f s", (now - s->last_good) / 1000);
	else
		screen_hms(idle, sizeof(idle), (now - s->last_good) / 1000);
	if (avg > 0 && (p->phase == CDT_PHASE_COPY || p->phase == CDT_PHASE_COMPARE))
		screen_hms(eta, sizeof(eta), (double)(p->total - p->done) * bs / avg);
	snprintf(l[0], LINE_MAX_LEN, "cdtail %s: %s, pass %u%s%s", s->cmd, cdt_phase_name(p->phase),
		 p->pass, s->stop_hint ? "; " : "", s->stop_hint ? s->stop_hint : "");
	snprintf(l[1], LINE_MAX_LEN, "  rescued %s of %s (%.2f %%), at LBA %" PRIu64, done, total,
		 pct, p->pos);
	snprintf(l[2], LINE_MAX_LEN, "  bad %" PRIu64 " area%s, %s (%" PRIu64 " block%s); last good read %s ago",
		 p->bad_areas, p->bad_areas == 1 ? "" : "s", bad, p->bad,
		 p->bad == 1 ? "" : "s", idle);
	snprintf(l[3], LINE_MAX_LEN, "  rate %s/s now, %s/s average; elapsed %s; ETA %s", cur, mean,
		 el, eta);
	return SCREEN_LINES;
}

static unsigned int digest_lines(const struct screen *s, const struct cdt_progress *p,
				 char l[][LINE_MAX_LEN])
{
	double pct = p->total ? 100.0 * (double)p->done / (double)p->total : 100;

	snprintf(l[0], LINE_MAX_LEN, "cdtail %s: hashing the output: %.1f %%", s->cmd, pct);
	return 1;
}

void screen_draw(void *ctx, const struct cdt_progress *p)
{
	struct screen *s = ctx;
	char lines[SCREEN_LINES][LINE_MAX_LEN];
	double now = cli_now_ms();
	unsigned int n;

	if (p->phase != CDT_PHASE_SEARCH)
		update_rate(s, p, now);
	/* the end search reports every read: draw a few times a second */
	if (p->phase == s->last_phase && now - s->last_draw < DRAW_EVERY_MS)
		return;
	s->last_phase = p->phase;
	s->last_draw = now;
	if (p->phase == CDT_PHASE_SEARCH)
		n = search_lines(s, p, lines);
	else if (p->phase == CDT_PHASE_DIGEST)
		n = digest_lines(s, p, lines);
	else
		n = copy_lines(s, p, now, lines);
	show(s, lines, n);
}

void screen_end(struct screen *s)
{
	if (!s->lines)
		return;
	if (s->lines > 1)
		fprintf(stderr, "\033[%uA", s->lines - 1);
	fputs("\r\033[J", stderr);
	fflush(stderr);
	s->lines = 0;
}
