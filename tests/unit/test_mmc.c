// SPDX-License-Identifier: MIT
/*
 * Unit tests of the MMC CDB builders and response parsers.  The answers
 * are laid out byte for byte as drives send them, including the short
 * ones real targets produce; every parser is also fed every prefix of a
 * valid answer in a buffer of exactly that size, so valgrind and ASan
 * catch any read past the received length.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "th.h"
#include "mmc/mmc.h"
#include "mmc/subchan.h"

/* ---- builders ------------------------------------------------------------- */

/* Build into a poisoned buffer: bytes past the CDB must stay untouched. */
#define BUILD(call, want)						\
	do {								\
		uint8_t cdb_[32];					\
		unsigned int n_;					\
		memset(cdb_, 0xee, sizeof(cdb_));			\
		{							\
			uint8_t *cdb = cdb_;				\
			n_ = (call);					\
		}							\
		assert_int_equal(n_, sizeof(want));			\
		assert_memory_equal(cdb_, want, sizeof(want));		\
		for (unsigned int i_ = n_; i_ < sizeof(cdb_); i_++)	\
			assert_int_equal(cdb_[i_], 0xee);		\
	} while (0)

static void test_builders(void **state)
{
	static const uint8_t tur[6] = { 0 };
	static const uint8_t inq[6] = { 0x12, 0, 0, 0x00, 0x60, 0 };
	static const uint8_t rc10[10] = { 0x25 };
	static const uint8_t rc16[16] = { 0x9e, 0x10, 0, 0, 0, 0, 0, 0,
					  0, 0, 0, 0, 0, 0x20, 0, 0 };
	static const uint8_t r10[10] = { 0x28, 0, 0x01, 0x02, 0x03, 0x04,
					 0, 0x00, 0x20, 0 };
	static const uint8_t r12[12] = { 0xa8, 0, 0xff, 0xff, 0xff, 0xfe,
					 0x00, 0x01, 0x00, 0x00, 0, 0 };
	static const uint8_t toc[10] = { 0x43, 0, 0, 0, 0, 0, 1, 0x03, 0x24, 0 };
	static const uint8_t toc_msf[10] = { 0x43, 0x02, 0x01, 0, 0, 0, 0,
					     0x00, 0x0c, 0 };
	static const uint8_t gc[10] = { 0x46, 0x02, 0x00, 0x00, 0, 0, 0,
					0x00, 0x08, 0 };
	static const uint8_t gc1[10] = { 0x46, 0x01, 0x01, 0x07, 0, 0, 0,
					 0x10, 0x00, 0 };
	static const uint8_t di[10] = { 0x51, 0, 0, 0, 0, 0, 0, 0x00, 0x22, 0 };
	static const uint8_t ti[10] = { 0x52, 0x01, 0, 0, 0x01, 0x02, 0,
					0x00, 0x24, 0 };
	static const uint8_t ms[10] = { 0x5a, 0x08, 0x08, 0, 0, 0, 0,
					0x00, 0xfc, 0 };

	(void)state;
	BUILD(mmc_cdb_test_unit_ready(cdb), tur);
	BUILD(mmc_cdb_inquiry(cdb, 96), inq);
	BUILD(mmc_cdb_read_capacity10(cdb), rc10);
	BUILD(mmc_cdb_read_capacity16(cdb, 32), rc16);
	BUILD(mmc_cdb_read10(cdb, 0x01020304, 32), r10);
	BUILD(mmc_cdb_read12(cdb, 0xfffffffe, 0x10000), r12);
	BUILD(mmc_cdb_read_toc(cdb, 0, false, 1, 804), toc);
	BUILD(mmc_cdb_read_toc(cdb, 0xf1, true, 0, 12), toc_msf);
	BUILD(mmc_cdb_get_configuration(cdb, 2, 0, 8), gc);
	BUILD(mmc_cdb_get_configuration(cdb, 0xfd, 0x0107, 4096), gc1);
	BUILD(mmc_cdb_read_disc_info(cdb, 34), di);
	BUILD(mmc_cdb_read_track_info(cdb, 0x0102, 36), ti);
	BUILD(mmc_cdb_mode_sense10(cdb, 0xc8, 252), ms);
}

/* ---- INQUIRY, READ CAPACITY ------------------------------------------------ */

/* A DVD writer's standard INQUIRY data, 36 bytes, additional length 31. */
static const uint8_t inq_lg[36] = {
	0x05, 0x80, 0x05, 0x32, 0x1f, 0x00, 0x00, 0x00,
	'H', 'L', '-', 'D', 'T', '-', 'S', 'T',
	'D', 'V', 'D', 'R', 'A', 'M', ' ', 'G',
	'H', '2', '4', 'N', 'S', 'D', '1', ' ',
	'L', 'G', '0', '0',
};

static void test_inquiry(void **state)
{
	struct mmc_inquiry mi;
	uint8_t b[96];

	(void)state;
	assert_int_equal(mmc_parse_inquiry(inq_lg, sizeof(inq_lg), &mi), 0);
	assert_int_equal(mi.peripheral_type, 5);
	assert_true(mi.removable);
	assert_string_equal(mi.vendor, "HL-DT-ST");
	assert_string_equal(mi.product, "DVDRAM GH24NSD1");
	assert_string_equal(mi.revision, "LG00");

	/* padding with NULs and control bytes, longer answer than needed */
	memset(b, 0, sizeof(b));
	memcpy(b, inq_lg, sizeof(inq_lg));
	b[4] = 91;
	memcpy(b + 8, "QEMU\0\0\0\0", 8);
	memcpy(b + 16, "QEMU CD-ROM\t   ", 16);
	b[1] = 0;
	assert_int_equal(mmc_parse_inquiry(b, sizeof(b), &mi), 0);
	assert_false(mi.removable);
	assert_string_equal(mi.vendor, "QEMU");
	assert_string_equal(mi.product, "QEMU CD-ROM");

	/* additional length claims less than the identification fields */
	memcpy(b, inq_lg, sizeof(inq_lg));
	b[4] = 20;
	assert_int_equal(mmc_parse_inquiry(b, sizeof(b), &mi), -1);
}

