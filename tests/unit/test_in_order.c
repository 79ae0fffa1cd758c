// SPDX-License-Identifier: MIT
/*
 * The engine's in-order pass (engine/passes.h rescue_in_order), the one
 * walk verify and tail's compare window take, driven by a scripted read
 * hook and a recording sink: the order of reads around a skipped area, a
 * failed chunk read again block by block with the retries, the sink's
 * answer ending the walk, a medium change with no sink to judge it
 * (CDT_ECHANGED: the run stops, nothing of the read reaches the sink),
 * and timeouts in a row of different blocks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "th.h"
#include "engine/engine.h"
#include "engine/passes.h"
#include "mmc/answer.h"
#include "book/mapfile.h"
#include "book/skip.h"

#define BLOCKS 100
#define BS 2048
#define CHUNK 32

/* The scripted disc: how each block answers, and what happened. */
struct script {
	unsigned int fails[BLOCKS];	/* reads that fail before it reads */
	bool timeout[BLOCKS];		/* always times out */
	unsigned int change_at;		/* the read (1-based) that meets a change; 0 none */
	struct { uint64_t lba; uint32_t n; } reads[1024];
	unsigned int n_reads;
	/* the sink's record */
	bool put[BLOCKS];
	struct { uint64_t lba, n; bool read; } steps[64];
	unsigned int n_steps;
	unsigned int answer_at;		/* settled answers 1 at this step (1-based) */
};

static int hook(void *ctx, uint64_t lba, uint32_t n, uint8_t *buf,
		struct cdt_read_result *rr)
{
	struct script *s = ctx;
	uint32_t i;

	assert_true(s->n_reads < TH_N(s->reads));
	s->reads[s->n_reads].lba = lba;
	s->reads[s->n_reads++].n = n;
	rr->cls = CDT_READ_OK;
	rr->resid = 0;
	if (s->change_at && s->n_reads == s->change_at) {
		rr->cls = CDT_READ_CHANGED;
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (s->timeout[lba + i]) {
			rr->cls = CDT_READ_TIMEOUT;
			return 0;
		}
		if (s->fails[lba + i]) {
			s->fails[lba + i]--;
			rr->cls = CDT_READ_MEDIUM;
			return 0;
		}
	}
	for (i = 0; i < n; i++)
		memset(buf + (size_t)i * BS, (int)(lba + i), BS);
	return 0;
}

static int put(void *ctx, uint64_t lba, uint32_t n, const uint8_t *buf)
{
	struct script *s = ctx;
	uint32_t i;

	for (i = 0; i < n; i++) {
		assert_int_equal(buf[(size_t)i * BS], (uint8_t)(lba + i));
		s->put[lba + i] = true;
	}
	return 0;
}

static int settled(void *ctx, uint64_t lba, uint64_t n, bool read)
{
	struct script *s = ctx;

	assert_true(s->n_steps < TH_N(s->steps));
	s->steps[s->n_steps].lba = lba;
	s->steps[s->n_steps].n = n;
	s->steps[s->n_steps++].read = read;
	return s->answer_at && s->n_steps == s->answer_at;
}

struct rig {
	char dir[64], img[96];
	struct cdt_dev *dev;
	struct cdt_map map;
	struct rescue r;
	struct skip_plan skip;
	uint8_t buf[CHUNK * BS];
	struct script s;
};

static int setup(void **state)
{
	struct rig *g = calloc(1, sizeof(*g));
	uint8_t *data;

	if (!g || th_tmpdir(g->dir, sizeof(g->dir), "inorder"))
		return -1;
	th_path(g->img, sizeof(g->img), g->dir, "disc.img");
	data = calloc(BLOCKS, BS);
	if (!data)
		return -1;
	th_write_file(g->img, data, (size_t)BLOCKS * BS);
	free(data);
	*state = g;
	return 0;
}

static int teardown(void **state)
{
	struct rig *g = *state;
	int rc = th_rmrf(g->dir);

	free(g);
	return rc;
}

