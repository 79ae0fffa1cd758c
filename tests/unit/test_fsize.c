// SPDX-License-Identifier: MIT
/*
 * Unit tests of the filesystem size readers over the real fixture images
 * in $CDT_FIXTURES (iso9660.iso from xorriso, udf.img from mkudffs; built
 * by `make fixtures`), over hand-damaged copies of them, and over every
 * prefix of the regions they read, each in an exact-size heap buffer so
 * that valgrind and ASan see any read past len.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "probe/fsize.h"
#include "th.h"

#define PVD 32768u
#define AVDP (256u * 2048u)

struct image {
	uint8_t *data;
	size_t len;
};

static void load(const char *name, struct image *img)
{
	const char *dir = getenv("CDT_FIXTURES");
	char path[4096];
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "fixtures", name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("%s: missing (run `make fixtures`)", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	img->len = (size_t)n;
	img->data = malloc(img->len);
	assert_non_null(img->data);
	assert_int_equal(fread(img->data, 1, img->len, f), img->len);
	fclose(f);
}

static int load_iso(void **state)
{
	struct image *img = calloc(1, sizeof(*img));

	load("iso9660.iso", img);
	*state = img;
	return 0;
}

static int load_udf(void **state)
{
	struct image *img = calloc(1, sizeof(*img));

	load("udf.img", img);
	*state = img;
	return 0;
}

static int unload(void **state)
{
	struct image *img = *state;

	free(img->data);
	free(img);
	return 0;
}

static void put_both16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void put_both32(uint8_t *p, uint32_t v)
{
	th_put_le32(p, v);
	th_put_be32(p + 4, v);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- ISO 9660 -------------------------------------------------------------- */

typedef int fs_size_fn(const uint8_t *buf, size_t len, uint32_t dev_block,
		       uint64_t *blocks);

/* fs on the image's first len bytes: -1 below min_len, else want blocks */
static void expect_prefix(fs_size_fn *fs, const struct image *img, size_t len,
			  size_t min_len, uint64_t want)
{
	uint8_t *p = th_exact(img->data, len);
	uint64_t blocks = 0;
	int rc = fs(p, len, 2048, &blocks);

	if (len < min_len) {
		assert_int_equal(rc, -1);
	} else {
		assert_int_equal(rc, 0);
		assert_int_equal(blocks, want);
	}
	free(p);
}

/* fs finds no filesystem in b */
static void expect_refused(fs_size_fn *fs, const uint8_t *b, size_t len)
{
	uint64_t blocks;

	assert_int_equal(fs(b, len, 2048, &blocks), -1);
}

/* ... nor with the bits mask of *byte flipped, which are flipped back after */
static void expect_flip_refused(fs_size_fn *fs, uint8_t *b, size_t len,
				uint8_t *byte, uint8_t mask)
{
	*byte ^= mask;
	expect_refused(fs, b, len);
	*byte ^= mask;
}

static void test_iso_fixture(void **state)
{
	struct image *img = *state;
	uint64_t blocks = 0;

	assert_int_equal(cdt_iso9660_size(img->data, img->len, 2048, &blocks), 0);
	/* make-fixtures.sh cuts the file to exactly the PVD's size */
	assert_int_equal(blocks * 2048, img->len);
	assert_int_equal(blocks, 112);
	assert_int_equal(cdt_iso9660_size(img->data, img->len, 512, &blocks), 0);
	assert_int_equal(blocks * 512, img->len);
	/* what a drive reading only the head hands over is enough */
	assert_int_equal(cdt_iso9660_size(img->data, PVD + 2048, 2048, &blocks), 0);
	assert_int_equal(blocks, 112);
	assert_int_equal(cdt_iso9660_size(img->data, img->len, 0, &blocks), -1);
	assert_int_equal(cdt_iso9660_size(NULL, 0, 2048, &blocks), -1);
}

static void test_iso_prefixes(void **state)
{
	struct image *img = *state;
	size_t full = PVD + 2 * 2048;

	assert_true(img->len >= full);
	for (size_t len = 0; len <= full; len++) {
		/* every byte across the PVD, coarser before it */
		if (len < PVD - 64 && len % 509)
			continue;
		expect_prefix(cdt_iso9660_size, img, len, PVD + 2048, 112);
	}
}

