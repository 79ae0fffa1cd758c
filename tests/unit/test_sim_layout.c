// SPDX-License-Identifier: MIT
/*
 * The emulated drive's disc kinds (issue 12): layout=, gap=, tao=, open=,
 * profile=, formatted=.  Each answer is checked byte for byte against
 * what MMC says the drive sends, computed here independently (the M:S:F
 * arithmetic included) from the layout the test gives.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "cdtail.h"
#include "mmc/mmc.h"
#include "transport/transport.h"
#include "th.h"

static char dir[64];
static char extra_img[128];	/* CD-Extra: audio:300+audio:200/data:100 */
static char mixed_img[128];	/* mixed mode: data:1000+audio:500 */
static char three_img[128];	/* data:100/data:50/data:30 */
static char small_img[128];	/* 100 blocks */

#define EXTRA_N (300 + 200 + 11400 + 100)
#define MIXED_N 1500
#define THREE_N (100 + 11400 + 50 + 6900 + 30)

static uint8_t pattern(uint64_t off)
{
	return (uint8_t)(off / 2048 * 13 + off % 251 + 1);
}

static void write_image(const char *path, uint64_t blocks)
{
	uint8_t buf[2048];
	uint64_t b;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	for (b = 0; b < blocks; b++) {
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = pattern(b * 2048 + i);
		assert_int_equal(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	}
	close(fd);
}

static int group_setup(void **state)
{
	static const struct {
		char *path;	/* of sizeof(extra_img) bytes */
		const char *name;
		uint64_t blocks;
	} images[] = {
		{ extra_img, "extra.img", EXTRA_N },
		{ mixed_img, "mixed.img", MIXED_N },
		{ three_img, "three.img", THREE_N },
		{ small_img, "small.img", 100 },
	};

	(void)state;
	if (th_tmpdir(dir, sizeof(dir), "test-simlayout"))
		return -1;
	for (size_t i = 0; i < TH_N(images); i++) {
		th_path(images[i].path, sizeof(extra_img), dir, images[i].name);
		write_image(images[i].path, images[i].blocks);
	}
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	return th_rmrf(dir);
}

/* ---- helpers ---------------------------------------------------------------- */

static struct cdt_transport *open_img(const char *img, const char *keys)
{
	struct cdt_transport *t = NULL;
	char err[256];

	if (th_sim_open(&t, err, sizeof(err), "%s,%s", img, keys))
		fail_msg("open %s: %s", keys, err);
	return t;
}

static uint8_t rbuf[8 * 2048];

/* READ(10) of n blocks at lba; the return is the transport's */
static int rd10(struct cdt_transport *t, struct cdt_cmd *cmd, uint32_t lba,
		uint16_t n)
{
	uint8_t cdb[16];

	memset(rbuf, 0xee, sizeof(rbuf));
	return th_exec(t, cmd, cdb, mmc_cdb_read10(cdb, lba, n), rbuf, n * 2048u);
}

static void assert_image_blocks(uint64_t lba, unsigned int n)
{
	for (size_t i = 0; i < n * 2048u; i++)
		if (rbuf[i] != pattern(lba * 2048 + i))
			fail_msg("byte %zu of the read at %llu differs", i,
				 (unsigned long long)lba);
}

static void assert_zero_blocks(unsigned int n)
{
	for (size_t i = 0; i < n * 2048u; i++)
		if (rbuf[i])
			fail_msg("byte %zu is not zero", i);
}

/* M:S:F of an LBA: an absolute time, 150 frames (2 s) before LBA 0 */
static void msf(uint64_t lba, uint8_t *p)
{
	uint64_t f = lba + 150;

	p[0] = (uint8_t)(f / (60 * 75));
	p[1] = (uint8_t)(f / 75 % 60);
	p[2] = (uint8_t)(f % 75);
}

static size_t toc_entry(uint8_t *p, uint8_t control, uint8_t track,
			uint64_t lba, bool as_msf)
{
	memset(p, 0, 8);
	p[1] = 0x10 | control;
	p[2] = track;
	if (as_msf) {
		msf(lba, p + 5);
	} else {
		p[4] = (uint8_t)(lba >> 24);
		p[5] = (uint8_t)(lba >> 16);
		p[6] = (uint8_t)(lba >> 8);
		p[7] = (uint8_t)lba;
	}
	return 8;
}

static void toc_header(uint8_t *p, size_t len, uint8_t first, uint8_t last)
{
	p[0] = (uint8_t)((len - 2) >> 8);
	p[1] = (uint8_t)(len - 2);
	p[2] = first;
	p[3] = last;
}

/* A full-TOC descriptor whose P field is a time */
static size_t full_time(uint8_t *p, uint8_t sn, uint8_t adrctl, uint8_t point,
			int64_t at, uint64_t plba)
{
	memset(p, 0, 11);
	p[0] = sn;
	p[1] = adrctl;
	p[3] = point;
	if (at >= 0)
		msf((uint64_t)at, p + 4);
	msf(plba, p + 8);
	return 11;
}

static size_t full_num(uint8_t *p, uint8_t sn, uint8_t adrctl, uint8_t point,
		       uint8_t pmin, uint8_t psec)
{
	memset(p, 0, 11);
	p[0] = sn;
	p[1] = adrctl;
	p[3] = point;
	p[8] = pmin;
	p[9] = psec;
	return 11;
}

static void read_toc(struct cdt_transport *t, uint8_t format, bool as_msf,
		     uint8_t track, uint8_t *buf, size_t len)
{
	uint8_t cdb[16];
	struct cdt_cmd cmd;

	memset(buf, 0xee, len);
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, format, as_msf, track,
						(uint16_t)len), buf, (uint32_t)len);
	th_expect_good(&cmd);
}

