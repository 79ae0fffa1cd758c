// SPDX-License-Identifier: MIT
/*
 * The Q searches of probe/qindex.c (issue 33) over scripted discs: a
 * model of what Q says at each LBA (the track before, the track's index 00
 * from its pregap's first block, index 01 from its start, each mark's
 * index from its block), with blocks whose Q cannot be used (an ADR 2/3
 * frame, a wrong CRC) and blocks that do not read (the session gap).  The
 * searches must find every boundary exactly, in few reads, and say "not
 * known" rather than guess.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "probe/qindex.h"

#define MAX_SPECIAL 64	/* >= 20 + the random test's 20 */

struct disc {
	unsigned int number;		/* the track searched */
	int64_t pregap_from, start;	/* its index 00 and 01 */
	int64_t end;			/* past its last block: the next track's */
	unsigned int n_marks;
	uint8_t mark_no[8];
	int64_t mark_at[8];
	int64_t gap_below;		/* blocks below this do not read (-1: none) */
	bool index1_early;		/* Q has index 01 from start - 5 */
	unsigned int n_bad;
	int64_t bad[MAX_SPECIAL];	/* blocks whose Q cannot be used */
	unsigned int n_nopos;
	int64_t nopos[8];		/* blocks with an ADR 2/3 Q */
	unsigned int reads;
};

static bool is_bad(const struct disc *d, int64_t lba)
{
	for (unsigned int i = 0; i < d->n_bad; i++)
		if (d->bad[i] == lba)
			return true;
	return false;
}

static enum qi_got model(void *ctx, int64_t lba, struct cd_subq *q)
{
	struct disc *d = ctx;
	unsigned int i;

	d->reads++;
	if (d->gap_below >= 0 && lba < d->gap_below)
		return QI_GOT_NOTHING;
	if (is_bad(d, lba))
		return QI_GOT_UNUSABLE;
	for (i = 0; i < d->n_nopos; i++)
		if (d->nopos[i] == lba)
			return QI_GOT_NO_POSITION;
	memset(q, 0, sizeof(*q));
	q->adr = 1;
	q->bcd_ok = true;
	q->lba = lba;
	if (lba >= d->end) {
		q->track = (uint8_t)(d->number + 1);
		q->index = 1;
	} else if (lba >= d->start || (d->index1_early && lba >= d->start - 5)) {
		q->track = (uint8_t)d->number;
		q->index = 1;
		for (i = 0; i < d->n_marks; i++)
			if (lba >= d->mark_at[i])
				q->index = d->mark_no[i];
	} else if (lba >= d->pregap_from) {
		q->track = (uint8_t)d->number;
		q->index = 0;
	} else {
		q->track = (uint8_t)(d->number - 1);
		q->index = 1;
	}
	return QI_GOT_Q;
}

static struct disc disc_of(int64_t prev_start, int64_t pregap, int64_t start,
			   int64_t end)
{
	(void)prev_start;
	return (struct disc){ .number = 5, .pregap_from = start - pregap, .start = start,
			      .end = end, .gap_below = -1 };
}

static struct qi_track track_of(const struct disc *d, int64_t floor, bool gap)
{
	return (struct qi_track){ .number = d->number, .start = d->start, .floor = floor,
				  .gap_below = gap, .end = d->end };
}

static void test_no_pregap_one_read(void **state)
{
	struct disc d = disc_of(1000, 0, 5000, 9000);
	struct qi_track t = track_of(&d, 1001, false);
	struct qi_pregap p;

	(void)state;
	qi_find_pregap(&t, model, &d, &p);
	assert_true(p.known);
	assert_int_equal(p.from, 5000);
	assert_int_equal(p.reads, 1);
	assert_int_equal(d.reads, 1);
}

static void test_standard_pregap_three_reads(void **state)
{
	struct disc d = disc_of(1000, 150, 5000, 9000);
	struct qi_track t = track_of(&d, 1001, false);
	struct qi_pregap p;

	(void)state;
	qi_find_pregap(&t, model, &d, &p);
	assert_true(p.known);
	assert_int_equal(p.from, 4850);
	assert_int_equal(p.reads, 3);
}

static void test_other_lengths(void **state)
{
	static const int64_t lengths[] = { 1, 2, 37, 74, 149, 151, 225, 300, 3998 };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		struct disc d = disc_of(1000, lengths[i], 5000, 9000);
		struct qi_track t = track_of(&d, 1001, false);
		struct qi_pregap p;

		qi_find_pregap(&t, model, &d, &p);
		assert_true(p.known);
		assert_int_equal(p.from, 5000 - lengths[i]);
		/* halving over 4000 blocks: 1 + 2 guesses + 12 at most */
		assert_true(p.reads <= 15);
	}
}

