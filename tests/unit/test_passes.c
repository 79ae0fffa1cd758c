// SPDX-License-Identifier: MIT
/*
 * The rescue engine's passes (engine/passes.c, engine/retry.c) driven by a
 * scripted read hook and an in-memory sink, no drive at all (issue 31):
 * each test gives every block an answer (good, bad, wrong mode, timeout,
 * fatal, good only from its Nth try; the Nth read meets a medium change)
 * and asserts the contract written above each pass: the order of reads
 * (pass 1 upwards skipping ahead with doubling skips, pass 2 downwards,
 * pass 3 every block), the chunk grid, the trimmed edges of failed chunks,
 * scraping, --retries N and the learning plan, and what the sink sees: a
 * block is marked finished only after put() took it, save() only ever
 * finds finished blocks that put() took (engine.h's crash-safe contract),
 * and a medium change ends the run when the sink says the disc is another.
 * The device is there only for the engine's messages.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "book/mapfile.h"
#include "engine/engine.h"
#include "engine/passes.h"
#include "th.h"

#define BLOCKS 1024
#define BS 2048
/* 4 blocks a read; next_skip's cap is then BLOCKS / 64 = 16 blocks, so the
 * skips 4, 8, 16, 16 show both the doubling and the cap */
#define CHUNK 4
#define MAX_READS 4096
#define MAX_EVENTS 8192

enum answer {
	A_GOOD = 0,
	A_BAD,			/* 03/11/00 */
	A_WRONG_MODE,		/* 05/64/00: no 2048-byte user data */
	A_TIMEOUT,
	A_FATAL,		/* 05/20/00: the drive refuses the command */
};

struct read_rec {
	uint64_t lba;
	uint32_t n;
	enum cdt_phase phase;
	unsigned int pass;
};

/* The disc as the read hook answers it, and every read it was asked. */
struct script {
	enum answer answer[BLOCKS];
	unsigned int fails_first[BLOCKS];	/* a good block fails its first k tries */
	unsigned int tries[BLOCKS];		/* reads that reached the block */
	size_t change_at;			/* this read (from 1) meets 06/28/00 */
	size_t stop_after;			/* *stop set after this many reads */
	volatile sig_atomic_t stop;
	bool save_due;				/* make a save due at every read */
	struct rescue *r;
	struct read_rec reads[MAX_READS];
	size_t n_reads;
};

enum event_kind { EV_PUT, EV_FAILED, EV_WRONG_MODE, EV_SAVE, EV_CHANGED };

struct event {
	enum event_kind kind;
	uint64_t lba;
	uint32_t n;
};

/* The in-memory sink: what it was handed, and what it answers. */
struct sink {
	struct cdt_map *map;
	bool taken[BLOCKS];	/* put() took it, or wrong_mode() listed it */
	uint64_t put_fails_at;	/* put() of a span holding it fails; ~0: none */
	int wrong_mode_rc;
	int changed_rc;
	struct event ev[MAX_EVENTS];
	size_t n_ev;
};

struct bench {
	struct script s;
	struct sink k;
	struct cdt_map map;
	struct rescue r;
	struct cdt_read_opts rd;
	uint8_t buf[CHUNK * BS];
};

static struct th_disc *disc;
static struct cdt_dev *dev;
/*
 * What the library's own read answers for a Mode 2 Form 2 sector (05/64/00
 * from the emulated drive's fault=form2): the script's wrong-mode answer,
 * so that it is the read class the engine is given, whatever that is.
 */
static struct cdt_read_result form2_answer;

static uint8_t pattern(uint64_t lba, size_t i)
{
	return (uint8_t)(lba * 131 + i * 7 + 1);
}

/* What a read of one failing block answers, as cdt_read_blocks would. */
static void answer_failure(enum answer a, uint64_t b, uint32_t left,
			   struct cdt_read_result *rr)
{
	static const struct {
		enum cdt_read_class cls;
		uint8_t key, asc;
	} as[] = {
		[A_BAD] = { CDT_READ_MEDIUM, 0x03, 0x11 },
		[A_TIMEOUT] = { CDT_READ_TIMEOUT, 0, 0 },
		[A_FATAL] = { CDT_READ_FATAL, 0x05, 0x20 },
	};