static int parse_inquiry(const uint8_t *p, size_t len)
{
	struct mmc_inquiry mi;

	return mmc_parse_inquiry(p, len, &mi);
}

/* VPD 80h (SPC-4 7.8.16): page code, page length, the serial in ASCII */
static void test_unit_serial(void **state)
{
	static const uint8_t page[] = { 0x05, 0x80, 0x00, 0x0c, ' ', ' ', 'K', 'Z', '1',
					'2', '3', '4', '5', '6', ' ', ' ', 'x', 'y' };
	uint8_t cdb[6], other[sizeof(page)];
	char s[16];

	(void)state;
	assert_int_equal(mmc_cdb_inquiry_vpd(cdb, 0x80, 252), 6);
	assert_int_equal(cdb[0], 0x12);
	assert_int_equal(cdb[1], 0x01);
	assert_int_equal(cdb[2], 0x80);
	assert_int_equal((cdb[3] << 8) | cdb[4], 252);
	/* leading and trailing blanks trimmed, bytes past the page length ignored */
	assert_int_equal(mmc_parse_unit_serial(page, sizeof(page), s, sizeof(s)), 0);
	assert_string_equal(s, "KZ123456");
	/* the page length claims more than arrived: what arrived */
	assert_int_equal(mmc_parse_unit_serial(page, 9, s, sizeof(s)), 0);
	assert_string_equal(s, "KZ1");
	/* a serial longer than out is cut, terminated */
	assert_int_equal(mmc_parse_unit_serial(page, sizeof(page), s, 4), 0);
	assert_string_equal(s, "KZ1");
	/* another page (83h, device identification), or too short to be one */
	memcpy(other, page, sizeof(other));
	other[1] = 0x83;
	assert_int_equal(mmc_parse_unit_serial(other, sizeof(other), s, sizeof(s)), -1);
	assert_string_equal(s, "");
	assert_int_equal(mmc_parse_unit_serial(page, 3, s, sizeof(s)), -1);
	assert_int_equal(mmc_parse_unit_serial(page, sizeof(page), s, 0), -1);
}

static void test_inquiry_truncated(void **state)
{
	(void)state;
	th_expect_prefixes(inq_lg, sizeof(inq_lg), 36, parse_inquiry);
}

static int parse_capacity10(const uint8_t *p, size_t len)
{
	uint32_t last, bs;

	return mmc_parse_read_capacity10(p, len, &last, &bs);
}

static int parse_capacity16(const uint8_t *p, size_t len)
{
	uint64_t last;
	uint32_t bs;

	return mmc_parse_read_capacity16(p, len, &last, &bs);
}

static void test_read_capacity(void **state)
{
	/* 2 298 496 blocks of 2048 (a DVD-5), and a huge BD-style answer */
	static const uint8_t rc10[8] = { 0x00, 0x23, 0x12, 0x7f,
					 0x00, 0x00, 0x08, 0x00 };
	static const uint8_t rc16[32] = { 0x00, 0x00, 0x00, 0x01,
					  0x00, 0x00, 0x00, 0x00,
					  0x00, 0x00, 0x02, 0x00 };
	uint32_t last32 = 0, bs = 0;
	uint64_t last = 0;

	(void)state;
	assert_int_equal(mmc_parse_read_capacity10(rc10, 8, &last32, &bs), 0);
	assert_int_equal(last32, 2298495);
	assert_int_equal(bs, 2048);
	assert_int_equal(mmc_parse_read_capacity16(rc16, 32, &last, &bs), 0);
	assert_true(last == 0x100000000ull);
	assert_int_equal(bs, 512);
	th_expect_prefixes(rc16, sizeof(rc16), 8, parse_capacity10);
	th_expect_prefixes(rc16, sizeof(rc16), 12, parse_capacity16);
}

/* ---- READ TOC --------------------------------------------------------------- */

/* Mixed-mode CD: data track 1, audio track 2, lead-out at LBA 287 685. */
static const uint8_t toc_lba[28] = {
	0x00, 0x1a, 0x01, 0x02,
	0x00, 0x14, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x10, 0x02, 0x00, 0x00, 0x00, 0x2e, 0xe0,
	0x00, 0x16, 0xaa, 0x00, 0x00, 0x04, 0x63, 0xc5,
};

/* The same TOC in M:S:F: 00:02:00, 02:42:00, 63:57:60. */
static const uint8_t toc_msf[28] = {
	0x00, 0x1a, 0x01, 0x02,
	0x00, 0x14, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00,
	0x00, 0x10, 0x02, 0x00, 0x00, 0x02, 0x2a, 0x00,
	0x00, 0x16, 0xaa, 0x00, 0x00, 0x3f, 0x39, 0x3c,
};

static void test_toc(void **state)
{
	struct mmc_toc toc;

	(void)state;
	assert_int_equal(mmc_parse_toc(toc_lba, sizeof(toc_lba), false, &toc), 0);
	assert_int_equal(toc.first_track, 1);
	assert_int_equal(toc.last_track, 2);
	assert_int_equal(toc.n, 3);
	assert_int_equal(toc.e[0].track, 1);
	assert_int_equal(toc.e[0].adr_control, 0x14);
	assert_int_equal(toc.e[0].lba, 0);
	assert_int_equal(toc.e[1].track, 2);
	assert_int_equal(toc.e[1].adr_control, 0x10);
	assert_int_equal(toc.e[1].lba, 12000);
	assert_int_equal(toc.e[2].track, 0xaa);
	assert_int_equal(mmc_toc_leadout(&toc), 287685);

	assert_int_equal(mmc_parse_toc(toc_msf, sizeof(toc_msf), true, &toc), 0);
	assert_int_equal(toc.n, 3);
	assert_int_equal(toc.e[0].lba, 0);
	assert_int_equal(toc.e[1].lba, 12000);
	assert_int_equal(toc.e[2].track, 0xaa);
	assert_int_equal(mmc_toc_leadout(&toc), 287685);
}

