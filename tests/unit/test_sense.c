// SPDX-License-Identifier: MIT
/*
 * Unit tests of sense decoding and classification: fixed and descriptor
 * formats as drives send them, every truncation of each (in exact-size
 * heap buffers, so valgrind and ASan see any over-read), the class of
 * each sense combination the end search and the device layer rely on,
 * and the sg_lib wording.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail-tools.h"
#include "mmc/answer.h"
#include "mmc/sense.h"

static uint8_t *exact(const uint8_t *src, size_t n)
{
	uint8_t *p = malloc(n ? n : 1);

	assert_non_null(p);
	memcpy(p, src, n);
	return p;
}

/* READ(10) past the end: 05/21/00, INFORMATION = 0x0004_63c5 valid. */
static const uint8_t fixed_lba_oor[18] = {
	0xf0, 0x00, 0x05, 0x00, 0x04, 0x63, 0xc5, 0x0a,
	0x00, 0x00, 0x00, 0x00, 0x21, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* Medium error 03/11/05 in descriptor format, information 0x1_0000_0002. */
static const uint8_t desc_medium[20] = {
	0x72, 0x03, 0x11, 0x05, 0x00, 0x00, 0x00, 0x0c,
	0x00, 0x0a, 0x80, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x02,
};

/* b decodes to valid sense of that format: KEY/ASC/ASCQ, INFORMATION info */
static void expect_decoded(const uint8_t *b, size_t len, bool descriptor,
			   uint8_t key, uint8_t asc, uint8_t ascq, uint64_t info)
{
	struct cdt_sense s;

	cdt_sense_decode(b, len, &s);
	assert_true(s.valid);
	assert_int_equal(s.descriptor, descriptor);
	assert_int_equal(s.key, key);
	assert_int_equal(s.asc, asc);
	assert_int_equal(s.ascq, ascq);
	assert_true(s.info_valid);
	assert_true(s.info == info);
}

static void test_fixed(void **state)
{
	struct cdt_sense s;
	uint8_t b[18];

	(void)state;
	expect_decoded(fixed_lba_oor, sizeof(fixed_lba_oor), false, 5, 0x21, 0, 0x463c5);

	/* VALID bit clear: the INFORMATION bytes mean nothing */
	memcpy(b, fixed_lba_oor, sizeof(b));
	b[0] = 0x70;
	cdt_sense_decode(b, sizeof(b), &s);
	assert_true(s.valid);
	assert_false(s.info_valid);
	assert_int_equal(s.info, 0);

	/* deferred error; filemark/EOM/ILI bits do not leak into the key */
	b[0] = 0x71;
	b[2] = 0xe3;
	b[12] = 0x11;
	cdt_sense_decode(b, sizeof(b), &s);
	assert_true(s.valid);
	assert_int_equal(s.key, 3);
	assert_int_equal(s.asc, 0x11);

	/* additional length 0: ASC/ASCQ are not part of the sense data */
	memcpy(b, fixed_lba_oor, sizeof(b));
	b[7] = 0;
	cdt_sense_decode(b, sizeof(b), &s);
	assert_true(s.valid);
	assert_int_equal(s.key, 5);
	assert_int_equal(s.asc, 0);
	assert_true(s.info_valid);
}

static void test_descriptor(void **state)
{
	struct cdt_sense s;
	uint8_t b[32];

	(void)state;
	expect_decoded(desc_medium, sizeof(desc_medium), true, 3, 0x11, 0x05,
		       0x100000002ull);

	/* information descriptor after another (sense key specific, 02) */
	memset(b, 0, sizeof(b));
	b[0] = 0x73;
	b[1] = 0x05; b[2] = 0x64; b[3] = 0x00;
	b[7] = 20;
	b[8] = 0x02; b[9] = 0x06; b[10] = 0x80;
	memcpy(b + 16, desc_medium + 8, 12);
	cdt_sense_decode(b, 28, &s);
	assert_true(s.valid);
	assert_int_equal(s.key, 5);
	assert_int_equal(s.asc, 0x64);
	assert_true(s.info_valid);
	assert_true(s.info == 0x100000002ull);

	/* the same, VALID clear */
	b[18] = 0x00;
	cdt_sense_decode(b, 28, &s);
	assert_false(s.info_valid);

	/* descriptor length running past the additional length */
	b[18] = 0x80;
	b[7] = 19;
	cdt_sense_decode(b, sizeof(b), &s);
	assert_false(s.info_valid);
}

static void test_not_sense(void **state)
{
	static const uint8_t vendor[18] = { 0x7f, 0x00, 0x05 };
	static const uint8_t zero[18] = { 0 };
	struct cdt_sense s;

	(void)state;
	cdt_sense_decode(vendor, sizeof(vendor), &s);
	assert_false(s.valid);
	/* a CHECK CONDITION without usable sense: asked again, then bad */
	assert_int_equal(cdt_sense_action(&s), CDT_ACT_RETRY);
	cdt_sense_decode(zero, sizeof(zero), &s);
	assert_false(s.valid);
	cdt_sense_decode(NULL, 0, &s);
	assert_false(s.valid);
}

static void test_truncated(void **state)
{
	struct cdt_sense s;

	(void)state;
	for (size_t len = 0; len <= sizeof(fixed_lba_oor); len++) {
		uint8_t *p = exact(fixed_lba_oor, len);

		cdt_sense_decode(p, len, &s);
		assert_int_equal(s.valid, len >= 3);
		if (len >= 3)
			assert_int_equal(s.key, 5);
		assert_int_equal(s.info_valid, len >= 7);
		assert_int_equal(s.asc, len >= 13 ? 0x21 : 0);
		free(p);
	}
	for (size_t len = 0; len <= sizeof(desc_medium); len++) {
		uint8_t *p = exact(desc_medium, len);

		cdt_sense_decode(p, len, &s);
		assert_int_equal(s.valid, len >= 2);
		assert_int_equal(s.asc, len >= 3 ? 0x11 : 0);
		assert_int_equal(s.ascq, len >= 4 ? 0x05 : 0);
		assert_int_equal(s.info_valid, len == sizeof(desc_medium));
		free(p);
	}
}

static enum cdt_action cls(uint8_t key, uint8_t asc, uint8_t ascq)
{
	struct cdt_sense s = { .valid = true, .key = key, .asc = asc,
			       .ascq = ascq };

	return cdt_sense_action(&s);
}

/*
 * Issue 22 changed what several answers mean: a block-level failure of
 * any kind (HARDWARE ERROR, NOT READY other than 3A, ILLEGAL REQUEST
 * other than the end, any other key) is a bad block, no longer fatal;
 * 05/64/xx has its own class; 06/28 is a medium change, not a retry.
 */
static void test_classify(void **state)
{
	(void)state;
	assert_int_equal(cls(0x00, 0x00, 0x00), CDT_ACT_OK);
	assert_int_equal(cls(0x01, 0x17, 0x01), CDT_ACT_OK);
	assert_int_equal(cls(0x05, 0x21, 0x00), CDT_ACT_END);
	assert_int_equal(cls(0x05, 0x63, 0x00), CDT_ACT_END);
	assert_int_equal(cls(0x05, 0x64, 0x00), CDT_ACT_WRONG_MODE);
	assert_int_equal(cls(0x05, 0x64, 0x01), CDT_ACT_WRONG_MODE);
	assert_int_equal(cls(0x05, 0x24, 0x00), CDT_ACT_BAD_BLOCK);
	assert_int_equal(cls(0x05, 0x20, 0x00), CDT_ACT_REFUSED);
	assert_int_equal(cls(0x03, 0x11, 0x00), CDT_ACT_BAD_BLOCK);
	assert_int_equal(cls(0x03, 0x02, 0x00), CDT_ACT_BAD_BLOCK);
	assert_int_equal(cls(0x06, 0x29, 0x00), CDT_ACT_RETRY);
	assert_int_equal(cls(0x06, 0x28, 0x00), CDT_ACT_CHANGED);
	assert_int_equal(cls(0x0b, 0x00, 0x00), CDT_ACT_RETRY);
	assert_int_equal(cls(0x02, 0x04, 0x01), CDT_ACT_BECOMING_READY);
	assert_int_equal(cls(0x02, 0x04, 0x00), CDT_ACT_BECOMING_READY);
	assert_int_equal(cls(0x02, 0x04, 0x03), CDT_ACT_BAD_BLOCK);
	assert_int_equal(cls(0x02, 0x3a, 0x00), CDT_ACT_NO_MEDIUM);
	assert_int_equal(cls(0x02, 0x3a, 0x02), CDT_ACT_NO_MEDIUM);
	assert_int_equal(cls(0x02, 0x30, 0x00), CDT_ACT_BAD_BLOCK);
	assert_int_equal(cls(0x04, 0x44, 0x00), CDT_ACT_BAD_BLOCK);
	assert_int_equal(cls(0x04, 0x09, 0x01), CDT_ACT_BAD_BLOCK);
	assert_int_equal(cls(0x07, 0x27, 0x00), CDT_ACT_BAD_BLOCK);
	assert_int_equal(cls(0x08, 0x00, 0x00), CDT_ACT_BAD_BLOCK);
	assert_int_equal(cls(0x0e, 0x1d, 0x00), CDT_ACT_BAD_BLOCK);
}

static void test_text(void **state)
{
	struct cdt_sense s;
	char buf[128];

	(void)state;
	cdt_sense_decode(fixed_lba_oor, sizeof(fixed_lba_oor), &s);
	cdt_sense_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf,
			    "Illegal Request: Logical block address out of range");
	cdt_sense_decode(desc_medium, sizeof(desc_medium), &s);
	cdt_sense_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "Medium Error: L-EC uncorrectable error");
	s.key = 2; s.asc = 0x3a; s.ascq = 0;
	cdt_sense_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "Not Ready: Medium not present");
	/* a short buffer is cut, still terminated */
	cdt_sense_describe(&s, buf, 8);
	assert_string_equal(buf, "Not Rea");
	memset(&s, 0, sizeof(s));
	cdt_sense_describe(&s, buf, sizeof(buf));
	assert_string_equal(buf, "no sense data");
	cdt_sense_describe(&s, buf, 0);
}

