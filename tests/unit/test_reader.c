// SPDX-License-Identifier: MIT
/*
 * The disc reader (engine/reader.h) over a scripted fake transport: every
 * command split to the device's largest transfer in bytes (cooked 2048 a
 * block; raw 2352, + 294 with C2 pointers: 24 sectors in 64 KiB, not 26),
 * the pieces' outcome summed (the first piece that does not arrive whole
 * ends the read with its class and the count that arrived), each class of
 * the answer table, and the raw reader's per-sector checks: C2 pointers,
 * a data sector's sync, header and EDC/ECC, a written gap in a pregap.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cd/sector.h"
#include "core/device.h"
#include "engine/reader.h"
#include "mmc/bytes.h"
#include "mmc/mmc.h"
#include "mmc/readcd.h"

#define MAX_CMDS 64
#define NO_LBA INT64_MIN

/* One answer of the script, for the command of its index. */
struct answer {
	int rc;			/* CDT_ETIMEOUT, ... */
	uint8_t key, asc, ascq;
	uint32_t resid;		/* of a GOOD answer */
};

struct fake {
	struct cdt_transport base;
	uint32_t max_bytes;	/* the queue's limit: over it, EINVAL */
	struct answer script[MAX_CMDS];
	unsigned int calls;
	/* what each command asked */
	struct { uint8_t op; int64_t lba; uint32_t n, len; } cmd[MAX_CMDS];
	uint32_t largest;	/* the largest data_len sent */
	unsigned int too_long;	/* commands over max_bytes */
	/* raw sectors: these LBAs come wrong (NO_LBA: none) */
	int64_t bad_edc, bad_c2, bad_header, no_sync;
};

/* Block lba's byte i: a pattern that differs from block to block. */
static uint8_t pattern(int64_t lba, size_t i)
{
	return (uint8_t)((uint64_t)lba * 7 + i / 7 + 1);
}

/* The raw sector the fake disc has at lba: Mode 1 with the pattern. */
static void make_sector(const struct fake *f, int64_t lba, uint8_t *s)
{
	uint8_t data[2048];
	size_t i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = pattern(lba, i);
	if (lba == f->no_sync) {
		memset(s, 0, CD_RAW);
		return;
	}
	cd_sector_build_mode1(s, data, lba == f->bad_header ? lba + 1 : lba);
	if (lba == f->bad_edc)
		s[100] ^= 0xff;
}

static void fill_cooked(struct cdt_cmd *cmd, int64_t lba, uint32_t n)
{
	for (uint32_t b = 0; b < n; b++)
		for (size_t i = 0; i < 2048; i++)
			cmd->data[(size_t)b * 2048 + i] = pattern(lba + b, i);
}

static void fill_raw(const struct fake *f, struct cdt_cmd *cmd, int64_t lba,
		     uint32_t n, const struct mmc_read_cd *rq)
{
	unsigned int per = CD_RAW + ((rq->fields & MMC_RCD_C2) ? MMC_C2_LEN : 0);

	for (uint32_t b = 0; b < n; b++) {
		uint8_t *s = cmd->data + (size_t)b * per;

		make_sector(f, lba + b, s);
		if (per > CD_RAW)
			memset(s + CD_RAW, lba + b == f->bad_c2 ? 0x10 : 0, MMC_C2_LEN);
	}
}

static void put_sense(struct cdt_cmd *cmd, const struct answer *a)
{
	memset(cmd->sense, 0, 18);
	cmd->sense[0] = 0x70;
	cmd->sense[2] = a->key;
	cmd->sense[7] = 10;
	cmd->sense[12] = a->asc;
	cmd->sense[13] = a->ascq;
	cmd->sense_len = 18;
	cmd->status = CDT_STATUS_CHECK;
}