static void check_toc(struct cdt_transport *t, uint8_t format, bool as_msf,
		      const uint8_t *want, size_t len)
{
	uint8_t buf[1024];

	read_toc(t, format, as_msf, 0, buf, sizeof(buf));
	assert_memory_equal(buf, want, len);
	assert_int_equal(buf[len], 0xee);
}

static uint32_t capacity(struct cdt_transport *t)
{
	uint8_t cdb[16], buf[8];
	struct cdt_cmd cmd;

	th_exec(t, &cmd, cdb, mmc_cdb_read_capacity10(cdb), buf, 8);
	th_expect_good(&cmd);
	return th_be32(buf) + 1;
}

static void disc_info(struct cdt_transport *t, uint8_t *buf)
{
	uint8_t cdb[10] = { MMC_READ_DISC_INFO, 0, 0, 0, 0, 0, 0, 0, 34, 0 };
	struct cdt_cmd cmd;

	th_exec(t, &cmd, cdb, 10, buf, 34);
	th_expect_good(&cmd);
}

static void track_info(struct cdt_transport *t, struct cdt_cmd *cmd,
		       uint8_t type, uint32_t addr, uint8_t *buf)
{
	uint8_t cdb[10] = { MMC_READ_TRACK_INFO, type, (uint8_t)(addr >> 24),
			    (uint8_t)(addr >> 16), (uint8_t)(addr >> 8),
			    (uint8_t)addr, 0, 0, 36, 0 };

	memset(buf, 0xee, 36);
	th_exec(t, cmd, cdb, 10, buf, 36);
}

/* track information: number, session, mode, start, size, LRA */
static void check_track(struct cdt_transport *t, uint8_t type, uint32_t addr,
			uint8_t number, uint8_t session, bool audio,
			uint32_t start, uint32_t size)
{
	struct cdt_cmd cmd;
	uint8_t buf[36];

	track_info(t, &cmd, type, addr, buf);
	th_expect_good(&cmd);
	assert_int_equal(buf[2], number);
	assert_int_equal(buf[3], session);
	assert_int_equal(buf[5] & 0x0f, audio ? 0 : 4);
	assert_int_equal(buf[6] & 0x0f, audio ? 0x0f : 0x01);
	assert_int_equal(buf[6] & 0x40, 0);	/* not blank */
	assert_int_equal(buf[7] & 0x02, 0x02);	/* LRA_V */
	assert_int_equal(th_be32(buf + 8), start);
	assert_int_equal(th_be32(buf + 24), size);
	assert_int_equal(th_be32(buf + 28), start + size - 1);
}

/* ---- READ TOC ---------------------------------------------------------------- */

