// SPDX-License-Identifier: MIT
/*
 * Unit tests of the threaded digest pipeline (digest.c): the published
 * vectors, inputs several times the ring's size split into odd-sized
 * updates (so slots wrap, fill partly and make the caller wait), many tiny
 * updates, every way of freeing a context, dg_file, and each choice of
 * digests (one, both, none: only the chosen workers run), and ranges of
 * the stream (a disc's tracks) with SHA-1; each result is checked against
 * a one-shot EVP_Digest of the same bytes.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <openssl/evp.h>
#include "cdtail.h"
#include "engine/digest.h"

/* More than the ring (2 MiB) and not a multiple of any slot size. */
#define BIG ((size_t)(9u << 20) + 12345)

static uint8_t *pattern(size_t n, unsigned int seed)
{
	uint8_t *p = malloc(n ? n : 1);
	size_t i;

	assert_non_null(p);
	/* a cheap LCG: deterministic, and no slot looks like another */
	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
	return p;
}

static void one_shot(const uint8_t *buf, size_t n, struct cdt_digests *out)
{
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned int len;

	assert_int_equal(EVP_Digest(buf, n, md, &len, EVP_md5(), NULL), 1);
	assert_int_equal(len, 16);
	dg_hex(md, len, out->md5);
	assert_int_equal(EVP_Digest(buf, n, md, &len, EVP_sha256(), NULL), 1);
	assert_int_equal(len, 32);
	dg_hex(md, len, out->sha256);
}

/* Feed buf in pieces of the given sizes, cycling through them. */
static void piecewise_of(const uint8_t *buf, size_t n, const size_t *sizes,
			 size_t n_sizes, unsigned int which,
			 struct cdt_digests *out)
{
	struct dg d = { 0 };
	size_t off = 0, k = 0;

	assert_int_equal(dg_init(&d, which), 0);
	while (off < n) {
		size_t step = sizes[k++ % n_sizes];

		if (step > n - off)
			step = n - off;
		assert_int_equal(dg_update(&d, buf + off, step), 0);
		off += step;
	}
	assert_int_equal(dg_final(&d, out), 0);
	dg_free(&d);
	assert_null(d.p);
}

static void piecewise(const uint8_t *buf, size_t n, const size_t *sizes,
		      size_t n_sizes, struct cdt_digests *out)
{
	piecewise_of(buf, n, sizes, n_sizes, CDT_HASH_ALL, out);
}

