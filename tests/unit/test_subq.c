// SPDX-License-Identifier: MIT
/*
 * cd/subq.c's mode 2 and mode 3 Q (ADR 2: the Media Catalog Number, ADR
 * 3: the ISRC; ECMA-130 22.3, IEC 60908).  The vectors were packed
 * field by field as a bit string apart from the C code (the fields'
 * widths in order, the CRC of tests/raw/model.py); the CRC is also checked
 * as cd_subq_parse checks it, and the ADR the parser reads back.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cd/subq.h"

static void check_frame(const uint8_t *q, uint8_t control, uint8_t adr)
{
	struct cd_subq sq;

	assert_int_equal(cd_subq_parse(q, CD_Q_LEN, &sq), 0);
	assert_int_equal(sq.control, control);
	assert_int_equal(sq.adr, adr);
	assert_int_equal(sq.crc, CD_Q_CRC_OK);
	/* no position in a mode 2 or 3 frame */
	assert_false(sq.bcd_ok);
	assert_int_equal(sq.lba, 0);
}

/* 13 digits, 12 zero bits, AFRAME 74 (LBA 74: absolute frame 224) */
static void test_mcn(void **state)
{
	static const uint8_t want[CD_Q_LEN] = {
		0x02, 0x01, 0x23, 0x45, 0x67, 0x89, 0x01, 0x20, 0x00, 0x74, 0x0e, 0x94,
	};
	uint8_t q[CD_Q_LEN];

	(void)state;
	memset(q, 0xa5, sizeof(q));
	cd_subq_build_mcn(q, 0, "0123456789012", 74);
	assert_memory_equal(q, want, CD_Q_LEN);
	check_frame(q, 0, 2);
	cd_subq_build_mcn(q, 0x6, "9999999999999", 4350);
	check_frame(q, 0x6, 2);
	assert_int_equal(q[7], 0x90);	/* N13, then zeros */
	assert_int_equal(q[8], 0);
	assert_int_equal(q[9], 0x00);	/* absolute frame 4500: 00 */
}

/* US RC1 76 07839: 5 six-bit characters, 2 zero bits, 7 BCD, 4 zero bits */
static void test_isrc(void **state)
{
	static const uint8_t want[CD_Q_LEN] = {
		0x83, 0x96, 0x38, 0x93, 0x04, 0x76, 0x07, 0x83, 0x90, 0x01, 0xed, 0x89,
	};
	uint8_t q[CD_Q_LEN];

	(void)state;
	memset(q, 0x5a, sizeof(q));
	cd_subq_build_isrc(q, 0x8, "USRC17607839", 4351);
	assert_memory_equal(q, want, CD_Q_LEN);
	check_frame(q, 0x8, 3);
	/* the code's ends: '0' 00h, 'Z' 2Ah; "Z0Z0Z" as 6-bit groups */
	cd_subq_build_isrc(q, 0, "Z0Z0Z0000000", 0);
	assert_int_equal(q[1], 0x2a << 2 | 0);
	assert_int_equal(q[2], 0x0a);
	assert_int_equal(q[3], 0x80);
	assert_int_equal(q[4], 0x2a << 2);
	check_frame(q, 0, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mcn),
		cmocka_unit_test(test_isrc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
