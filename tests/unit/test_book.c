// SPDX-License-Identifier: MIT
/*
 * The map book (book/book.h) and its one record parser (book/records.h):
 * every record read, every damaged value refused with words that name it,
 * the resume state decided from what the map says, the save order (no
 * map replaced while an output cannot be synced), the removal of what a
 * run made, the medium-change rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "cdtail.h"
#include "th.h"
#include "core/device.h"
#include "book/book.h"
#include "book/records.h"
#include "engine/reader.h"

#define HEX64 "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
#define ID3000 "# cdtail identity: block_size=2048 extent=3000 true_blocks=3000"

/* ---- the records ---- */

static void test_every_record(void **state)
{
	static const char text[] =
		"# Mapfile. Created by cdtail\n"
		"# cdtail drive: ACME CD-1 1.0\n"
		"# cdtail skipped (not data, never read, zeros in OUT; LBA+blocks): 100+50 audio\n"
		"# cdtail raw: sector=2352 stream=the track files in order sectors=2990 files=2\n"
		ID3000 "\n"
		"# cdtail identity block 16 sha256=" HEX64 "\n"
		"0x00000000     +     1\n";
	struct book_records r;
	char why[200] = "";

	(void)state;
	assert_int_equal(records_parse(text, &r, why, sizeof(why)), 0);
	assert_string_equal(r.drive, "ACME CD-1 1.0");
	assert_true(r.id.present);
	assert_int_equal(r.id.block_size, 2048);
	assert_int_equal(r.id.extent, 3000);
	assert_int_equal(r.id.true_blocks, 3000);
	assert_int_equal(r.id.n, 1);
	assert_int_equal(r.id.lba[0], 16);
	assert_int_equal(r.id.sha256[0][31], 0xff);
	assert_int_equal(r.skip.n, 1);
	assert_int_equal(r.skip.v[0].start, 100);
	assert_true(r.raw);
	assert_int_equal(r.raw_sectors, 2990);
	assert_int_equal(r.raw_files, 2);
	records_free(&r);
}

/* A map of GNU ddrescue's: no record, nothing damaged. */
static void test_no_records(void **state)
{
	struct book_records r;
	char why[200];

	(void)state;
	assert_int_equal(records_parse("# Mapfile. Created by GNU ddrescue\n0x0 + 1\n",
				       &r, why, sizeof(why)), 0);
	assert_false(r.id.present);
	assert_false(r.raw);
	assert_string_equal(r.drive, "");
	assert_int_equal(r.skip.n, 0);
	records_free(&r);
}

/* The true end may lie past the extent (a formatted medium cut, a raw stream). */
static void test_true_end_past_extent(void **state)
{
	struct book_records r;
	char why[200];

	(void)state;
	assert_int_equal(records_parse("# cdtail identity: block_size=2048 extent=3000 true_blocks=9000\n",
				       &r, why, sizeof(why)), 0);
	assert_int_equal(r.id.true_blocks, 9000);
	records_free(&r);
	assert_int_equal(records_parse("# cdtail identity: block_size=2048 extent=3000 true_blocks=2990"
				       " max_extra=64 search=window\n", &r, why, sizeof(why)), 0);
	assert_true(r.id.window);
	assert_int_equal(r.id.max_extra, 64);
	records_free(&r);
}

struct refusal {
	const char *text;
	const char *words;	/* in the reason */
};

