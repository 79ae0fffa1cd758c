// SPDX-License-Identifier: MIT
/*
 * Size sources and the whole probe through the library, on the emulated
 * drive: each case of the foundation issue with its exact answer.
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
#include "th.h"

#define IMG_BLOCKS 6000

static char dir[64];
static char rnd[128];
static char rnd512[128];

static void write_image(const char *path, uint64_t bytes)
{
	FILE *f = fopen(path, "wb");
	uint64_t x = 0x9e3779b97f4a7c15ull;

	assert_non_null(f);
	for (uint64_t i = 0; i < bytes / 8; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		fwrite(&x, 8, 1, f);
	}
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	if (th_tmpdir(dir, sizeof(dir), "probe"))
		return -1;
	th_path(rnd, sizeof(rnd), dir, "rnd.img");
	th_path(rnd512, sizeof(rnd512), dir, "rnd512.img");
	write_image(rnd, (uint64_t)IMG_BLOCKS * 2048);
	write_image(rnd512, 4000 * 512);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return th_rmrf(dir);
}

static const char *fixture(const char *name)
{
	static char path[512];
	const char *d = getenv("CDT_FIXTURES");

	snprintf(path, sizeof(path), "%s/%s", d ? d : "fixtures", name);
	return path;
}

static struct cdt_probe_result probe(const char *fmt, ...)
{
	struct cdt_probe_result res = CDT_INIT(res);
	struct cdt_dev *dev;
	char addr[512], err[256];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(addr, sizeof(addr), fmt, ap);
	va_end(ap);
	rc = cdt_open(addr, NULL, &dev, err, sizeof(err));
	if (rc)
		fail_msg("open %s: %s", addr, err);
	rc = cdt_probe(dev, NULL, &res);
	if (rc)
		fail_msg("probe %s: %s", addr, cdt_errmsg(dev));
	cdt_close(dev);
	return res;
}

static void test_sizes_iso(void **state)
{
	char err[256];
	struct cdt_dev *dev;
	struct cdt_sizes sz = CDT_INIT(sz);
	FILE *f;
	long bytes;

	(void)state;
	f = fopen(fixture("iso9660.iso"), "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	bytes = ftell(f);
	fclose(f);
	assert_int_equal(cdt_open(fixture("iso9660.iso"), NULL, &dev, err, sizeof(err)),
			 CDT_ENOTSCSI);
	{
		char addr[600];

		snprintf(addr, sizeof(addr), "sim:%s,hide=5", fixture("iso9660.iso"));
		assert_int_equal(cdt_open(addr, NULL, &dev, err, sizeof(err)), 0);
	}
	assert_int_equal(cdt_read_sizes(dev, &sz), 0);
	assert_int_equal(sz.block_size, 2048);
	assert_int_equal(sz.read_capacity, bytes / 2048 - 5);
	assert_int_equal(sz.toc_leadout, bytes / 2048 - 5);
	assert_int_equal(sz.track_end, bytes / 2048 - 5);
	assert_int_equal(sz.filesystem, bytes / 2048);
	assert_int_equal(sz.kernel, CDT_SIZE_ABSENT);
	assert_string_equal(sz.fs_type, "iso9660");
	assert_int_equal(sz.profile, 0x0008);
	cdt_close(dev);
}

static void test_sizes_udf(void **state)
{
	struct cdt_probe_result r;

	(void)state;
	r = probe("sim:%s,hide=2", fixture("udf.img"));
	assert_string_equal(r.sizes.fs_type, "udf");
	assert_int_equal(r.sizes.filesystem, 1024);
	assert_int_equal(r.true_blocks, 1024);
	assert_int_equal(r.failed_reads, 1);
}

static void test_sizes_toc(void **state)
{
	struct cdt_probe_result r;

	(void)state;
	r = probe("sim:%s,hide=9,toc=true", rnd);
	assert_int_equal(r.sizes.toc_leadout, IMG_BLOCKS);
	assert_int_equal(r.sizes.read_capacity, IMG_BLOCKS - 9);
	r = probe("sim:%s,toc=none", rnd);
	assert_int_equal(r.sizes.toc_leadout, CDT_SIZE_ABSENT);
	assert_int_equal(r.sizes.filesystem, CDT_SIZE_ABSENT);
}

static void test_hidden_tails(void **state)
{
	static const unsigned int ks[] = { 1, 2, 150, 5000 };

	(void)state;
	for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		struct cdt_probe_result r = probe("sim:%s,hide=%u", rnd, ks[i]);

		assert_int_equal(r.reported_blocks, IMG_BLOCKS - ks[i]);
		assert_int_equal(r.true_blocks, IMG_BLOCKS);
		assert_int_equal(r.hidden_blocks, ks[i]);
		assert_int_equal(r.verdict, CDT_VERDICT_HIDDEN_TAIL);
		assert_true(r.failed_reads <= 2);
		assert_true(r.search_ms <= 2 * 8000 + 1.5 * ks[i] * 1.05 + 50);
	}
}

/* the hidden tail the ISO's own size predicts: one failing read */
static void test_iso_predicts(void **state)
{
	struct cdt_probe_result r;

	(void)state;
	r = probe("sim:%s,hide=4", fixture("iso9660.iso"));
	assert_int_equal(r.hidden_blocks, 4);
	assert_int_equal(r.failed_reads, 1);
	assert_true(r.search_ms < 8000 + 10);
}

