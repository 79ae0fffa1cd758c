// SPDX-License-Identifier: MIT
/*
 * The CD-TEXT lines of image --raw's sheet (jobs/rawplan.c, put_text):
 * the disc's after CATALOG, a track's after its TRACK line, in redumper's
 * order (TITLE, PERFORMER, SONGWRITER, then COMPOSER, ARRANGER, MESSAGE),
 * a double quote written \x22, a text too long for a sheet line left out
 * with a REM; and the sheet read back by cd/cue.c with the same text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "cd/cue.h"
#include "jobs/rawplan.h"

static void test_sheet_text(void **state)
{
	struct cdt_track t[] = {
		{ .number = 1, .session = 1, .mode = CDT_TRACK_AUDIO, .start = 0, .blocks = 300,
		  .sector_mode = CDT_SECTOR_AUDIO },
		{ .number = 2, .session = 1, .mode = CDT_TRACK_AUDIO, .start = 300, .blocks = 300,
		  .sector_mode = CDT_SECTOR_AUDIO },
	};
	struct cdt_layout l = { .sessions = 1, .tracks = t, .n_tracks = 2 };
	struct cdt_text_block *b = calloc(1, sizeof(*b));
	char *longtext = malloc(1100), sheet[8192];
	struct cue_sheet c;
	struct raw_plan p;
	char err[128];

	(void)state;
	assert_non_null(b);
	memset(longtext, 'x', 1099);
	longtext[1099] = '\0';
	b->text[0][CDT_TEXT_PERFORMER] = "The Band";
	b->text[0][CDT_TEXT_TITLE] = "Say \"Hi\"";
	b->text[1][CDT_TEXT_MESSAGE] = "m";
	b->text[1][CDT_TEXT_SONGWRITER] = "s";
	b->text[2][CDT_TEXT_TITLE] = longtext;
	assert_int_equal(raw_plan_make(&l, 600, &p), 0);
	strcpy(p.catalog, "0123456789012");
	p.text = b;
	raw_sheet(sheet, sizeof(sheet), &p, "d", &(struct raw_sheet_notes){ 0 });
	assert_string_equal(sheet,
		"CATALOG 0123456789012\n"
		"TITLE \"Say \\x22Hi\\x22\"\n"
		"PERFORMER \"The Band\"\n"
		"FILE \"d (Track 1).bin\" BINARY\n"
		"  TRACK 01 AUDIO\n"
		"    SONGWRITER \"s\"\n"
		"    MESSAGE \"m\"\n"
		"    INDEX 01 00:00:00\n"
		"FILE \"d (Track 2).bin\" BINARY\n"
		"  TRACK 02 AUDIO\n"
		"    REM cdtail: CD-TEXT TITLE longer than a sheet line: in the JSON only\n"
		"    INDEX 01 00:00:00\n");
	/* the sheet reads back with its text (cue.c takes it as it stands) */
	assert_int_equal(cue_parse(sheet, strlen(sheet), 0, &c, err, sizeof(err)), 0);
	assert_string_equal(c.text[0][CD_TEXT_TITLE], "Say \\x22Hi\\x22");
	assert_string_equal(c.text[1][CD_TEXT_MESSAGE], "m");
	assert_null(c.text[2][CD_TEXT_TITLE]);
	cue_free(&c);
	/* no text: the sheet as before */
	p.text = NULL;
	raw_sheet(sheet, sizeof(sheet), &p, "d", &(struct raw_sheet_notes){ 0 });
	assert_null(strstr(sheet, "TITLE"));
	raw_plan_free(&p);
	free(longtext);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sheet_text),
	};

	return cmocka_run_group_tests_name("rawplan_text", tests, NULL, NULL);
}
