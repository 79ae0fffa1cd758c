// SPDX-License-Identifier: MIT
/*
 * The emulated drive's maxxfer=BYTES (issue 31): the queue's largest
 * transfer.  A command asking for more fails as the kernel fails an SG_IO
 * over max_hw_sectors (block/blk-map.c): the ioctl's EINVAL, no SCSI
 * status, nothing sent to the drive; and READ CD / READ CD MSF in the
 * trace= lines with their LBA, count, expected sector type and bytes.
 */
#include <setjmp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "cdtail.h"
#include "mmc/mmc.h"
#include "mmc/readcd.h"
#include "transport/transport.h"
#include "th.h"

#define BLOCKS 64

static char dir[64], img[128], trace[128];
static uint8_t *data;

static int group_setup(void **state)
{
	(void)state;
	if (th_tmpdir(dir, sizeof(dir), "test-maxxfer"))
		return -1;
	th_path(img, sizeof(img), dir, "disc.iso");
	th_path(trace, sizeof(trace), dir, "trace.log");
	data = th_random(BLOCKS * 2048, 31);
	th_write_file(img, data, BLOCKS * 2048);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	free(data);
	return th_rmrf(dir);
}

static char *slurp(const char *path)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = calloc(1, (size_t)st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	return buf;
}

static void test_bad_values(void **state)
{
	static const char *const bad[] = { "maxxfer=", "maxxfer=4095", "maxxfer=0",
					   "maxxfer=8388609", "maxxfer=64k",
					   "maxxfer=-1" };
	struct cdt_transport *t = NULL;
	char err[256];

	(void)state;
	for (size_t i = 0; i < TH_N(bad); i++) {
		assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s,%s", img, bad[i]),
				 CDT_EUSAGE);
		assert_non_null(strstr(err, "'maxxfer'"));
		assert_non_null(strstr(err, "from 4096 to 8388608"));
	}
}

static void test_reports_limit(void **state)
{
	struct cdt_transport *t;
	char err[256];

	(void)state;
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s,maxxfer=10000", img), 0);
	assert_int_equal(t->ops->max_transfer(t), 10000);
	t->ops->close(t);
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s", img), 0);
	assert_int_equal(t->ops->max_transfer(t), 8u * 1024 * 1024);
	t->ops->close(t);
}

/* Over the limit: EINVAL as SG_IO gives it; at the limit: GOOD. */
static void test_over_fails_as_sgio(void **state)
{
	static uint8_t buf[8 * 2048];
	struct cdt_transport *t;
	uint8_t cdb[16];
	struct cdt_cmd cmd;
	char err[256];

	(void)state;
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s,maxxfer=10000,ua=1", img), 0);
	/* ua=1 would answer the first command the drive sees with 06/29 */
	assert_int_equal(th_exec(t, &cmd, cdb, mmc_cdb_read10(cdb, 0, 5), buf, 5 * 2048),
			 CDT_ETRANSPORT);
	assert_int_equal(cmd.sys_errno, EINVAL);
	assert_int_equal(cmd.status, CDT_STATUS_GOOD);
	assert_int_equal(cmd.sense_len, 0);
	assert_int_equal(cmd.host_status, 0);
	assert_non_null(strstr(t->ops->errmsg(t), "Invalid argument"));
	/* the kernel sent nothing: the unit attention is still the drive's next answer */
	assert_int_equal(th_exec(t, &cmd, cdb, mmc_cdb_read10(cdb, 0, 4), buf, 4 * 2048), 0);
	th_expect_sense(&cmd, 0x06, 0x29, 0x00);
	assert_int_equal(th_exec(t, &cmd, cdb, mmc_cdb_read10(cdb, 0, 4), buf, 4 * 2048), 0);
	th_expect_good(&cmd);
	assert_memory_equal(buf, data, 4 * 2048);
	t->ops->close(t);
}

static void test_trace_lines(void **state)
{
	static const char want[] =
		"28 lba=0 blocks=5 sense=einval\n"
		"28 lba=1 blocks=4 sense=00/00/00\n"
		"be lba=-150 blocks=2 type=mode1 bytes=4704 sense=05/20/00\n"
		"be lba=3 blocks=4 type=any bytes=10584 sense=einval\n"
		"b9 lba=7 blocks=1 type=cdda bytes=2352 sense=05/20/00\n";
	struct mmc_read_cd rq = { .type = MMC_ST_MODE1, .fields = MMC_RCD_RAW };
	static uint8_t buf[8 * 2048];
	struct cdt_transport *t;
	uint8_t cdb[16];
	struct cdt_cmd cmd;
	char err[256], *text;

	(void)state;
	unlink(trace);
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s,maxxfer=10000,trace=%s",
				     img, trace), 0);
	th_exec(t, &cmd, cdb, mmc_cdb_read10(cdb, 0, 5), buf, 5 * 2048);
	th_exec(t, &cmd, cdb, mmc_cdb_read10(cdb, 1, 4), buf, 4 * 2048);
	/* a plain image refuses READ CD; the trace still says what was asked */
	th_exec(t, &cmd, cdb, mmc_cdb_read_cd(cdb, -150, 2, &rq), buf, 2 * 2352);
	rq = (struct mmc_read_cd){ .type = MMC_ST_ANY, .fields = MMC_RCD_RAW | MMC_RCD_C2 };
	th_exec(t, &cmd, cdb, mmc_cdb_read_cd(cdb, 3, 4, &rq), buf, 4 * 2646);
	rq = (struct mmc_read_cd){ .type = MMC_ST_CDDA, .fields = MMC_RCD_USER };
	th_exec(t, &cmd, cdb, mmc_cdb_read_cd_msf(cdb, 7, 1, &rq), buf, 2352);
	t->ops->close(t);
	text = slurp(trace);
	assert_string_equal(text, want);
	free(text);
}

/* Through the device: its largest read follows the limit in whole blocks. */
static void test_device_max_blocks(void **state)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	static uint8_t buf[BLOCKS * 2048];
	struct cdt_sizes sz = CDT_INIT(sz);
	struct cdt_dev *dev;

	(void)state;
	dev = th_open_sim(img, "maxxfer=10000");
	assert_int_equal(cdt_read_sizes(dev, &sz), 0);
	assert_int_equal(cdt_max_read_blocks(dev), 4);
	cdt_close(dev);
	dev = th_open_sim(img, "maxxfer=16384");
	assert_int_equal(cdt_read_sizes(dev, &sz), 0);
	assert_int_equal(cdt_max_read_blocks(dev), 8);
	/* a read over it is refused as too long and read again in pieces */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(cdt_read_blocks(dev, 0, 20, buf, sizeof(buf), &rr), 0);
	assert_int_equal(rr.cls, CDT_READ_OK);
	assert_int_equal(rr.resid, 0);
	assert_memory_equal(buf, data, 20 * 2048);
	cdt_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_reports_limit),
		cmocka_unit_test(test_over_fails_as_sgio),
		cmocka_unit_test(test_trace_lines),
		cmocka_unit_test(test_device_max_blocks),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
