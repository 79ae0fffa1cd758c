// SPDX-License-Identifier: MIT
/*
 * Unit tests of the filesystem size readers over the real fixture images
 * in $CDT_FIXTURES (iso9660.iso from xorriso, udf.img from mkudffs; built
 * by `make fixtures`), over hand-damaged copies of them, and over every
 * prefix of the regions they read, each in an exact-size heap buffer so
 * that valgrind and ASan see any read past len.
 */
#include <stdarg.h>
#include <stdbool.h>
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
 * What the readers must answer, computed again from ECMA-119 and ECMA-167
 * and fsize.h's contract, without fsize.c: the random damage below is
 * checked case by case against these.
 */

/*
 * ECMA-119 8: descriptors from byte 32768, 2048 bytes each, "CD001" at 1;
 * the first primary one (type 1, version 1) holds the volume space size
 * (both-endian at 80) in logical blocks (both-endian at 128: 512, 1024 or
 * 2048 on a CD); a terminator (255) or another identifier ends the search.
 */
static int iso_expected(const uint8_t *p, size_t len, uint32_t bs, uint64_t *blocks)
{
	uint64_t bytes;
	size_t at;

	for (at = PVD; bs && at + 2048 <= len; at += 2048) {
		const uint8_t *d = p + at;
		uint32_t size = get_le32(d + 80);
		uint16_t lbs = (uint16_t)(d[128] | d[129] << 8);

		if (memcmp(d + 1, "CD001", 5) || d[0] == 255)
			return -1;
		if (d[0] != 1)
			continue;
		if (d[6] != 1 || th_be32(d + 84) != size || th_be16(d + 130) != lbs ||
		    (lbs != 512 && lbs != 1024 && lbs != 2048) || !size)
			return -1;
		bytes = (uint64_t)size * lbs;
		*blocks = (bytes + bs - 1) / bs;
		return 0;
	}
	return -1;
}

/* ECMA-167 3/7.2: a descriptor tag of this identifier, recording sector. */
static bool tag_says(const uint8_t *t, uint16_t id, uint64_t sector)
{
	uint8_t sum = 0;

	for (int i = 0; i < 16; i++)
		sum = (uint8_t)(sum + (i == 4 ? 0 : t[i]));
	return sum == t[4] && (t[0] | t[1] << 8) == id && get_le32(t + 12) == sector;
}

/*
 * ECMA-167 3/10.2 and 3/10.5: the anchor at sector 256 (sectors of 2048
 * bytes, or the drive's block when larger, up to 64 KiB, a multiple of
 * it) points at the main VDS (length at 16, location at 20); its
 * descriptors up to a terminator (8) are read while whole in the buffer,
 * each tag checked; every partition descriptor (5) must have a length
 * (192) and the largest start (188) + length is the end, in sectors.
 */
static int udf_expected(const uint8_t *p, size_t len, uint32_t bs, uint64_t *blocks)
{
	uint64_t sec, anchor, first, count, s, end = 0;

	if (!bs)
		return -1;
	sec = bs < 2048 ? 2048 : bs;
	if (sec % bs || sec > 65536)
		return -1;
	anchor = 256 * sec;
	if (anchor + 24 > len || !tag_says(p + anchor, 2, 256))
		return -1;
	count = get_le32(p + anchor + 16) / sec;
	first = get_le32(p + anchor + 20);
	for (s = first; s < first + count && (s + 1) * sec <= len; s++) {
		const uint8_t *d = p + s * sec;
		uint16_t id = (uint16_t)(d[0] | d[1] << 8);
		uint64_t start = get_le32(d + 188), length = get_le32(d + 192);

		if (!tag_says(d, id, s))
			return -1;
		if (id == 8)
			break;
		if (id == 5 && !length)
			return -1;
		if (id == 5 && start + length > end)
			end = start + length;
	}
	if (!end)
		return -1;
	*blocks = end * (sec / bs);
	return 0;
}

/* Where the damage goes: the bytes the readers look at. */
static const size_t spots[] = { PVD, PVD + 64, PVD + 128, AVDP,
				VDS_LOC * 2048, PD_SECTOR * 2048 + 176 };

