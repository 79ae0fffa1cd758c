// SPDX-License-Identifier: MIT
/*
 * The skip list (book/skip.h): the map comment's format and parse as a
 * roundtrip over seeded random lists, damaged lines (truncated, bad
 * numbers, overlapping, unsorted, too many areas, every prefix of a valid
 * line), the lookups at their edges against a per-block model, and the
 * plan made from a probed disc per --formatted policy; then cdt_tail
 * growing an image across a gap (a kernel size that stops in session 1).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "cdtail.h"
#include "core/device.h"
#include "book/skip.h"

static uint64_t rnd64(uint64_t *seed)
{
	/* splitmix64: any seed gives a well-spread sequence */
	uint64_t z = (*seed += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rnd(uint64_t *seed, uint64_t n)
{
	return rnd64(seed) % n;
}

/* A random list as cdtail writes it: ascending, apart or adjacent. */
static void random_plan(uint64_t *seed, struct skip_plan *s, size_t max, uint64_t gap_max)
{
	uint64_t lba = rnd(seed, gap_max + 1);
	size_t i, n = (size_t)rnd(seed, max + 1);

	s->v = calloc(n + 1, sizeof(*s->v));
	assert_non_null(s->v);
	s->n = n;
	s->blocks = 0;
	for (i = 0; i < n; i++) {
		uint64_t blocks = 1 + rnd(seed, gap_max ? gap_max : 1);

		s->v[i] = (struct cdt_skip){ lba, blocks,
					     (enum cdt_skip_why)rnd(seed, CDT_SKIP_UNWRITTEN + 1) };
		s->blocks += blocks;
		lba += blocks + rnd(seed, gap_max + 1);
	}
}

static char *format_line(const struct skip_plan *s)
{
	size_t cap = skip_text_len(s) + 1;
	char *line = malloc(cap);

	assert_non_null(line);
	skip_format(s, line, cap);
	return line;
}

/* The line inside a map's text: comments and runs around it. */
static char *as_map(const char *line)
{
	size_t len = strlen(line) + 200;
	char *text = malloc(len);

	assert_non_null(text);
	snprintf(text, len, "# Mapfile. Created by cdtail\n# a comment\n%s%s\n"
		 "0x00000000  +  1\n0x00000000  0x00001000  +\n", *line ? "# " : "", line);
	return text;
}

static void assert_same(const struct skip_plan *a, const struct skip_plan *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		assert_int_equal(a->v[i].start, b->v[i].start);
		assert_int_equal(a->v[i].blocks, b->v[i].blocks);
		assert_int_equal(a->v[i].why, b->v[i].why);
	}
}

static void test_roundtrip_random(void **state)
{
	uint64_t seed = 12;
	int round;

	(void)state;
	for (round = 0; round < 2000; round++) {
		struct skip_plan s = { 0 }, p;
		/* small lists mostly, the biggest allowed now and then; LBAs
		 * from tiny to beyond any disc (still < 2^62) */
		size_t max = round % 100 == 0 ? SKIP_MAX_AREAS : 12;
		uint64_t gap = round % 3 == 0 ? 3 : round % 3 == 1 ? 20000 : 1ull << 50;
		char *line, *text;

		random_plan(&seed, &s, max, gap);
		if (s.n > SKIP_MAX_AREAS)
			s.n = SKIP_MAX_AREAS;
		line = format_line(&s);
		assert_true(strlen(line) <= skip_text_len(&s));
		text = as_map(line);
		assert_int_equal(skip_parse(text, strlen(text), &p), 0);
		assert_int_equal(p.n, s.n);
		assert_same(&p, &s, s.n);
		if (s.n)
			assert_int_equal(p.blocks, s.blocks);
		skip_free(&p);
		skip_free(&s);
		free(line);
		free(text);
	}
}

