// SPDX-License-Identifier: MIT
/*
 * Data first (issue 13): a new image copies the reported extent (but its
 * last 2 blocks, which the end search reads) before the end search's first
 * failing read, then searches, settles the extent and copies the rest.
 * From the emulated drive's trace of every READ: the order, the failing
 * reads (no more than the search costs alone), a stop in the search that
 * leaves a map whose search is pending, and its resume.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "cdtail.h"
#include "th.h"

#define BLOCKS 1200		/* the image file's blocks */
#define BS 2048
#define FIRST(reported) ((reported) - 2)	/* copied before the search */

struct trace {
	struct th_read r[4096];
	size_t n;
};

static int setup(void **state)
{
	*state = th_disc_new("dfirst", (size_t)BLOCKS * BS, 13);
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	return th_disc_free(*state);
}

/* Stops the run at the end search's first read. */
static volatile sig_atomic_t stop_flag;

static void stop_in_search(void *ctx, const struct cdt_progress *p)
{
	(void)ctx;
	if (p->phase == CDT_PHASE_SEARCH)
		stop_flag = 1;
}

/*
 * Image with KEYS (a map when with_map, stopped in the search when
 * stop); the READs in *t.  Returns cdt_image's status, the result in *r.
 */
static int image(struct th_disc *f, const char *keys, bool with_map, bool stop,
		 struct trace *t, struct cdt_image_result *r)
{
	struct cdt_image_opts o = { .size = sizeof(o), .digests = CDT_HASH_NONE,
				    .rd.retries = -1 };
	char addr[512], err[256];
	struct cdt_dev *dev;
	int rc;

	if (with_map)
		o.map_path = f->map;
	if (stop) {
		stop_flag = 0;
		o.rd.stop = &stop_flag;
		o.rd.progress = stop_in_search;
	}
	unlink(f->trace);
	snprintf(addr, sizeof(addr), "sim:%s,cost=0/0,trace=%s%s%s", f->img, f->trace,
		 *keys ? "," : "", keys);
	assert_int_equal(cdt_open(addr, NULL, &dev, err, sizeof(err)), 0);
	*r = (struct cdt_image_result)CDT_INIT(*r);
	rc = cdt_image(dev, f->out, &o, r);
	cdt_close(dev);
	t->n = th_read_trace(f->trace, t->r, TH_N(t->r));
	return rc;
}

/* The failing reads probe makes on the same disc (its end search). */
static uint64_t probe_failures(struct th_disc *f, const char *keys)
{
	struct cdt_probe_result p = CDT_INIT(p);
	char addr[512], err[256];
	struct cdt_dev *dev;

	snprintf(addr, sizeof(addr), "sim:%s,cost=0/0%s%s", f->img, *keys ? "," : "", keys);
	assert_int_equal(cdt_open(addr, NULL, &dev, err, sizeof(err)), 0);
	assert_int_equal(cdt_probe(dev, NULL, &p), 0);
	cdt_close(dev);
	return p.failed_reads;
}

static size_t first_failure(const struct trace *t)
{
	size_t i;

	for (i = 0; i < t->n && t->r[i].ok; i++)
		;
	return i;
}

/* Every block of [0, end) read good in a chunk (n > 1) before index stop. */
static void assert_copied_before(const struct trace *t, uint64_t end, size_t stop)
{
	static bool have[BLOCKS];
	uint64_t b;
	size_t i;

	memset(have, 0, sizeof(have));
	for (i = 0; i < stop; i++)
		for (b = t->r[i].lba; t->r[i].ok && t->r[i].n > 1 &&
		     b < t->r[i].lba + t->r[i].n && b < BLOCKS; b++)
			have[b] = true;
	for (b = 0; b < end; b++)
		if (!have[b])
			fail_msg("block %llu was not copied before read %zu",
				 (unsigned long long)b, stop);
}

static void assert_out(struct th_disc *f, uint64_t blocks)
{
	FILE *fp = fopen(f->out, "rb");
	uint8_t *got = malloc((size_t)blocks * BS + 1);

	assert_non_null(fp);
	assert_non_null(got);
	assert_int_equal(fread(got, 1, (size_t)blocks * BS + 1, fp), (size_t)blocks * BS);
	assert_memory_equal(got, f->data, (size_t)blocks * BS);
	fclose(fp);
	free(got);
}

/*
 * Hidden tails of 0, 1 and 150 blocks, an over-report of 2, a run-out of 2:
 * the reported extent but its last 2 blocks is in hand before the first
 * failing read, the run fails no more often than probe's search alone, and
 * OUT is the true disc.
 */
