// SPDX-License-Identifier: MIT
/*
 * Unit tests of raw CD sectors and the Q subchannel (cd/edc.c, ecc.c,
 * sector.c, subq.c, readcd.c).  The EDC, ECC and Q CRC are checked
 * against their catalogued check values, against the bit-at-a-time
 * definitions written here, and against vectors from tests/raw/model.py,
 * an independent Python model (RS encoding by polynomial division, a
 * bitwise CRC): every sector and Q it prints is rebuilt here from the
 * same inputs and must match byte for byte.
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
#include "cd/edc.h"
#include "mmc/readcd.h"
#include "cd/sector.h"
#include "cd/subq.h"

/* ---- EDC ------------------------------------------------------------------ */

/* ECMA-130 14.3 bit by bit: the reflected register, one input bit at a time. */
static uint32_t edc_bitwise(const uint8_t *p, size_t n)
{
	uint32_t r = 0;
	size_t i;
	int b;

	for (i = 0; i < n; i++)
		for (b = 0; b < 8; b++) {
			uint32_t out = (r ^ (p[i] >> b)) & 1;

			r = (r >> 1) ^ (out ? 0xd8018001u : 0);
		}
	return r;
}

static void test_edc_check_value(void **state)
{
	(void)state;
	assert_int_equal(cd_edc((const uint8_t *)"123456789", 9), 0x6ec2edc4u);
	assert_int_equal(cd_edc((const uint8_t *)"", 0), 0);
	/* continuing a CRC is the CRC of the whole */
	assert_int_equal(cd_edc_update(cd_edc((const uint8_t *)"1234", 4),
				       (const uint8_t *)"56789", 5), 0x6ec2edc4u);
}

static void test_edc_bitwise(void **state)
{
	uint8_t *buf = th_random(4096, 25);
	size_t n;

	(void)state;
	for (n = 0; n <= 4096; n += 1 + n / 3)
		assert_int_equal(cd_edc(buf, n), edc_bitwise(buf, n));
	free(buf);
}

/* Eight bytes a step (cd/crc.c) from every alignment, and continued
 * across a split anywhere: still the bit-at-a-time CRC. */
static void test_edc_slices(void **state)
{
	uint8_t *buf = th_random(2352, 26);
	size_t from, n, cut;

	(void)state;
	for (from = 0; from < 16; from++)
		for (n = 0; n + from <= 2352; n += 61) {
			cut = n / 3;
			assert_int_equal(cd_edc_update(cd_edc(buf + from, cut),
						       buf + from + cut, n - cut),
					 edc_bitwise(buf + from, n));
		}
	free(buf);
}

/* ---- GF(2^8) -------------------------------------------------------------- */

static void test_gf(void **state)
{
	unsigned int a, b;

	(void)state;
	assert_int_equal(cd_gf_mul(3, 0xf4), 1);	/* ecc.c's 1/(alpha+1) */
	assert_int_equal(cd_gf_mul(0x80, 2), 0x1d);	/* x^8 = x^4+x^3+x^2+1 */
	for (a = 0; a < 256; a += 7)
		for (b = 0; b < 256; b += 11) {
			assert_int_equal(cd_gf_mul(a, b), cd_gf_mul(b, a));
			assert_int_equal(cd_gf_mul(a, 1), a);
		}
	/* alpha is primitive: its powers run through all 255 non-zero elements */
	{
		uint8_t seen[256] = { 0 }, x = 1;
		unsigned int i;

		for (i = 0; i < 255; i++) {
			assert_int_equal(seen[x], 0);
			seen[x] = 1;
			x = cd_gf_mul(x, 2);
		}
		assert_int_equal(x, 1);
	}
}

/* ---- ECC check: the syndromes against annex A's words one by one -------- */

/* H x V = 0 for n words at w[] in one plane, the definition in ecc.c. */
static bool ref_word_ok(const uint8_t *s, const unsigned int *w, unsigned int n,
			unsigned int plane)
{
	uint8_t s0 = 0, s1 = 0, v;
	unsigned int i;

	for (i = 0; i < n; i++) {
		v = s[CD_ECC_START + 2 * w[i] + plane];
		s0 ^= v;
		s1 = cd_gf_mul(s1, 2) ^ v;
	}
	return !s0 && !s1;
}

