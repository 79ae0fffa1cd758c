// SPDX-License-Identifier: MIT
/*
 * The device layer over a fake transport: the read-only allow-list, the
 * retry policy, read classification and the statistics.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "core/cmds.h"
#include "core/device.h"
#include "mmc/mmc.h"
#include "mmc/subchan.h"

struct fake {
	struct cdt_transport base;
	unsigned int calls;
	/* answers, consumed in order; after the last, GOOD */
	struct {
		int rc;
		uint8_t key, asc, ascq;
		bool info_valid;
		uint32_t info;
		uint8_t host;		/* with rc CDT_ETRANSPORT */
		int sys_errno;		/* with rc CDT_ETRANSPORT */
		bool deferred;		/* response code 71h */
		bool no_sense;		/* CHECK CONDITION, no sense bytes */
		uint32_t resid;		/* of a GOOD answer */
	} script[16];
	unsigned int nscript;
	/* reads longer than this many bytes fail with EINVAL; 0: none */
	uint32_t max_len;
	unsigned int reads;
};

static void put_sense(struct cdt_cmd *cmd, uint8_t key, uint8_t asc,
		      uint8_t ascq, bool info_valid, uint32_t info)
{
	memset(cmd->sense, 0, 18);
	cmd->sense[0] = 0x70 | (info_valid ? 0x80 : 0);
	cmd->sense[2] = key;
	cmd->sense[3] = (uint8_t)(info >> 24);
	cmd->sense[4] = (uint8_t)(info >> 16);
	cmd->sense[5] = (uint8_t)(info >> 8);
	cmd->sense[6] = (uint8_t)info;
	cmd->sense[7] = 10;
	cmd->sense[12] = asc;
	cmd->sense[13] = ascq;
	cmd->sense_len = 18;
	cmd->status = CDT_STATUS_CHECK;
}

static int fake_exec(struct cdt_transport *t, struct cdt_cmd *cmd)
{
	struct fake *f = (struct fake *)t;
	unsigned int i = f->calls++;

	cmd->ms = 2.5;
	if (cmd->cdb[0] == MMC_READ10)
		f->reads++;
	if (f->max_len && cmd->data_len > f->max_len) {
		cmd->sys_errno = EINVAL;
		return CDT_ETRANSPORT;
	}
	if (i >= f->nscript) {
		if (cmd->cdb[0] == MMC_READ_CAPACITY10 && cmd->data_len >= 8) {
			memset(cmd->data, 0, 8);
			cmd->data[2] = 0x03;	/* last LBA 0x3e7 = 999 */
			cmd->data[3] = 0xe7;
			cmd->data[6] = 0x08;	/* 2048 */
		}
		if (cmd->cdb[0] == MMC_SERVICE_ACTION_IN16 && cmd->data_len >= 12) {
			memset(cmd->data, 0, 12);
			cmd->data[3] = 0x01;	/* last LBA 2^32 */
			cmd->data[10] = 0x08;	/* 2048 */
		}
		return 0;
	}
	cmd->host_status = f->script[i].host;
	cmd->sys_errno = f->script[i].sys_errno;
	if (f->script[i].rc)
		return f->script[i].rc;
	cmd->resid = f->script[i].resid;
	if (f->script[i].no_sense)
		cmd->status = CDT_STATUS_CHECK;
	if (f->script[i].key)
		put_sense(cmd, f->script[i].key, f->script[i].asc, f->script[i].ascq,
			  f->script[i].info_valid, f->script[i].info);
	if (f->script[i].deferred)
		cmd->sense[0] = (cmd->sense[0] & 0x80) | 0x71;
	return 0;
}

static void fake_close(struct cdt_transport *t)
{
	(void)t;
}

static const struct cdt_transport_ops fake_ops = {
	.name = "fake",
	.exec = fake_exec,
	.close = fake_close,
};

static void setup_dev(struct cdt_dev *dev, struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->base.ops = &fake_ops;
	f->base.virtual_time = true;
	memset(dev, 0, sizeof(*dev));
	dev->t = &f->base;
	dev->timeout_ms = 1000;
	dev->block_size = 2048;
}

/* The next n answers are CHECK CONDITION key/asc. */
static void script_sense(struct fake *f, unsigned int n, uint8_t key, uint8_t asc)
{
	for (unsigned int i = 0; i < n; i++) {
		f->script[f->nscript + i].key = key;
		f->script[f->nscript + i].asc = asc;
	}
	f->nscript += n;
}

/* TEST UNIT READY through the exec path */
static int tur(struct cdt_dev *dev)
{
	uint8_t cdb[16];

	return cdt_exec_in(dev, cdb, mmc_cdb_test_unit_ready(cdb), NULL, 0, NULL,
			   NULL, NULL);
}

