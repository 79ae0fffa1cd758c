// SPDX-License-Identifier: MIT
/*
 * cdt_image, cdt_tail and cdt_verify through the library API on the
 * emulated drive; every check compares bytes with the backing image.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <openssl/evp.h>
#include "cdtail.h"
#include "th.h"

#define BLOCKS 300
#define BS 2048

static int setup(void **state)
{
	*state = th_disc_new("image", (size_t)BLOCKS * BS, 7);
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	return th_disc_free(*state);
}

/* OUT is nblocks long; blocks first_bad..last_bad are zeros, the rest the disc's. */
static void check_out(struct th_disc *f, uint64_t first_bad, uint64_t last_bad,
		      uint64_t nblocks)
{
	th_expect_image(f->out, f->data, BS, nblocks, first_bad, last_bad);
}

static void hex_of(const EVP_MD *md, const uint8_t *buf, size_t n, char *out);

static void test_image_whole_and_hidden(void **state)
{
	struct th_disc *f = *state;
	struct cdt_image_opts o = { .size = sizeof(o), .rd.retries = -1 };
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = th_open_sim(f->img, "hide=9");

	unlink(f->out);
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_int_equal(r.sum.probe->true_blocks, BLOCKS);
	assert_int_equal(r.sum.bad_blocks, 0);
	assert_int_equal(r.digest_source, CDT_DIGEST_STREAM);
	assert_int_equal(r.digest_read_back, 0);
	assert_int_equal(strlen(r.sum.digests.sha256), 64);
	assert_string_equal(r.sha1, "");
	/* the data track's digests, from the same stream: its blocks' */
	assert_int_equal(r.n_track_digests, 1);
	{
		const struct cdt_track_digests *t = &r.track_digests[0];
		char want[65];

		assert_int_equal(t->number, 1);
		assert_int_equal(t->start, 0);
		assert_true(t->blocks > 0 && t->blocks <= BLOCKS);
		hex_of(EVP_sha256(), f->data, (size_t)t->blocks * BS, want);
		assert_string_equal(t->sha256, want);
		hex_of(EVP_md5(), f->data, (size_t)t->blocks * BS, want);
		assert_string_equal(t->md5, want);
		assert_string_equal(t->sha1, "");
	}
	check_out(f, UINT64_MAX, 0, BLOCKS);
	cdt_image_result_free(&r);
	assert_null(r.track_digests);
	/* a second run must not overwrite OUT */
	assert_int_equal(cdt_image(dev, f->out, &o, &r), CDT_EUSAGE);
	cdt_image_result_free(&r);
	cdt_close(dev);
}

static void test_image_bad_then_resume(void **state)
{
	struct th_disc *f = *state;
	struct cdt_image_opts o = { .size = sizeof(o), .rd.retries = 1, .map_path = f->map };
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = th_open_sim(f->img, "bad=40-49");

	unlink(f->out);
	unlink(f->map);
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_int_equal(r.sum.bad_blocks, 10);
	assert_int_equal(r.sum.n_bad, 1);
	assert_int_equal(r.sum.bad[0].first, 40);
	assert_int_equal(r.sum.bad[0].last, 49);
	assert_int_equal(r.digest_source, CDT_DIGEST_FILE);
	check_out(f, 40, 49, BLOCKS);
	cdt_image_result_free(&r);
	cdt_close(dev);

	/* the disc "heals": only the 10 bad blocks are read again */
	dev = th_open_sim(f->img, "");
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_true(r.resumed);
	assert_int_equal(r.finished_before, BLOCKS - 10);
	assert_int_equal(r.sum.blocks_read, 10);
	assert_int_equal(r.sum.bad_blocks, 0);
	check_out(f, UINT64_MAX, 0, BLOCKS);
	cdt_image_result_free(&r);
	cdt_close(dev);
}