/* skip_add: blocks found one by one join their neighbours of the same why. */
static void test_add(void **state)
{
	struct skip_plan s = { 0 };

	(void)state;
	assert_int_equal(skip_add(&s, 10, CDT_SKIP_FORM2), 0);
	assert_int_equal(skip_add(&s, 12, CDT_SKIP_FORM2), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(skip_add(&s, 11, CDT_SKIP_FORM2), 0);	/* joins both */
	assert_int_equal(s.n, 1);
	assert_int_equal(s.v[0].start, 10);
	assert_int_equal(s.v[0].blocks, 3);
	assert_int_equal(skip_add(&s, 9, CDT_SKIP_FORM2), 0);	/* joins below */
	assert_int_equal(s.v[0].start, 9);
	assert_int_equal(skip_add(&s, 11, CDT_SKIP_FORM2), CDT_EFORMAT);
	assert_int_equal(skip_add(&s, 13, CDT_SKIP_PREGAP), 0);	/* another why */
	assert_int_equal(skip_add(&s, 2, CDT_SKIP_FORM2), 0);	/* in front */
	assert_int_equal(s.n, 3);
	assert_int_equal(s.v[0].start, 2);
	assert_int_equal(s.v[1].start, 9);
	assert_int_equal(s.v[1].blocks, 4);
	assert_int_equal(s.v[2].why, CDT_SKIP_PREGAP);
	assert_int_equal(s.blocks, 6);
	skip_free(&s);
}

static int parse_str(const char *text, struct skip_plan *p)
{
	return skip_parse(text, strlen(text), p);
}

static void expect_damaged(const char *list)
{
	struct skip_plan p;
	char text[512];

	snprintf(text, sizeof(text), "# cdtail skipped (not data; LBA+blocks): %s\n", list);
	if (parse_str(text, &p) != CDT_EFORMAT)
		fail_msg("'%s' parsed", list);
	assert_null(p.v);
	assert_int_equal(p.n, 0);
}

static void test_damaged(void **state)
{
	struct skip_plan p;

	(void)state;
	expect_damaged("abc+5 gap");
	expect_damaged("5+0 gap");			/* an empty area */
	expect_damaged("5+ gap");
	expect_damaged("+5 gap");
	expect_damaged("5 gap");
	expect_damaged("5+5");
	expect_damaged("5+5 gapx");
	expect_damaged("5+5 cheese");
	expect_damaged("5+-5 gap");
	expect_damaged("99999999999999999999+5 gap");	/* past 2^62 */
	expect_damaged("5+4611686018427387904 gap");	/* 2^62 */
	expect_damaged("0+10 gap, 5+10 audio");		/* overlapping */
	expect_damaged("100+10 gap, 0+10 audio");	/* unsorted */
	expect_damaged("0+10 gap, 0+10 gap");		/* twice */
	expect_damaged("0+10 gap 20+5 gap");		/* no comma */
	expect_damaged("0+10 gap,, 20+5 gap");
	expect_damaged("0+10 gap, ");			/* a comma, then nothing */
	/* no colon after the tag */
	assert_int_equal(parse_str("# cdtail skipped 0+10 gap\n", &p), CDT_EFORMAT);
	/* adjacent areas are apart enough; CRLF lines are read */
	assert_int_equal(parse_str("# cdtail skipped: 0+10 gap, 10+5 audio\r\n", &p), 0);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.blocks, 15);
	skip_free(&p);
	/* no list at all, or one with nothing in it: nothing skipped */
	assert_int_equal(parse_str("# Mapfile\n0x0 + 1\n", &p), 0);
	assert_int_equal(p.n, 0);
	assert_int_equal(parse_str("# cdtail skipped:\n", &p), 0);
	assert_int_equal(p.n, 0);
	skip_free(&p);
	/* the tag only counts at a comment's start */
	assert_int_equal(parse_str("#cdtail skipped: 0+1 gap\n# x cdtail skipped: 1+1 gap\n", &p), 0);
	assert_int_equal(p.n, 0);
}

/* A list of n areas "2i+1 gap" as a map comment line. */
static char *many(size_t n, size_t pad)
{
	size_t cap = 64 + n * 32 + pad, used, i;
	char *text = malloc(cap);

	assert_non_null(text);
	used = (size_t)snprintf(text, cap, "# cdtail skipped:");
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(text + used, cap - used, "%s %zu+1 gap", i ? "," : "", 2 * i);
	memset(text + used, ' ', pad);
	used += pad;
	text[used++] = '\n';
	text[used] = '\0';
	return text;
}

static void test_too_many(void **state)
{
	struct skip_plan p;
	char *text;

	(void)state;
	text = many(SKIP_MAX_AREAS, 0);
	assert_int_equal(parse_str(text, &p), 0);
	assert_int_equal(p.n, SKIP_MAX_AREAS);
	assert_int_equal(p.v[SKIP_MAX_AREAS - 1].start, 2 * (SKIP_MAX_AREAS - 1));
	skip_free(&p);
	free(text);
	text = many(SKIP_MAX_AREAS + 1, 0);
	assert_int_equal(parse_str(text, &p), CDT_EFORMAT);
	assert_null(p.v);
	free(text);
	text = many(100000, 0);
	assert_int_equal(parse_str(text, &p), CDT_EFORMAT);
	free(text);
	/* a long line of one area: its length sizes nothing */
	text = many(1, 16u << 20);
	assert_int_equal(parse_str(text, &p), 0);
	assert_int_equal(p.n, 1);
	skip_free(&p);
	free(text);
}

