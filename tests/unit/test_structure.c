// SPDX-License-Identifier: MIT
/*
 * READ DISC STRUCTURE format 00h (mmc/structure.c, issue 36): the CDB,
 * the DVD physical format's data area and layer 0 (ECMA-267: one layer,
 * two on an opposite track path whose layer 1 PSNs are the bit inverse
 * of layer 0's; on a parallel one both layers' descriptors added), the
 * BD disc information, and answers too short or whose fields make no
 * data area.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "mmc/mmc.h"
#include "mmc/structure.h"
#include "th.h"

static uint8_t ans[MMC_BD_DI_LEN];

static void put24(uint8_t *p, uint32_t v)
{
	p[0] = 0;
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* A DVD physical format answer: book, layers, track path, PSNs. */
static size_t dvd(uint8_t book, unsigned int layers, bool otp, uint32_t start,
		  uint32_t end, uint32_t end0)
{
	memset(ans, 0, sizeof(ans));
	ans[0] = (MMC_DVD_PHYSICAL_LEN - 2) >> 8;
	ans[1] = (MMC_DVD_PHYSICAL_LEN - 2) & 0xff;
	ans[4] = (uint8_t)(book << 4 | 1);
	ans[6] = (uint8_t)((layers - 1) << 5 | (otp ? 0x10 : 0) | 1);
	put24(ans + 8, start);
	put24(ans + 12, end);
	put24(ans + 16, end0);
	return MMC_DVD_PHYSICAL_LEN;
}

static void test_cdb(void **state)
{
	uint8_t cdb[16];

	(void)state;
	assert_int_equal(mmc_cdb_read_disc_structure(cdb, MMC_STRUCT_MEDIA_BD, 0, 0, 4100), 12);
	assert_int_equal(cdb[0], 0xad);
	assert_int_equal(cdb[1], 0x01);
	assert_int_equal(cdb[7], 0x00);
	assert_int_equal(cdb[8] << 8 | cdb[9], 4100);
	assert_int_equal(cdb[6], 0);
	/* a parallel disc's layer 1: LAYER NUMBER in byte 6 */
	mmc_cdb_read_disc_structure(cdb, MMC_STRUCT_MEDIA_DVD, 1, 0, 2052);
	assert_int_equal(cdb[1], 0x00);
	assert_int_equal(cdb[6], 1);
}

static void test_dvd_single(void **state)
{
	struct mmc_dvd_physical p;
	size_t n = dvd(0, 1, false, 0x30000, 0x30000 + 2295104 - 1, 0);

	(void)state;
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &p), 0);
	assert_int_equal(p.category, 0);
	assert_string_equal(mmc_dvd_category_name(p.category), "DVD-ROM");
	assert_int_equal(p.layers, 1);
	assert_false(p.otp);
	assert_int_equal(mmc_dvd_data_blocks(&p), 2295104);
	assert_int_equal(mmc_dvd_layer0_blocks(&p), -1);
	/* the first 20 bytes are enough; 19 are not */
	assert_int_equal(mmc_parse_dvd_physical(ans, 20, &p), 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, 19, &p), -1);
	/* a length field that claims less than the descriptor: too short */
	ans[0] = 0;
	ans[1] = 10;
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &p), -1);
	/* QEMU's ide-cd numbers the data area from 0: the count is the same */
	n = dvd(0, 1, false, 0, 399999, 399999);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &p), 0);
	assert_int_equal(mmc_dvd_data_blocks(&p), 400000);
	/* an end before its start makes no data area */
	n = dvd(10, 1, false, 0x30000, 0x2ffff, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &p), 0);
	assert_string_equal(mmc_dvd_category_name(p.category), "DVD+R");
	assert_int_equal(mmc_dvd_data_blocks(&p), -1);
}

