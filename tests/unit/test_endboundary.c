// SPDX-License-Identifier: MIT
/*
 * The end search's second half (probe/endboundary.c) against a scripted
 * drive, as test_endsearch.c drives the first: the rounds above blocks a
 * read found good, the boundary where MEDIUM ERROR blocks give way to
 * END-class ones, the window, a drive that says MEDIUM everywhere past
 * its end (tgt), timeouts, a stop.  Until issue 31 this code read the
 * drive itself and ran only against the emulated drive.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "probe/endboundary.h"

struct range {
	uint64_t a, b;		/* inclusive */
};

struct drive {
	uint64_t n;		/* blocks [0, n) exist */
	bool past_medium;	/* reads >= n fail MEDIUM (tgt) instead of END */
	struct range bad[4];	/* MEDIUM ERROR, sense key 3 */
	unsigned int nbad;
	uint64_t hang;		/* a block that times out (0: none) */
	uint64_t fatal;		/* a block that answers FATAL (0: none) */
	/* what happened */
	uint64_t reads, alone;	/* search reads, boundary one-block reads */
	uint64_t top;		/* past the highest block any read touched */
	uint64_t alone_lba[64];
};

static bool in_bad(const struct drive *d, uint64_t b)
{
	for (unsigned int i = 0; i < d->nbad; i++)
		if (b >= d->bad[i].a && b <= d->bad[i].b)
			return true;
	return false;
}

/* One block's answer into o; true when it failed. */
static bool block(const struct drive *d, uint64_t b, struct es_outcome *o)
{
	if (d->hang && b == d->hang) {
		o->cls = CDT_READ_TIMEOUT;
	} else if (d->fatal && b == d->fatal) {
		o->cls = CDT_READ_FATAL;
	} else if (b >= d->n && !d->past_medium) {
		o->cls = CDT_READ_END;
	} else if (b >= d->n || in_bad(d, b)) {
		o->cls = CDT_READ_MEDIUM;
		o->medium_error = true;
	} else {
		o->cls = CDT_READ_OK;
		return false;
	}
	o->info_valid = true;
	o->info = b;
	return true;
}

static int answer(struct drive *d, uint64_t lba, uint32_t n, struct es_outcome *o)
{
	assert_true(n >= 1);
	if (lba + n > d->top)
		d->top = lba + n;
	for (uint64_t b = lba; b < lba + n; b++)
		if (block(d, b, o))
			break;
	o->ms = o->cls == CDT_READ_OK ? 1 : 100;
	return 0;
}

static int drive_read(void *ctx, uint64_t lba, uint32_t n, struct es_outcome *o)
{
	struct drive *d = ctx;

	d->reads++;
	return answer(d, lba, n, o);
}

static int drive_alone(void *ctx, uint64_t lba, uint32_t n, struct es_outcome *o)
{
	struct drive *d = ctx;

	assert_int_equal(n, 1);
	if (d->alone < sizeof(d->alone_lba) / sizeof(d->alone_lba[0]))
		d->alone_lba[d->alone] = lba;
	d->alone++;
	return answer(d, lba, n, o);
}

static struct eb_search search(struct drive *d)
{
	return (struct eb_search){ .read = drive_read, .probe = drive_alone, .ctx = d };
}

static struct es_params params(uint64_t reported, uint64_t max_extra)
{
	return (struct es_params){ .reported = reported, .max_extra = max_extra,
				   .max_read_blocks = 64 };
}

struct outcome {
	struct es_result er;
	uint64_t extent;
	bool window_limit;
};

static struct outcome run(struct drive *d, uint64_t reported, uint64_t max_extra)
{
	struct eb_search s = search(d);
	struct es_params p = params(reported, max_extra);
	struct outcome o;

	assert_int_equal(eb_rounds(&s, &p, &o.er, &o.extent, &o.window_limit), 0);
	/* --max-extra bounds every read, the boundary's too (issue 28, C) */
	assert_true(d->top <= reported + max_extra);
	return o;
}

/* An undamaged disc: the search's END answer at the end settles it, no read more. */
static void test_clean_end_needs_no_boundary(void **state)
{
	struct drive d = { .n = 1000 };
	struct outcome o;

	(void)state;
	o = run(&d, 1000, 16384);
	assert_int_equal(o.er.end, 1000);
	assert_int_equal(o.extent, 1000);
	assert_false(o.window_limit);
	assert_int_equal(d.alone, 0);
}