static const struct refusal refusals[] = {
	/* the issue's: sscanf read -1 as 2^64 - 1 */
	{ "# cdtail identity: block_size=2048 extent=3000 true_blocks=-1\n", "true_blocks=-1" },
	{ "# cdtail identity: block_size=2048 extent=3000 true_blocks=+5\n", "true_blocks=+5" },
	{ "# cdtail identity: block_size=2048 extent=3000 true_blocks=18446744073709551615\n",
	  "true_blocks=18446744073709551615" },
	{ "# cdtail identity: block_size=2048 extent=3000 true_blocks=4503599627370496\n",
	  "true_blocks=4503599627370496" },
	{ "# cdtail identity: block_size=2048 extent=3000 true_blocks=30x0\n", "true_blocks=30x0" },
	{ "# cdtail identity: block_size=2048 extent=3000 true_blocks=\n", "true_blocks=" },
	{ "# cdtail identity: block_size=2048 extent=3000\n", "not a count" },
	{ "# cdtail identity: block_size=2048 extent=-3000 true_blocks=3000\n", "extent=-3000" },
	{ "# cdtail identity: block_size=2048 extent=0 true_blocks=0\n", "extent=0" },
	/* a digit above the bound: the bound minus it wrapped (fuzz_identity) */
	{ "# cdtail identity: block_size=512 extent=3 true_blocks=2990\n"
	  "# cdtail identity block 2999 sha256="
	  "5071dd26cedb458cdfb3f0d71a9ebce7c8e30f35efc5ea367e7e523552af25f6\n",
	  "not an LBA below its extent 3" },
	{ "# cdtail identity: block_size=2047 extent=3000 true_blocks=3000\n", "block_size=2047" },
	{ "# cdtail identity: block_size=0 extent=3000 true_blocks=3000\n", "block_size=0" },
	{ "# cdtail identity: block_size=-2048 extent=3000 true_blocks=3000\n", "block_size=-2048" },
	{ "# cdtail identity: block_size=2048 extent=3000 true_blocks=3000 max_extra=-1 search=window\n",
	  "max_extra=-1" },
	{ "# cdtail identity: block_size=2048 extent=3000 true_blocks=3000 max_extra=0 search=window\n",
	  "max_extra=0" },
	{ "# cdtail identity: block_size=2048 extent=3000 true_blocks=3000 search=window\n",
	  "without its max_extra" },
	{ "# cdtail identity: block_size=2048 extent=3000 true_blocks=3001 max_extra=8 search=window\n",
	  "past the window's edge" },
	{ "# cdtail identity: block_size=2048 extent=3000 true_blocks=3000 search=pending max_extra=8 search=window\n",
	  "both pending" },
	{ ID3000 "\n" ID3000 "\n", "two identity lines" },
	{ ID3000 "\n# cdtail identity block 3000 sha256=" HEX64 "\n", "below its extent 3000" },
	{ ID3000 "\n# cdtail identity block -1 sha256=" HEX64 "\n", "below its extent" },
	{ ID3000 "\n# cdtail identity block 16 sha256=0011\n", "64-digit" },
	{ ID3000 "\n# cdtail identity block 16 sha256=" HEX64 "00\n", "64-digit" },
	{ ID3000 "\n# cdtail identity block 16 md5=0011\n", "no sha256" },
	{ "# cdtail identity block 16 sha256=" HEX64 "\n", "before the identity line" },
	{ "# cdtail raw: sector=2352 stream=the track files in order sectors=-1 files=1\n", "sectors=" },
	{ "# cdtail raw: sector=2352 stream=the track files in order sectors=0 files=1\n", "sectors=" },
	{ "# cdtail raw: sector=2352 stream=the track files in order sectors=10 files=0\n", "files=" },
	{ "# cdtail raw: sector=2352 stream=the track files in order sectors=10 files=100\n", "files=" },
	{ "# cdtail raw: sector=2352 stream=the track files in order sectors=10 files=1 more\n", "goes on" },
	{ "# cdtail raw: sector=2048 stream=the track files in order sectors=10 files=1\n", "2352" },
	{ "# cdtail raw: sector=2352 stream=the track files in order sectors=10 files=1\n"
	  "# cdtail raw: sector=2352 stream=the track files in order sectors=10 files=1\n", "two raw" },
	{ "# cdtail skipped (not data; LBA+blocks): 0+10 gap, 5+3 audio\n", "skipped list" },
};

static void test_refusals(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < TH_N(refusals); i++) {
		struct book_records r;
		char why[300] = "";
		int rc = records_parse(refusals[i].text, &r, why, sizeof(why));

		records_free(&r);
		if (rc != CDT_EFORMAT || !strstr(why, refusals[i].words))
			fail_msg("refusal %zu: rc %d, why '%s', wanted '%s'", i, rc, why,
				 refusals[i].words);
		/* the identity alone: refused as well, nothing kept */
		if (strstr(refusals[i].text, "identity")) {
			struct disc_id id;

			assert_int_equal(id_parse(refusals[i].text, &id), CDT_EFORMAT);
			assert_false(id.present);
		}
	}
}

/* ---- the book over files ---- */

struct fx {
	char dir[64], map[96], out[96];
	struct cdt_dev *dev;
	struct th_disc *disc;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->disc = th_disc_new("book", 3000 * 2048, 7);
	if (!f->disc)
		return -1;
	f->dev = th_open_sim(f->disc->img, "");
	snprintf(f->map, sizeof(f->map), "%s", f->disc->map);
	snprintf(f->out, sizeof(f->out), "%s", f->disc->out);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	cdt_close(f->dev);
	th_disc_free(f->disc);
	free(f);
	return 0;
}

static void put(const char *path, const char *text)
{
	th_write_file(path, text, strlen(text));
}

