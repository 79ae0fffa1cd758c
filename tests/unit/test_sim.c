// SPDX-License-Identifier: MIT
/*
 * Unit tests of the emulated MMC drive, driven through the transport seam
 * exactly as the device layer drives it.  The fixture images are made here
 * in a fresh temporary directory: every byte is a function of its offset,
 * so any block read back can be checked without keeping a copy.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "cdtail.h"
#include "mmc/mmc.h"
#include "transport/transport.h"
#include "th.h"

/* disc.iso: 100 whole 2048-byte blocks and a trailing partial one */
#define DISC_BLOCKS 100
#define DISC_TAIL 100
#define BIG_BYTES (1000ull * 1000 * 1000)

/* short fixed sizes keep every path built from them provably in bounds */
static char dir[64];
static char disc[128];
static char big[128];

static uint8_t pattern(uint64_t off)
{
	return (uint8_t)(off / 2048 * 13 + off % 251);
}

static void write_image(const char *path, size_t bytes)
{
	uint8_t *buf = malloc(bytes);
	int fd;
	size_t i;

	assert_non_null(buf);
	for (i = 0; i < bytes; i++)
		buf[i] = pattern(i);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, bytes), (ssize_t)bytes);
	close(fd);
	free(buf);
}

static int group_setup(void **state)
{
	int fd;

	(void)state;
	if (th_tmpdir(dir, sizeof(dir), "test-sim"))
		return -1;
	th_path(disc, sizeof(disc), dir, "disc.iso");
	th_path(big, sizeof(big), dir, "big.iso");
	write_image(disc, DISC_BLOCKS * 2048 + DISC_TAIL);
	/* sparse: a DVD-sized image that costs no disk space */
	fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)BIG_BYTES))
		return -1;
	close(fd);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	return th_rmrf(dir);
}

/* ---- helpers ---------------------------------------------------------------- */

/* Open "disc.iso" plus keys (may be ""). */
static struct cdt_transport *open_disc(const char *keys)
{
	struct cdt_transport *t = NULL;
	char err[256];
	int rc;

	rc = th_sim_open(&t, err, sizeof(err), "%s%s%s", disc, *keys ? "," : "", keys);
	if (rc)
		fail_msg("open %s: %s", keys, err);
	assert_non_null(t);
	return t;
}

static void sim_close(struct cdt_transport *t)
{
	t->ops->close(t);
}

static unsigned int cdb_read16(uint8_t *cdb, uint64_t lba, uint32_t n)
{
	memset(cdb, 0, 16);
	cdb[0] = MMC_READ16;
	for (int i = 0; i < 8; i++)
		cdb[2 + i] = (uint8_t)(lba >> (56 - 8 * i));
	for (int i = 0; i < 4; i++)
		cdb[10 + i] = (uint8_t)(n >> (24 - 8 * i));
	return 16;
}

/* READ(10), (12) or (16) of n blocks at lba into buf. */
static int do_read(struct cdt_transport *t, struct cdt_cmd *cmd, uint8_t op,
		   uint64_t lba, uint32_t n, void *buf, uint32_t buf_len)
{
	uint8_t cdb[16];
	unsigned int len;

	if (op == MMC_READ10)
		len = mmc_cdb_read10(cdb, (uint32_t)lba, (uint16_t)n);
	else if (op == MMC_READ12)
		len = mmc_cdb_read12(cdb, (uint32_t)lba, n);
	else
		len = cdb_read16(cdb, lba, n);
	return th_exec(t, cmd, cdb, len, buf, buf_len);
}

/* Read through READ(10) into a scratch buffer; returns the outcome. */
static int read1(struct cdt_transport *t, struct cdt_cmd *cmd, uint64_t lba,
		 uint32_t n)
{
	static uint8_t scratch[64 * 2048];

	assert_true(n <= 64);
	return do_read(t, cmd, MMC_READ10, lba, n, scratch, n * 2048);
}

/* READ(10) of n blocks at lba that must end with sense key/asc/ascq
 * (key 0: GOOD). */
static void read_expect(struct cdt_transport *t, struct cdt_cmd *cmd,
			uint64_t lba, uint32_t n, uint8_t key, uint8_t asc,
			uint8_t ascq)
{
	assert_int_equal(read1(t, cmd, lba, n), 0);
	if (key)
		th_expect_sense(cmd, key, asc, ascq);
	else
		th_expect_good(cmd);
}

static uint32_t sense_info(const struct cdt_cmd *cmd)
{
	return (uint32_t)cmd->sense[3] << 24 | (uint32_t)cmd->sense[4] << 16 |
	       (uint32_t)cmd->sense[5] << 8 | cmd->sense[6];
}

/* n blocks of bs bytes at lba hold the image's bytes */
static void assert_blocks(const uint8_t *buf, uint64_t lba, uint64_t n,
			  uint32_t bs)
{
	uint64_t off = lba * bs;

	for (uint64_t i = 0; i < n * bs; i++)
		if (buf[i] != pattern(off + i))
			fail_msg("byte %llu of the read at %llu differs",
				 (unsigned long long)i, (unsigned long long)lba);
}

/* Blocks READ CAPACITY(10) and (16) report; both must agree. */
static uint64_t capacity(struct cdt_transport *t, uint32_t *block_len)
{
	uint8_t cdb[16], buf[32];
	struct cdt_cmd cmd;
	uint32_t last10, bl10;
	uint64_t last16;

	th_exec(t, &cmd, cdb, mmc_cdb_read_capacity10(cdb), buf, 8);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 0);
	assert_int_equal(mmc_parse_read_capacity10(buf, 8, &last10, &bl10), 0);
	th_exec(t, &cmd, cdb, mmc_cdb_read_capacity16(cdb, 32), buf, 32);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 0);
	assert_int_equal(mmc_parse_read_capacity16(buf, 32, &last16, block_len), 0);
	assert_int_equal(last16, last10);
	assert_int_equal(*block_len, bl10);
	return last16 + 1;
}

static int64_t toc_leadout(struct cdt_transport *t, bool msf)
{
	uint8_t cdb[16], buf[64];
	struct cdt_cmd cmd;
	struct mmc_toc toc;

	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 0, msf, 0, sizeof(buf)),
		 buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, sizeof(buf) - 20);
	assert_int_equal(mmc_parse_toc(buf, 20, msf, &toc), 0);
	assert_int_equal(toc.n, 2);
	assert_int_equal(toc.first_track, 1);
	assert_int_equal(toc.last_track, 1);
	assert_int_equal(toc.e[0].track, 1);
	assert_int_equal(toc.e[0].adr_control, 0x14);
	assert_int_equal(toc.e[0].lba, 0);
	return mmc_toc_leadout(&toc);
}

/* ---- opening ---------------------------------------------------------------- */

static void test_open_plain(void **state)
{
	struct cdt_transport *t = open_disc("");
	uint32_t bs;

	(void)state;
	assert_string_equal(t->ops->name, "sim");
	assert_true(t->virtual_time);
	assert_null(t->ops->kernel_size_512);
	assert_int_equal(t->ops->max_transfer(t), 8388608);
	/* the trailing partial block does not count */
	assert_int_equal(capacity(t, &bs), DISC_BLOCKS);
	assert_int_equal(bs, 2048);
	assert_int_equal(toc_leadout(t, false), DISC_BLOCKS);
	sim_close(t);
}

static void test_open_missing(void **state)
{
	struct cdt_transport *t = (void *)1;
	char err[256];

	(void)state;
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s/nope.iso,hide=1", dir),
			 CDT_EOPEN);
	assert_null(t);
	assert_non_null(strstr(err, "sim: cannot open"));
	assert_non_null(strstr(err, "nope.iso"));
	assert_non_null(strstr(err, strerror(ENOENT)));
	/* a directory is no image */
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s", dir), CDT_EOPEN);
	assert_null(t);
	assert_non_null(strstr(err, strerror(EISDIR)));
}

struct bad_spec {
	const char *keys;
	const char *needle[2];	/* must appear in the message */
};