	if (a == A_WRONG_MODE) {
		*rr = form2_answer;
		rr->info = b;
		rr->resid = left * BS;
		return;
	}
	rr->cls = as[a].cls;
	rr->sense_key = as[a].key;
	rr->asc = as[a].asc;
	rr->ascq = 0;
	rr->info_valid = a != A_TIMEOUT;
	rr->info = b;
	rr->resid = left * BS;
}

/*
 * The read hook: a drive reads a span's blocks in order and stops at the
 * first that fails (its try counted, the later ones not reached).
 */
static int scripted_read(void *ctx, uint64_t lba, uint32_t n, uint8_t *buf,
			 struct cdt_read_result *rr)
{
	struct script *s = ctx;
	uint32_t i;
	size_t j;

	assert_true(s->n_reads < MAX_READS);
	assert_true(n >= 1 && n <= CHUNK && lba + n <= BLOCKS);
	s->reads[s->n_reads++] = (struct read_rec){ lba, n, s->r->phase, s->r->pass };
	if (s->save_due)
		s->r->last_save_ms = 0;
	if (s->stop_after && s->n_reads == s->stop_after)
		s->stop = 1;
	memset(rr, 0, sizeof(*rr));
	rr->size = sizeof(*rr);
	if (s->n_reads == s->change_at) {
		rr->cls = CDT_READ_CHANGED;
		rr->sense_key = 0x06;
		rr->asc = 0x28;
		rr->resid = n * BS;
		return 0;
	}
	for (i = 0; i < n; i++) {
		uint64_t b = lba + i;

		s->tries[b]++;
		if (s->answer[b] != A_GOOD) {
			answer_failure(s->answer[b], b, n - i, rr);
			return 0;
		}
		if (s->tries[b] <= s->fails_first[b]) {
			answer_failure(A_BAD, b, n - i, rr);
			return 0;
		}
		for (j = 0; j < BS; j++)
			buf[(size_t)i * BS + j] = pattern(b, j);
	}
	rr->cls = CDT_READ_OK;
	return 0;
}

static void note(struct sink *k, enum event_kind kind, uint64_t lba, uint32_t n)
{
	assert_true(k->n_ev < MAX_EVENTS);
	k->ev[k->n_ev++] = (struct event){ kind, lba, n };
}

static int sink_put(void *ctx, uint64_t lba, uint32_t n, const uint8_t *buf)
{
	struct sink *k = ctx;
	uint32_t i;
	size_t j;

	note(k, EV_PUT, lba, n);
	if (k->put_fails_at >= lba && k->put_fails_at < lba + n)
		return CDT_EIO;
	for (i = 0; i < n; i++) {
		/* marked finished only after put() took it */
		assert_int_not_equal(map_status_at(k->map, (lba + i) * BS), MAP_FINISHED);
		for (j = 0; j < BS; j++)
			assert_int_equal(buf[(size_t)i * BS + j], pattern(lba + i, j));
		k->taken[lba + i] = true;
	}
	return 0;
}

static void sink_failed(void *ctx, uint64_t lba, uint32_t n)
{
	note(ctx, EV_FAILED, lba, n);
}

static int sink_wrong_mode(void *ctx, uint64_t lba, enum cdt_skip_why why)
{
	struct sink *k = ctx;

	/* the fake drive here answers 05/64/00, never 05/6F/xx */
	assert_int_equal(why, CDT_SKIP_FORM2);
	note(k, EV_WRONG_MODE, lba, 1);
	if (!k->wrong_mode_rc)
		k->taken[lba] = true;
	return k->wrong_mode_rc;
}

/* Every block the map calls finished was handed to the sink before. */
static void expect_finished_taken(const struct sink *k, const struct cdt_map *m)
{
	uint64_t b;

	for (b = 0; b < BLOCKS; b++)
		if (map_status_at(m, b * BS) == MAP_FINISHED && !k->taken[b])
			fail_msg("block %llu finished but never taken by the sink",
				 (unsigned long long)b);
}

static int sink_save(void *ctx, const struct cdt_map *map)
{
	struct sink *k = ctx;

	assert_ptr_equal(map, k->map);
	expect_finished_taken(k, map);
	note(k, EV_SAVE, 0, 0);
	return 0;
}

