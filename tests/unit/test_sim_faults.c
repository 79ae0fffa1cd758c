// SPDX-License-Identifier: MIT
/*
 * Unit tests of the emulated drive's failure vocabulary: fault=KIND@A-B[xT]
 * for each kind, ready=MS[@0] and the past= values, driven through the
 * transport seam as the device layer drives it.  The image's bytes are a
 * function of their offset, so every block read back is checked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "mmc/mmc.h"
#include "transport/transport.h"
#include "th.h"

#define N 100
#define BS 2048

static char dir[64];
static char disc[128];
static char trace[128];
static uint8_t *image;

static int group_setup(void **state)
{
	(void)state;
	if (th_tmpdir(dir, sizeof(dir), "test-sim-faults"))
		return -1;
	th_path(disc, sizeof(disc), dir, "disc.iso");
	th_path(trace, sizeof(trace), dir, "trace");
	image = th_random(N * BS, 22);
	th_write_file(disc, image, N * BS);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	free(image);
	return th_rmrf(dir);
}

static struct cdt_transport *open_disc(const char *keys)
{
	struct cdt_transport *t = NULL;
	char err[256];

	if (th_sim_open(&t, err, sizeof(err), "%s,%s", disc, keys))
		fail_msg("open %s: %s", keys, err);
	return t;
}

static void expect_refused(const char *keys, const char *words)
{
	struct cdt_transport *t = NULL;
	char err[512];

	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s,%s", disc, keys),
			 CDT_EUSAGE);
	assert_null(t);
	if (!strstr(err, words))
		fail_msg("%s: '%s' lacks '%s'", keys, err, words);
}

static uint8_t buf[16 * BS];

/* READ(10) of n blocks at lba into buf, poisoned first. */
static int rd(struct cdt_transport *t, struct cdt_cmd *cmd, uint32_t lba,
	      uint16_t n)
{
	uint8_t cdb[16];

	memset(buf, 0xa5, sizeof(buf));
	return th_exec(t, cmd, cdb, mmc_cdb_read10(cdb, lba, n), buf, n * BS);
}

static int tur(struct cdt_transport *t, struct cdt_cmd *cmd)
{
	uint8_t cdb[16];

	return th_exec(t, cmd, cdb, mmc_cdb_test_unit_ready(cdb), NULL, 0);
}

static int inquiry(struct cdt_transport *t, struct cdt_cmd *cmd)
{
	uint8_t cdb[16], ans[36];

	return th_exec(t, cmd, cdb, mmc_cdb_inquiry(cdb, sizeof(ans)), ans,
		       sizeof(ans));
}

/* buf's first n blocks are the image's from lba */
static void expect_blocks(uint32_t lba, uint32_t n)
{
	assert_memory_equal(buf, image + (size_t)lba * BS, (size_t)n * BS);
}

static void test_parse(void **state)
{
	struct cdt_transport *t;

	(void)state;
	t = open_disc("fault=timeout@1-2:hwerr@3-3x2:nosense@4-5:aborted@6-6:"
		      "host@7-7x1:short@8-9:form2@10-10:deferred@11-90x3,"
		      "ready=700@0,past=repeat");
	t->ops->close(t);
	expect_refused("fault=bogus@1-2", "want KIND@A-B");
	expect_refused("fault=hwerr@5-2", "want KIND@A-B");
	expect_refused("fault=hwerr@1-2x0", "want KIND@A-B");
	expect_refused("fault=hwerr@1-2x", "want KIND@A-B");
	expect_refused("fault=hwerr@1", "want KIND@A-B");
	expect_refused("fault=hwerr1-2", "want KIND@A-B");
	expect_refused("fault=hwerr@1-2:", "want KIND@A-B");
	expect_refused("fault=hwerr@1x2-3", "want KIND@A-B");
	expect_refused("fault=hwerr@100-120", "lies past the image");
	expect_refused("ready=abc", "want MS or MS@0");
	expect_refused("ready=5@1", "want MS or MS@0");
	expect_refused("ready=", "want MS or MS@0");
	expect_refused("past=sideways", "end, medium, zero, repeat or short");
	expect_refused("past=zero,past=end", "given twice");
}