static void test_session_gap(void **state)
{
	/* a later session's first track: below its pregap the gap, unreadable */
	struct disc d = disc_of(0, 150, 20000, 21000);
	struct qi_track t = track_of(&d, 20000 - 150, true);
	struct qi_pregap p;

	(void)state;
	d.gap_below = 20000 - 150;
	qi_find_pregap(&t, model, &d, &p);
	assert_true(p.known);
	assert_int_equal(p.from, 19850);
	/* no pregap: the block before index 01 is the gap */
	d = disc_of(0, 0, 20000, 21000);
	d.gap_below = 20000;
	t = track_of(&d, 20000 - 150, true);
	qi_find_pregap(&t, model, &d, &p);
	assert_true(p.known);
	assert_int_equal(p.from, 20000);
	assert_int_equal(p.reads, 1);
}

static void test_unusable_q_read_aside(void **state)
{
	struct disc d = disc_of(1000, 150, 5000, 9000);
	struct qi_track t = track_of(&d, 1001, false);
	struct qi_pregap p;

	(void)state;
	d.bad[d.n_bad++] = 4999;
	d.bad[d.n_bad++] = 4851;
	d.bad[d.n_bad++] = 4848;
	qi_find_pregap(&t, model, &d, &p);
	assert_true(p.known);
	assert_int_equal(p.from, 4850);
	/* a damaged run where halving lands: stepped over */
	d = disc_of(1000, 37, 5000, 9000);
	for (int64_t x = 4920; x <= 4926; x++)
		d.bad[d.n_bad++] = x;
	qi_find_pregap(&t, model, &d, &p);
	assert_true(p.known);
	assert_int_equal(p.from, 4963);
	d = disc_of(1000, 150, 5000, 9000);
	d.bad[d.n_bad++] = 4999;
	d.bad[d.n_bad++] = 4851;
	d.bad[d.n_bad++] = 4848;
	/* the boundary's own two blocks must be read: one unusable, not known */
	d.bad[d.n_bad++] = 4849;
	qi_find_pregap(&t, model, &d, &p);
	assert_false(p.known);
	assert_int_equal(p.from, 5000);
}

/*
 * ADR 2/3 frames where a boundary is: each goes with the position before
 * it, the pregap or mark beginning at the first ADR 1 frame naming it (as
 * redumper's TOC from Q); a damaged frame among them leaves it not known.
 */
static void test_no_position_frames(void **state)
{
	struct disc d = disc_of(1000, 150, 5000, 25000);
	struct qi_track t = track_of(&d, 1001, false);
	struct qi_pregap p;
	struct qi_marks m;

	(void)state;
	d.nopos[d.n_nopos++] = 4849;
	d.nopos[d.n_nopos++] = 4999;
	qi_find_pregap(&t, model, &d, &p);
	assert_true(p.known);
	assert_int_equal(p.from, 4850);
	assert_true(p.reads <= 6);
	/* two in a row before the pregap's first block */
	d.nopos[d.n_nopos++] = 4848;
	qi_find_pregap(&t, model, &d, &p);
	assert_true(p.known);
	assert_int_equal(p.from, 4850);
	/* one of them damaged: not known */
	d.bad[d.n_bad++] = 4848;
	qi_find_pregap(&t, model, &d, &p);
	assert_false(p.known);
	/* a mark with an ADR 2/3 frame just before it, another at the end */
	d = disc_of(1000, 0, 5000, 25000);
	t = track_of(&d, 5000, false);
	d.n_marks = 2;
	d.mark_no[0] = 2, d.mark_at[0] = 12345;
	d.mark_no[1] = 3, d.mark_at[1] = 20000;
	d.nopos[d.n_nopos++] = 12344;
	d.nopos[d.n_nopos++] = 19999;
	d.nopos[d.n_nopos++] = 24999;
	qi_find_marks(&t, model, &d, &m);
	assert_true(m.known);
	assert_int_equal(m.n, 2);
	assert_int_equal(m.lba[0], 12345);
	assert_int_equal(m.lba[1], 20000);
	assert_true(m.reads <= 2 + 2 * 3 * 16);
}

static void test_no_usable_q_not_known(void **state)
{
	struct disc d = disc_of(1000, 150, 5000, 9000);
	struct qi_track t = track_of(&d, 1001, false);
	struct qi_pregap p;
	struct qi_marks m;
	int64_t x;

	(void)state;
	for (x = 4980; x < 5000; x++)
		d.bad[d.n_bad++] = x;
	qi_find_pregap(&t, model, &d, &p);
	assert_false(p.known);
	assert_int_equal(p.from, 5000);
	/* every block unreadable: neither search guesses */
	d.gap_below = 100000;
	qi_find_pregap(&t, model, &d, &p);
	assert_false(p.known);
	qi_find_marks(&t, model, &d, &m);
	assert_false(m.known);
	assert_int_equal(m.n, 0);
}