static void test_toc_short_answers(void **state)
{
	uint8_t b[64];
	struct mmc_toc toc;

	(void)state;
	/* the drive sends 2 bytes less than its header says: lead-out cut */
	{
		uint8_t *p = th_exact(toc_lba, sizeof(toc_lba) - 2);

		assert_int_equal(mmc_parse_toc(p, sizeof(toc_lba) - 2, false,
					       &toc), 0);
		assert_int_equal(toc.n, 2);
		assert_int_equal(mmc_toc_leadout(&toc), -1);
		free(p);
	}
	/* a header length shorter than what arrived wins: stale bytes after */
	memset(b, 0x5a, sizeof(b));
	memcpy(b, toc_lba, sizeof(toc_lba));
	b[1] = 0x12;
	assert_int_equal(mmc_parse_toc(b, sizeof(b), false, &toc), 0);
	assert_int_equal(toc.n, 2);
	assert_int_equal(mmc_toc_leadout(&toc), -1);
	/* a header claiming less than itself is malformed */
	b[1] = 0x01;
	assert_int_equal(mmc_parse_toc(b, sizeof(b), false, &toc), -1);
	/* a header with no descriptors at all */
	b[1] = 0x02;
	assert_int_equal(mmc_parse_toc(b, sizeof(b), false, &toc), 0);
	assert_int_equal(toc.n, 0);
	assert_int_equal(mmc_toc_leadout(&toc), -1);
}

static void test_toc_too_many(void **state)
{
	/* 0xffff-byte claim, 110 descriptors: stop at MMC_TOC_MAX */
	size_t len = 4 + 110 * 8;
	uint8_t *b = calloc(1, len);
	struct mmc_toc toc;

	(void)state;
	assert_non_null(b);
	b[0] = 0xff;
	b[1] = 0xff;
	for (size_t i = 0; i < 110; i++)
		b[4 + i * 8 + 2] = (uint8_t)(i + 1);
	b[4 + 109 * 8 + 2] = 0xaa;
	assert_int_equal(mmc_parse_toc(b, len, false, &toc), 0);
	assert_int_equal(toc.n, MMC_TOC_MAX);
	assert_int_equal(mmc_toc_leadout(&toc), -1);
	free(b);
}

static void test_toc_truncated(void **state)
{
	struct mmc_toc toc;

	(void)state;
	for (size_t len = 0; len <= sizeof(toc_lba); len++) {
		for (int msf = 0; msf < 2; msf++) {
			const uint8_t *src = msf ? toc_msf : toc_lba;
			uint8_t *p = th_exact(src, len);
			int rc = mmc_parse_toc(p, len, msf, &toc);

			if (len < 4) {
				assert_int_equal(rc, -1);
			} else {
				assert_int_equal(rc, 0);
				assert_int_equal(toc.n, (len - 4) / 8);
				assert_int_equal(mmc_toc_leadout(&toc) >= 0,
						 len == sizeof(toc_lba));
			}
			free(p);
		}
	}
}

static int parse_session_info(const uint8_t *p, size_t len)
{
	struct mmc_session_info s;

	return mmc_parse_session_info(p, len, false, &s);
}

static void test_session_info(void **state)
{
	/* two sessions; the last starts with track 2 at LBA 30 000 */
	static const uint8_t si[12] = {
		0x00, 0x0a, 0x01, 0x02,
		0x00, 0x14, 0x02, 0x00, 0x00, 0x00, 0x75, 0x30,
	};
	static const uint8_t si_msf[12] = {
		0x00, 0x0a, 0x01, 0x02,
		0x00, 0x14, 0x02, 0x00, 0x00, 0x06, 0x42, 0x00,
	};
	struct mmc_session_info s;

	(void)state;
	assert_int_equal(mmc_parse_session_info(si, 12, false, &s), 0);
	assert_int_equal(s.first_session, 1);
	assert_int_equal(s.last_session, 2);
	assert_int_equal(s.first_track_last_session, 2);
	assert_int_equal(s.first_track_lba, 30000);
	assert_int_equal(mmc_parse_session_info(si_msf, 12, true, &s), 0);
	assert_int_equal(s.first_track_lba, (6 * 60 + 66) * 75 - 150);
	th_expect_prefixes(si, sizeof(si), 12, parse_session_info);
}

/* ---- disc and track information ------------------------------------------- */

/* A blank CD-R: ATIP lead-in 97:26:66, last possible lead-out 79:59:74. */
static const uint8_t di_blank_cdr[34] = {
	0x00, 0x20, 0x00, 0x01, 0x01, 0x01, 0x01, 0x20,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x61, 0x1a, 0x42, 0x00, 0x4f, 0x3b, 0x4a,
	0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00,
};

/* A pressed CD-ROM: complete, both addresses FF:FF:FF. */
static const uint8_t di_cdrom[34] = {
	0x00, 0x20, 0x0e, 0x01, 0x01, 0x01, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00,
};

