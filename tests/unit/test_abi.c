// SPDX-License-Identifier: MIT
/*
 * The struct-growth convention of libcdtail(3): sizes set by CDT_INIT,
 * a caller built against an older (smaller) struct, NULL options, the
 * buffer length of cdt_read_blocks, the free functions.
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
#include "cdtail-hazards.h"

static char addr[600], out[64];

static int setup(void **state)
{
	const char *d = getenv("CDT_FIXTURES");

	(void)state;
	snprintf(addr, sizeof(addr), "sim:%s/iso9660.iso,hide=5",
		 d ? d : "fixtures");
	snprintf(out, sizeof(out), "/tmp/cdtail-abi-%d.img", (int)getpid());
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(out);
	return 0;
}

static struct cdt_dev *open_sim(void)
{
	struct cdt_dev *dev;
	char err[256];

	assert_int_equal(cdt_open(addr, NULL, &dev, err, sizeof(err)), 0);
	return dev;
}

static void test_size_zero_is_usage(void **state)
{
	struct cdt_probe_opts po = { 0 };
	struct cdt_probe_result r = CDT_INIT(r), z = { 0 };
	struct cdt_open_opts oo = { 0 };
	struct cdt_dev *dev = open_sim(), *d2;
	char err[256];

	(void)state;
	assert_int_equal(cdt_probe(dev, &po, &r), CDT_EUSAGE);
	assert_non_null(strstr(cdt_errmsg(dev), "CDT_INIT"));
	assert_int_equal(cdt_probe(dev, NULL, &z), CDT_EUSAGE);
	assert_int_equal(cdt_probe(dev, NULL, NULL), CDT_EUSAGE);
	assert_int_equal(cdt_open(addr, &oo, &d2, err, sizeof(err)), CDT_EUSAGE);
	assert_null(d2);
	assert_non_null(strstr(err, "CDT_INIT"));
	cdt_close(dev);
}

/* A caller whose struct ends before true_blocks: nothing past it is written. */
static void test_older_result(void **state)
{
	struct cdt_probe_result full = CDT_INIT(full), old;
	struct cdt_dev *dev = open_sim();
	size_t cut = offsetof(struct cdt_probe_result, true_blocks);

	(void)state;
	assert_int_equal(cdt_probe(dev, NULL, &full), 0);
	assert_int_equal(full.hidden_blocks, 5);
	memset(&old, 0xab, sizeof(old));
	old.size = cut;
	assert_int_equal(cdt_probe(dev, NULL, &old), 0);
	assert_int_equal(old.size, cut);
	assert_int_equal(old.reported_blocks, full.reported_blocks);
	assert_int_equal(old.sizes.read_capacity, full.sizes.read_capacity);
	assert_int_equal(old.true_blocks, 0xababababababababull);
	assert_int_equal((unsigned int)old.verdict, 0xababababu);
	cdt_close(dev);
}

/* NULL options and CDT_INIT options are the same defaults. */
static void test_null_options(void **state)
{
	struct cdt_probe_opts po = CDT_INIT(po);
	struct cdt_probe_result a = CDT_INIT(a), b = CDT_INIT(b);
	struct cdt_dev *dev = open_sim();

	(void)state;
	assert_int_equal(cdt_probe(dev, NULL, &a), 0);
	assert_int_equal(cdt_probe(dev, &po, &b), 0);
	assert_int_equal(a.true_blocks, b.true_blocks);
	assert_int_equal(a.reads, b.reads);
	assert_int_equal(a.verdict, CDT_VERDICT_HIDDEN_TAIL);
	cdt_close(dev);
}

/* An option past the caller's size is not read: its default holds. */
static void test_older_options(void **state)
{
	struct cdt_image_opts o = CDT_INIT(o);
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = open_sim();

	(void)state;
	unlink(out);
	o.digests = 0x77;		/* not a valid choice */
	assert_int_equal(cdt_image(dev, out, &o, &r), CDT_EUSAGE);
	cdt_image_result_free(&r);
	o.size = offsetof(struct cdt_image_opts, digests);
	o.rd.retries = 0;
	assert_int_equal(cdt_image(dev, out, &o, &r), 0);
	assert_int_equal(strlen(r.sum.digests.md5), 32);
	assert_int_equal(strlen(r.sum.digests.sha256), 64);
	assert_int_equal(r.sum.bad_blocks, 0);
	cdt_image_result_free(&r);
	cdt_image_result_free(&r);
	cdt_close(dev);
}