/* The state a map of text gives, opened as image opens it. */
static int state_of(struct fx *f, const char *text, bool force, enum book_state *st)
{
	struct map_book b;
	int rc;

	if (text)
		put(f->map, text);
	else
		unlink(f->map);
	book_init(&b, f->dev, f->map, NULL, "block");
	rc = book_lock(&b, false);
	if (!rc)
		rc = book_load(&b, force);
	*st = b.state;
	book_close(&b, 0);
	return rc;
}

#define RUNS_DONE "0x00000000 +     1\n0x00000000  0x005DC000  +\n"
#define RUNS_TAIL "0x00000000 +     1\n0x00000000  0x005D7000  +\n0x005D7000  0x00005000  -\n"

static void test_states(void **state)
{
	struct fx *f = *state;
	struct map_book none;
	enum book_state st;

	book_init(&none, f->dev, NULL, NULL, "block");
	assert_int_equal(none.state, BOOK_NONE);
	assert_int_equal(book_lock(&none, false), 0);
	assert_int_equal(book_load(&none, false), 0);
	assert_int_equal(none.state, BOOK_NONE);
	assert_false(book_resumed(&none));
	book_close(&none, 0);

	assert_int_equal(state_of(f, NULL, false, &st), 0);
	assert_int_equal(st, BOOK_NEW);
	assert_int_equal(state_of(f, "# GNU ddrescue\n" RUNS_DONE, false, &st), 0);
	assert_int_equal(st, BOOK_FOREIGN);
	assert_int_equal(state_of(f, "# GNU ddrescue\n" RUNS_DONE, true, &st), 0);
	assert_int_equal(st, BOOK_NEW);
	assert_int_equal(state_of(f, ID3000 "\n" RUNS_DONE, false, &st), 0);
	assert_int_equal(st, BOOK_KNOWN);
	assert_int_equal(state_of(f, ID3000 " search=pending\n" RUNS_DONE, false, &st), 0);
	assert_int_equal(st, BOOK_PENDING);
	assert_int_equal(state_of(f, "# cdtail identity: block_size=2048 extent=3000 true_blocks=2990"
				  " max_extra=64 search=window\n" RUNS_DONE, false, &st), 0);
	assert_int_equal(st, BOOK_WINDOW);
	/* blocks past the true end neither read nor skipped: searched again */
	assert_int_equal(state_of(f, "# cdtail identity: block_size=2048 extent=3000 true_blocks=2990\n"
				  RUNS_TAIL, false, &st), 0);
	assert_int_equal(st, BOOK_PENDING);
	assert_int_equal(state_of(f, "# cdtail identity: block_size=2048 extent=3000 true_blocks=2990\n"
				  "# cdtail skipped (not data, never read, zeros in OUT; LBA+blocks): 2990+10 runout\n"
				  RUNS_TAIL, false, &st), 0);
	assert_int_equal(st, BOOK_KNOWN);
}

static void test_damaged_map(void **state)
{
	struct fx *f = *state;
	enum book_state st;

	assert_int_equal(state_of(f, "# cdtail identity: block_size=2048 extent=3000 true_blocks=-1\n"
				  RUNS_DONE, false, &st), CDT_EFORMAT);
	assert_non_null(strstr(cdt_errmsg(f->dev), "has a damaged cdtail identity record: true_blocks=-1"));
	assert_null(strchr(cdt_errmsg(f->dev), '\n'));
}

/* image --raw's lock makes the map; an empty one is a run killed before its first save. */
static void test_lock_creates(void **state)
{
	struct fx *f = *state;
	struct map_book b;
	struct stat st;

	unlink(f->map);
	book_init(&b, f->dev, f->map, NULL, "stream sector");
	assert_int_equal(book_lock(&b, true), 0);
	assert_true(b.created);
	assert_int_equal(stat(f->map, &st), 0);
	book_close(&b, 0);

	book_init(&b, f->dev, f->map, NULL, "stream sector");
	assert_int_equal(book_lock(&b, true), 0);
	assert_false(b.created);
	assert_int_equal(book_load(&b, false), 0);
	assert_int_equal(b.state, BOOK_NEW);
	/* a second run meanwhile is refused */
	{
		struct map_book other;

		book_init(&other, f->dev, f->map, NULL, "block");
		assert_int_equal(book_lock(&other, false), CDT_EBUSY);
		assert_non_null(strstr(cdt_errmsg(f->dev), "in use by another run"));
		book_close(&other, 0);
	}
	book_close(&b, 0);
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = calloc(1, 65536);

	assert_non_null(fp);
	assert_non_null(buf);
	if (fread(buf, 1, 65535, fp) == 0)
		buf[0] = '\0';
	fclose(fp);
	return buf;
}

