// SPDX-License-Identifier: MIT
/*
 * map_saved in the image result (issue 31): the library says whether
 * MAPFILE holds this run's map to resume from, so the CLI no longer
 * infers it from error codes.  True after a run that saved its map,
 * whatever ended it (done, a medium change to another disc); false
 * without a map, for a run that made nothing it kept, and for a map of
 * another disc that the run refused.
 */
#include <setjmp.h>
#include <signal.h>
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

#define BLOCKS 3000
#define BS 2048

static int setup(void **state)
{
	*state = th_disc_new("saved", (size_t)BLOCKS * BS, 11);
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	return th_disc_free(*state);
}

/* disc2.img beside disc.img: the same size, every block other. */
static void other_disc(const struct th_disc *f, char *path, size_t len)
{
	uint8_t *data = th_random((size_t)BLOCKS * BS, 12);

	assert_non_null(data);
	th_path(path, len, f->dir, "disc2.img");
	th_write_file(path, data, (size_t)BLOCKS * BS);
	free(data);
}

static void test_saved_when_done(void **state)
{
	struct th_disc *f = *state;
	struct cdt_image_opts o = { .size = sizeof(o), .rd.retries = -1, .map_path = f->map };
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = th_open_sim(f->img, "");

	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_true(r.map_saved);
	cdt_image_result_free(&r);
	/* a resume of a finished map saves it again */
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_true(r.resumed);
	assert_true(r.map_saved);
	cdt_image_result_free(&r);
	cdt_close(dev);
}

static void test_not_without_map(void **state)
{
	struct th_disc *f = *state;
	struct cdt_image_opts o = { .size = sizeof(o), .rd.retries = -1 };
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = th_open_sim(f->img, "");

	unlink(f->out);
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_false(r.map_saved);
	cdt_image_result_free(&r);
	cdt_close(dev);
}

/* Stopped before its first block: the map it made is removed, not saved. */
static void test_not_when_removed(void **state)
{
	struct th_disc *f = *state;
	volatile sig_atomic_t stop = 1;
	struct cdt_image_opts o = { .size = sizeof(o), .rd.retries = -1, .rd.stop = &stop,
				    .map_path = f->map };
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = th_open_sim(f->img, "");

	unlink(f->out);
	unlink(f->map);
	assert_int_equal(cdt_image(dev, f->out, &o, &r), CDT_EINTR);
	assert_true(r.removed);
	assert_false(r.map_saved);
	cdt_image_result_free(&r);
	/* OUT there, no map, no force: refused before anything is made */
	th_write_file(f->out, "x", 1);
	assert_int_equal(cdt_image(dev, f->out, &o, &r), CDT_EUSAGE);
	assert_false(r.map_saved);
	assert_int_not_equal(access(f->map, F_OK), 0);
	cdt_image_result_free(&r);
	cdt_close(dev);
}

/* Another disc in the drive: the run ends, its map saved; a resume on that disc is refused. */
static void test_change_and_other_disc(void **state)
{
	struct th_disc *f = *state;
	struct cdt_image_opts o = { .size = sizeof(o), .rd.retries = -1,
				    .map_path = f->map };
	struct cdt_image_result r = CDT_INIT(r);
	char img2[128], keys[200];
	struct cdt_dev *dev;

	unlink(f->out);
	unlink(f->map);
	other_disc(f, img2, sizeof(img2));
	snprintf(keys, sizeof(keys), "change=60:%s", img2);
	dev = th_open_sim(f->img, keys);
	o.rd.chunk_blocks = 16;
	assert_int_equal(cdt_image(dev, f->out, &o, &r), CDT_ECHANGED);
	assert_false(r.removed);
	assert_true(r.map_saved);
	assert_int_equal(access(f->map, F_OK), 0);
	cdt_image_result_free(&r);
	cdt_close(dev);
	/* the map is the first disc's: on the other one it is refused, not saved */
	dev = th_open_sim(img2, "");
	assert_int_equal(cdt_image(dev, f->out, &o, &r), CDT_EOTHERDISC);
	assert_false(r.map_saved);
	cdt_image_result_free(&r);
	cdt_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_saved_when_done, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_without_map, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_when_removed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_change_and_other_disc, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