static int sink_changed(void *ctx, uint8_t *buf, size_t cap)
{
	struct sink *k = ctx;

	assert_non_null(buf);
	assert_int_equal(cap, CHUNK * BS);
	note(k, EV_CHANGED, 0, 0);
	return k->changed_rc;
}

static struct bench *bench_new(int retries)
{
	struct bench *b = calloc(1, sizeof(*b));

	assert_non_null(b);
	assert_int_equal(map_init(&b->map, (uint64_t)BLOCKS * BS, MAP_NONTRIED), 0);
	b->k.map = &b->map;
	b->k.put_fails_at = ~0ull;
	b->s.r = &b->r;
	b->rd = (struct cdt_read_opts){ .size = sizeof(b->rd), .stop = &b->s.stop };
	b->r = (struct rescue){
		.dev = dev,
		.map = &b->map,
		.sink = { sink_put, sink_failed, sink_wrong_mode, sink_save,
			  sink_changed, &b->k },
		.bs = BS,
		.chunk = CHUNK,
		.buf = b->buf,
		.rd = &b->rd,
		.retries = retries,
		.t0 = rescue_now_ms(),
		.read = scripted_read,
		.read_ctx = &b->s,
	};
	return b;
}

static void bench_free(struct bench *b)
{
	rescue_fini(&b->r);
	map_free(&b->map);
	free(b);
}

static void set_answer(struct bench *b, uint64_t first, uint64_t last, enum answer a)
{
	for (; first <= last; first++)
		b->s.answer[first] = a;
}

/* Copying reads keep to the grid; a run's invariants after it ended. */
static void expect_contracts(const struct bench *b)
{
	size_t i;

	for (i = 0; i < b->s.n_reads; i++) {
		const struct read_rec *rd = &b->s.reads[i];

		if (rd->phase == CDT_PHASE_COPY && rd->lba % CHUNK + rd->n > CHUNK)
			fail_msg("copying read %llu+%u crosses the chunk grid",
				 (unsigned long long)rd->lba, rd->n);
		if (rd->phase != CDT_PHASE_COPY && rd->n != 1)
			fail_msg("a read after the copying passes of %u blocks", rd->n);
	}
	expect_finished_taken(&b->k, &b->map);
}

struct span {
	uint64_t lba;
	uint32_t n;
};

/* The reads of one phase and pass are exactly want, in order. */
static void expect_reads(const struct bench *b, enum cdt_phase phase,
			 unsigned int pass, const struct span *want, size_t n_want)
{
	size_t i, k = 0;

	for (i = 0; i < b->s.n_reads; i++) {
		const struct read_rec *rd = &b->s.reads[i];

		if (rd->phase != phase || rd->pass != pass)
			continue;
		if (k >= n_want)
			fail_msg("%s pass %u: read %zu (%llu+%u) beyond the %zu expected",
				 cdt_phase_name(phase), pass, k,
				 (unsigned long long)rd->lba, rd->n, n_want);
		if (rd->lba != want[k].lba || rd->n != want[k].n)
			fail_msg("%s pass %u: read %zu is %llu+%u, want %llu+%u",
				 cdt_phase_name(phase), pass, k,
				 (unsigned long long)rd->lba, rd->n,
				 (unsigned long long)want[k].lba, want[k].n);
		k++;
	}
	if (k != n_want)
		fail_msg("%s pass %u: %zu reads, want %zu", cdt_phase_name(phase),
			 pass, k, n_want);
}

#define EXPECT_READS(b, phase, pass, ...)					\
	expect_reads((b), (phase), (pass), (const struct span[]){ __VA_ARGS__ },\
		     sizeof((const struct span[]){ __VA_ARGS__ }) /		\
		     sizeof(struct span))
#define EXPECT_NO_READS(b, phase, pass) expect_reads((b), (phase), (pass), NULL, 0)

/* Blocks [first, last] all have the status. */
static void expect_status(const struct bench *b, uint64_t first, uint64_t last,
			  char status)
{
	for (; first <= last; first++)
		if (map_status_at(&b->map, first * BS) != status)
			fail_msg("block %llu is '%c', want '%c'",
				 (unsigned long long)first,
				 map_status_at(&b->map, first * BS), status);
}

