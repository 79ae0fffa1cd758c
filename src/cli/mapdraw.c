// SPDX-License-Identifier: MIT
/* A map view drawn as a terminal grid or as SVG. */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "mapdraw.h"

static const struct {
	char glyph;		/* ddrescue's status character, '.' skipped */
	const char *sgr;	/* terminal background */
	const char *rgb;	/* SVG fill */
} look[CDT_AREA_COUNT] = {
	[CDT_AREA_FINISHED] = { '+', "42", "#2e9e3e" },
	[CDT_AREA_SKIPPED] = { '.', "45", "#8e5bd0" },
	[CDT_AREA_NONTRIED] = { '?', "47", "#b4b4b4" },
	[CDT_AREA_NONTRIMMED] = { '*', "43", "#f0c020" },
	[CDT_AREA_NONSCRAPED] = { '/', "44", "#2f6fd6" },
	[CDT_AREA_BAD] = { '-', "41", "#d42020" },
};

/* The word before the last n words of s (n = 0: the last word). */
static void nth_last_word(const char *s, unsigned int n, char *out, size_t len)
{
	const char *end = s + strlen(s), *start;

	for (;;) {
		while (end > s && end[-1] == ' ')
			end--;
		start = end;
		while (start > s && start[-1] != ' ')
			start--;
		if (!n-- || start == s)
			break;
		end = start;
	}
	snprintf(out, len, "%.*s", (int)(end - start), start);
}

void mapdraw_name(const struct cdt_mapview *v, const char *map_path,
		  char *out, size_t len)
{
	const char *base = strrchr(map_path, '/');

	out[0] = '\0';
	/* cdtail image ... DEV OUT; ddrescue ... infile outfile mapfile */
	if (v->command[0] && !strncmp(v->tool, "cdtail", 6))
		nth_last_word(v->command, 0, out, len);
	else if (v->command[0] && strstr(v->tool, "ddrescue"))
		nth_last_word(v->command, 1, out, len);
	if (!out[0])
		snprintf(out, len, "%s", base ? base + 1 : map_path);
}

static void when_of(const struct cdt_mapview *v, const char *map_path,
		    char *out, size_t len)
{
	struct stat st;
	struct tm tm;

	if (v->when[0]) {
		snprintf(out, len, "%s", v->when);
		return;
	}
	out[0] = '\0';
	if (!stat(map_path, &st) && localtime_r(&st.st_mtime, &tm))
		strftime(out, len, "%Y-%m-%d %H:%M:%S", &tm);
}

static double percent(const struct cdt_mapview *v, enum cdt_area a)
{
	return v->bytes ? 100.0 * (double)v->area_bytes[a] / (double)v->bytes : 0;
}

/* One header line, cut to cut columns when cut is not 0. */
static void header_line(FILE *f, size_t cut, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void header_line(FILE *f, size_t cut, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (cut && strlen(line) > cut)
		line[cut] = '\0';
	fprintf(f, "%s\n", line);
}

static void text_header(FILE *f, const struct cdt_mapview *v, const char *map_path,
			size_t cut)
{
	char name[256], when[64];

	mapdraw_name(v, map_path, name, sizeof(name));
	when_of(v, map_path, when, sizeof(when));
	header_line(f, cut, "map:      %s (%s%s%s)", map_path,
		    v->tool[0] ? v->tool : "unknown tool", when[0] ? ", " : "", when);
	header_line(f, cut, "image:    %s", name);
	if (v->command[0])
		header_line(f, cut, "command:  %s", v->command);
	header_line(f, cut, "size:     %llu blocks of %u bytes (%llu bytes); 1 cell = %llu block%s",
		    (unsigned long long)v->blocks, v->block_size,
		    (unsigned long long)v->bytes, (unsigned long long)v->blocks_per_cell,
		    v->blocks_per_cell == 1 ? "" : "s");
}

static void text_grid(FILE *f, const struct cdt_mapview *v, unsigned int cols,
		      bool color)
{
	uint64_t col = 0;
	size_t i;

	for (i = 0; i < v->n_runs; i++) {
		const struct cdt_cell_run *r = &v->runs[i];
		uint64_t k;

		for (k = 0; k < r->cells; k++) {
			if (col == 0)
				fputs("  ", f);
			if (color && (k == 0 || col == 0))
				fprintf(f, "\033[30;%sm", look[r->area].sgr);
			fputc(look[r->area].glyph, f);
			if (++col == cols || (k + 1 == r->cells && color)) {
				if (color)
					fputs("\033[0m", f);
				if (col == cols) {
					fputc('\n', f);
					col = 0;
				}
			}
		}
	}
	if (col)
		fputc('\n', f);
}

int mapdraw_text(FILE *f, const struct cdt_mapview *v, const char *map_path,
		 unsigned int cols, bool color, size_t cut)
{
	unsigned int a;

	text_header(f, v, map_path, cut);
	text_grid(f, v, cols, color);
	fprintf(f, "legend:   %-12s %12s %14s %7s\n", "", "blocks", "bytes", "");
	for (a = 0; a < CDT_AREA_COUNT; a++) {
		fputs("  ", f);
		if (color)
			fprintf(f, "\033[30;%sm%c\033[0m", look[a].sgr, look[a].glyph);
		else
			fputc(look[a].glyph, f);
		fprintf(f, "       %-12s %12llu %14llu %6.2f%%\n", cdt_area_name(a),
			(unsigned long long)(v->area_bytes[a] / v->block_size),
			(unsigned long long)v->area_bytes[a], percent(v, a));
	}
	return ferror(f) ? CDT_EIO : 0;
}

/* ---- SVG --------------------------------------------------------------- */

#define CELL 8		/* px per cell */
#define MARGIN 16
/*
 * A picture rendered to PNG has no tooltips: each 4th row is labelled with
 * its first LBA on the left, and a ruler above the grid gives the blocks
 * from a row's start, so any cell's LBA can be read off the image.
 */
#define LABEL_W 88	/* "LBA 4294967295" at 10 px */
#define GRID_LEFT (MARGIN + LABEL_W)
#define GRID_TOP 96
#define LABEL_EVERY 4	/* rows: 32 px between labels of 10 px */
#define LEGEND_ROW 20

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20)
				fputc(*s, f);
		}
	}
}