/* A fresh device whose next n answers are key/asc: TEST UNIT READY gives want. */
static void tur_scripted(struct cdt_dev *dev, struct fake *f, unsigned int n,
			 uint8_t key, uint8_t asc, int want)
{
	setup_dev(dev, f);
	script_sense(f, n, key, asc);
	assert_int_equal(tur(dev), want);
}

/* Every opcode that writes or changes settings is refused before the transport. */
static void test_write_opcodes_refused(void **state)
{
	static const uint8_t writers[] = {
		0x0a,	/* WRITE(6) */
		0x2a,	/* WRITE(10) */
		0xaa,	/* WRITE(12) */
		0x8a,	/* WRITE(16) */
		0x2e,	/* WRITE AND VERIFY(10) */
		0x15,	/* MODE SELECT(6) */
		0x55,	/* MODE SELECT(10) */
		0x04,	/* FORMAT UNIT */
		0x54,	/* SEND OPC INFORMATION */
		0xa1,	/* BLANK */
		0x5b,	/* CLOSE TRACK/SESSION */
		0x53,	/* RESERVE TRACK */
		0x5d,	/* SEND CUE SHEET */
		0xbf,	/* SEND DVD STRUCTURE */
		0xbb,	/* SET CD SPEED */
		0xb6,	/* SET STREAMING */
		0x1b,	/* START STOP UNIT (eject) */
		0x1e,	/* PREVENT ALLOW MEDIUM REMOVAL */
		0x35,	/* SYNCHRONIZE CACHE */
		0x3b,	/* WRITE BUFFER */
		0xa3,	/* SEND KEY */
		0xa2,	/* SEND EVENT */
		0x5c,	/* READ BUFFER CAPACITY: harmless, but not needed */
	};
	struct cdt_dev dev;
	struct fake f;
	uint8_t cdb[16];

	(void)state;
	setup_dev(&dev, &f);
	for (size_t i = 0; i < sizeof(writers); i++) {
		memset(cdb, 0, sizeof(cdb));
		cdb[0] = writers[i];
		assert_false(cdt_cdb_allowed(cdb, 10));
		assert_int_equal(cdt_exec_in(&dev, cdb, 10, NULL, 0, NULL, NULL, NULL),
				 CDT_EREFUSED);
	}
	/* SERVICE ACTION IN(16) only for READ CAPACITY(16) */
	memset(cdb, 0, sizeof(cdb));
	cdb[0] = 0x9e;
	cdb[1] = 0x11;
	assert_false(cdt_cdb_allowed(cdb, 16));
	assert_int_equal(f.calls, 0);
	assert_int_equal(dev.stats.commands, 0);
}

static void test_read_opcodes_allowed(void **state)
{
	uint8_t cdb[16];

	(void)state;
	assert_true(cdt_cdb_allowed(cdb, mmc_cdb_read10(cdb, 5, 1)));
	assert_true(cdt_cdb_allowed(cdb, mmc_cdb_read12(cdb, 5, 1)));
	assert_true(cdt_cdb_allowed(cdb, mmc_cdb_inquiry(cdb, 96)));
	assert_true(cdt_cdb_allowed(cdb, mmc_cdb_read_capacity10(cdb)));
	assert_true(cdt_cdb_allowed(cdb, mmc_cdb_read_capacity16(cdb, 32)));
	assert_true(cdt_cdb_allowed(cdb, mmc_cdb_read_toc(cdb, 0, false, 1, 100)));
	assert_true(cdt_cdb_allowed(cdb, mmc_cdb_mode_sense10(cdb, 8, 64)));
	assert_false(cdt_cdb_allowed(cdb, 0));
	assert_false(cdt_cdb_allowed(NULL, 10));
}

/*
 * On a disk, 0x51 is XPWRITE(10) and 0x42 UNMAP: MMC-only opcodes need an
 * MMC device.
 */