/* How many events of the kind the sink saw for spans starting at lba. */
static size_t events(const struct bench *b, enum event_kind kind, uint64_t lba)
{
	size_t i, k = 0;

	for (i = 0; i < b->k.n_ev; i++)
		k += b->k.ev[i].kind == kind && b->k.ev[i].lba == lba;
	return k;
}

/* The reads of pass 1 over a good stretch [a, b): every grid cell, upwards. */
static void expect_good_run(const struct bench *b, size_t *i, uint64_t a, uint64_t e)
{
	for (; a < e; a += CHUNK, (*i)++) {
		assert_true(*i < b->s.n_reads);
		assert_int_equal(b->s.reads[*i].lba, a);
		assert_int_equal(b->s.reads[*i].n, CHUNK);
		assert_int_equal(b->s.reads[*i].phase, CDT_PHASE_COPY);
		assert_int_equal(b->s.reads[*i].pass, 1);
	}
}

/* A good disc: pass 1 alone, every chunk once, upwards; then nothing. */
static void test_good_disc_one_pass(void **state)
{
	struct bench *b = bench_new(0);
	size_t i = 0;

	(void)state;
	assert_int_equal(rescue_run(&b->r), 0);
	expect_good_run(b, &i, 0, BLOCKS);
	assert_int_equal(b->s.n_reads, BLOCKS / CHUNK);
	expect_status(b, 0, BLOCKS - 1, MAP_FINISHED);
	assert_int_equal(b->r.blocks_read, BLOCKS);
	assert_int_equal(b->r.failed_reads, 0);
	/* rescue_rest leaves the position at the end, finished */
	assert_int_equal(b->map.cur_status, MAP_FINISHED);
	assert_int_equal(b->map.cur_pos, (uint64_t)BLOCKS * BS);
	expect_contracts(b);
	bench_free(b);
}

/*
 * rescue_copy from a block off the grid: the first read ends on the grid
 * line; pass 2 then reads what lies below `from`, from the grid line
 * below its top; nothing at or past `to` is read.
 */
static void test_copy_keeps_to_the_grid(void **state)
{
	struct bench *b = bench_new(0);

	(void)state;
	assert_int_equal(rescue_copy(&b->r, 6, 17), 0);
	EXPECT_READS(b, CDT_PHASE_COPY, 1, { 6, 2 }, { 8, 4 }, { 12, 4 }, { 16, 1 });
	EXPECT_READS(b, CDT_PHASE_COPY, 2, { 4, 2 }, { 0, 4 });
	EXPECT_NO_READS(b, CDT_PHASE_COPY, 3);
	expect_status(b, 0, 16, MAP_FINISHED);
	expect_status(b, 17, BLOCKS - 1, MAP_NONTRIED);
	expect_contracts(b);
	bench_free(b);
}

/*
 * A scratch [100, 160) with --retries 0: pass 1 skips 4, 8, 16, then 16
 * (the cap, a 64th of the disc), pass 2 comes down from the top skipping
 * the same way, pass 3 reads every chunk still untried; trimming reads
 * the one area's first and last block, scraping every block between.
 */