static void test_bad_specs(void **state)
{
	static const struct bad_spec specs[] = {
		{ "hide=x", { "'hide'", "'x'" } },
		{ "hide=-1", { "'hide'", "'-1'" } },
		{ "hide=+1", { "'hide'", "'+1'" } },
		{ "hide=0x10", { "'hide'", "'0x10'" } },
		{ "hide=", { "'hide'", "''" } },
		{ "hide=18446744073709551616", { "'hide'", "18446744073709551616" } },
		{ "hide=101", { "'hide'", "101" } },
		{ "hide=100", { "'hide'", "no reported block" } },
		{ "extra=1x", { "'extra'", "'1x'" } },
		{ "extra=18446744073709551615", { "'extra'", "too large" } },
		{ "toc=foo", { "'toc'", "'foo'" } },
		{ "toc=", { "'toc'", "''" } },
		{ "bad=5", { "'bad'", "'5'" } },
		{ "bad=7-5", { "'bad'", "'7-5'" } },
		{ "bad=1-2:", { "'bad'", "'1-2:'" } },
		{ "bad=1-2::3-4", { "'bad'", "'1-2::3-4'" } },
		{ "bad=1-2:x-4", { "'bad'", "'1-2:x-4'" } },
		{ "bad=-4", { "'bad'", "'-4'" } },
		{ "runout=101", { "'runout'", "101" } },
		{ "runout=a", { "'runout'", "'a'" } },
		{ "flaky=1-2", { "'flaky'", "'1-2'" } },
		{ "flaky=2-1:3", { "'flaky'", "'2-1:3'" } },
		{ "flaky=1-2:0", { "'flaky'", "'1-2:0'" } },
		{ "flaky=1-2:3:4", { "'flaky'", "'1-2:3:4'" } },
		{ "flaky=1-2:4294967296", { "'flaky'", "4294967296" } },
		{ "ua=0", { "'ua'", "'0'" } },
		{ "ua=", { "'ua'", "''" } },
		{ "hang=end", { "'hang'", "'end'" } },
		{ "block=1024", { "'block'", "'1024'" } },
		{ "block=0512", { "'block'", "'0512'" } },
		{ "cost=50", { "'cost'", "'50'" } },
		{ "cost=50/", { "'cost'", "'50/'" } },
		{ "cost=/8000", { "'cost'", "'/8000'" } },
		{ "cost=1.5/3", { "'cost'", "'1.5/3'" } },
		{ "cost=1/2/3", { "'cost'", "'1/2/3'" } },
		{ "info=2", { "'info'", "'2'" } },
		{ "info=yes", { "'info'", "'yes'" } },
		{ "sleep=true", { "'sleep'", "'true'" } },
		{ "trace=", { "'trace'", "''" } },
		{ "hdie=3", { "unknown key", "'hdie'" } },
		{ "HIDE=3", { "unknown key", "'HIDE'" } },
		{ "hide", { "'hide'", "no value" } },
		{ "hide=1,hide=2", { "'hide'", "twice" } },
		{ "info=1,sleep=0,info=1", { "'info'", "twice" } },
		{ "hide=1,", { "empty", "item" } },
		{ "hide=1,,info=1", { "empty", "item" } },
		/* the quirks of real targets */
		{ "past=", { "'past'", "''" } },
		{ "past=Medium", { "'past'", "'Medium'" } },
		{ "past=1", { "'past'", "end, medium, zero, repeat or short" } },
		{ "past=end,past=medium", { "'past'", "twice" } },
		{ "reveal=2", { "'reveal'", "'2'" } },
		{ "reveal=", { "'reveal'", "''" } },
		{ "toc=CUT", { "'toc'", "cut" } },
		{ "toc=cut2", { "'toc'", "'cut2'" } },
		{ "getconf=", { "'getconf'", "''" } },
		{ "getconf=padded", { "'getconf'", "exact or full" } },
		{ "getconf=1", { "'getconf'", "'1'" } },
		{ "stale=yes", { "'stale'", "'yes'" } },
		{ "stale=01", { "'stale'", "'01'" } },
		{ "info=Zero", { "'info'", "start or fixed:N" } },
		{ "info=fixed:", { "'info'", "'fixed:'" } },
		{ "info=fixed:x", { "'info'", "'fixed:x'" } },
		{ "info=fixed:4294967296", { "'info'", "'fixed:4294967296'" } },
		{ "info=begin", { "'info'", "'begin'" } },
		{ "info=", { "'info'", "''" } },
		{ "cdb16=", { "'cdb16'", "''" } },
		{ "cdb16=no", { "'cdb16'", "'no'" } },
		{ "cdb16=0,cdb16=0", { "'cdb16'", "twice" } },
	};
	struct cdt_transport *t;
	char err[512], spec[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		int rc;

		t = (void *)1;
		rc = th_sim_open(&t, err, sizeof(err), "%s,%s", disc, specs[i].keys);
		if (rc != CDT_EUSAGE)
			fail_msg("'%s': rc %d, want CDT_EUSAGE (%s)", specs[i].keys,
				 rc, err);
		assert_null(t);
		for (int k = 0; k < 2; k++)
			if (!strstr(err, specs[i].needle[k]))
				fail_msg("'%s': message '%s' lacks '%s'",
					 specs[i].keys, err, specs[i].needle[k]);
		assert_int_equal(strncmp(err, "sim: ", 5), 0);
	}
	/* no image at all */
	assert_int_equal(th_sim_open(&t, err, sizeof(err), ",hide=1"), CDT_EUSAGE);
	assert_int_equal(th_sim_open(&t, err, sizeof(err), ""), CDT_EUSAGE);
	/* an image without a whole block */
	snprintf(spec, sizeof(spec), "%s/empty.iso", dir);
	write_image(spec, 2047);
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s", spec), CDT_EUSAGE);
	assert_non_null(strstr(err, "no whole 2048-byte block"));
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s,extra=1", spec), 0);
	sim_close(t);
	/* a trace file that cannot be created */
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s,trace=%s/no/such/dir/t",
				  disc, dir), CDT_EOPEN);
	assert_non_null(strstr(err, "trace"));
}

static void test_edge_specs_ok(void **state)
{
	static const char *const ok[] = {
		"hide=99", "hide=100,extra=1", "extra=0", "runout=100",
		"cost=0/0", "bad=0-0:5-5:99-1000000", "flaky=0-18446744073709551615:1",
		"hang=18446744073709551615", "block=2048", "info=0,sleep=0",
		"hide=00003", "past=end", "past=medium", "reveal=0", "reveal=1",
		"toc=cut", "getconf=exact", "getconf=full", "stale=0", "stale=1",
		"info=zero", "info=start", "info=fixed:0", "info=fixed:4294967295",
		"cdb16=0", "cdb16=1",
		"past=medium,reveal=1,toc=cut,getconf=full,stale=1,info=zero,cdb16=0",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		sim_close(open_disc(ok[i]));
}

/* A comma or backslash in a file name is escaped; faults past the image are typos. */
static void test_spec_escapes_and_ranges(void **state)
{
	struct cdt_transport *t = NULL;
	char path[256], trace[256], err[256];
	uint32_t bs;

	(void)state;
	snprintf(path, sizeof(path), "%s/a,b\\c.iso", dir);
	write_image(path, 10 * 2048);
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s/a\\,b\\\\c.iso,hide=1", dir), 0);
	assert_int_equal(capacity(t, &bs), 9);
	sim_close(t);
	/* unescaped, the name ends at the comma and "b\\c.iso" is no key */
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s/a,b\\c.iso", dir), CDT_EUSAGE);
	assert_non_null(strstr(err, "\\,"));
	/* another backslash is itself */
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s/a\\,b\\c.iso", dir), 0);
	sim_close(t);
	snprintf(trace, sizeof(trace), "%s/t,1", dir);
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s,trace=%s/t\\,1", disc, dir), 0);
	sim_close(t);
	assert_int_equal(access(trace, F_OK), 0);
	unlink(trace);
	unlink(path);
	/* a bad or flaky range that starts past the image */
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s,bad=5-6:%u-%u", disc, DISC_BLOCKS,
				  DISC_BLOCKS + 9), CDT_EUSAGE);
	assert_non_null(strstr(err, "lies past the image"));
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s,flaky=%u-%u:2", disc, DISC_BLOCKS + 1,
				  DISC_BLOCKS + 1), CDT_EUSAGE);
	assert_non_null(strstr(err, "flaky="));
	/* one that starts inside may run past it */
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s,bad=%u-%u", disc, DISC_BLOCKS - 1,
				  DISC_BLOCKS + 9), 0);
	sim_close(t);
}

/* ---- reads ------------------------------------------------------------------ */

static void test_reads_all_opcodes(void **state)
{
	static const uint8_t ops[] = { MMC_READ10, MMC_READ12, MMC_READ16 };
	struct cdt_transport *t = open_disc("");
	uint8_t *buf = malloc(DISC_BLOCKS * 2048 + 4096);
	struct cdt_cmd cmd;

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < sizeof(ops); i++) {
		assert_int_equal(do_read(t, &cmd, ops[i], 0, DISC_BLOCKS, buf,
					 DISC_BLOCKS * 2048), 0);
		th_expect_good(&cmd);
		assert_int_equal(cmd.resid, 0);
		assert_blocks(buf, 0, DISC_BLOCKS, 2048);

		/* a larger buffer than asked: the rest is resid */
		assert_int_equal(do_read(t, &cmd, ops[i], 97, 3, buf, 4 * 2048), 0);
		th_expect_good(&cmd);
		assert_int_equal(cmd.resid, 2048);
		assert_blocks(buf, 97, 3, 2048);
	}
	free(buf);
	sim_close(t);
}

