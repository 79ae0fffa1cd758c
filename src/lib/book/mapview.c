// SPDX-License-Identifier: MIT
/*
 * A mapfile as cells for a picture (cdtail map, image --svg).  The map's
 * runs are laid over a fixed number of cells; each cell takes the worst
 * status of the bytes it holds, so the cost is the number of cells plus
 * the number of runs, whatever the disc's size.
 */
#include <stdlib.h>
#include <string.h>
#include "cdtail-tools.h"
#include "core/abi.h"
#include "book/mapfile.h"
#include "book/skip.h"

#define MAPVIEW_DEFAULT_CELLS 4096
/*
 * One byte a cell while the view is laid: 64 MiB at most, enough for one
 * cell a block on a 128 GB BD-XL (export's acquiry errors need them exact).
 */
#define MAPVIEW_MAX_CELLS (1u << 26)
/* the status cdtail's skipped-area comments give a run in memory */
#define MAP_SKIPPED 'S'

static const char *const area_names[CDT_AREA_COUNT] = {
	[CDT_AREA_FINISHED] = "finished",
	[CDT_AREA_SKIPPED] = "skipped",
	[CDT_AREA_NONTRIED] = "non-tried",
	[CDT_AREA_NONTRIMMED] = "non-trimmed",
	[CDT_AREA_NONSCRAPED] = "non-scraped",
	[CDT_AREA_BAD] = "bad",
};

const char *cdt_area_name(enum cdt_area a)
{
	return (unsigned int)a < CDT_AREA_COUNT ? area_names[a] : "unknown";
}

static enum cdt_area area_of(char status)
{
	switch (status) {
	case MAP_SKIPPED:
		return CDT_AREA_SKIPPED;
	case MAP_NONTRIED:
		return CDT_AREA_NONTRIED;
	case MAP_NONTRIMMED:
		return CDT_AREA_NONTRIMMED;
	case MAP_NONSCRAPED:
		return CDT_AREA_NONSCRAPED;
	case MAP_BAD:
		return CDT_AREA_BAD;
	}
	return CDT_AREA_FINISHED;
}

/* ---- the comment lines ---------------------------------------------- */

/* Copy the text after prefix (blanks trimmed) when line starts with it. */
static bool take_after(const char *line, size_t len, const char *prefix,
		       char *out, size_t outlen)
{
	size_t plen = strlen(prefix), n;

	if (len < plen || memcmp(line, prefix, plen))
		return false;
	line += plen;
	len -= plen;
	while (len && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\r' ||
		       line[len - 1] == '\t'))
		len--;
	n = len < outlen - 1 ? len : outlen - 1;
	memcpy(out, line, n);
	out[n] = '\0';
	return true;
}

/*
 * cdtail's record of the areas it did not read because they are not data
 * (skip.h; marked finished in the runs, so GNU ddrescue never reads them
 * either): each laid on m as skipped.  A damaged list is only a comment:
 * the picture is drawn without it.
 */
static int lay_skipped(const char *buf, size_t len, uint32_t bs, struct cdt_map *m)
{
	struct skip_plan s;
	size_t i;
	int rc = skip_parse(buf, len, &s);

	if (rc)
		return rc == CDT_ENOMEM ? rc : 0;
	for (i = 0; i < s.n && !rc; i++)
		if (s.v[i].start <= UINT64_MAX / bs / 2 && s.v[i].blocks <= UINT64_MAX / bs / 2)
			rc = map_set(m, s.v[i].start * bs, s.v[i].blocks * bs, MAP_SKIPPED);
	skip_free(&s);
	return rc;
}

/* Read the comments: who wrote the map, when, how; lay skipped areas on m. */
static int read_comments(const char *buf, size_t len, uint32_t bs,
			 struct cdt_map *m, struct cdt_mapview *v)
{
	size_t off = 0;

	while (off < len) {
		const char *line = buf + off;
		const char *nl = memchr(line, '\n', len - off);
		size_t llen = nl ? (size_t)(nl - line) : len - off;
		off += llen + (nl ? 1 : 0);
		if (!llen || line[0] != '#')
			continue;
		if (!take_after(line, llen, "# Mapfile. Created by", v->tool, sizeof(v->tool)) &&
		    !take_after(line, llen, "# Command line:", v->command, sizeof(v->command)))
			take_after(line, llen, "# Current time:", v->when, sizeof(v->when));
	}
	return lay_skipped(buf, len, bs, m);
}

/* ---- cells ------------------------------------------------------------ */

static int make_runs(struct cdt_mapview *v, const uint8_t *cell)
{
	uint64_t i, start = 0;
	size_t cap = 16;

	v->runs = malloc(cap * sizeof(*v->runs));
	if (!v->runs)
		return CDT_ENOMEM;
	for (i = 1; i <= v->cells; i++) {
		struct cdt_cell_run *r;
		uint64_t last;

		if (i < v->cells && cell[i] == cell[start])
			continue;
		if (v->n_runs == cap) {
			r = realloc(v->runs, 2 * cap * sizeof(*r));
			if (!r)
				return CDT_ENOMEM;
			v->runs = r;
			cap *= 2;
		}
		r = &v->runs[v->n_runs++];
		last = i * v->blocks_per_cell;
		if (last > v->blocks)
			last = v->blocks;
		*r = (struct cdt_cell_run){
			.cell = start,
			.cells = i - start,
			.lba = start * v->blocks_per_cell,
			.blocks = last - start * v->blocks_per_cell,
			.area = (enum cdt_area)cell[start],
		};
		start = i;
	}
	return 0;
}