/*
 * Every prefix of a valid line: never more than was there, and exactly
 * the entries complete in the prefix when it parses.
 */
static void test_prefixes(void **state)
{
	struct skip_plan s = { 0 }, sub, p;
	uint64_t seed = 99;
	size_t ends[16], i, len, done;
	char *line, *text;

	(void)state;
	while (s.n < 4) {
		skip_free(&s);
		random_plan(&seed, &s, 6, 30000);
	}
	line = format_line(&s);
	for (i = 0; i < s.n; i++) {
		char *part;

		sub = (struct skip_plan){ s.v, i + 1, 0 };
		part = format_line(&sub);
		ends[i] = strlen(part) + 2;	/* "# " */
		free(part);
	}
	text = as_map(line);
	len = strlen(line) + 2;
	for (i = 0; i <= len; i++) {
		char *cut = strndup(text + strlen("# Mapfile. Created by cdtail\n# a comment\n"), i);
		int rc;

		rc = parse_str(cut, &p);
		assert_true(rc == 0 || rc == CDT_EFORMAT);
		if (!rc) {
			for (done = 0; done < s.n && ends[done] <= i; done++)
				;
			assert_int_equal(p.n, done);
			assert_same(&p, &s, p.n);
		} else {
			assert_null(p.v);
		}
		if (i == len)
			assert_int_equal(p.n, s.n);
		skip_free(&p);
		free(cut);
	}
	free(line);
	free(text);
	skip_free(&s);
}

/* Per block: the area holding it, from the list alone. */
static const struct cdt_skip *model_at(const struct skip_plan *s, uint64_t lba)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (lba >= s->v[i].start && lba < s->v[i].start + s->v[i].blocks)
			return &s->v[i];
	return NULL;
}

static uint64_t model_window(const struct skip_plan *s, uint64_t end, uint64_t count)
{
	while (count && end) {
		end--;
		if (!model_at(s, end))
			count--;
	}
	return end;
}

/* The step from lba < end, block by block: the area's rest, or data. */
static uint64_t model_step(const struct skip_plan *s, uint64_t lba, uint64_t end,
			   uint32_t chunk, bool *skipped)
{
	const struct cdt_skip *k = model_at(s, lba);
	uint64_t n = 0;

	*skipped = k != NULL;
	if (k) {
		while (model_at(s, lba + n) == k)
			n++;
		return n;
	}
	while (lba + n < end && n < chunk && !model_at(s, lba + n))
		n++;
	return n;
}

/* Steps from every lba below end, for chunks of 1, 4 and 64 blocks. */
static void check_steps(const struct skip_plan *s, uint64_t end)
{
	static const uint32_t chunks[] = { 1, 4, 64 };
	uint64_t lba;
	size_t c;

	for (lba = 0; lba < end; lba++) {
		for (c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
			bool got_skip = false, want_skip = true;
			uint64_t want = model_step(s, lba, end, chunks[c], &want_skip);

			assert_int_equal(skip_step(s, lba, end, chunks[c], &got_skip), want);
			assert_int_equal(got_skip, want_skip);
			assert_true(want > 0);
		}
	}
}

static void check_lookups(const struct skip_plan *s, uint64_t top)
{
	uint64_t lba, next = UINT64_MAX, a, b;

	for (lba = top + 1; lba-- > 0;) {
		const struct cdt_skip *k = model_at(s, lba);

		assert_ptr_equal(skip_at(s, lba), k);
		if (k)
			next = lba;
		assert_int_equal(skip_next(s, lba), next);
		assert_int_equal(skip_window_start(s, lba, 5), model_window(s, lba, 5));
		assert_int_equal(skip_window_start(s, lba, 64), model_window(s, lba, 64));
	}
	check_steps(s, top);
	for (a = 0; a <= top; a += 3) {
		for (b = a; b <= top; b += 7) {
			struct cdt_skip *v;
			uint64_t blocks, want = 0, x;
			size_t n, i;

			for (x = a; x < b; x++)
				want += model_at(s, x) != NULL;
			assert_int_equal(skip_blocks_in(s, a, b), want);
			assert_int_equal(skip_copy_range(s, a, b, &v, &n, &blocks), 0);
			assert_int_equal(blocks, want);
			for (i = 0, x = 0; i < n; x += v[i].blocks, i++) {
				assert_true(v[i].start >= a && v[i].start + v[i].blocks <= b);
				assert_int_equal(model_at(s, v[i].start)->why, v[i].why);
			}
			assert_int_equal(x, want);
			assert_true(n || !v);
			free(v);
		}
	}
}