static void ref_ecc_check(const uint8_t *s, bool *p_ok, bool *q_ok)
{
	unsigned int w[45], i, k, plane;

	*p_ok = *q_ok = true;
	for (plane = 0; plane < 2; plane++) {
		for (i = 0; i < 43; i++) {	/* P column i: 26 rows */
			for (k = 0; k < 26; k++)
				w[k] = 43 * k + i;
			*p_ok &= ref_word_ok(s, w, 26, plane);
		}
		for (i = 0; i < 26; i++) {	/* Q diagonal i */
			for (k = 0; k < 43; k++)
				w[k] = (44 * k + 43 * i) % 1118;
			w[43] = 1118 + i;
			w[44] = 1144 + i;
			*q_ok &= ref_word_ok(s, w, 45, plane);
		}
	}
}

/* Random sectors, coded, then 0 to 3 bytes changed (or left random). */
static void test_ecc_check_reference(void **state)
{
	uint8_t s[2352];
	bool p, q, rp, rq;
	unsigned int i, k, n, seen[4] = { 0 };

	(void)state;
	srand(26);
	for (i = 0; i < 3000; i++) {
		for (k = 0; k < sizeof(s); k++)
			s[k] = rand();
		if (i % 10)
			cd_ecc_compute(s);
		n = rand() % 4;
		for (k = 0; k < n; k++)
			s[CD_ECC_START + rand() % (2352 - CD_ECC_START)] ^= 1 + rand() % 255;
		cd_ecc_check(s, &p, &q);
		ref_ecc_check(s, &rp, &rq);
		assert_int_equal(p, rp);
		assert_int_equal(q, rq);
		seen[2 * p + q]++;
	}
	/* both bad, Q bad alone (its parity bytes changed), both good; P bad
	 * alone needs a change that Q misses: not by chance */
	assert_true(seen[0] > 0 && seen[2] > 0 && seen[3] > 0);
}

/* ---- vectors from the Python model ----------------------------------------- */

static FILE *model_vectors(unsigned int count, unsigned int seed)
{
	const char *fx = getenv("CDT_FIXTURES");
	char cmd[4200];

	assert_non_null(fx);
	snprintf(cmd, sizeof(cmd), "python3 '%s/../tests/raw/model.py' vectors %u %u",
		 fx, count, seed);
	return popen(cmd, "r");
}

static size_t unhex(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	unsigned int v;

	while (n < max && sscanf(s + 2 * n, "%2x", &v) == 1)
		out[n++] = (uint8_t)v;
	return n;
}

struct vec {
	char kind[16];
	long long lba;
	uint8_t sub[4], data[CD_RAW], sector[CD_RAW];
	size_t data_len;
};

static int read_sector_vec(char *line, struct vec *v)
{
	char *tok[6], *save = NULL;
	unsigned int i;

	for (i = 0; i < 6; i++) {
		tok[i] = strtok_r(i ? NULL : line, " \n", &save);
		if (!tok[i])
			return -1;
	}
	if (strcmp(tok[0], "sector"))
		return -1;
	snprintf(v->kind, sizeof(v->kind), "%s", tok[1]);
	v->lba = atoll(tok[2]);
	assert_int_equal(unhex(tok[3], v->sub, 4), 4);
	v->data_len = unhex(tok[4], v->data, sizeof(v->data));
	assert_int_equal(unhex(tok[5], v->sector, CD_RAW), CD_RAW);
	return 0;
}

static enum cd_sector_kind vec_kind(const struct vec *v)
{
	if (!strcmp(v->kind, "mode1"))
		return CD_SECTOR_MODE1;
	return strcmp(v->kind, "form1") ? CD_SECTOR_FORM2 : CD_SECTOR_FORM1;
}