static void test_toc_cd_extra(void **state)
{
	struct cdt_transport *t = open_img(extra_img,
					   "layout=audio:300+audio:200/data:100");
	uint8_t want[256];
	size_t len;

	(void)state;
	for (int m = 0; m < 2; m++) {
		len = 4;
		len += toc_entry(want + len, 0, 1, 0, m);
		len += toc_entry(want + len, 0, 2, 300, m);
		len += toc_entry(want + len, 4, 3, 11900, m);
		len += toc_entry(want + len, 4, 0xaa, EXTRA_N, m);
		toc_header(want, len, 1, 3);
		check_toc(t, 0, m, want, len);
	}
	/* format 1: track 3 starts the last session, at 11900 */
	len = 4 + toc_entry(want + 4, 4, 3, 11900, false);
	toc_header(want, len, 1, 2);
	check_toc(t, 1, false, want, len);

	len = 4;
	len += full_num(want + len, 1, 0x10, 0xa0, 1, 0x20);
	len += full_num(want + len, 1, 0x10, 0xa1, 2, 0);
	len += full_time(want + len, 1, 0x10, 0xa2, -1, 500);
	len += full_time(want + len, 1, 0x10, 1, -1, 0);
	len += full_time(want + len, 1, 0x10, 2, -1, 300);
	/* session 1 allowed another: B0 names where session 2 starts */
	len += full_time(want + len, 1, 0x50, 0xb0, 500 + 11400, 359849);
	len += full_num(want + len, 2, 0x14, 0xa0, 3, 0x20);
	len += full_num(want + len, 2, 0x14, 0xa1, 3, 0);
	len += full_time(want + len, 2, 0x14, 0xa2, -1, EXTRA_N);
	len += full_time(want + len, 2, 0x14, 3, -1, 11900);
	toc_header(want, len, 1, 2);
	check_toc(t, 2, false, want, len);
	/* B0's P field: 79:59:74, the outermost lead-out */
	assert_int_equal(want[4 + 5 * 11 + 8], 79);
	t->ops->close(t);
}

static void test_toc_mixed(void **state)
{
	struct cdt_transport *t = open_img(mixed_img, "layout=data:1000+audio:500");
	uint8_t want[256], buf[256];
	size_t len = 4;

	(void)state;
	len += toc_entry(want + len, 4, 1, 0, false);
	len += toc_entry(want + len, 0, 2, 1000, false);
	len += toc_entry(want + len, 0, 0xaa, MIXED_N, false);
	toc_header(want, len, 1, 2);
	check_toc(t, 0, false, want, len);
	/* from track 2 on */
	read_toc(t, 0, false, 2, buf, sizeof(buf));
	assert_int_equal(buf[1], 2 + 16);
	assert_memory_equal(buf + 4, want + 12, 16);

	len = 4 + toc_entry(want + 4, 4, 1, 0, false);
	toc_header(want, len, 1, 1);
	check_toc(t, 1, false, want, len);

	len = 4;
	len += full_num(want + len, 1, 0x14, 0xa0, 1, 0x00);
	len += full_num(want + len, 1, 0x10, 0xa1, 2, 0);
	len += full_time(want + len, 1, 0x10, 0xa2, -1, MIXED_N);
	len += full_time(want + len, 1, 0x14, 1, -1, 0);
	len += full_time(want + len, 1, 0x10, 2, -1, 1000);
	toc_header(want, len, 1, 1);
	check_toc(t, 2, false, want, len);
	assert_int_equal(capacity(t), MIXED_N);
	t->ops->close(t);
}