/* Each cell gets the worst status of the runs overlapping it. */
static int lay_cells(struct cdt_mapview *v, const struct cdt_map *m)
{
	uint64_t cell_bytes = v->blocks_per_cell * v->block_size;
	uint8_t *cell;
	size_t i;
	int rc;

	cell = calloc(v->cells ? v->cells : 1, 1);
	if (!cell)
		return CDT_ENOMEM;
	for (i = 0; i < m->n; i++) {
		const struct map_run *r = &m->runs[i];
		uint8_t a = (uint8_t)area_of(r->status);
		uint64_t c, last = (r->pos + r->size - 1) / cell_bytes;

		v->area_bytes[a] += r->size;
		for (c = r->pos / cell_bytes; c <= last && c < v->cells; c++)
			if (cell[c] < a)
				cell[c] = a;
	}
	rc = make_runs(v, cell);
	free(cell);
	return rc;
}

static int check_opts(const struct cdt_mapview_opts *opts, uint64_t *max_cells,
		      uint32_t *bs)
{
	struct cdt_mapview_opts o;

	if (cdt_abi_opts(NULL, &o, sizeof(o), opts, "cdt_mapview"))
		return CDT_EUSAGE;
	*max_cells = o.max_cells ? o.max_cells : MAPVIEW_DEFAULT_CELLS;
	*bs = o.block_size ? o.block_size : 2048;
	if (*max_cells > MAPVIEW_MAX_CELLS || *bs > (1u << 20))
		return CDT_EUSAGE;
	return 0;
}

static int view_parse(const char *buf, size_t len, uint64_t max_cells,
		      uint32_t bs, struct cdt_mapview *v, char *err, size_t errlen)
{
	struct cdt_map m;
	int rc;

	rc = map_parse(buf, len, &m, err, errlen);
	if (rc)
		return rc;
	rc = read_comments(buf, len, bs, &m, v);
	if (rc)
		goto out;
	v->block_size = bs;
	v->bytes = m.size;
	v->blocks = m.size / bs + (m.size % bs != 0);
	v->blocks_per_cell = v->blocks / max_cells + (v->blocks % max_cells != 0);
	if (!v->blocks_per_cell)
		v->blocks_per_cell = 1;
	if (v->blocks_per_cell > UINT64_MAX / bs) {
		snprintf(err, errlen, "the map is too large to draw in %llu cells",
			 (unsigned long long)max_cells);
		rc = CDT_EUSAGE;
		map_free(&m);
		return rc;
	}
	v->cells = v->blocks / v->blocks_per_cell +
		   (v->blocks % v->blocks_per_cell != 0);
	v->cur_status = m.cur_status;
	v->cur_pass = m.cur_pass;
	rc = lay_cells(v, &m);
out:
	map_free(&m);
	if (rc) {
		snprintf(err, errlen, "out of memory");
		cdt_mapview_free(v);
	}
	return rc;
}

int cdt_mapview_parse(const char *buf, size_t len,
		      const struct cdt_mapview_opts *opts,
		      struct cdt_mapview *view, char *err, size_t errlen)
{
	struct cdt_mapview v;
	uint64_t max_cells;
	uint32_t bs;
	int rc;

	if (cdt_abi_res(NULL, view, &v, sizeof(v), "cdt_mapview") ||
	    check_opts(opts, &max_cells, &bs)) {
		snprintf(err, errlen, "bad map view options, or a view without CDT_INIT()");
		return CDT_EUSAGE;
	}
	rc = view_parse(buf, len, max_cells, bs, &v, err, errlen);
	cdt_abi_out(view, &v, sizeof(v));
	return rc;
}

int cdt_mapview_load(const char *path, const struct cdt_mapview_opts *opts,
		     struct cdt_mapview *v, char *err, size_t errlen)
{
	char why[200];
	size_t len;
	char *buf;
	int rc;

	if (!v || !v->size) {
		snprintf(err, errlen, "a view without CDT_INIT()");
		return CDT_EUSAGE;
	}
	rc = map_read_file(path, &buf, &len, err, errlen);
	if (rc)
		return rc;
	rc = cdt_mapview_parse(buf, len, opts, v, why, sizeof(why));
	free(buf);
	if (rc == CDT_EFORMAT)
		snprintf(err, errlen, "%s is not a valid ddrescue mapfile: %s", path, why);
	else if (rc)
		snprintf(err, errlen, "%s: %s", path, why);
	return rc;
}

void cdt_mapview_free(struct cdt_mapview *v)
{
	if (!v)
		return;
	free(v->runs);
	v->runs = NULL;
	v->n_runs = 0;
}