/*
 * A trailing bad run up to the end: the search stops at its first block,
 * the boundary (the first block the drive calls out of range) is the
 * reported end, tried first: the image covers the bad run, marked bad.
 */
static void test_trailing_bad_run_extends_to_boundary(void **state)
{
	struct drive d = { .n = 1000, .bad = { { 950, 999 } }, .nbad = 1 };
	struct outcome o;

	(void)state;
	o = run(&d, 1000, 16384);
	assert_int_equal(o.er.end, 950);
	assert_true(o.er.medium_end);
	assert_int_equal(o.extent, 1000);
	assert_false(o.window_limit);
	/* every boundary read at or above the end the search found */
	for (uint64_t i = 0; i < d.alone && i < 64; i++)
		assert_true(d.alone_lba[i] >= 950);
}

/* The same run on a disc that hides blocks: the boundary past the report, bisected. */
static void test_boundary_past_reported(void **state)
{
	struct drive d = { .n = 1300, .bad = { { 950, 1299 } }, .nbad = 1 };
	struct outcome o;

	(void)state;
	o = run(&d, 1000, 16384);
	assert_int_equal(o.er.end, 950);
	assert_int_equal(o.extent, 1300);
	assert_false(o.window_limit);
}

/*
 * A scratch with readable blocks after it: a round reads good above the
 * end the first found, so the search runs again from there; the true end
 * is never below a block the run read.
 */
static void test_rounds_go_past_a_scratch(void **state)
{
	struct drive d = { .n = 1000, .bad = { { 950, 990 } }, .nbad = 1 };
	struct outcome o;

	(void)state;
	o = run(&d, 1000, 16384);
	assert_int_equal(o.er.end, 1000);
	assert_int_equal(o.extent, 1000);
	assert_false(o.window_limit);
}

/*
 * tgt: MEDIUM ERROR everywhere past the end, never out of range.  From
 * the end on that is no damage: the end stands, no window limit.
 */
static void test_medium_past_end_stands(void **state)
{
	struct drive d = { .n = 1000, .past_medium = true };
	struct outcome o;

	(void)state;
	o = run(&d, 1000, 200);
	assert_int_equal(o.er.end, 1000);
	assert_int_equal(o.extent, 1000);
	assert_false(o.window_limit);
}

/*
 * Damage from inside the reported length that reaches the window: the
 * unreadable blocks go up to the window, which is said (window limit).
 */
static void test_damage_to_window(void **state)
{
	struct drive d = { .n = 1000, .past_medium = true,
			   .bad = { { 900, 999 } }, .nbad = 1 };
	struct outcome o;

	(void)state;
	o = run(&d, 1000, 200);
	assert_int_equal(o.er.end, 900);
	assert_int_equal(o.extent, 1200);
	assert_true(o.window_limit);
}

/* A block that times out alone at the end is there: never asked again. */
static void test_timeout_at_end_is_there(void **state)
{
	struct drive d = { .n = 1000, .hang = 999 };
	struct eb_search s = search(&d);
	struct es_params p = params(1000, 16384);
	struct es_result er;
	uint64_t extent;
	bool wl;

	(void)state;
	assert_int_equal(eb_rounds(&s, &p, &er, &extent, &wl), 0);
	assert_int_equal(er.end, 999);
	assert_int_equal(extent, 1000);
	for (uint64_t i = 0; i < d.alone && i < 64; i++)
		assert_true(d.alone_lba[i] != 999);
}

/* One block's class, read through the boundary's own function, kept. */
static void test_class_at(void **state)
{
	struct drive d = { .n = 100, .bad = { { 50, 50 } }, .nbad = 1,
			   .hang = 60, .fatal = 70 };
	struct eb_search s = search(&d);
	const struct eb_failure *f;

	(void)state;
	assert_int_equal(eb_class_at(&s, 10), 0);
	assert_int_equal(eb_class_at(&s, 50), 0);
	assert_int_equal(eb_class_at(&s, 60), 0);
	assert_int_equal(eb_class_at(&s, 100), 1);
	assert_int_equal(eb_class_at(&s, 70), CDT_ECHECK);
	/* the boundary's reads are not the search's */
	assert_int_equal(d.reads, 0);
	assert_int_equal(d.alone, 5);
	assert_int_equal(s.good_end, 11);
	f = eb_failure_at(&s, 50);
	assert_non_null(f);
	assert_int_equal(f->cls, CDT_READ_MEDIUM);
	assert_true(f->medium_error);
	f = eb_failure_at(&s, 100);
	assert_non_null(f);
	assert_int_equal(f->cls, CDT_READ_END);
	assert_false(f->medium_error);
	assert_null(eb_failure_at(&s, 10));
}