static void test_lookups(void **state)
{
	struct skip_plan empty = { 0 };
	struct cdt_skip two[] = { { 10, 5, CDT_SKIP_AUDIO }, { 15, 1, CDT_SKIP_GAP } };
	struct skip_plan adj = { two, 2, 6 };
	uint64_t seed = 5;
	int round;

	(void)state;
	assert_null(skip_at(&empty, 0));
	assert_null(skip_at(&empty, UINT64_MAX));
	assert_int_equal(skip_next(&empty, 0), UINT64_MAX);
	assert_int_equal(skip_window_start(&empty, 100, 64), 36);
	assert_int_equal(skip_window_start(&empty, 10, 64), 0);
	/* the edges of two adjacent areas */
	assert_null(skip_at(&adj, 9));
	assert_ptr_equal(skip_at(&adj, 10), &two[0]);
	assert_ptr_equal(skip_at(&adj, 14), &two[0]);
	assert_ptr_equal(skip_at(&adj, 15), &two[1]);
	assert_null(skip_at(&adj, 16));
	assert_null(skip_at(&adj, UINT64_MAX));
	assert_int_equal(skip_next(&adj, 0), 10);
	assert_int_equal(skip_next(&adj, 12), 12);
	assert_int_equal(skip_next(&adj, 16), UINT64_MAX);
	assert_int_equal(skip_window_start(&adj, 16, 1), 9);
	assert_int_equal(skip_window_start(&adj, 17, 1), 16);
	check_lookups(&adj, 40);
	for (round = 0; round < 300; round++) {
		struct skip_plan s = { 0 };

		random_plan(&seed, &s, 6, 12);
		check_lookups(&s, 90);
		skip_free(&s);
	}
}

/* ---- the plan of a probed disc ------------------------------------------ */

static const char *fixture(const char *name, char *out, size_t len)
{
	const char *d = getenv("CDT_FIXTURES");

	snprintf(out, len, "%s/%s", d ? d : "fixtures", name);
	return out;
}

static uint64_t file_blocks(const char *path)
{
	FILE *f = fopen(path, "rb");
	long len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	fclose(f);
	return (uint64_t)len / 2048;
}

struct probed {
	struct cdt_dev *dev;
	struct cdt_probe_result res;
	struct cdt_layout *layout;	/* the probe's (cdt_dev_layout's copy) */
};

static void probe(const char *addr, struct probed *p)
{
	char err[256];

	p->res = (struct cdt_probe_result)CDT_INIT(p->res);
	if (cdt_open(addr, NULL, &p->dev, err, sizeof(err)))
		fail_msg("open %s: %s", addr, err);
	if (cdt_probe(p->dev, NULL, &p->res))
		fail_msg("probe %s: %s", addr, cdt_errmsg(p->dev));
	p->layout = cdt_dev_layout(p->dev);
}

static void test_plan_formatted(void **state)
{
	char iso[512], addr[700];
	uint64_t n, m, extent;
	struct skip_plan s;
	struct probed p;

	(void)state;
	fixture("iso9660.iso", iso, sizeof(iso));
	n = file_blocks(iso);
	m = n + 500;
	snprintf(addr, sizeof(addr), "sim:%s,profile=dvd+rw,formatted=%llu", iso,
		 (unsigned long long)m);
	probe(addr, &p);
	assert_true(p.res.notes & CDT_NOTE_FORMATTED);
	assert_int_equal(p.res.extent_blocks, m);

	extent = p.res.extent_blocks;
	assert_int_equal(skip_plan_make(p.layout, &p.res, CDT_FORMATTED_SKIP, &extent, &s), 0);
	assert_int_equal(extent, m);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.v[0].start, n);
	assert_int_equal(s.v[0].blocks, 500);
	assert_int_equal(s.v[0].why, CDT_SKIP_UNWRITTEN);
	assert_int_equal(s.blocks, 500);
	skip_free(&s);

	extent = p.res.extent_blocks;
	assert_int_equal(skip_plan_make(p.layout, &p.res, CDT_FORMATTED_CUT, &extent, &s), 0);
	assert_int_equal(extent, n);
	assert_int_equal(s.n, 0);
	skip_free(&s);

	extent = p.res.extent_blocks;
	assert_int_equal(skip_plan_make(p.layout, &p.res, CDT_FORMATTED_READ, &extent, &s), 0);
	assert_int_equal(extent, m);
	assert_int_equal(s.n, 0);
	skip_free(&s);
	cdt_layout_free(p.layout);
	cdt_close(p.dev);
}