/* Built here from the same inputs, parsed, checked, then damaged. */
static void check_sector_vec(const struct vec *v)
{
	enum cd_sector_kind k = vec_kind(v);
	struct cd_sector_info info;
	struct cd_sector_check chk;
	uint8_t s[CD_RAW];

	memset(s, 0xee, sizeof(s));
	if (k == CD_SECTOR_MODE1)
		cd_sector_build_mode1(s, v->data, v->lba);
	else
		cd_sector_build_mode2(s, v->sub, v->data, v->lba,
				      strcmp(v->kind, "form2z") != 0);
	assert_memory_equal(s, v->sector, CD_RAW);

	assert_int_equal(cd_sector_parse(s, CD_RAW, &info), 0);
	assert_int_equal(info.kind, k);
	assert_true(info.bcd_ok);
	assert_int_equal(info.lba, v->lba);
	assert_true(cd_sector_check(s, k, &chk));
	assert_int_equal(chk.edc, strcmp(v->kind, "form2z") ? CD_CHECK_OK : CD_CHECK_NONE);
	assert_int_equal(chk.ecc_p, k == CD_SECTOR_FORM2 ? CD_CHECK_NONE : CD_CHECK_OK);
	assert_memory_equal(s + cd_sector_user_offset(k), v->data, cd_sector_user_size(k));

	/* one flipped byte of user data: the EDC says so (Form 2's zero EDC cannot) */
	s[cd_sector_user_offset(k) + 100] ^= 0x01;
	assert_int_equal(cd_sector_check(s, k, &chk), !strcmp(v->kind, "form2z"));
	if (k != CD_SECTOR_FORM2) {
		assert_int_equal(chk.ecc_p, CD_CHECK_BAD);
		assert_int_equal(chk.ecc_q, CD_CHECK_BAD);
	}
	s[cd_sector_user_offset(k) + 100] ^= 0x01;

	/* another address: Mode 1's ECC covers it, Form 1's does not */
	s[14] ^= 0x01;
	cd_sector_check(s, k, &chk);
	if (k == CD_SECTOR_MODE1)
		assert_int_equal(chk.ecc_p, CD_CHECK_BAD);
	else if (k == CD_SECTOR_FORM1)
		assert_int_equal(chk.ecc_p, CD_CHECK_OK);
	s[14] ^= 0x01;

	/* a damaged Q parity byte alone: P still holds */
	if (k != CD_SECTOR_FORM2) {
		s[CD_ECC_Q + 7] ^= 0x80;
		cd_sector_check(s, k, &chk);
		assert_int_equal(chk.ecc_p, CD_CHECK_OK);
		assert_int_equal(chk.ecc_q, CD_CHECK_BAD);
	}
}

static void check_q_vec(char *line)
{
	char *tok[9], *save = NULL;
	uint8_t want_q[CD_Q_LEN], want_pw[CD_PW_LEN], q[CD_Q_LEN], pw[CD_PW_LEN];
	struct cd_subq sq;
	unsigned int i, control, track, index;
	long long rel, lba;

	for (i = 0; i < 8; i++)
		assert_non_null(tok[i] = strtok_r(i ? NULL : line, " \n", &save));
	control = atoi(tok[1]);
	track = atoi(tok[2]);
	index = atoi(tok[3]);
	rel = atoll(tok[4]);
	lba = atoll(tok[5]);
	assert_int_equal(unhex(tok[6], want_q, CD_Q_LEN), CD_Q_LEN);
	assert_int_equal(unhex(tok[7], want_pw, CD_PW_LEN), CD_PW_LEN);

	cd_subq_build(q, control, track, index, rel, lba);
	assert_memory_equal(q, want_q, CD_Q_LEN);
	cd_q_to_pw(q, index == 0, pw);
	assert_memory_equal(pw, want_pw, CD_PW_LEN);
	memset(q, 0, sizeof(q));
	assert_int_equal(cd_pw_to_q(want_pw, CD_PW_LEN, q), 0);
	assert_memory_equal(q, want_q, CD_Q_LEN);

	assert_int_equal(cd_subq_parse(q, CD_Q_LEN, &sq), 0);
	assert_int_equal(sq.crc, CD_Q_CRC_OK);
	assert_true(sq.bcd_ok);
	assert_int_equal(sq.adr, 1);
	assert_int_equal(sq.control, control);
	assert_int_equal(sq.track, track);
	assert_int_equal(sq.index, index);
	assert_int_equal(sq.relative, rel);
	assert_int_equal(sq.lba, lba);
	q[4] ^= 0x01;
	cd_subq_parse(q, CD_Q_LEN, &sq);
	assert_int_equal(sq.crc, CD_Q_CRC_BAD);
}