static void test_disc_info(void **state)
{
	struct mmc_disc_info di;
	uint8_t b[34];

	(void)state;
	assert_int_equal(mmc_parse_disc_info(di_blank_cdr, 34, &di), 0);
	assert_int_equal(di.disc_status, 0);
	assert_int_equal(di.last_session_state, 0);
	assert_false(di.erasable);
	assert_int_equal(di.first_track, 1);
	assert_int_equal(di.n_sessions, 1);
	assert_int_equal(di.first_track_last_session, 1);
	assert_int_equal(di.last_track_last_session, 1);
	assert_int_equal(di.disc_type, 0);
	assert_int_equal(di.last_session_leadin, -11634);
	assert_int_equal(di.last_leadout, 359849);

	assert_int_equal(mmc_parse_disc_info(di_cdrom, 34, &di), 0);
	assert_int_equal(di.disc_status, 2);
	assert_int_equal(di.last_session_state, 3);
	assert_int_equal(di.last_session_leadin, -1);
	assert_int_equal(di.last_leadout, -1);

	/* CD-RW, 258 sessions, tracks 300..301 in the last, CD-ROM XA */
	memcpy(b, di_cdrom, sizeof(b));
	b[2] = 0x11;
	b[4] = 0x02; b[9] = 0x01;
	b[5] = 0x2c; b[10] = 0x01;
	b[6] = 0x2d; b[11] = 0x01;
	b[8] = 0x20;
	assert_int_equal(mmc_parse_disc_info(b, sizeof(b), &di), 0);
	assert_true(di.erasable);
	assert_int_equal(di.disc_status, 1);
	assert_int_equal(di.n_sessions, 258);
	assert_int_equal(di.first_track_last_session, 300);
	assert_int_equal(di.last_track_last_session, 301);
	assert_int_equal(di.disc_type, 0x20);

	/* another data type (track resources) is not this structure */
	b[2] = 0x40;
	assert_int_equal(mmc_parse_disc_info(b, sizeof(b), &di), -1);
	/* a length field cutting the lead-out field */
	memcpy(b, di_blank_cdr, sizeof(b));
	b[1] = 20;
	assert_int_equal(mmc_parse_disc_info(b, sizeof(b), &di), -1);
}

static void disc_info_prefix(const uint8_t *p, size_t len, void *ctx)
{
	struct mmc_disc_info di;

	(void)ctx;
	assert_int_equal(mmc_parse_disc_info(p, len, &di), len < 24 ? -1 : 0);
	if (len >= 24)
		assert_int_equal(di.last_leadout, 359849);
}

static void test_disc_info_truncated(void **state)
{
	(void)state;
	th_each_prefix(di_blank_cdr, sizeof(di_blank_cdr), disc_info_prefix, NULL);
}

/* DVD-ROM, track 1 of session 1: 2 298 496 blocks, MMC-3 layout (36). */
static const uint8_t ti_dvd[36] = {
	0x00, 0x22, 0x01, 0x01, 0x00, 0x04, 0x01, 0x02,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
	0x00, 0x23, 0x12, 0x80, 0x00, 0x23, 0x12, 0x7f,
	0x00, 0x00, 0x00, 0x00,
};

static void test_track_info(void **state)
{
	struct mmc_track_info ti;
	uint8_t b[36];

	(void)state;
	assert_int_equal(mmc_parse_track_info(ti_dvd, sizeof(ti_dvd), &ti), 0);
	assert_int_equal(ti.track, 1);
	assert_int_equal(ti.session, 1);
	assert_int_equal(ti.track_mode, 4);
	assert_int_equal(ti.data_mode, 1);
	assert_false(ti.blank);
	assert_false(ti.packet);
	assert_false(ti.fixed);
	assert_false(ti.nwa_valid);
	assert_true(ti.lra_valid);
	assert_int_equal(ti.start, 0);
	assert_int_equal(ti.fixed_packet_size, 16);
	assert_int_equal(ti.size, 2298496);
	assert_int_equal(ti.last_recorded, 2298495);

	/* an incomplete packet-written CD-RW track 258 in session 257 */
	memcpy(b, ti_dvd, sizeof(b));
	b[2] = 0x02; b[32] = 0x01;
	b[3] = 0x01; b[33] = 0x01;
	b[5] = 0x37;
	b[6] = 0x72;
	b[7] = 0x01;
	b[8] = 0x00; b[9] = 0x01; b[10] = 0x00; b[11] = 0x00;
	b[12] = 0x00; b[13] = 0x01; b[14] = 0x10; b[15] = 0x07;
	b[16] = 0x00; b[17] = 0x04; b[18] = 0x00; b[19] = 0x00;
	b[20] = 0x00; b[21] = 0x00; b[22] = 0x00; b[23] = 0x20;
	assert_int_equal(mmc_parse_track_info(b, sizeof(b), &ti), 0);
	assert_int_equal(ti.track, 258);
	assert_int_equal(ti.session, 257);
	assert_int_equal(ti.track_mode, 7);
	assert_int_equal(ti.data_mode, 2);
	assert_true(ti.blank);
	assert_true(ti.packet);
	assert_true(ti.fixed);
	assert_true(ti.nwa_valid);
	assert_false(ti.lra_valid);
	assert_int_equal(ti.start, 65536);
	assert_int_equal(ti.next_writable, 0x11007);
	assert_int_equal(ti.free_blocks, 0x40000);
	assert_int_equal(ti.fixed_packet_size, 32);
}

static void track_info_prefix(const uint8_t *p, size_t len, void *ctx)
{
	struct mmc_track_info ti;
	int rc = mmc_parse_track_info(p, len, &ti);

	(void)ctx;
	assert_int_equal(rc, len < 28 ? -1 : 0);
	if (!rc) {
		assert_int_equal(ti.size, 2298496);
		/* MMC-2 drives stop before the last recorded address */
		assert_int_equal(ti.lra_valid, len >= 32);
	}
}

static void test_track_info_truncated(void **state)
{
	(void)state;
	th_each_prefix(ti_dvd, sizeof(ti_dvd), track_info_prefix, NULL);
}

/* ---- READ TOC format 2: the full TOC --------------------------------------- */

/*
 * A CD-Extra as MMC lays it out: session 1 with two audio tracks (A0 1,
 * A1 2, A2 at LBA 5000 = 01:08:50 with the 150-frame offset), B0 (ADR 5),
 * session 2 with data track 3 at LBA 16400 = 03:40:50.
 */