/* One run of cells: one rect per row it touches, and one tooltip. */
static void svg_run(FILE *f, const struct cdt_cell_run *r, unsigned int cols)
{
	uint64_t c = r->cell, end = r->cell + r->cells;

	fprintf(f, "<g fill=\"%s\"><title>LBA %llu-%llu: %s (%llu blocks)</title>",
		look[r->area].rgb, (unsigned long long)r->lba,
		(unsigned long long)(r->lba + r->blocks - 1), cdt_area_name(r->area),
		(unsigned long long)r->blocks);
	while (c < end) {
		uint64_t row = c / cols, col = c % cols;
		uint64_t n = cols - col < end - c ? cols - col : end - c;

		fprintf(f, "<rect x=\"%llu\" y=\"%llu\" width=\"%llu\" height=\"%d\"/>",
			(unsigned long long)(GRID_LEFT + col * CELL),
			(unsigned long long)(GRID_TOP + row * CELL),
			(unsigned long long)(n * CELL), CELL);
		c += n;
	}
	fputs("</g>\n", f);
}

static void svg_legend(FILE *f, const struct cdt_mapview *v, uint64_t top)
{
	unsigned int a;

	for (a = 0; a < CDT_AREA_COUNT; a++) {
		uint64_t y = top + a * LEGEND_ROW;

		fprintf(f, "<rect id=\"legend-%s\" x=\"%d\" y=\"%llu\" width=\"14\" height=\"14\" fill=\"%s\" stroke=\"#444\"/>",
			cdt_area_name(a), MARGIN, (unsigned long long)y, look[a].rgb);
		fprintf(f, "<text x=\"%d\" y=\"%llu\">%s: %llu blocks (%.2f%%)</text>\n",
			MARGIN + 22, (unsigned long long)(y + 12), cdt_area_name(a),
			(unsigned long long)(v->area_bytes[a] / v->block_size),
			percent(v, a));
	}
}

/* Every LABEL_EVERY-th row's first LBA, right-aligned left of the grid. */
static void svg_row_labels(FILE *f, const struct cdt_mapview *v, unsigned int cols,
			   uint64_t rows)
{
	uint64_t r;

	fputs("<g font-size=\"10\" text-anchor=\"end\" fill=\"#333\">", f);
	for (r = 0; r < rows; r += LABEL_EVERY)
		fprintf(f, "<text class=\"row-lba\" x=\"%d\" y=\"%llu\">LBA %llu</text>",
			GRID_LEFT - 6, (unsigned long long)(GRID_TOP + r * CELL + CELL),
			(unsigned long long)(r * cols * v->blocks_per_cell));
	fputs("</g>\n", f);
}

/* Ticks every 10 cells above the grid, labelled with blocks from the row's start. */
static void svg_ruler(FILE *f, const struct cdt_mapview *v, unsigned int cols)
{
	unsigned int c, every = cols > 60 ? 20 : 10;

	fprintf(f, "<g font-size=\"10\" text-anchor=\"middle\" fill=\"#333\" stroke-width=\"1\">"
		"<text x=\"%d\" y=\"%d\" text-anchor=\"end\">+blocks</text>",
		GRID_LEFT - 14, GRID_TOP - 8);
	for (c = 0; c <= cols; c += every) {
		unsigned int x = GRID_LEFT + c * CELL;

		fprintf(f, "<line x1=\"%u\" y1=\"%d\" x2=\"%u\" y2=\"%d\" stroke=\"#333\"/>"
			"<text class=\"ruler\" x=\"%u\" y=\"%d\">+%llu</text>", x, GRID_TOP - 6, x,
			GRID_TOP - 1, x, GRID_TOP - 8,
			(unsigned long long)c * v->blocks_per_cell);
	}
	fputs("</g>\n", f);
}