static void test_scratch_every_pass(void **state)
{
	struct bench *b = bench_new(0);
	struct span scrape[58];
	size_t i = 0, k;

	(void)state;
	set_answer(b, 100, 159, A_BAD);
	assert_int_equal(rescue_run(&b->r), 0);
	expect_good_run(b, &i, 0, 100);
	for (k = 0; k < 4; k++, i++) {
		static const uint64_t fail_at[] = { 100, 108, 120, 140 };

		assert_int_equal(b->s.reads[i].lba, fail_at[k]);
		assert_int_equal(b->s.reads[i].n, CHUNK);
	}
	expect_good_run(b, &i, 160, BLOCKS);
	EXPECT_READS(b, CDT_PHASE_COPY, 2, { 156, 4 }, { 148, 4 }, { 136, 4 }, { 116, 4 });
	EXPECT_READS(b, CDT_PHASE_COPY, 3, { 104, 4 }, { 112, 4 }, { 124, 4 },
		     { 128, 4 }, { 132, 4 }, { 144, 4 }, { 152, 4 });
	EXPECT_READS(b, CDT_PHASE_TRIM, 1, { 100, 1 }, { 159, 1 });
	for (k = 0; k < TH_N(scrape); k++)
		scrape[k] = (struct span){ 101 + k, 1 };
	expect_reads(b, CDT_PHASE_SCRAPE, 1, scrape, TH_N(scrape));
	EXPECT_NO_READS(b, CDT_PHASE_RETRY, 1);
	expect_status(b, 0, 99, MAP_FINISHED);
	expect_status(b, 100, 159, MAP_BAD);
	expect_status(b, 160, BLOCKS - 1, MAP_FINISHED);
	/* each failed read was the sink's, once, and counted as a try */
	assert_int_equal(events(b, EV_FAILED, 100), 2);
	assert_int_equal(b->r.failed_reads, 4 + 4 + 7 + 2 + 58);
	assert_int_equal(b->r.blocks_read, BLOCKS - 60);
	expect_contracts(b);
	bench_free(b);
}

/*
 * Damage [102, 106) inside two chunks: trimming reads each failed chunk
 * from its edges inwards, block by block, up to the first failure from
 * either side; the blocks between are scraped; --retries 2 then makes two
 * passes over every bad block, ascending.
 */
static void test_trim_edges_scrape_and_retries(void **state)
{
	struct bench *b = bench_new(2);

	(void)state;
	set_answer(b, 102, 105, A_BAD);
	assert_int_equal(rescue_run(&b->r), 0);
	EXPECT_READS(b, CDT_PHASE_COPY, 2, { 104, 4 });
	EXPECT_NO_READS(b, CDT_PHASE_COPY, 3);
	EXPECT_READS(b, CDT_PHASE_TRIM, 1, { 100, 1 }, { 101, 1 }, { 102, 1 },
		     { 107, 1 }, { 106, 1 }, { 105, 1 });
	EXPECT_READS(b, CDT_PHASE_SCRAPE, 1, { 103, 1 }, { 104, 1 });
	EXPECT_READS(b, CDT_PHASE_RETRY, 1, { 102, 1 }, { 103, 1 }, { 104, 1 }, { 105, 1 });
	EXPECT_READS(b, CDT_PHASE_RETRY, 2, { 102, 1 }, { 103, 1 }, { 104, 1 }, { 105, 1 });
	EXPECT_NO_READS(b, CDT_PHASE_RETRY, 3);
	expect_status(b, 0, 101, MAP_FINISHED);
	expect_status(b, 102, 105, MAP_BAD);
	expect_status(b, 106, BLOCKS - 1, MAP_FINISHED);
	expect_contracts(b);
	bench_free(b);
}

/*
 * Pass 2 comes down from the top of what pass 1 skipped, so the good
 * blocks past a scratch are read before its edge: two failed chunks in a
 * row (skips of 4 and 8) leave [996, 1000) and [1004, 1012) untried, and
 * pass 2 reads them downwards; pass 3 has nothing left.
 */
static void test_pass2_reads_down_from_the_top(void **state)
{
	struct bench *b = bench_new(0);

	(void)state;
	set_answer(b, 992, 995, A_BAD);
	set_answer(b, 1000, 1003, A_BAD);
	assert_int_equal(rescue_run(&b->r), 0);
	EXPECT_READS(b, CDT_PHASE_COPY, 2, { 1008, 4 }, { 1004, 4 }, { 996, 4 });
	EXPECT_NO_READS(b, CDT_PHASE_COPY, 3);
	EXPECT_READS(b, CDT_PHASE_TRIM, 1, { 992, 1 }, { 995, 1 }, { 1000, 1 },
		     { 1003, 1 });
	EXPECT_READS(b, CDT_PHASE_SCRAPE, 1, { 993, 1 }, { 994, 1 }, { 1001, 1 },
		     { 1002, 1 });
	expect_status(b, 992, 995, MAP_BAD);
	expect_status(b, 996, 999, MAP_FINISHED);
	expect_status(b, 1000, 1003, MAP_BAD);
	expect_status(b, 1004, BLOCKS - 1, MAP_FINISHED);
	expect_contracts(b);
	bench_free(b);
}

