// SPDX-License-Identifier: MIT
/*
 * Digests from the stream, not from OUT read again (issue 34): this
 * program's pread is the one libcdtail.a links to, and counts the bytes
 * read from the output files.  A clean image reads none back for its
 * digests (the image's and each track's come from the blocks as written;
 * what it reads of OUT is the identity record's check of at most 16
 * single blocks, image.c); a
 * damaged one only what follows its first failure; a resume only what
 * earlier runs wrote; image --raw's track checksums likewise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include <openssl/evp.h>
#include "cdtail.h"
#include "th.h"

#define BS 2048
#define BLOCKS 300

static const char *watched;	/* a suffix of the files counted */
static uint64_t read_bytes;	/* pread from them */

static bool is_watched(int fd)
{
	char link[64], path[4096];
	size_t n = watched ? strlen(watched) : 0;
	ssize_t len;

	if (!n)
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len < 0)
		return false;
	path[len] = '\0';
	return (size_t)len >= n && !strcmp(path + len - (ssize_t)n, watched);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	long got = syscall(SYS_pread64, fd, buf, n, off);

	if (got > 0 && is_watched(fd))
		read_bytes += (uint64_t)got;
	return got;
}

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return th_tmpdir(dir, sizeof(dir), "readback");
}

static int teardown(void **state)
{
	(void)state;
	return th_rmrf(dir);
}

static void sha256_hex(const uint8_t *p, size_t n, char *out)
{
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned int len, i;

	assert_int_equal(EVP_Digest(p, n, md, &len, EVP_sha256(), NULL), 1);
	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
}

static void test_image(void **state)
{
	struct cdt_image_opts o = { .size = sizeof(o), .rd.retries = 1 };
	struct cdt_image_result r = CDT_INIT(r);
	uint8_t *data = th_random((size_t)BLOCKS * BS, 5);
	char img[128], out[128], map[128], want[65];
	struct cdt_dev *dev;

	(void)state;
	th_path(img, sizeof(img), dir, "disc.img");
	th_path(out, sizeof(out), dir, "o.iso");
	th_path(map, sizeof(map), dir, "o.map");
	th_write_file(img, data, (size_t)BLOCKS * BS);
	watched = "/o.iso";

	/* clean: nothing read back, the track's digest the blocks' */
	dev = th_open_sim(img, "");
	read_bytes = 0;
	assert_int_equal(cdt_image(dev, out, &o, &r), 0);
	assert_true(read_bytes <= 16 * BS);
	assert_int_equal(r.digest_read_back, 0);
	assert_int_equal(r.n_track_digests, 1);
	sha256_hex(data, (size_t)r.track_digests[0].blocks * BS, want);
	assert_string_equal(r.track_digests[0].sha256, want);
	sha256_hex(data, (size_t)BLOCKS * BS, want);
	assert_string_equal(r.sum.digests.sha256, want);
	cdt_image_result_free(&r);
	cdt_close(dev);
	unlink(out);

	/* damaged at 200-209 with a map: what follows the failure is read
	 * back once, no more */
	o.map_path = map;
	dev = th_open_sim(img, "bad=200-209");
	read_bytes = 0;
	assert_int_equal(cdt_image(dev, out, &o, &r), 0);
	assert_int_equal(r.sum.bad_blocks, 10);
	assert_int_equal(r.digest_read_back, (uint64_t)(BLOCKS - 200) * BS);
	assert_true(read_bytes >= r.digest_read_back);
	cdt_image_result_free(&r);
	cdt_close(dev);

	/* resumed on a healed disc: reads 10 blocks, reads back the rest,
	 * which earlier runs wrote; the digest is the whole disc's */
	dev = th_open_sim(img, "");
	assert_int_equal(cdt_image(dev, out, &o, &r), 0);
	assert_int_equal(r.sum.blocks_read, 10);
	assert_int_equal(r.digest_read_back, (uint64_t)(BLOCKS - 10) * BS);
	assert_string_equal(r.sum.digests.sha256, want);
	cdt_image_result_free(&r);
	cdt_close(dev);

	/* --digest none: no digest, nothing read back for one */
	unlink(out);
	unlink(map);
	o.map_path = NULL;
	o.digests = CDT_HASH_NONE;
	dev = th_open_sim(img, "");
	read_bytes = 0;
	assert_int_equal(cdt_image(dev, out, &o, &r), 0);
	assert_true(read_bytes <= 16 * BS);
	assert_int_equal(r.n_track_digests, 0);
	assert_string_equal(r.sum.digests.md5, "");
	cdt_image_result_free(&r);
	cdt_close(dev);
	watched = NULL;
	free(data);
}

static void test_raw(void **state)
{
	static const char sheet[] = "FILE \"a.bin\" BINARY\n  TRACK 01 AUDIO\n"
		"    INDEX 01 00:00:00\n";
	struct cdt_raw_opts o = CDT_INIT(o);
	struct cdt_raw_result r = CDT_INIT(r), again = CDT_INIT(again);
	uint8_t *data = th_random((size_t)BLOCKS * 2352, 6);
	char bin[128], cue[128], out[128], out2[128];
	struct cdt_dev *dev;

	(void)state;
	th_path(bin, sizeof(bin), dir, "a.bin");
	th_path(cue, sizeof(cue), dir, "a.cue");
	th_path(out, sizeof(out), dir, "r.cue");
	th_path(out2, sizeof(out2), dir, "q.cue");
	th_write_file(bin, data, (size_t)BLOCKS * 2352);
	th_write_file(cue, sheet, sizeof(sheet) - 1);
	free(data);

	watched = "/r.bin";
	dev = th_open_sim(cue, "");
	read_bytes = 0;
	assert_int_equal(cdt_image_raw(dev, out, &o, &r), 0);
	assert_int_equal(read_bytes, 0);
	assert_true(r.tracks[0].hashed && r.tracks[0].accuraterip);
	cdt_close(dev);

	/* a bad sector: the sectors after it read back, and the same sums
	 * as the clean run's over the same bytes but that sector's zeros */
	watched = "/q.bin";
	dev = th_open_sim(cue, "bad=100-100");
	read_bytes = 0;
	assert_int_equal(cdt_image_raw(dev, out2, &o, &again), 0);
	assert_int_equal(again.sum.bad_blocks, 1);
	assert_true(read_bytes > 0 && read_bytes <= (uint64_t)(BLOCKS - 100) * 2352);
	assert_true(again.tracks[0].hashed);
	assert_string_not_equal(again.tracks[0].md5, r.tracks[0].md5);
	cdt_raw_result_free(&again);
	cdt_raw_result_free(&r);
	cdt_close(dev);
	watched = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image),
		cmocka_unit_test(test_raw),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
