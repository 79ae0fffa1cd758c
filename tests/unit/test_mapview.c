// SPDX-License-Identifier: MIT
/*
 * Map views: cells of a mapfile.  A seeded random test against a model
 * that knows only the contract (per byte: its run's status, or skipped
 * named by the "# cdtail skipped" comment; a cell is the worst status of its bytes),
 * and the edge cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail-tools.h"

#define MAXB 4096

static unsigned int rnd(unsigned int *seed, unsigned int n)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 8) % n;
}

/* enum cdt_area of a ddrescue status character */
static int area_of(char c)
{
	const char *order = "+S?*/-";

	return (int)(strchr(order, c) - order);
}

struct model {
	unsigned char area[MAXB];	/* per byte */
	size_t bytes;
};

/*
 * A random map in text, and the model's view of its bytes.  The skipped
 * list is what cdtail image writes (ascending, apart, no empty entry), or
 * one in five times a damaged one, which the contract says is only a
 * comment: the model then lays nothing.
 */
static size_t make_map(unsigned int *seed, char *buf, size_t cap, struct model *m,
		       uint32_t bs)
{
	static const char st[] = "+?*/-";
	size_t used, pos = 0, k, next = 0;
	unsigned int nskip = rnd(seed, 4), i, damaged = nskip && !rnd(seed, 5);
	size_t sp[4], ss[4];

	m->bytes = 1 + rnd(seed, 3000);
	used = (size_t)snprintf(buf, cap, "# Mapfile. Created by test\n");
	if (nskip)
		used += (size_t)snprintf(buf + used, cap - used,
					 "# cdtail skipped (not data; LBA+blocks): ");
	/* in blocks of bs bytes, as cdtail image writes them */
	for (i = 0; i < nskip; i++) {
		sp[i] = next + rnd(seed, (unsigned int)(m->bytes / bs) / 2 + 10);
		ss[i] = 1 + rnd(seed, 400 / bs + 2);
		if (damaged && i == nskip - 1)
			ss[i] = 0;	/* "N+0" is not something cdtail writes */
		next = sp[i] + ss[i];
		used += (size_t)snprintf(buf + used, cap - used, "%s%zu+%zu %s", i ? ", " : "",
					 sp[i], ss[i], i % 2 ? "gap" : "audio");
		sp[i] *= bs;
		ss[i] *= bs;
	}
	if (nskip)
		used += (size_t)snprintf(buf + used, cap - used, "\n");
	used += (size_t)snprintf(buf + used, cap - used, "0x0 ? 1\n");
	while (pos < m->bytes) {
		size_t len = 1 + rnd(seed, rnd(seed, 2) ? 8 : 300);
		char c = st[rnd(seed, 5)];

		if (len > m->bytes - pos)
			len = m->bytes - pos;
		used += (size_t)snprintf(buf + used, cap - used, "0x%zX 0x%zX %c\n", pos, len, c);
		for (k = pos; k < pos + len; k++)
			m->area[k] = (unsigned char)area_of(c);
		pos += len;
	}
	for (i = 0; i < nskip && !damaged; i++)
		for (k = sp[i]; k < sp[i] + ss[i] && k < m->bytes; k++)
			m->area[k] = (unsigned char)area_of('S');
	return used;
}

static void check_view(const struct model *m, const struct cdt_mapview *v,
		       uint32_t bs, uint64_t max_cells)
{
	uint64_t blocks = (m->bytes + bs - 1) / bs, total[CDT_AREA_COUNT] = { 0 };
	uint64_t bpc = (blocks + max_cells - 1) / max_cells, cell = 0, lba = 0;
	size_t i, k;

	assert_int_equal(v->blocks, blocks);
	assert_int_equal(v->blocks_per_cell, bpc);
	assert_int_equal(v->cells, (blocks + bpc - 1) / bpc);
	assert_true(v->cells <= max_cells);
	for (k = 0; k < m->bytes; k++)
		total[m->area[k]]++;
	for (i = 0; i < CDT_AREA_COUNT; i++)
		assert_int_equal(v->area_bytes[i], total[i]);
	for (i = 0; i < v->n_runs; i++) {
		const struct cdt_cell_run *r = &v->runs[i];
		uint64_t c;

		assert_int_equal(r->cell, cell);
		assert_int_equal(r->lba, lba);
		assert_true(r->cells > 0);
		if (i)
			assert_int_not_equal(r->area, v->runs[i - 1].area);
		for (c = r->cell; c < r->cell + r->cells; c++) {
			int worst = 0;

			for (k = c * bpc * bs; k < (c + 1) * bpc * bs && k < m->bytes; k++)
				if (m->area[k] > worst)
					worst = m->area[k];
			assert_int_equal(r->area, worst);
		}
		cell += r->cells;
		lba += r->blocks;
	}
	assert_int_equal(cell, v->cells);
	assert_int_equal(lba, blocks);
}

