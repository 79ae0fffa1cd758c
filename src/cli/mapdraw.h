/* SPDX-License-Identifier: MIT */
/*
 * A map view drawn: a grid of coloured cells on a terminal, or an SVG
 * picture (cdtail map, image --svg).  The library computes the cells
 * (cdt_mapview_*); this only draws them.
 */
#ifndef CDT_MAPDRAW_H
#define CDT_MAPDRAW_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "cdtail-tools.h"

/* Rows of cells at most: the grid stays on one screen, the SVG small. */
#define MAPDRAW_TEXT_ROWS 16
#define MAPDRAW_SVG_ROWS 50
#define MAPDRAW_SVG_COLS 100

/* The name of the image the map belongs to, from its command line. */
void mapdraw_name(const struct cdt_mapview *v, const char *map_path,
		  char *out, size_t len);

/*
 * The grid, cols cells a row, with header, legend and totals; header lines
 * cut to cut columns (0: whole), so that on a terminal none wraps and the
 * picture keeps the height it was sized for.
 */
int mapdraw_text(FILE *f, const struct cdt_mapview *v, const char *map_path,
		 unsigned int cols, bool color, size_t cut);

/* The same as an SVG document. */
int mapdraw_svg(FILE *f, const struct cdt_mapview *v, const char *map_path,
		unsigned int cols);

/*
 * Read map_path and replace svg_path atomically with its picture
 * (svg_path.tmp, then rename), so a browser reloading it never sees half
 * a file.  0, or a CDT_E* code with a message in err.
 */
int mapdraw_svg_file(const char *svg_path, const char *map_path,
		     unsigned int cols, uint32_t block_size,
		     char *err, size_t errlen);

/*
 * image --svg: the picture of a run's map, redrawn from the map file.
 * mapdraw_watch() puts itself in front of rd's progress callback and, when
 * every is set, redraws whenever the map file changed (each map save);
 * mapdraw_watch_end() draws the last picture.
 */
struct mapdraw_watch {
	const char *svg, *map;
	bool every;
	cdt_progress_fn inner;
	void *inner_ctx;
	long long seen_ns;	/* the map's mtime at the last picture */
	off_t seen_size;
	bool failed;		/* said once that the SVG cannot be written */
};

void mapdraw_watch(struct mapdraw_watch *w, struct cdt_read_opts *rd);
/* 0, or CDT_EIO with the reason on stderr. */
int mapdraw_watch_end(struct mapdraw_watch *w);

#endif