static void test_read_buffer_length(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct cdt_sizes sz = CDT_INIT(sz);
	struct cdt_dev *dev = open_sim();
	uint8_t buf[2 * 2048];

	(void)state;
	assert_int_equal(cdt_read_sizes(dev, &sz), 0);
	assert_int_equal(sz.block_size, 2048);
	assert_int_equal(cdt_read_blocks(dev, 0, 2, buf, sizeof(buf) - 1, &rr),
			 CDT_EUSAGE);
	assert_int_equal(cdt_read_blocks(dev, 0, 2, NULL, sizeof(buf), &rr),
			 CDT_EUSAGE);
	assert_int_equal(cdt_read_blocks(dev, 0, 2, buf, sizeof(buf), &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_OK);
	assert_int_equal(rr.size, sizeof(rr));
	cdt_close(dev);
}

/*
 * The summary holds the probe result by pointer (libcdtail.so.1): the
 * library's own allocation, with the library's size, the same probe as
 * cdt_probe() finds, released by the result's free function; NULL when
 * the call failed before it began.
 */
static void test_summary_probe_by_pointer(void **state)
{
	struct cdt_probe_result pr = CDT_INIT(pr);
	struct cdt_image_result r = CDT_INIT(r), z = { 0 };
	struct cdt_verify_opts vo = CDT_INIT(vo);
	struct cdt_verify_result v = CDT_INIT(v);
	struct cdt_tail_result t = CDT_INIT(t);
	struct cdt_dev *dev = open_sim();

	(void)state;
	unlink(out);
	assert_int_equal(cdt_probe(dev, NULL, &pr), 0);
	assert_int_equal(cdt_image(dev, out, NULL, &z), CDT_EUSAGE);
	assert_null(z.sum.probe);
	assert_int_equal(cdt_image(dev, out, NULL, &r), 0);
	assert_non_null(r.sum.probe);
	assert_int_equal(r.sum.probe->size, sizeof(struct cdt_probe_result));
	assert_true(CDT_HAS(r.sum.probe, unconfirmed_blocks));
	assert_int_equal(r.sum.probe->true_blocks, pr.true_blocks);
	assert_int_equal(r.sum.probe->hidden_blocks, 5);
	assert_int_equal(r.sum.probe->sizes.block_size, 2048);
	assert_int_equal(r.extent_blocks, r.sum.probe->extent_blocks);
	vo.image_path = out;
	assert_int_equal(cdt_verify(dev, &vo, &v), 0);
	assert_int_equal(v.verdict, CDT_VERIFY_IDENTICAL);
	assert_non_null(v.sum.probe);
	assert_ptr_not_equal(v.sum.probe, r.sum.probe);
	assert_int_equal(v.sum.probe->true_blocks, pr.true_blocks);
	assert_int_equal(cdt_tail(dev, out, NULL, &t), 0);
	assert_int_equal(t.verdict, CDT_TAIL_NOTHING_TO_ADD);
	assert_non_null(t.sum.probe);
	assert_int_equal(t.sum.probe->extent_blocks, pr.extent_blocks);
	cdt_image_result_free(&r);
	assert_null(r.sum.probe);
	cdt_image_result_free(&r);
	cdt_verify_result_free(&v);
	assert_null(v.sum.probe);
	cdt_tail_result_free(&t);
	assert_null(t.sum.probe);
	cdt_close(dev);
}

/* Every free function: on a zeroed result, on an initialised one, twice. */
static void test_free_zeroed(void **state)
{
	struct cdt_image_result i = { 0 };
	struct cdt_tail_result t = { 0 };
	struct cdt_verify_result v = { 0 };
	struct cdt_hazard_list h = { 0 };
	struct cdt_image_result i2 = CDT_INIT(i2);
	struct cdt_tail_result t2 = CDT_INIT(t2);
	struct cdt_verify_result v2 = CDT_INIT(v2);
	struct cdt_hazard_list h2 = CDT_INIT(h2);

	(void)state;
	for (int k = 0; k < 2; k++) {
		cdt_image_result_free(&i);
		cdt_tail_result_free(&t);
		cdt_verify_result_free(&v);
		cdt_hazard_list_free(&h);
		cdt_image_result_free(&i2);
		cdt_tail_result_free(&t2);
		cdt_verify_result_free(&v2);
		cdt_hazard_list_free(&h2);
	}
	cdt_image_result_free(NULL);
	cdt_tail_result_free(NULL);
	cdt_verify_result_free(NULL);
	cdt_hazard_list_free(NULL);
	assert_null(v2.diffs);
	assert_int_equal(v2.size, sizeof(v2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_zero_is_usage),
		cmocka_unit_test(test_older_result),
		cmocka_unit_test(test_null_options),
		cmocka_unit_test(test_older_options),
		cmocka_unit_test(test_read_buffer_length),
		cmocka_unit_test(test_free_zeroed),
		cmocka_unit_test(test_summary_probe_by_pointer),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