static void test_toc_three_sessions(void **state)
{
	struct cdt_transport *t = open_img(three_img, "layout=data:100/data:50/data:30");
	const uint32_t s2 = 100 + 11400, s3 = s2 + 50 + 6900;
	uint8_t want[512];
	size_t len = 4;

	(void)state;
	len += toc_entry(want + len, 4, 1, 0, true);
	len += toc_entry(want + len, 4, 2, s2, true);
	len += toc_entry(want + len, 4, 3, s3, true);
	len += toc_entry(want + len, 4, 0xaa, THREE_N, true);
	toc_header(want, len, 1, 3);
	check_toc(t, 0, true, want, len);

	len = 4 + toc_entry(want + 4, 4, 3, s3, true);
	toc_header(want, len, 1, 3);
	check_toc(t, 1, true, want, len);

	len = 4;
	len += full_num(want + len, 1, 0x14, 0xa0, 1, 0x20);
	len += full_num(want + len, 1, 0x14, 0xa1, 1, 0);
	len += full_time(want + len, 1, 0x14, 0xa2, -1, 100);
	len += full_time(want + len, 1, 0x14, 1, -1, 0);
	len += full_time(want + len, 1, 0x54, 0xb0, s2, 359849);
	len += full_num(want + len, 2, 0x14, 0xa0, 2, 0x20);
	len += full_num(want + len, 2, 0x14, 0xa1, 2, 0);
	len += full_time(want + len, 2, 0x14, 0xa2, -1, s2 + 50);
	len += full_time(want + len, 2, 0x14, 2, -1, s2);
	len += full_time(want + len, 2, 0x54, 0xb0, s3, 359849);
	len += full_num(want + len, 3, 0x14, 0xa0, 3, 0x20);
	len += full_num(want + len, 3, 0x14, 0xa1, 3, 0);
	len += full_time(want + len, 3, 0x14, 0xa2, -1, THREE_N);
	len += full_time(want + len, 3, 0x14, 3, -1, s3);
	toc_header(want, len, 1, 3);
	check_toc(t, 2, false, want, len);
	/* READ CAPACITY: the last session's lead-out minus 1 (cdemu) */
	assert_int_equal(capacity(t), THREE_N);
	t->ops->close(t);
}

/* hide= acts on the last track: the lead-out, capacity and its size */
static void test_hide_last_track(void **state)
{
	struct cdt_transport *t = open_img(extra_img,
					   "layout=audio:300+audio:200/data:100,hide=10");
	uint8_t buf[256];

	(void)state;
	assert_int_equal(capacity(t), EXTRA_N - 10);
	read_toc(t, 0, false, 0xaa, buf, sizeof(buf));
	assert_int_equal(th_be32(buf + 8), EXTRA_N - 10);
	check_track(t, 1, 3, 3, 2, false, 11900, 90);
	t->ops->close(t);
}

/* ---- disc and track information ---------------------------------------------- */

static void test_disc_info(void **state)
{
	struct cdt_transport *t = open_img(extra_img,
					   "layout=audio:300+audio:200/data:100");
	uint8_t buf[34];

	(void)state;
	disc_info(t, buf);
	assert_int_equal(buf[2], 3 << 2 | 2);	/* complete */
	assert_int_equal(buf[3], 1);
	assert_int_equal(buf[4], 2);		/* sessions */
	assert_int_equal(buf[5], 3);		/* first track of the last */
	assert_int_equal(buf[6], 3);		/* last track of the last */
	assert_int_equal(buf[8], 0x20);
	assert_int_equal(th_be32(buf + 20), 0xffffffffu);
	t->ops->close(t);

	/* appendable: an empty session with the invisible track 4 follows */
	t = open_img(extra_img, "layout=audio:300+audio:200/data:100,open=1,profile=cd-r");
	disc_info(t, buf);
	TH_EXPECT_AT(buf, { 2, 0 << 2 | 1 }, { 4, 3 }, { 5, 4 }, { 6, 4 });
	/* last possible lead-out 359849 = 79:59:74; lead-in after 2250 */
	TH_EXPECT_AT(buf, { 21, 79 }, { 22, 59 }, { 23, 74 });
	{
		uint8_t m[3];

		msf(EXTRA_N + 2250, m);
		assert_memory_equal(buf + 17, m, 3);
	}
	t->ops->close(t);
}

