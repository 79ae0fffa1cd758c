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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_outlives_next_job),
		cmocka_unit_test(test_no_layout_before_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
