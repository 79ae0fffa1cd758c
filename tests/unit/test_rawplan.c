// SPDX-License-Identifier: MIT
/*
 * image --raw's files and sheet (jobs/rawplan.c): which sectors each
 * track's file holds, the stream's order, and the CUE sheet's lines, on
 * layouts written out by hand from the contract (cdtail-image(1), Raw:
 * BIN/CUE): pregaps at the file's start but track 1's, a TAO run-out left
 * out, the last track to the extent (a hidden tail), gaps in no file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "jobs/rawplan.h"

static struct cdt_track trk(unsigned int n, unsigned int s, enum cdt_track_mode m,
			    uint64_t start, uint64_t blocks, uint64_t pregap, bool runout)
{
	return (struct cdt_track){ .number = n, .session = s, .mode = m, .start = start,
				   .blocks = blocks, .pregap = pregap, .runout = runout,
				   .sector_mode = m == CDT_TRACK_AUDIO ? CDT_SECTOR_AUDIO :
				   CDT_SECTOR_MODE1 };
}

/* A mixed-mode disc: data 0-119 (a TAO run-out), audio 120-569 with a
 * pregap of 150, audio 570-944 with 150; a hidden tail of 5. */
static void test_mixed(void **state)
{
	struct cdt_track t[] = {
		trk(1, 1, CDT_TRACK_DATA, 0, 120, 0, true),
		trk(2, 1, CDT_TRACK_AUDIO, 270, 300, 150, false),
		trk(3, 1, CDT_TRACK_AUDIO, 720, 225, 150, false),
	};
	struct cdt_layout l = { .sessions = 1, .tracks = t, .n_tracks = 3 };
	struct raw_plan p;
	char sheet[2048];

	(void)state;
	assert_int_equal(raw_plan_make(&l, 950, &p), 0);
	assert_int_equal(p.n, 3);
	/* track 1 without its run-out; each audio file from its pregap */
	assert_int_equal(p.f[0].first, 0);
	assert_int_equal(p.f[0].n, 118);
	assert_int_equal(p.f[0].runout, 2);
	assert_int_equal(p.f[1].first, 120);
	assert_int_equal(p.f[1].n, 450);
	assert_int_equal(p.f[1].pregap, 150);
	/* the last one to the extent: the 5 hidden sectors are in it */
	assert_int_equal(p.f[2].first, 570);
	assert_int_equal(p.f[2].n, 380);
	assert_int_equal(p.total, 118 + 450 + 380);
	assert_ptr_equal(raw_plan_find(&p, 117), &p.f[0]);
	assert_ptr_equal(raw_plan_find(&p, 118), &p.f[1]);
	assert_ptr_equal(raw_plan_find(&p, p.total - 1), &p.f[2]);
	assert_null(raw_plan_find(&p, p.total));
	assert_null(raw_plan_at_lba(&p, 118));	/* the run-out */
	assert_ptr_equal(raw_plan_at_lba(&p, 949), &p.f[2]);
	p.reported = 945;
	raw_sheet(sheet, sizeof(sheet), &p, "g", &(struct raw_sheet_notes){ .has_audio = true });
	assert_non_null(strstr(sheet, "FILE \"g (Track 1).bin\" BINARY\n  TRACK 01 MODE1/2352\n    INDEX 01 00:00:00\n"
				      "REM cdtail: 2 TAO run-out blocks after track 1, not stored\n"));
	assert_non_null(strstr(sheet, "FILE \"g (Track 2).bin\" BINARY\n  TRACK 02 AUDIO\n"
				      "    INDEX 00 00:00:00\n    INDEX 01 00:02:00\n"));
	assert_non_null(strstr(sheet, "hidden tail of 5 sectors past the reported end, in track 3's file"));
	assert_non_null(strstr(sheet, "audio not offset-corrected"));
	assert_non_null(strstr(sheet, "audio not checked"));
	assert_null(strstr(sheet, "REM SESSION"));
	raw_plan_free(&p);
}

/* A CD-Extra: two audio tracks, the gap, a data session; one track alone. */
static void test_sessions_and_one_track(void **state)
{
	struct cdt_track t[] = {
		trk(1, 1, CDT_TRACK_AUDIO, 0, 300, 0, false),
		trk(2, 1, CDT_TRACK_AUDIO, 300, 150, 0, false),
		trk(3, 2, CDT_TRACK_DATA, 11850, 250, 150, false),
	};
	struct cdt_layout l = { .sessions = 2, .tracks = t, .n_tracks = 3 };
	struct raw_plan p;
	char sheet[2048], name[64];
	size_t need;

	(void)state;
	assert_int_equal(raw_plan_make(&l, 12100, &p), 0);
	assert_int_equal(p.f[1].n, 150);	/* ends at the session's end */
	assert_int_equal(p.f[2].first, 11700);
	assert_int_equal(p.total, 300 + 150 + 400);
	assert_null(raw_plan_at_lba(&p, 5000));	/* the gap */
	need = raw_sheet(sheet, sizeof(sheet), &p, "x", &(struct raw_sheet_notes){ 0 });
	assert_int_equal(need, strlen(sheet));
	assert_non_null(strstr(sheet, "REM SESSION 01\nFILE \"x (Track 1).bin\""));
	assert_non_null(strstr(sheet, "REM SESSION 02\nFILE \"x (Track 3).bin\""));
	/* a sheet too long for the buffer: the length it needs, cut short */
	assert_int_equal(raw_sheet(sheet, 10, &p, "x", &(struct raw_sheet_notes){ 0 }), need);
	assert_int_equal(strlen(sheet), 9);
	raw_plan_free(&p);
	raw_bin_name(name, sizeof(name), "d", 1, 1);
	assert_string_equal(name, "d.bin");
	raw_bin_name(name, sizeof(name), "d", 7, 12);
	assert_string_equal(name, "d (Track 07).bin");
	l.n_tracks = 0;
	assert_int_equal(raw_plan_make(&l, 100, &p), CDT_EUSAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_sessions_and_one_track),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
