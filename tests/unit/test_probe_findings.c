// SPDX-License-Identifier: MIT
/*
 * What a probe found is the caller's (issue 31): cdt_dev_layout() gives
 * an owned copy, freed with cdt_layout_free(), that outlives the next
 * probe, image, tail or verify of the same handle.  Before, it was the
 * device's own layout, which the next job's probe freed: reading it then
 * was a heap-use-after-free (ASan).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "probe/probe.h"
#include "th.h"

/* data:300 + audio:200: two tracks, so a freed layout reads as garbage */
#define KEYS "layout=data:300+audio:200"
#define BLOCKS 500

static void expect_two_tracks(const struct cdt_layout *l)
{
	assert_non_null(l);
	assert_int_equal(l->n_tracks, 2);
	assert_int_equal(l->tracks[0].mode, CDT_TRACK_DATA);
	assert_int_equal(l->tracks[0].blocks, 300);
	assert_int_equal(l->tracks[1].mode, CDT_TRACK_AUDIO);
	assert_int_equal(l->tracks[1].start, 300);
}

/* The layout taken after a probe, read after the next probe and a verify. */
static void test_layout_outlives_next_job(void **state)
{
	struct th_disc *d = th_disc_new("findings", (size_t)BLOCKS * 2048, 31);
	struct cdt_probe_result res = CDT_INIT(res);
	struct cdt_verify_opts vo = CDT_INIT(vo);
	struct cdt_verify_result vr = CDT_INIT(vr);
	struct cdt_layout *first, *second;
	struct cdt_dev *dev;

	(void)state;
	assert_non_null(d);
	dev = th_open_sim(d->img, KEYS);
	assert_int_equal(cdt_probe(dev, NULL, &res), 0);
	first = cdt_dev_layout(dev);
	expect_two_tracks(first);
	assert_int_equal(cdt_probe(dev, NULL, &res), 0);
	expect_two_tracks(first);
	vo.image_path = d->img;
	assert_int_equal(cdt_verify(dev, &vo, &vr), 0);
	cdt_verify_result_free(&vr);
	expect_two_tracks(first);
	/* each call its own copy, each freed on its own */
	second = cdt_dev_layout(dev);
	expect_two_tracks(second);
	assert_ptr_not_equal(first, second);
	cdt_layout_free(first);
	cdt_close(dev);
	expect_two_tracks(second);
	cdt_layout_free(second);
	cdt_layout_free(NULL);
	assert_int_equal(th_disc_free(d), 0);
}

/* No probe yet: no layout, and NULL is safe to free. */
static void test_no_layout_before_probe(void **state)
{
	struct th_disc *d = th_disc_new("findings0", 16 * 2048, 7);
	struct cdt_dev *dev;

	(void)state;
	assert_non_null(d);
	dev = th_open_sim(d->img, "");
	assert_null(cdt_dev_layout(dev));
	assert_null(cdt_dev_layout(NULL));
	cdt_close(dev);
	assert_int_equal(th_disc_free(d), 0);
}

/*
 * The probe's failed reads come back in its findings, noted where the
 * probe reads; a read the caller makes afterwards adds nothing (the
 * command path no longer collects them on the device).
 */
static void test_failed_reads_in_findings(void **state)
{
	struct th_disc *d = th_disc_new("findings1", (size_t)BLOCKS * 2048, 5);
	struct cdt_probe_opts po = CDT_INIT(po);
	struct cdt_probe_result res = CDT_INIT(res);
	struct cdt_read_result rr = CDT_INIT(rr);
	struct probe_findings pf = { 0 };
	uint8_t buf[2048];
	struct cdt_dev *dev;
	unsigned int i, n;

	(void)state;
	assert_non_null(d);
	dev = th_open_sim(d->img, "bad=490-499");
	assert_int_equal(probe_whole(dev, &pf, &po, false, &res), 0);
	/* a damaged tail: the image covers the bad run, marked bad */
	assert_int_equal(res.extent_blocks, BLOCKS);
	assert_int_equal(pf.block_size, 2048);
	assert_non_null(pf.layout);
	assert_true(pf.n_failed > 0);
	for (i = 0; i < pf.n_failed; i++) {
		/* each a read that touched the bad run */
		assert_true(pf.failed[i].lba <= 499);
		assert_true(pf.failed[i].lba + pf.failed[i].n > 490);
	}
	n = pf.n_failed;
	assert_int_equal(cdt_read_blocks(dev, 495, 1, buf, sizeof(buf), &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_MEDIUM);
	assert_int_equal(pf.n_failed, n);
	probe_findings_free(&pf);
	assert_null(pf.layout);
	assert_int_equal(pf.n_failed, 0);
	cdt_close(dev);
	assert_int_equal(th_disc_free(d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_outlives_next_job),
		cmocka_unit_test(test_no_layout_before_probe),
		cmocka_unit_test(test_failed_reads_in_findings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