static void test_model_vectors(void **state)
{
	struct vec *v = malloc(sizeof(*v));
	unsigned int sectors = 0, qs = 0;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	(void)state;
	assert_non_null(v);
	f = model_vectors(48, 2025);
	assert_non_null(f);
	while (getline(&line, &cap, f) > 0) {
		if (!strncmp(line, "q ", 2)) {
			check_q_vec(line);
			qs++;
		} else {
			assert_int_equal(read_sector_vec(line, v), 0);
			check_sector_vec(v);
			sectors++;
		}
	}
	assert_int_equal(pclose(f), 0);
	assert_int_equal(sectors, 48);
	assert_int_equal(qs, 48);
	free(line);
	free(v);
}

/* ---- sector parser ------------------------------------------------------- */

static int parse_sector(const uint8_t *p, size_t len)
{
	struct cd_sector_info info;

	return cd_sector_parse(p, len, &info);
}

static void test_sector_parse(void **state)
{
	uint8_t *data = th_random(CD_DATA, 7), s[CD_RAW];
	struct cd_sector_info info;
	struct cd_sector_check chk;

	(void)state;
	cd_sector_build_mode1(s, data, 16);
	th_expect_prefixes(s, CD_RAW, CD_RAW, parse_sector);
	/* header of LBA 16: 00:02:16, mode 1 */
	TH_EXPECT_AT(s, { 0, 0x00 }, { 1, 0xff }, { 10, 0xff }, { 11, 0x00 },
		     { 12, 0x00 }, { 13, 0x02 }, { 14, 0x16 }, { 15, 0x01 });
	/* audio: no sync */
	s[0] = 0x01;
	assert_int_equal(cd_sector_parse(s, CD_RAW, &info), 0);
	assert_int_equal(info.kind, CD_SECTOR_NONE);
	s[0] = 0;
	/* the block indicator bits of the mode byte are not the mode */
	s[15] = 0xe1;
	cd_sector_parse(s, CD_RAW, &info);
	assert_int_equal(info.kind, CD_SECTOR_MODE1);
	s[15] = 3;
	cd_sector_parse(s, CD_RAW, &info);
	assert_int_equal(info.kind, CD_SECTOR_BADMODE);
	assert_false(cd_sector_check(s, info.kind, &chk) == false);
	s[15] = 1;
	/* not BCD: 0x1a frames */
	s[14] = 0x1a;
	cd_sector_parse(s, CD_RAW, &info);
	assert_false(info.bcd_ok);
	s[14] = 0x75;		/* frame 75 does not exist */
	cd_sector_parse(s, CD_RAW, &info);
	assert_false(info.bcd_ok);
	s[14] = 0x16;
	/* Mode 1's 8 zero bytes */
	s[2070] = 1;
	assert_false(cd_sector_check(s, CD_SECTOR_MODE1, &chk));
	assert_int_equal(chk.edc, CD_CHECK_BAD);
	/* Mode 2 whose subheader copies differ: formless */
	cd_sector_put_header(s, 16, 2);
	s[16] = 1;
	s[20] = 2;
	cd_sector_parse(s, CD_RAW, &info);
	assert_int_equal(info.kind, CD_SECTOR_MODE2);
	assert_int_equal(cd_sector_user_size(info.kind), 2336);
	assert_string_equal(cd_sector_kind_name(CD_SECTOR_FORM2), "mode2-form2");
	assert_string_equal(cd_sector_kind_name(CD_SECTOR_MODE1), "mode1");
	free(data);
}