/* The pass over [0, BLOCKS) with retries; the device only for messages. */
static int walk(struct rig *g, int retries, uint64_t *reached)
{
	int rc;

	g->dev = th_open_sim(g->img, "");
	assert_int_equal(map_init(&g->map, (uint64_t)BLOCKS * BS, MAP_NONTRIED), 0);
	assert_int_equal(skip_mark(&g->skip, &g->map, BS), 0);
	g->r = (struct rescue){
		.dev = g->dev, .map = &g->map, .bs = BS, .chunk = CHUNK,
		.buf = g->buf, .retries = retries, .t0 = rescue_now_ms(),
		.read = hook, .read_ctx = &g->s,
		.sink = { .put = put, .settled = settled, .ctx = &g->s },
	};
	rc = rescue_in_order(&g->r, &g->skip, 0, BLOCKS, reached);
	return rc;
}

static void done(struct rig *g)
{
	rescue_fini(&g->r);
	map_free(&g->map);
	skip_free(&g->skip);
	memset(&g->skip, 0, sizeof(g->skip));
	cdt_close(g->dev);
	memset(&g->s, 0, sizeof(g->s));
}

/* A test's start: no script, no skip plan (a failed test left its own). */
static struct rig *fresh(void **state)
{
	struct rig *g = *state;

	memset(&g->s, 0, sizeof(g->s));
	memset(&g->skip, 0, sizeof(g->skip));
	return g;
}

static void expect_read(const struct script *s, unsigned int i, uint64_t lba, uint32_t n)
{
	assert_true(i < s->n_reads);
	assert_int_equal(s->reads[i].lba, lba);
	assert_int_equal(s->reads[i].n, n);
}

static void expect_step(const struct script *s, unsigned int i, uint64_t lba,
			uint64_t n, bool read)
{
	assert_true(i < s->n_steps);
	assert_int_equal(s->steps[i].lba, lba);
	assert_int_equal(s->steps[i].n, n);
	assert_int_equal(s->steps[i].read, read);
}

/* a chunk a read, stopping at a skipped area, which is passed over unread */
static void test_order_around_a_skipped_area(void **state)
{
	struct rig *g = fresh(state);
	uint64_t reached = 0, b;

	assert_int_equal(skip_add(&g->skip, 40, CDT_SKIP_FORM2), 0);
	for (b = 41; b < 50; b++)
		assert_int_equal(skip_add(&g->skip, b, CDT_SKIP_FORM2), 0);
	assert_int_equal(walk(g, 0, &reached), 0);
	assert_int_equal(reached, BLOCKS);
	assert_int_equal(g->s.n_reads, 4);
	expect_read(&g->s, 0, 0, 32);
	expect_read(&g->s, 1, 32, 8);
	expect_read(&g->s, 2, 50, 32);
	expect_read(&g->s, 3, 82, 18);
	assert_int_equal(g->s.n_steps, 5);
	expect_step(&g->s, 0, 0, 32, true);
	expect_step(&g->s, 1, 32, 8, true);
	expect_step(&g->s, 2, 40, 10, false);
	expect_step(&g->s, 3, 50, 32, true);
	expect_step(&g->s, 4, 82, 18, true);
	for (b = 0; b < BLOCKS; b++)
		assert_int_equal(g->s.put[b], b < 40 || b >= 50);
	assert_int_equal(g->r.blocks_read, BLOCKS - 10);
	done(g);
}

/*
 * A failed chunk: each block alone, a bad one 1 + retries times, a flaky
 * one until it reads; the map says which never read.
 */
