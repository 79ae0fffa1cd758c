// SPDX-License-Identifier: MIT
/*
 * Unit tests of the per-track checksums (cd/trackhash.c): CRC-32 against
 * its catalogued check value and a bit-at-a-time register written here,
 * MD5 and SHA-1 against FIPS 180 / RFC 1321 test strings, AccurateRip
 * against sums worked out by hand, and every checksum against
 * tests/raw/hashmodel.py, an independent Python model (zlib, hashlib,
 * unbounded integers over the whole track), on tracks fed in random
 * pieces so that samples and bytes split across updates.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "th.h"
#include "cdtail.h"
#include "cd/trackhash.h"

/* ---- CRC-32 ---------------------------------------------------------------- */

static uint32_t crc32_bitwise(const uint8_t *p, size_t n)
{
	uint32_t r = 0xffffffffu;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		r ^= p[i];
		for (b = 0; b < 8; b++)
			r = (r >> 1) ^ ((r & 1) ? 0xedb88320u : 0);
	}
	return ~r;
}

static void test_crc32_check_value(void **state)
{
	(void)state;
	assert_int_equal(th_crc32(0, "123456789", 9), 0xcbf43926u);
	assert_int_equal(th_crc32(0, "", 0), 0);
	/* fed in two pieces, as zlib's crc32() continues */
	assert_int_equal(th_crc32(th_crc32(0, "1234", 4), "56789", 5), 0xcbf43926u);
}

static void test_crc32_bitwise(void **state)
{
	uint8_t *buf = th_random(4096, 26);
	size_t n;

	(void)state;
	for (n = 0; n <= 4096; n += 1 + n / 3)
		assert_int_equal(th_crc32(0, buf, n), crc32_bitwise(buf, n));
	free(buf);
}

/* ---- MD5 and SHA-1 ------------------------------------------------------------ */

static void sums_of(const char *s, struct th_sums *out)
{
	struct trackhash h;

	assert_int_equal(trackhash_init(&h), 0);
	assert_int_equal(trackhash_update(&h, s, strlen(s)), 0);
	assert_int_equal(trackhash_final(&h, out), 0);
	trackhash_free(&h);	/* spent: a no-op */
}

static void test_digests_known(void **state)
{
	struct th_sums s;

	(void)state;
	sums_of("abc", &s);	/* RFC 1321 A.5; FIPS 180-2 appendix A */
	assert_int_equal(s.size, 3);
	assert_int_equal(s.crc32, 0x352441c2u);
	assert_string_equal(s.md5, "900150983cd24fb0d6963f7d28e17f72");
	assert_string_equal(s.sha1, "a9993e364706816aba3e25717850c26c9cd0d89d");
	sums_of("", &s);
	assert_int_equal(s.size, 0);
	assert_int_equal(s.crc32, 0);
	assert_string_equal(s.md5, "d41d8cd98f00b204e9800998ecf8427e");
	assert_string_equal(s.sha1, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
}

static void test_free_anywhere(void **state)
{
	struct trackhash h;
	struct th_sums s;

	(void)state;
	memset(&h, 0, sizeof(h));
	trackhash_free(&h);
	assert_int_equal(trackhash_update(&h, "x", 1), CDT_ENOMEM);
	assert_int_equal(trackhash_init(&h), 0);
	assert_int_equal(trackhash_update(&h, "x", 1), 0);
	trackhash_free(&h);
	trackhash_free(&h);
	assert_int_not_equal(trackhash_final(&h, &s), 0);
}

/* ---- the OUT.hash line --------------------------------------------------------- */

static void test_rom_line(void **state)
{
	struct th_sums s;
	char line[512], small[20];
	int n;

	(void)state;
	sums_of("abc", &s);
	n = trackhash_rom_line(line, sizeof(line), "Tom & \"Jerry\" <1>'s (Track 1).bin", &s);
	assert_string_equal(line,
		"<rom name=\"Tom &amp; &quot;Jerry&quot; &lt;1&gt;&apos;s (Track 1).bin\" "
		"size=\"3\" crc=\"352441c2\" md5=\"900150983cd24fb0d6963f7d28e17f72\" "
		"sha1=\"a9993e364706816aba3e25717850c26c9cd0d89d\"/>");
	assert_int_equal(n, (int)strlen(line));
	/* cut: NUL-terminated, the return still the whole length */
	assert_int_equal(trackhash_rom_line(small, sizeof(small), "Tom & \"Jerry\" <1>'s (Track 1).bin", &s), n);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, line, sizeof(small) - 1);
	assert_int_equal(trackhash_rom_line(NULL, 0, "Tom & \"Jerry\" <1>'s (Track 1).bin", &s), n);
}

/* ---- AccurateRip ----------------------------------------------------------- */

/* n sectors whose samples are all value, fed a sector at a time */
static void ar_const(struct arip *a, unsigned int sectors, uint32_t value,
		     bool first, bool last)
{
	uint8_t sec[2352];
	unsigned int i;

	for (i = 0; i < 588; i++) {
		sec[4 * i] = value;
		sec[4 * i + 1] = value >> 8;
		sec[4 * i + 2] = value >> 16;
		sec[4 * i + 3] = value >> 24;
	}
	arip_init(a, (uint64_t)sectors * 588, first, last);
	for (i = 0; i < sectors; i++)
		arip_update(a, sec, sizeof(sec));
}

