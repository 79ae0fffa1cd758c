// SPDX-License-Identifier: MIT
/*
 * The CUE sheet reader's limits (cd/cue.c, issue 32): a FILE outside the
 * sheet's folder (absolute, or with a ".." part) is refused, naming its
 * line, unless CUE_ANY_PATH; a line longer than CUE_LINE_MAX characters is
 * an error naming it, never cut.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cd/cue.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* A sheet of one track whose FILE (on line 2) is name. */
static void sheet_of(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "REM a comment\nFILE \"%s\" BINARY\n  TRACK 01 MODE1/2352\n"
		 "    INDEX 01 00:00:00\n", name);
}

static void test_paths_outside(void **state)
{
	static const char *const outside[] = {
		"/abs/x.bin", "/x.bin", "../x.bin", "..", "a/../x.bin",
		"a/../../x.bin", "a/..", "sub/../../etc/passwd", "//x.bin",
	};
	struct cue_sheet c;
	char text[256], err[200];
	size_t i;

	(void)state;
	for (i = 0; i < N_OF(outside); i++) {
		sheet_of(outside[i], text, sizeof(text));
		err[0] = '\0';
		assert_int_equal(cue_parse(text, strlen(text), 0, &c, err, sizeof(err)),
				 CUE_EOUTSIDE);
		if (!strstr(err, "cue line 2:") || !strstr(err, "outside the sheet's folder"))
			fail_msg("'%s': '%s' does not name line 2 and why", outside[i], err);
		assert_int_equal(c.n_files, 0);
		assert_false(cue_path_inside(outside[i]));
		/* the option takes it, as it is written */
		assert_int_equal(cue_parse(text, strlen(text), CUE_ANY_PATH, &c, err,
					   sizeof(err)), 0);
		assert_string_equal(c.files[0], outside[i]);
		cue_free(&c);
	}
}

static void test_paths_inside(void **state)
{
	static const char *const inside[] = {
		"x.bin", "sub/x.bin", "./x.bin", "a..b.bin", "..x.bin", "x..",
		"...", "a/.../x.bin", "..\\x.bin", "Track (01).bin",
	};
	struct cue_sheet c;
	char text[256], err[200];
	size_t i;

	(void)state;
	for (i = 0; i < N_OF(inside); i++) {
		sheet_of(inside[i], text, sizeof(text));
		if (cue_parse(text, strlen(text), 0, &c, err, sizeof(err)))
			fail_msg("'%s' refused: %s", inside[i], err);
		assert_string_equal(c.files[0], inside[i]);
		assert_true(cue_path_inside(inside[i]));
		cue_free(&c);
	}
}

/* The second FILE outside: refused at its own line, the first freed. */
static void test_paths_later_file(void **state)
{
	static const char text[] = "FILE \"a.bin\" BINARY\nTRACK 01 AUDIO\nINDEX 01 00:00:00\n"
		"FILE \"../b.bin\" BINARY\nTRACK 02 AUDIO\nINDEX 01 00:00:00\n";
	struct cue_sheet c;
	char err[200];

	(void)state;
	assert_int_equal(cue_parse(text, strlen(text), 0, &c, err, sizeof(err)), CUE_EOUTSIDE);
	assert_non_null(strstr(err, "cue line 4:"));
	assert_int_equal(c.n_files, 0);
}

/* A sheet whose line 3 is a TITLE line of n characters in all. */
static char *long_title(size_t n, size_t *len)
{
	static const char head[] = "FILE \"x.bin\" BINARY\nTRACK 01 AUDIO\n";
	static const char tail[] = "\nINDEX 01 00:00:00\n";
	char *t = malloc(sizeof(head) + n + sizeof(tail));

	assert_non_null(t);
	assert_true(n > 8);
	memcpy(t, head, sizeof(head) - 1);
	memcpy(t + sizeof(head) - 1, "TITLE \"", 7);
	memset(t + sizeof(head) - 1 + 7, 'a', n - 8);
	t[sizeof(head) - 1 + n - 1] = '"';
	memcpy(t + sizeof(head) - 1 + n, tail, sizeof(tail));
	*len = sizeof(head) - 1 + n + sizeof(tail) - 1;
	return t;
}