/* The header of a pregap sector before LBA 0 and of a far one. */
static void test_sector_header_addresses(void **state)
{
	uint8_t s[CD_RAW];
	struct cd_sector_info info;
	static const struct { int64_t lba; uint8_t m, sec, f; } cases[] = {
		{ -150, 0x00, 0x00, 0x00 }, { -1, 0x00, 0x01, 0x74 },
		{ 0, 0x00, 0x02, 0x00 }, { 359849, 0x79, 0x59, 0x74 },
		{ 449849, 0x99, 0x59, 0x74 },
	};
	unsigned int i;

	(void)state;
	memset(s, 0, sizeof(s));
	for (i = 0; i < TH_N(cases); i++) {
		cd_sector_put_header(s, cases[i].lba, 1);
		assert_int_equal(s[12], cases[i].m);
		assert_int_equal(s[13], cases[i].sec);
		assert_int_equal(s[14], cases[i].f);
		cd_sector_parse(s, CD_RAW, &info);
		assert_int_equal(info.lba, cases[i].lba);
	}
}

/* ---- Q ----------------------------------------------------------------------- */

static int parse_q(const uint8_t *p, size_t len)
{
	struct cd_subq q;

	return cd_subq_parse(p, len, &q);
}

static int parse_pw(const uint8_t *p, size_t len)
{
	uint8_t q[CD_Q_LEN];

	return cd_pw_to_q(p, len, q);
}

static void test_subq(void **state)
{
	uint8_t q[CD_Q_FORMATTED] = { 0 }, pw[CD_PW_LEN];
	struct cd_subq sq;

	(void)state;
	/* the Q CRC covers 10 bytes: CRC-16/XMODEM (0x1021, register 0; its
	 * check value 0x31C3 is of 9) of "123456789\0", as a bit-at-a-time
	 * register gives it (model.py asserts the 9-byte check value) */
	memcpy(q, "123456789", 9);
	assert_int_equal(cd_q_crc(q), 0xe572);
	/* track 2, index 0, 2 s before index 01, at LBA 4350 (00:60:00 = 01:00:00) */
	cd_subq_build(q, 0, 2, 0, 150, 4350);
	TH_EXPECT_BYTES(q, 0x01, 0x02, 0x00, 0x00, 0x02, 0x00, 0x00,
			0x01, 0x00, 0x00);
	th_expect_prefixes(q, CD_Q_FORMATTED, CD_Q_LEN, parse_q);
	assert_int_equal(cd_subq_parse(q, CD_Q_FORMATTED, &sq), 0);
	assert_int_equal(sq.crc, CD_Q_CRC_OK);
	assert_int_equal(sq.lba, 4350);
	assert_int_equal(sq.relative, 150);
	/* a drive that leaves the CRC out */
	q[10] = q[11] = 0;
	cd_subq_parse(q, CD_Q_FORMATTED, &sq);
	assert_int_equal(sq.crc, CD_Q_CRC_ABSENT);
	assert_int_equal(sq.track, 2);
	/* the lead-out */
	cd_subq_build(q, 4, CD_TRACK_LEADOUT, 1, 0, 16500);
	cd_subq_parse(q, CD_Q_LEN, &sq);
	assert_int_equal(sq.track, CD_TRACK_LEADOUT);
	assert_true(sq.bcd_ok);
	assert_int_equal(sq.control, 4);
	/* ADR 2 (catalogue number): no position */
	q[0] = 0x02;
	cd_subq_parse(q, CD_Q_LEN, &sq);
	assert_int_equal(sq.adr, 2);
	assert_false(sq.bcd_ok);
	assert_int_equal(sq.lba, 0);
	/* not BCD */
	cd_subq_build(q, 0, 1, 1, 0, 0);
	q[9] = 0x7a;
	cd_subq_parse(q, CD_Q_LEN, &sq);
	assert_false(sq.bcd_ok);
	/* raw P-W: Q is bit 6; P and R-W bits around it do not matter */
	cd_subq_build(q, 0, 1, 1, 0, 0);
	cd_q_to_pw(q, true, pw);
	for (unsigned int i = 0; i < CD_PW_LEN; i++) {
		assert_int_equal(pw[i] & 0x80, 0x80);
		pw[i] |= 0x3f;
	}
	th_expect_prefixes(pw, CD_PW_LEN, CD_PW_LEN, parse_pw);
	{
		uint8_t back[CD_Q_LEN];

		assert_int_equal(cd_pw_to_q(pw, CD_PW_LEN, back), 0);
		assert_memory_equal(back, q, CD_Q_LEN);
	}
}