static void test_image_stop_saves_map(void **state)
{
	struct th_disc *f = *state;
	volatile sig_atomic_t stop = 1;
	struct cdt_image_opts o = { .size = sizeof(o), .rd.retries = -1, .rd.stop = &stop, .map_path = f->map };
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = th_open_sim(f->img, "");

	unlink(f->out);
	unlink(f->map);
	assert_int_equal(cdt_image(dev, f->out, &o, &r), CDT_EINTR);
	/* stopped before its first block: nothing of it is left (issue 11) */
	assert_int_not_equal(access(f->map, F_OK), 0);
	assert_int_not_equal(access(f->out, F_OK), 0);
	cdt_image_result_free(&r);
	stop = 0;
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_false(r.resumed);
	check_out(f, UINT64_MAX, 0, BLOCKS);
	cdt_image_result_free(&r);
	cdt_close(dev);
}

/* The hex digest md of the n bytes at buf. */
static void hex_of(const EVP_MD *md, const uint8_t *buf, size_t n, char *out)
{
	uint8_t bin[EVP_MAX_MD_SIZE];
	unsigned int len, i;

	assert_int_equal(EVP_Digest(buf, n, bin, &len, md, NULL), 1);
	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", bin[i]);
}

/* The digests which asks for are those of buf; the others are "". */
static void check_digests(const struct cdt_digests *got, unsigned int which,
			  const uint8_t *buf, size_t n)
{
	struct cdt_digests want = { "", "" };

	if (which & CDT_HASH_MD5)
		hex_of(EVP_md5(), buf, n, want.md5);
	if (which & CDT_HASH_SHA256)
		hex_of(EVP_sha256(), buf, n, want.sha256);
	assert_string_equal(got->md5, want.md5);
	assert_string_equal(got->sha256, want.sha256);
}

static void test_image_digest_choice(void **state)
{
	static const struct {
		unsigned int opt, which;
	} c[] = {
		{ 0, CDT_HASH_ALL },
		{ CDT_HASH_ALL, CDT_HASH_ALL },
		{ CDT_HASH_MD5, CDT_HASH_MD5 },
		{ CDT_HASH_SHA256, CDT_HASH_SHA256 },
		{ CDT_HASH_NONE, 0 },
	};
	static const unsigned int bad[] = { 0x8, CDT_HASH_NONE | CDT_HASH_MD5,
					    CDT_HASH_ALL | 0x80 };
	struct th_disc *f = *state;
	struct cdt_image_opts o = { .size = sizeof(o), .rd.retries = -1, .force = true };
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = th_open_sim(f->img, "hide=4");
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		o.digests = c[i].opt;
		assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
		assert_int_equal(r.digest_source,
				 c[i].which ? CDT_DIGEST_STREAM : CDT_DIGEST_NONE);
		check_digests(&r.sum.digests, c[i].which, f->data, (size_t)BLOCKS * BS);
		check_out(f, UINT64_MAX, 0, BLOCKS);
		cdt_image_result_free(&r);
	}
	/* a bad choice is refused before anything is read or written */
	unlink(f->out);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o.digests = bad[i];
		cdt_reset_stats(dev);
		assert_int_equal(cdt_image(dev, f->out, &o, &r), CDT_EUSAGE);
		assert_true(strstr(cdt_errmsg(dev), "digests") != NULL);
		assert_int_equal(r.sum.stats.commands, 0);
		assert_int_not_equal(access(f->out, F_OK), 0);
		cdt_image_result_free(&r);
	}
	cdt_close(dev);
}