static void test_iso_damaged(void **state)
{
	struct image *img = *state;
	uint8_t *b = th_exact(img->data, img->len);
	uint8_t *vd = b + PVD;
	uint64_t blocks;

	/* the big-endian half disagrees */
	expect_flip_refused(cdt_iso9660_size, b, img->len, &vd[87], 0x01);
	expect_flip_refused(cdt_iso9660_size, b, img->len, &vd[130], 0x02);
	/* consistent but impossible logical block sizes */
	put_both16(vd + 128, 4096);
	expect_refused(cdt_iso9660_size, b, img->len);
	put_both16(vd + 128, 0);
	expect_refused(cdt_iso9660_size, b, img->len);
	put_both16(vd + 128, 2048);
	/* an empty volume */
	put_both32(vd + 80, 0);
	expect_refused(cdt_iso9660_size, b, img->len);
	put_both32(vd + 80, 112);
	/* wrong version, wrong standard identifier */
	vd[6] = 2;
	expect_refused(cdt_iso9660_size, b, img->len);
	vd[6] = 1;
	vd[3] = '2';
	expect_refused(cdt_iso9660_size, b, img->len);
	vd[3] = '0';
	assert_int_equal(cdt_iso9660_size(b, img->len, 2048, &blocks), 0);
	assert_int_equal(blocks, 112);
	free(b);
}

/* A hand-made descriptor set: boot record, PVD, terminator. */
static uint8_t *iso_set(size_t *len, uint32_t size, uint16_t lbs)
{
	uint8_t *b;

	*len = PVD + 3 * 2048;
	b = calloc(1, *len);
	assert_non_null(b);
	for (int i = 0; i < 3; i++) {
		memcpy(b + PVD + i * 2048 + 1, "CD001", 5);
		b[PVD + i * 2048 + 6] = 1;
	}
	b[PVD] = 0;
	b[PVD + 2048] = 1;
	put_both32(b + PVD + 2048 + 80, size);
	put_both16(b + PVD + 2048 + 128, lbs);
	b[PVD + 4096] = 255;
	return b;
}

/* A volume of size blocks of lbs bytes is in2048 and in512 drive blocks. */
static void expect_iso_set(uint32_t size, uint16_t lbs, uint64_t in2048,
			   uint64_t in512)
{
	uint64_t blocks = 0;
	size_t len;
	uint8_t *b = iso_set(&len, size, lbs);

	assert_int_equal(cdt_iso9660_size(b, len, 2048, &blocks), 0);
	assert_int_equal(blocks, in2048);
	assert_int_equal(cdt_iso9660_size(b, len, 512, &blocks), 0);
	assert_int_equal(blocks, in512);
	free(b);
}

static void test_iso_block_sizes(void **state)
{
	uint64_t blocks = 0;
	size_t len;
	uint8_t *b;

	(void)state;
	/* 1001 blocks of 512 = 512 512 bytes: 250.25 drive blocks -> 251 */
	expect_iso_set(1001, 512, 251, 1001);
	expect_iso_set(999, 1024, 500, 1998);

	/* the largest volume does not overflow, even counted in bytes */
	b = iso_set(&len, 0xffffffffu, 2048);
	assert_int_equal(cdt_iso9660_size(b, len, 2048, &blocks), 0);
	assert_true(blocks == 0xffffffffull);
	assert_int_equal(cdt_iso9660_size(b, len, 1, &blocks), 0);
	assert_true(blocks == 0xffffffffull * 2048);
	free(b);

	/* a terminator before any PVD */
	b = iso_set(&len, 10, 2048);
	b[PVD] = 255;
	assert_int_equal(cdt_iso9660_size(b, len, 2048, &blocks), -1);
	free(b);

	/* no volume descriptors at all */
	b = calloc(1, PVD + 4096);
	assert_non_null(b);
	assert_int_equal(cdt_iso9660_size(b, PVD + 4096, 2048, &blocks), -1);
	free(b);
}

/* ---- UDF ----------------------------------------------------------------- */

static void tag_checksum(uint8_t *tag)
{
	unsigned int sum = 0;

	for (int i = 0; i < 16; i++)
		if (i != 4)
			sum += tag[i];
	tag[4] = (uint8_t)sum;
}