static void test_vectors(void **state)
{
	static const size_t one[] = { 1 };
	struct cdt_digests got;
	struct dg d = { 0 };

	(void)state;
	/* empty input: no update at all */
	assert_int_equal(dg_init(&d, CDT_HASH_ALL), 0);
	assert_int_equal(dg_final(&d, &got), 0);
	dg_free(&d);
	assert_string_equal(got.md5, "d41d8cd98f00b204e9800998ecf8427e");
	assert_string_equal(got.sha256,
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	/* empty updates only */
	assert_int_equal(dg_init(&d, CDT_HASH_ALL), 0);
	assert_int_equal(dg_update(&d, "x", 0), 0);
	assert_int_equal(dg_update(&d, NULL, 0), 0);
	assert_int_equal(dg_final(&d, &got), 0);
	dg_free(&d);
	assert_string_equal(got.md5, "d41d8cd98f00b204e9800998ecf8427e");

	piecewise((const uint8_t *)"abc", 3, one, 1, &got);
	assert_string_equal(got.md5, "900150983cd24fb0d6963f7d28e17f72");
	assert_string_equal(got.sha256,
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* The digests of buf in pieces of these lengths (cycled) equal want's. */
static void expect_pieces(const uint8_t *buf, size_t n, const size_t *lens,
			  size_t n_lens, const struct cdt_digests *want)
{
	struct cdt_digests got;

	piecewise(buf, n, lens, n_lens, &got);
	assert_string_equal(got.md5, want->md5);
	assert_string_equal(got.sha256, want->sha256);
}

static void test_odd_splits(void **state)
{
	static const size_t odd[] = { 1, 7, 4093, 262143, 2, 262145, 65536,
				      1000003, 3 };
	static const size_t whole[] = { BIG };
	static const size_t slot[] = { 256u << 10 };
	uint8_t *buf = pattern(BIG, 1);
	struct cdt_digests want;

	(void)state;
	one_shot(buf, BIG, &want);
	expect_pieces(buf, BIG, odd, sizeof(odd) / sizeof(odd[0]), &want);
	/* one call bigger than the whole ring */
	expect_pieces(buf, BIG, whole, 1, &want);
	/* exactly slot-sized pieces, then a short last one */
	expect_pieces(buf, BIG, slot, 1, &want);
	/* every length around a slot boundary, slot-sized updates */
	for (size_t n = (256u << 10) - 2; n <= (256u << 10) + 2; n++) {
		one_shot(buf, n, &want);
		expect_pieces(buf, n, slot, 1, &want);
	}
	free(buf);
}

static void test_many_updates(void **state)
{
	static const size_t tiny[] = { 1, 2, 3, 5, 8, 13, 17, 0, 11 };
	const size_t n = 3u << 20;
	uint8_t *buf = pattern(n, 2);
	struct cdt_digests want;

	(void)state;
	one_shot(buf, n, &want);
	expect_pieces(buf, n, tiny, sizeof(tiny) / sizeof(tiny[0]), &want);
	free(buf);
}

/* Every path to dg_free() must join, free and leave a no-op behind. */
static void test_free_paths(void **state)
{
	uint8_t *buf = pattern(BIG, 3);
	struct cdt_digests got;
	struct dg d = { 0 };
	int i;

	(void)state;
	dg_free(&d);			/* never initialised */
	assert_int_equal(dg_init(&d, CDT_HASH_ALL), 0);
	dg_free(&d);			/* never used */
	dg_free(&d);			/* twice */
	assert_null(d.p);

	/* mid-run, with slots queued and the caller maybe waiting */
	for (i = 0; i < 20; i++) {
		assert_int_equal(dg_init(&d, CDT_HASH_ALL), 0);
		assert_int_equal(dg_update(&d, buf, (size_t)i * 300007 + 1), 0);
		dg_free(&d);
		assert_null(d.p);
	}
	/* a partly filled slot, never published */
	assert_int_equal(dg_init(&d, CDT_HASH_ALL), 0);
	assert_int_equal(dg_update(&d, buf, 100), 0);
	dg_free(&d);

	/* after final: no more updates, no second final */
	assert_int_equal(dg_init(&d, CDT_HASH_ALL), 0);
	assert_int_equal(dg_update(&d, buf, 5000), 0);
	assert_int_equal(dg_final(&d, &got), 0);
	assert_int_not_equal(dg_update(&d, buf, 1), 0);
	assert_int_not_equal(dg_final(&d, &got), 0);
	dg_free(&d);
	/* and nothing works on a freed context */
	assert_int_not_equal(dg_update(&d, buf, 1), 0);
	assert_int_not_equal(dg_final(&d, &got), 0);
	free(buf);
}

/* Several contexts at once share nothing. */
static void test_independent(void **state)
{
	uint8_t *a = pattern(BIG, 4), *b = pattern(BIG, 5);
	struct cdt_digests wa, wb, ga, gb;
	struct dg da = { 0 }, db = { 0 };
	size_t off;

	(void)state;
	one_shot(a, BIG, &wa);
	one_shot(b, BIG, &wb);
	assert_int_equal(dg_init(&da, CDT_HASH_ALL), 0);
	assert_int_equal(dg_init(&db, CDT_HASH_ALL), 0);
	for (off = 0; off < BIG; off += 65536) {
		size_t n = BIG - off < 65536 ? BIG - off : 65536;

		assert_int_equal(dg_update(&da, a + off, n), 0);
		assert_int_equal(dg_update(&db, b + off, n), 0);
	}
	assert_int_equal(dg_final(&db, &gb), 0);
	assert_int_equal(dg_final(&da, &ga), 0);
	dg_free(&da);
	dg_free(&db);
	assert_string_equal(ga.md5, wa.md5);
	assert_string_equal(ga.sha256, wa.sha256);
	assert_string_equal(gb.md5, wb.md5);
	assert_string_equal(gb.sha256, wb.sha256);
	free(a);
	free(b);
}

static void test_file(void **state)
{
	char path[] = "/tmp/cdt-digest-XXXXXX";
	uint8_t *buf = pattern(BIG, 6), chunk[4099];
	volatile sig_atomic_t stop = 1;
	struct cdt_read_opts rd = { .stop = &stop };
	struct cdt_digests want, got;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, buf, BIG), (ssize_t)BIG);
	one_shot(buf, BIG, &want);
	assert_int_equal(dg_file(fd, BIG, chunk, sizeof(chunk), NULL,
				 CDT_HASH_ALL, &got), 0);
	assert_string_equal(got.md5, want.md5);
	assert_string_equal(got.sha256, want.sha256);
	/* a prefix only */
	one_shot(buf, 1000, &want);
	assert_int_equal(dg_file(fd, 1000, chunk, sizeof(chunk), NULL,
				 CDT_HASH_ALL, &got), 0);
	assert_string_equal(got.md5, want.md5);
	/* past the end of the file: an error, and nothing leaks */
	assert_int_equal(dg_file(fd, BIG + 1, chunk, sizeof(chunk), NULL,
				 CDT_HASH_ALL, &got),
			 CDT_EIO);
	/* a stop request ends it mid-run */
	assert_int_equal(dg_file(fd, BIG, chunk, sizeof(chunk), &rd,
				 CDT_HASH_ALL, &got),
			 CDT_EINTR);
	close(fd);
	free(buf);
}

/* Threads of this process, from /proc/self/task. */
static int threads(void)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	assert_non_null(dir);
	while ((e = readdir(dir)))
		n += e->d_name[0] != '.';
	closedir(dir);
	return n;
}