static const uint8_t full_toc_extra[] = {
	0x00, 2 + 9 * 11, 1, 2,
	/* session ADR/C TNO POINT  M  S  F  Z  PM PS PF */
	1, 0x10, 0, 0xa0, 0, 0, 0, 0, 1, 0x00, 0,
	1, 0x10, 0, 0xa1, 0, 0, 0, 0, 2, 0, 0,
	1, 0x10, 0, 0xa2, 0, 0, 0, 0, 1, 8, 50,
	1, 0x10, 0, 0x01, 0, 0, 0, 0, 0, 2, 0,
	1, 0x10, 0, 0x02, 0, 0, 0, 0, 0, 42, 0,
	1, 0x50, 0, 0xb0, 3, 40, 50, 2, 79, 59, 74,
	2, 0x14, 0, 0xa0, 0, 0, 0, 0, 3, 0x20, 0,
	2, 0x14, 0, 0xa1, 0, 0, 0, 0, 3, 0, 0,
	2, 0x14, 0, 0x03, 0, 0, 0, 0, 3, 40, 50,
};

static void test_full_toc(void **state)
{
	const struct mmc_fulltoc_session *s;
	struct mmc_full_toc *t = calloc(1, sizeof(*t));

	(void)state;
	assert_non_null(t);
	assert_int_equal(mmc_parse_full_toc(full_toc_extra, sizeof(full_toc_extra), t), 0);
	assert_int_equal(t->first_session, 1);
	assert_int_equal(t->last_session, 2);
	assert_int_equal(t->n_sessions, 2);
	s = mmc_full_toc_session(t, 1);
	assert_non_null(s);
	assert_int_equal(s->first_track, 1);
	assert_int_equal(s->last_track, 2);
	assert_int_equal(s->leadout, (1 * 60 + 8) * 75 + 50 - 150);
	assert_true(s->next_allowed);
	s = mmc_full_toc_session(t, 2);
	assert_non_null(s);
	assert_int_equal(s->first_track, 3);
	assert_int_equal(s->leadout, -1);	/* no A2 sent */
	assert_false(s->next_allowed);
	assert_null(mmc_full_toc_session(t, 3));
	assert_int_equal(t->n_tracks, 3);
	assert_int_equal(t->t[0].number, 1);
	assert_int_equal(t->t[0].lba, 0);
	assert_false(mmc_control_is_data(t->t[1].control));
	assert_int_equal(t->t[1].lba, 42 * 75 - 150);
	assert_int_equal(t->t[2].number, 3);
	assert_int_equal(t->t[2].session, 2);
	assert_true(mmc_control_is_data(t->t[2].control));
	assert_int_equal(t->t[2].lba, 16400);
	free(t);
}

/* Every prefix in a buffer of exactly that size: whole descriptors only. */
static void test_full_toc_truncated(void **state)
{
	struct mmc_full_toc *t = calloc(1, sizeof(*t));
	size_t len;

	(void)state;
	assert_non_null(t);
	for (len = 0; len <= sizeof(full_toc_extra); len++) {
		uint8_t *p = th_exact(full_toc_extra, len);
		int rc = mmc_parse_full_toc(p, len, t);

		if (len < 4) {
			assert_int_equal(rc, -1);
		} else {
			assert_int_equal(rc, 0);
			/* tracks 1, 2 at descriptors 4, 5; track 3 the ninth */
			assert_int_equal(t->n_tracks, (len >= 4 + 5 * 11) + (len >= 4 + 4 * 11) +
						      (len >= 4 + 9 * 11));
		}
		free(p);
	}
	/* a header claiming more than came: only what came */
	{
		uint8_t b[4 + 11];

		memcpy(b, full_toc_extra, sizeof(b));
		b[0] = 0xff;
		b[1] = 0xff;
		assert_int_equal(mmc_parse_full_toc(b, sizeof(b), t), 0);
		assert_int_equal(t->n_sessions, 1);
		assert_int_equal(t->n_tracks, 0);
	}
	/* session 0 and ADR 2 (catalogue) descriptors are not a session's */
	{
		uint8_t b[] = { 0, 24, 1, 1,
				0, 0x14, 0, 0x01, 0, 0, 0, 0, 0, 2, 0,
				1, 0x24, 0, 0x01, 0, 0, 0, 0, 0, 2, 0 };

		assert_int_equal(mmc_parse_full_toc(b, sizeof(b), t), 0);
		assert_int_equal(t->n_tracks, 0);
		assert_int_equal(t->n_sessions, 0);
	}
	free(t);
}

/*
 * A TAO data track (MMC-3 layout, 36 bytes): track 3 of session 2, mode
 * 5 (data, incremental), start 16400, size 5000, LRA valid at 21397: the
 * last 2 blocks of the track are its run-out.
 */
static void test_track_info_tao(void **state)
{
	uint8_t b[36] = { 0, 34, 3, 2, 0, 0x05, 0x01, 0x02 };
	struct mmc_track_info ti;

	(void)state;
	b[8] = 0x00; b[9] = 0x00; b[10] = 0x40; b[11] = 0x10;		/* 16400 */
	b[24] = 0x00; b[25] = 0x00; b[26] = 0x13; b[27] = 0x88;	/* 5000 */
	b[28] = 0x00; b[29] = 0x00; b[30] = 0x53; b[31] = 0x95;	/* 21397 */
	assert_int_equal(mmc_parse_track_info(b, sizeof(b), &ti), 0);
	assert_int_equal(ti.track, 3);
	assert_int_equal(ti.session, 2);
	assert_true(mmc_control_is_data(ti.track_mode));
	assert_true(mmc_control_incremental(ti.track_mode));
	assert_false(ti.blank);
	assert_int_equal(ti.start, 16400);
	assert_int_equal(ti.size, 5000);
	assert_true(ti.lra_valid);
	assert_int_equal(ti.last_recorded + 1 + 2, ti.start + ti.size);
	/* an open session's invisible track: blank, RT and NWA valid */
	b[6] = 0xc0 | 0x01;
	assert_int_equal(mmc_parse_track_info(b, sizeof(b), &ti), 0);
	assert_true(ti.blank);
	/* an audio track: control 0 */
	b[5] = 0x00;
	b[6] = 0x0f;
	assert_int_equal(mmc_parse_track_info(b, sizeof(b), &ti), 0);
	assert_false(mmc_control_is_data(ti.track_mode));
}

