// SPDX-License-Identifier: MIT
/*
 * Safe imaging (issue 11) through the library API on the emulated drive:
 * ordinary damage, trailing unreadable blocks.  Every check compares
 * OUT's bytes with the backing image.
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
#include "book/identity.h"
#include "book/records.h"

#define BLOCKS 3000
#define BS 2048

struct fixture {
	char dir[64];
	char img[96], img2[96], out[96], map[96];
	uint8_t *data;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	size_t i, n = (size_t)BLOCKS * BS;

	if (!f || th_tmpdir(f->dir, sizeof(f->dir), "safe"))
		return -1;
	th_path(f->img, sizeof(f->img), f->dir, "disc.img");
	th_path(f->img2, sizeof(f->img2), f->dir, "other.img");
	th_path(f->out, sizeof(f->out), f->dir, "out.img");
	th_path(f->map, sizeof(f->map), f->dir, "out.map");
	f->data = th_random(n, 11);
	th_write_file(f->img, f->data, n);
	/* another disc of the same size: one byte differs in every block */
	for (i = 0; i < n; i += BS)
		f->data[i] ^= 0x5a;
	th_write_file(f->img2, f->data, n);
	for (i = 0; i < n; i += BS)
		f->data[i] ^= 0x5a;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(th_rmrf(f->dir), 0);
	free(f->data);
	free(f);
	return 0;
}

/* OUT is nblocks long; blocks first_bad..last_bad are zeros, the rest the disc's. */
static void check_out(struct fixture *f, uint64_t first_bad, uint64_t last_bad,
		      uint64_t nblocks)
{
	th_expect_image(f->out, f->data, BS, nblocks, first_bad, last_bad);
}

static int fresh(void **state)
{
	struct fixture *f = *state;

	unlink(f->out);
	unlink(f->map);
	return 0;
}

/* image with a map; returns cdt_image's code, r filled */
static int image(struct fixture *f, struct cdt_dev *dev, struct cdt_image_result *r)
{
	struct cdt_image_opts o = { .size = sizeof(o), .rd.retries = 1, .map_path = f->map };

	return cdt_image(dev, f->out, &o, r);
}

/* Defect 1: a scratch in the middle used to fail with "bad read size". */
static void test_ordinary_damage(void **state)
{
	struct fixture *f = *state;
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = th_open_sim(f->img, "bad=100-400");

	assert_int_equal(image(f, dev, &r), 0);
	assert_int_equal(r.extent_blocks, BLOCKS);
	assert_int_equal(r.sum.bad_blocks, 301);
	assert_int_equal(r.sum.n_bad, 1);
	assert_int_equal(r.sum.bad[0].first, 100);
	assert_int_equal(r.sum.bad[0].last, 400);
	check_out(f, 100, 400, BLOCKS);
	cdt_image_result_free(&r);
	cdt_close(dev);
}

/* Defect 1: the last blocks MEDIUM ERROR, out of range after them. */
static void test_trailing_medium(void **state)
{
	static const char *const keys[] = { "bad=2500-2999", "bad=2700-2999,hide=700",
					    "bad=0-2999", "bad=2000-2999,extra=50" };
	static const uint64_t first[] = { 2500, 2700, 0, 2000 };
	struct fixture *f = *state;
	struct cdt_image_result r = CDT_INIT(r);
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct cdt_dev *dev = th_open_sim(f->img, keys[i]);

		fresh(state);
		assert_int_equal(image(f, dev, &r), 0);
		assert_int_equal(r.extent_blocks, BLOCKS);
		assert_int_equal(r.sum.bad_blocks, BLOCKS - first[i]);
		check_out(f, first[i], BLOCKS - 1, BLOCKS);
		cdt_image_result_free(&r);
		cdt_close(dev);
	}
}

/* The end search gives up on flaky answers: the extent still runs to the end. */
static void test_flaky_end(void **state)
{
	struct fixture *f = *state;
	struct cdt_probe_result p = CDT_INIT(p);
	struct cdt_dev *dev = th_open_sim(f->img, "hide=2900,flaky=25-2990:1");

	assert_int_equal(cdt_probe(dev, NULL, &p), 0);
	assert_int_equal(p.extent_blocks, BLOCKS);
	cdt_close(dev);
}


/* The whole of a file, for "untouched" checks (free it). */
static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

static void assert_same_file(const char *path, const char *was, size_t was_len)
{
	size_t len;
	char *now = slurp(path, &len);

	assert_int_equal(len, was_len);
	assert_memory_equal(now, was, len);
	free(now);
}