static int fake_exec(struct cdt_transport *t, struct cdt_cmd *cmd)
{
	struct fake *f = (struct fake *)t;
	unsigned int i = f->calls++;
	struct mmc_read_cd rq = { 0 };
	const struct answer *a = &f->script[i < MAX_CMDS ? i : MAX_CMDS - 1];
	int64_t lba = 0;
	uint32_t n = 0;

	assert_true(i < MAX_CMDS);
	cmd->ms = 1.5;
	if (cmd->cdb[0] == MMC_READ10) {
		lba = sg_get_unaligned_be32(cmd->cdb + 2);
		n = sg_get_unaligned_be16(cmd->cdb + 7);
	} else {
		assert_int_equal(mmc_parse_read_cd_cdb(cmd->cdb, cmd->cdb_len, &lba, &n, &rq), 0);
	}
	f->cmd[i].op = cmd->cdb[0];
	f->cmd[i].lba = lba;
	f->cmd[i].n = n;
	f->cmd[i].len = cmd->data_len;
	if (cmd->data_len > f->largest)
		f->largest = cmd->data_len;
	if (cmd->data_len > f->max_bytes) {
		f->too_long++;
		cmd->sys_errno = EINVAL;
		return CDT_ETRANSPORT;
	}
	if (a->rc)
		return a->rc;
	if (a->key) {
		put_sense(cmd, a);
		return 0;
	}
	if (cmd->cdb[0] == MMC_READ10)
		fill_cooked(cmd, lba, n);
	else
		fill_raw(f, cmd, lba, n, &rq);
	cmd->resid = a->resid;
	return 0;
}

static uint32_t fake_max(struct cdt_transport *t)
{
	return ((struct fake *)t)->max_bytes;
}

static void fake_close(struct cdt_transport *t)
{
	(void)t;
}

static const struct cdt_transport_ops fake_ops = {
	.name = "fake",
	.exec = fake_exec,
	.close = fake_close,
	.max_transfer = fake_max,
};

static void setup(struct cdt_dev *dev, struct fake *f, uint32_t max_bytes)
{
	memset(f, 0, sizeof(*f));
	f->base.ops = &fake_ops;
	f->base.virtual_time = true;
	f->max_bytes = max_bytes;
	f->bad_edc = f->bad_c2 = f->bad_header = f->no_sync = NO_LBA;
	memset(dev, 0, sizeof(*dev));
	dev->t = &f->base;
	dev->timeout_ms = 1000;
	dev->block_size = 2048;
	dev->peripheral_type = 5;	/* READ CD is an MMC command */
}

static void expect_cooked(const uint8_t *buf, int64_t lba, uint32_t n)
{
	for (uint32_t b = 0; b < n; b++)
		for (size_t i = 0; i < 2048; i += 511)
			assert_int_equal(buf[(size_t)b * 2048 + i], pattern(lba + b, i));
}

static void expect_raw(const struct fake *f, const uint8_t *buf, int64_t lba, uint32_t n)
{
	uint8_t s[CD_RAW];

	for (uint32_t b = 0; b < n; b++) {
		make_sector(f, lba + b, s);
		assert_memory_equal(buf + (size_t)b * CD_RAW, s, CD_RAW);
	}
}

static uint8_t big[64 * CD_RAW];

/* ---- split to the largest transfer -------------------------------------- */