static void test_hwerr(void **state)
{
	struct cdt_transport *t = open_disc("fault=hwerr@20-21x2");
	struct cdt_cmd cmd;

	(void)state;
	/* the blocks before the fault arrive, the residual says so */
	assert_int_equal(rd(t, &cmd, 16, 8), 0);
	th_expect_sense(&cmd, 0x04, 0x09, 0x01);
	assert_int_equal(cmd.resid, 4 * BS);
	expect_blocks(16, 4);
	/* x2 counts per block: 20 failed once; a second read fails it again */
	assert_int_equal(rd(t, &cmd, 20, 1), 0);
	th_expect_sense(&cmd, 0x04, 0x09, 0x01);
	/* 20 has had its two and reads; 21 has had none and fails */
	assert_int_equal(rd(t, &cmd, 20, 2), 0);
	th_expect_sense(&cmd, 0x04, 0x09, 0x01);
	assert_int_equal(cmd.resid, BS);
	expect_blocks(20, 1);
	assert_int_equal(rd(t, &cmd, 21, 1), 0);
	th_expect_sense(&cmd, 0x04, 0x09, 0x01);
	assert_int_equal(rd(t, &cmd, 18, 6), 0);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 0);
	expect_blocks(18, 6);
	t->ops->close(t);
}

static void test_nosense(void **state)
{
	struct cdt_transport *t = open_disc("fault=nosense@30-30");
	struct cdt_cmd cmd;

	(void)state;
	assert_int_equal(rd(t, &cmd, 28, 4), 0);
	assert_int_equal(cmd.status, CDT_STATUS_CHECK);
	assert_int_equal(cmd.sense_len, 0);
	assert_int_equal(cmd.resid, 2 * BS);
	expect_blocks(28, 2);
	/* permanent without xT */
	assert_int_equal(rd(t, &cmd, 30, 1), 0);
	assert_int_equal(cmd.status, CDT_STATUS_CHECK);
	t->ops->close(t);
}

static void test_aborted_form2(void **state)
{
	struct cdt_transport *t = open_disc("fault=aborted@5-5x1:form2@40-41");
	struct cdt_cmd cmd;

	(void)state;
	assert_int_equal(rd(t, &cmd, 5, 1), 0);
	th_expect_sense(&cmd, 0x0b, 0x4b, 0x00);
	assert_int_equal(rd(t, &cmd, 5, 1), 0);
	th_expect_good(&cmd);
	expect_blocks(5, 1);
	/* Form 2: 05/64/00 with ILI set (sense byte 2 bit 5) */
	assert_int_equal(rd(t, &cmd, 39, 2), 0);
	th_expect_sense(&cmd, 0x05, 0x64, 0x00);
	assert_int_equal(cmd.sense[2] & 0x20, 0x20);
	assert_int_equal(cmd.resid, BS);
	expect_blocks(39, 1);
	assert_int_equal(rd(t, &cmd, 42, 1), 0);
	th_expect_good(&cmd);
	t->ops->close(t);
}

static void test_host(void **state)
{
	struct cdt_transport *t = open_disc("fault=host@50-50x1");
	struct cdt_cmd cmd;

	(void)state;
	/* no SCSI status at all: the transport says what went wrong */
	assert_int_equal(rd(t, &cmd, 48, 4), CDT_ETRANSPORT);
	assert_int_equal(cmd.host_status, 0x07);
	assert_int_equal(cmd.sense_len, 0);
	assert_int_equal(cmd.resid, 4 * BS);
	assert_non_null(t->ops->errmsg);
	assert_non_null(strstr(t->ops->errmsg(t), "DID_ERROR"));
	assert_int_equal(rd(t, &cmd, 48, 4), 0);
	th_expect_good(&cmd);
	assert_int_equal(cmd.host_status, 0);
	expect_blocks(48, 4);
	t->ops->close(t);
}