/* A resumed run hashes OUT again, only with the digests it is asked for. */
static void test_image_digest_resume(void **state)
{
	struct th_disc *f = *state;
	struct cdt_image_opts o = { .size = sizeof(o), .rd.retries = 1, .map_path = f->map,
				    .digests = CDT_HASH_SHA256 };
	struct cdt_image_result r = CDT_INIT(r);
	struct cdt_dev *dev = th_open_sim(f->img, "bad=40-49");
	uint8_t *holed = malloc((size_t)BLOCKS * BS);

	unlink(f->out);
	unlink(f->map);
	memcpy(holed, f->data, (size_t)BLOCKS * BS);
	memset(holed + 40 * BS, 0, 10 * BS);
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_int_equal(r.sum.bad_blocks, 10);
	assert_int_equal(r.digest_source, CDT_DIGEST_FILE);
	/* hashed as written up to the failure; only what follows it read back */
	assert_int_equal(r.digest_read_back, (uint64_t)(BLOCKS - 40) * BS);
	check_digests(&r.sum.digests, CDT_HASH_SHA256, holed, (size_t)BLOCKS * BS);
	cdt_image_result_free(&r);
	/* resumed on the same damage, without digests: OUT is not read back */
	o.digests = CDT_HASH_NONE;
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_true(r.resumed);
	assert_int_equal(r.digest_source, CDT_DIGEST_NONE);
	check_digests(&r.sum.digests, 0, holed, (size_t)BLOCKS * BS);
	cdt_image_result_free(&r);
	cdt_close(dev);

	/* healed: the resumed run's SHA-256 is the whole image's */
	dev = th_open_sim(f->img, "");
	o.digests = CDT_HASH_SHA256;
	assert_int_equal(cdt_image(dev, f->out, &o, &r), 0);
	assert_true(r.resumed);
	assert_int_equal(r.sum.blocks_read, 10);
	assert_int_equal(r.digest_source, CDT_DIGEST_FILE);
	/* only what the earlier runs wrote is read back, not the 10 blocks of this one */
	assert_int_equal(r.digest_read_back, (uint64_t)(BLOCKS - 10) * BS);
	check_digests(&r.sum.digests, CDT_HASH_SHA256, f->data, (size_t)BLOCKS * BS);
	check_out(f, UINT64_MAX, 0, BLOCKS);
	cdt_image_result_free(&r);
	cdt_close(dev);
	free(holed);
}

static void test_tail_and_verify(void **state)
{
	struct th_disc *f = *state;
	struct cdt_read_opts rd = { .size = sizeof(rd), .retries = -1 };
	struct cdt_verify_opts vo = { .size = sizeof(vo), .rd.retries = -1 };
	struct cdt_tail_result t = CDT_INIT(t);
	struct cdt_verify_result v = CDT_INIT(v);
	struct cdt_dev *dev = th_open_sim(f->img, "hide=5");
	FILE *fp = fopen(f->out, "wb");

	fwrite(f->data, BS, BLOCKS - 5, fp);
	fclose(fp);
	assert_int_equal(cdt_tail(dev, f->out, &rd, &t), 0);
	assert_int_equal(t.verdict, CDT_TAIL_APPENDED);
	assert_int_equal(t.basis, CDT_TAIL_REPORTED);
	assert_int_equal(t.appended_blocks, 5);
	check_out(f, UINT64_MAX, 0, BLOCKS);
	cdt_tail_result_free(&t);

	vo.image_path = f->out;
	assert_int_equal(cdt_verify(dev, &vo, &v), 0);
	assert_int_equal(v.verdict, CDT_VERIFY_IDENTICAL);
	assert_true(v.complete);
	cdt_verify_result_free(&v);

	fp = fopen(f->out, "r+b");
	fseek(fp, 77L * BS + 3, SEEK_SET);
	fputc(f->data[77 * BS + 3] ^ 1, fp);
	fclose(fp);
	assert_int_equal(cdt_verify(dev, &vo, &v), 0);
	assert_int_equal(v.verdict, CDT_VERIFY_DIFFERENT);
	assert_int_equal(v.first_diff_lba, 77);
	cdt_verify_result_free(&v);
	cdt_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image_whole_and_hidden),
		cmocka_unit_test(test_image_bad_then_resume),
		cmocka_unit_test(test_image_stop_saves_map),
		cmocka_unit_test(test_image_digest_choice),
		cmocka_unit_test(test_image_digest_resume),
		cmocka_unit_test(test_tail_and_verify),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