static void test_cooked_split(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct reader r;
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	setup(&dev, &f, 16384);
	reader_init(&r, &dev);
	assert_int_equal(reader_max_sectors(&r), 8);
	assert_int_equal(reader_read(&r, 100, 20, big, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_OK);
	assert_int_equal(rr.resid, 0);
	assert_true(rr.ms == 3 * 1.5);
	assert_int_equal(f.calls, 3);
	assert_int_equal(f.cmd[0].lba, 100);
	assert_int_equal(f.cmd[0].n, 8);
	assert_int_equal(f.cmd[1].lba, 108);
	assert_int_equal(f.cmd[2].lba, 116);
	assert_int_equal(f.cmd[2].n, 4);
	assert_int_equal(f.too_long, 0);
	expect_cooked(big, 100, 20);

	/* a limit that is not a multiple of a block: whole blocks under it */
	setup(&dev, &f, 10000);
	reader_init(&r, &dev);
	assert_int_equal(reader_max_sectors(&r), 4);
	assert_int_equal(reader_read(&r, 0, 9, big, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_OK);
	assert_int_equal(f.calls, 3);
	assert_int_equal(f.largest, 8192);
	expect_cooked(big, 0, 9);
}

static void test_raw_split_c2(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct reader r;
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	setup(&dev, &f, 65536);
	assert_int_equal(reader_init_raw(&r, &dev, true), 0);
	/* 65536 / (2352 + 294) = 24: verify --cue's 26 were 68,796 bytes */
	assert_int_equal(reader_max_sectors(&r), 24);
	assert_int_equal(reader_read_raw(&r, -2, 26, big, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_OK);
	assert_int_equal(rr.resid, 0);
	assert_int_equal(f.calls, 2);
	assert_int_equal(f.cmd[0].op, 0xbe);
	assert_int_equal(f.cmd[0].lba, -2);
	assert_int_equal(f.cmd[0].n, 24);
	assert_int_equal(f.cmd[0].len, 24 * 2646);
	assert_int_equal(f.cmd[1].lba, 22);
	assert_int_equal(f.cmd[1].n, 2);
	assert_int_equal(f.too_long, 0);
	/* 2352 bytes a sector handed back, the pointers left out */
	expect_raw(&f, big, -2, 26);
	reader_fini(&r);
}

static void test_raw_split_no_c2(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct reader r;
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	setup(&dev, &f, 65536);
	assert_int_equal(reader_init_raw(&r, &dev, false), 0);
	assert_int_equal(reader_max_sectors(&r), 27);
	assert_int_equal(reader_read(&r, 5, 30, big, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_OK);
	assert_int_equal(f.calls, 2);
	assert_int_equal(f.cmd[0].n, 27);
	assert_int_equal(f.cmd[0].len, 27 * CD_RAW);
	assert_int_equal(f.cmd[1].n, 3);
	expect_raw(&f, big, 5, 30);
	reader_fini(&r);

	/* a limit under one sector with C2: still one sector a command */
	setup(&dev, &f, 2400);
	assert_int_equal(reader_init_raw(&r, &dev, true), 0);
	assert_int_equal(reader_max_sectors(&r), 1);
	reader_fini(&r);
}

/* ---- outcomes --------------------------------------------------------------- */

/* GOOD with a residual in the second piece: SHORT, and how many arrived. */
static void test_short(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct reader r;
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	setup(&dev, &f, 16384);
	f.script[1].resid = 3 * 2048;
	reader_init(&r, &dev);
	assert_int_equal(reader_read(&r, 0, 20, big, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_SHORT);
	/* 3 of the second piece's 8, and the third piece's 4, never asked */
	assert_int_equal(rr.resid, (3 + 4) * 2048);
	assert_int_equal(reader_arrived(&rr, 20, 2048), 13);
	assert_int_equal(f.calls, 2);
	assert_true(rr.ms == 2 * 1.5);
	expect_cooked(big, 0, 13);

	/* raw: the residual in sectors of 2352, whatever the answer's stride */
	setup(&dev, &f, 65536);
	f.script[0].resid = 2 * 2646;
	assert_int_equal(reader_init_raw(&r, &dev, true), 0);
	assert_int_equal(reader_read_raw(&r, 0, 30, big, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_SHORT);
	assert_int_equal(rr.resid, (2 + 6) * CD_RAW);
	assert_int_equal(reader_arrived(&rr, 30, CD_RAW), 22);
	assert_false(r.found_bad);
	expect_raw(&f, big, 0, 22);
	reader_fini(&r);
}

struct class_case {
	struct answer a;
	enum cdt_read_class cls;
};

/* Each class of the table, met by the second of three pieces. */
static void test_each_class(void **state)
{
	static const struct class_case cases[] = {
		{ { 0, 0x03, 0x11, 0x00, 0 }, CDT_READ_MEDIUM },
		{ { 0, 0x05, 0x64, 0x00, 0 }, CDT_READ_WRONG_MODE },
		{ { 0, 0x05, 0x21, 0x00, 0 }, CDT_READ_END },
		{ { CDT_ETIMEOUT, 0, 0, 0, 0 }, CDT_READ_TIMEOUT },
		{ { 0, 0x06, 0x28, 0x00, 0 }, CDT_READ_CHANGED },
		{ { 0, 0x05, 0x20, 0x00, 0 }, CDT_READ_FATAL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cdt_read_result rr = CDT_INIT(rr);
		struct reader r;
		struct cdt_dev dev;
		struct fake f;

		setup(&dev, &f, 16384);
		f.script[1] = cases[i].a;
		reader_init(&r, &dev);
		assert_int_equal(reader_read(&r, 40, 20, big, &rr), 0);
		assert_int_equal(rr.cls, cases[i].cls);
		/* the first piece arrived, nothing after it */
		assert_int_equal(reader_arrived(&rr, 20, 2048), 8);
		assert_int_equal(rr.resid, 12 * 2048);
		assert_int_equal(rr.sense_key, cases[i].a.key);
		assert_int_equal(rr.asc, cases[i].a.asc);
		assert_int_equal(f.calls, 2);
		expect_cooked(big, 40, 8);
	}
}

/* An error that ends the run comes back as the call's return. */
static void test_run_ending_error(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct reader r;
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	setup(&dev, &f, 16384);
	f.script[1].key = 0x02;
	f.script[1].asc = 0x3a;		/* no medium */
	reader_init(&r, &dev);
	assert_int_equal(reader_read(&r, 0, 20, big, &rr), CDT_ENOMEDIUM);
	assert_int_equal(f.calls, 2);
}

/* ---- the raw reader's per-sector checks ------------------------------------ */

static void test_raw_bad_sector_mid_span(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct reader r;
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	/* a wrong EDC at LBA 30 of a data track, in the second piece */
	setup(&dev, &f, 8 * 2646);
	f.bad_edc = 30;
	assert_int_equal(reader_init_raw(&r, &dev, true), 0);
	r.expect = (struct reader_expect){ .data = true, .gap_end = 0 };
	assert_int_equal(reader_read_raw(&r, 20, 15, big, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_MEDIUM);
	assert_int_equal(rr.sense_key, 0x03);
	assert_int_equal(rr.asc, 0x11);
	assert_true(rr.info_valid);
	assert_int_equal(rr.info, 30);
	assert_int_equal(rr.resid, 5 * CD_RAW);
	assert_int_equal(reader_arrived(&rr, 15, CD_RAW), 10);
	assert_true(r.found_bad);
	assert_int_equal(r.bad_at, 10);
	assert_true(r.bad_edc);
	assert_int_equal(f.calls, 2);	/* nothing read past it */
	expect_raw(&f, big, 20, 10);
	reader_fini(&r);

	/* audio: no header to check, only the C2 pointers say */
	setup(&dev, &f, 65536);
	f.bad_edc = 21;
	f.bad_c2 = 23;
	assert_int_equal(reader_init_raw(&r, &dev, true), 0);
	r.expect = (struct reader_expect){ .data = false };
	assert_int_equal(reader_read_raw(&r, 20, 6, big, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_MEDIUM);
	assert_int_equal(r.bad_at, 3);
	assert_false(r.bad_edc);
	assert_int_equal(rr.resid, 3 * CD_RAW);
	reader_fini(&r);

	/* without C2 asked, the same sectors all read */
	setup(&dev, &f, 65536);
	f.bad_c2 = 23;
	assert_int_equal(reader_init_raw(&r, &dev, false), 0);
	assert_int_equal(reader_read_raw(&r, 20, 6, big, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_OK);
	assert_false(r.found_bad);
	reader_fini(&r);
}

static void test_raw_header_and_gap(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct reader r;
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	/* a cached sector again: its header names another LBA */
	setup(&dev, &f, 65536);
	f.bad_header = 12;
	assert_int_equal(reader_init_raw(&r, &dev, false), 0);
	r.expect = (struct reader_expect){ .data = true, .gap_end = 0 };
	assert_int_equal(reader_read_raw(&r, 10, 4, big, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_MEDIUM);
	assert_int_equal(r.bad_at, 2);
	assert_false(r.bad_edc);
	reader_fini(&r);

	/* a sector without sync: a written gap before gap_end, else not data */
	setup(&dev, &f, 65536);
	f.no_sync = 11;
	assert_int_equal(reader_init_raw(&r, &dev, false), 0);
	r.expect = (struct reader_expect){ .data = true, .gap_end = 12 };
	assert_int_equal(reader_read_raw(&r, 10, 4, big, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_OK);
	r.expect.gap_end = 11;
	assert_int_equal(reader_read_raw(&r, 10, 4, big, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_MEDIUM);
	assert_int_equal(r.bad_at, 1);
	reader_fini(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cooked_split),
		cmocka_unit_test(test_raw_split_c2),
		cmocka_unit_test(test_raw_split_no_c2),
		cmocka_unit_test(test_short),
		cmocka_unit_test(test_each_class),
		cmocka_unit_test(test_run_ending_error),
		cmocka_unit_test(test_raw_bad_sector_mid_span),
		cmocka_unit_test(test_raw_header_and_gap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