/*
 * READ TRACK INFORMATION's addresses are signed LBAs (MMC: -150 is
 * 00:00:00).  CDEmu's libMirage answers track 1 of a 402-block data track
 * before a 150-block audio pregap with start -150 (FFFFFF6Ah), size 552:
 * the end is 402, never 2^32 + 402.
 */
static void test_track_info_signed(void **state)
{
	uint8_t b[36] = { 0, 34, 1, 1, 0, 0x04, 0x01, 0x02 };
	struct mmc_track_info ti;

	(void)state;
	b[8] = 0xff; b[9] = 0xff; b[10] = 0xff; b[11] = 0x6a;		/* -150 */
	b[12] = 0xff; b[13] = 0xff; b[14] = 0xff; b[15] = 0xff;	/* -1 */
	b[24] = 0x00; b[25] = 0x00; b[26] = 0x02; b[27] = 0x28;	/* 552 */
	b[28] = 0x80; b[29] = 0x00; b[30] = 0x00; b[31] = 0x00;	/* INT32_MIN */
	assert_int_equal(mmc_parse_track_info(b, sizeof(b), &ti), 0);
	assert_true(ti.start == -150);
	assert_true(ti.next_writable == -1);
	assert_true(ti.last_recorded == INT32_MIN);
	assert_int_equal(ti.size, 552);
	assert_true(ti.start + ti.size == 402);
	/* the largest positive LBA stays positive */
	b[8] = 0x7f; b[9] = 0xff; b[10] = 0xff; b[11] = 0xff;
	assert_int_equal(mmc_parse_track_info(b, sizeof(b), &ti), 0);
	assert_true(ti.start == INT32_MAX);
}

/* Disc status 1 (incomplete) or last session state 1: appendable. */
static void test_disc_appendable(void **state)
{
	uint8_t b[34] = { 0, 32, 0x01 | 0x01 << 2, 1, 2, 3, 3, 0x20, 0x00 };
	struct mmc_disc_info di;

	(void)state;
	/* last possible lead-out 79:59:74 = LBA 359849 */
	b[20] = 0; b[21] = 79; b[22] = 59; b[23] = 74;
	memset(b + 16, 0xff, 4);
	assert_int_equal(mmc_parse_disc_info(b, sizeof(b), &di), 0);
	assert_true(mmc_disc_appendable(&di));
	assert_int_equal(di.n_sessions, 2);
	assert_int_equal(di.last_leadout, 359849);
	b[2] = 0x02 | 0x03 << 2;	/* complete disc, complete session */
	assert_int_equal(mmc_parse_disc_info(b, sizeof(b), &di), 0);
	assert_false(mmc_disc_appendable(&di));
	b[2] = 0x02 | 0x01 << 2;	/* the last session left incomplete */
	assert_int_equal(mmc_parse_disc_info(b, sizeof(b), &di), 0);
	assert_true(mmc_disc_appendable(&di));
}

/* ---- GET CONFIGURATION ----------------------------------------------------- */

static void test_config_header(void **state)
{
	/* RT=2 start 0 alloc 8: the header says 0xb4 more bytes exist */
	static const uint8_t hdr[8] = { 0x00, 0x00, 0x00, 0xb4,
					0x00, 0x00, 0x00, 0x10 };
	uint8_t b[8];
	uint16_t prof = 0;

	(void)state;
	assert_int_equal(mmc_parse_config_header(hdr, 8, &prof), 0);
	assert_int_equal(prof, 0x0010);
	for (size_t len = 0; len <= sizeof(hdr); len++) {
		uint8_t *p = th_exact(hdr, len);

		prof = 0x1234;
		assert_int_equal(mmc_parse_config_header(p, len, &prof),
				 len < 8 ? -1 : 0);
		assert_int_equal(prof, len < 8 ? 0x1234 : 0x0010);
		free(p);
	}
	/* a data length that ends before the profile field */
	memcpy(b, hdr, sizeof(b));
	b[3] = 0x03;
	assert_int_equal(mmc_parse_config_header(b, 8, &prof), -1);
	/* the largest data length does not wrap */
	memset(b, 0xff, 4);
	assert_int_equal(mmc_parse_config_header(b, 8, &prof), 0);
	assert_int_equal(prof, 0x0010);
}

static void test_profile_names(void **state)
{
	(void)state;
	assert_string_equal(mmc_profile_name(0x0000), "none");
	assert_string_equal(mmc_profile_name(0x0008), "CD-ROM");
	assert_string_equal(mmc_profile_name(0x0009), "CD-R");
	assert_string_equal(mmc_profile_name(0x000a), "CD-RW");
	assert_string_equal(mmc_profile_name(0x0010), "DVD-ROM");
	assert_string_equal(mmc_profile_name(0x0011), "DVD-R");
	assert_string_equal(mmc_profile_name(0x0012), "DVD-RAM");
	assert_string_equal(mmc_profile_name(0x0013), "DVD-RW");
	assert_string_equal(mmc_profile_name(0x0014), "DVD-RW");
	assert_string_equal(mmc_profile_name(0x001a), "DVD+RW");
	assert_string_equal(mmc_profile_name(0x001b), "DVD+R");
	assert_string_equal(mmc_profile_name(0x002b), "DVD+R DL");
	assert_string_equal(mmc_profile_name(0x0040), "BD-ROM");
	assert_string_equal(mmc_profile_name(0x0041), "BD-R");
	assert_string_equal(mmc_profile_name(0x0042), "BD-R");
	assert_string_equal(mmc_profile_name(0x0043), "BD-RE");
	assert_string_equal(mmc_profile_name(0x0007), "unknown");
	assert_string_equal(mmc_profile_name(0x1234), "unknown");
	assert_string_equal(cdt_profile_name(0x0043), "BD-RE");
	assert_string_equal(cdt_profile_name(0x0044), "unknown");
}

