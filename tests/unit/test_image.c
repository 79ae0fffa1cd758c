// SPDX-License-Identifier: MIT
/*
 * cdt_image, cdt_tail and cdt_verify through the library API on the
 * emulated drive; every check compares bytes with the backing image.
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

#define BLOCKS 300
#define BS 2048

struct fixture {
	char dir[64];
	char img[96], out[96], map[96];
	uint8_t *data;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	unsigned int seed = 7;
	FILE *fp;
	size_t i;

	strcpy(f->dir, "/tmp/cdt-image-XXXXXX");
	if (!f || !mkdtemp(f->dir))
		return -1;
	snprintf(f->img, sizeof(f->img), "%s/disc.img", f->dir);
	snprintf(f->out, sizeof(f->out), "%s/out.img", f->dir);
	snprintf(f->map, sizeof(f->map), "%s/out.map", f->dir);
	f->data = malloc((size_t)BLOCKS * BS);
	for (i = 0; i < (size_t)BLOCKS * BS; i++)
		f->data[i] = (uint8_t)((seed = seed * 1103515245 + 12345) >> 16);
	fp = fopen(f->img, "wb");
	fwrite(f->data, BS, BLOCKS, fp);
	fclose(fp);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->img);
	unlink(f->out);
	unlink(f->map);
	rmdir(f->dir);
	free(f->data);
	free(f);
	return 0;
}

static struct cdt_dev *open_sim(struct fixture *f, const char *keys)
{
	char addr[256], err[256];
	struct cdt_dev *dev;

	snprintf(addr, sizeof(addr), "sim:%s,cost=0/0%s%s", f->img, *keys ? "," : "", keys);
	assert_int_equal(cdt_open(addr, NULL, &dev, err, sizeof(err)), 0);
	return dev;
}

/* OUT's block lba equals the image's (good) or is zeros (bad). */
static void check_out(struct fixture *f, uint64_t first_bad, uint64_t last_bad,
		      uint64_t nblocks)
{
	uint8_t *got = malloc((size_t)nblocks * BS), zero[BS] = { 0 };
	FILE *fp = fopen(f->out, "rb");
	uint64_t b;

	assert_non_null(fp);
	assert_int_equal(fread(got, BS, nblocks, fp), nblocks);
	assert_int_equal(fgetc(fp), EOF);
	fclose(fp);
	for (b = 0; b < nblocks; b++) {
		bool bad = b >= first_bad && b <= last_bad;

		if (memcmp(got + b * BS, bad ? zero : f->data + b * BS, BS))
			fail_msg("block %llu of OUT is wrong", (unsigned long long)b);
	}
	free(got);
}

static void test_image_whole_and_hidden(void **state)
{
	struct fixture *f = *state;
	struct cdt_image_opts o = { .rd.retries = -1 };
	struct cdt_image_result r;
	struct cdt_dev *dev = open_sim(f, "hide=9");

	unlink(f->out);
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_int_equal(r.sum.probe.true_blocks, BLOCKS);
	assert_int_equal(r.sum.bad_blocks, 0);
	assert_int_equal(r.digest_source, CDT_DIGEST_STREAM);
	assert_int_equal(strlen(r.sum.digests.sha256), 64);
	check_out(f, UINT64_MAX, 0, BLOCKS);
	cdt_read_summary_free(&r.sum);
	/* a second run must not overwrite OUT */
	assert_int_equal(cdt_image(dev, f->out, &o, &r), CDT_EUSAGE);
	cdt_read_summary_free(&r.sum);
	cdt_close(dev);
}

static void test_image_bad_then_resume(void **state)
{
	struct fixture *f = *state;
	struct cdt_image_opts o = { .rd.retries = 1, .map_path = f->map };
	struct cdt_image_result r;
	struct cdt_dev *dev = open_sim(f, "bad=40-49");

	unlink(f->out);
	unlink(f->map);
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_int_equal(r.sum.bad_blocks, 10);
	assert_int_equal(r.sum.n_bad, 1);
	assert_int_equal(r.sum.bad[0].first, 40);
	assert_int_equal(r.sum.bad[0].last, 49);
	assert_int_equal(r.digest_source, CDT_DIGEST_FILE);
	check_out(f, 40, 49, BLOCKS);
	cdt_read_summary_free(&r.sum);
	cdt_close(dev);

	/* the disc "heals": only the 10 bad blocks are read again */
	dev = open_sim(f, "");
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_true(r.resumed);
	assert_int_equal(r.finished_before, BLOCKS - 10);
	assert_int_equal(r.sum.blocks_read, 10);
	assert_int_equal(r.sum.bad_blocks, 0);
	check_out(f, UINT64_MAX, 0, BLOCKS);
	cdt_read_summary_free(&r.sum);
	cdt_close(dev);
}

static void test_image_stop_saves_map(void **state)
{
	struct fixture *f = *state;
	volatile sig_atomic_t stop = 1;
	struct cdt_image_opts o = { .rd.retries = -1, .rd.stop = &stop, .map_path = f->map };
	struct cdt_image_result r;
	struct cdt_dev *dev = open_sim(f, "");

	unlink(f->out);
	unlink(f->map);
	assert_int_equal(cdt_image(dev, f->out, &o, &r), CDT_EINTR);
	assert_int_equal(access(f->map, R_OK), 0);
	cdt_read_summary_free(&r.sum);
	stop = 0;
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_true(r.resumed);
	check_out(f, UINT64_MAX, 0, BLOCKS);
	cdt_read_summary_free(&r.sum);
	cdt_close(dev);
}

static void test_tail_and_verify(void **state)
{
	struct fixture *f = *state;
	struct cdt_read_opts rd = { .retries = -1 };
	struct cdt_verify_opts vo = { .rd.retries = -1 };
	struct cdt_tail_result t;
	struct cdt_verify_result v;
	struct cdt_dev *dev = open_sim(f, "hide=5");
	FILE *fp = fopen(f->out, "wb");

	fwrite(f->data, BS, BLOCKS - 5, fp);
	fclose(fp);
	assert_int_equal(cdt_tail(dev, f->out, &rd, &t), 0);
	assert_int_equal(t.verdict, CDT_TAIL_APPENDED);
	assert_int_equal(t.basis, CDT_TAIL_REPORTED);
	assert_int_equal(t.appended_blocks, 5);
	check_out(f, UINT64_MAX, 0, BLOCKS);
	cdt_read_summary_free(&t.sum);

	vo.image_path = f->out;
	assert_int_equal(cdt_verify(dev, &vo, &v), 0);
	assert_int_equal(v.verdict, CDT_VERIFY_IDENTICAL);
	assert_true(v.complete);
	cdt_verify_result_free(&v);

	fp = fopen(f->out, "r+b");
	fseek(fp, 77L * BS + 3, SEEK_SET);
	fputc(f->data[77 * BS + 3] ^ 1, fp);
	fclose(fp);
	assert_int_equal(cdt_verify(dev, &vo, &v), 0);
	assert_int_equal(v.verdict, CDT_VERIFY_DIFFERENT);
	assert_int_equal(v.first_diff_lba, 77);
	cdt_verify_result_free(&v);
	cdt_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image_whole_and_hidden),
		cmocka_unit_test(test_image_bad_then_resume),
		cmocka_unit_test(test_image_stop_saves_map),
		cmocka_unit_test(test_tail_and_verify),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