static void test_track_info(void **state)
{
	struct cdt_transport *t = open_img(extra_img,
					   "layout=audio:300+audio:200/data:100");
	struct cdt_cmd cmd;
	uint8_t buf[36];

	(void)state;
	check_track(t, 1, 1, 1, 1, true, 0, 300);
	check_track(t, 1, 2, 2, 1, true, 300, 200);
	check_track(t, 1, 3, 3, 2, false, 11900, 100);
	/* by LBA, and by session */
	check_track(t, 0, 450, 2, 1, true, 300, 200);
	check_track(t, 0, EXTRA_N - 1, 3, 2, false, 11900, 100);
	check_track(t, 2, 2, 3, 2, false, 11900, 100);
	/* a gap LBA is no track's; past the end is out of range */
	track_info(t, &cmd, 0, 600, buf);
	th_expect_sense(&cmd, 5, 0x24, 0);
	track_info(t, &cmd, 0, EXTRA_N, buf);
	th_expect_sense(&cmd, 5, 0x21, 0);
	track_info(t, &cmd, 1, 4, buf);
	th_expect_sense(&cmd, 5, 0x24, 0);
	t->ops->close(t);

	t = open_img(small_img, "layout=data:100,open=1,profile=dvd-r");
	track_info(t, &cmd, 1, 2, buf);
	th_expect_good(&cmd);
	assert_int_equal(buf[2], 2);
	assert_int_equal(buf[3], 2);
	assert_int_equal(buf[6] & 0x40, 0x40);	/* blank */
	assert_int_equal(buf[7] & 0x03, 0x01);	/* NWA_V, no LRA */
	assert_int_equal(th_be32(buf + 8), 100 + 11400);
	assert_int_equal(th_be32(buf + 12), 100 + 11400);
	assert_int_equal(th_be32(buf + 24), 359849 - 11500);
	/* tao: the run-out is counted in the track */
	t->ops->close(t);
	t = open_img(mixed_img, "layout=data:1000+audio:500,tao=1");
	check_track(t, 1, 1, 1, 1, false, 0, 1000);
	t->ops->close(t);
}

/*
 * toc=none refuses READ TOC only: disc information and every track's
 * information (by number, by LBA, by session) answer byte for byte as
 * with the TOC, so a layout can be built from them alone.
 */
static void expect_info_without_toc(const char *img, const char *keys,
				    uint32_t n_tracks, uint32_t lba)
{
	char none[256];
	struct cdt_transport *t = open_img(img, keys), *u;
	struct cdt_cmd cmd, cmd_u;
	uint8_t buf[36], buf_u[36], cdb[16];

	snprintf(none, sizeof(none), "%s,toc=none", keys);
	u = open_img(img, none);
	disc_info(t, buf);
	disc_info(u, buf_u);
	assert_memory_equal(buf, buf_u, 34);
	for (uint32_t i = 0; i < 3 * (n_tracks + 1); i++) {
		/* types 1 and 2 (track, session) from 1, type 0 an LBA */
		uint8_t type = (uint8_t)(i % 3);
		uint32_t addr = type ? i / 3 + 1 : lba * (i / 3);

		track_info(t, &cmd, type, addr, buf);
		track_info(u, &cmd_u, type, addr, buf_u);
		assert_int_equal(cmd.status, cmd_u.status);
		assert_memory_equal(buf, buf_u, 36);
	}
	th_exec(u, &cmd_u, cdb, mmc_cdb_read_toc(cdb, 0, false, 1, 36), buf_u, 36);
	th_expect_sense(&cmd_u, 5, 0x24, 0);
	t->ops->close(t);
	u->ops->close(u);
}

static void test_info_without_toc(void **state)
{
	(void)state;
	expect_info_without_toc(extra_img, "layout=audio:300+audio:200/data:100", 3, 300);
	expect_info_without_toc(extra_img, "layout=audio:300+audio:200/data:100,hide=10", 3,
				4000);
	expect_info_without_toc(three_img, "layout=data:100/data:50/data:30,tao=1", 3, 50);
	expect_info_without_toc(three_img,
				"layout=data:100/data:50/data:30,open=1,profile=cd-r", 4, 7000);
	expect_info_without_toc(mixed_img, "layout=data:1000+audio:500,extra=3", 2, 700);
}

static uint16_t profile_of(const char *img, const char *keys)
{
	uint8_t cdb[10] = { MMC_GET_CONFIGURATION, 0, 0, 0, 0, 0, 0, 0, 8, 0 };
	struct cdt_transport *t = open_img(img, keys);
	struct cdt_cmd cmd;
	uint8_t buf[8];

	th_exec(t, &cmd, cdb, 10, buf, 8);
	th_expect_good(&cmd);
	t->ops->close(t);
	return (uint16_t)(buf[6] << 8 | buf[7]);
}

static void test_profile(void **state)
{
	static const struct { const char *name; uint16_t code; } p[] = {
		{ "cd-rom", 0x08 }, { "cd-r", 0x09 }, { "cd-rw", 0x0a },
		{ "dvd-rom", 0x10 }, { "dvd-r", 0x11 }, { "dvd-ram", 0x12 },
		{ "dvd+rw", 0x1a }, { "bd-rom", 0x40 }, { "bd-re", 0x43 },
	};
	char keys[64];

	(void)state;
	assert_int_equal(profile_of(small_img, "hide=0"), 0x08);
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		snprintf(keys, sizeof(keys), "profile=%s", p[i].name);
		assert_int_equal(profile_of(small_img, keys), p[i].code);
	}
}