/* A digest not chosen must come out "", whatever out held before. */
static void check_choice(const struct cdt_digests *got,
			 const struct cdt_digests *want, unsigned int which)
{
	if (which & CDT_HASH_MD5)
		assert_string_equal(got->md5, want->md5);
	else
		assert_string_equal(got->md5, "");
	if (which & CDT_HASH_SHA256)
		assert_string_equal(got->sha256, want->sha256);
	else
		assert_string_equal(got->sha256, "");
}

/* Each choice computes what it names, with one worker per digest. */
static void test_choices(void **state)
{
	static const size_t odd[] = { 1, 7, 4093, 262143, 2, 262145, 65536,
				      1000003, 3 };
	static const struct {
		unsigned int which;
		int workers;
	} c[] = {
		{ CDT_HASH_ALL, 2 },
		{ CDT_HASH_MD5, 1 },
		{ CDT_HASH_SHA256, 1 },
		{ 0, 0 },
		{ CDT_HASH_NONE, 0 },		/* other bits are ignored */
		{ CDT_HASH_NONE | CDT_HASH_SHA256, 1 },
	};
	uint8_t *buf = pattern(BIG, 7);
	struct cdt_digests want, got;
	size_t i;

	(void)state;
	one_shot(buf, BIG, &want);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned int which = c[i].which & CDT_HASH_ALL;
		int before = threads();
		struct dg d = { 0 };

		memset(&got, 'x', sizeof(got));
		piecewise_of(buf, BIG, odd, sizeof(odd) / sizeof(odd[0]),
			     c[i].which, &got);
		check_choice(&got, &want, which);

		/* the workers run while the context lives, and only those */
		assert_int_equal(dg_init(&d, c[i].which), 0);
		assert_non_null(d.p);
		assert_int_equal(threads(), before + c[i].workers);
		assert_int_equal(dg_update(&d, buf, 1000), 0);
		assert_int_equal(dg_update(&d, NULL, 0), 0);
		dg_free(&d);
		assert_int_equal(threads(), before);

		/* empty input */
		assert_int_equal(dg_init(&d, c[i].which), 0);
		memset(&got, 'x', sizeof(got));
		assert_int_equal(dg_final(&d, &got), 0);
		if (which & CDT_HASH_MD5)
			assert_string_equal(got.md5, "d41d8cd98f00b204e9800998ecf8427e");
		else
			assert_string_equal(got.md5, "");
		if (which & CDT_HASH_SHA256)
			assert_string_equal(got.sha256,
				"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
		else
			assert_string_equal(got.sha256, "");
		/* after final, even none refuses more */
		assert_int_not_equal(dg_update(&d, buf, 1), 0);
		assert_int_not_equal(dg_final(&d, &got), 0);
		dg_free(&d);
		dg_free(&d);
		assert_int_not_equal(dg_update(&d, buf, 1), 0);
	}
	free(buf);
}

static void test_file_choices(void **state)
{
	static const unsigned int which[] = { CDT_HASH_ALL, CDT_HASH_MD5,
					      CDT_HASH_SHA256 };
	char path[] = "/tmp/cdt-digest-XXXXXX";
	uint8_t *buf = pattern(BIG, 8), chunk[65536];
	struct cdt_digests want, got;
	int fd = mkstemp(path);
	size_t i;

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, buf, BIG), (ssize_t)BIG);
	one_shot(buf, BIG, &want);
	for (i = 0; i < sizeof(which) / sizeof(which[0]); i++) {
		memset(&got, 'x', sizeof(got));
		assert_int_equal(dg_file(fd, BIG, chunk, sizeof(chunk), NULL,
					 which[i], &got), 0);
		check_choice(&got, &want, which[i]);
		/* past the end is still an error */
		assert_int_equal(dg_file(fd, BIG + 1, chunk, sizeof(chunk), NULL,
					 which[i], &got), CDT_EIO);
	}
	/* none reads nothing: even a length past the end, even a bad fd */
	memset(&got, 'x', sizeof(got));
	assert_int_equal(dg_file(fd, BIG + 1, chunk, sizeof(chunk), NULL, 0, &got), 0);
	check_choice(&got, &want, 0);
	assert_int_equal(dg_file(-1, BIG, chunk, sizeof(chunk), NULL, 0, &got), 0);
	close(fd);
	free(buf);
}