/* sum of lo..hi */
static uint64_t tri(uint64_t lo, uint64_t hi)
{
	return hi < lo ? 0 : (lo + hi) * (hi - lo + 1) / 2;
}

static void test_arip_by_hand(void **state)
{
	struct arip a;

	(void)state;
	/* a middle track of one sector of samples 1: 1 + 2 + ... + 588 */
	ar_const(&a, 1, 1, false, false);
	assert_int_equal(arip_v1(&a), 173166);
	assert_int_equal(arip_v2(&a), 173166);
	/* the first track of 12 sectors: positions 2940..7056 */
	ar_const(&a, 12, 1, true, false);
	assert_int_equal(arip_v1(&a), (uint32_t)tri(2940, 7056));
	/* the last: positions 1..7056-2940 */
	ar_const(&a, 12, 1, false, true);
	assert_int_equal(arip_v1(&a), (uint32_t)tri(1, 7056 - 2940));
	/* the only track: both */
	ar_const(&a, 12, 1, true, true);
	assert_int_equal(arip_v1(&a), (uint32_t)tri(2940, 7056 - 2940));
	/* too short for the skips: nothing counts */
	ar_const(&a, 9, 1, true, true);
	assert_int_equal(arip_v1(&a), 0);
	assert_int_equal(arip_v2(&a), 0);
	/*
	 * samples 0xFFFFFFFF: each product is 2^32 i - i, high half i - 1 and
	 * low half 2^32 - i, so v2 adds 2^32 - 1 per sample (-1 mod 2^32)
	 * and v1 adds -i
	 */
	ar_const(&a, 1, 0xffffffffu, false, false);
	assert_int_equal(arip_v1(&a), (uint32_t)(0 - (uint32_t)tri(1, 588)));
	assert_int_equal(arip_v2(&a), (uint32_t)(0 - 588u));
}

/* ---- against the Python model ---------------------------------------------- */

struct model_line {
	char file[64];
	int first, last;
	unsigned long long size;
	unsigned int crc, v1, v2;
	char md5[33], sha1[41];
};

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len >= 0);
	rewind(f);
	buf = malloc(len ? (size_t)len : 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return buf;
}

/* the track fed in pieces of 1..3000 bytes drawn from *seed */
static void check_against(const char *dir, const struct model_line *m,
			  unsigned int *seed)
{
	char path[256];
	size_t n, at = 0;
	uint8_t *buf;
	struct trackhash h;
	struct th_sums s;
	struct arip a;

	th_path(path, sizeof(path), dir, m->file);
	buf = slurp(path, &n);
	assert_int_equal(n, m->size);
	assert_int_equal(trackhash_init(&h), 0);
	arip_init(&a, n / 4, m->first, m->last);
	while (at < n) {
		size_t piece = 1 + rand_r(seed) % 3000;

		if (piece > n - at)
			piece = n - at;
		assert_int_equal(trackhash_update(&h, buf + at, piece), 0);
		arip_update(&a, buf + at, piece);
		at += piece;
	}
	assert_int_equal(trackhash_final(&h, &s), 0);
	assert_int_equal(s.size, m->size);
	assert_int_equal(s.crc32, m->crc);
	assert_string_equal(s.md5, m->md5);
	assert_string_equal(s.sha1, m->sha1);
	assert_int_equal(arip_v1(&a), m->v1);
	assert_int_equal(arip_v2(&a), m->v2);
	free(buf);
}

static void test_model_vectors(void **state)
{
	const char *fx = getenv("CDT_FIXTURES");
	char dir[128], cmd[4400];
	struct model_line m;
	unsigned int seed = 26, lines = 0;
	FILE *p;

	(void)state;
	assert_non_null(fx);
	assert_int_equal(th_tmpdir(dir, sizeof(dir), "trackhash"), 0);
	snprintf(cmd, sizeof(cmd),
		 "python3 '%s/../tests/raw/hashmodel.py' vectors '%s' 60 2026", fx, dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fscanf(p, "%63s %d %d %llu %x %32s %40s %x %x", m.file, &m.first,
		      &m.last, &m.size, &m.crc, m.md5, m.sha1, &m.v1, &m.v2) == 9) {
		check_against(dir, &m, &seed);
		lines++;
	}
	assert_int_equal(pclose(p), 0);
	assert_int_equal(lines, 60);
	assert_int_equal(th_rmrf(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32_check_value),
		cmocka_unit_test(test_crc32_bitwise),
		cmocka_unit_test(test_digests_known),
		cmocka_unit_test(test_free_anywhere),
		cmocka_unit_test(test_rom_line),
		cmocka_unit_test(test_arip_by_hand),
		cmocka_unit_test(test_model_vectors),
	};

	return cmocka_run_group_tests_name("trackhash", tests, NULL, NULL);
}
