// SPDX-License-Identifier: MIT
/*
 * cdt_probe on discs of several tracks and sessions (issue 12), through
 * the library on the emulated drive, with the drive's trace= to see which
 * blocks were read: a CD-Extra's audio session is never read with
 * READ(10), and its filesystem size comes from the data session's PVD.
 */
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
#include "th.h"

/* audio 300 + audio 200, the first gap (11400), data 100 */
#define EXTRA_BLOCKS (300 + 200 + 11400 + 100)
#define EXTRA_DATA 11900
#define EXTRA_LAYOUT "layout=audio:300+audio:200/data:100"

/* a formatted DVD+RW: an ISO of FMT_FS blocks written, formatted to FMT_M */
#define FMT_FS 1000
#define FMT_M 1500

static char dir[64];
static char img[128];
static char fmt_img[128];
static char trace[128];

/* An ISO 9660 PVD (and terminator) at block lba saying size blocks. */
static void put_pvd(FILE *f, long lba, uint32_t size)
{
	uint8_t vd[2048] = { 1, 'C', 'D', '0', '0', '1', 1 };
	uint8_t term[2048] = { 255, 'C', 'D', '0', '0', '1', 1 };

	th_put_le32(vd + 80, size);
	th_put_be32(vd + 84, size);
	vd[128] = 0x00;		/* logical block size 2048, both-endian */
	vd[129] = 0x08;
	vd[130] = 0x08;
	vd[131] = 0x00;
	assert_int_equal(fseek(f, lba * 2048, SEEK_SET), 0);
	assert_int_equal(fwrite(vd, sizeof(vd), 1, f), 1);
	assert_int_equal(fwrite(term, sizeof(term), 1, f), 1);
}

static int setup(void **state)
{
	FILE *f;

	(void)state;
	if (th_tmpdir(dir, sizeof(dir), "probelayout"))
		return -1;
	th_path(img, sizeof(img), dir, "extra.img");
	th_path(trace, sizeof(trace), dir, "trace");
	f = fopen(img, "wb");
	if (!f || ftruncate(fileno(f), (off_t)EXTRA_BLOCKS * 2048))
		return -1;
	/* the data session's volume space size, absolute as mkisofs -C writes it */
	put_pvd(f, EXTRA_DATA + 16, EXTRA_BLOCKS);
	fclose(f);
	th_path(fmt_img, sizeof(fmt_img), dir, "fmt.img");
	f = fopen(fmt_img, "wb");
	if (!f || ftruncate(fileno(f), (off_t)FMT_FS * 2048))
		return -1;
	put_pvd(f, 16, FMT_FS);
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return th_rmrf(dir);
}

/* Probe the CD-Extra with more keys; whatever they hide, it has 2 sessions, 3 tracks. */
static void probe_extra(const char *keys, struct cdt_probe_result *res)
{
	struct cdt_dev *dev;
	const struct cdt_layout *l;
	char addr[512], err[256];

	unlink(trace);
	snprintf(addr, sizeof(addr), "sim:%s,%s%s,trace=%s", img, EXTRA_LAYOUT, keys, trace);
	if (cdt_open(addr, NULL, &dev, err, sizeof(err)))
		fail_msg("open %s: %s", addr, err);
	if (cdt_probe(dev, NULL, res))
		fail_msg("probe %s: %s", addr, cdt_errmsg(dev));
	l = cdt_dev_layout(dev);
	assert_non_null(l);
	assert_int_equal(l->sessions, 2);
	assert_int_equal(l->n_tracks, 3);
	cdt_close(dev);
}

/* READ(10)/(12) lines of the trace below end (only the failed ones: failed). */
static unsigned int trace_reads_below(uint64_t end, bool failed)
{
	FILE *f = fopen(trace, "r");
	char line[256];
	unsigned int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned int op, blocks;
		unsigned long long lba;

		if (sscanf(line, "%x lba=%llu blocks=%u", &op, &lba, &blocks) != 3)
			continue;
		if ((op == 0x28 || op == 0xa8) && lba < end &&
		    (!failed || !strstr(line, "sense=00/00/00")))
			n++;
	}
	fclose(f);
	return n;
}

static unsigned int reads_below(uint64_t end)
{
	return trace_reads_below(end, false);
}

static unsigned int failed_below(uint64_t end)
{
	return trace_reads_below(end, true);
}

static void test_cd_extra_never_reads_audio(void **state)
{
	struct cdt_probe_result res = CDT_INIT(res);

	(void)state;
	probe_extra("", &res);
	assert_int_equal(res.verdict, CDT_VERDICT_OK);
	assert_int_equal(res.true_blocks, EXTRA_BLOCKS);
	/* the filesystem is the last data session's, not LBA 16's (audio) */
	assert_int_equal(res.sizes.filesystem, EXTRA_BLOCKS);
	assert_string_equal(res.sizes.fs_type, "iso9660");
	/* no READ(10) of the audio tracks or the gap, the head read included */
	assert_int_equal(reads_below(EXTRA_DATA), 0);
}