static void test_read_past_end(void **state)
{
	struct cdt_transport *t = open_disc("");
	uint8_t buf[4 * 2048];
	struct cdt_cmd cmd;

	(void)state;
	read_expect(t, &cmd, DISC_BLOCKS, 1, 5, 0x21, 0);
	assert_int_equal(cmd.sense[0], 0x70);
	assert_int_equal(cmd.resid, 2048);

	/* two good blocks arrive, then the end */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(do_read(t, &cmd, MMC_READ12, DISC_BLOCKS - 2, 4, buf,
				 sizeof(buf)), 0);
	th_expect_sense(&cmd, 5, 0x21, 0);
	assert_int_equal(cmd.resid, 2 * 2048);
	assert_blocks(buf, DISC_BLOCKS - 2, 2, 2048);

	/* far beyond, and READ(16) beyond 32 bits */
	assert_int_equal(do_read(t, &cmd, MMC_READ16, 1ull << 40, 1, buf, 2048), 0);
	th_expect_sense(&cmd, 5, 0x21, 0);
	assert_int_equal(do_read(t, &cmd, MMC_READ16, UINT64_MAX, 2, buf, 4096), 0);
	th_expect_sense(&cmd, 5, 0x21, 0);
	sim_close(t);
}

static void test_read_zero_and_short_buffer(void **state)
{
	struct cdt_transport *t = open_disc("");
	uint8_t buf[3 * 2048];
	struct cdt_cmd cmd;

	(void)state;
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 5, 0, buf, sizeof(buf)), 0);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, sizeof(buf));
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 5, 0, NULL, 0), 0);
	th_expect_good(&cmd);

	/* 3 blocks asked into 2.5 blocks of buffer: refused, nothing written */
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 0, 3, buf, 5 * 1024), 0);
	th_expect_sense(&cmd, 5, 0x24, 0);
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0xa5);
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 0, 1, NULL, 0), 0);
	th_expect_sense(&cmd, 5, 0x24, 0);
	/* a huge READ(12) count is refused before any arithmetic overflows */
	assert_int_equal(do_read(t, &cmd, MMC_READ12, 0, UINT32_MAX, buf,
				 sizeof(buf)), 0);
	th_expect_sense(&cmd, 5, 0x24, 0);
	sim_close(t);
}

static void test_block512(void **state)
{
	struct cdt_transport *t = open_disc("block=512");
	uint8_t buf[8 * 512];
	struct cdt_cmd cmd;
	uint32_t bs;

	(void)state;
	/* 100*2048+100 bytes: 400 whole 512-byte blocks */
	assert_int_equal(capacity(t, &bs), 4 * DISC_BLOCKS);
	assert_int_equal(bs, 512);
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 3, 8, buf, sizeof(buf)), 0);
	th_expect_good(&cmd);
	assert_blocks(buf, 3, 8, 512);
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 399, 1, buf, 512), 0);
	th_expect_good(&cmd);
	assert_blocks(buf, 399, 1, 512);
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 400, 1, buf, 512), 0);
	th_expect_sense(&cmd, 5, 0x21, 0);
	/* the buffer check counts 512-byte blocks, not 2048-byte ones */
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 0, 2, buf, 1024), 0);
	th_expect_good(&cmd);
	sim_close(t);
}

/* ---- hide, extra, toc ------------------------------------------------------- */

static void test_hide(void **state)
{
	struct cdt_transport *t = open_disc("hide=7");
	struct cdt_cmd cmd;
	uint32_t bs;

	(void)state;
	assert_int_equal(capacity(t, &bs), DISC_BLOCKS - 7);
	assert_int_equal(toc_leadout(t, false), DISC_BLOCKS - 7);
	/* the hidden blocks stay readable */
	read_expect(t, &cmd, DISC_BLOCKS - 7, 7, 0, 0, 0);
	read_expect(t, &cmd, DISC_BLOCKS, 1, 5, 0x21, 0);
	sim_close(t);
}

static void test_extra(void **state)
{
	struct cdt_transport *t = open_disc("extra=2");
	struct cdt_cmd cmd;
	uint32_t bs;

	(void)state;
	assert_int_equal(capacity(t, &bs), DISC_BLOCKS + 2);
	assert_int_equal(toc_leadout(t, false), DISC_BLOCKS + 2);
	read_expect(t, &cmd, DISC_BLOCKS - 1, 1, 0, 0, 0);
	read_expect(t, &cmd, DISC_BLOCKS, 1, 5, 0x21, 0);
	read_expect(t, &cmd, DISC_BLOCKS + 1, 1, 5, 0x21, 0);
	sim_close(t);

	t = open_disc("hide=10,extra=3");
	assert_int_equal(capacity(t, &bs), DISC_BLOCKS - 7);
	sim_close(t);
	/* everything hidden, but extra keeps one reported block */
	t = open_disc("hide=100,extra=1");
	assert_int_equal(capacity(t, &bs), 1);
	sim_close(t);
}

static void test_toc_modes(void **state)
{
	struct cdt_transport *t;
	uint8_t cdb[16], buf[64];
	struct cdt_cmd cmd;

	(void)state;
	t = open_disc("hide=5,toc=reported");
	assert_int_equal(toc_leadout(t, false), DISC_BLOCKS - 5);
	assert_int_equal(toc_leadout(t, true), DISC_BLOCKS - 5);
	sim_close(t);

	t = open_disc("hide=5,toc=true");
	assert_int_equal(toc_leadout(t, false), DISC_BLOCKS);
	assert_int_equal(toc_leadout(t, true), DISC_BLOCKS);
	sim_close(t);

	t = open_disc("extra=1,toc=true");
	assert_int_equal(toc_leadout(t, false), DISC_BLOCKS);
	sim_close(t);

	t = open_disc("toc=none");
	for (uint8_t fmt = 0; fmt < 3; fmt++) {
		th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, fmt, false, 0, 64),
			 buf, sizeof(buf));
		th_expect_sense(&cmd, 5, 0x24, 0);
	}
	sim_close(t);
}

static void test_toc_layout(void **state)
{
	/* 100 blocks: lead-out at LBA 100 = 00:03:25 (100 + 150 = 250 frames) */
	static const uint8_t want_lba[20] = {
		0, 18, 1, 1,
		0, 0x14, 1, 0, 0, 0, 0, 0,
		0, 0x14, 0xaa, 0, 0, 0, 0, 100,
	};
	static const uint8_t want_msf[20] = {
		0, 18, 1, 1,
		0, 0x14, 1, 0, 0, 0, 2, 0,
		0, 0x14, 0xaa, 0, 0, 0, 3, 25,
	};
	static const uint8_t want_session[12] = {
		0, 10, 1, 1, 0, 0x14, 1, 0, 0, 0, 0, 0,
	};
	struct cdt_transport *t = open_disc("");
	uint8_t cdb[16], buf[64];
	struct cdt_cmd cmd;
	struct mmc_session_info si;

	(void)state;
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 0, false, 1, 64), buf, 64);
	th_expect_good(&cmd);
	assert_memory_equal(buf, want_lba, sizeof(want_lba));
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 0, true, 0, 64), buf, 64);
	th_expect_good(&cmd);
	assert_memory_equal(buf, want_msf, sizeof(want_msf));

	/* the allocation length cuts the answer; the header stays whole */
	memset(buf, 0xee, sizeof(buf));
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 0, false, 0, 12), buf, 64);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 64 - 12);
	assert_memory_equal(buf, want_lba, 12);
	assert_int_equal(buf[12], 0xee);
	/* and so does a buffer smaller than the answer */
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 0, false, 0, 64), buf, 4);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 0);

	/* the lead-out alone */
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 0, false, 0xaa, 64), buf, 64);
	th_expect_good(&cmd);
	assert_int_equal(th_be16(buf), 10);
	assert_int_equal(buf[6], 0xaa);
	assert_int_equal(th_be32(buf + 8), 100);
	/* no track 2 */
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 0, false, 2, 64), buf, 64);
	th_expect_sense(&cmd, 5, 0x24, 0);

	/* format 1: session info */
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 1, false, 0, 64), buf, 64);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 64 - 12);
	assert_memory_equal(buf, want_session, 12);
	assert_int_equal(mmc_parse_session_info(buf, 12, false, &si), 0);
	assert_int_equal(si.first_session, 1);
	assert_int_equal(si.last_session, 1);
	assert_int_equal(si.first_track_last_session, 1);
	assert_int_equal(si.first_track_lba, 0);
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 1, true, 0, 64), buf, 64);
	th_expect_good(&cmd);
	assert_int_equal(mmc_parse_session_info(buf, 12, true, &si), 0);
	assert_int_equal(si.first_track_lba, 0);

	/* format 2 (full TOC) is test_sim_layout's; PMA, ATIP are not there */
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 3, false, 0, 64), buf, 64);
	th_expect_sense(&cmd, 5, 0x24, 0);
	sim_close(t);
}

/* ---- faults ----------------------------------------------------------------- */