/* ---- reads -------------------------------------------------------------------- */

static void test_read_audio_and_gap(void **state)
{
	struct cdt_transport *t;
	struct cdt_cmd cmd;

	(void)state;
	t = open_img(mixed_img, "layout=data:1000+audio:500");
	rd10(t, &cmd, 998, 2);
	th_expect_good(&cmd);
	assert_image_blocks(998, 2);
	rd10(t, &cmd, 999, 2);
	th_expect_sense(&cmd, 5, 0x64, 0);
	rd10(t, &cmd, 1200, 1);
	th_expect_sense(&cmd, 5, 0x64, 0);
	t->ops->close(t);

	/* each gap= on the CD-Extra's gap, LBAs 500..11899 */
	t = open_img(extra_img, "layout=audio:300+audio:200/data:100");
	rd10(t, &cmd, 500, 1);
	th_expect_sense(&cmd, 5, 0x21, 0);
	rd10(t, &cmd, 11899, 2);
	th_expect_sense(&cmd, 5, 0x21, 0);
	rd10(t, &cmd, 11900, 4);
	th_expect_good(&cmd);
	assert_image_blocks(11900, 4);
	rd10(t, &cmd, 400, 1);
	th_expect_sense(&cmd, 5, 0x64, 0);
	t->ops->close(t);

	t = open_img(extra_img, "layout=audio:300+audio:200/data:100,gap=03/11/05");
	rd10(t, &cmd, 6000, 1);
	th_expect_sense(&cmd, 3, 0x11, 0x05);
	t->ops->close(t);

	t = open_img(extra_img, "layout=audio:300+audio:200/data:100,gap=zero");
	rd10(t, &cmd, 11896, 8);
	th_expect_good(&cmd);
	assert_zero_blocks(4);
	for (size_t i = 0; i < 4 * 2048u; i++)
		assert_int_equal(rbuf[4 * 2048 + i], pattern(11900ull * 2048 + i));
	t->ops->close(t);

	t = open_img(extra_img, "layout=audio:300+audio:200/data:100,gap=hang");
	assert_int_equal(rd10(t, &cmd, 11890, 8), CDT_ETIMEOUT);
	assert_int_equal(rd10(t, &cmd, 11900, 8), 0);
	th_expect_good(&cmd);
	t->ops->close(t);
}

static void test_read_gap_zero_then_data(void **state)
{
	struct cdt_transport *t = open_img(three_img,
		"layout=data:100/data:50/data:30,gap=zero");
	struct cdt_cmd cmd;

	(void)state;
	rd10(t, &cmd, 11496, 8);
	th_expect_good(&cmd);
	assert_zero_blocks(4);
	for (size_t i = 0; i < 4 * 2048u; i++)
		assert_int_equal(rbuf[4 * 2048 + i], pattern(11500ull * 2048 + i));
	t->ops->close(t);
}

static void test_read_tao(void **state)
{
	struct cdt_transport *t = open_img(three_img,
		"layout=data:100/data:50/data:30,tao=1");
	const uint32_t s2 = 100 + 11400;
	struct cdt_cmd cmd;

	(void)state;
	rd10(t, &cmd, 97, 1);
	th_expect_good(&cmd);
	rd10(t, &cmd, 98, 1);
	th_expect_sense(&cmd, 5, 0x64, 0);
	rd10(t, &cmd, 99, 1);
	th_expect_sense(&cmd, 5, 0x64, 0);
	rd10(t, &cmd, s2 + 47, 1);
	th_expect_good(&cmd);
	rd10(t, &cmd, s2 + 48, 1);
	th_expect_sense(&cmd, 5, 0x64, 0);
	rd10(t, &cmd, THREE_N - 2, 1);
	th_expect_sense(&cmd, 5, 0x64, 0);
	rd10(t, &cmd, THREE_N, 1);
	th_expect_sense(&cmd, 5, 0x21, 0);
	t->ops->close(t);
}