/* ---- READ CD ---------------------------------------------------------------- */

#define BUILD(call, want)						\
	do {								\
		uint8_t cdb_[32];					\
		memset(cdb_, 0xee, sizeof(cdb_));			\
		assert_int_equal(call, sizeof(want));			\
		assert_memory_equal(cdb_, want, sizeof(want));		\
		for (unsigned int i_ = sizeof(want); i_ < sizeof(cdb_); i_++) \
			assert_int_equal(cdb_[i_], 0xee);		\
	} while (0)

static void test_read_cd_cdb(void **state)
{
	/* any type, LBA 16, 2 blocks, raw with C2 and formatted Q */
	static const uint8_t raw[12] = { 0xbe, 0x00, 0, 0, 0, 16, 0, 0, 2,
					 0xfa, 0x02, 0 };
	/* Mode 1, LBA -150 (FFFFFF6A), 1 block, user data, raw P-W */
	static const uint8_t m1[12] = { 0xbe, 0x08, 0xff, 0xff, 0xff, 0x6a, 0, 0, 1,
					0x10, 0x01, 0 };
	/* CD-DA with DAP, 0x10000 blocks */
	static const uint8_t da[12] = { 0xbe, 0x06, 0, 0, 0x11, 0x94, 0x01, 0x00,
					0x00, 0x10, 0x00, 0 };
	/* MSF: LBA 0 = 00:02:00 to LBA 75 = 00:03:00, Form 2 with headers */
	static const uint8_t msf[12] = { 0xb9, 0x14, 0, 0x00, 0x02, 0x00, 0x00,
					 0x03, 0x00, 0x70, 0x00, 0 };
	struct mmc_read_cd rq = { .type = MMC_ST_ANY, .fields = MMC_RCD_RAW | MMC_RCD_C2,
				  .sub = MMC_SUB_Q };
	struct mmc_read_cd back;
	uint32_t n;
	int64_t lba;

	(void)state;
	BUILD(mmc_cdb_read_cd(cdb_, 16, 2, &rq), raw);
	assert_int_equal(mmc_parse_read_cd_cdb(raw, 12, &lba, &n, &back), 0);
	assert_int_equal(lba, 16);
	assert_int_equal(n, 2);
	assert_memory_equal(&back, &rq, sizeof(rq));
	rq = (struct mmc_read_cd){ .type = MMC_ST_MODE1, .fields = MMC_RCD_USER,
				   .sub = MMC_SUB_RAW };
	BUILD(mmc_cdb_read_cd(cdb_, -150, 1, &rq), m1);
	assert_int_equal(mmc_parse_read_cd_cdb(m1, 12, &lba, &n, &back), 0);
	assert_int_equal(lba, -150);
	rq = (struct mmc_read_cd){ .type = MMC_ST_CDDA, .fields = MMC_RCD_USER,
				   .dap = true };
	BUILD(mmc_cdb_read_cd(cdb_, 4500, 0x10000, &rq), da);
	assert_int_equal(mmc_parse_read_cd_cdb(da, 12, &lba, &n, &back), 0);
	assert_int_equal(n, 0x10000);
	assert_true(back.dap);
	rq = (struct mmc_read_cd){ .type = MMC_ST_FORM2,
				   .fields = MMC_RCD_HEADERS_ALL | MMC_RCD_USER };
	BUILD(mmc_cdb_read_cd_msf(cdb_, 0, 75, &rq), msf);
	assert_int_equal(mmc_parse_read_cd_cdb(msf, 12, &lba, &n, &back), 0);
	assert_int_equal(lba, 0);
	assert_int_equal(n, 75);
	assert_int_equal(back.type, MMC_ST_FORM2);
	/* not READ CD, or short */
	assert_int_equal(mmc_parse_read_cd_cdb(raw, 11, &lba, &n, &back), -1);
	{
		static const uint8_t r10[12] = { 0x28 };

		assert_int_equal(mmc_parse_read_cd_cdb(r10, 12, &lba, &n, &back), -1);
	}
}