static void test_bad(void **state)
{
	struct cdt_transport *t = open_disc("bad=10-12:50-50");
	uint8_t buf[8 * 2048];
	struct cdt_cmd cmd;

	(void)state;
	read_expect(t, &cmd, 9, 1, 0, 0, 0);
	for (uint64_t b = 10; b <= 12; b++) {
		read_expect(t, &cmd, b, 1, 3, 0x11, 0);
	}
	read_expect(t, &cmd, 13, 1, 0, 0, 0);
	read_expect(t, &cmd, 50, 1, 3, 0x11, 0);
	/* bad blocks do not heal */
	read_expect(t, &cmd, 50, 1, 3, 0x11, 0);

	/* a read touching the range: the blocks before it arrive */
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 6, 8, buf, sizeof(buf)), 0);
	th_expect_sense(&cmd, 3, 0x11, 0);
	assert_int_equal(cmd.resid, 4 * 2048);
	assert_blocks(buf, 6, 4, 2048);
	/* the second range stops a read that starts before it, too */
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 48, 8, buf, sizeof(buf)), 0);
	th_expect_sense(&cmd, 3, 0x11, 0);
	assert_int_equal(cmd.resid, 6 * 2048);
	sim_close(t);

	/* a bad range past the end: the end wins */
	t = open_disc("bad=98-200");
	read_expect(t, &cmd, 100, 1, 5, 0x21, 0);
	read_expect(t, &cmd, 99, 1, 3, 0x11, 0);
	sim_close(t);
}

static void test_runout(void **state)
{
	struct cdt_transport *t = open_disc("runout=2,bad=98-98");
	uint8_t buf[4 * 2048];
	struct cdt_cmd cmd;
	uint32_t bs;

	(void)state;
	/* run-out blocks are reported */
	assert_int_equal(capacity(t, &bs), DISC_BLOCKS);
	read_expect(t, &cmd, 97, 1, 0, 0, 0);
	/* run-out takes precedence over a bad range */
	read_expect(t, &cmd, 98, 1, 5, 0x64, 0);
	read_expect(t, &cmd, 99, 1, 5, 0x64, 0);
	read_expect(t, &cmd, 100, 1, 5, 0x21, 0);
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 96, 4, buf, sizeof(buf)), 0);
	th_expect_sense(&cmd, 5, 0x64, 0);
	assert_int_equal(cmd.resid, 2 * 2048);
	assert_blocks(buf, 96, 2, 2048);
	sim_close(t);
}

static void test_flaky(void **state)
{
	struct cdt_transport *t = open_disc("flaky=10-11:2,info=1");
	uint8_t buf[4 * 2048];
	struct cdt_cmd cmd;

	(void)state;
	/* block 10 fails twice; block 11 is not touched by those reads */
	for (int i = 0; i < 2; i++) {
		assert_int_equal(do_read(t, &cmd, MMC_READ10, 9, 3, buf, sizeof(buf)), 0);
		th_expect_sense(&cmd, 3, 0x11, 0);
		assert_int_equal(sense_info(&cmd), 10);
		assert_int_equal(cmd.resid, sizeof(buf) - 2048);
	}
	for (int i = 0; i < 2; i++) {
		assert_int_equal(do_read(t, &cmd, MMC_READ10, 9, 3, buf, sizeof(buf)), 0);
		th_expect_sense(&cmd, 3, 0x11, 0);
		assert_int_equal(sense_info(&cmd), 11);
		assert_int_equal(cmd.resid, sizeof(buf) - 2 * 2048);
	}
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 9, 3, buf, sizeof(buf)), 0);
	th_expect_good(&cmd);
	assert_blocks(buf, 9, 3, 2048);
	read_expect(t, &cmd, 10, 1, 0, 0, 0);
	sim_close(t);

	/* a flaky range past the end: the end stays the end */
	t = open_disc("flaky=99-1000:1");
	read_expect(t, &cmd, 100, 1, 5, 0x21, 0);
	read_expect(t, &cmd, 99, 1, 3, 0x11, 0);
	read_expect(t, &cmd, 99, 1, 0, 0, 0);
	sim_close(t);
}

static void test_two_sims_independent(void **state)
{
	struct cdt_transport *a = open_disc("flaky=5-5:1");
	struct cdt_transport *b = open_disc("flaky=5-5:1,ua=2");
	struct cdt_cmd cmd;

	(void)state;
	read_expect(a, &cmd, 5, 1, 3, 0x11, 0);
	read_expect(b, &cmd, 5, 1, 3, 0x11, 0);
	read_expect(a, &cmd, 5, 1, 0, 0, 0);
	read_expect(b, &cmd, 5, 1, 6, 0x29, 0);
	read_expect(b, &cmd, 5, 1, 0, 0, 0);
	sim_close(a);
	sim_close(b);
}

static void test_info(void **state)
{
	struct cdt_transport *t = open_disc("bad=20-30");
	uint8_t buf[8 * 2048];
	struct cdt_cmd cmd;

	(void)state;
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 17, 8, buf, sizeof(buf)), 0);
	th_expect_sense(&cmd, 3, 0x11, 0);
	assert_int_equal(cmd.sense[0], 0x70);
	assert_int_equal(sense_info(&cmd), 0);
	sim_close(t);

	t = open_disc("bad=20-30,info=1");
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 17, 8, buf, sizeof(buf)), 0);
	th_expect_sense(&cmd, 3, 0x11, 0);
	assert_int_equal(cmd.sense[0], 0xf0);
	assert_int_equal(sense_info(&cmd), 20);
	read_expect(t, &cmd, DISC_BLOCKS + 300, 1, 5, 0x21, 0);
	assert_int_equal(cmd.sense[0], 0xf0);
	assert_int_equal(sense_info(&cmd), DISC_BLOCKS + 300);
	/* only reads carry it */
	th_exec(t, &cmd, (const uint8_t[16]){ 0x2a }, 10, buf, 0);
	th_expect_sense(&cmd, 5, 0x20, 0);
	assert_int_equal(cmd.sense[0], 0x70);
	sim_close(t);
}

static void test_ua(void **state)
{
	struct cdt_transport *t = open_disc("ua=3");
	uint8_t cdb[16];
	struct cdt_cmd cmd;

	(void)state;
	mmc_cdb_test_unit_ready(cdb);
	/* commands 1..9: 3, 6, 9 meet a unit attention */
	for (int n = 1; n <= 9; n++) {
		th_exec(t, &cmd, cdb, 6, NULL, 0);
		if (n % 3 == 0) {
			th_expect_sense(&cmd, 6, 0x29, 0);
			assert_true(cmd.ms == 1.0);
		} else {
			th_expect_good(&cmd);
		}
	}
	sim_close(t);

	/* ua=1: every other command, so a retry always gets through */
	t = open_disc("ua=1,cost=0/0");
	for (int n = 1; n <= 6; n++) {
		assert_int_equal(read1(t, &cmd, 4, 2), 0);
		if (n % 2) {
			th_expect_sense(&cmd, 6, 0x29, 0);
			assert_int_equal(cmd.resid, 2 * 2048);
		} else {
			th_expect_good(&cmd);
		}
	}
	sim_close(t);

	/* a unit attention does not carry out the command: flaky untouched */
	t = open_disc("ua=1,flaky=4-4:1");
	read_expect(t, &cmd, 4, 1, 6, 0x29, 0);
	read_expect(t, &cmd, 4, 1, 3, 0x11, 0);
	read_expect(t, &cmd, 4, 1, 6, 0x29, 0);
	read_expect(t, &cmd, 4, 1, 0, 0, 0);
	sim_close(t);
}

static void test_hang(void **state)
{
	struct cdt_transport *t = open_disc("hang=40,bad=40-40");
	uint8_t buf[8 * 2048];
	struct cdt_cmd cmd;

	(void)state;
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 32, 8, buf, sizeof(buf)), 0);
	th_expect_good(&cmd);
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 41, 8, buf, sizeof(buf)), 0);
	th_expect_good(&cmd);
	memset(&cmd, 0, sizeof(cmd));
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 33, 8, buf, sizeof(buf)),
			 CDT_ETIMEOUT);
	assert_true(cmd.ms == 30000.0);
	assert_int_equal(read1(t, &cmd, 40, 1), CDT_ETIMEOUT);
	/* hang is checked first, even past the end */
	t->ops->close(t);
	t = open_disc("hang=500");
	assert_int_equal(read1(t, &cmd, 499, 2), CDT_ETIMEOUT);
	read_expect(t, &cmd, 501, 2, 5, 0x21, 0);
	/* other commands never hang */
	assert_int_equal(capacity(t, &(uint32_t){ 0 }), DISC_BLOCKS);
	sim_close(t);
}

/* ---- cost and sleep ----------------------------------------------------------- */

