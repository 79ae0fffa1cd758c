// SPDX-License-Identifier: MIT
/* cdtail map: a ddrescue mapfile as a picture, on the terminal or in SVG. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "mapdraw.h"
#include "cli.h"
#include "readui.h"

#define CMD "map"

#define OPT_SVG 0x1501
#define OPT_WIDTH 0x1502
#define OPT_COLOR 0x1503
#define OPT_BLOCK_SIZE 0x1504
#define OPT_FORCE 0x1505

struct map_args {
	struct cli_common co;
	const char *map, *svg;
	unsigned int width;	/* 0: fit the terminal */
	int color;		/* -1 auto, 0 never, 1 always */
	uint32_t block_size;
	bool force;
};

static int parse_color(const char *s)
{
	if (!strcmp(s, "auto"))
		return -1;
	if (!strcmp(s, "never"))
		return 0;
	if (!strcmp(s, "always"))
		return 1;
	return -2;
}

static int map_opt(void *ctx, int key, const char *arg)
{
	struct map_args *a = ctx;
	uint64_t v;
	int rc;

	switch (key) {
	case OPT_SVG:
		return cli_opt_file(CMD, "svg", arg, &a->svg);
	case OPT_FORCE:
		a->force = true;
		return 0;
	case OPT_WIDTH:
		rc = cli_opt_u64(CMD, "width", "a number of cells", arg, 8, 1000, &v);
		a->width = (unsigned int)v;
		return rc;
	case OPT_COLOR:
		a->color = parse_color(arg);
		if (a->color == -2)
			return cli_usage(CMD, "--color wants auto, always or never, not '%s'", arg);
		return 0;
	case OPT_BLOCK_SIZE:
		rc = cli_opt_u64(CMD, "block-size", "bytes", arg, 1, 65536, &v);
		a->block_size = (uint32_t)v;
		return rc;
	}
	return 1;
}

/* Returns 0, EX_USAGE_ERR, or CLI_HELP_SHOWN (exit 0). */
static int parse_args(int argc, char **argv, struct map_args *a)
{
	struct cli_args ops;
	int rc;

	memset(a, 0, sizeof(*a));
	a->color = -1;
	a->block_size = 2048;
	rc = cli_parse(&cli_cmd_map, argc, argv, &a->co, map_opt, a, &ops);
	if (rc)
		return rc;
	a->map = ops.op[0];
	cli_note_device(a->map);
	if (!*a->map)
		return cli_usage(CMD, "MAPFILE is empty");
	if (a->force && !a->svg)
		return cli_usage(CMD, "--force only applies to --svg");
	return 0;
}

/* A terminal's width, 0 when stdout is none (a file keeps whole lines). */
static size_t terminal_width(void)
{
	struct winsize ws;

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	return 0;
}

/* Cells a row on the terminal: its width less the grid's indent. */
static unsigned int terminal_cols(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	uint64_t v;
	unsigned int w = 80;

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		w = ws.ws_col;
	else if (env && !cli_parse_u64(env, &v) && v >= 10 && v <= 1000)
		w = (unsigned int)v;
	return w > 10 ? w - 2 : 8;
}

/*
 * Rows of cells that keep the whole picture on one screen: the terminal's
 * height (or LINES) less the header (4 lines at most), the legend (7) and
 * the shell's next prompt; MAPDRAW_TEXT_ROWS at most, 2 at least.  The
 * library then scales the cells so the disc fits in them.
 */
#define MAP_TEXT_LINES (4 + 7 + 1)

static unsigned int terminal_rows(void)
{
	struct winsize ws;
	const char *env = getenv("LINES");
	uint64_t v;
	unsigned int h = 0;

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row)
		h = ws.ws_row;
	else if (env && !cli_parse_u64(env, &v) && v >= 1 && v <= 1000)
		h = (unsigned int)v;
	if (!h || h >= MAPDRAW_TEXT_ROWS + MAP_TEXT_LINES)
		return MAPDRAW_TEXT_ROWS;
	return h > MAP_TEXT_LINES + 2 ? h - MAP_TEXT_LINES : 2;
}

static bool use_color(int how)
{
	const char *term = getenv("TERM");

	if (how >= 0)
		return how;
	return isatty(STDOUT_FILENO) && !getenv("NO_COLOR") &&
	       !(term && !strcmp(term, "dumb"));
}

static const char *verdict(const struct cdt_mapview *v)
{
	const uint64_t *b = v->area_bytes;

	if (b[CDT_AREA_NONTRIED] || b[CDT_AREA_NONTRIMMED] || b[CDT_AREA_NONSCRAPED])
		return "incomplete";
	return b[CDT_AREA_BAD] ? "unreadable" : "complete";
}