static void hex_one(const EVP_MD *md, const uint8_t *buf, size_t n, char *out)
{
	uint8_t bin[EVP_MAX_MD_SIZE];
	unsigned int len;

	assert_int_equal(EVP_Digest(buf, n, bin, &len, md, NULL), 1);
	dg_hex(bin, len, out);
}

/*
 * Ranges from 0 (a copy of the stream's state), inside, across slots and
 * ending with the stream, one past its end (never finished), fed in odd
 * pieces: each range's MD5, SHA-256 and SHA-1 are its bytes' one-shot
 * digests; the stream's own are the whole input's.
 */
static void test_ranges(void **state)
{
	static const struct dg_range r[] = {
		{ 0, 2048 * 350 },		/* the first track: from 0 */
		{ 2048 * 400, 2048 * 1500 },	/* crosses several slots */
		{ 7, 8 },			/* one byte */
		{ 1000000, BIG },		/* ends with the stream */
		{ 0, BIG },			/* the whole stream */
		{ 5000, BIG + 1 },		/* past the end: never finished */
	};
	static const size_t odd[] = { 4093, 1, 262145, 7, 1000003 };
	uint8_t *buf = pattern(BIG, 11);
	struct dg d = { 0 };
	struct dg_sums got, want;
	size_t i, off = 0, k = 0;

	(void)state;
	assert_int_equal(dg_init(&d, CDT_HASH_MD5 | CDT_HASH_SHA256 | CDT_HASH_SHA1), 0);
	assert_int_equal(dg_ranges(&d, r, sizeof(r) / sizeof(r[0])), 0);
	while (off < BIG) {
		size_t n = odd[k++ % (sizeof(odd) / sizeof(odd[0]))];

		if (n > BIG - off)
			n = BIG - off;
		assert_int_equal(dg_update(&d, buf + off, n), 0);
		off += n;
	}
	/* ranges are fixed before the first byte */
	assert_int_not_equal(dg_ranges(&d, r, 1), 0);
	assert_int_equal(dg_final_sums(&d, &got), 0);
	hex_one(EVP_sha1(), buf, BIG, want.sha1);
	assert_string_equal(got.sha1, want.sha1);
	for (i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		bool done = dg_range_sums(&d, i, &got);

		if (r[i].end > BIG) {
			assert_false(done);
			continue;
		}
		assert_true(done);
		hex_one(EVP_md5(), buf + r[i].start, r[i].end - r[i].start, want.md5);
		hex_one(EVP_sha256(), buf + r[i].start, r[i].end - r[i].start, want.sha256);
		hex_one(EVP_sha1(), buf + r[i].start, r[i].end - r[i].start, want.sha1);
		assert_string_equal(got.md5, want.md5);
		assert_string_equal(got.sha256, want.sha256);
		assert_string_equal(got.sha1, want.sha1);
	}
	assert_false(dg_range_sums(&d, i, &got));
	dg_free(&d);

	/* one digest asked for: the others are "" in every range */
	assert_int_equal(dg_init(&d, CDT_HASH_SHA1), 0);
	assert_int_equal(dg_ranges(&d, r, 2), 0);
	assert_int_equal(dg_update(&d, buf, BIG), 0);
	assert_int_equal(dg_final_sums(&d, &got), 0);
	assert_string_equal(got.md5, "");
	assert_true(dg_range_sums(&d, 1, &got));
	assert_string_equal(got.md5, "");
	assert_string_equal(got.sha256, "");
	hex_one(EVP_sha1(), buf + r[1].start, r[1].end - r[1].start, want.sha1);
	assert_string_equal(got.sha1, want.sha1);
	dg_free(&d);
	/* none: ranges are accepted and nothing is computed */
	assert_int_equal(dg_init(&d, 0), 0);
	assert_int_equal(dg_ranges(&d, r, 2), 0);
	assert_int_equal(dg_final_sums(&d, &got), 0);
	dg_free(&d);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_odd_splits),
		cmocka_unit_test(test_many_updates),
		cmocka_unit_test(test_free_paths),
		cmocka_unit_test(test_independent),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_choices),
		cmocka_unit_test(test_file_choices),
		cmocka_unit_test(test_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