/* The narrowest kept failure that covers a block answers for it. */
static void test_failure_at_narrowest(void **state)
{
	struct drive d = { .n = 1000, .bad = { { 500, 520 } }, .nbad = 1 };
	struct eb_search s = search(&d);
	struct es_outcome o;
	const struct eb_failure *f;

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(s.read(s.ctx, 0, 1, &o), 0);
	/* a read through the search's function is kept as well (eb_rounds) */
	assert_int_equal(eb_class_at(&s, 510), 0);
	s.fails[s.nfails++] = (struct eb_failure){ .lba = 490, .n = 40,
						   .cls = CDT_READ_MEDIUM };
	f = eb_failure_at(&s, 510);
	assert_non_null(f);
	assert_int_equal(f->n, 1);
	f = eb_failure_at(&s, 495);
	assert_non_null(f);
	assert_int_equal(f->n, 40);
}

/* A stop asked for: no read more, CDT_EINTR. */
static void test_stop(void **state)
{
	struct drive d = { .n = 1000 };
	volatile sig_atomic_t stop = 1;
	struct eb_search s = search(&d);

	(void)state;
	s.stop = &stop;
	assert_int_equal(eb_class_at(&s, 5), CDT_EINTR);
	assert_int_equal(d.alone, 0);
}

/*
 * DVD and BD (es_params.unit, issue 36): the rounds and the boundary give
 * the same end, extent and window limit as on a CD, for damage in whole
 * units and not, ends on a unit boundary and off it, and a drive that says
 * MEDIUM past its end (tgt), where an end on a boundary costs fewer
 * failing reads.
 */
static void test_unit_same_verdicts(void **state)
{
	static const struct {
		uint64_t n, a, b, max_extra;
		bool past_medium;
	} cases[] = {
		{ 1024, 960, 1023, 16384, false },	/* a trailing bad run, whole units */
		{ 1024, 960, 991, 16384, false },	/* a scratch with good units after it */
		{ 1024, 0, 0, 200, true },		/* tgt, on a boundary */
		{ 1000, 0, 0, 200, true },		/* tgt, off it */
		{ 1024, 896, 1023, 200, true },		/* damage up to the window */
		{ 1000, 950, 999, 16384, false },	/* not whole units, off a boundary */
		{ 1300, 960, 1299, 16384, false },	/* the boundary past the report */
	};
	static const uint32_t units[] = { 16, 32 };

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (size_t u = 0; u < 2; u++) {
			struct drive d0 = { .n = cases[c].n, .past_medium = cases[c].past_medium };
			struct drive d1;
			struct eb_search s0, s1;
			struct es_params p = params(1000, cases[c].max_extra);
			struct outcome o0, o1;

			if (cases[c].b)
				d0.bad[d0.nbad++] = (struct range){ cases[c].a, cases[c].b };
			d1 = d0;
			s0 = search(&d0);
			s1 = search(&d1);
			assert_int_equal(eb_rounds(&s0, &p, &o0.er, &o0.extent, &o0.window_limit), 0);
			p.unit = units[u];
			assert_int_equal(eb_rounds(&s1, &p, &o1.er, &o1.extent, &o1.window_limit), 0);
			assert_true(d1.top <= 1000 + cases[c].max_extra);
			assert_int_equal(o1.er.end, o0.er.end);
			assert_int_equal(o1.er.medium_end, o0.er.medium_end);
			assert_int_equal(o1.extent, o0.extent);
			assert_int_equal(o1.window_limit, o0.window_limit);
			if (cases[c].past_medium && !cases[c].b && cases[c].n % units[u] == 0)
				assert_true(o1.er.failed_reads < o0.er.failed_reads);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_end_needs_no_boundary),
		cmocka_unit_test(test_trailing_bad_run_extends_to_boundary),
		cmocka_unit_test(test_boundary_past_reported),
		cmocka_unit_test(test_rounds_go_past_a_scratch),
		cmocka_unit_test(test_medium_past_end_stands),
		cmocka_unit_test(test_damage_to_window),
		cmocka_unit_test(test_timeout_at_end_is_there),
		cmocka_unit_test(test_class_at),
		cmocka_unit_test(test_failure_at_narrowest),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_unit_same_verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
