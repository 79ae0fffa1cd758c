// SPDX-License-Identifier: MIT
/* The ddrescue mapfile: editing runs, parsing (good and hostile), writing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "book/mapfile.h"

static void check_runs(const struct cdt_map *m, const char *want)
{
	char got[512] = "";
	size_t i, used = 0;

	for (i = 0; i < m->n; i++)
		used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%llu:%llu%c",
					 i ? " " : "", (unsigned long long)m->runs[i].pos,
					 (unsigned long long)m->runs[i].size, m->runs[i].status);
	assert_string_equal(got, want);
}

static void test_set_split_merge(void **state)
{
	struct cdt_map m;

	(void)state;
	assert_int_equal(map_init(&m, 100, '?'), 0);
	assert_int_equal(map_set(&m, 10, 10, '+'), 0);
	check_runs(&m, "0:10? 10:10+ 20:80?");
	assert_int_equal(map_set(&m, 0, 10, '+'), 0);
	check_runs(&m, "0:20+ 20:80?");
	assert_int_equal(map_set(&m, 50, 10, '-'), 0);
	assert_int_equal(map_set(&m, 60, 40, '+'), 0);
	check_runs(&m, "0:20+ 20:30? 50:10- 60:40+");
	assert_int_equal(map_set(&m, 15, 80, '*'), 0);
	check_runs(&m, "0:15+ 15:80* 95:5+");
	assert_int_equal(map_set(&m, 0, 100, '+'), 0);
	check_runs(&m, "0:100+");
	assert_int_equal(map_set(&m, 90, 50, '-'), 0);	/* clipped at the end */
	check_runs(&m, "0:90+ 90:10-");
	assert_int_equal(map_count(&m, '-'), 10);
	assert_int_equal(map_status_at(&m, 95), '-');
	map_free(&m);
}

static void test_find(void **state)
{
	struct cdt_map m;
	uint64_t s, l;

	(void)state;
	assert_int_equal(map_init(&m, 100, '+'), 0);
	map_set(&m, 10, 5, '-');
	map_set(&m, 40, 5, '-');
	assert_true(map_find(&m, '-', 0, &s, &l));
	assert_int_equal(s, 10);
	assert_int_equal(l, 5);
	assert_true(map_find(&m, '-', 12, &s, &l));
	assert_int_equal(s, 12);
	assert_int_equal(l, 3);
	assert_true(map_find(&m, '-', 15, &s, &l));
	assert_int_equal(s, 40);
	assert_false(map_find(&m, '-', 45, &s, &l));
	assert_true(map_find_back(&m, '-', 100, &s, &l));
	assert_int_equal(s, 40);
	assert_true(map_find_back(&m, '-', 42, &s, &l));
	assert_int_equal(l, 2);
	map_free(&m);
}

static const char good_map[] =
	"# Mapfile. Created by GNU ddrescue version 1.27\n"
	"# current_pos  current_status  current_pass\n"
	"0x00010000     *               2\n"
	"#      pos        size  status\n"
	"0x00000000  0x00010000  +\n"
	"0x00010000  0x00000800  -\n"
	"\n"
	"0x00010800  0x0000F800  ?\n";

static void test_parse_write_roundtrip(void **state)
{
	struct cdt_map m, m2;
	char err[128], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(map_parse(good_map, strlen(good_map), &m, err, sizeof(err)), 0);
	assert_int_equal(m.size, 0x20000);
	assert_int_equal(m.cur_pos, 0x10000);
	assert_int_equal(m.cur_status, '*');
	assert_int_equal(m.cur_pass, 2);
	check_runs(&m, "0:65536+ 65536:2048- 67584:63488?");
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(map_write(f, &m, "Command line: test"), 0);
	fclose(f);
	assert_non_null(strstr(buf, "0x00010000  0x00000800  -\n"));
	assert_non_null(strstr(buf, "# Command line: test\n"));
	assert_int_equal(map_parse(buf, len, &m2, err, sizeof(err)), 0);
	check_runs(&m2, "0:65536+ 65536:2048- 67584:63488?");
	assert_int_equal(m2.cur_status, '*');
	assert_int_equal(m2.cur_pass, 2);
	free(buf);
	map_free(&m);
	map_free(&m2);
}

static void expect_bad(const char *text, const char *why)
{
	struct cdt_map m;
	char err[128] = "";

	assert_int_equal(map_parse(text, strlen(text), &m, err, sizeof(err)), CDT_EFORMAT);
	if (!strstr(err, why))
		fail_msg("'%s': error '%s' lacks '%s'", text, err, why);
	assert_null(m.runs);
}

static void test_parse_rejects(void **state)
{
	(void)state;
	expect_bad("", "no status line");
	expect_bad("# only comments\n", "no status line");
	expect_bad("0x0 +\n0x0 0x10 +\n0x20 0x10 -\n", "contiguous");
	expect_bad("0x0 +\n0x10 0x10 +\n", "contiguous");
	expect_bad("0x0 +\n0x0 0x10\n", "pos size status");
	expect_bad("0x0 +\n0x0 0x10 x\n", "pos size status");
	expect_bad("0x0 +\n0x0 0x10 + extra\n", "pos size status");
	expect_bad("0x0 +\n0x0 0 +\n", "size");
	expect_bad("0x0 +\n0x0 -5 +\n", "pos size status");
	expect_bad("0x0 +\n0x0 0xFFFFFFFFFFFFFFFFF +\n", "pos size status");
	expect_bad("0x0 +\n0x0 0xFFFFFFFFFFFFFFFF +\n0xFFFFFFFFFFFFFFFF 0x2 +\n", "size");
	expect_bad("zz +\n", "current_pos");
	expect_bad("0x0 Q\n", "current_pos");
	expect_bad("0x0 + 0\n", "current_pos");
}

static void test_parse_nul_and_garbage(void **state)
{
	static const char nul[] = "0x0 +\n0x0 0x1\0 +\n";
	struct cdt_map m;
	char err[128], buf[256];
	unsigned int seed = 1, i, j;

	(void)state;
	assert_int_equal(map_parse(nul, sizeof(nul) - 1, &m, err, sizeof(err)), CDT_EFORMAT);
	/* random bytes never crash the parser and never leave a half map */
	for (i = 0; i < 2000; i++) {
		for (j = 0; j < sizeof(buf); j++)
			buf[j] = "0x1+-?*/ \n#F"[(seed = seed * 1103515245 + 12345) >> 16 & 7];
		if (!map_parse(buf, sizeof(buf), &m, err, sizeof(err)))
			map_free(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_split_merge),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_parse_write_roundtrip),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_parse_nul_and_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