static void test_over_reported(void **state)
{
	struct cdt_probe_result r;

	(void)state;
	r = probe("sim:%s,extra=1", rnd);
	assert_int_equal(r.true_blocks, IMG_BLOCKS);
	assert_int_equal(r.hidden_blocks, -1);
	assert_int_equal(r.verdict, CDT_VERDICT_SHORT);
	assert_int_equal(r.failed_reads, 1);
	r = probe("sim:%s,extra=2", rnd);
	assert_int_equal(r.hidden_blocks, -2);
	assert_int_equal(r.extent_blocks, IMG_BLOCKS);
	assert_false(r.notes & CDT_NOTE_TAO_RUNOUT);
}

static void test_runout(void **state)
{
	struct cdt_probe_result r;

	(void)state;
	r = probe("sim:%s,runout=2", rnd);
	assert_int_equal(r.true_blocks, IMG_BLOCKS - 2);
	assert_int_equal(r.extent_blocks, IMG_BLOCKS - 2);
	assert_true(r.notes & CDT_NOTE_TAO_RUNOUT);
	assert_true(r.failed_reads <= 2);
}

static void test_bad_near_end(void **state)
{
	struct cdt_probe_result r;

	(void)state;
	r = probe("sim:%s,hide=20,bad=%u-%u", rnd, IMG_BLOCKS - 15, IMG_BLOCKS - 10);
	assert_int_equal(r.true_blocks, IMG_BLOCKS);
	/*
	 * READ CAPACITY, the TOC and track information agree on the end
	 * and there is no filesystem: MEDIUM ERROR up to it is damage
	 * (issue 23 item 5), no longer a disc 8 blocks short
	 */
	r = probe("sim:%s,bad=%u-%u", rnd, IMG_BLOCKS - 8, IMG_BLOCKS - 1);
	assert_int_equal(r.true_blocks, IMG_BLOCKS);
	assert_int_equal(r.extent_blocks, IMG_BLOCKS);
	assert_int_equal(r.verdict, CDT_VERDICT_OK);
	assert_int_equal(r.damaged_tail_blocks, 8);
	assert_true(r.notes & CDT_NOTE_DAMAGED_TAIL);
	assert_false(r.notes & CDT_NOTE_TRAILING_MEDIUM);
	/*
	 * READ CAPACITY and track information say 3 more, the TOC the true
	 * end, where the drive says out of range: the disc ends below the
	 * agreed end, so the failing run is its end, the old answer
	 */
	r = probe("sim:%s,extra=3,toc=true,bad=%u-%u", rnd, IMG_BLOCKS - 8, IMG_BLOCKS - 1);
	assert_int_equal(r.true_blocks, IMG_BLOCKS - 8);
	assert_int_equal(r.extent_blocks, IMG_BLOCKS);
	assert_true(r.notes & CDT_NOTE_TRAILING_MEDIUM);
	assert_false(r.notes & CDT_NOTE_DAMAGED_TAIL);
	assert_int_equal(r.damaged_tail_blocks, 0);
}

/*
 * Reads past an end READ CAPACITY and the TOC agree on that succeed with
 * zeros (a drive reading the lead-out) or the last block again (a stale
 * cache): not a hidden tail on a CD (issue 23 item 4); real data past
 * it still is, up to its last block, and the filler past that is no
 * hidden tail either, on a DVD too (issue 32: filler is never hidden data).
 */