/* ---- MODE SENSE(10) caching page ------------------------------------------ */

/* A SATA disk behind libata: DPOFUA, 8-byte block descriptor, WCE on. */
static const uint8_t ms_disk[36] = {
	0x00, 0x22, 0x00, 0x10, 0x00, 0x00, 0x00, 0x08,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00,
	0x08, 0x12, 0x04, 0x00, 0xff, 0xff, 0x00, 0x00,
	0xff, 0xff, 0xff, 0xff, 0x80, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
};

static void test_mode_sense_caching(void **state)
{
	struct mmc_mode_caching mc;
	uint8_t b[64];

	(void)state;
	assert_int_equal(mmc_parse_mode_sense10_caching(ms_disk, sizeof(ms_disk),
							&mc), 0);
	assert_true(mc.dpofua);
	assert_true(mc.have_caching);
	assert_true(mc.wce);
	assert_false(mc.rcd);

	/* DBD honoured, write-through with read cache disabled, no FUA */
	memset(b, 0, sizeof(b));
	b[1] = 0x1a;
	b[8] = 0x88;		/* PS bit set, page 0x08 */
	b[9] = 0x12;
	b[10] = 0x01;
	assert_int_equal(mmc_parse_mode_sense10_caching(b, 28, &mc), 0);
	assert_false(mc.dpofua);
	assert_true(mc.have_caching);
	assert_false(mc.wce);
	assert_true(mc.rcd);

	/* another page and a sub-page page first; the answer claims more */
	memset(b, 0, sizeof(b));
	b[0] = 0x01; b[1] = 0x00;
	b[8] = 0x01; b[9] = 0x0a;			/* R/W error recovery */
	b[20] = 0x4a; b[21] = 0x01; b[22] = 0x00; b[23] = 0x04;	/* 0x0a/01 */
	/* bytes of the sub-page that look like a caching page header */
	b[24] = 0x08; b[25] = 0x02; b[26] = 0x01; b[27] = 0x00;
	b[28] = 0x08; b[29] = 0x12; b[30] = 0x04; b[31] = 0x00;
	assert_int_equal(mmc_parse_mode_sense10_caching(b, 32, &mc), 0);
	assert_true(mc.have_caching);
	assert_true(mc.wce);
	assert_false(mc.rcd);

	/* no caching page (an MMC drive answering with page 0x2a) */
	memset(b, 0, sizeof(b));
	b[1] = 0x0e;
	b[8] = 0x2a; b[9] = 0x06;
	assert_int_equal(mmc_parse_mode_sense10_caching(b, 16, &mc), 0);
	assert_false(mc.have_caching);
	assert_false(mc.wce);

	/* a block descriptor length pointing past the answer */
	memcpy(b, ms_disk, sizeof(ms_disk));
	b[6] = 0xff;
	assert_int_equal(mmc_parse_mode_sense10_caching(b, sizeof(ms_disk),
							&mc), 0);
	assert_true(mc.dpofua);
	assert_false(mc.have_caching);

	/* a mode data length shorter than the header is malformed */
	memcpy(b, ms_disk, sizeof(ms_disk));
	b[1] = 0x05;
	assert_int_equal(mmc_parse_mode_sense10_caching(b, sizeof(ms_disk),
							&mc), -1);
}

static void mode_sense_prefix(const uint8_t *p, size_t len, void *ctx)
{
	struct mmc_mode_caching mc;
	int rc = mmc_parse_mode_sense10_caching(p, len, &mc);

	(void)ctx;
	assert_int_equal(rc, len < 8 ? -1 : 0);
	/* byte 2 of the page is at offset 18 */
	if (!rc)
		assert_int_equal(mc.have_caching, len >= 19);
}

static void test_mode_sense_truncated(void **state)
{
	(void)state;
	th_each_prefix(ms_disk, sizeof(ms_disk), mode_sense_prefix, NULL);
}

