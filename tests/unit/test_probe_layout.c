// SPDX-License-Identifier: MIT
/*
 * cdt_probe on discs of several tracks and sessions (issue 12), through
 * the library on the emulated drive, with the drive's trace= to see which
 * blocks were read: a CD-Extra's audio session is never read with
 * READ(10), and its filesystem size comes from the data session's PVD.
 * A drive that refuses READ TOC (toc=none) gives the same layout from
 * disc and track information alone.
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
/* two data sessions: data 300, the first gap (11400), data 300 */
#define TWO_BLOCKS (300 + 11400 + 300)
#define TWO_LAYOUT "layout=data:300/data:300"

static char two_img[128];
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
	th_path(two_img, sizeof(two_img), dir, "two.img");
	f = fopen(two_img, "wb");
	if (!f || ftruncate(fileno(f), (off_t)TWO_BLOCKS * 2048))
		return -1;
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return th_rmrf(dir);
}

/* cdt_probe of sim:IMAGE,KEYS,trace=...: the open device, its layout read */
static struct cdt_dev *probe_dev(const char *image, const char *keys,
				 struct cdt_probe_result *res)
{
	struct cdt_dev *dev;
	char addr[512], err[256];

	unlink(trace);
	snprintf(addr, sizeof(addr), "sim:%s,%s,trace=%s", image, keys, trace);
	if (cdt_open(addr, NULL, &dev, err, sizeof(err)))
		fail_msg("open %s: %s", addr, err);
	if (cdt_probe(dev, NULL, res))
		fail_msg("probe %s: %s", addr, cdt_errmsg(dev));
	return dev;
}

/* Probe the CD-Extra with more keys; whatever they hide, it has 2 sessions, 3 tracks. */
static void probe_extra(const char *keys, struct cdt_probe_result *res)
{
	struct cdt_dev *dev;
	struct cdt_layout *l;
	char all[256];

	snprintf(all, sizeof(all), "%s%s", EXTRA_LAYOUT, keys);
	dev = probe_dev(img, all, res);
	l = cdt_dev_layout(dev);
	assert_non_null(l);
	assert_int_equal(l->sessions, 2);
	assert_int_equal(l->n_tracks, 3);
	cdt_layout_free(l);
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

/* ---- the layout from disc and track information alone (toc=none) ---- */

/* Lines of the trace whose opcode is op and whose sense is sense ("" any). */
static unsigned int trace_count(unsigned int op, const char *sense)
{
	FILE *f = fopen(trace, "r");
	char line[256];
	unsigned int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned int got;

		if (sscanf(line, "%x", &got) == 1 && got == op && strstr(line, sense))
			n++;
	}
	fclose(f);
	return n;
}

/*
 * Probe sim:IMAGE,KEYS,trace=...; copy its layout's tracks (room for n)
 * and gaps (room for ng) out; returns the number of sessions.
 */
static unsigned int probe_layout(const char *image, const char *keys,
				 struct cdt_probe_result *res, struct cdt_track *t,
				 size_t n, struct cdt_skip *g, size_t ng)
{
	struct cdt_dev *dev = probe_dev(image, keys, res);
	struct cdt_layout *l = cdt_dev_layout(dev);
	unsigned int sessions;

	assert_non_null(l);
	assert_true(l->has_toc);
	assert_int_equal(l->n_tracks, n);
	assert_int_equal(l->n_gaps, ng);
	memcpy(t, l->tracks, n * sizeof(*t));
	memcpy(g, l->gaps, ng * sizeof(*g));
	sessions = l->sessions;
	cdt_layout_free(l);
	cdt_close(dev);
	return sessions;
}

static void expect_track(const struct cdt_track *t, unsigned int number,
			 unsigned int session, enum cdt_track_mode mode,
			 uint64_t start, uint64_t blocks)
{
	assert_int_equal(t->number, number);
	assert_int_equal(t->session, session);
	assert_int_equal(t->mode, mode);
	assert_int_equal(t->start, start);
	assert_int_equal(t->blocks, blocks);
}

/* Both probes' layouts are the same, track for track and gap for gap. */
static void expect_same(const struct cdt_track *a, const struct cdt_track *b, size_t n,
			const struct cdt_skip *ga, const struct cdt_skip *gb, size_t ng)
{
	for (size_t i = 0; i < n; i++) {
		expect_track(&b[i], a[i].number, a[i].session, a[i].mode, a[i].start,
			     a[i].blocks);
		assert_int_equal(b[i].last_recorded, a[i].last_recorded);
		assert_int_equal(b[i].runout, a[i].runout);
	}
	for (size_t i = 0; i < ng; i++) {
		assert_int_equal(gb[i].start, ga[i].start);
		assert_int_equal(gb[i].blocks, ga[i].blocks);
		assert_int_equal(gb[i].why, CDT_SKIP_GAP);
	}
}

