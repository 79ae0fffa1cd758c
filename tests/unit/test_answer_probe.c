// SPDX-License-Identifier: MIT
/*
 * The answer table's named predicates for the probe (mmc/answer.h): the
 * sense bytes the probe used to test itself (probe.c, probe/layout.c),
 * asked by name.  Apart from test_answer.c so the predicates other
 * floors add land beside these without touching the same lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "mmc/answer.h"

/* Sense key 3 whatever the ASC: MEDIUM ERROR (03/11/00, 03/02/00 ...). */
static void test_medium_error(void **state)
{
	(void)state;
	assert_true(answer_is_medium_error(0x03));
	assert_false(answer_is_medium_error(0x04));	/* HARDWARE ERROR */
	assert_false(answer_is_medium_error(0x05));
	assert_false(answer_is_medium_error(0x00));
}

/* 05/63: END OF USER AREA ENCOUNTERED ON THIS TRACK, and nothing else. */
static void test_end_of_user_area(void **state)
{
	(void)state;
	assert_true(answer_is_end_of_user_area(0x05, 0x63));
	assert_false(answer_is_end_of_user_area(0x05, 0x64));
	assert_false(answer_is_end_of_user_area(0x05, 0x21));
	assert_false(answer_is_end_of_user_area(0x03, 0x63));
}

/* The table agrees: both stay what the table makes of them. */
static void test_table_agrees(void **state)
{
	struct cdt_sense eua = { .valid = true, .key = 0x05, .asc = 0x63 };
	struct cdt_sense med = { .valid = true, .key = 0x03, .asc = 0x11 };

	(void)state;
	assert_int_equal(cdt_sense_action(&eua), CDT_ACT_END);
	assert_int_equal(cdt_sense_action(&med), CDT_ACT_BAD_BLOCK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_medium_error),
		cmocka_unit_test(test_end_of_user_area),
		cmocka_unit_test(test_table_agrees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