/* A DVD-9 as it is pressed: layer 0 to 22D47Fh, layer 1 from DD2B80h to FCFFFFh. */
static void test_dvd_dual_otp(void **state)
{
	struct mmc_dvd_physical p;
	size_t n = dvd(0, 2, true, 0x30000, 0xfcffff, 0x22d47f);

	(void)state;
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &p), 0);
	assert_int_equal(p.layers, 2);
	assert_true(p.otp);
	assert_int_equal(mmc_dvd_layer0_blocks(&p), 0x1fd480);
	assert_int_equal(mmc_dvd_data_blocks(&p), 2 * 0x1fd480);
	/* layer 1 shorter than layer 0 */
	n = dvd(14, 2, true, 0x30000, 0xdd2b80 + 99, 0x22d47f);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &p), 0);
	assert_int_equal(mmc_dvd_data_blocks(&p), 0x1fd480 + 100);
	/* an end below layer 1's start: no data area */
	n = dvd(14, 2, true, 0x30000, 0x22d47f, 0x22d47f);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &p), 0);
	assert_int_equal(mmc_dvd_data_blocks(&p), -1);
	assert_int_equal(mmc_dvd_layer0_blocks(&p), 0x1fd480);
	/* parallel: layer 1 has its own descriptor, the size stays unknown */
	n = dvd(0, 2, false, 0x30000, 0x22d47f, 0x22d47f);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &p), 0);
	assert_int_equal(mmc_dvd_data_blocks(&p), -1);
}

/*
 * Where LBA 0 sits: at 030000h as ECMA-267 has it, or at PSN 0 as QEMU's
 * ide-cd numbers the data area of a DVD-sized image; these are its bytes
 * for 2,295,104 blocks, as the VM test (tests/vm/cases/dvd.sh) read them.
 */
static void test_dvd_placed(void **state)
{
	static const uint8_t qemu[20] = {
		0x08, 0x02, 0x00, 0x00, 0x01, 0x0f, 0x01, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x23, 0x05, 0x3f, 0x00, 0x23, 0x05, 0x3f,
	};
	struct mmc_dvd_physical p;
	size_t n;

	(void)state;
	memset(ans, 0, sizeof(ans));
	memcpy(ans, qemu, sizeof(qemu));
	assert_int_equal(mmc_parse_dvd_physical(ans, MMC_DVD_PHYSICAL_LEN, &p), 0);
	assert_string_equal(mmc_dvd_category_name(p.category), "DVD-ROM");
	assert_int_equal(p.version, 1);
	assert_int_equal(p.layers, 1);
	assert_false(p.otp);
	assert_int_equal(p.start_psn, 0);
	assert_int_equal(mmc_dvd_placed_blocks(&p), 2295104);
	/* the standard start */
	n = dvd(0, 1, false, 0x30000, 0x30000 + 2295104 - 1, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &p), 0);
	assert_int_equal(mmc_dvd_placed_blocks(&p), 2295104);
	/* DVD-RAM's data area starts at 031000h */
	n = dvd(1, 1, false, 0x31000, 0x31000 + 999, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &p), 0);
	assert_int_equal(mmc_dvd_placed_blocks(&p), 1000);
	/* another start below 030000h places nothing */
	n = dvd(0, 1, false, 0x1000, 0x30000 + 999, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &p), 0);
	assert_int_equal(mmc_dvd_data_blocks(&p), 0x30000 + 1000 - 0x1000);
	assert_int_equal(mmc_dvd_placed_blocks(&p), -1);
	/* an all-zero descriptor is no one-block data area */
	memset(ans, 0, sizeof(ans));
	ans[0] = (MMC_DVD_PHYSICAL_LEN - 2) >> 8;
	ans[1] = (MMC_DVD_PHYSICAL_LEN - 2) & 0xff;
	assert_int_equal(mmc_parse_dvd_physical(ans, MMC_DVD_PHYSICAL_LEN, &p), 0);
	assert_int_equal(mmc_dvd_data_blocks(&p), 1);
	assert_int_equal(mmc_dvd_placed_blocks(&p), -1);
	/* an end before the start places nothing */
	n = dvd(0, 1, false, 0x30000, 0x2ffff, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &p), 0);
	assert_int_equal(mmc_dvd_placed_blocks(&p), -1);
}

/*
 * A parallel-track-path disc: each layer its own descriptor and data area
 * from 030000h (ECMA-267), the LBAs through layer 0 then layer 1.
 */