static void test_read_cd_sizes(void **state)
{
	static const struct {
		uint8_t fields, sub, kind;
		unsigned int main, extra;
	} cases[] = {
		{ MMC_RCD_RAW, 0, MMC_ST_MODE1, 2352, 0 },
		{ MMC_RCD_RAW, 0, MMC_ST_MODE2, 2352, 0 },
		{ MMC_RCD_RAW, 0, MMC_ST_FORM1, 2352, 0 },
		{ MMC_RCD_RAW, 0, MMC_ST_FORM2, 2352, 0 },
		{ MMC_RCD_RAW, 0, MMC_ST_CDDA, 2352, 0 },
		{ MMC_RCD_USER, 0, MMC_ST_MODE1, 2048, 0 },
		{ MMC_RCD_USER, 0, MMC_ST_MODE2, 2336, 0 },
		{ MMC_RCD_USER, 0, MMC_ST_FORM1, 2048, 0 },
		{ MMC_RCD_USER, 0, MMC_ST_FORM2, 2324, 0 },
		{ MMC_RCD_USER, 0, MMC_ST_CDDA, 2352, 0 },
		{ MMC_RCD_HEADER | MMC_RCD_USER, 0, MMC_ST_MODE1, 2052, 0 },
		{ MMC_RCD_HEADERS_ALL | MMC_RCD_USER, 0, MMC_ST_FORM1, 2060, 0 },
		{ MMC_RCD_HEADERS_ALL | MMC_RCD_USER, 0, MMC_ST_MODE1, 2052, 0 },
		{ MMC_RCD_USER | MMC_RCD_EDC_ECC, 0, MMC_ST_MODE1, 2336, 0 },
		{ MMC_RCD_RAW | MMC_RCD_C2, MMC_SUB_RAW, MMC_ST_MODE1, 2352, 294 + 96 },
		{ MMC_RCD_RAW | MMC_RCD_C2_BLOCK, MMC_SUB_Q, MMC_ST_CDDA, 2352, 296 + 16 },
		{ MMC_RCD_RAW, MMC_SUB_RW, MMC_ST_FORM2, 2352, 96 },
		{ 0, MMC_SUB_Q, MMC_ST_MODE1, 0, 16 },
		{ MMC_RCD_RAW, 0, 6, 0, 0 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < TH_N(cases); i++) {
		struct mmc_read_cd rq = { .fields = cases[i].fields, .sub = cases[i].sub };

		assert_int_equal(mmc_read_cd_main_size(&rq, cases[i].kind), cases[i].main);
		assert_int_equal(mmc_read_cd_extra_size(&rq), cases[i].extra);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edc_check_value),
		cmocka_unit_test(test_edc_bitwise),
		cmocka_unit_test(test_edc_slices),
		cmocka_unit_test(test_gf),
		cmocka_unit_test(test_ecc_check_reference),
		cmocka_unit_test(test_model_vectors),
		cmocka_unit_test(test_sector_parse),
		cmocka_unit_test(test_sector_header_addresses),
		cmocka_unit_test(test_subq),
		cmocka_unit_test(test_read_cd_cdb),
		cmocka_unit_test(test_read_cd_sizes),
	};

	return cmocka_run_group_tests_name("raw", tests, NULL, NULL);
}
