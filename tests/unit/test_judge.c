// SPDX-License-Identifier: MIT
/*
 * probe/judge.c: what the size sources' agreement makes of a MEDIUM ERROR
 * run before the reported end (damaged-tail) and of filler read past it
 * (unconfirmed-tail), each rule and each way out of it (issue 23).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "probe/judge.h"

#define CD_ROM 0x0008
#define DVD_ROM 0x0010

/* a CD whose READ CAPACITY, TOC, track information and ISO 9660 say 1002 */
static struct cdt_sizes agreeing(void)
{
	struct cdt_sizes sz = { .size = sizeof(sz), .read_capacity = 1002,
				.toc_leadout = 1002, .track_end = 1002,
				.disc_leadout = CDT_SIZE_ABSENT, .filesystem = 1002,
				.kernel = CDT_SIZE_ABSENT, .profile = CD_ROM,
				.block_size = 2048 };
	return sz;
}

static void test_agreed_end(void **state)
{
	struct cdt_sizes sz = agreeing();

	(void)state;
	assert_int_equal(probe_agreed_end(&sz), 1002);
	sz.toc_leadout = CDT_SIZE_ABSENT;	/* track information alone agrees */
	assert_int_equal(probe_agreed_end(&sz), 1002);
	sz.track_end = 1000;			/* READ CAPACITY alone */
	assert_int_equal(probe_agreed_end(&sz), -1);
	sz = agreeing();
	sz.read_capacity = CDT_SIZE_ABSENT;
	assert_int_equal(probe_agreed_end(&sz), -1);
}

static void test_damaged_tail(void **state)
{
	struct cdt_sizes sz = agreeing();

	(void)state;
	/* issue 23's disc: ten MEDIUM ERROR blocks, 992..1001 */
	assert_true(probe_damaged_tail(&sz, 992, 1002, true));
	/* out of range (END-class) there: the disc ends at 992 */
	assert_false(probe_damaged_tail(&sz, 992, 1002, false));
	/* out of range at 1000: the disc ends below the agreed end */
	assert_false(probe_damaged_tail(&sz, 992, 1000, true));
	/* MEDIUM ERROR on past the agreed end, to the window (tgt, or
	 * damage in hidden blocks): not silenced, the old answer */
	assert_false(probe_damaged_tail(&sz, 992, 1002 + 16384, true));
	/* nothing missing, or an end past the agreed one */
	assert_false(probe_damaged_tail(&sz, 1002, 1002, true));
	assert_false(probe_damaged_tail(&sz, 1010, 1002, true));
	/* no filesystem: the structure alone */
	sz.filesystem = CDT_SIZE_ABSENT;
	assert_true(probe_damaged_tail(&sz, 992, 1002, true));
	/* a filesystem that says less, or more: no agreement */
	sz.filesystem = 992;
	assert_false(probe_damaged_tail(&sz, 992, 1002, true));
	sz.filesystem = 1100;
	assert_false(probe_damaged_tail(&sz, 992, 1002, true));
	/* a structure that ends there: its track information */
	sz = agreeing();
	sz.track_end = 992;
	assert_false(probe_damaged_tail(&sz, 992, 1002, true));
	/* READ CAPACITY alone */
	sz.toc_leadout = CDT_SIZE_ABSENT;
	sz.track_end = CDT_SIZE_ABSENT;
	assert_false(probe_damaged_tail(&sz, 992, 1002, true));
}

static void test_filler_block(void **state)
{
	uint8_t zero[2048] = { 0 }, last[2048], blk[2048];

	(void)state;
	memset(last, 0x5a, sizeof(last));
	memcpy(blk, last, sizeof(blk));
	assert_true(probe_filler_block(zero, NULL, sizeof(zero)));
	assert_true(probe_filler_block(zero, last, sizeof(zero)));
	assert_true(probe_filler_block(blk, last, sizeof(blk)));
	/* the same bytes but one, anywhere: data */
	blk[2047] ^= 1;
	assert_false(probe_filler_block(blk, last, sizeof(blk)));
	assert_false(probe_filler_block(blk, NULL, sizeof(blk)));
	zero[1000] = 1;
	assert_false(probe_filler_block(zero, NULL, sizeof(zero)));
	zero[1000] = 0;
	zero[0] = 1;
	assert_false(probe_filler_block(zero, NULL, sizeof(zero)));
	assert_false(probe_filler_block(zero, NULL, 0));
}