static void test_cost(void **state)
{
	struct cdt_transport *t = open_disc("bad=50-50");
	uint8_t cdb[16], buf[64];
	struct cdt_cmd cmd;

	(void)state;
	/* default 50 us per block, 8000 ms per failing read */
	assert_int_equal(read1(t, &cmd, 0, 4), 0);
	assert_true(cmd.ms > 1.2 - 1e-9 && cmd.ms < 1.2 + 1e-9);
	assert_int_equal(read1(t, &cmd, 46, 8), 0);
	assert_true(cmd.ms == 8000.0);
	assert_int_equal(read1(t, &cmd, 200, 1), 0);
	assert_true(cmd.ms == 8000.0);
	th_exec(t, &cmd, cdb, mmc_cdb_inquiry(cdb, 64), buf, sizeof(buf));
	assert_true(cmd.ms == 1.0);
	th_exec(t, &cmd, (const uint8_t[16]){ 0xbb }, 12, NULL, 0);
	th_expect_sense(&cmd, 5, 0x20, 0);
	assert_true(cmd.ms == 1.0);
	/* a read refused for its buffer never touched the medium */
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 0, 2, buf, 64), 0);
	th_expect_sense(&cmd, 5, 0x24, 0);
	assert_true(cmd.ms == 1.0);
	sim_close(t);

	t = open_disc("cost=1000/3,bad=50-50");
	assert_int_equal(read1(t, &cmd, 0, 10), 0);
	assert_true(cmd.ms == 11.0);
	assert_int_equal(read1(t, &cmd, 49, 2), 0);
	assert_true(cmd.ms == 3.0);
	sim_close(t);

	t = open_disc("cost=0/0,bad=50-50");
	assert_int_equal(read1(t, &cmd, 0, 10), 0);
	assert_true(cmd.ms == 1.0);
	assert_int_equal(read1(t, &cmd, 50, 1), 0);
	assert_true(cmd.ms == 0.0);
	sim_close(t);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000 + (double)ts.tv_nsec / 1e6;
}

static void test_sleep(void **state)
{
	struct cdt_transport *t = open_disc("cost=2000/30,bad=1-1,sleep=1");
	struct cdt_cmd cmd;
	double start;

	(void)state;
	start = now_ms();
	assert_int_equal(read1(t, &cmd, 0, 4), 0);	/* 9 ms */
	assert_int_equal(read1(t, &cmd, 1, 1), 0);	/* 30 ms */
	assert_true(now_ms() - start >= 39.0);
	sim_close(t);

	/* without sleep=1 the same costs pass in no time */
	t = open_disc("cost=2000/30000,bad=1-1");
	start = now_ms();
	assert_int_equal(read1(t, &cmd, 1, 1), 0);
	assert_true(cmd.ms == 30000.0);
	assert_true(now_ms() - start < 1000.0);
	sim_close(t);
}

/* ---- trace ------------------------------------------------------------------ */

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

static void test_trace(void **state)
{
	static const char want[] =
		"28 lba=0 blocks=2 sense=00/00/00\n"
		"28 lba=1024 blocks=1 sense=05/21/00\n"
		"a8 lba=5 blocks=3 sense=03/11/00\n"
		"25 lba=0 blocks=0 sense=06/29/00\n"
		"25 lba=0 blocks=0 sense=00/00/00\n"
		"88 lba=4294967296 blocks=1 sense=05/21/00\n"
		"28 lba=60 blocks=4 sense=timeout\n"
		"12 lba=0 blocks=0 sense=06/29/00\n"
		"2a lba=0 blocks=0 sense=05/20/00\n"
		"28 lba=98 blocks=1 sense=05/64/00\n";
	char path[256], spec[1024];
	struct cdt_transport *t;
	uint8_t cdb[16], buf[4 * 2048];
	struct cdt_cmd cmd;
	char *text, err[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/trace.log", dir);
	snprintf(spec, sizeof(spec), "%s,trace=%s,bad=6-6,ua=4,hang=62,runout=2", disc, path);
	assert_int_equal(cdt_sim_open(spec, &t, err, sizeof(err)), 0);
	read1(t, &cmd, 0, 2);
	read1(t, &cmd, 1024, 1);
	do_read(t, &cmd, MMC_READ12, 5, 3, buf, sizeof(buf));
	th_exec(t, &cmd, cdb, mmc_cdb_read_capacity10(cdb), buf, 8);
	th_exec(t, &cmd, cdb, mmc_cdb_read_capacity10(cdb), buf, 8);
	do_read(t, &cmd, MMC_READ16, 1ull << 32, 1, buf, 2048);
	assert_int_equal(read1(t, &cmd, 60, 4), CDT_ETIMEOUT);
	th_exec(t, &cmd, cdb, mmc_cdb_inquiry(cdb, 36), buf, 36);
	th_exec(t, &cmd, (const uint8_t[16]){ 0x2a }, 10, NULL, 0);
	read1(t, &cmd, 98, 1);
	sim_close(t);
	text = slurp(path);
	assert_string_equal(text, want);
	free(text);

	/* appended, never truncated */
	assert_int_equal(cdt_sim_open(spec, &t, err, sizeof(err)), 0);
	read1(t, &cmd, 0, 2);
	sim_close(t);
	text = slurp(path);
	assert_int_equal(strlen(text), strlen(want) + strlen("28 lba=0 blocks=2 sense=00/00/00\n"));
	assert_int_equal(strncmp(text, want, strlen(want)), 0);
	free(text);
}

/* ---- identification and disc structure -------------------------------------- */

static void test_inquiry(void **state)
{
	struct cdt_transport *t = open_disc("");
	uint8_t cdb[16], buf[96];
	struct cdt_cmd cmd;
	struct mmc_inquiry inq;

	(void)state;
	th_exec(t, &cmd, cdb, mmc_cdb_inquiry(cdb, 96), buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 96 - 36);
	TH_EXPECT_AT(buf, { 0, 0x05 }, { 1, 0x80 }, { 2, 0x05 });
	assert_int_equal(buf[3] & 0x0f, 0x02);
	assert_int_equal(buf[4], 31);
	assert_memory_equal(buf + 8, "CDTAIL  EMULATED DRIVE  1.0 ", 28);
	assert_int_equal(mmc_parse_inquiry(buf, 36, &inq), 0);
	assert_int_equal(inq.peripheral_type, 5);
	assert_true(inq.removable);
	assert_string_equal(inq.vendor, "CDTAIL");
	assert_string_equal(inq.product, "EMULATED DRIVE");
	assert_string_equal(inq.revision, "1.0");

	/* allocation length 5: the header only */
	memset(buf, 0xee, sizeof(buf));
	th_exec(t, &cmd, cdb, mmc_cdb_inquiry(cdb, 5), buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 96 - 5);
	assert_int_equal(buf[4], 31);
	assert_int_equal(buf[5], 0xee);

	cdb[1] = 0x01;		/* EVPD */
	cdb[2] = 0x80;
	th_exec(t, &cmd, cdb, 6, buf, sizeof(buf));
	th_expect_sense(&cmd, 5, 0x24, 0);
	sim_close(t);
}

static void test_tur_request_sense(void **state)
{
	struct cdt_transport *t = open_disc("");
	uint8_t cdb[6] = { MMC_REQUEST_SENSE, 0, 0, 0, 252, 0 };
	uint8_t buf[252];
	struct cdt_cmd cmd;

	(void)state;
	assert_int_equal(th_exec(t, &cmd, (const uint8_t[6]){ 0 }, 6, NULL, 0), 0);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 0);
	memset(buf, 0xee, sizeof(buf));
	th_exec(t, &cmd, cdb, 6, buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, sizeof(buf) - 18);
	TH_EXPECT_AT(buf, { 0, 0x70 }, { 2, 0 }, { 7, 10 }, { 12, 0 }, { 13, 0 },
		     { 18, 0xee });
	sim_close(t);
}

static void get_config(struct cdt_transport *t, struct cdt_cmd *cmd,
		       uint8_t rt, uint16_t start, uint16_t alloc,
		       uint8_t *buf, uint32_t len)
{
	uint8_t cdb[16];

	memset(buf, 0xee, len);
	th_exec(t, cmd, cdb, mmc_cdb_get_configuration(cdb, rt, start, alloc),
		 buf, len);
}