/* Where mkudffs put the main VDS and the partition descriptor. */
#define VDS_LOC 96u
#define PD_SECTOR 98u

static void test_udf_fixture(void **state)
{
	struct image *img = *state;
	const uint8_t *pd = img->data + PD_SECTOR * 2048;
	const uint8_t *a = img->data + AVDP;
	uint64_t blocks = 0;

	/* what `od` shows in the fixture: AVDP -> VDS at 96, PD at 98 */
	assert_int_equal(img->len, 1024 * 2048);
	assert_int_equal(a[0], 2);
	assert_int_equal(get_le32(a + 16), 16 * 2048);
	assert_int_equal(get_le32(a + 20), VDS_LOC);
	assert_int_equal(pd[0], 5);
	assert_int_equal(get_le32(pd + 188), 257);
	assert_int_equal(get_le32(pd + 192), 767);

	assert_int_equal(cdt_udf_size(img->data, img->len, 2048, &blocks), 0);
	assert_int_equal(blocks, 257 + 767);
	assert_int_equal(cdt_udf_size(img->data, img->len, 512, &blocks), 0);
	assert_int_equal(blocks, (257 + 767) * 4);
	assert_int_equal(cdt_udf_size(img->data, img->len, 1024, &blocks), 0);
	assert_int_equal(blocks, (257 + 767) * 2);
	/* 4096-byte sectors would put the AVDP beyond the image */
	assert_int_equal(cdt_udf_size(img->data, img->len, 4096, &blocks), -1);
	assert_int_equal(cdt_udf_size(img->data, img->len, 2352, &blocks), -1);
	assert_int_equal(cdt_udf_size(img->data, img->len, 0, &blocks), -1);
	/* the reader's probe size covers it */
	assert_int_equal(cdt_udf_size(img->data, CDT_FS_PROBE_BYTES, 2048,
				      &blocks), 0);
	/* a UDF image is no ISO 9660 volume (mkudffs writes no PVD) */
	assert_int_equal(cdt_iso9660_size(img->data, img->len, 2048, &blocks), -1);
}

static void test_udf_prefixes(void **state)
{
	struct image *img = *state;
	size_t full = AVDP + 2048;

	for (size_t len = 0; len <= full; len++) {
		/* byte by byte around the VDS and the AVDP tag + extents */
		if (!(len >= VDS_LOC * 2048 - 8 && len <= 102 * 2048 + 8) &&
		    !(len >= AVDP - 8 && len <= AVDP + 40) && len % 4093)
			continue;
		expect_prefix(cdt_udf_size, img, len, AVDP + 24, 1024);
	}
}

static void test_udf_damaged(void **state)
{
	struct image *img = *state;
	uint8_t *b = th_exact(img->data, img->len);
	uint8_t *a = b + AVDP, *pd = b + PD_SECTOR * 2048;
	uint64_t blocks;

	/* AVDP: bad checksum, then a changed field without a new checksum */
	expect_flip_refused(cdt_udf_size, b, img->len, &a[4], 0xff);
	expect_flip_refused(cdt_udf_size, b, img->len, &a[6], 0x01);
	/* AVDP claiming another location, with a correct checksum */
	th_put_le32(a + 12, 257);
	tag_checksum(a);
	expect_refused(cdt_udf_size, b, img->len);
	th_put_le32(a + 12, 256);
	tag_checksum(a);
	/* a different descriptor in the AVDP's place */
	a[0] = 3;
	tag_checksum(a);
	expect_refused(cdt_udf_size, b, img->len);
	a[0] = 2;
	tag_checksum(a);
	assert_int_equal(cdt_udf_size(b, img->len, 2048, &blocks), 0);

	/* the partition descriptor's checksum */
	expect_flip_refused(cdt_udf_size, b, img->len, &pd[4], 0x10);
	/* a zero-length partition */
	th_put_le32(pd + 192, 0);
	expect_refused(cdt_udf_size, b, img->len);
	th_put_le32(pd + 192, 767);

	/* main VDS extent beyond the buffer, or shorter than one sector */
	th_put_le32(a + 20, 0xfffffff0u);
	tag_checksum(a);
	expect_refused(cdt_udf_size, b, img->len);
	th_put_le32(a + 20, VDS_LOC);
	th_put_le32(a + 16, 2047);
	tag_checksum(a);
	expect_refused(cdt_udf_size, b, img->len);
	/* an extent ending just after the PD still finds it */
	th_put_le32(a + 16, (PD_SECTOR - VDS_LOC + 1) * 2048);
	tag_checksum(a);
	assert_int_equal(cdt_udf_size(b, img->len, 2048, &blocks), 0);
	assert_int_equal(blocks, 1024);
	/* ...and one ending before it does not */
	th_put_le32(a + 16, (PD_SECTOR - VDS_LOC) * 2048);
	tag_checksum(a);
	expect_refused(cdt_udf_size, b, img->len);
	th_put_le32(a + 16, 16 * 2048);
	tag_checksum(a);

	/* a terminator before the PD ends the sequence */
	memcpy(b + 97 * 2048, b + 101 * 2048, 2048);
	th_put_le32(b + 97 * 2048 + 12, 97);
	tag_checksum(b + 97 * 2048);
	expect_refused(cdt_udf_size, b, img->len);
	free(b);
}