static void test_tail_unconfirmed(void **state)
{
	struct cdt_sizes sz = agreeing();

	(void)state;
	assert_true(probe_tail_unconfirmed(&sz, 1002 + 16384, false, true, false));
	assert_true(probe_tail_unconfirmed(&sz, 1003, false, true, false));
	/* no tail */
	assert_false(probe_tail_unconfirmed(&sz, 1002, false, true, false));
	assert_false(probe_tail_unconfirmed(&sz, 992, false, true, false));
	/* nothing read past the end in this run (a resume above it) */
	assert_false(probe_tail_unconfirmed(&sz, 1003, false, false, false));
	/* real data past the end, or headers that already judged each block */
	assert_false(probe_tail_unconfirmed(&sz, 1003, false, true, true));
	assert_false(probe_tail_unconfirmed(&sz, 1003, true, true, false));
	/* not a CD */
	sz.profile = DVD_ROM;
	assert_false(probe_tail_unconfirmed(&sz, 1003, false, true, false));
	/* a filesystem or the kernel declaring more: a hidden tail is expected */
	sz = agreeing();
	sz.filesystem = 1100;
	assert_false(probe_tail_unconfirmed(&sz, 1003, false, true, false));
	sz.filesystem = 900;	/* less: still agreeing that nothing lies past */
	assert_true(probe_tail_unconfirmed(&sz, 1003, false, true, false));
	sz.kernel = 1010;
	assert_false(probe_tail_unconfirmed(&sz, 1003, false, true, false));
	/* READ CAPACITY alone (hide=, toc=true: the TOC says more) */
	sz = agreeing();
	sz.toc_leadout = 1100;
	sz.track_end = 1100;
	assert_false(probe_tail_unconfirmed(&sz, 1003, false, true, false));
}

/* issue 32: 1 or 2 blocks of 05/64/00 at the end are a run-out, 3 or more not */
static void test_runout_blocks(void **state)
{
	(void)state;
	assert_int_equal(probe_runout_blocks(1000, 1002, true), 2);
	assert_int_equal(probe_runout_blocks(1001, 1002, true), 1);
	assert_int_equal(probe_runout_blocks(999, 1002, true), 0);
	assert_int_equal(probe_runout_blocks(1002, 1002, true), 0);
	assert_int_equal(probe_runout_blocks(1010, 1002, true), 0);
	/* a MEDIUM ERROR (or out of range) among them: no run-out */
	assert_int_equal(probe_runout_blocks(1000, 1002, false), 0);
}

/* issue 32: MEDIUM ERROR just before a run-out that closes the agreed end */
static void test_damaged_before(void **state)
{
	struct cdt_sizes sz = agreeing();

	(void)state;
	/* 997..999 bad, 1000 and 1001 the run-out: the drive's END-class from 1000 */
	assert_true(probe_damaged_before(&sz, 997, 1000, true, 2));
	assert_true(probe_damaged_before(&sz, 997, 1001, true, 1));
	/* without the run-out the damage must reach the agreed end */
	assert_false(probe_damaged_before(&sz, 997, 1000, true, 0));
	/* END-class at the search's end, or the drive's answers elsewhere */
	assert_false(probe_damaged_before(&sz, 997, 1000, false, 2));
	assert_false(probe_damaged_before(&sz, 997, 999, true, 2));
	assert_false(probe_damaged_before(&sz, 1000, 1000, true, 2));
	/* 3 blocks are never a run-out */
	assert_false(probe_damaged_before(&sz, 997, 999, true, 3));
	/* a TAO disc's filesystem may count its data, up to the run-out */
	sz.filesystem = 1000;
	assert_true(probe_damaged_before(&sz, 997, 1000, true, 2));
	assert_false(probe_damaged_tail(&sz, 997, 1002, true));
	sz.filesystem = 999;
	assert_false(probe_damaged_before(&sz, 997, 1000, true, 2));
	/* READ CAPACITY alone */
	sz = agreeing();
	sz.toc_leadout = CDT_SIZE_ABSENT;
	sz.track_end = CDT_SIZE_ABSENT;
	assert_false(probe_damaged_before(&sz, 997, 1000, true, 2));
}

/* cdtail-probe(1)'s table: each verdict and what makes it */
static void test_verdict(void **state)
{
	(void)state;
	assert_int_equal(probe_verdict(0, 0, false), CDT_VERDICT_OK);
	assert_int_equal(probe_verdict(5, 0, false), CDT_VERDICT_HIDDEN_TAIL);
	assert_int_equal(probe_verdict(-3, 0, false), CDT_VERDICT_SHORT);
	/* a run-out is no data missing; more short than it is */
	assert_int_equal(probe_verdict(-2, 2, false), CDT_VERDICT_OK);
	assert_int_equal(probe_verdict(-1, 1, false), CDT_VERDICT_OK);
	assert_int_equal(probe_verdict(-3, 2, false), CDT_VERDICT_SHORT);
	assert_int_equal(probe_verdict(-2, 0, false), CDT_VERDICT_SHORT);
	/* nothing read: unreadable, whatever the length says */
	assert_int_equal(probe_verdict(-300, 0, true), CDT_VERDICT_UNREADABLE);
	assert_int_equal(probe_verdict(-2, 2, true), CDT_VERDICT_UNREADABLE);
	assert_string_equal(cdt_verdict_name(CDT_VERDICT_UNREADABLE), "unreadable");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agreed_end),
		cmocka_unit_test(test_damaged_tail),
		cmocka_unit_test(test_runout_blocks),
		cmocka_unit_test(test_damaged_before),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_filler_block),
		cmocka_unit_test(test_tail_unconfirmed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