/*
 * --retries N stops early when no bad block is left: blocks that read
 * only on their third try come back over two retry passes, and a third
 * pass is never entered.
 */
static void test_retries_end_when_none_is_left(void **state)
{
	struct bench *b = bench_new(5);
	uint64_t lba;

	(void)state;
	for (lba = 102; lba <= 105; lba++)
		b->s.fails_first[lba] = 2;
	assert_int_equal(rescue_run(&b->r), 0);
	/* tries before the retries: 102 and 104 two, 103 and 105 one */
	EXPECT_READS(b, CDT_PHASE_RETRY, 1, { 102, 1 }, { 103, 1 }, { 104, 1 }, { 105, 1 });
	EXPECT_READS(b, CDT_PHASE_RETRY, 2, { 103, 1 }, { 105, 1 });
	EXPECT_NO_READS(b, CDT_PHASE_RETRY, 3);
	expect_status(b, 0, BLOCKS - 1, MAP_FINISHED);
	expect_contracts(b);
	bench_free(b);
}

/*
 * The learning plan (retries < 0, retry.c): each class of bad area is
 * sampled on its first area's first block until that block has had as
 * many tries as -r2 gives; permanent damage of 4 blocks costs two reads
 * and no more; a 1-block area that reads on its third try makes its
 * class's other area sampled too (once: it had two tries already).
 */
static void test_learning_plan_samples_before_it_spends(void **state)
{
	struct bench *b = bench_new(-1);

	(void)state;
	set_answer(b, 102, 105, A_BAD);
	b->s.fails_first[500] = 2;
	set_answer(b, 700, 700, A_BAD);
	assert_int_equal(rescue_run(&b->r), 0);
	EXPECT_READS(b, CDT_PHASE_TRIM, 1, { 100, 1 }, { 101, 1 }, { 102, 1 },
		     { 107, 1 }, { 106, 1 }, { 105, 1 },
		     { 500, 1 }, { 503, 1 }, { 502, 1 }, { 501, 1 },
		     { 700, 1 }, { 703, 1 }, { 702, 1 }, { 701, 1 });
	EXPECT_READS(b, CDT_PHASE_RETRY, 1, { 102, 1 }, { 102, 1 }, { 500, 1 }, { 700, 1 });
	expect_status(b, 102, 105, MAP_BAD);
	expect_status(b, 500, 500, MAP_FINISHED);
	expect_status(b, 700, 700, MAP_BAD);
	expect_contracts(b);
	bench_free(b);
}

/*
 * A resume in another drive (once_more): rescue_rest over a loaded map
 * reads each bad block once, but not one this run's probe already failed
 * on (rescue_note_failure).
 */
static void test_once_more_skips_what_this_run_tried(void **state)
{
	struct bench *b = bench_new(-1);

	(void)state;
	b->r.once_more = true;
	assert_int_equal(map_set(&b->map, 0, (uint64_t)BLOCKS * BS, MAP_FINISHED), 0);
	assert_int_equal(map_set(&b->map, 10ull * BS, 3ull * BS, MAP_BAD), 0);
	memset(b->k.taken, 1, sizeof(b->k.taken));
	set_answer(b, 10, 12, A_BAD);
	assert_int_equal(rescue_note_failure(&b->r, 11), 0);
	assert_int_equal(rescue_rest(&b->r), 0);
	EXPECT_READS(b, CDT_PHASE_RETRY, 1, { 10, 1 }, { 12, 1 });
	assert_int_equal(b->s.n_reads, 2);
	expect_status(b, 10, 12, MAP_BAD);
	bench_free(b);
}

/*
 * A block of no 2048-byte user data (05/64/00 to a one-block read): the
 * sink lists it and the map marks it finished, never put; a chunk read
 * holding it is an ordinary failure.  When the sink declines, it stays a
 * bad block.
 */
