// SPDX-License-Identifier: MIT
/*
 * jobs/rawsingle.c: the one-FILE sheet of image --raw --single-file from
 * the multi-file sheet's text: one FILE line naming OUT.bin before the
 * first TRACK, every other line kept, each INDEX time moved by its file's
 * start in the stream (INDEX nn too), the length as snprintf's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "jobs/rawsingle.h"

static const char multi[] =
	"CATALOG 0724384260927\n"
	"REM cdtail: audio not offset-corrected (no --offset)\n"
	"REM SESSION 01\n"
	"FILE \"d (Track 1).bin\" BINARY\n"
	"  TRACK 01 MODE1/2352\n"
	"    INDEX 01 00:00:00\n"
	"FILE \"d (Track 2).bin\" BINARY\n"
	"  TRACK 02 AUDIO\n"
	"    FLAGS DCP\n"
	"    ISRC USRC17607839\n"
	"    INDEX 00 00:00:00\n"
	"    INDEX 01 00:02:00\n"
	"    INDEX 02 00:59:74\n"
	"REM SESSION 02\n"
	"FILE \"d (Track 3).bin\" BINARY\n"
	"  TRACK 03 MODE1/2352\n"
	"    INDEX 00 00:00:00\n"
	"    INDEX 01 00:02:00\n";

static const char single[] =
	"CATALOG 0724384260927\n"
	"REM cdtail: audio not offset-corrected (no --offset)\n"
	"REM SESSION 01\n"
	"FILE \"d.bin\" BINARY\n"
	"  TRACK 01 MODE1/2352\n"
	"    INDEX 01 00:00:00\n"
	"  TRACK 02 AUDIO\n"
	"    FLAGS DCP\n"
	"    ISRC USRC17607839\n"
	"    INDEX 00 00:01:45\n"		/* 120 frames in */
	"    INDEX 01 00:03:45\n"
	"    INDEX 02 01:01:44\n"		/* 4499 + 120 = 4619 */
	"REM SESSION 02\n"
	"  TRACK 03 MODE1/2352\n"
	"    INDEX 00 59:59:74\n"		/* 269999 */
	"    INDEX 01 60:01:74\n";

static struct raw_file files[3];
static struct raw_plan plan = { .f = files, .n = 3 };

static void set_plan(void)
{
	files[0].stream = 0;
	files[1].stream = 120;
	files[2].stream = 269999;
}

static void test_one_file(void **state)
{
	char out[2048];
	size_t n;

	(void)state;
	set_plan();
	n = raw_sheet_single(out, sizeof(out), multi, &plan, "d.bin");
	assert_string_equal(out, single);
	assert_int_equal(n, strlen(single));
}

/* The length is snprintf's: a short buffer holds what fits, terminated. */
static void test_short_buffer(void **state)
{
	char out[40], one[1];
	size_t n;

	(void)state;
	set_plan();
	n = raw_sheet_single(out, sizeof(out), multi, &plan, "d.bin");
	assert_int_equal(n, strlen(single));
	assert_int_equal(strlen(out), sizeof(out) - 1);
	assert_memory_equal(out, single, sizeof(out) - 1);
	assert_int_equal(raw_sheet_single(one, sizeof(one), multi, &plan, "d.bin"), strlen(single));
	assert_int_equal(one[0], '\0');
}

/*
 * Lines that are not an INDEX of the sheet's own form stay as they are;
 * a last line without its newline gets one; an INDEX before any FILE
 * (no file to count from) and past the plan's files is not moved.
 */
static void test_other_lines(void **state)
{
	char out[512];

	(void)state;
	set_plan();
	raw_sheet_single(out, sizeof(out),
			 "    INDEX 01 00:00:05\n"
			 "FILE \"a\" BINARY\nFILE \"b\" BINARY\n"
			 "    INDEX 01 00:60:00\n    INDEX 1 00:00:00\n"
			 "    INDEX 01 00:00:00 x\nFILE \"c\" BINARY\nFILE \"d\" BINARY\n"
			 "    INDEX 01 00:00:01", &plan, "o.bin");
	assert_string_equal(out,
			    "    INDEX 01 00:00:05\n"
			    "FILE \"o.bin\" BINARY\n"
			    "    INDEX 01 00:60:00\n    INDEX 1 00:00:00\n"
			    "    INDEX 01 00:00:00 x\n"
			    "    INDEX 01 00:00:01\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_file),
		cmocka_unit_test(test_short_buffer),
		cmocka_unit_test(test_other_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