static void test_short(void **state)
{
	char keys[256];
	struct cdt_transport *t;
	struct cdt_cmd cmd;
	struct th_read r[8];

	(void)state;
	snprintf(keys, sizeof(keys), "fault=short@60-62,trace=%s", trace);
	remove(trace);
	t = open_disc(keys);
	/* GOOD, and only the blocks before A arrived: the rest is residual */
	assert_int_equal(rd(t, &cmd, 56, 8), 0);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 4 * BS);
	expect_blocks(56, 4);
	assert_int_equal(rd(t, &cmd, 61, 4), 0);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 4 * BS);
	assert_int_equal(rd(t, &cmd, 63, 4), 0);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 0);
	expect_blocks(63, 4);
	t->ops->close(t);
	/* the trace tells a short GOOD read by what moved */
	assert_int_equal(th_read_trace(trace, r, 8), 3);
	assert_true(r[0].ok && r[1].ok && r[2].ok);
	{
		FILE *f = fopen(trace, "r");
		char line[256];

		assert_non_null(f);
		assert_non_null(fgets(line, sizeof(line), f));
		assert_string_equal(line, "28 lba=56 blocks=8 sense=00/00/00 moved=4\n");
		assert_non_null(fgets(line, sizeof(line), f));
		assert_non_null(fgets(line, sizeof(line), f));
		assert_string_equal(line, "28 lba=63 blocks=4 sense=00/00/00\n");
		fclose(f);
	}
}

static void test_deferred(void **state)
{
	struct cdt_transport *t = open_disc("fault=deferred@70-70x1");
	struct cdt_cmd cmd;

	(void)state;
	/* the read itself succeeds whole */
	assert_int_equal(rd(t, &cmd, 68, 4), 0);
	th_expect_good(&cmd);
	expect_blocks(68, 4);
	/* INQUIRY is answered and leaves the error pending (SPC-4 6.6) */
	assert_int_equal(inquiry(t, &cmd), 0);
	th_expect_good(&cmd);
	/* the next command gets it, response code 71h, and is not carried out */
	assert_int_equal(rd(t, &cmd, 0, 2), 0);
	assert_int_equal(cmd.status, CDT_STATUS_CHECK);
	assert_int_equal(cmd.sense[0] & 0x7f, 0x71);
	assert_int_equal(cmd.sense[2] & 0x0f, 0x03);
	assert_int_equal(cmd.sense[12], 0x11);
	assert_int_equal(cmd.resid, 2 * BS);
	/* once only; and x1: the block reads cleanly from now on */
	assert_int_equal(rd(t, &cmd, 0, 2), 0);
	th_expect_good(&cmd);
	expect_blocks(0, 2);
	assert_int_equal(rd(t, &cmd, 70, 1), 0);
	th_expect_good(&cmd);
	assert_int_equal(tur(t, &cmd), 0);
	th_expect_good(&cmd);
	t->ops->close(t);
}

/*
 * TEST UNIT READY until GOOD, pausing step ms between; the virtual ms it
 * took: the pauses and 1 ms for each NOT READY answer.
 */
static double wait_ready(struct cdt_transport *t, unsigned int step)
{
	struct cdt_cmd cmd;
	double waited = 0;

	for (;;) {
		assert_int_equal(tur(t, &cmd), 0);
		if (cmd.status == CDT_STATUS_GOOD)
			return waited;
		th_expect_sense(&cmd, 0x02, 0x04, 0x01);
		waited += cmd.ms;
		assert_true(waited < 100000);
		t->ops->pause(t, step);
		waited += step;
	}
}