static void test_wrong_mode_block(void **state)
{
	struct bench *b = bench_new(0);

	(void)state;
	set_answer(b, 300, 300, A_WRONG_MODE);
	assert_int_equal(rescue_run(&b->r), 0);
	EXPECT_READS(b, CDT_PHASE_TRIM, 1, { 300, 1 }, { 303, 1 }, { 302, 1 }, { 301, 1 });
	assert_int_equal(events(b, EV_WRONG_MODE, 300), 1);
	assert_int_equal(events(b, EV_FAILED, 300), 2);
	assert_int_equal(events(b, EV_PUT, 300), 0);
	expect_status(b, 0, BLOCKS - 1, MAP_FINISHED);
	expect_contracts(b);
	bench_free(b);

	b = bench_new(1);
	b->k.wrong_mode_rc = -1;
	set_answer(b, 300, 300, A_WRONG_MODE);
	assert_int_equal(rescue_run(&b->r), 0);
	EXPECT_READS(b, CDT_PHASE_RETRY, 1, { 300, 1 });
	expect_status(b, 300, 300, MAP_BAD);
	expect_contracts(b);
	bench_free(b);
}

/*
 * The crash-safe contract (engine.h): with a save due at every read,
 * every save finds each finished block already taken by put() (sink_save
 * asserts it), and put() never finds its blocks finished already.
 */
static void test_save_only_after_puts(void **state)
{
	struct bench *b = bench_new(1);
	size_t i, saves = 0, puts = 0;

	(void)state;
	b->r.map_interval_ms = 1;
	b->s.save_due = true;
	set_answer(b, 100, 130, A_BAD);
	set_answer(b, 300, 300, A_WRONG_MODE);
	b->s.fails_first[600] = 2;
	assert_int_equal(rescue_run(&b->r), 0);
	for (i = 0; i < b->k.n_ev; i++) {
		saves += b->k.ev[i].kind == EV_SAVE;
		puts += b->k.ev[i].kind == EV_PUT;
		/* a save follows each read's put, before the next read's */
		if (b->k.ev[i].kind == EV_PUT)
			assert_true(i + 1 < b->k.n_ev && b->k.ev[i + 1].kind == EV_SAVE);
	}
	assert_int_equal(saves, b->s.n_reads);
	assert_true(puts > 0);
	expect_status(b, 600, 600, MAP_FINISHED);
	expect_contracts(b);
	bench_free(b);
}

/*
 * 06/28/00 on the third read: the same disc (the sink answers 0) reads
 * the span again and nothing of the first answer is put; another disc
 * (CDT_ECHANGED) ends the run with the map holding only the reads before;
 * no changed() callback means another disc.
 */
static void test_medium_change(void **state)
{
	struct bench *b = bench_new(0);

	(void)state;
	b->s.change_at = 3;
	assert_int_equal(rescue_run(&b->r), 0);
	assert_int_equal(b->s.reads[2].lba, 8);
	assert_int_equal(b->s.reads[3].lba, 8);
	assert_int_equal(events(b, EV_CHANGED, 0), 1);
	assert_int_equal(events(b, EV_PUT, 8), 1);
	expect_status(b, 0, BLOCKS - 1, MAP_FINISHED);
	expect_contracts(b);
	bench_free(b);

	b = bench_new(0);
	b->s.change_at = 3;
	b->k.changed_rc = CDT_ECHANGED;
	assert_int_equal(rescue_run(&b->r), CDT_ECHANGED);
	assert_int_equal(b->s.n_reads, 3);
	assert_int_equal(events(b, EV_PUT, 8), 0);
	assert_int_equal(events(b, EV_FAILED, 8), 0);
	expect_status(b, 0, 7, MAP_FINISHED);
	expect_status(b, 8, BLOCKS - 1, MAP_NONTRIED);
	expect_contracts(b);
	bench_free(b);

	b = bench_new(0);
	b->s.change_at = 1;
	b->r.sink.changed = NULL;
	assert_int_equal(rescue_run(&b->r), CDT_ECHANGED);
	assert_int_equal(b->s.n_reads, 1);
	assert_non_null(strstr(cdt_errmsg(dev), "medium changed"));
	expect_status(b, 0, BLOCKS - 1, MAP_NONTRIED);
	bench_free(b);
}