static void test_long_lines(void **state)
{
	struct cue_sheet c;
	char err[200];
	size_t len;
	char *t;

	(void)state;
	/* CUE_LINE_MAX characters: taken */
	t = long_title(CUE_LINE_MAX, &len);
	assert_int_equal(cue_parse(t, len, 0, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n_tracks, 1);
	cue_free(&c);
	free(t);
	/* one more, or many more: an error naming the line, never cut */
	t = long_title(CUE_LINE_MAX + 1, &len);
	assert_int_equal(cue_parse(t, len, 0, &c, err, sizeof(err)), -1);
	assert_string_equal(err, "cue line 3: longer than 1023 characters");
	free(t);
	t = long_title(100000, &len);
	assert_int_equal(cue_parse(t, len, CUE_ANY_PATH, &c, err, sizeof(err)), -1);
	assert_string_equal(err, "cue line 3: longer than 1023 characters");
	free(t);
}

/*
 * What a cut once hid: a FILE line whose name runs past the limit used to
 * be read as its first 1023 characters (an unclosed quote, or a shorter
 * name); now the line itself is the error, CR LF ends or not.
 */
static void test_long_file_line(void **state)
{
	char text[1200 + 64], err[200];
	struct cue_sheet c;
	int n;

	(void)state;
	n = snprintf(text, sizeof(text), "FILE \"%01100d.bin\" BINARY\r\nTRACK 01 AUDIO\r\n"
		     "INDEX 01 00:00:00\r\n", 0);
	assert_true(n > 0 && (size_t)n < sizeof(text));
	assert_int_equal(cue_parse(text, (size_t)n, 0, &c, err, sizeof(err)), -1);
	assert_string_equal(err, "cue line 1: longer than 1023 characters");
}

/*
 * INDEX 02..99 (issue 33): kept by track in the sheet's marks, numbers
 * rising within a track (one may be skipped), times rising in the file.
 */
static void test_index_marks(void **state)
{
	static const char good[] =
		"FILE \"a.bin\" BINARY\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n"
		"    INDEX 02 00:01:00\n  TRACK 02 AUDIO\n    INDEX 00 00:03:00\n"
		"    INDEX 01 00:05:00\n    INDEX 02 00:06:00\n    INDEX 04 00:07:10\n";
	static const char *const bad[] = {
		"FILE \"a.bin\" BINARY\nTRACK 01 AUDIO\nINDEX 01 00:00:00\n"
		"INDEX 03 00:01:00\nINDEX 02 00:02:00\n",
		"FILE \"a.bin\" BINARY\nTRACK 01 AUDIO\nINDEX 01 00:00:00\n"
		"INDEX 02 00:01:00\nINDEX 02 00:02:00\n",
	};
	struct cue_sheet c;
	char err[200];
	size_t i;

	(void)state;
	assert_int_equal(cue_parse(good, sizeof(good) - 1, 0, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n_marks, 3);
	assert_int_equal(c.tracks[0].n_marks, 1);
	assert_int_equal(c.marks[c.tracks[0].mark0].number, 2);
	assert_int_equal(c.marks[c.tracks[0].mark0].at, 75);
	assert_int_equal(c.tracks[1].n_marks, 2);
	assert_int_equal(c.marks[c.tracks[1].mark0].at, 6 * 75);
	assert_int_equal(c.marks[c.tracks[1].mark0 + 1].number, 4);
	assert_int_equal(c.marks[c.tracks[1].mark0 + 1].at, 7 * 75 + 10);
	cue_free(&c);
	for (i = 0; i < N_OF(bad); i++) {
		assert_int_equal(cue_parse(bad[i], strlen(bad[i]), 0, &c, err, sizeof(err)), -1);
		assert_string_equal(err, "cue line 5: index numbers must rise within a track");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths_outside),
		cmocka_unit_test(test_paths_inside),
		cmocka_unit_test(test_paths_later_file),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_long_file_line),
		cmocka_unit_test(test_index_marks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