static void test_timeout_reset(void **state)
{
	struct cdt_transport *t = open_disc("fault=timeout@80-80x1,cost=0/0");
	struct cdt_cmd cmd;

	(void)state;
	/* ready at insertion without @0 */
	assert_int_equal(tur(t, &cmd), 0);
	th_expect_good(&cmd);
	assert_int_equal(rd(t, &cmd, 79, 2), CDT_ETIMEOUT);
	assert_int_equal(cmd.ms, 30000.0);
	/* reset: NOT READY, becoming ready, for the default 5000 ms */
	assert_int_equal(rd(t, &cmd, 0, 1), 0);
	th_expect_sense(&cmd, 0x02, 0x04, 0x01);
	assert_int_equal(inquiry(t, &cmd), 0);
	th_expect_good(&cmd);
	/* the 1 ms each of the read and INQUIRY above count in the 5000 */
	assert_in_range((unsigned int)wait_ready(t, 10), 4998, 4998 + 11);
	assert_int_equal(rd(t, &cmd, 79, 2), 0);
	th_expect_good(&cmd);
	expect_blocks(79, 2);
	t->ops->close(t);

	/* ready=MS sets the period; @0 also at insertion */
	t = open_disc("fault=timeout@80-80,ready=300@0,cost=0/0");
	assert_in_range((unsigned int)wait_ready(t, 50), 300, 300 + 51);
	assert_int_equal(rd(t, &cmd, 80, 1), CDT_ETIMEOUT);
	assert_in_range((unsigned int)wait_ready(t, 100), 300, 300 + 101);
	assert_int_equal(rd(t, &cmd, 80, 1), CDT_ETIMEOUT);
	t->ops->close(t);

	/* ready=0: a reset that is over at once */
	t = open_disc("fault=timeout@80-80x1,ready=0");
	assert_int_equal(rd(t, &cmd, 80, 1), CDT_ETIMEOUT);
	assert_int_equal(tur(t, &cmd), 0);
	th_expect_good(&cmd);
	t->ops->close(t);
}

static void test_past(void **state)
{
	struct cdt_transport *t = open_disc("past=zero");
	static const uint8_t zeros[2 * BS];
	struct cdt_cmd cmd;
	int i;

	(void)state;
	assert_int_equal(rd(t, &cmd, N - 2, 4), 0);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 0);
	expect_blocks(N - 2, 2);
	assert_memory_equal(buf + 2 * BS, zeros, 2 * BS);
	t->ops->close(t);

	t = open_disc("past=repeat");
	assert_int_equal(rd(t, &cmd, N - 1, 3), 0);
	th_expect_good(&cmd);
	for (i = 0; i < 3; i++)
		assert_memory_equal(buf + i * BS, image + (N - 1) * BS, BS);
	t->ops->close(t);

	t = open_disc("past=short");
	assert_int_equal(rd(t, &cmd, N - 3, 8), 0);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 5 * BS);
	expect_blocks(N - 3, 3);
	assert_int_equal(rd(t, &cmd, N, 2), 0);
	th_expect_sense(&cmd, 0x05, 0x21, 0x00);
	t->ops->close(t);

	/* past= reaches only past N: faults inside keep their answers */
	t = open_disc("past=short,fault=hwerr@98-98");
	assert_int_equal(rd(t, &cmd, 96, 8), 0);
	th_expect_sense(&cmd, 0x04, 0x09, 0x01);
	assert_int_equal(cmd.resid, 6 * BS);
	t->ops->close(t);
}

/* gone: DID_NO_CONNECT from the faulting read on; eject: 02/3A/00 */
static void test_gone_eject(void **state)
{
	struct cdt_transport *t = open_disc("fault=gone@50-50,cost=0/0");
	struct cdt_cmd cmd;

	(void)state;
	assert_int_equal(rd(t, &cmd, 40, 4), 0);
	th_expect_good(&cmd);
	assert_int_equal(rd(t, &cmd, 48, 4), CDT_ETRANSPORT);
	assert_int_equal(cmd.host_status, 0x01);
	/* every command from now on, INQUIRY and reads elsewhere too */
	assert_int_equal(inquiry(t, &cmd), CDT_ETRANSPORT);
	assert_int_equal(cmd.host_status, 0x01);
	assert_int_equal(rd(t, &cmd, 0, 1), CDT_ETRANSPORT);
	assert_non_null(strstr(t->ops->errmsg(t), "DID_NO_CONNECT"));
	t->ops->close(t);

	t = open_disc("fault=eject@50-50,cost=0/0");
	assert_int_equal(rd(t, &cmd, 50, 1), 0);
	th_expect_sense(&cmd, 0x02, 0x3a, 0x00);
	assert_int_equal(tur(t, &cmd), 0);
	th_expect_sense(&cmd, 0x02, 0x3a, 0x00);
	assert_int_equal(rd(t, &cmd, 0, 1), 0);
	th_expect_sense(&cmd, 0x02, 0x3a, 0x00);
	assert_int_equal(inquiry(t, &cmd), 0);
	th_expect_good(&cmd);
	t->ops->close(t);
}