static void test_formatted(void **state)
{
	struct cdt_transport *t = open_img(small_img, "profile=dvd+rw,formatted=5000");
	struct cdt_cmd cmd;
	uint8_t buf[36];

	(void)state;
	assert_int_equal(capacity(t), 5000);
	rd10(t, &cmd, 98, 4);
	th_expect_good(&cmd);
	assert_image_blocks(98, 2);
	for (size_t i = 2 * 2048; i < 4 * 2048; i++)
		assert_int_equal(rbuf[i], 0);
	rd10(t, &cmd, 4999, 1);
	th_expect_good(&cmd);
	assert_zero_blocks(1);
	rd10(t, &cmd, 5000, 1);
	th_expect_sense(&cmd, 5, 0x21, 0);
	track_info(t, &cmd, 1, 1, buf);
	th_expect_good(&cmd);
	assert_int_equal(th_be32(buf + 24), 5000);
	disc_info(t, buf);
	assert_int_equal(buf[2] & 0x10, 0x10);	/* erasable */
	t->ops->close(t);
}

/* ---- usage errors ------------------------------------------------------------- */

static void bad_spec(const char *img, const char *keys, const char *needle)
{
	struct cdt_transport *t = NULL;
	char err[256];

	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s,%s", img, keys),
			 CDT_EUSAGE);
	assert_null(t);
	if (!strstr(err, needle))
		fail_msg("%s: '%s' lacks '%s'", keys, err, needle);
}

static void test_usage_errors(void **state)
{
	(void)state;
	/* the counts: both named */
	bad_spec(small_img, "layout=data:99", "accounts for 99 blocks");
	bad_spec(small_img, "layout=data:99", "holds 100");
	bad_spec(small_img, "layout=data:50/data:50", "accounts for 11500");
	bad_spec(small_img, "layout=data:0+data:100", "key 'layout'");
	bad_spec(small_img, "layout=video:100", "key 'layout'");
	bad_spec(small_img, "layout=data:100+", "key 'layout'");
	bad_spec(small_img, "layout=data:100//data:1", "key 'layout'");
	bad_spec(small_img, "layout=data:1x", "key 'layout'");
	bad_spec(small_img, "layout=", "key 'layout'");
	bad_spec(small_img, "gap=05/21", "key 'gap'");
	bad_spec(small_img, "gap=00/00/00", "key 'gap'");
	bad_spec(small_img, "gap=5/123/0", "key 'gap'");
	bad_spec(small_img, "tao=2", "key 'tao'");
	bad_spec(small_img, "open=yes", "key 'open'");
	bad_spec(small_img, "profile=hd-dvd", "key 'profile'");
	bad_spec(small_img, "formatted=x", "key 'formatted'");
	bad_spec(small_img, "formatted=500", "needs profile=");
	bad_spec(small_img, "formatted=500,profile=dvd-rom", "needs profile=");
	bad_spec(small_img, "formatted=99,profile=bd-re", "less than the 100");
	/* both keys named, whichever comes first */
	bad_spec(small_img, "runout=2,profile=dvd+rw,formatted=500", "runout= and formatted=");
	bad_spec(small_img, "profile=bd-re,formatted=500,runout=1", "runout= and formatted=");
	bad_spec(small_img, "open=1,profile=cd-rom", "recordable");
	/* written in place, never appended to (issue 28, G) */
	bad_spec(small_img, "open=1,profile=dvd+rw", "recordable");
	bad_spec(small_img, "open=1,profile=dvd-ram", "recordable");
	bad_spec(small_img, "open=1,profile=bd-re", "recordable");
	bad_spec(small_img, "open=1,profile=bd-rom", "recordable");
	bad_spec(small_img, "layout=audio:100,profile=dvd-r", "CD profile");
	bad_spec(mixed_img, "layout=data:1000+audio:500,hide=500", "last track");
	bad_spec(mixed_img, "layout=data:1000+audio:500,runout=501", "last track");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_toc_cd_extra),
		cmocka_unit_test(test_toc_mixed),
		cmocka_unit_test(test_toc_three_sessions),
		cmocka_unit_test(test_hide_last_track),
		cmocka_unit_test(test_disc_info),
		cmocka_unit_test(test_track_info),
		cmocka_unit_test(test_info_without_toc),
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_read_audio_and_gap),
		cmocka_unit_test(test_read_gap_zero_then_data),
		cmocka_unit_test(test_read_tao),
		cmocka_unit_test(test_formatted),
		cmocka_unit_test(test_usage_errors),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