static void test_dvd_ptp(void **state)
{
	struct mmc_dvd_physical l0, l1;
	size_t n;

	(void)state;
	n = dvd(0, 2, false, 0x30000, 0x30000 + 1600 - 1, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &l0), 0);
	assert_true(mmc_dvd_ptp(&l0));
	/* one descriptor alone still makes no size */
	assert_int_equal(mmc_dvd_data_blocks(&l0), -1);
	assert_int_equal(mmc_dvd_placed_blocks(&l0), -1);
	/* layer 0's blocks are its own data area, whatever its layer-0 end says */
	assert_int_equal(mmc_dvd_layer0_blocks(&l0), 1600);
	n = dvd(0, 2, false, 0x30000, 0x30000 + 1400 - 1, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &l1), 0);
	assert_int_equal(mmc_dvd_ptp_blocks(&l0, &l1), 3000);
	/* a layer 1 of one block */
	n = dvd(0, 2, false, 0x30000, 0x30000, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &l1), 0);
	assert_int_equal(mmc_dvd_ptp_blocks(&l0, &l1), 1601);
	/* layer 1's own start counts, not layer 0's */
	n = dvd(0, 2, false, 0x31000, 0x31000 + 99, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &l1), 0);
	assert_int_equal(mmc_dvd_ptp_blocks(&l0, &l1), 1700);
	/* implausible layer 1: an end before its start */
	n = dvd(0, 2, false, 0x30000, 0x2ffff, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &l1), 0);
	assert_int_equal(mmc_dvd_ptp_blocks(&l0, &l1), -1);
	/* not placed: another start below 030000h, or all zero */
	n = dvd(0, 2, false, 0x1000, 0x30000, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &l1), 0);
	assert_int_equal(mmc_dvd_ptp_blocks(&l0, &l1), -1);
	memset(ans, 0, sizeof(ans));
	ans[1] = 20;
	ans[6] = 1 << 5;	/* two layers, parallel, every PSN 0 */
	assert_int_equal(mmc_parse_dvd_physical(ans, 22, &l1), 0);
	assert_true(mmc_dvd_ptp(&l1));
	assert_int_equal(mmc_dvd_ptp_blocks(&l0, &l1), -1);
	/* an answer for another kind of disc: one layer, or an opposite path */
	n = dvd(0, 1, false, 0x30000, 0x30000 + 1399, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &l1), 0);
	assert_int_equal(mmc_dvd_ptp_blocks(&l0, &l1), -1);
	n = dvd(0, 2, true, 0x30000, 0xfcffff, 0x22d47f);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &l1), 0);
	assert_int_equal(mmc_dvd_ptp_blocks(&l0, &l1), -1);
	assert_false(mmc_dvd_ptp(&l1));
	/* layer 0 not placed: no size, no layer-0 end */
	n = dvd(0, 2, false, 0x30000, 0x2ffff, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &l0), 0);
	assert_int_equal(mmc_dvd_layer0_blocks(&l0), -1);
	n = dvd(0, 2, false, 0x30000, 0x30000 + 1399, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &l1), 0);
	assert_int_equal(mmc_dvd_ptp_blocks(&l0, &l1), -1);
	/* the largest PSNs: no overflow */
	n = dvd(0, 2, false, 0x30000, 0xffffff, 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &l0), 0);
	assert_int_equal(mmc_parse_dvd_physical(ans, n, &l1), 0);
	assert_int_equal(mmc_dvd_ptp_blocks(&l0, &l1), 2 * (0xffffffLL - 0x30000 + 1));
}

static void test_bd(void **state)
{
	struct mmc_bd_disc_info di;

	(void)state;
	memset(ans, 0, sizeof(ans));
	ans[0] = (MMC_BD_DI_LEN - 2) >> 8;
	ans[1] = (MMC_BD_DI_LEN - 2) & 0xff;
	memcpy(ans + 4, "DI", 2);
	memcpy(ans + 12, "BDR", 3);
	ans[15] = 0x02;
	ans[16] = 0x20;
	assert_int_equal(mmc_parse_bd_disc_info(ans, sizeof(ans), &di), 0);
	assert_string_equal(di.type, "BDR");
	assert_int_equal(di.layers, 2);
	assert_int_equal(di.version, 2);
	assert_int_equal(mmc_parse_bd_disc_info(ans, 16, &di), -1);
	ans[5] = 'X';
	assert_int_equal(mmc_parse_bd_disc_info(ans, sizeof(ans), &di), -1);
	/* no layers: no disc information */
	ans[5] = 'I';
	ans[16] = 0;
	assert_int_equal(mmc_parse_bd_disc_info(ans, sizeof(ans), &di), -1);
	/* a type of bytes not printable is shown as '?' */
	ans[16] = 0x10;
	ans[12] = 0x01;
	assert_int_equal(mmc_parse_bd_disc_info(ans, sizeof(ans), &di), 0);
	assert_string_equal(di.type, "?DR");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cdb),
		cmocka_unit_test(test_dvd_single),
		cmocka_unit_test(test_dvd_dual_otp),
		cmocka_unit_test(test_dvd_placed),
		cmocka_unit_test(test_dvd_ptp),
		cmocka_unit_test(test_bd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