static void test_no_toc_two_data_sessions(void **state)
{
	struct cdt_probe_result res = CDT_INIT(res), with = CDT_INIT(with);
	struct cdt_track t[2], tw[2];
	struct cdt_skip g[1], gw[1];

	(void)state;
	assert_int_equal(probe_layout(two_img, TWO_LAYOUT ",toc=none", &res, t, 2, g, 1), 2);
	/* READ TOC refused; the tracks from READ TRACK INFORMATION */
	assert_int_equal(trace_count(0x43, "sense=05/24/00"), trace_count(0x43, ""));
	assert_true(trace_count(0x52, "") >= 2);
	assert_int_equal(res.sizes.toc_leadout, CDT_SIZE_ABSENT);
	expect_track(&t[0], 1, 1, CDT_TRACK_DATA, 0, 300);
	expect_track(&t[1], 2, 2, CDT_TRACK_DATA, 11700, 300);
	assert_int_equal(t[1].last_recorded, TWO_BLOCKS - 1);
	assert_int_equal(g[0].start, 300);
	assert_int_equal(g[0].blocks, 11400);
	assert_int_equal(res.verdict, CDT_VERDICT_OK);
	assert_int_equal(res.true_blocks, TWO_BLOCKS);
	/* nothing read in the gap */
	assert_int_equal(reads_below(11700) - reads_below(300), 0);
	/* as with the TOC */
	assert_int_equal(probe_layout(two_img, TWO_LAYOUT, &with, tw, 2, gw, 1), 2);
	expect_same(tw, t, 2, gw, g, 1);
	assert_int_equal(with.true_blocks, res.true_blocks);
}

static void test_no_toc_cd_extra(void **state)
{
	struct cdt_probe_result res = CDT_INIT(res), with = CDT_INIT(with);
	struct cdt_track t[3], tw[3];
	struct cdt_skip g[1], gw[1];

	(void)state;
	assert_int_equal(probe_layout(img, EXTRA_LAYOUT ",toc=none,hide=40", &res, t, 3,
				      g, 1), 2);
	expect_track(&t[0], 1, 1, CDT_TRACK_AUDIO, 0, 300);
	expect_track(&t[1], 2, 1, CDT_TRACK_AUDIO, 300, 200);
	expect_track(&t[2], 3, 2, CDT_TRACK_DATA, EXTRA_DATA, 100);
	assert_int_equal(g[0].start, 500);
	assert_int_equal(g[0].blocks, 11400);
	/* the hidden tail, found from the data session's PVD */
	assert_int_equal(res.verdict, CDT_VERDICT_HIDDEN_TAIL);
	assert_int_equal(res.true_blocks, EXTRA_BLOCKS);
	assert_int_equal(res.sizes.filesystem, EXTRA_BLOCKS);
	assert_int_equal(reads_below(EXTRA_DATA), 0);
	assert_int_equal(probe_layout(img, EXTRA_LAYOUT ",hide=40", &with, tw, 3, gw, 1), 2);
	expect_same(tw, t, 3, gw, g, 1);
}

/* An open session's invisible blank track is no track, with or without the TOC. */
static void test_no_toc_open_tao(void **state)
{
	struct cdt_probe_result res = CDT_INIT(res), with = CDT_INIT(with);
	struct cdt_track t[2], tw[2];
	struct cdt_skip g[1], gw[1];

	(void)state;
	assert_int_equal(probe_layout(two_img, TWO_LAYOUT ",tao=1,open=1,profile=cd-r,toc=none",
				      &res, t, 2, g, 1), 2);
	expect_track(&t[0], 1, 1, CDT_TRACK_DATA, 0, 300);
	assert_true(t[0].runout);
	assert_int_equal(t[1].session, 2);
	assert_int_equal(probe_layout(two_img, TWO_LAYOUT ",tao=1,open=1,profile=cd-r",
				      &with, tw, 2, gw, 1), 2);
	expect_same(tw, t, 2, gw, g, 1);
	assert_int_equal(with.true_blocks, res.true_blocks);
	assert_int_equal(with.notes, res.notes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cd_extra_never_reads_audio),
		cmocka_unit_test(test_cd_extra_hidden_tail),
		cmocka_unit_test(test_formatted_bad_fs_end),
		cmocka_unit_test(test_head_bad_block),
		cmocka_unit_test(test_head_bad_bounded),
		cmocka_unit_test(test_no_toc_two_data_sessions),
		cmocka_unit_test(test_no_toc_cd_extra),
		cmocka_unit_test(test_no_toc_open_tao),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
