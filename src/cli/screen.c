// SPDX-License-Identifier: MIT
/* The progress screen (screen.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "screen.h"

#define SCREEN_LINES 5
#define LINE_MAX_LEN 512
#define DRAW_EVERY_MS 200.0
#define RATE_WINDOW_MS 2000.0

bool screen_start(struct screen *s, const char *cmd, const struct cli_common *co)
{
	memset(s, 0, sizeof(*s));
	s->cmd = cmd;
	s->t0 = cli_now_ms();
	s->last_good = s->t0;
	s->last_log = s->t0;
	s->win_t = s->t0;
	s->last_phase = (enum cdt_phase)-1;
	s->log_every_ms = co->status_every_s * 1000.0;
	if (co->quiet)
		s->mode = SCREEN_OFF;
	else if (isatty(STDERR_FILENO))
		s->mode = co->verbose ? SCREEN_OFF : SCREEN_TERM;
	else
		s->mode = co->status_every_s ? SCREEN_LOG : SCREEN_OFF;
	return s->mode != SCREEN_OFF;
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

/* ddrescue's words for the blocks not finished: what each pass has left */
static void left_line(char *l, const struct cdt_progress *p, double bs)
{
	char tried[32], trim[32], scrape[32];

	screen_bytes(tried, sizeof(tried), (double)p->non_tried * bs);
	screen_bytes(trim, sizeof(trim), (double)p->non_trimmed * bs);
	screen_bytes(scrape, sizeof(scrape), (double)p->non_scraped * bs);
	snprintf(l, LINE_MAX_LEN, "  non-tried %s, non-trimmed %s, non-scraped %s", tried, trim,
		 scrape);
}

static unsigned int copy_lines(struct screen *s, const struct cdt_progress *p, double now,
			       char l[][LINE_MAX_LEN])
{
	double bs = s->dev ? cdt_block_size(s->dev) : 0, secs = (now - s->t0) / 1000;
	double avg = p->elapsed_ms > 0 ? (double)p->bytes_read * 1000 / p->elapsed_ms : 0;
	double pct = p->total ? 100.0 * (double)p->done / (double)p->total : 100;
	uint64_t sectors = p->bad - p->non_trimmed - p->non_scraped;
	char done[32], total[32], bad[32], cur[32], mean[32], el[32], eta[32] = "-", idle[32];
	unsigned int n = 0;

	screen_bytes(done, sizeof(done), (double)p->done * bs);
	screen_bytes(total, sizeof(total), (double)p->total * bs);
	screen_bytes(bad, sizeof(bad), (double)sectors * bs);
	screen_bytes(cur, sizeof(cur), s->rate);
	screen_bytes(mean, sizeof(mean), avg);
	screen_hms(el, sizeof(el), secs);
	if (now - s->last_good < 60000)
		snprintf(idle, sizeof(idle), "%.0f s", (now - s->last_good) / 1000);
	else
		screen_hms(idle, sizeof(idle), (now - s->last_good) / 1000);
	if (avg > 0 && (p->phase == CDT_PHASE_COPY || p->phase == CDT_PHASE_COMPARE))
		screen_hms(eta, sizeof(eta), (double)(p->total - p->done) * bs / avg);
	snprintf(l[n++], LINE_MAX_LEN, "cdtail %s: %s, pass %u%s%s", s->cmd,
		 cdt_phase_name(p->phase), p->pass, s->stop_hint ? "; " : "",
		 s->stop_hint ? s->stop_hint : "");
	snprintf(l[n++], LINE_MAX_LEN, "  rescued %s of %s (%.2f %%), at LBA %" PRIu64, done,
		 total, pct, p->pos);
	/* verify has no map: nothing is non-tried or non-trimmed there */
	if (p->phase != CDT_PHASE_COMPARE)
		left_line(l[n++], p, bs);
	snprintf(l[n++], LINE_MAX_LEN, "  bad-sector %s (%" PRIu64 " block%s), bad areas %" PRIu64
		 "; last good read %s ago", bad, sectors, sectors == 1 ? "" : "s", p->bad_areas,
		 idle);
	snprintf(l[n++], LINE_MAX_LEN, "  rate %s/s now, %s/s average; elapsed %s; ETA %s", cur,
		 mean, el, eta);
	return n;
}

static unsigned int digest_lines(const struct screen *s, const struct cdt_progress *p,
				 char l[][LINE_MAX_LEN])
{
	double pct = p->total ? 100.0 * (double)p->done / (double)p->total : 100;

	snprintf(l[0], LINE_MAX_LEN, "cdtail %s: hashing the output: %.1f %%", s->cmd, pct);
	return 1;
}

static unsigned int lines_for(struct screen *s, const struct cdt_progress *p, double now,
			      char lines[][LINE_MAX_LEN])
{
	if (p->phase == CDT_PHASE_SEARCH)
		return search_lines(s, p, lines);
	if (p->phase == CDT_PHASE_DIGEST)
		return digest_lines(s, p, lines);
	return copy_lines(s, p, now, lines);
}

/* SCREEN_LOG: the screen's lines joined into one, timestamped by elapsed time */
static void log_line(struct screen *s, const struct cdt_progress *p, double now)
{
	char lines[SCREEN_LINES][LINE_MAX_LEN], el[32];
	unsigned int i, n = lines_for(s, p, now, lines);

	screen_hms(el, sizeof(el), (now - s->t0) / 1000);
	fprintf(stderr, "[%s] %s", el, lines[0]);
	for (i = 1; i < n; i++)
		fprintf(stderr, ";%s", lines[i] + 1);
	fputc('\n', stderr);
	fflush(stderr);
	s->last_log = now;
}

void screen_draw(void *ctx, const struct cdt_progress *p)
{
	struct screen *s = ctx;
	char lines[SCREEN_LINES][LINE_MAX_LEN];
	double now = cli_now_ms();

	if (p->phase != CDT_PHASE_SEARCH)
		update_rate(s, p, now);
	/* a caller built against an older cdtail.h: the fields it has */
	memset(&s->last, 0, sizeof(s->last));
	memcpy(&s->last, p, p->size < sizeof(s->last) ? p->size : sizeof(s->last));
	s->have_last = true;
	if (s->mode == SCREEN_LOG) {
		if (now - s->last_log >= s->log_every_ms)
			log_line(s, &s->last, now);
		return;
	}
	/* the end search reports every read: draw a few times a second */
	if (p->phase == s->last_phase && now - s->last_draw < DRAW_EVERY_MS)
		return;
	s->last_phase = p->phase;
	s->last_draw = now;
	show(s, lines, lines_for(s, &s->last, now, lines));
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

void screen_stop(struct screen *s)
{
	char lines[SCREEN_LINES][LINE_MAX_LEN];
	double now = cli_now_ms();

	if (!s->have_last || s->mode == SCREEN_OFF) {
		screen_end(s);
		return;
	}
	/* the hint said how to stop; now it is done */
	s->stop_hint = NULL;
	if (s->mode == SCREEN_LOG) {
		log_line(s, &s->last, now);
		return;
	}
	show(s, lines, lines_for(s, &s->last, now, lines));
	fputc('\n', stderr);
	fflush(stderr);
	s->lines = 0;
}