/* A hidden tail on the data session is still found, from its PVD. */
static void test_cd_extra_hidden_tail(void **state)
{
	struct cdt_probe_result res = CDT_INIT(res);

	(void)state;
	probe_extra(",hide=40", &res);
	assert_int_equal(res.verdict, CDT_VERDICT_HIDDEN_TAIL);
	assert_int_equal(res.reported_blocks, EXTRA_BLOCKS - 40);
	assert_int_equal(res.true_blocks, EXTRA_BLOCKS);
	assert_int_equal(res.sizes.filesystem, EXTRA_BLOCKS);
	assert_int_equal(reads_below(EXTRA_DATA), 0);
}

/* Probe fmt.img given its KIND keys and more KEYS (bad=, info=1). */
static void probe_fmt_img(const char *kind, const char *keys,
			  struct cdt_probe_result *res)
{
	struct cdt_dev *dev;
	char addr[512], err[256];

	unlink(trace);
	snprintf(addr, sizeof(addr), "sim:%s,cost=0/0%s%s,trace=%s", fmt_img, kind, keys, trace);
	if (cdt_open(addr, NULL, &dev, err, sizeof(err)))
		fail_msg("open %s: %s", addr, err);
	if (cdt_probe(dev, NULL, res))
		fail_msg("probe %s: %s", addr, cdt_errmsg(dev));
	cdt_close(dev);
}

/* fmt.img as the formatted DVD+RW */
static void probe_fmt(const char *keys, struct cdt_probe_result *res)
{
	char kind[64];

	snprintf(kind, sizeof(kind), ",profile=dvd+rw,formatted=%d", FMT_M);
	probe_fmt_img(kind, keys, res);
}

/*
 * A formatted medium whose filesystem ends in bad blocks: the medium says
 * formatted (READ CAPACITY far past the filesystem), the bad blocks are
 * damage, the end is the formatted size.  It was "short" at the first
 * bad block, without the note.
 */
static void test_formatted_bad_fs_end(void **state)
{
	static const char *const keys[] = {
		",bad=999-999", ",bad=990-999", ",bad=700-999", ",bad=700-999,info=1",
	};
	size_t i;

	(void)state;
	for (i = 0; i < TH_N(keys); i++) {
		struct cdt_probe_result res = CDT_INIT(res);

		probe_fmt(keys[i], &res);
		if (res.verdict != CDT_VERDICT_OK || res.true_blocks != FMT_M ||
		    !(res.notes & CDT_NOTE_FORMATTED))
			fail_msg("%s: verdict %d, true %llu, notes %#x", keys[i], res.verdict,
				 (unsigned long long)res.true_blocks, res.notes);
		assert_int_equal(res.extent_blocks, FMT_M);
		assert_int_equal(res.sizes.filesystem, FMT_FS);
		/* the filesystem's size is not an end to search for there */
		assert_int_equal(res.failed_reads, 1);
	}
}

/* fmt.img as a plain CD-ROM, not formatted */
static void probe_cd(const char *keys, struct cdt_probe_result *res)
{
	probe_fmt_img("", keys, res);
}

/*
 * A bad block in the head read's range but not on a descriptor: the
 * piece holding it is read again block by block, so the PVD at 16 is
 * kept.  Before, one failing piece ended the head read and with it the
 * filesystem ("not recognised"), on a formatted medium its note too.
 */
static void test_head_bad_block(void **state)
{
	static const char *const keys[] = {
		",bad=0-0", ",bad=20-20", ",bad=31-31", ",bad=2-3:40-41",
	};
	size_t i;

	(void)state;
	for (i = 0; i < TH_N(keys); i++) {
		struct cdt_probe_result fmt = CDT_INIT(fmt), cd = CDT_INIT(cd);

		probe_fmt(keys[i], &fmt);
		if (fmt.sizes.filesystem != FMT_FS || !(fmt.notes & CDT_NOTE_FORMATTED))
			fail_msg("formatted, %s: filesystem %lld, notes %#x", keys[i],
				 (long long)fmt.sizes.filesystem, fmt.notes);
		assert_string_equal(fmt.sizes.fs_type, "iso9660");
		probe_cd(keys[i], &cd);
		if (cd.sizes.filesystem != FMT_FS)
			fail_msg("cd, %s: filesystem %lld", keys[i],
				 (long long)cd.sizes.filesystem);
		assert_int_equal(cd.verdict, CDT_VERDICT_OK);
	}
}

/* The head read's bad blocks are bounded: 5 of them and it gives up. */
static void test_head_bad_bounded(void **state)
{
	struct cdt_probe_result res = CDT_INIT(res);

	(void)state;
	probe_cd(",bad=1-1:3-3:5-5:7-7:9-9", &res);
	assert_int_equal(res.sizes.filesystem, CDT_SIZE_ABSENT);
	/* the piece, then 4 bad blocks passed over, the 5th ends it */
	assert_int_equal(failed_below(32), 1 + 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cd_extra_never_reads_audio),
		cmocka_unit_test(test_cd_extra_hidden_tail),
		cmocka_unit_test(test_formatted_bad_fs_end),
		cmocka_unit_test(test_head_bad_block),
		cmocka_unit_test(test_head_bad_bounded),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