/* Each command's answer while becoming ready: 1 NOT READY, 0 answered. */
static int refused_while_not_ready(const char *keys, uint8_t opcode)
{
	struct cdt_transport *t = open_disc(keys);
	uint8_t cdb[16] = { opcode }, ans[64];
	struct cdt_cmd cmd;
	unsigned int len = 10;
	int refused;

	if (opcode == MMC_READ10)
		len = mmc_cdb_read10(cdb, 0, 0);
	else if (opcode == MMC_GET_CONFIGURATION)
		len = mmc_cdb_get_configuration(cdb, 0, 0, sizeof(ans));
	else if (opcode == MMC_MODE_SENSE10)
		len = mmc_cdb_mode_sense10(cdb, 0x2a, sizeof(ans));
	else if (opcode == MMC_READ_CAPACITY10)
		len = mmc_cdb_read_capacity10(cdb);
	else if (opcode == MMC_READ_TOC)
		len = mmc_cdb_read_toc(cdb, 0, false, 1, sizeof(ans));
	else if (opcode == MMC_INQUIRY)
		len = mmc_cdb_inquiry(cdb, 36);
	else if (opcode == MMC_TEST_UNIT_READY)
		len = mmc_cdb_test_unit_ready(cdb);
	else if (opcode == MMC_READ_DISC_INFO)
		len = mmc_cdb_read_disc_info(cdb, 34);
	else
		fail_msg("no CDB for opcode %02x", opcode);
	assert_int_equal(th_exec(t, &cmd, cdb, len, ans,
				 opcode == MMC_TEST_UNIT_READY ? 0 : sizeof(ans)), 0);
	refused = cmd.status != CDT_STATUS_GOOD;
	if (refused)
		th_expect_sense(&cmd, 0x02, 0x04, 0x01);
	t->ops->close(t);
	return refused;
}

/*
 * notready=all (the default): every command but INQUIRY and REQUEST
 * SENSE; notready=mmc: only the medium's (MMC-5 4.1.8, QEMU's ATAPI).
 */
static void test_not_ready_commands(void **state)
{
	static const struct { uint8_t op; int all, mmc; } want[] = {
		{ MMC_INQUIRY, 0, 0 },
		{ MMC_GET_CONFIGURATION, 1, 0 },
		{ MMC_MODE_SENSE10, 1, 0 },
		{ MMC_TEST_UNIT_READY, 1, 1 },
		{ MMC_READ_CAPACITY10, 1, 1 },
		{ MMC_READ_TOC, 1, 1 },
		{ MMC_READ_DISC_INFO, 1, 1 },
		{ MMC_READ10, 1, 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		if (refused_while_not_ready("ready=5000@0,cost=0/0", want[i].op) != want[i].all)
			fail_msg("notready=all: opcode %02x", want[i].op);
		if (refused_while_not_ready("ready=5000@0,notready=mmc,cost=0/0",
					    want[i].op) != want[i].mmc)
			fail_msg("notready=mmc: opcode %02x", want[i].op);
		/* once ready, every one answers */
		assert_int_equal(refused_while_not_ready("ready=0@0,cost=0/0", want[i].op), 0);
	}
	expect_refused("notready=some", "all or mmc");
}

/* Kinds that share a range: the first listed that still fires answers. */
static void test_order(void **state)
{
	struct cdt_transport *t = open_disc("fault=aborted@10-10x1:hwerr@10-10x1,bad=10-10");
	struct cdt_cmd cmd;

	(void)state;
	assert_int_equal(rd(t, &cmd, 10, 1), 0);
	th_expect_sense(&cmd, 0x0b, 0x4b, 0x00);
	assert_int_equal(rd(t, &cmd, 10, 1), 0);
	th_expect_sense(&cmd, 0x04, 0x09, 0x01);
	assert_int_equal(rd(t, &cmd, 10, 1), 0);
	th_expect_sense(&cmd, 0x03, 0x11, 0x00);
	t->ops->close(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_hwerr),
		cmocka_unit_test(test_nosense),
		cmocka_unit_test(test_aborted_form2),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_short),
		cmocka_unit_test(test_deferred),
		cmocka_unit_test(test_timeout_reset),
		cmocka_unit_test(test_past),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_not_ready_commands),
		cmocka_unit_test(test_gone_eject),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