static void test_filler_past_agreed_end(void **state)
{
	static const char *const past[] = { "past=zero", "past=repeat" };
	struct cdt_probe_result r;
	unsigned int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		r = probe("sim:%s,%s", rnd, past[i]);
		assert_int_equal(r.true_blocks, IMG_BLOCKS);
		assert_int_equal(r.extent_blocks, IMG_BLOCKS);
		assert_int_equal(r.verdict, CDT_VERDICT_OK);
		assert_true(r.notes & CDT_NOTE_UNCONFIRMED_TAIL);
		assert_false(r.notes & CDT_NOTE_WINDOW_LIMIT);
		assert_int_equal(r.unconfirmed_blocks, CDT_DEFAULT_MAX_EXTRA);
		r = probe("sim:%s,hide=20,%s", rnd, past[i]);
		assert_int_equal(r.verdict, CDT_VERDICT_HIDDEN_TAIL);
		assert_int_equal(r.true_blocks, IMG_BLOCKS);
		assert_int_equal(r.extent_blocks, IMG_BLOCKS);
		assert_true(r.notes & CDT_NOTE_UNCONFIRMED_TAIL);
		assert_false(r.notes & CDT_NOTE_WINDOW_LIMIT);
		assert_int_equal(r.unconfirmed_blocks, CDT_DEFAULT_MAX_EXTRA - 20);
		r = probe("sim:%s,profile=dvd-rom,%s", rnd, past[i]);
		assert_int_equal(r.verdict, CDT_VERDICT_OK);
		assert_int_equal(r.true_blocks, IMG_BLOCKS);
		assert_true(r.notes & CDT_NOTE_UNCONFIRMED_TAIL);
		assert_int_equal(r.unconfirmed_blocks, CDT_DEFAULT_MAX_EXTRA);
	}
}

static void test_flaky_and_ua(void **state)
{
	struct cdt_probe_result r;

	(void)state;
	r = probe("sim:%s,hide=6,flaky=%u-%u:3", rnd, IMG_BLOCKS - 4, IMG_BLOCKS - 3);
	assert_int_equal(r.true_blocks, IMG_BLOCKS);
	r = probe("sim:%s,hide=6,ua=2", rnd);
	assert_int_equal(r.true_blocks, IMG_BLOCKS);
	assert_true(r.stats.commands > r.reads);
}

static void test_block512(void **state)
{
	struct cdt_probe_result r;

	(void)state;
	r = probe("sim:%s,block=512,hide=7", rnd512);
	assert_int_equal(r.sizes.block_size, 512);
	assert_int_equal(r.true_blocks, 4000);
	assert_int_equal(r.hidden_blocks, 7);
}

static void test_no_source_predicts(void **state)
{
	struct cdt_probe_result r;

	(void)state;
	/*
	 * A tail of 300 is read block by block from the reported end, so the
	 * one failing read is the end itself, whatever a failure costs (issue
	 * 13; it used to be at most 2*9+6 reads with two failures).
	 */
	r = probe("sim:%s,hide=300,cost=50/1", rnd);
	assert_int_equal(r.true_blocks, IMG_BLOCKS);
	assert_int_equal(r.failed_reads, 1);
	assert_true(r.reads <= 300 + 2);
}

/*
 * Issue 22: a timeout in the end search is a failed block, not the end of
 * the probe; only a drive that stops answering (timeouts in a row) is.
 */
static void test_timeout_is_a_failed_block(void **state)
{
	struct cdt_probe_result res = CDT_INIT(res);
	struct cdt_dev *dev;
	struct cdt_open_opts oo = { .size = sizeof(oo), .timeout_ms = 1000 };
	char addr[256], err[256];

	(void)state;
	snprintf(addr, sizeof(addr), "sim:%s,hide=3,hang=%u", rnd, IMG_BLOCKS - 2);
	assert_int_equal(cdt_open(addr, &oo, &dev, err, sizeof(err)), 0);
	assert_int_equal(cdt_probe(dev, NULL, &res), 0);
	assert_int_equal(res.true_blocks, IMG_BLOCKS);
	cdt_close(dev);
	snprintf(addr, sizeof(addr), "sim:%s,hide=30,fault=timeout@%u-%u,ready=0", rnd,
		 IMG_BLOCKS - 28, IMG_BLOCKS - 1);
	assert_int_equal(cdt_open(addr, &oo, &dev, err, sizeof(err)), 0);
	assert_int_equal(cdt_probe(dev, NULL, &res), CDT_ETIMEOUT);
	assert_non_null(strstr(cdt_errmsg(dev), "stopped answering"));
	cdt_close(dev);
}

struct seen {
	uint64_t calls, last_done, last_bad, reported, past_end;
	bool ordered;
};

static void on_progress(void *ctx, const struct cdt_progress *p)
{
	struct seen *s = ctx;

	s->calls++;
	/* one call per read: done counts them, bad the failing ones */
	if (p->phase != CDT_PHASE_SEARCH || p->done != s->calls || p->bad < s->last_bad ||
	    p->total != s->reported || p->size != sizeof(*p))
		s->ordered = false;
	s->last_done = p->done;
	s->last_bad = p->bad;
	s->past_end += p->pos >= p->total;
}