/* Saved lines read back as the same records: caller, drive, skip list, raw line, identity. */
static void test_save_round_trip(void **state)
{
	struct fx *f = *state;
	struct book_records r;
	struct map_book b;
	char why[200], *text;
	int fd = open(f->out, O_RDWR | O_CREAT, 0644);

	assert_true(fd >= 0);
	unlink(f->map);
	book_init(&b, f->dev, f->map, "a line of the caller", "block");
	assert_int_equal(book_lock(&b, false), 0);
	assert_int_equal(book_load(&b, false), 0);
	snprintf(b.drive, sizeof(b.drive), "ACME CD-1 1.0");
	assert_int_equal(skip_add(&b.rec.skip, 100, CDT_SKIP_FORM2), 0);
	b.rec.raw = true;
	b.rec.raw_sectors = 2990;
	b.rec.raw_files = 3;
	id_init(&b.rec.id, 2048, 3000, 9000);
	assert_int_equal(map_init(&b.map, 3000 * 2048, MAP_NONTRIED), 0);
	assert_int_equal(book_make_comment(&b), 0);
	assert_int_equal(book_create(&b, false), 0);
	assert_true(b.created);
	assert_int_equal(book_add_file(&b, f->out, fd, true), 0);
	cdt_dev_seterr(f->dev, "the first error");
	assert_int_equal(book_save_after(&b, &b.map, CDT_EINTR), 0);
	assert_string_equal(cdt_errmsg(f->dev), "the first error");
	assert_true(book_map_saved(&b));
	text = slurp(f->map);
	assert_non_null(strstr(text, "# a line of the caller\n"));
	assert_int_equal(records_parse(text, &r, why, sizeof(why)), 0);
	assert_string_equal(r.drive, "ACME CD-1 1.0");
	assert_int_equal(r.skip.n, 1);
	assert_true(r.raw);
	assert_int_equal(r.raw_sectors, 2990);
	assert_int_equal(r.raw_files, 3);
	assert_int_equal(r.id.extent, 3000);
	assert_int_equal(r.id.true_blocks, 9000);
	records_free(&r);
	free(text);
	/* what this run made goes; the map with it */
	assert_true(book_remove_created(&b));
	assert_false(book_map_saved(&b));
	assert_int_equal(access(f->out, F_OK), -1);
	assert_int_equal(access(f->map, F_OK), -1);
	assert_int_equal(book_close(&b, 0), 0);
}

/* The save order: an output that cannot be synced leaves the last map as it was. */
static void test_no_save_without_sync(void **state)
{
	struct fx *f = *state;
	struct map_book b;
	int p[2];
	char *before, *after;

	assert_int_equal(pipe(p), 0);
	put(f->map, ID3000 "\n" RUNS_DONE);
	before = slurp(f->map);
	book_init(&b, f->dev, f->map, NULL, "block");
	assert_int_equal(book_lock(&b, false), 0);
	assert_int_equal(book_load(&b, false), 0);
	assert_int_equal(b.state, BOOK_KNOWN);
	assert_false(b.created);
	/* a pipe cannot be synced (EINVAL): as a disk that fails to flush */
	assert_int_equal(book_add_file(&b, "the pipe", p[1], false), 0);
	assert_int_equal(map_set(&b.map, 0, 2048, MAP_BAD), 0);
	assert_int_equal(book_save(&b, &b.map), CDT_EIO);
	assert_non_null(strstr(cdt_errmsg(f->dev), "cannot sync the pipe"));
	after = slurp(f->map);
	assert_string_equal(before, after);
	/* after a run's error the first error stays the one told */
	cdt_dev_seterr(f->dev, "the first error");
	assert_int_equal(book_save_after(&b, &b.map, CDT_ETRANSPORT), CDT_EIO);
	assert_non_null(strstr(cdt_errmsg(f->dev), "the first error; and the map could not be "
			       "saved: cannot sync the pipe"));
	assert_non_null(strstr(cdt_errmsg(f->dev), "(it holds the last save)"));
	assert_false(book_map_saved(&b));
	free(after);
	after = slurp(f->map);
	assert_string_equal(before, after);
	/* nothing was made by this run: nothing goes */
	assert_false(book_remove_created(&b));
	assert_int_equal(access(f->map, F_OK), 0);
	book_close(&b, 0);
	close(p[0]);
	free(before);
	free(after);
}

static int check_result;
static uint64_t check_at;

