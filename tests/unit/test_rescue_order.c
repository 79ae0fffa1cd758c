// SPDX-License-Identifier: MIT
/*
 * The order in which the rescue engine reads and retries (issue 13), from
 * the emulated drive's trace of every READ: the copying passes keep to the
 * chunk grid, pass 2 reads what pass 1 skipped backwards (the good blocks
 * past a scratch first), and the default retry policy samples before it
 * spends (one retry per class of bad area for permanent damage, every
 * flaky block recovered),
 * while --retries N stays N passes over every bad block.
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

#define BLOCKS 2048
#define BS 2048
#define CHUNK 32		/* 64 KiB of 2048-byte blocks: the default */

struct fixture {
	char dir[64];
	char img[96], out[96], trace[96];
};

struct trace {
	struct th_read r[8192];
	size_t n;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	FILE *fp;

	if (!f)
		return -1;
	if (th_tmpdir(f->dir, sizeof(f->dir), "order"))
		return -1;
	th_path(f->img, sizeof(f->img), f->dir, "disc.img");
	th_path(f->out, sizeof(f->out), f->dir, "out.img");
	th_path(f->trace, sizeof(f->trace), f->dir, "trace");
	fp = fopen(f->img, "wb");
	if (!fp || ftruncate(fileno(fp), (off_t)BLOCKS * BS))
		return -1;
	fclose(fp);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	int rc = th_rmrf(f->dir);

	free(f);
	return rc;
}

/* Image the disc with KEYS and --retries RETRIES (<0: the default); the
 * READs it sent, in order, in *t.  Returns the blocks left bad. */
static int image(struct fixture *f, const char *keys, int retries, struct trace *t)
{
	struct cdt_image_opts o = { .size = sizeof(o), .rd.retries = retries,
				    .digests = CDT_HASH_NONE };
	struct cdt_image_result r = CDT_INIT(r);
	char addr[512], err[256];
	struct cdt_dev *dev;
	uint64_t bad;

	unlink(f->out);
	unlink(f->trace);
	snprintf(addr, sizeof(addr), "sim:%s,cost=0/0,trace=%s,%s", f->img, f->trace, keys);
	assert_int_equal(cdt_open(addr, NULL, &dev, err, sizeof(err)), 0);
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	bad = r.sum.bad_blocks;
	cdt_image_result_free(&r);
	cdt_close(dev);
	t->n = th_read_trace(f->trace, t->r, TH_N(t->r));
	return (int)bad;
}

static size_t failures(const struct trace *t)
{
	size_t i, k = 0;

	for (i = 0; i < t->n; i++)
		k += !t->r[i].ok;
	return k;
}

/* The index of the first chunk read at or after i, or t->n. */
static size_t next_chunk(const struct trace *t, size_t i)
{
	while (i < t->n && (t->r[i].n <= 1 || t->r[i].n > CHUNK))
		i++;
	return i;
}

/*
 * A scratch of 200 blocks: every chunk read stays inside one cell of the
 * 32-block grid, and the first read after pass 1 reached the end of what
 * it copies before the end search (the reported extent but its last 2
 * blocks, which the search reads: issue 13, "reading the reported extent
 * first and searching past the end afterwards puts the good data first")
 * is the untried chunk just past the scratch (pass 2 goes backwards).
 */
static void test_grid_and_backwards(void **state)
{
	struct fixture *f = *state;
	static struct trace t;
	size_t i, last_top = 0;

	assert_int_equal(image(f, "bad=1000-1199", 0, &t), 200);
	for (i = 0; i < t.n; i++) {
		/* the probe's reads (filesystem, end search) are not chunks */
		if (t.r[i].n <= 1 || t.r[i].n > CHUNK)
			continue;
		if (t.r[i].lba / CHUNK != (t.r[i].lba + t.r[i].n - 1) / CHUNK)
			fail_msg("read %zu: %llu+%llu crosses the grid", i,
				 (unsigned long long)t.r[i].lba,
				 (unsigned long long)t.r[i].n);
	}
	/* pass 1 ends with the last chunk before the end search */
	for (i = next_chunk(&t, 0); i < t.n; i = next_chunk(&t, i + 1))
		if (t.r[i].lba + t.r[i].n == BLOCKS - 2) {
			last_top = i;
			break;
		}
	assert_true(last_top > 0 && last_top < t.n);
	i = next_chunk(&t, last_top + 1);
	assert_true(i < t.n);
	/* the first untried chunk above the scratch, read good */
	assert_true(t.r[i].lba >= 1200 && t.r[i].ok);
	/* and pass 2 keeps going down: its next chunk is lower */
	assert_true(next_chunk(&t, i + 1) < t.n);
	assert_true(t.r[next_chunk(&t, i + 1)].lba < t.r[i].lba);
}

/* The reads in *t that touch blocks [a, b]. */
static size_t reads_touching(const struct trace *t, uint64_t a, uint64_t b)
{
	size_t i, k = 0;

	for (i = 0; i < t->n; i++)
		k += t->r[i].lba <= b && t->r[i].lba + t->r[i].n > a;
	return k;
}

/*
 * What the default retries add to --retries 0 on a disc whose damage is
 * permanent: exactly `want` reads, all failing, the last ones of the run.
 */
static void expect_extra_reads(const struct trace *t0, const struct trace *td, size_t want)
{
	assert_int_equal(td->n, t0->n + want);
	assert_int_equal(failures(td), failures(t0) + want);
}

/* The last k reads of *t are one-block reads of lba, in that order. */
static void expect_last_reads(const struct trace *t, size_t k, const uint64_t *lba)
{
	size_t i;

	assert_true(t->n >= k);
	for (i = 0; i < k; i++) {
		assert_int_equal(t->r[t->n - k + i].lba, lba[i]);
		assert_int_equal(t->r[t->n - k + i].n, 1);
	}
}