static void test_mmc_opcodes_need_mmc(void **state)
{
	struct cdt_dev dev;
	struct fake f;
	uint8_t cdb[16];

	(void)state;
	setup_dev(&dev, &f);
	dev.peripheral_type = 0;
	assert_int_equal(cdt_exec_in(&dev, cdb, mmc_cdb_read_disc_info(cdb, 34),
				     NULL, 0, NULL, NULL, NULL), CDT_EREFUSED);
	assert_int_equal(cdt_exec_in(&dev, cdb, mmc_cdb_read_toc(cdb, 0, false, 1, 100),
				     NULL, 0, NULL, NULL, NULL), CDT_EREFUSED);
	assert_int_equal(cdt_exec_in(&dev, cdb, mmc_cdb_read_subchannel(cdb, MMC_SUBCH_MCN, 0, 24),
				     NULL, 0, NULL, NULL, NULL), CDT_EREFUSED);
	assert_int_equal(f.calls, 0);
	/* reads and SPC commands are the same on every device type */
	assert_int_equal(cdt_exec_in(&dev, cdb, mmc_cdb_read_capacity10(cdb),
				     NULL, 0, NULL, NULL, NULL), 0);
	dev.peripheral_type = 5;
	assert_int_equal(cdt_exec_in(&dev, cdb, mmc_cdb_read_disc_info(cdb, 34),
				     NULL, 0, NULL, NULL, NULL), 0);
	assert_int_equal(cdt_exec_in(&dev, cdb, mmc_cdb_read_subchannel(cdb, MMC_SUBCH_ISRC, 1, 24),
				     NULL, 0, NULL, NULL, NULL), 0);
	assert_int_equal(cdt_exec_in(&dev, NULL, 10, NULL, 0, NULL, NULL, NULL),
			 CDT_EUSAGE);
}

static void test_unit_attention_retried(void **state)
{
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	tur_scripted(&dev, &f, 1, 0x06, 0x29, 0);
	assert_int_equal(f.calls, 2);
	assert_int_equal(dev.stats.commands, 2);
	assert_true(dev.stats.virtual_ms > 4.9 && dev.stats.virtual_ms < 5.1);
}

static void test_retry_bounded(void **state)
{
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	tur_scripted(&dev, &f, 8, 0x06, 0x28, CDT_ECHECK);
	assert_true(f.calls < 8);
}

static void test_no_medium(void **state)
{
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	tur_scripted(&dev, &f, 1, 0x02, 0x3a, CDT_ENOMEDIUM);
	assert_string_equal(cdt_errmsg(&dev), "no medium in the drive");
}