static void test_random_against_model(void **state)
{
	static char buf[64 * 1024];
	unsigned int seed = 15, n, cases = getenv("TEST_WRAPPER") ? 300 : 3000;
	struct model m;

	(void)state;
	for (n = 0; n < cases; n++) {
		struct cdt_mapview_opts o = {
			.size = sizeof(o),
			.max_cells = 1 + rnd(&seed, 200),
			.block_size = 1 + rnd(&seed, 16),
		};
		size_t len = make_map(&seed, buf, sizeof(buf), &m, o.block_size);
		struct cdt_mapview v = CDT_INIT(v);
		char err[200];

		assert_int_equal(cdt_mapview_parse(buf, len, &o, &v, err, sizeof(err)), 0);
		check_view(&m, &v, o.block_size, o.max_cells);
		cdt_mapview_free(&v);
	}
}

static void test_comments_and_edges(void **state)
{
	static const char ddr[] =
		"# Mapfile. Created by GNU ddrescue version 1.27\n"
		"# Command line: ddrescue -b 2048 /dev/sr0 disc.iso disc.map\n"
		"# Start time:   2026-12-03 17:53:08\n"
		"# Current time: 2026-12-03 17:54:00\n"
		"0x00000000     ?               1\n";
	struct cdt_mapview_opts bad = { .size = sizeof(bad), .max_cells = 1u << 30 };
	struct cdt_mapview v = CDT_INIT(v);
	char err[200];

	(void)state;
	/* no runs at all: an empty disc draws nothing */
	assert_int_equal(cdt_mapview_parse(ddr, sizeof(ddr) - 1, NULL, &v, err, sizeof(err)), 0);
	assert_int_equal(v.blocks, 0);
	assert_int_equal(v.cells, 0);
	assert_int_equal(v.n_runs, 0);
	assert_string_equal(v.tool, "GNU ddrescue version 1.27");
	assert_string_equal(v.command, "ddrescue -b 2048 /dev/sr0 disc.iso disc.map");
	assert_string_equal(v.when, "2026-12-03 17:54:00");
	assert_int_equal(v.cur_status, '?');
	cdt_mapview_free(&v);
	assert_int_equal(cdt_mapview_parse(ddr, sizeof(ddr) - 1, &bad, &v, err, sizeof(err)),
			 CDT_EUSAGE);
	assert_int_equal(cdt_mapview_parse("junk\n", 5, NULL, &v, err, sizeof(err)), CDT_EFORMAT);
	assert_int_equal(cdt_mapview_load("/nonexistent/map", NULL, &v, err, sizeof(err)),
			 CDT_EOPEN);
	{
		struct cdt_mapview zero = { 0 };
		struct cdt_mapview_opts zopt = { 0 };

		assert_int_equal(cdt_mapview_parse(ddr, sizeof(ddr) - 1, NULL, &zero, err,
						   sizeof(err)), CDT_EUSAGE);
		assert_int_equal(cdt_mapview_parse(ddr, sizeof(ddr) - 1, &zopt, &v, err,
						   sizeof(err)), CDT_EUSAGE);
	}
	assert_string_equal(cdt_area_name(CDT_AREA_NONSCRAPED), "non-scraped");
	assert_string_equal(cdt_area_name(CDT_AREA_COUNT), "unknown");
}

static void test_huge_map(void **state)
{
	/* ddrescuelog -c without -s leaves a run to 2^63: still 4096 cells */
	static const char huge[] =
		"0x0 + 1\n0x0 0x4B000 +\n0x4B000 0x7FFFFFFFFFFB5000 -\n";
	struct cdt_mapview v = CDT_INIT(v);
	char err[200];

	(void)state;
	assert_int_equal(cdt_mapview_parse(huge, sizeof(huge) - 1, NULL, &v, err, sizeof(err)), 0);
	assert_true(v.cells <= 4096);
	assert_int_equal(v.runs[v.n_runs - 1].area, CDT_AREA_BAD);
	assert_int_equal(v.area_bytes[CDT_AREA_FINISHED], 0x4B000);
	cdt_mapview_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_against_model),
		cmocka_unit_test(test_comments_and_edges),
		cmocka_unit_test(test_huge_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