static void test_failed_chunk_block_by_block(void **state)
{
	struct rig *g = fresh(state);
	uint64_t reached = 0, b;
	unsigned int i;

	g->s.fails[5] = 1000;	/* never reads */
	g->s.fails[7] = 2;	/* reads at its third try alone */
	assert_int_equal(walk(g, 2, &reached), 0);
	assert_int_equal(reached, BLOCKS);
	/* the chunk, blocks 0-4, 5 three times, 6, 7 three times, 8-31, the rest */
	expect_read(&g->s, 0, 0, 32);
	for (i = 0; i < 5; i++)
		expect_read(&g->s, 1 + i, i, 1);
	for (i = 0; i < 3; i++)
		expect_read(&g->s, 6 + i, 5, 1);
	expect_read(&g->s, 9, 6, 1);
	for (i = 0; i < 3; i++)
		expect_read(&g->s, 10 + i, 7, 1);
	for (i = 8; i < 32; i++)
		expect_read(&g->s, 13 + i - 8, i, 1);
	expect_read(&g->s, 37, 32, 32);
	expect_read(&g->s, 38, 64, 32);
	expect_read(&g->s, 39, 96, 4);
	assert_int_equal(g->s.n_reads, 40);
	expect_step(&g->s, 0, 0, 32, true);
	for (b = 0; b < BLOCKS; b++) {
		assert_int_equal(g->s.put[b], b != 5);
		assert_int_equal(map_status_at(&g->map, b * BS), b == 5 ? MAP_BAD : MAP_FINISHED);
	}
	done(g);
}

/* the sink has its answer: the walk ends after that step */
static void test_sink_answer_ends_the_walk(void **state)
{
	struct rig *g = fresh(state);
	uint64_t reached = 0;

	g->s.answer_at = 2;
	assert_int_equal(walk(g, 0, &reached), 0);
	assert_int_equal(reached, 64);
	assert_int_equal(g->s.n_reads, 2);
	assert_int_equal(g->s.n_steps, 2);
	done(g);
}

/*
 * A medium change with no sink to judge it (verify, tail: no identity):
 * CDT_ECHANGED, said so, and nothing of that read reaches the sink.
 */
static void test_medium_change_stops(void **state)
{
	struct rig *g = fresh(state);
	uint64_t reached = 0;

	g->s.change_at = 2;
	assert_int_equal(walk(g, 0, &reached), CDT_ECHANGED);
	assert_non_null(strstr(cdt_errmsg(g->dev), "the medium changed"));
	assert_int_equal(reached, 32);
	assert_int_equal(g->s.n_reads, 2);
	assert_int_equal(g->s.n_steps, 1);
	assert_false(g->s.put[32]);
	done(g);
}

/*
 * Timeouts: a block's own retries count once, CDT_TIMEOUTS_IN_ROW
 * different blocks in a row end the walk there (no map to resume from).
 */
static void test_timeouts_in_a_row(void **state)
{
	struct rig *g = fresh(state);
	uint64_t reached = 0, b;
	char want[64];

	for (b = 10; b < 10 + CDT_TIMEOUTS_IN_ROW; b++)
		g->s.timeout[b] = true;
	assert_int_equal(walk(g, 3, &reached), CDT_ETIMEOUT);
	snprintf(want, sizeof(want), "(the last at LBA %d)", 10 + CDT_TIMEOUTS_IN_ROW - 1);
	assert_non_null(strstr(cdt_errmsg(g->dev), want));
	assert_non_null(strstr(cdt_errmsg(g->dev), "reads of different blocks in a row"));
	assert_int_equal(g->s.n_steps, 0);
	done(g);

	/* one block fewer: bad blocks, the walk goes on to the end */
	for (b = 10; b < 10 + CDT_TIMEOUTS_IN_ROW - 1; b++)
		g->s.timeout[b] = true;
	assert_int_equal(walk(g, 3, &reached), 0);
	assert_int_equal(reached, BLOCKS);
	assert_int_equal(map_status_at(&g->map, 10 * BS), MAP_BAD);
	done(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_around_a_skipped_area),
		cmocka_unit_test(test_failed_chunk_block_by_block),
		cmocka_unit_test(test_sink_answer_ends_the_walk),
		cmocka_unit_test(test_medium_change_stops),
		cmocka_unit_test(test_timeouts_in_a_row),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