/* A CD-Extra, audio 300 + 200, the gap, data 100: the same plan per policy. */
static void test_plan_layout(void **state)
{
	enum cdt_formatted_policy pol;
	char path[] = "/tmp/cdt-skip-XXXXXX", addr[200];
	struct probed p;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 12000 * 2048), 0);
	close(fd);
	snprintf(addr, sizeof(addr), "sim:%s,layout=audio:300+audio:200/data:100", path);
	probe(addr, &p);
	for (pol = CDT_FORMATTED_SKIP; pol <= CDT_FORMATTED_READ; pol++) {
		uint64_t extent = p.res.extent_blocks;
		struct skip_plan s;

		assert_int_equal(skip_plan_make(p.layout, &p.res, pol, &extent, &s), 0);
		assert_int_equal(extent, 12000);
		assert_int_equal(s.n, 3);
		assert_int_equal(s.v[0].start, 0);
		assert_int_equal(s.v[0].blocks, 300);
		assert_int_equal(s.v[0].why, CDT_SKIP_AUDIO);
		assert_int_equal(s.v[1].start, 300);
		assert_int_equal(s.v[1].blocks, 200);
		assert_int_equal(s.v[2].start, 500);
		assert_int_equal(s.v[2].blocks, 11400);
		assert_int_equal(s.v[2].why, CDT_SKIP_GAP);
		assert_int_equal(s.blocks, 11900);
		skip_free(&s);
	}
	cdt_layout_free(p.layout);
	cdt_close(p.dev);
	unlink(path);
}

/* ---- tail across a gap ---------------------------------------------------- */

static uint64_t kernel_512;

static int fake_kernel_size(struct cdt_transport *t, uint64_t *sectors)
{
	(void)t;
	*sectors = kernel_512;
	return 0;
}

/*
 * Two sessions, data 1000 / data 1600: an image cut at a kernel size of
 * 500 blocks (what sr may say after an earlier read near the end) grows
 * over the rest of session 1, the gap (zeros, never read) and session 2.
 */
static void test_tail_across_gap(void **state)
{
	char dir[] = "/tmp/cdt-skiptail-XXXXXX", disc[64], out[64], addr[200];
	struct cdt_transport_ops ops;
	struct cdt_tail_result res = CDT_INIT(res);
	struct cdt_dev *dev;
	uint8_t *a, *b;
	char err[256];
	size_t len = 14000 * 2048, i;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(disc, sizeof(disc), "%s/disc", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	a = malloc(len);
	b = malloc(len);
	assert_true(a && b);
	for (i = 0; i < len; i++)
		a[i] = (uint8_t)(i / 2048 * 7 + i);
	f = fopen(disc, "wb");
	assert_int_equal(fwrite(a, 1, len, f), len);
	fclose(f);
	f = fopen(out, "wb");
	assert_int_equal(fwrite(a, 1, 500 * 2048, f), 500 * 2048);
	fclose(f);

	snprintf(addr, sizeof(addr), "sim:%s,layout=data:1000/data:1600", disc);
	assert_int_equal(cdt_open(addr, NULL, &dev, err, sizeof(err)), 0);
	ops = *dev->t->ops;
	ops.kernel_size_512 = fake_kernel_size;
	kernel_512 = 500 * 4;
	dev->t->ops = &ops;
	assert_int_equal(cdt_tail(dev, out, NULL, &res), 0);
	assert_int_equal(res.basis, CDT_TAIL_KERNEL);
	assert_int_equal(res.verdict, CDT_TAIL_APPENDED);
	assert_int_equal(res.compared_blocks, 64);
	assert_int_equal(res.appended_blocks, 13500);
	assert_int_equal(res.sum.bad_blocks, 0);
	assert_int_equal(res.sum.blocks_read, 500 + 1600);
	assert_int_equal(res.n_skipped, 1);
	assert_int_equal(res.skipped[0].start, 1000);
	assert_int_equal(res.skipped[0].blocks, 11400);
	assert_int_equal(res.skipped[0].why, CDT_SKIP_GAP);
	assert_int_equal(res.skipped_blocks, 11400);
	cdt_tail_result_free(&res);
	cdt_close(dev);

	/* the disc's data where it is data, zeros over the gap */
	memset(a + 1000 * 2048, 0, 11400 * 2048);
	f = fopen(out, "rb");
	assert_int_equal(fread(b, 1, len + 1, f), len);
	fclose(f);
	assert_memory_equal(a, b, len);
	unlink(disc);
	unlink(out);
	rmdir(dir);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_random),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_too_many),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_plan_formatted),
		cmocka_unit_test(test_plan_layout),
		cmocka_unit_test(test_tail_across_gap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