static void test_data_before_search(void **state)
{
	static const struct {
		const char *keys;
		uint64_t reported, extent;
	} c[] = {
		{ "", BLOCKS, BLOCKS },
		{ "hide=1", BLOCKS - 1, BLOCKS },
		{ "hide=150", BLOCKS - 150, BLOCKS },
		{ "extra=2", BLOCKS + 2, BLOCKS },
		{ "runout=2", BLOCKS, BLOCKS - 2 },
		{ "hide=150,info=1", BLOCKS - 150, BLOCKS },
	};
	struct th_disc *f = *state;
	static struct trace t;
	struct cdt_image_result r;
	size_t i, k, fails;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unlink(f->out);
		assert_int_equal(image(f, c[i].keys, false, false, &t, &r), 0);
		assert_int_equal(r.extent_blocks, c[i].extent);
		k = first_failure(&t);
		assert_true(k < t.n);
		assert_true(t.r[k].end);
		assert_copied_before(&t, FIRST(c[i].reported), k);
		for (fails = 0; k < t.n; k++)
			fails += !t.r[k].ok;
		assert_int_equal(fails, probe_failures(f, c[i].keys));
		cdt_image_result_free(&r);
		assert_out(f, c[i].extent);
	}
}

/*
 * A scratch below the reported end: the good blocks past it, which pass 2
 * reads backwards, come before the search's first failing read too.
 */
static void test_scratch_then_search(void **state)
{
	struct th_disc *f = *state;
	static struct trace t;
	struct cdt_image_result r;
	size_t i, k;

	unlink(f->out);
	assert_int_equal(image(f, "hide=150,bad=500-509", false, false, &t, &r), 0);
	assert_int_equal(r.sum.bad_blocks, 10);
	cdt_image_result_free(&r);
	for (k = 0; k < t.n && !t.r[k].end; k++)
		;
	assert_true(k < t.n);
	/* every chunk that reads good below the first copy's end is before k */
	for (i = k; i < t.n; i++)
		if (t.r[i].n > 1 && t.r[i].lba + t.r[i].n <= FIRST(BLOCKS - 150))
			fail_msg("chunk %llu+%llu read after the search began",
				 (unsigned long long)t.r[i].lba, (unsigned long long)t.r[i].n);
}

/*
 * An over-report of 40 blocks, past the 2 the copy leaves to the search:
 * the copy's failing chunk is the search's to judge, the extent shrinks to
 * the true end, and the map and OUT with it.
 */
static void test_shrink(void **state)
{
	struct th_disc *f = *state;
	static struct trace t;
	struct cdt_image_result r;

	unlink(f->out);
	unlink(f->map);
	assert_int_equal(image(f, "extra=40", true, false, &t, &r), 0);
	assert_int_equal(r.extent_blocks, BLOCKS);
	assert_int_equal(r.sum.bad_blocks, 0);
	cdt_image_result_free(&r);
	assert_out(f, BLOCKS);
}

static bool map_has(const struct th_disc *f, const char *what)
{
	char buf[8192];
	FILE *fp = fopen(f->map, "r");
	size_t n;

	if (!fp)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return strstr(buf, what) != NULL;
}

/*
 * Stopped at the end search's first read: OUT and the map stay (the copy
 * is in them), the map's search pending; the resume copies nothing again,
 * runs the search, and ends with the whole disc and a settled map.
 */
static void test_pending_resume(void **state)
{
	struct th_disc *f = *state;
	static struct trace t;
	struct cdt_image_result r;
	size_t i;

	unlink(f->out);
	unlink(f->map);
	assert_int_equal(image(f, "hide=150", true, true, &t, &r), CDT_EINTR);
	assert_false(r.removed);
	assert_int_equal(r.sum.blocks_read, FIRST(BLOCKS - 150));
	cdt_image_result_free(&r);
	assert_true(map_has(f, "# cdtail identity: block_size=2048 extent=1050 true_blocks=1050 search=pending\n"));
	assert_int_equal(access(f->out, F_OK), 0);

	assert_int_equal(image(f, "hide=150", true, false, &t, &r), 0);
	assert_true(r.resumed);
	assert_int_equal(r.extent_blocks, BLOCKS);
	assert_int_equal(r.finished_before, FIRST(BLOCKS - 150));
	cdt_image_result_free(&r);
	/*
	 * no chunk of what was copied is read again: the size reads come
	 * before the identity's single blocks, then only the 2 blocks left
	 */
	for (i = 0; i < t.n && t.r[i].n > 1; i++)
		;
	assert_true(i < t.n);
	for (; i < t.n; i++)
		if (t.r[i].n > 1 && t.r[i].lba < FIRST(BLOCKS - 150))
			fail_msg("the resume read %llu+%llu again",
				 (unsigned long long)t.r[i].lba, (unsigned long long)t.r[i].n);
	assert_true(first_failure(&t) < t.n);
	assert_true(map_has(f, "# cdtail identity: block_size=2048 extent=1200 true_blocks=1200\n"));
	assert_false(map_has(f, "search=pending"));
	assert_out(f, BLOCKS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_data_before_search, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scratch_then_search, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shrink, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pending_resume, setup, teardown),
	};

	return cmocka_run_group_tests_name("image_order", tests, NULL, NULL);
}
