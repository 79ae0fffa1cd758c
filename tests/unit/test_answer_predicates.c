// SPDX-License-Identifier: MIT
/*
 * The answer table's named questions of sense (mmc/answer.h): the only
 * place that compares sense key, ASC and ASCQ for the exec path, the
 * commands and the hazards.  Each is false for sense that is not valid.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "mmc/answer.h"

static struct cdt_sense sense(uint8_t key, uint8_t asc, uint8_t ascq)
{
	return (struct cdt_sense){ .valid = true, .key = key, .asc = asc, .ascq = ascq };
}

static void test_predicates(void **state)
{
	struct cdt_sense none = { 0 }, s;

	(void)state;
	s = sense(0x06, 0x28, 0x00);
	assert_true(answer_is_unit_attention(&s));
	assert_true(answer_is_medium_changed(&s));
	assert_false(answer_is_illegal_request(&s));
	s = sense(0x06, 0x29, 0x00);
	assert_true(answer_is_unit_attention(&s));
	assert_false(answer_is_medium_changed(&s));
	s = sense(0x05, 0x20, 0x00);
	assert_true(answer_is_illegal_request(&s));
	assert_true(answer_is_invalid_opcode(&s));
	assert_false(answer_is_unit_attention(&s));
	s = sense(0x05, 0x20, 0x01);
	assert_false(answer_is_invalid_opcode(&s));
	s = sense(0x05, 0x24, 0x00);
	assert_true(answer_is_illegal_request(&s));
	assert_false(answer_is_invalid_opcode(&s));
	/* no sense: none of them, whatever the fields hold */
	none.key = 0x06;
	none.asc = 0x28;
	assert_false(answer_is_unit_attention(&none));
	assert_false(answer_is_medium_changed(&none));
	none.key = 0x05;
	none.asc = 0x20;
	assert_false(answer_is_illegal_request(&none));
	assert_false(answer_is_invalid_opcode(&none));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_predicates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
