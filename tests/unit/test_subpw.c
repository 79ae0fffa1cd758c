// SPDX-License-Identifier: MIT
/*
 * cd/subpw.c: raw P-W symbols to CloneCD's channel-by-channel record and
 * back.  Checked against a record built here another way (each channel's
 * 96 bits collected as a bit string, then packed), against Q and P as
 * cd/subq.c puts them into raw P-W, and one-bit vectors that pin where
 * each symbol's bit goes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cd/subpw.h"
#include "cd/subq.h"

/* The record by bit strings: channel c's bit list, 8 bits to a byte. */
static void ref_deinterleave(const uint8_t *raw, uint8_t *out)
{
	unsigned int c, i, b;

	for (c = 0; c < 8; c++) {
		uint8_t bits[CD_PW_LEN];

		for (i = 0; i < CD_PW_LEN; i++)
			bits[i] = (raw[i] >> (7 - c)) & 1;
		for (i = 0; i < CD_SUB_CHANNEL_LEN; i++) {
			uint8_t byte = 0;

			for (b = 0; b < 8; b++)
				byte = (uint8_t)(byte << 1 | bits[8 * i + b]);
			out[c * CD_SUB_CHANNEL_LEN + i] = byte;
		}
	}
}

static void test_random_against_reference(void **state)
{
	uint8_t raw[CD_PW_LEN], got[CD_PW_LEN], want[CD_PW_LEN], back[CD_PW_LEN];
	unsigned int n, i, seed = 33;

	(void)state;
	for (n = 0; n < 500; n++) {
		for (i = 0; i < CD_PW_LEN; i++) {
			seed = seed * 1103515245u + 12345u;
			raw[i] = (uint8_t)(seed >> 16);
		}
		cd_pw_deinterleave(raw, got);
		ref_deinterleave(raw, want);
		assert_memory_equal(got, want, CD_PW_LEN);
		cd_pw_interleave(got, back);
		assert_memory_equal(back, raw, CD_PW_LEN);
	}
}

/* Symbol i's bit of channel c is bit 7 - i % 8 of byte c * 12 + i / 8. */
static void test_one_bit(void **state)
{
	uint8_t raw[CD_PW_LEN], rec[CD_PW_LEN], want[CD_PW_LEN];
	unsigned int i, c;

	(void)state;
	for (i = 0; i < CD_PW_LEN; i++)
		for (c = 0; c < 8; c++) {
			memset(raw, 0, sizeof(raw));
			memset(want, 0, sizeof(want));
			raw[i] = (uint8_t)(0x80 >> c);
			want[c * 12 + i / 8] = (uint8_t)(0x80 >> (i % 8));
			cd_pw_deinterleave(raw, rec);
			assert_memory_equal(rec, want, CD_PW_LEN);
		}
}

/*
 * Q and P as a drive's raw P-W gives them (cd_q_to_pw): P all ones in a
 * pause, Q's 12 bytes as they are, R-W zeros.  The first sector of a
 * data disc's track 1 gives the record CloneCD users know:
 * 41 01 01 00 00 00 00 00 02 00 28 32 (the myce.com thread on .sub).
 */
static void test_q_and_p(void **state)
{
	static const uint8_t first[CD_Q_LEN] = { 0x41, 0x01, 0x01, 0, 0, 0, 0, 0, 0x02, 0,
						 0x28, 0x32 };
	uint8_t q[CD_Q_LEN], pw[CD_PW_LEN], rec[CD_PW_LEN], zeros[72] = { 0 };
	unsigned int i;

	(void)state;
	cd_subq_build(q, 4, 1, 1, 0, 0);
	assert_memory_equal(q, first, CD_Q_LEN);
	cd_q_to_pw(q, false, pw);
	cd_pw_deinterleave(pw, rec);
	for (i = 0; i < CD_SUB_CHANNEL_LEN; i++)
		assert_int_equal(rec[i], 0);
	assert_memory_equal(rec + CD_SUB_Q_AT, first, CD_Q_LEN);
	assert_memory_equal(rec + 24, zeros, sizeof(zeros));
	cd_subq_build(q, 0, 2, 0, 150, 120);
	cd_q_to_pw(q, true, pw);
	cd_pw_deinterleave(pw, rec);
	for (i = 0; i < CD_SUB_CHANNEL_LEN; i++)
		assert_int_equal(rec[i], 0xff);
	assert_memory_equal(rec + CD_SUB_Q_AT, q, CD_Q_LEN);
	assert_memory_equal(rec + 24, zeros, sizeof(zeros));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_against_reference),
		cmocka_unit_test(test_one_bit),
		cmocka_unit_test(test_q_and_p),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
