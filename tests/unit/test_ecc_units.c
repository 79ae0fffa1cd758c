// SPDX-License-Identifier: MIT
/*
 * The medium's unit in the rescue engine (engine.h, issue 36): 16 on DVD
 * profiles (an ECC block), 32 on BD (a cluster), 1 elsewhere or where a
 * read cannot hold one; the trim, scrape and retry reads of a unit stay
 * inside it and inside their limit, and are single blocks with unit 1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "engine/engine.h"
#include "th.h"

static void test_medium_unit(void **state)
{
	(void)state;
	assert_int_equal(rescue_medium_unit(0x0008, 32, 32), 1);	/* CD-ROM */
	assert_int_equal(rescue_medium_unit(0x0010, 32, 32), 16);	/* DVD-ROM */
	assert_int_equal(rescue_medium_unit(0x001b, 32, 32), 16);	/* DVD+R */
	assert_int_equal(rescue_medium_unit(0x002b, 32, 32), 16);	/* DVD+R DL */
	assert_int_equal(rescue_medium_unit(0x0043, 32, 32), 32);	/* BD-RE */
	/* a chunk or a transfer smaller than the unit: single blocks */
	assert_int_equal(rescue_medium_unit(0x0043, 16, 32), 1);
	assert_int_equal(rescue_medium_unit(0x0010, 32, 8), 1);
	assert_int_equal(rescue_medium_unit(0x0020, 32, 32), 1);	/* DDCD-ROM */
}

static void test_unit_spans(void **state)
{
	struct rescue r = { .unit = 16 };

	(void)state;
	assert_int_equal(rescue_unit_up(&r, 992, 2000), 16);
	assert_int_equal(rescue_unit_up(&r, 1000, 2000), 8);
	assert_int_equal(rescue_unit_up(&r, 992, 1000), 8);
	assert_int_equal(rescue_unit_down(&r, 1008, 0), 16);
	assert_int_equal(rescue_unit_down(&r, 1000, 0), 8);
	assert_int_equal(rescue_unit_down(&r, 1008, 1000), 8);
	r.unit = 1;
	assert_int_equal(rescue_unit_up(&r, 1000, 2000), 1);
	assert_int_equal(rescue_unit_down(&r, 1000, 0), 1);
	r.unit = 0;
	assert_int_equal(rescue_unit_up(&r, 1000, 2000), 1);
	assert_int_equal(rescue_unit_down(&r, 1000, 0), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_medium_unit),
		cmocka_unit_test(test_unit_spans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