/* A length to cut the image at: mostly near its end, else near a spot. */
static size_t damage_len(const struct image *img, uint32_t *seed)
{
	size_t at;

	if (xorshift(seed) % 4)
		return img->len - xorshift(seed) % 4096;
	at = spots[xorshift(seed) % TH_N(spots)] + xorshift(seed) % 8192;
	at = at > 4096 ? at - 4096 : 0;
	return at < img->len ? at : img->len;
}

/* A number a damaged field may hold: 0, all ones, small, or any. */
static uint32_t field_value(uint32_t *seed)
{
	switch (xorshift(seed) % 4) {
	case 0:
		return 0;
	case 1:
		return 0xffffffffu;
	case 2:
		return xorshift(seed) % 4096;
	default:
		return xorshift(seed);
	}
}

/*
 * Damage that a checksum or a both-endian copy would not catch: the
 * fields rewritten consistently (both halves; the tags' checksums made
 * again), so that the readers must answer from the new values.
 */
static void damage_consistently(uint8_t *p, size_t len, uint32_t *seed)
{
	static const uint16_t lbs[] = { 0, 512, 1024, 2048, 4096, 2352 };

	if (PVD + 2048 <= len) {
		if (xorshift(seed) % 2)
			put_both32(p + PVD + 80, field_value(seed) % 200000);
		else
			put_both16(p + PVD + 128, lbs[xorshift(seed) % TH_N(lbs)]);
	}
	if (AVDP + 2048 <= len) {
		if (xorshift(seed) % 2)
			th_put_le32(p + AVDP + 16, (xorshift(seed) % 8) * 2048 +
				    (xorshift(seed) % 2 ? 0 : xorshift(seed) % 2048));
		else
			th_put_le32(p + AVDP + 20, VDS_LOC - 4 + xorshift(seed) % 12);
		tag_checksum(p + AVDP);
	}
	if ((PD_SECTOR + 1) * 2048 <= len) {
		th_put_le32(p + PD_SECTOR * 2048 + 188 + 4 * (xorshift(seed) % 2),
			    field_value(seed));
		tag_checksum(p + PD_SECTOR * 2048);
	}
}

/*
 * Random damage to the bytes the readers look at (PVD, AVDP, the VDS),
 * at random lengths, some of it made consistent, read at every drive
 * block size: each answer, refusal or size, is what iso_expected and
 * udf_expected compute, and the cases reach every kind of answer (never
 * a read past len: each copy is exactly len bytes).
 */
static void test_random_damage(void **state)
{
	static const uint32_t bs[] = { 512, 1024, 2048, 4096, 1, 2352, 0 };
	struct image iso, udf;
	uint32_t seed = 0x1234567;
	unsigned int iso_sizes = 0, iso_refusals = 0, udf_sizes = 0,
		     udf_refusals = 0, new_sizes = 0;

	(void)state;
	load("iso9660.iso", &iso);
	load("udf.img", &udf);
	for (int iter = 0; iter < 1000; iter++) {
		struct image *img = iter & 1 ? &udf : &iso;
		size_t len = damage_len(img, &seed);
		uint8_t *p = th_exact(img->data, len);

		for (int k = 0; k < 4; k++) {
			size_t at = spots[xorshift(&seed) % TH_N(spots)] +
				    xorshift(&seed) % 32;

			if (at < len)
				p[at] = (uint8_t)xorshift(&seed);
		}
		if (xorshift(&seed) % 2)
			damage_consistently(p, len, &seed);
		for (size_t b = 0; b < TH_N(bs); b++) {
			uint64_t got = 0, want = 0;
			int rc = cdt_iso9660_size(p, len, bs[b], &got);

			assert_int_equal(rc, iso_expected(p, len, bs[b], &want));
			if (!rc)
				assert_true(got == want);
			iso_sizes += !rc;
			iso_refusals += !!rc;
			new_sizes += !rc && bs[b] == 2048 && got != 112;
			rc = cdt_udf_size(p, len, bs[b], &got);
			assert_int_equal(rc, udf_expected(p, len, bs[b], &want));
			if (!rc)
				assert_true(got == want);
			udf_sizes += !rc;
			udf_refusals += !!rc;
			new_sizes += !rc && bs[b] == 2048 && got != 1024;
		}
		free(p);
	}
	/* the cases are not all refusals, nor all the undamaged answer */
	assert_true(iso_sizes >= 100 && iso_refusals >= 100);
	assert_true(udf_sizes >= 100 && udf_refusals >= 100);
	assert_true(new_sizes >= 50);
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
