// SPDX-License-Identifier: MIT
/*
 * The drive stopped answering (engine/engine.h timeout_row): how image's
 * copy pass and verify count reads that time out.  Each answer is fed by
 * hand; the row must fill at CDT_TIMEOUTS_IN_ROW different blocks, never
 * on one block's retries, and any other answer or an uncounted read
 * (a later pass) must empty it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "cdtail.h"
#include "engine/engine.h"
#include "mmc/answer.h"

/* n timeouts of blocks from lba on, each counted: how many filled the row */
static unsigned int feed(struct timeout_row *t, uint64_t lba, unsigned int n)
{
	unsigned int i, full = 0;

	for (i = 0; i < n; i++)
		full += timeout_row_note(t, lba + i, CDT_READ_TIMEOUT, true);
	return full;
}

static void test_fills_at_the_limit(void **state)
{
	struct timeout_row t = { 0 };

	(void)state;
	assert_int_equal(feed(&t, 100, CDT_TIMEOUTS_IN_ROW - 1), 0);
	assert_true(timeout_row_note(&t, 100 + CDT_TIMEOUTS_IN_ROW - 1,
				     CDT_READ_TIMEOUT, true));
}

static void test_retries_of_one_block_count_once(void **state)
{
	struct timeout_row t = { 0 };
	unsigned int i;

	(void)state;
	for (i = 0; i < 10 * CDT_TIMEOUTS_IN_ROW; i++)
		assert_false(timeout_row_note(&t, 300, CDT_READ_TIMEOUT, true));
	/* the next blocks still fill it: 300 counted once */
	assert_int_equal(feed(&t, 301, CDT_TIMEOUTS_IN_ROW - 1), 1);
}

static void test_other_answers_empty_it(void **state)
{
	static const enum cdt_read_class others[] = {
		CDT_READ_OK, CDT_READ_MEDIUM, CDT_READ_END,
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		struct timeout_row t = { 0 };

		assert_int_equal(feed(&t, 0, CDT_TIMEOUTS_IN_ROW - 1), 0);
		assert_false(timeout_row_note(&t, 50, others[i], true));
		assert_int_equal(feed(&t, 100, CDT_TIMEOUTS_IN_ROW - 1), 0);
	}
}

static void test_uncounted_read_empties_it(void **state)
{
	struct timeout_row t = { 0 };

	(void)state;
	assert_int_equal(feed(&t, 0, CDT_TIMEOUTS_IN_ROW - 1), 0);
	assert_false(timeout_row_note(&t, 50, CDT_READ_TIMEOUT, false));
	assert_int_equal(feed(&t, 100, CDT_TIMEOUTS_IN_ROW - 1), 0);
}

/* a block counted, then another, then the first again: three different reads */
static void test_only_the_last_block_is_remembered(void **state)
{
	struct timeout_row t = { 0 };

	(void)state;
	assert_false(timeout_row_note(&t, 7, CDT_READ_TIMEOUT, true));
	assert_false(timeout_row_note(&t, 8, CDT_READ_TIMEOUT, true));
	assert_false(timeout_row_note(&t, 7, CDT_READ_TIMEOUT, true));
	assert_int_equal(t.n, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fills_at_the_limit),
		cmocka_unit_test(test_retries_of_one_block_count_once),
		cmocka_unit_test(test_other_answers_empty_it),
		cmocka_unit_test(test_uncounted_read_empties_it),
		cmocka_unit_test(test_only_the_last_block_is_remembered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