int mapdraw_svg(FILE *f, const struct cdt_mapview *v, const char *map_path,
		unsigned int cols)
{
	uint64_t rows = (v->cells + cols - 1) / cols;
	uint64_t legend_top = GRID_TOP + rows * CELL + 16;
	uint64_t width = GRID_LEFT + 2 * MARGIN + (uint64_t)cols * CELL;
	uint64_t height = legend_top + CDT_AREA_COUNT * LEGEND_ROW + MARGIN;
	char name[256], when[64];
	size_t i;

	if (width < 420)
		width = 420;
	mapdraw_name(v, map_path, name, sizeof(name));
	when_of(v, map_path, when, sizeof(when));
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%llu\" height=\"%llu\" "
		"viewBox=\"0 0 %llu %llu\" font-family=\"sans-serif\" font-size=\"12\">\n",
		(unsigned long long)width, (unsigned long long)height,
		(unsigned long long)width, (unsigned long long)height);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
	fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">", MARGIN);
	xml_text(f, name);
	fprintf(f, "</text>\n<text x=\"%d\" y=\"44\">%llu blocks of %u bytes (%llu bytes), "
		"1 cell = %llu block%s</text>\n", MARGIN,
		(unsigned long long)v->blocks, v->block_size, (unsigned long long)v->bytes,
		(unsigned long long)v->blocks_per_cell, v->blocks_per_cell == 1 ? "" : "s");
	fprintf(f, "<text x=\"%d\" y=\"62\">", MARGIN);
	xml_text(f, when[0] ? when : "no date");
	fputs(" \xc2\xb7 ", f);
	xml_text(f, v->tool[0] ? v->tool : "unknown tool");
	fputs("</text>\n", f);
	svg_ruler(f, v, cols);
	svg_row_labels(f, v, cols, rows);
	for (i = 0; i < v->n_runs; i++)
		svg_run(f, &v->runs[i], cols);
	svg_legend(f, v, legend_top);
	fputs("</svg>\n", f);
	return ferror(f) ? CDT_EIO : 0;
}

int mapdraw_svg_file(const char *svg_path, const char *map_path,
		     unsigned int cols, uint32_t block_size,
		     char *err, size_t errlen)
{
	struct cdt_mapview_opts o = {
		.size = sizeof(o),
		.max_cells = (uint64_t)cols * MAPDRAW_SVG_ROWS,
		.block_size = block_size,
	};
	struct cdt_mapview v = CDT_INIT(v);
	char tmp[4096];
	FILE *f;
	int rc;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", svg_path) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "%s: name too long", svg_path);
		return CDT_EUSAGE;
	}
	rc = cdt_mapview_load(map_path, &o, &v, err, errlen);
	if (rc)
		return rc;
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		cdt_mapview_free(&v);
		return CDT_EIO;
	}
	rc = mapdraw_svg(f, &v, map_path, cols);
	cdt_mapview_free(&v);
	if (fclose(f) || rc || rename(tmp, svg_path)) {
		snprintf(err, errlen, "cannot write %s: %s", svg_path, strerror(errno));
		unlink(tmp);
		return CDT_EIO;
	}
	return 0;
}

/* ---- image --svg --------------------------------------------------------- */

static bool map_changed(struct mapdraw_watch *w)
{
	struct stat st;
	long long ns;

	if (stat(w->map, &st))
		return false;
	ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
	if (ns == w->seen_ns && st.st_size == w->seen_size)
		return false;
	w->seen_ns = ns;
	w->seen_size = st.st_size;
	return true;
}

static int redraw(struct mapdraw_watch *w)
{
	char err[1024];
	int rc;

	rc = mapdraw_svg_file(w->svg, w->map, MAPDRAW_SVG_COLS, 0, err, sizeof(err));
	if (rc && !w->failed) {
		fprintf(stderr, "cdtail: image: --svg: %s\n", err);
		w->failed = true;
	}
	return rc;
}

static void watch_progress(void *ctx, const struct cdt_progress *p)
{
	struct mapdraw_watch *w = ctx;

	if (w->every && map_changed(w))
		redraw(w);
	if (w->inner)
		w->inner(w->inner_ctx, p);
}

void mapdraw_watch(struct mapdraw_watch *w, struct cdt_read_opts *rd)
{
	w->inner = rd->progress;
	w->inner_ctx = rd->progress_ctx;
	rd->progress = watch_progress;
	rd->progress_ctx = w;
}

int mapdraw_watch_end(struct mapdraw_watch *w)
{
	struct stat st;

	/* a run that stopped before its first save has no map to draw */
	if (stat(w->map, &st))
		return 0;
	return redraw(w) ? CDT_EIO : 0;
}