static void check_config(struct cdt_transport *t, uint16_t want_profile)
{
	uint8_t buf[64];
	struct cdt_cmd cmd;
	uint16_t profile;

	get_config(t, &cmd, 0, 0, sizeof(buf), buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, sizeof(buf) - 24);
	/* the length field covers exactly what follows it */
	assert_int_equal(th_be32(buf), 24 - 4);
	assert_int_equal(mmc_parse_config_header(buf, 24, &profile), 0);
	assert_int_equal(profile, want_profile);
	/* feature 0000h: one profile descriptor, the current one */
	assert_int_equal(th_be16(buf + 8), 0x0000);
	assert_int_equal(buf[10] & 0x01, 1);
	assert_int_equal(buf[11], 4);
	assert_int_equal(th_be16(buf + 12), want_profile);
	assert_int_equal(buf[14] & 0x01, 1);
	/* feature 0001h core: SCSI family */
	assert_int_equal(th_be16(buf + 16), 0x0001);
	assert_int_equal(buf[18] & 0x01, 1);
	assert_int_equal(buf[19], 4);
	assert_int_equal(th_be32(buf + 20), 1);
	assert_int_equal(buf[24], 0xee);

	/* the header alone */
	get_config(t, &cmd, 0, 0, 8, buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, sizeof(buf) - 8);
	assert_int_equal(th_be32(buf), 20);
	assert_int_equal(th_be16(buf + 6), want_profile);
	assert_int_equal(buf[8], 0xee);

	/* RT 2: just the one feature asked for */
	get_config(t, &cmd, 2, 1, sizeof(buf), buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, sizeof(buf) - 16);
	assert_int_equal(th_be32(buf), 12);
	assert_int_equal(th_be16(buf + 8), 0x0001);
	/* RT 1 from feature 2: header only, still the current profile */
	get_config(t, &cmd, 1, 2, sizeof(buf), buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(th_be32(buf), 4);
	assert_int_equal(th_be16(buf + 6), want_profile);
	get_config(t, &cmd, 3, 0, sizeof(buf), buf, sizeof(buf));
	th_expect_sense(&cmd, 5, 0x24, 0);
}

static void test_get_configuration(void **state)
{
	struct cdt_transport *t = open_disc("");
	char err[256];

	(void)state;
	check_config(t, 0x0008);
	sim_close(t);
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s", big), 0);
	check_config(t, 0x0010);
	sim_close(t);
	/* 1e9 bytes in 512-byte blocks: still a DVD */
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s,block=512", big), 0);
	check_config(t, 0x0010);
	sim_close(t);
}

static void test_disc_info(void **state)
{
	static const uint8_t want[34] = {
		0, 32, 0x0e, 1, 1, 1, 1, 0, 0x00, 0, 0, 0,
		0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	struct cdt_transport *t = open_disc("hide=3");
	uint8_t cdb[16], buf[64];
	struct cdt_cmd cmd;
	struct mmc_disc_info di;

	(void)state;
	th_exec(t, &cmd, cdb, mmc_cdb_read_disc_info(cdb, 64), buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 64 - 34);
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(mmc_parse_disc_info(buf, 34, &di), 0);
	assert_int_equal(di.disc_status, 2);
	assert_int_equal(di.last_session_state, 3);
	assert_int_equal(di.n_sessions, 1);
	assert_int_equal(di.last_leadout, -1);
	assert_int_equal(di.last_session_leadin, -1);
	th_exec(t, &cmd, cdb, mmc_cdb_read_disc_info(cdb, 2), buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 62);
	cdb[1] = 0x01;		/* track resources: not emulated */
	th_exec(t, &cmd, cdb, 10, buf, sizeof(buf));
	th_expect_sense(&cmd, 5, 0x24, 0);
	sim_close(t);
}

static void test_track_info(void **state)
{
	struct cdt_transport *t = open_disc("hide=3");
	uint8_t cdb[16], buf[64];
	struct cdt_cmd cmd;
	struct mmc_track_info ti;

	(void)state;
	th_exec(t, &cmd, cdb, mmc_cdb_read_track_info(cdb, 1, 64), buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 64 - 36);
	assert_int_equal(th_be16(buf), 34);
	assert_int_equal(mmc_parse_track_info(buf, 36, &ti), 0);
	assert_int_equal(ti.track, 1);
	assert_int_equal(ti.session, 1);
	assert_int_equal(ti.track_mode, 4);
	assert_int_equal(ti.data_mode, 1);
	assert_false(ti.blank);
	assert_false(ti.nwa_valid);
	assert_true(ti.lra_valid);
	assert_int_equal(ti.start, 0);
	assert_int_equal(ti.free_blocks, 0);
	assert_int_equal(ti.size, DISC_BLOCKS - 3);
	assert_int_equal(ti.last_recorded, DISC_BLOCKS - 4);

	th_exec(t, &cmd, cdb, mmc_cdb_read_track_info(cdb, 2, 64), buf, sizeof(buf));
	th_expect_sense(&cmd, 5, 0x24, 0);
	th_exec(t, &cmd, cdb, mmc_cdb_read_track_info(cdb, 0, 64), buf, sizeof(buf));
	th_expect_sense(&cmd, 5, 0x24, 0);

	/* address type 0: an LBA inside track 1, then one outside */
	mmc_cdb_read_track_info(cdb, 50, 64);
	cdb[1] = 0x00;
	th_exec(t, &cmd, cdb, 10, buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(buf[2], 1);
	mmc_cdb_read_track_info(cdb, DISC_BLOCKS - 3, 64);
	cdb[1] = 0x00;
	th_exec(t, &cmd, cdb, 10, buf, sizeof(buf));
	th_expect_sense(&cmd, 5, 0x21, 0);

	/* allocation length honoured */
	memset(buf, 0xee, sizeof(buf));
	th_exec(t, &cmd, cdb, mmc_cdb_read_track_info(cdb, 1, 28), buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 64 - 28);
	assert_int_equal(buf[28], 0xee);
	sim_close(t);
}

static void test_mode_sense(void **state)
{
	struct cdt_transport *t = open_disc("");
	uint8_t cdb[16], buf[256];
	struct cdt_cmd cmd;
	struct mmc_mode_caching mc;

	(void)state;
	/* caching page */
	th_exec(t, &cmd, cdb, mmc_cdb_mode_sense10(cdb, 0x08, 252), buf, 252);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 252 - 28);
	assert_int_equal(th_be16(buf), 26);
	assert_int_equal(buf[3], 0);
	assert_int_equal(th_be16(buf + 6), 0);
	assert_int_equal(buf[8], 0x08);
	assert_int_equal(buf[9], 0x12);
	assert_int_equal(mmc_parse_mode_sense10_caching(buf, 28, &mc), 0);
	assert_true(mc.have_caching);
	assert_false(mc.wce);
	assert_false(mc.rcd);
	assert_false(mc.dpofua);

	/* capabilities page */
	th_exec(t, &cmd, cdb, mmc_cdb_mode_sense10(cdb, 0x2a, 252), buf, 252);
	th_expect_good(&cmd);
	assert_int_equal(th_be16(buf), 6 + 22);
	assert_int_equal(cmd.resid, 252 - 30);
	assert_int_equal(buf[8], 0x2a);
	assert_true(buf[9] >= 0x14);
	assert_int_equal(mmc_parse_mode_sense10_caching(buf, 30, &mc), 0);
	assert_false(mc.have_caching);

	/* all pages, in order */
	th_exec(t, &cmd, cdb, mmc_cdb_mode_sense10(cdb, 0x3f, 252), buf, 252);
	th_expect_good(&cmd);
	assert_int_equal(th_be16(buf), 6 + 20 + 22);
	assert_int_equal(cmd.resid, 252 - 50);
	assert_int_equal(buf[8], 0x08);
	assert_int_equal(buf[28], 0x2a);
	assert_int_equal(mmc_parse_mode_sense10_caching(buf, 50, &mc), 0);
	assert_true(mc.have_caching);

	/* allocation length: the header only */
	memset(buf, 0xee, sizeof(buf));
	th_exec(t, &cmd, cdb, mmc_cdb_mode_sense10(cdb, 0x3f, 8), buf, 252);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 252 - 8);
	assert_int_equal(th_be16(buf), 48);
	assert_int_equal(buf[8], 0xee);

	/* unknown page, sub-page, saved values */
	th_exec(t, &cmd, cdb, mmc_cdb_mode_sense10(cdb, 0x01, 252), buf, 252);
	th_expect_sense(&cmd, 5, 0x24, 0);
	mmc_cdb_mode_sense10(cdb, 0x08, 252);
	cdb[3] = 1;
	th_exec(t, &cmd, cdb, 10, buf, 252);
	th_expect_sense(&cmd, 5, 0x24, 0);
	mmc_cdb_mode_sense10(cdb, 0x08, 252);
	cdb[2] |= 0xc0;
	th_exec(t, &cmd, cdb, 10, buf, 252);
	th_expect_sense(&cmd, 5, 0x39, 0);
	/* changeable values: the same layout, nothing changeable */
	mmc_cdb_mode_sense10(cdb, 0x2a, 252);
	cdb[2] |= 0x40;
	th_exec(t, &cmd, cdb, 10, buf, 252);
	th_expect_good(&cmd);
	assert_int_equal(buf[8], 0x2a);
	for (int i = 10; i < 30; i++)
		assert_int_equal(buf[i], 0);
	sim_close(t);
}

static void test_invalid_opcodes(void **state)
{
	/* writes, MODE SELECT, START STOP, READ CD, MODE SENSE(6), ... */
	static const uint8_t ops[] = { 0x2a, 0xaa, 0x8a, 0x55, 0x15, 0x1b,
				       0xbe, 0x1a, 0x35, 0x04, 0xa0, 0xff };
	struct cdt_transport *t = open_disc("");
	uint8_t buf[64];
	struct cdt_cmd cmd;

	(void)state;
	for (size_t i = 0; i < sizeof(ops); i++) {
		uint8_t cdb[16] = { ops[i] };

		memset(buf, 0xee, sizeof(buf));
		assert_int_equal(th_exec(t, &cmd, cdb, 16, buf, sizeof(buf)), 0);
		th_expect_sense(&cmd, 5, 0x20, 0);
		assert_int_equal(cmd.resid, sizeof(buf));
		assert_int_equal(buf[0], 0xee);
	}
	/* READ CAPACITY(16) is the only service action of 9Eh */
	th_exec(t, &cmd, (const uint8_t[16]){ 0x9e, 0x11 }, 16, buf, 32);
	th_expect_sense(&cmd, 5, 0x24, 0);
	sim_close(t);
}

/* ---- quirks of real targets -------------------------------------------------- */

static void test_past_medium(void **state)
{
	struct cdt_transport *t = open_disc("past=medium,info=1");
	uint8_t buf[4 * 2048];
	struct cdt_cmd cmd;

	(void)state;
	read_expect(t, &cmd, DISC_BLOCKS - 1, 1, 0, 0, 0);
	/* tgt: past its backing file a read is unreadable, not out of range */
	read_expect(t, &cmd, DISC_BLOCKS, 1, 3, 0x11, 0);
	assert_int_equal(cmd.resid, 2048);
	assert_int_equal(sense_info(&cmd), DISC_BLOCKS);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(do_read(t, &cmd, MMC_READ12, DISC_BLOCKS - 2, 4, buf,
				 sizeof(buf)), 0);
	th_expect_sense(&cmd, 3, 0x11, 0);
	assert_int_equal(cmd.resid, 2 * 2048);
	assert_blocks(buf, DISC_BLOCKS - 2, 2, 2048);
	assert_int_equal(do_read(t, &cmd, MMC_READ16, 1ull << 40, 1, buf, 2048), 0);
	th_expect_sense(&cmd, 3, 0x11, 0);
	sim_close(t);

	/* run-out blocks below N keep their own answer; past=end is the default */
	t = open_disc("past=medium,runout=2");
	read_expect(t, &cmd, DISC_BLOCKS - 1, 1, 5, 0x64, 0);
	read_expect(t, &cmd, DISC_BLOCKS, 1, 3, 0x11, 0);
	sim_close(t);
	t = open_disc("past=end");
	read_expect(t, &cmd, DISC_BLOCKS, 1, 5, 0x21, 0);
	sim_close(t);
}

static void test_reveal(void **state)
{
	struct cdt_transport *t = open_disc("reveal=1,hide=5");
	uint8_t buf[4 * 2048], cdb[16];
	struct cdt_cmd cmd;
	uint32_t bs;

	(void)state;
	assert_int_equal(capacity(t, &bs), DISC_BLOCKS - 5);
	/* reads below the reported end change nothing */
	assert_int_equal(read1(t, &cmd, 50, 4), 0);
	assert_int_equal(capacity(t, &bs), DISC_BLOCKS - 5);
	/* a good read of a hidden block grows it to cover the read */
	read_expect(t, &cmd, DISC_BLOCKS - 3, 1, 0, 0, 0);
	assert_int_equal(capacity(t, &bs), DISC_BLOCKS - 2);
	/* so does a failing one, to its last LBA, and it stays */
	read_expect(t, &cmd, DISC_BLOCKS + 20, 2, 5, 0x21, 0);
	assert_int_equal(capacity(t, &bs), DISC_BLOCKS + 22);
	assert_int_equal(read1(t, &cmd, 0, 1), 0);
	assert_int_equal(capacity(t, &bs), DISC_BLOCKS + 22);
	/* a read of no blocks touches nothing */
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 500, 0, buf, sizeof(buf)), 0);
	assert_int_equal(capacity(t, &bs), DISC_BLOCKS + 22);
	/* the TOC keeps the answer from before */
	assert_int_equal(toc_leadout(t, false), DISC_BLOCKS - 5);
	/* beyond 32 bits: (16) says it, (10) saturates */
	assert_int_equal(do_read(t, &cmd, MMC_READ16, 1ull << 40, 1, buf, 2048), 0);
	th_exec(t, &cmd, cdb, mmc_cdb_read_capacity10(cdb), buf, 8);
	th_expect_good(&cmd);
	assert_int_equal(th_be32(buf), 0xffffffffu);
	th_exec(t, &cmd, cdb, mmc_cdb_read_capacity16(cdb, 32), buf, 32);
	th_expect_good(&cmd);
	assert_int_equal(th_be32(buf), 1u << 8);
	assert_int_equal(th_be32(buf + 4), 0);
	sim_close(t);

	/* off by default: the drive never grows */
	t = open_disc("hide=5");
	assert_int_equal(read1(t, &cmd, DISC_BLOCKS + 20, 2), 0);
	assert_int_equal(read1(t, &cmd, DISC_BLOCKS - 1, 1), 0);
	assert_int_equal(capacity(t, &bs), DISC_BLOCKS - 5);
	sim_close(t);
}