/* A map of disc A is refused on disc B; the same disc resumes with no failing read. */
static void test_identity(void **state)
{
	struct fixture *f = *state;
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = th_open_sim(f->img, "bad=500-599");
	size_t ml, ol;
	char *map, *out;

	assert_int_equal(image(f, dev, &r), 0);
	assert_true(r.identity_blocks >= 8);
	cdt_image_result_free(&r);
	cdt_close(dev);
	map = slurp(f->map, &ml);
	out = slurp(f->out, &ol);
	assert_non_null(strstr(map, "# cdtail identity: block_size=2048 extent=3000"));
	dev = th_open_sim(f->img2, "");
	assert_int_equal(image(f, dev, &r), CDT_EOTHERDISC);
	assert_non_null(strstr(cdt_errmsg(dev), "another disc"));
	cdt_image_result_free(&r);
	cdt_close(dev);
	assert_same_file(f->map, map, ml);
	assert_same_file(f->out, out, ol);
	free(map);
	free(out);
	dev = th_open_sim(f->img, "");
	assert_int_equal(image(f, dev, &r), 0);
	assert_true(r.resumed);
	assert_int_equal(r.sum.stats.failed_reads, 0);
	check_out(f, UINT64_MAX, 0, BLOCKS);
	cdt_image_result_free(&r);
	cdt_close(dev);
}

static void test_identity_text(void **state)
{
	struct disc_id a = { .present = true, .block_size = 2048, .extent = 3000,
			     .true_blocks = 2990, .n = 2, .lba = { 16, 2999 } };
	struct disc_id b;
	char text[ID_TEXT_MAX + 64], line[ID_TEXT_MAX];

	(void)state;
	memset(a.sha256[1], 0xab, 32);
	id_format(&a, line, sizeof(line));
	snprintf(text, sizeof(text), "# %s\n", line);
	/* id_format's later lines need their "# " as map_write gives them */
	for (char *p = strchr(text, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
		memmove(p + 3, p + 1, strlen(p + 1) + 1);
		p[1] = '#';
		p[2] = ' ';
	}
	assert_int_equal(id_parse(text, &b), 0);
	assert_true(b.present);
	assert_int_equal(b.extent, 3000);
	assert_int_equal(b.true_blocks, 2990);
	assert_int_equal(b.n, 2);
	assert_int_equal(b.lba[1], 2999);
	assert_memory_equal(b.sha256[1], a.sha256[1], 32);
	assert_false(b.window);
	assert_false(b.pending);
	assert_int_equal(id_parse("# cdtail identity: block_size=x\n", &b), CDT_EFORMAT);
	assert_int_equal(id_parse("0x0 ?\n", &b), 0);
	assert_false(b.present);
}

/*
 * The window state (issue 28 B): written after the counts and read back;
 * a record without it (an older cdtail's) is a search that found its end;
 * words a later cdtail may add are left alone; a window without its
 * --max-extra, or one that is also pending, is damage.
 */
static void test_identity_window(void **state)
{
	struct disc_id a = { .present = true, .block_size = 2048, .extent = 908,
			     .true_blocks = 908, .window = true, .max_extra = 8 };
	struct disc_id b;
	char line[ID_TEXT_MAX], text[ID_TEXT_MAX + 4];

	(void)state;
	id_format(&a, line, sizeof(line));
	assert_string_equal(line, "cdtail identity: block_size=2048 extent=908 true_blocks=908"
			    " max_extra=8 search=window");
	snprintf(text, sizeof(text), "# %s\n", line);
	assert_int_equal(id_parse(text, &b), 0);
	assert_true(b.window);
	assert_false(b.pending);
	assert_int_equal(b.max_extra, 8);
	assert_int_equal(b.extent, 908);
	a.pending = true;
	id_format(&a, line, sizeof(line));
	assert_string_equal(line, "cdtail identity: block_size=2048 extent=908 true_blocks=908"
			    " search=pending");
	assert_int_equal(id_parse("# cdtail identity: block_size=2048 extent=9 true_blocks=9\n", &b), 0);
	assert_true(b.present);
	assert_false(b.window);
	assert_int_equal(id_parse("# cdtail identity: block_size=2048 extent=9 true_blocks=9"
				  " colour=blue search=pending\n", &b), 0);
	assert_true(b.pending);
	assert_int_equal(id_parse("# cdtail identity: block_size=2048 extent=9 true_blocks=9"
				  " search=window\n", &b), CDT_EFORMAT);
	assert_int_equal(id_parse("# cdtail identity: block_size=2048 extent=9 true_blocks=9"
				  " max_extra=8x search=window\n", &b), CDT_EFORMAT);
	assert_int_equal(id_parse("# cdtail identity: block_size=2048 extent=9 true_blocks=9"
				  " max_extra=8 search=window search=pending\n", &b), CDT_EFORMAT);
	/* a --max-extra without its window means nothing (fuzz_identity) */
	assert_int_equal(id_parse("# cdtail identity: block_size=2048 extent=9 true_blocks=9"
				  " max_extra=8\n", &b), 0);
	assert_false(b.window);
	assert_int_equal(b.max_extra, 0);
	/* the words of the next line are not this one's */
	assert_int_equal(id_parse("# cdtail identity: block_size=2048 extent=9 true_blocks=9\n"
				  "# search=window\n", &b), 0);
	assert_false(b.window);
}

/* A map held by another run: refused at once, nothing created. */
static void test_lock(void **state)
{
	struct fixture *f = *state;
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = th_open_sim(f->img, "");
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = open(f->map, O_RDWR | O_CREAT, 0644);

	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_OFD_SETLK, &fl), 0);
	assert_int_equal(image(f, dev, &r), CDT_EBUSY);
	assert_non_null(strstr(cdt_errmsg(dev), "in use"));
	assert_int_not_equal(access(f->out, F_OK), 0);
	cdt_image_result_free(&r);
	close(fd);
	cdt_close(dev);
}