static int scripted_check(void *ctx, unsigned int *matched, uint64_t *at)
{
	(void)ctx;
	*matched = check_result == 0;
	*at = check_at;
	return check_result;
}

/* The medium-change rule: the same disc goes on, another or an unreadable one ends the run. */
static void test_medium_change(void **state)
{
	struct fx *f = *state;
	struct map_book b;

	book_init(&b, f->dev, f->map, NULL, "stream sector");
	b.check = scripted_check;
	check_result = 0;
	assert_int_equal(book_changed(&b, NULL, 0), 0);
	check_result = 1;
	check_at = 77;
	assert_int_equal(book_changed(&b, NULL, 0), CDT_ECHANGED);
	assert_non_null(strstr(cdt_errmsg(f->dev), "the medium changed: stream sector 77 is not"));
	check_result = 2;
	assert_int_equal(book_changed(&b, NULL, 0), CDT_ECHANGED);
	assert_non_null(strstr(cdt_errmsg(f->dev), "identity cannot be read"));
	check_result = CDT_ENOMEM;
	assert_int_equal(book_changed(&b, NULL, 0), CDT_ENOMEM);
	assert_int_equal(book_other_disc(&b, "block %d differs", 5), CDT_EOTHERDISC);
	assert_non_null(strstr(cdt_errmsg(f->dev), "belongs to another disc: block 5 differs"));
	book_close(&b, 0);
}

/* The identity check of a resume: proof, another disc, no proof, a change meanwhile. */
static void test_verify(void **state)
{
	struct fx *f = *state;
	struct map_book b;
	unsigned int matched;
	bool verified;

	book_init(&b, f->dev, f->map, NULL, "stream sector");
	b.check = scripted_check;
	check_result = 0;
	/* no record: nothing to check, no proof */
	assert_int_equal(book_verify(&b, NULL, 0, &matched, &verified), 0);
	assert_false(verified);
	id_init(&b.rec.id, 2352, 100, 100);
	assert_int_equal(book_verify(&b, NULL, 0, &matched, &verified), 0);
	assert_true(verified);
	assert_int_equal(matched, 1);
	check_result = 2;
	assert_int_equal(book_verify(&b, NULL, 0, &matched, &verified), 0);
	assert_false(verified);
	check_result = 1;
	check_at = 42;
	assert_int_equal(book_verify(&b, NULL, 0, &matched, &verified), CDT_EOTHERDISC);
	assert_non_null(strstr(cdt_errmsg(f->dev),
			       "belongs to another disc: stream sector 42 differs from the one it recorded"));
	check_result = CDT_ECHANGED;
	assert_int_equal(book_verify(&b, NULL, 0, &matched, &verified), CDT_ECHANGED);
	assert_non_null(strstr(cdt_errmsg(f->dev), "the medium changed while its identity was read"));
	book_close(&b, 0);
}

/*
 * Without a callback the identity's cooked blocks are read again on the
 * drive, through the disc reader the job hands the book.
 */
static void test_cooked_check(void **state)
{
	struct fx *f = *state;
	struct cdt_sizes sz = CDT_INIT(sz);
	struct reader cooked;
	struct map_book b;
	uint8_t buf[2048];
	unsigned int matched;
	uint64_t at;

	assert_int_equal(cdt_read_sizes(f->dev, &sz), 0);
	book_init(&b, f->dev, NULL, NULL, "block");
	reader_init(&cooked, f->dev);
	b.read = reader_read;
	b.read_ctx = &cooked;
	id_init(&b.rec.id, 2048, 3000, 3000);
	assert_int_equal(id_note(&b.rec.id, 16, 1, f->disc->data + 16 * 2048), 0);
	assert_int_equal(book_check(&b, buf, sizeof(buf), &matched, &at), 0);
	assert_int_equal(matched, 1);
	b.rec.id.sha256[0][0] ^= 1;
	assert_int_equal(book_check(&b, buf, sizeof(buf), &matched, &at), 1);
	assert_int_equal(at, 16);
	assert_int_equal(book_changed(&b, buf, sizeof(buf)), CDT_ECHANGED);
	assert_non_null(strstr(cdt_errmsg(f->dev), "block 16 is not"));
	/* no map file: a save is nothing, not even a sync */
	assert_int_equal(book_save(&b, &b.map), 0);
	book_close(&b, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_record),
		cmocka_unit_test(test_no_records),
		cmocka_unit_test(test_true_end_past_extent),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test_setup_teardown(test_states, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damaged_map, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_creates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_save_without_sync, setup, teardown),
		cmocka_unit_test_setup_teardown(test_medium_change, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cooked_check, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verify, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