static void test_toc_cut(void **state)
{
	/* as toc=reported with hide=5, the last 2 bytes never sent */
	static const uint8_t want[18] = {
		0, 18, 1, 1,
		0, 0x14, 1, 0, 0, 0, 0, 0,
		0, 0x14, 0xaa, 0, 0, 0,
	};
	struct cdt_transport *t = open_disc("toc=cut,hide=5");
	uint8_t cdb[16], buf[64];
	struct cdt_cmd cmd;

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 0, false, 1, 64), buf, 64);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 64 - 18);
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(buf[18], 0xee);
	assert_int_equal(buf[19], 0xee);
	/* MSF, and the lead-out alone: cut the same way */
	memset(buf, 0xee, sizeof(buf));
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 0, true, 0xaa, 64), buf, 64);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 64 - 10);
	assert_int_equal(th_be16(buf), 10);
	assert_int_equal(buf[6], 0xaa);
	assert_int_equal(buf[10], 0xee);
	/* an allocation shorter than the cut answer still rules */
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 0, false, 1, 12), buf, 64);
	assert_int_equal(cmd.resid, 64 - 12);
	/* format 1 is whole */
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 1, false, 0, 64), buf, 64);
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 64 - 12);
	assert_int_equal(th_be16(buf), 10);
	sim_close(t);
}

static void test_getconf_full(void **state)
{
	struct cdt_transport *t = open_disc("getconf=full");
	uint8_t buf[64];
	struct cdt_cmd cmd;
	uint16_t profile;

	(void)state;
	/* the whole allocation moves; the header still says 24 bytes */
	get_config(t, &cmd, 0, 0, sizeof(buf), buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(cmd.resid, 0);
	assert_int_equal(th_be32(buf), 24 - 4);
	assert_int_equal(mmc_parse_config_header(buf, sizeof(buf), &profile), 0);
	assert_int_equal(profile, 0x0008);
	assert_int_equal(th_be16(buf + 16), 0x0001);
	for (size_t i = 24; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0);
	/* RT 2 of feature 1: header and one feature, then zeros */
	get_config(t, &cmd, 2, 1, sizeof(buf), buf, sizeof(buf));
	assert_int_equal(cmd.resid, 0);
	assert_int_equal(th_be32(buf), 12);
	assert_int_equal(buf[16], 0);
	/* never past the allocation length, nor the buffer */
	get_config(t, &cmd, 0, 0, 30, buf, sizeof(buf));
	assert_int_equal(cmd.resid, sizeof(buf) - 30);
	assert_int_equal(buf[29], 0);
	assert_int_equal(buf[30], 0xee);
	memset(buf, 0xee, sizeof(buf));
	get_config(t, &cmd, 0, 0, 64, buf, 8);
	assert_int_equal(cmd.resid, 0);
	assert_int_equal(th_be32(buf), 20);
	assert_int_equal(buf[8], 0xee);
	sim_close(t);

	t = open_disc("getconf=exact");
	get_config(t, &cmd, 0, 0, sizeof(buf), buf, sizeof(buf));
	assert_int_equal(cmd.resid, sizeof(buf) - 24);
	assert_int_equal(buf[24], 0xee);
	sim_close(t);
}

static void test_stale(void **state)
{
	struct cdt_transport *t = open_disc("stale=1,bad=40-40");
	uint8_t buf[4 * 2048];
	struct cdt_cmd cmd;

	(void)state;
	/* before any good read, a failing one sends zeros */
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(do_read(t, &cmd, MMC_READ10, DISC_BLOCKS, 2, buf,
				 sizeof(buf)), 0);
	th_expect_sense(&cmd, 5, 0x21, 0);
	assert_int_equal(cmd.resid, 2 * 2048);
	for (size_t i = 0; i < 2 * 2048; i++)
		assert_int_equal(buf[i], 0);
	assert_int_equal(buf[2 * 2048], 0xee);

	assert_int_equal(do_read(t, &cmd, MMC_READ10, 10, 4, buf, sizeof(buf)), 0);
	th_expect_good(&cmd);
	/* the good blocks first, then what the last read left behind */
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(do_read(t, &cmd, MMC_READ10, DISC_BLOCKS - 1, 3, buf,
				 3 * 2048), 0);
	th_expect_sense(&cmd, 5, 0x21, 0);
	assert_int_equal(cmd.resid, 0);
	assert_blocks(buf, DISC_BLOCKS - 1, 1, 2048);
	assert_blocks(buf + 2048, 11, 2, 2048);
	/* a failure's buffer is the next failure's stale data, zeros past it */
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 40, 4, buf, sizeof(buf)), 0);
	th_expect_sense(&cmd, 3, 0x11, 0);
	assert_int_equal(cmd.resid, 0);
	assert_blocks(buf, DISC_BLOCKS - 1, 1, 2048);
	assert_blocks(buf + 2048, 11, 2, 2048);
	for (size_t i = 3 * 2048; i < 4 * 2048; i++)
		assert_int_equal(buf[i], 0);
	sim_close(t);

	/* off by default: nothing arrives after the failing block */
	t = open_disc("stale=0");
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 10, 4, buf, sizeof(buf)), 0);
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(do_read(t, &cmd, MMC_READ10, DISC_BLOCKS - 1, 3, buf,
				 sizeof(buf)), 0);
	assert_int_equal(cmd.resid, 3 * 2048);
	assert_int_equal(buf[2048], 0xee);
	sim_close(t);
}