/* Random answers of random lengths: no parser may read past len. */
static uint32_t xorshift(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void test_random_answers(void **state)
{
	uint32_t seed = 0x2545f491;

	(void)state;
	for (int iter = 0; iter < 20000; iter++) {
		size_t len = xorshift(&seed) % 64;
		uint8_t src[64], *p;
		struct mmc_inquiry mi;
		struct mmc_toc toc;
		struct mmc_session_info si;
		struct mmc_disc_info di;
		struct mmc_track_info ti;
		struct mmc_mode_caching mc;
		uint32_t a32, b32;
		uint64_t a64;
		uint16_t prof;

		for (size_t i = 0; i < sizeof(src); i++)
			src[i] = (uint8_t)xorshift(&seed);
		/* plausible small length fields reach the deeper paths */
		if (iter & 1) {
			src[0] = 0;
			src[1] = (uint8_t)(src[1] % 64);
		}
		p = th_exact(src, len);
		mmc_parse_inquiry(p, len, &mi);
		mmc_parse_read_capacity10(p, len, &a32, &b32);
		mmc_parse_read_capacity16(p, len, &a64, &b32);
		if (!mmc_parse_toc(p, len, iter & 2, &toc))
			assert_true(toc.n <= (len - 4) / 8);
		mmc_toc_leadout(&toc);
		mmc_parse_session_info(p, len, iter & 2, &si);
		mmc_parse_disc_info(p, len, &di);
		mmc_parse_track_info(p, len, &ti);
		mmc_parse_config_header(p, len, &prof);
		mmc_parse_mode_sense10_caching(p, len, &mc);
		free(p);
	}
}

static void test_msf(void **state)
{
	uint8_t m, s, f;

	(void)state;
	assert_int_equal(mmc_msf_to_lba(0, 2, 0), 0);
	assert_int_equal(mmc_msf_to_lba(79, 59, 74), 359849);
	mmc_lba_to_msf(359849, &m, &s, &f);
	assert_int_equal(m, 79);
	assert_int_equal(s, 59);
	assert_int_equal(f, 74);
}

/* A READ SUB-CHANNEL answer of format 02h or 03h with text at byte 9. */
static void subch_answer(uint8_t *a, uint8_t format, bool valid, const char *text)
{
	memset(a, 0, 24);
	a[1] = 0x15;
	a[3] = 20;
	a[4] = format;
	a[8] = valid ? 0x80 : 0x00;
	memcpy(a + 9, text, strlen(text));
}

static void test_subchannel_cdb(void **state)
{
	uint8_t cdb[16];

	(void)state;
	memset(cdb, 0xff, sizeof(cdb));
	assert_int_equal(mmc_cdb_read_subchannel(cdb, MMC_SUBCH_MCN, 7, 24), 10);
	/* as Linux's sr_get_mcn: 42 00 40 02 00 00 00 00 18 00 */
	assert_memory_equal(cdb, ((const uint8_t[]){ 0x42, 0, 0x40, 2, 0, 0, 0, 0, 24, 0 }), 10);
	assert_int_equal(mmc_cdb_read_subchannel(cdb, MMC_SUBCH_ISRC, 5, 0x1234), 10);
	assert_memory_equal(cdb, ((const uint8_t[]){ 0x42, 0, 0x40, 3, 0, 0, 5, 0x12, 0x34, 0 }), 10);
}

static void test_subchannel_mcn(void **state)
{
	uint8_t a[32];
	char mcn[14];

	(void)state;
	subch_answer(a, 2, true, "0724384260927");
	assert_int_equal(mmc_parse_mcn(a, 24, mcn), 0);
	assert_string_equal(mcn, "0724384260927");
	/* the header's length is not trusted: 22 bytes hold the digits */
	a[3] = 0xff;
	assert_int_equal(mmc_parse_mcn(a, 22, mcn), 0);
	assert_int_equal(mmc_parse_mcn(a, 21, mcn), -1);
	assert_string_equal(mcn, "");
	assert_int_equal(mmc_parse_mcn(a, 0, mcn), -1);
	/* MCVAL clear: the disc has none, whatever the bytes */
	subch_answer(a, 2, false, "0724384260927");
	assert_int_equal(mmc_parse_mcn(a, 24, mcn), 1);
	assert_string_equal(mcn, "");
	/* garbage digits, a short number, another format's answer */
	subch_answer(a, 2, true, "07243842609A7");
	assert_int_equal(mmc_parse_mcn(a, 24, mcn), -1);
	subch_answer(a, 2, true, "072438426092");
	assert_int_equal(mmc_parse_mcn(a, 24, mcn), -1);
	subch_answer(a, 3, true, "0724384260927");
	assert_int_equal(mmc_parse_mcn(a, 24, mcn), -1);
	assert_string_equal(mcn, "");
}

static void test_subchannel_isrc(void **state)
{
	uint8_t a[32];
	char isrc[13];

	(void)state;
	subch_answer(a, 3, true, "USRC17607839");
	a[5] = 0x30;
	a[6] = 4;
	assert_int_equal(mmc_parse_isrc(a, 24, isrc), 0);
	assert_string_equal(isrc, "USRC17607839");
	assert_int_equal(mmc_parse_isrc(a, 21, isrc), 0);
	assert_int_equal(mmc_parse_isrc(a, 20, isrc), -1);
	subch_answer(a, 3, false, "USRC17607839");
	assert_int_equal(mmc_parse_isrc(a, 24, isrc), 1);
	/* lower case, a letter among the year digits, blanks, zeros */
	subch_answer(a, 3, true, "usrc17607839");
	assert_int_equal(mmc_parse_isrc(a, 24, isrc), -1);
	subch_answer(a, 3, true, "USRC1760783X");
	assert_int_equal(mmc_parse_isrc(a, 24, isrc), -1);
	subch_answer(a, 3, true, "US RC1760783");
	assert_int_equal(mmc_parse_isrc(a, 24, isrc), -1);
	subch_answer(a, 3, true, "");
	assert_int_equal(mmc_parse_isrc(a, 24, isrc), -1);
	subch_answer(a, 2, true, "USRC17607839");
	assert_int_equal(mmc_parse_isrc(a, 24, isrc), -1);
	assert_string_equal(isrc, "");
	assert_true(mmc_isrc_valid("GB0AA9900001", 12));
	assert_false(mmc_isrc_valid("GB0AA990000", 11));
	assert_true(mmc_mcn_valid("0000000000000", 13));
	assert_false(mmc_mcn_valid("00000000000000", 14));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builders),
		cmocka_unit_test(test_inquiry),
		cmocka_unit_test(test_inquiry_truncated),
		cmocka_unit_test(test_read_capacity),
		cmocka_unit_test(test_toc),
		cmocka_unit_test(test_toc_short_answers),
		cmocka_unit_test(test_toc_too_many),
		cmocka_unit_test(test_toc_truncated),
		cmocka_unit_test(test_session_info),
		cmocka_unit_test(test_disc_info),
		cmocka_unit_test(test_disc_info_truncated),
		cmocka_unit_test(test_track_info),
		cmocka_unit_test(test_track_info_truncated),
		cmocka_unit_test(test_full_toc),
		cmocka_unit_test(test_full_toc_truncated),
		cmocka_unit_test(test_track_info_tao),
		cmocka_unit_test(test_track_info_signed),
		cmocka_unit_test(test_disc_appendable),
		cmocka_unit_test(test_config_header),
		cmocka_unit_test(test_profile_names),
		cmocka_unit_test(test_mode_sense_caching),
		cmocka_unit_test(test_mode_sense_truncated),
		cmocka_unit_test(test_random_answers),
		cmocka_unit_test(test_msf),
		cmocka_unit_test(test_unit_serial),
		cmocka_unit_test(test_subchannel_cdb),
		cmocka_unit_test(test_subchannel_mcn),
		cmocka_unit_test(test_subchannel_isrc),
	};

	return cmocka_run_group_tests_name("mmc", tests, NULL, NULL);
}