static void print_json(const struct map_args *a, const struct cdt_mapview *v)
{
	json_object *o = json_object_new_object(), *areas, *runs;
	char name[256];
	unsigned int i;
	size_t k;

	mapdraw_name(v, a->map, name, sizeof(name));
	json_object_object_add(o, "map", json_object_new_string(a->map));
	json_object_object_add(o, "image", json_object_new_string(name));
	json_object_object_add(o, "tool", v->tool[0] ? json_object_new_string(v->tool) : NULL);
	json_object_object_add(o, "block_size", json_object_new_int64(v->block_size));
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)v->bytes));
	json_object_object_add(o, "blocks", json_object_new_int64((int64_t)v->blocks));
	json_object_object_add(o, "cells", json_object_new_int64((int64_t)v->cells));
	json_object_object_add(o, "blocks_per_cell", json_object_new_int64((int64_t)v->blocks_per_cell));
	areas = json_object_new_object();
	for (i = 0; i < CDT_AREA_COUNT; i++)
		json_object_object_add(areas, cdt_area_name(i),
				       json_object_new_int64((int64_t)v->area_bytes[i]));
	json_object_object_add(o, "area_bytes", areas);
	runs = json_object_new_array();
	for (k = 0; k < v->n_runs; k++) {
		json_object *r = json_object_new_object();

		json_object_object_add(r, "cell", json_object_new_int64((int64_t)v->runs[k].cell));
		json_object_object_add(r, "cells", json_object_new_int64((int64_t)v->runs[k].cells));
		json_object_object_add(r, "lba", json_object_new_int64((int64_t)v->runs[k].lba));
		json_object_object_add(r, "blocks", json_object_new_int64((int64_t)v->runs[k].blocks));
		json_object_object_add(r, "area", json_object_new_string(cdt_area_name(v->runs[k].area)));
		json_object_array_add(runs, r);
	}
	json_object_object_add(o, "runs", runs);
	json_object_object_add(o, "verdict", json_object_new_string(verdict(v)));
	cli_json_out(o);
}

static int draw(const struct map_args *a, unsigned int cols, unsigned int rows)
{
	struct cdt_mapview_opts o = {
		.size = sizeof(o),
		.max_cells = (uint64_t)cols * rows,
		.block_size = a->block_size,
	};
	struct cdt_mapview v = CDT_INIT(v);
	char err[1024];
	int rc;

	rc = cdt_mapview_load(a->map, &o, &v, err, sizeof(err));
	if (rc) {
		cli_err("%s: %s", CMD, err);
		return rc == CDT_ENOMEM || rc == CDT_EIO ? EX_DEVICE_ERR : EX_USAGE_ERR;
	}
	if (a->co.json)
		print_json(a, &v);
	else
		rc = mapdraw_text(stdout, &v, a->map, cols, use_color(a->color), terminal_width());
	cdt_mapview_free(&v);
	if (rc || fflush(stdout)) {
		cli_err("%s: cannot write the picture", CMD);
		return EX_DEVICE_ERR;
	}
	return 0;
}

static int draw_svg(const struct map_args *a)
{
	unsigned int cols = a->width ? a->width : MAPDRAW_SVG_COLS;
	struct stat st;
	char err[1024];
	int rc;

	if (!a->force && !lstat(a->svg, &st))
		return cli_usage(CMD, "%s exists: add --force to replace it", a->svg);
	rc = mapdraw_svg_file(a->svg, a->map, cols, a->block_size, err, sizeof(err));
	if (rc) {
		cli_err("%s: %s", CMD, err);
		return rc == CDT_EIO || rc == CDT_ENOMEM ? EX_DEVICE_ERR : EX_USAGE_ERR;
	}
	if (!a->co.quiet && !a->co.json)
		printf("svg:      %s\n", a->svg);
	return 0;
}

static int draw_any(struct map_args *a)
{
	int rc;

	if (a->svg) {
		/* with --json too, the JSON describes the SVG's cells */
		rc = draw_svg(a);
		if (rc || !a->co.json)
			return rc;
		return draw(a, a->width ? a->width : MAPDRAW_SVG_COLS, MAPDRAW_SVG_ROWS);
	}
	return draw(a, a->width ? a->width : terminal_cols(), terminal_rows());
}

/*
 * SIGINT and SIGTERM are caught, so that --json's one object is never cut:
 * a map held in a read (MAPFILE a FIFO) ends it 130/143 with the error
 * object; one that came while drawing lets the drawing finish, and the
 * status says the run was interrupted.
 */
static int run(int argc, char **argv)
{
	volatile sig_atomic_t *stop = rui_catch_signals();
	struct map_args a;
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc && *stop)
		return rui_interrupted_status();
	if (rc)
		return rc == CLI_HELP_SHOWN ? 0 : rc;
	rc = draw_any(&a);
	return *stop ? rui_interrupted_status() : rc;
}

static const struct cli_opt map_opts[] = {
	{ "svg", OPT_SVG, "FILE", "write the picture as SVG to FILE instead" },
	{ "force", OPT_FORCE, NULL, "with --svg: replace an existing FILE" },
	{ "width", OPT_WIDTH, "N", "cells a row, 8 to 1000 (default: the terminal's width; 100 with --svg)" },
	{ "color", OPT_COLOR, "WHEN", "auto (the default: on a terminal, unless NO_COLOR), always or never" },
	{ "block-size", OPT_BLOCK_SIZE, "BYTES", "bytes per block of the map (default 2048)" },
	CLI_OPTS_NO_DEVICE
};

const struct cli_cmd cli_cmd_map = {
	.name = CMD,
	.operands = "MAPFILE",
	.about = "draw a ddrescue mapfile on the terminal or as SVG\n"
		 "\n"
		 "Draw a GNU ddrescue mapfile (cdtail's or ddrescue's own) as a grid of\n"
		 "cells coloured by status: finished, skipped (not data), non-tried,\n"
		 "non-trimmed, non-scraped, bad.  A cell shows the worst status of its\n"
		 "blocks.  --json: the cells and totals as one JSON object.\n",
	.exits = "Exit: 0 drawn, 2 usage error or MAPFILE missing or not a mapfile,\n"
		 "3 the picture could not be written, 130/143 interrupted.\n",
	.opts = map_opts,
	.min_operands = 1,
	.max_operands = 1,
	.run = run,
};