/*
 * A small permanent scratch (one area of 10 blocks, as the bench's, which
 * starts on a chunk): its first block was tried twice already (the failing
 * chunk started on it, then the trim), so one retry gives it as many tries
 * as -r2 would, and the default retries stop there (issue 13: total time
 * within 1.2 x ddrescue's default).  --retries 2 is two passes over every
 * bad block.
 */
static void test_retry_small_scratch(void **state)
{
	static const uint64_t want[] = { 1024 };
	struct fixture *f = *state;
	static struct trace t0, td, t2;

	assert_int_equal(image(f, "bad=1024-1033", 0, &t0), 10);
	assert_int_equal(image(f, "bad=1024-1033", -1, &td), 10);
	assert_int_equal(image(f, "bad=1024-1033", 2, &t2), 10);
	expect_extra_reads(&t0, &td, 1);
	expect_last_reads(&td, 1, want);
	assert_int_equal(failures(&t2), failures(&t0) + 2 * 10);
}

/*
 * The same scratch inside a chunk: the failing chunk started below it, so
 * its first block surely had one try (the trim's); the sample gives it
 * the two more -r2 would, and no more.
 */
static void test_retry_small_scratch_in_chunk(void **state)
{
	static const uint64_t want[] = { 1000, 1000 };
	struct fixture *f = *state;
	static struct trace t0, td;

	assert_int_equal(image(f, "bad=1000-1009", 0, &t0), 10);
	assert_int_equal(image(f, "bad=1000-1009", -1, &td), 10);
	expect_extra_reads(&t0, &td, 2);
	expect_last_reads(&td, 2, want);
}

/*
 * Permanent damage in 2 areas of different classes (5 blocks: 4-7, 3
 * blocks: 2-3), neither on a chunk: one sample each, the area's first
 * block, tried twice as -r2 would, and no more.
 */
static void test_retry_sample_then_stop(void **state)
{
	static const uint64_t want[] = { 500, 500, 1500, 1500 };
	struct fixture *f = *state;
	static struct trace t0, td, t2;

	assert_int_equal(image(f, "bad=500-504:1500-1502", 0, &t0), 8);
	assert_int_equal(image(f, "bad=500-504:1500-1502", -1, &td), 8);
	assert_int_equal(image(f, "bad=500-504:1500-1502", 2, &t2), 8);
	assert_true(failures(&t0) < 20);
	expect_extra_reads(&t0, &td, 4);
	expect_last_reads(&td, 4, want);
	assert_int_equal(failures(&t2), failures(&t0) + 2 * 8);
}

/*
 * A radial scratch: areas of one class (3 blocks, each on a chunk) cost
 * one retry in all, the first area's first block.
 */
static void test_retry_one_sample_per_class(void **state)
{
	static const char keys[] = "bad=192-194:640-642:1024-1026:1408-1410:1792-1794";
	static const uint64_t want[] = { 192 };
	struct fixture *f = *state;
	static struct trace t0, td;

	assert_int_equal(image(f, keys, 0, &t0), 15);
	assert_int_equal(image(f, keys, -1, &td), 15);
	expect_extra_reads(&t0, &td, 1);
	expect_last_reads(&td, 1, want);
}

/*
 * Flaky blocks that fail twice: the sample (an area's first block, tried
 * twice already) reads, so the area gets its passes and the whole disc
 * is recovered, as ddrescue -r2 would.
 */
static void test_retry_flaky_recovered(void **state)
{
	struct fixture *f = *state;
	static struct trace t;

	assert_int_equal(image(f, "flaky=1000-1063:2", -1, &t), 0);
	assert_true(image(f, "flaky=1000-1063:2", 0, &t) > 0);
}

/*
 * A flaky area beside permanent ones: a scratch of another class (its
 * one sample fails) and an area of the flaky one's class (5 blocks), which
 * the sample that read makes worth a sample too.  Every flaky block is
 * recovered; each permanent area, on a chunk, costs exactly one retry.
 */
static void test_retry_flaky_among_permanent(void **state)
{
	static const char keys[] = "bad=320-359:1504-1508,flaky=1000-1004:2";
	struct fixture *f = *state;
	static struct trace t0, td;

	assert_true(image(f, keys, 0, &t0) > 45);
	assert_int_equal(image(f, keys, -1, &td), 45);
	assert_int_equal(reads_touching(&td, 320, 359), reads_touching(&t0, 320, 359) + 1);
	assert_int_equal(reads_touching(&td, 1504, 1508), reads_touching(&t0, 1504, 1508) + 1);
}

/*
 * A flaky area whose blocks were each tried once only: the chunk that
 * holds it failed on a bad block below it (2 blocks, another class), so
 * the trim stopped there and the flaky blocks were scraped.  -r2 gives
 * each two more tries, which a block failing twice needs; the sample
 * does the same, and the area's passes recover the rest.
 */
static void test_retry_flaky_tried_once(void **state)
{
	static const char keys[] = "bad=992-993,flaky=1010-1014:2";
	struct fixture *f = *state;
	static struct trace t0, td;

	assert_int_equal(image(f, keys, 0, &t0), 7);
	assert_int_equal(image(f, keys, -1, &td), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_grid_and_backwards, setup, teardown),
		cmocka_unit_test_setup_teardown(test_retry_small_scratch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_retry_small_scratch_in_chunk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_retry_sample_then_stop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_retry_one_sample_per_class, setup, teardown),
		cmocka_unit_test_setup_teardown(test_retry_flaky_recovered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_retry_flaky_among_permanent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_retry_flaky_tried_once, setup, teardown),
	};

	return cmocka_run_group_tests_name("rescue_order", tests, NULL, NULL);
}