/*
 * CDT_TIMEOUTS_IN_ROW chunks in a row that time out in pass 1: the run
 * stops with CDT_ETIMEOUT after marking the last one failed, so a resume
 * goes past them.
 */
static void test_drive_stops_answering(void **state)
{
	struct bench *b = bench_new(0);

	(void)state;
	set_answer(b, 200, 299, A_TIMEOUT);
	assert_int_equal(rescue_run(&b->r), CDT_ETIMEOUT);
	/* 200, then skips of 4, 8, 16: the fourth timeout in a row */
	assert_int_equal(b->s.n_reads, 200 / CHUNK + 4);
	assert_int_equal(b->s.reads[b->s.n_reads - 1].lba, 240);
	expect_status(b, 240, 243, MAP_NONTRIMMED);
	expect_status(b, 244, BLOCKS - 1, MAP_NONTRIED);
	assert_non_null(strstr(cdt_errmsg(dev), "stopped answering"));
	expect_contracts(b);
	bench_free(b);
}

/*
 * What ends a run: a refused command (CDT_ETRANSPORT, the LBA in the
 * message), a put() that fails (its blocks not marked), a stop request
 * (CDT_EINTR, the map holding every read before).
 */
static void test_what_ends_a_run(void **state)
{
	struct bench *b = bench_new(0);

	(void)state;
	set_answer(b, 50, 50, A_FATAL);
	assert_int_equal(rescue_run(&b->r), CDT_ETRANSPORT);
	assert_non_null(strstr(cdt_errmsg(dev), "LBA 48"));
	expect_status(b, 0, 47, MAP_FINISHED);
	expect_status(b, 48, BLOCKS - 1, MAP_NONTRIED);
	bench_free(b);

	b = bench_new(0);
	b->k.put_fails_at = 41;
	assert_int_equal(rescue_run(&b->r), CDT_EIO);
	assert_int_equal(b->s.n_reads, 11);
	expect_status(b, 0, 39, MAP_FINISHED);
	expect_status(b, 40, BLOCKS - 1, MAP_NONTRIED);
	expect_contracts(b);
	bench_free(b);

	b = bench_new(0);
	b->s.stop_after = 5;
	assert_int_equal(rescue_run(&b->r), CDT_EINTR);
	assert_int_equal(b->s.n_reads, 5);
	expect_status(b, 0, 19, MAP_FINISHED);
	expect_status(b, 20, BLOCKS - 1, MAP_NONTRIED);
	expect_contracts(b);
	bench_free(b);
}

static int group_setup(void **state)
{
	struct cdt_sizes sz = CDT_INIT(sz);
	uint8_t buf[BS];

	(void)state;
	disc = th_disc_new("passes", 16 * BS, 31);
	if (!disc)
		return -1;
	dev = th_open_sim(disc->img, "fault=form2@5-5");
	form2_answer = (struct cdt_read_result)CDT_INIT(form2_answer);
	if (!dev || cdt_read_sizes(dev, &sz) ||
	    cdt_read_blocks(dev, 5, 1, buf, sizeof(buf), &form2_answer))
		return -1;
	/* the answer of a sector with no 2048-byte user data, no other */
	if (form2_answer.cls == CDT_READ_OK || form2_answer.sense_key != 0x05 ||
	    form2_answer.asc != 0x64)
		return -1;
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	cdt_close(dev);
	return th_disc_free(disc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_disc_one_pass),
		cmocka_unit_test(test_copy_keeps_to_the_grid),
		cmocka_unit_test(test_scratch_every_pass),
		cmocka_unit_test(test_trim_edges_scrape_and_retries),
		cmocka_unit_test(test_pass2_reads_down_from_the_top),
		cmocka_unit_test(test_retries_end_when_none_is_left),
		cmocka_unit_test(test_learning_plan_samples_before_it_spends),
		cmocka_unit_test(test_once_more_skips_what_this_run_tried),
		cmocka_unit_test(test_wrong_mode_block),
		cmocka_unit_test(test_save_only_after_puts),
		cmocka_unit_test(test_medium_change),
		cmocka_unit_test(test_drive_stops_answering),
		cmocka_unit_test(test_what_ends_a_run),
	};

	return cmocka_run_group_tests_name("passes", tests, group_setup, group_teardown);
}