/* OUT is the emulated drive's image: refused, the image untouched. */
static void test_out_is_source(void **state)
{
	struct fixture *f = *state;
	struct cdt_image_opts o = { .size = sizeof(o), .force = true };
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = th_open_sim(f->img, "");

	assert_int_equal(cdt_image(dev, f->img, &o, &r), CDT_EOTHERDISC);
	cdt_image_result_free(&r);
	cdt_close(dev);
	assert_same_file(f->img, (const char *)f->data, (size_t)BLOCKS * BS);
}

/* 06/28/00 with another disc: stop, map saved, none of its blocks in OUT. */
static void test_medium_change(void **state)
{
	struct fixture *f = *state;
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_image_opts o = { .size = sizeof(o), .rd.chunk_blocks = 16, .map_path = f->map };
	char keys[200];
	struct cdt_dev *dev;
	uint8_t *got;
	size_t len, b;

	snprintf(keys, sizeof(keys), "change=60:%s", f->img2);
	dev = th_open_sim(f->img, keys);
	assert_int_equal(cdt_image(dev, f->out, &o, &r), CDT_ECHANGED);
	assert_non_null(strstr(cdt_errmsg(dev), "the medium changed"));
	assert_true(r.sum.blocks_read > 0);
	assert_false(r.removed);
	cdt_image_result_free(&r);
	cdt_close(dev);
	got = (uint8_t *)slurp(f->out, &len);
	assert_int_equal(len, (size_t)BLOCKS * BS);
	for (b = 0; b < BLOCKS; b++) {
		static const uint8_t zero[BS];
		const uint8_t *blk = got + b * BS;

		if (memcmp(blk, zero, BS) && memcmp(blk, f->data + b * BS, BS))
			fail_msg("block %zu of OUT is from the other disc", b);
	}
	free(got);
	/* the same disc again: goes on */
	fresh(state);
	dev = th_open_sim(f->img, "change=60");
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	check_out(f, UINT64_MAX, 0, BLOCKS);
	cdt_image_result_free(&r);
	cdt_close(dev);
}

/* A trailing MEDIUM run past the --max-extra window: never silent. */
static void test_window(void **state)
{
	struct fixture *f = *state;
	struct cdt_probe_opts o = { .size = sizeof(o), .max_extra = 100 };
	struct cdt_probe_result p = CDT_INIT(p);
	struct cdt_dev *dev = th_open_sim(f->img, "hide=2000,bad=900-2999");

	assert_int_equal(cdt_probe(dev, &o, &p), 0);
	assert_true(p.notes & CDT_NOTE_WINDOW_LIMIT);
	assert_true(p.extent_blocks <= 1100);
	cdt_close(dev);
}

/* The stop flag is polled in the end search too (it used to run on). */
static void test_stop_in_search(void **state)
{
	struct fixture *f = *state;
	volatile sig_atomic_t stop = 1;
	struct cdt_probe_opts o = { .size = sizeof(o), .stop = &stop };
	struct cdt_image_opts io = { .size = sizeof(io), .rd.stop = &stop, .map_path = f->map };
	struct cdt_probe_result p = CDT_INIT(p);
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = th_open_sim(f->img, "hide=2000");

	assert_int_equal(cdt_probe(dev, &o, &p), CDT_EINTR);
	assert_int_equal(cdt_image(dev, f->out, &io, &r), CDT_EINTR);
	assert_int_equal(r.sum.stats.failed_reads, 0);
	assert_int_not_equal(access(f->out, F_OK), 0);
	assert_int_not_equal(access(f->map, F_OK), 0);
	cdt_image_result_free(&r);
	cdt_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_ordinary_damage, fresh),
		cmocka_unit_test_setup(test_trailing_medium, fresh),
		cmocka_unit_test_setup(test_flaky_end, fresh),
		cmocka_unit_test_setup(test_identity, fresh),
		cmocka_unit_test(test_identity_text),
		cmocka_unit_test(test_identity_window),
		cmocka_unit_test_setup(test_lock, fresh),
		cmocka_unit_test_setup(test_out_is_source, fresh),
		cmocka_unit_test_setup(test_medium_change, fresh),
		cmocka_unit_test(test_window),
		cmocka_unit_test_setup(test_stop_in_search, fresh),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