static uint32_t xorshift(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* Random sense of random length, both formats: never read past len. */
static void test_random_sense(void **state)
{
	uint32_t seed = 0x9e3779b9;
	char text[64];

	(void)state;
	for (int iter = 0; iter < 20000; iter++) {
		size_t len = xorshift(&seed) % 40;
		uint8_t src[40], *p;
		struct cdt_sense s;

		for (size_t i = 0; i < sizeof(src); i++)
			src[i] = (uint8_t)xorshift(&seed);
		src[0] = (uint8_t)(0x70 + (iter & 3) + (src[0] & 0x80));
		if (iter & 4)
			src[7] = (uint8_t)(src[7] % 40);
		p = exact(src, len);
		cdt_sense_decode(p, len, &s);
		assert_string_not_equal(cdt_action_name(cdt_sense_action(&s)), "?");
		cdt_sense_describe(&s, text, sizeof(text));
		free(p);
	}
}

static void test_strerror(void **state)
{
	(void)state;
	assert_string_equal(cdt_strerror(CDT_OK), "success");
	assert_string_equal(cdt_strerror(CDT_ENOMEDIUM), "no medium");
	assert_string_equal(cdt_strerror(CDT_ETIMEOUT), "command timed out");
	for (int e = CDT_EOTHERDISC; e <= CDT_OK; e++)
		assert_string_not_equal(cdt_strerror(e), "unknown error");
	assert_string_equal(cdt_strerror(CDT_EOTHERDISC - 1), "unknown error");
	assert_string_equal(cdt_strerror(1), "unknown error");
	assert_string_equal(cdt_strerror(-2147483647 - 1), "unknown error");
}


/* A logged command's words, as sg3_utils' -v has them. */
static void cmd_text(const uint8_t *cdb, unsigned int cdb_len, uint8_t status,
		     const uint8_t *sense, unsigned int sense_len, int transport, char *buf,
		     size_t len)
{
	uint8_t *c = exact(cdb, cdb_len), *sn = sense ? exact(sense, sense_len) : NULL;
	struct cdt_cmd_log log = {
		.size = sizeof(log), .cdb = c, .cdb_len = cdb_len,
		.transport_result = transport, .status = status,
		.sense = sn, .sense_len = sense ? sense_len : 0,
	};

	cdt_cmd_text(&log, buf, len);
	free(c);
	free(sn);
}

static void test_cmd_text(void **state)
{
	static const uint8_t read10[10] = { 0x28, 0, 0, 0, 0, 0x64, 0, 0, 1, 0 };
	static const uint8_t read12[12] = { 0xa8, 0, 0, 0, 0x01, 0x00, 0, 0, 0, 0x20, 0, 0 };
	static const uint8_t read16[16] = { 0x88, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0 };
	static const uint8_t readcd[12] = { 0xbe, 0, 0, 0, 0, 9, 0, 0, 2, 0x10, 0, 0 };
	static const uint8_t rc16[16] = { 0x9e, 0x10 };
	static const uint8_t tur[6] = { 0 };
	/* 03/11/00 with INFORMATION 0x64 valid, as a drive sends it */
	static const uint8_t medium[18] = { 0xf0, 0, 0x03, 0, 0, 0, 0x64, 0x0a,
					    0, 0, 0, 0, 0x11, 0, 0, 0, 0, 0 };
	char t[256];
	unsigned int n;

	(void)state;
	cmd_text(read10, 10, 0x02, medium, 18, 0, t, sizeof(t));
	assert_string_equal(t, "Read(10) lba=100 len=1: Check Condition, Medium Error, "
			    "Unrecovered read error, Info fld=0x64");
	cmd_text(read10, 10, 0x02, fixed_lba_oor, 18, 0, t, sizeof(t));
	assert_string_equal(t, "Read(10) lba=100 len=1: Check Condition, Illegal Request, "
			    "Logical block address out of range, Info fld=0x463c5");
	cmd_text(read10, 10, 0, NULL, 0, 0, t, sizeof(t));
	assert_string_equal(t, "Read(10) lba=100 len=1: Good");
	cmd_text(read12, 12, 0, NULL, 0, 0, t, sizeof(t));
	assert_string_equal(t, "Read(12) lba=256 len=32: Good");
	cmd_text(read16, 16, 0, NULL, 0, 0, t, sizeof(t));
	assert_string_equal(t, "Read(16) lba=4294967298 len=3: Good");
	cmd_text(readcd, 12, 0, NULL, 0, CDT_ETIMEOUT, t, sizeof(t));
	assert_string_equal(t, "Read CD lba=9 len=2: timeout");
	cmd_text(rc16, 16, 0, NULL, 0, 0, t, sizeof(t));
	assert_string_equal(t, "Read capacity(16): Good");
	cmd_text(tur, 6, 0x02, NULL, 0, 0, t, sizeof(t));
	assert_string_equal(t, "Test Unit Ready: Check Condition, no sense data");
	/* a READ(10) cut before its length field's end (byte 8) shows no LBA */
	for (n = 1; n < 9; n++) {
		cmd_text(read10, n, 0, NULL, 0, 0, t, sizeof(t));
		assert_string_equal(t, "Read(10): Good");
	}
	/* every truncation of the sense and of the buffer stays in bounds */
	for (n = 0; n <= 18; n++)
		cmd_text(read10, 10, 0x02, medium, n, 0, t, sizeof(t));
	for (n = 1; n < 40; n++) {
		cmd_text(read10, 10, 0x02, medium, 18, 0, t, n);
		assert_true(strlen(t) < n);
	}
	cmd_text(read10, 10, 0, NULL, 0, CDT_ETRANSPORT, t, sizeof(t));
	assert_non_null(strstr(t, ": transport error ("));
}

static void test_nearest_name(void **state)
{
	static const char *const cmds[] = { "probe", "image", "tail", "verify", "hazards", "map",
					    "help" };
	static const char *const keys[] = { "hide", "extra", "toc", "bad", "trace" };
	const size_t nc = sizeof(cmds) / sizeof(cmds[0]), nk = sizeof(keys) / sizeof(keys[0]);

	(void)state;
	assert_string_equal(cdt_nearest_name("prob", cmds, nc), "probe");
	assert_string_equal(cdt_nearest_name("imgae", cmds, nc), "image");	/* a swap */
	assert_string_equal(cdt_nearest_name("verfiy", cmds, nc), "verify");
	assert_string_equal(cdt_nearest_name("hlep", cmds, nc), "help");
	assert_string_equal(cdt_nearest_name("mapp", cmds, nc), "map");
	assert_null(cdt_nearest_name("frobnicate", cmds, nc));
	assert_null(cdt_nearest_name("x", cmds, nc));
	assert_null(cdt_nearest_name("", cmds, nc));
	assert_null(cdt_nearest_name(NULL, cmds, nc));
	assert_null(cdt_nearest_name("probe", NULL, 0));
	/* short words: one edit only ("bd" is "bad", "tx" is nothing) */
	assert_string_equal(cdt_nearest_name("bd", keys, nk), "bad");
	assert_null(cdt_nearest_name("tx", keys, nk));
	assert_string_equal(cdt_nearest_name("hdie", keys, nk), "hide");
	assert_string_equal(cdt_nearest_name("trce", keys, nk), "trace");
	assert_null(cdt_nearest_name("colour", keys, nk));
	/* longer than any name cdtail knows: no guess, no overrun */
	assert_null(cdt_nearest_name("probeprobeprobeprobeprobeprobeprobe", cmds, nc));
}

/*
 * cdt_sense_detail: sg_get_sense_str's words (sg3_utils lib/sg_lib.c) on
 * one line: the format, current or deferred, the key, the ASC/ASCQ and a
 * valid INFORMATION field in hex and decimal (issue 35, 3).
 */
static void test_sense_detail(void **state)
{
	static const uint8_t medium[18] = { 0xf0, 0, 0x03, 0, 0, 0, 0x64, 0x0a,
					    0, 0, 0, 0, 0x11, 0, 0, 0, 0, 0 };
	/* deferred fixed sense, INFORMATION not valid */
	static const uint8_t deferred[18] = { 0x71, 0, 0x04, 0, 0, 0, 0x64, 0x0a,
					      0, 0, 0, 0, 0x09, 0x01, 0, 0, 0, 0 };
	/* descriptor format with an information descriptor (0x1000) */
	static const uint8_t desc[20] = { 0x72, 0x05, 0x21, 0x00, 0, 0, 0, 12,
					  0x00, 0x0a, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x10, 0x00 };
	char t[400];

	(void)state;
	assert_int_equal(cdt_sense_detail(medium, sizeof(medium), t, sizeof(t)), 0);
	assert_string_equal(t, "Fixed format, current; Sense key: Medium Error; "
			    "Additional sense: Unrecovered read error; Info fld=0x64 [100]");
	assert_int_equal(cdt_sense_detail(deferred, sizeof(deferred), t, sizeof(t)), 0);
	assert_string_equal(t, "Fixed format, <<<deferred>>>; Sense key: Hardware Error; "
			    "Additional sense: Tracking servo failure");
	assert_int_equal(cdt_sense_detail(desc, sizeof(desc), t, sizeof(t)), 0);
	assert_string_equal(t, "Descriptor format, current; Sense key: Illegal Request; "
			    "Additional sense: Logical block address out of range; "
			    "Info fld=0x1000 [4096]");
	assert_int_equal(cdt_sense_detail(medium, 1, t, sizeof(t)), -1);
	assert_string_equal(t, "no sense data");
	assert_int_equal(cdt_sense_detail(NULL, 18, t, sizeof(t)), -1);
	/* a short buffer is cut, always terminated; none at all is fine */
	assert_int_equal(cdt_sense_detail(medium, sizeof(medium), t, 10), 0);
	assert_string_equal(t, "Fixed for");
	assert_int_equal(cdt_sense_detail(medium, sizeof(medium), NULL, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_descriptor),
		cmocka_unit_test(test_not_sense),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_random_sense),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_cmd_text),
		cmocka_unit_test(test_sense_detail),
		cmocka_unit_test(test_nearest_name),
	};

	return cmocka_run_group_tests_name("sense", tests, NULL, NULL);
}