static void test_index1_before_toc(void **state)
{
	struct disc d = disc_of(1000, 150, 5000, 9000);
	struct qi_track t = track_of(&d, 1001, false);
	struct qi_pregap p;

	(void)state;
	d.index1_early = true;
	qi_find_pregap(&t, model, &d, &p);
	assert_false(p.known);
	assert_true(p.index1_differs);
}

static void test_marks(void **state)
{
	struct disc d = disc_of(1000, 0, 5000, 25000);
	struct qi_track t = track_of(&d, 5000, false);
	struct qi_marks m;

	(void)state;
	qi_find_marks(&t, model, &d, &m);
	assert_true(m.known);
	assert_int_equal(m.n, 0);
	assert_int_equal(m.reads, 1);

	d.n_marks = 3;
	d.mark_no[0] = 2, d.mark_at[0] = 5001;
	d.mark_no[1] = 3, d.mark_at[1] = 12345;
	d.mark_no[2] = 5, d.mark_at[2] = 24999;	/* 4 skipped: taken as it comes */
	qi_find_marks(&t, model, &d, &m);
	assert_true(m.known);
	assert_int_equal(m.n, 3);
	assert_int_equal(m.number[0], 2);
	assert_int_equal(m.lba[0], 5001);
	assert_int_equal(m.number[1], 3);
	assert_int_equal(m.lba[1], 12345);
	assert_int_equal(m.number[2], 5);
	assert_int_equal(m.lba[2], 24999);
	/* about 15 halvings a mark over 20000 blocks */
	assert_true(m.reads <= 1 + 3 * 16);
}

/*
 * Random discs: pregaps of 0..400 blocks (the standard 150 half the time),
 * up to 5 marks, one block in 10 with unusable Q: every boundary exact,
 * the reads bounded by the halvings.
 */
static void test_random(void **state)
{
	unsigned int seed = 33, n, unknown = 0;

	(void)state;
	for (n = 0; n < 3000; n++) {
		int64_t pregap = rand_r(&seed) % 2 ? 150 : rand_r(&seed) % 401;
		int64_t len = 20 + rand_r(&seed) % 30000;
		struct disc d = disc_of(0, pregap, 1000, 1000 + len);
		struct qi_track t = track_of(&d, 1, false);
		struct qi_pregap p;
		struct qi_marks m;
		int64_t at = d.start;
		unsigned int i, k = 1;

		d.n_marks = (unsigned int)(rand_r(&seed) % 6);
		for (i = 0; i < d.n_marks && at + 2 < d.end; i++) {
			at += 1 + rand_r(&seed) % ((d.end - at) / 2);
			k += 1 + (rand_r(&seed) % 4 == 0);
			d.mark_no[i] = (uint8_t)k;
			d.mark_at[i] = at;
		}
		d.n_marks = i;
		/* unusable Q on blocks that are no boundary's first */
		while (d.n_bad < 20) {
			int64_t x = rand_r(&seed) % (d.end + 1);
			bool edge = x == d.pregap_from || x == d.start;

			for (i = 0; i < d.n_marks; i++)
				edge = edge || x == d.mark_at[i];
			if (!edge)
				d.bad[d.n_bad++] = x;
		}
		qi_find_pregap(&t, model, &d, &p);
		assert_true(p.reads <= 3 + 12 * 5);
		/* unusable Q on every block left between two bounds: not known, never wrong */
		if (p.known)
			assert_int_equal(p.from, d.pregap_from);
		qi_find_marks(&t, model, &d, &m);
		unknown += !p.known + !m.known;
		if (!m.known)
			continue;
		assert_int_equal(m.n, d.n_marks);
		for (i = 0; i < m.n; i++) {
			assert_int_equal(m.number[i], d.mark_no[i]);
			assert_int_equal(m.lba[i], d.mark_at[i]);
		}
		assert_true(m.reads <= QI_READS_MAX);
	}
	assert_true(unknown < 3000 / 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_pregap_one_read),
		cmocka_unit_test(test_standard_pregap_three_reads),
		cmocka_unit_test(test_other_lengths),
		cmocka_unit_test(test_session_gap),
		cmocka_unit_test(test_unusable_q_read_aside),
		cmocka_unit_test(test_no_position_frames),
		cmocka_unit_test(test_no_usable_q_not_known),
		cmocka_unit_test(test_index1_before_toc),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