static void test_udf_two_partitions(void **state)
{
	struct image *img = *state;
	uint8_t *b = th_exact(img->data, img->len);
	uint8_t *d = b + 99 * 2048;
	uint64_t blocks;

	/* replace the IUVD at 99 with a second PD ending further out */
	memcpy(d, b + PD_SECTOR * 2048, 2048);
	th_put_le32(d + 12, 99);
	th_put_le32(d + 188, 1000);
	th_put_le32(d + 192, 0xffffffffu);
	tag_checksum(d);
	assert_int_equal(cdt_udf_size(b, img->len, 2048, &blocks), 0);
	assert_true(blocks == 1000ull + 0xffffffffull);
	assert_int_equal(cdt_udf_size(b, img->len, 512, &blocks), 0);
	assert_true(blocks == (1000ull + 0xffffffffull) * 4);
	free(b);
}

static uint32_t xorshift(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/*
 * Random damage to the bytes the readers look at (PVD, AVDP, the VDS),
 * at random lengths and drive block sizes: -1 or an answer, never a read
 * past len.
 */
static void test_random_damage(void **state)
{
	static const uint32_t bs[] = { 512, 1024, 2048, 4096, 1, 2352 };
	static const size_t spots[] = { PVD, PVD + 64, PVD + 128, AVDP,
					96 * 2048, 98 * 2048 + 176 };
	struct image iso, udf;
	uint32_t seed = 0x1234567;

	(void)state;
	load("iso9660.iso", &iso);
	load("udf.img", &udf);
	for (int iter = 0; iter < 400; iter++) {
		struct image *img = iter & 1 ? &udf : &iso;
		size_t len = img->len - xorshift(&seed) % 4096;
		uint8_t *p = th_exact(img->data, len);
		uint64_t blocks;

		for (int k = 0; k < 4; k++) {
			size_t at = spots[xorshift(&seed) % 6] +
				    xorshift(&seed) % 32;

			if (at < len)
				p[at] = (uint8_t)xorshift(&seed);
		}
		cdt_iso9660_size(p, len, bs[iter % 6], &blocks);
		cdt_udf_size(p, len, bs[iter % 6], &blocks);
		free(p);
	}
	free(iso.data);
	free(udf.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_iso_fixture, load_iso, unload),
		cmocka_unit_test_setup_teardown(test_iso_prefixes, load_iso, unload),
		cmocka_unit_test_setup_teardown(test_iso_damaged, load_iso, unload),
		cmocka_unit_test(test_iso_block_sizes),
		cmocka_unit_test_setup_teardown(test_udf_fixture, load_udf, unload),
		cmocka_unit_test_setup_teardown(test_udf_prefixes, load_udf, unload),
		cmocka_unit_test_setup_teardown(test_udf_damaged, load_udf, unload),
		cmocka_unit_test_setup_teardown(test_udf_two_partitions, load_udf,
						unload),
		cmocka_unit_test(test_random_damage),
	};

	return cmocka_run_group_tests_name("fsize", tests, NULL, NULL);
}