static void test_read_classes(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct cdt_dev dev;
	struct fake f;
	uint8_t buf[2048];

	(void)state;
	setup_dev(&dev, &f);
	f.script[0].key = 0x05;
	f.script[0].asc = 0x21;
	f.script[1].key = 0x03;
	f.script[1].asc = 0x11;
	f.script[1].info_valid = true;
	f.script[1].info = 77;
	f.script[2].key = 0x05;
	f.script[2].asc = 0x64;
	f.script[3].rc = CDT_ETIMEOUT;
	f.script[4].key = 0x04;
	f.script[4].asc = 0x44;
	f.nscript = 5;
	assert_int_equal(cdt_read_blocks(&dev, 1000, 1, buf, sizeof(buf), &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_END);
	assert_int_equal(cdt_read_blocks(&dev, 77, 1, buf, sizeof(buf), &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_MEDIUM);
	assert_true(rr.info_valid);
	assert_int_equal(rr.info, 77);
	assert_int_equal(cdt_read_blocks(&dev, 998, 1, buf, sizeof(buf), &rr), 0);
	/* issue 31: 05/64/00 is its own class, no longer folded into the end */
	assert_int_equal(rr.cls, CDT_READ_WRONG_MODE);
	assert_int_equal(cdt_read_blocks(&dev, 5, 1, buf, sizeof(buf), &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_TIMEOUT);
	/* issue 22: a HARDWARE ERROR is a bad block, no longer fatal */
	assert_int_equal(cdt_read_blocks(&dev, 5, 1, buf, sizeof(buf), &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_MEDIUM);
	assert_int_equal(cdt_read_blocks(&dev, 5, 1, buf, sizeof(buf), &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_OK);
	assert_int_equal(dev.stats.reads, 6);
	assert_int_equal(dev.stats.failed_reads, 5);
}

static int read1(struct cdt_dev *dev, struct cdt_read_result *rr)
{
	static uint8_t buf[16 * 2048];

	return cdt_read_blocks(dev, 5, 1, buf, sizeof(buf), rr);
}

/* Host bytes the kernel retries: 3 tries (sr.c), then the block is bad. */
static void test_host_retried(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	setup_dev(&dev, &f);
	for (int i = 0; i < 3; i++) {
		f.script[i].rc = CDT_ETRANSPORT;
		f.script[i].host = 0x0e;	/* DID_TRANSPORT_DISRUPTED */
	}
	f.nscript = 3;
	assert_int_equal(read1(&dev, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_OK);
	assert_int_equal(f.calls, 4);
	/* backed off 100 + 200 + 400 ms of the virtual clock */
	assert_true(dev.stats.virtual_ms >= 700 && dev.stats.virtual_ms < 720);
	setup_dev(&dev, &f);
	for (int i = 0; i < 5; i++) {
		f.script[i].rc = CDT_ETRANSPORT;
		f.script[i].host = 0x07;	/* DID_ERROR */
	}
	f.nscript = 5;
	assert_int_equal(read1(&dev, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_MEDIUM);
	assert_int_equal(f.calls, 4);
	/* the device is gone: no retry, the call itself fails */
	setup_dev(&dev, &f);
	f.script[0].rc = CDT_ETRANSPORT;
	f.script[0].host = 0x01;	/* DID_NO_CONNECT */
	f.nscript = 1;
	assert_int_equal(read1(&dev, &rr), CDT_ETRANSPORT);
	assert_int_equal(f.calls, 1);
	assert_non_null(strstr(cdt_errmsg(&dev), "the device is gone"));
}

/* Deferred sense belongs to an earlier command: this one is sent again. */
static void test_deferred_resent(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	setup_dev(&dev, &f);
	f.script[0].key = 0x03;
	f.script[0].asc = 0x11;
	f.script[0].deferred = true;
	f.nscript = 1;
	assert_int_equal(read1(&dev, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_OK);
	assert_int_equal(f.calls, 2);
	/* a CHECK CONDITION without sense: retried, then bad */
	setup_dev(&dev, &f);
	for (int i = 0; i < 4; i++)
		f.script[i].no_sense = true;
	f.nscript = 4;
	assert_int_equal(read1(&dev, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_MEDIUM);
	assert_int_equal(f.calls, 4);
}

/* NOT READY, becoming ready: polled every 2 s for up to 20 s (sr_ioctl.c). */
static void test_becoming_ready(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	setup_dev(&dev, &f);
	script_sense(&f, 9, 0x02, 0x04);
	for (int i = 0; i < 9; i++)
		f.script[i].ascq = 0x01;
	assert_int_equal(read1(&dev, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_OK);
	assert_int_equal(f.calls, 10);
	assert_true(dev.stats.virtual_ms >= 18000 && dev.stats.virtual_ms < 18100);
	/* still not ready after 20 s: this block is bad, the run goes on */
	setup_dev(&dev, &f);
	script_sense(&f, 12, 0x02, 0x04);
	assert_int_equal(read1(&dev, &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_MEDIUM);
	assert_int_equal(f.calls, 11);
	/* and other commands wait the same way */
	setup_dev(&dev, &f);
	script_sense(&f, 3, 0x02, 0x04);
	assert_int_equal(tur(&dev), 0);
	assert_int_equal(f.calls, 4);
}

/* EINVAL on a long read: smaller reads, and the device remembers it. */
static void test_too_long(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	static uint8_t buf[16 * 2048];
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	setup_dev(&dev, &f);
	f.max_len = 3 * 2048;
	assert_int_equal(cdt_max_read_blocks(&dev), 32);
	assert_int_equal(cdt_read_blocks(&dev, 0, 16, buf, sizeof(buf), &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_OK);
	assert_int_equal(rr.resid, 0);
	/* 16 refused, 8 refused, 4 refused, then 2 + 2 + ... 8 reads of 2 */
	assert_int_equal(f.reads, 3 + 8);
	assert_int_equal(cdt_max_read_blocks(&dev), 2);
	f.reads = 0;
	assert_int_equal(cdt_read_blocks(&dev, 0, 2, buf, sizeof(buf), &rr), 0);
	assert_int_equal(f.reads, 1);
	/* a failing piece: what did not arrive is the residual of the span */
	setup_dev(&dev, &f);
	f.max_len = 4 * 2048;
	f.script[1].key = 0x03;	/* the second piece (the first was refused) */
	f.script[1].asc = 0x11;
	f.script[1].resid = 2048;
	f.nscript = 2;
	f.calls = 0;
	assert_int_equal(cdt_read_blocks(&dev, 0, 8, buf, sizeof(buf), &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_MEDIUM);
	assert_int_equal(rr.resid, 4 * 2048 + 2048);
	/* one block refused: not a length problem, the command is refused */
	setup_dev(&dev, &f);
	f.max_len = 1024;
	assert_int_equal(read1(&dev, &rr), CDT_ETRANSPORT);
	assert_int_equal(f.reads, 1);
}

/* A signal during SG_IO: the read is never sent again. */
static void test_interrupted(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	setup_dev(&dev, &f);
	f.script[0].rc = CDT_ETRANSPORT;
	f.script[0].sys_errno = EINTR;
	f.nscript = 1;
	assert_int_equal(read1(&dev, &rr), CDT_EINTR);
	assert_int_equal(f.calls, 1);
	assert_non_null(strstr(cdt_errmsg(&dev), "not sent again"));
}

/* GOOD with a residual: the data that arrived, and how much did not. */
static void test_short_good(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	static uint8_t buf[4 * 2048];
	struct cdt_dev dev;
	struct fake f;

	(void)state;
	setup_dev(&dev, &f);
	f.script[0].resid = 3 * 2048;
	f.nscript = 1;
	assert_int_equal(cdt_read_blocks(&dev, 0, 4, buf, sizeof(buf), &rr), 0);
	/* issue 31: a GOOD read with a residual is SHORT, the residual kept */
	assert_int_equal(rr.cls, CDT_READ_SHORT);
	assert_int_equal(rr.resid, 3 * 2048);
	assert_int_equal(f.calls, 1);
	assert_int_equal(dev.stats.failed_reads, 1);
}

/*
 * The block size is state the probe sets (cdt_read_sizes), never a side
 * effect of a read: with none known a read is refused before any command,
 * and READ CAPACITY alone does not set it.
 */
static void test_block_size_is_explicit(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	struct cdt_dev dev;
	struct fake f;
	uint8_t buf[2048];
	uint64_t blocks = 0;
	uint32_t bs = 0;

	(void)state;
	setup_dev(&dev, &f);
	dev.block_size = 0;
	assert_int_equal(cdt_read_blocks(&dev, 0, 1, buf, sizeof(buf), &rr),
			 CDT_EUSAGE);
	assert_int_equal(f.calls, 0);
	assert_int_equal(cdt_cmd_read_capacity(&dev, &blocks, &bs, NULL), 0);
	assert_int_equal(blocks, 1000);
	assert_int_equal(bs, 2048);
	assert_int_equal(cdt_block_size(&dev), 0);
	dev.block_size = bs;
	assert_int_equal(cdt_read_blocks(&dev, 0, 1, buf, sizeof(buf), &rr), 0);
	assert_int_equal(f.calls, 2);
}

/* READ CAPACITY(10) refused as an invalid opcode: READ CAPACITY(16) next. */
static void test_read_capacity16_on_invalid_opcode(void **state)
{
	struct cdt_dev dev;
	struct fake f;
	uint64_t blocks = 0;
	uint32_t bs = 7;

	(void)state;
	setup_dev(&dev, &f);
	f.script[0].key = 0x05;
	f.script[0].asc = 0x20;
	f.nscript = 1;
	assert_int_equal(cdt_cmd_read_capacity(&dev, &blocks, &bs, NULL), 0);
	assert_int_equal(f.calls, 2);
	assert_int_equal(blocks, 0x100000001ull);
	assert_int_equal(bs, 2048);
}

static void test_bad_addresses(void **state)
{
	struct cdt_dev *dev = (void *)1;
	char err[256];

	(void)state;
	assert_int_equal(cdt_open("", NULL, &dev, err, sizeof(err)), CDT_EUSAGE);
	assert_null(dev);
	assert_int_equal(cdt_open("sr0", NULL, &dev, err, sizeof(err)), CDT_EUSAGE);
	assert_non_null(strstr(err, "sr0"));
	assert_int_equal(cdt_open("/nonexistent/sr9", NULL, &dev, err, sizeof(err)),
			 CDT_EOPEN);
	assert_int_equal(cdt_open("/dev/null", NULL, &dev, err, sizeof(err)),
			 CDT_ENOTSCSI);
	{
		char path[] = "/tmp/cdtail-regular-XXXXXX";
		int fd = mkstemp(path);

		assert_true(fd >= 0);
		close(fd);
		assert_int_equal(cdt_open(path, NULL, &dev, err, sizeof(err)),
				 CDT_ENOTSCSI);
		assert_non_null(strstr(err, "sim:"));
		unlink(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_opcodes_refused),
		cmocka_unit_test(test_read_opcodes_allowed),
		cmocka_unit_test(test_mmc_opcodes_need_mmc),
		cmocka_unit_test(test_unit_attention_retried),
		cmocka_unit_test(test_retry_bounded),
		cmocka_unit_test(test_no_medium),
		cmocka_unit_test(test_read_classes),
		cmocka_unit_test(test_host_retried),
		cmocka_unit_test(test_deferred_resent),
		cmocka_unit_test(test_becoming_ready),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_interrupted),
		cmocka_unit_test(test_short_good),
		cmocka_unit_test(test_block_size_is_explicit),
		cmocka_unit_test(test_read_capacity16_on_invalid_opcode),
		cmocka_unit_test(test_bad_addresses),
	};

	return cmocka_run_group_tests_name("device", tests, NULL, NULL);
}