/* The progress hook sees every read of the end search, in order. */
static void test_search_progress(void **state)
{
	struct cdt_probe_result res = CDT_INIT(res);
	struct cdt_probe_opts po = CDT_INIT(po);
	struct seen s = { .reported = IMG_BLOCKS - 150, .ordered = true };
	struct cdt_dev *dev;
	char addr[256], err[256];

	(void)state;
	snprintf(addr, sizeof(addr), "sim:%s,hide=150", rnd);
	assert_int_equal(cdt_open(addr, NULL, &dev, err, sizeof(err)), 0);
	po.progress = on_progress;
	po.progress_ctx = &s;
	assert_int_equal(cdt_probe(dev, &po, &res), 0);
	cdt_close(dev);
	assert_int_equal(res.true_blocks, IMG_BLOCKS);
	assert_true(s.ordered);
	assert_int_equal(s.last_done, res.reads);
	assert_int_equal(s.last_bad, res.failed_reads);
	assert_true(s.past_end > 0);
}

/* probe with a --max-extra window */
static struct cdt_probe_result probe_window(const char *addr, uint64_t window)
{
	struct cdt_probe_opts po = { .size = sizeof(po), .max_extra = window };
	struct cdt_probe_result res = CDT_INIT(res);
	struct cdt_dev *dev;
	char err[256];

	if (cdt_open(addr, NULL, &dev, err, sizeof(err)))
		fail_msg("open %s: %s", addr, err);
	if (cdt_probe(dev, &po, &res))
		fail_msg("probe %s: %s", addr, cdt_errmsg(dev));
	cdt_close(dev);
	return res;
}

/* blocks random data with an ISO 9660 PVD at 16 declaring size blocks */
static void write_volume(const char *path, uint64_t blocks, uint32_t size)
{
	uint8_t pvd[2 * 2048] = { 0 };
	FILE *f;

	write_image(path, blocks * 2048);
	memcpy(pvd, "\x01" "CD001\x01", 7);
	th_put_le32(pvd + 80, size);
	th_put_be32(pvd + 84, size);
	pvd[128] = 0x00;
	pvd[129] = 0x08;
	pvd[130] = 0x08;
	pvd[131] = 0x00;
	memcpy(pvd + 2048, "\xff" "CD001\x01", 7);
	f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, 16 * 2048, SEEK_SET), 0);
	assert_int_equal(fwrite(pvd, sizeof(pvd), 1, f), 1);
	fclose(f);
}

/*
 * Issue 35, 6: a window that ends the search below the filesystem's
 * size reads the filesystem's last block once: a volume of 290 blocks on
 * 300 reads there, so its files are on the disc; one of 290 on 250 does
 * not; without a window limit nothing is tried.
 */
static void test_fs_end_past_window(void **state)
{
	char addr[800], vol[256];
	struct cdt_probe_result r;

	(void)state;
	th_path(vol, sizeof(vol), dir, "vol.img");
	write_volume(vol, 300, 290);
	snprintf(addr, sizeof(addr), "sim:%s,hide=100", vol);
	r = probe_window(addr, 8);
	assert_true(r.notes & CDT_NOTE_WINDOW_LIMIT);
	assert_int_equal(r.true_blocks, 208);
	assert_int_equal(r.sizes.filesystem, 290);
	assert_int_equal(r.fs_end_read, 1);
	r = probe_window(addr, 0);
	assert_false(r.notes & CDT_NOTE_WINDOW_LIMIT);
	assert_int_equal(r.fs_end_read, -1);

	write_volume(vol, 250, 290);
	snprintf(addr, sizeof(addr), "sim:%s,hide=50", vol);
	r = probe_window(addr, 8);
	assert_true(r.notes & CDT_NOTE_WINDOW_LIMIT);
	assert_int_equal(r.true_blocks, 208);
	assert_int_equal(r.fs_end_read, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_iso),
		cmocka_unit_test(test_search_progress),
		cmocka_unit_test(test_sizes_udf),
		cmocka_unit_test(test_sizes_toc),
		cmocka_unit_test(test_hidden_tails),
		cmocka_unit_test(test_iso_predicts),
		cmocka_unit_test(test_over_reported),
		cmocka_unit_test(test_runout),
		cmocka_unit_test(test_bad_near_end),
		cmocka_unit_test(test_filler_past_agreed_end),
		cmocka_unit_test(test_flaky_and_ua),
		cmocka_unit_test(test_block512),
		cmocka_unit_test(test_no_source_predicts),
		cmocka_unit_test(test_timeout_is_a_failed_block),
		cmocka_unit_test(test_fs_end_past_window),
	};

	return cmocka_run_group_tests_name("probe", tests, setup, teardown);
}