static void test_info_modes(void **state)
{
	struct cdt_transport *t = open_disc("bad=20-30,info=zero");
	uint8_t buf[8 * 2048];
	struct cdt_cmd cmd;

	(void)state;
	/* QEMU IDE/AHCI: VALID with INFORMATION 0, whatever failed */
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 17, 8, buf, sizeof(buf)), 0);
	th_expect_sense(&cmd, 3, 0x11, 0);
	assert_int_equal(cmd.sense[0], 0xf0);
	assert_int_equal(sense_info(&cmd), 0);
	read_expect(t, &cmd, DISC_BLOCKS, 1, 5, 0x21, 0);
	assert_int_equal(cmd.sense[0], 0xf0);
	assert_int_equal(sense_info(&cmd), 0);
	assert_int_equal(do_read(t, &cmd, MMC_READ16, 1ull << 40, 1, buf, 2048), 0);
	assert_int_equal(cmd.sense[0], 0xf0);
	assert_int_equal(sense_info(&cmd), 0);
	sim_close(t);

	/* the command's first LBA, not the failing one */
	t = open_disc("bad=20-30,info=start");
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 17, 8, buf, sizeof(buf)), 0);
	th_expect_sense(&cmd, 3, 0x11, 0);
	assert_int_equal(cmd.sense[0], 0xf0);
	assert_int_equal(sense_info(&cmd), 17);
	assert_int_equal(do_read(t, &cmd, MMC_READ12, DISC_BLOCKS - 2, 4, buf,
				 4 * 2048), 0);
	th_expect_sense(&cmd, 5, 0x21, 0);
	assert_int_equal(sense_info(&cmd), DISC_BLOCKS - 2);
	/* no 32-bit INFORMATION for a wider LBA: VALID stays clear */
	assert_int_equal(do_read(t, &cmd, MMC_READ16, 1ull << 40, 1, buf, 2048), 0);
	th_expect_sense(&cmd, 5, 0x21, 0);
	assert_int_equal(cmd.sense[0], 0x70);
	/* good reads carry no sense */
	read_expect(t, &cmd, 5, 1, 0, 0, 0);
	sim_close(t);

	/* scsi_debug: one constant, whatever failed */
	t = open_disc("bad=20-30,info=fixed:4660");
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 17, 8, buf, sizeof(buf)), 0);
	th_expect_sense(&cmd, 3, 0x11, 0);
	assert_int_equal(cmd.sense[0], 0xf0);
	assert_int_equal(sense_info(&cmd), 4660);
	read_expect(t, &cmd, DISC_BLOCKS, 1, 5, 0x21, 0);
	assert_int_equal(sense_info(&cmd), 4660);
	sim_close(t);
}

static void test_cdb16(void **state)
{
	struct cdt_transport *t = open_disc("cdb16=0");
	uint8_t buf[2048], cdb[16];
	struct cdt_cmd cmd;

	(void)state;
	/* tgt knows neither 16-byte command */
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(do_read(t, &cmd, MMC_READ16, 5, 1, buf, sizeof(buf)), 0);
	th_expect_sense(&cmd, 5, 0x20, 0);
	assert_int_equal(cmd.resid, sizeof(buf));
	assert_int_equal(buf[0], 0xee);
	th_exec(t, &cmd, cdb, mmc_cdb_read_capacity16(cdb, 32), buf, 32);
	th_expect_sense(&cmd, 5, 0x20, 0);
	assert_int_equal(cmd.resid, 32);
	/* the 10- and 12-byte forms are unchanged */
	assert_int_equal(do_read(t, &cmd, MMC_READ10, 5, 1, buf, sizeof(buf)), 0);
	th_expect_good(&cmd);
	assert_int_equal(do_read(t, &cmd, MMC_READ12, 5, 1, buf, sizeof(buf)), 0);
	th_expect_good(&cmd);
	assert_blocks(buf, 5, 1, 2048);
	th_exec(t, &cmd, cdb, mmc_cdb_read_capacity10(cdb), buf, 8);
	th_expect_good(&cmd);
	assert_int_equal(th_be32(buf), DISC_BLOCKS - 1);
	sim_close(t);

	t = open_disc("cdb16=1");
	assert_int_equal(do_read(t, &cmd, MMC_READ16, 5, 1, buf, sizeof(buf)), 0);
	th_expect_good(&cmd);
	sim_close(t);
}

/* ---- the image ---------------------------------------------------------------- */

static void test_image_untouched(void **state)
{
	char path[256];
	struct stat before, after;
	struct cdt_transport *t;
	uint8_t buf[8 * 2048];
	struct cdt_cmd cmd;
	char err[256];
	uint8_t *data;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/ro.iso", dir);
	write_image(path, 20 * 2048);
	/* mtime in the past, so that any write would show */
	struct timespec old[2] = { { 1000000, 0 }, { 1000000, 0 } };
	assert_int_equal(utimensat(AT_FDCWD, path, old, 0), 0);
	assert_int_equal(stat(path, &before), 0);
	assert_int_equal(th_sim_open(&t, err, sizeof(err),
				  "%s,hide=2,bad=3-4,flaky=5-6:1,runout=1", path), 0);
	for (uint64_t lba = 0; lba < 24; lba++)
		do_read(t, &cmd, MMC_READ10, lba, 4, buf, sizeof(buf));
	capacity(t, &(uint32_t){ 0 });
	sim_close(t);
	assert_int_equal(stat(path, &after), 0);
	assert_int_equal(before.st_size, after.st_size);
	assert_int_equal(before.st_mtim.tv_sec, after.st_mtim.tv_sec);
	assert_int_equal(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
	data = malloc(20 * 2048);
	assert_non_null(data);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, data, 20 * 2048), 20 * 2048);
	close(fd);
	assert_blocks(data, 0, 20, 2048);
	free(data);

	/* a read-only image file is fine: it is only ever opened read-only */
	assert_int_equal(chmod(path, 0444), 0);
	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s", path), 0);
	sim_close(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_plain),
		cmocka_unit_test(test_open_missing),
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_edge_specs_ok),
		cmocka_unit_test(test_spec_escapes_and_ranges),
		cmocka_unit_test(test_reads_all_opcodes),
		cmocka_unit_test(test_read_past_end),
		cmocka_unit_test(test_read_zero_and_short_buffer),
		cmocka_unit_test(test_block512),
		cmocka_unit_test(test_hide),
		cmocka_unit_test(test_extra),
		cmocka_unit_test(test_toc_modes),
		cmocka_unit_test(test_toc_layout),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_runout),
		cmocka_unit_test(test_flaky),
		cmocka_unit_test(test_two_sims_independent),
		cmocka_unit_test(test_info),
		cmocka_unit_test(test_ua),
		cmocka_unit_test(test_hang),
		cmocka_unit_test(test_cost),
		cmocka_unit_test(test_sleep),
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_inquiry),
		cmocka_unit_test(test_tur_request_sense),
		cmocka_unit_test(test_get_configuration),
		cmocka_unit_test(test_disc_info),
		cmocka_unit_test(test_track_info),
		cmocka_unit_test(test_mode_sense),
		cmocka_unit_test(test_invalid_opcodes),
		cmocka_unit_test(test_past_medium),
		cmocka_unit_test(test_reveal),
		cmocka_unit_test(test_toc_cut),
		cmocka_unit_test(test_getconf_full),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_info_modes),
		cmocka_unit_test(test_cdb16),
		cmocka_unit_test(test_image_untouched),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
