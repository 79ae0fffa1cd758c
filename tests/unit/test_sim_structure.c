// SPDX-License-Identifier: MIT
/*
 * The emulated drive's READ DISC STRUCTURE by layer number (sim/structure.c,
 * structure=END:L0:PATH): a parallel-track-path DVD answers layer 1's own
 * descriptor, ptp-l0only refuses it, and a layer past the disc's (or layer 1
 * of a one-layer or opposite-path disc) is an invalid field, 05/24/00, as
 * QEMU's ide-cd refuses any layer but 0.  The answers go through the same
 * parsers probe uses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "mmc/structure.h"
#include "transport/transport.h"
#include "th.h"

static struct th_disc *fixture;
static uint8_t ans[MMC_DVD_PHYSICAL_LEN];

static int group_setup(void **state)
{
	(void)state;
	fixture = th_disc_new("sim-structure", 64 * 2048, 36);
	return fixture ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	return th_disc_free(fixture);
}

static struct cdt_transport *open_keys(const char *keys)
{
	struct cdt_transport *t = NULL;
	char err[256];

	if (th_sim_open(&t, err, sizeof(err), "%s,profile=dvd-rom,%s", fixture->img, keys))
		fail_msg("open %s: %s", keys, err);
	assert_non_null(t);
	return t;
}

/* Format 00h of LAYER; the command as it ended, its answer in ans. */
static void ask(struct cdt_transport *t, struct cdt_cmd *cmd, uint8_t layer)
{
	uint8_t cdb[16];

	memset(ans, 0, sizeof(ans));
	th_exec(t, cmd, cdb,
		mmc_cdb_read_disc_structure(cdb, MMC_STRUCT_MEDIA_DVD, layer,
					    MMC_STRUCT_FORMAT_PHYSICAL, sizeof(ans)),
		ans, sizeof(ans));
}

static void test_ptp_layers(void **state)
{
	struct cdt_transport *t = open_keys("structure=3000:1600:ptp");
	struct mmc_dvd_physical l0, l1;
	struct cdt_cmd cmd;

	(void)state;
	ask(t, &cmd, 0);
	th_expect_good(&cmd);
	assert_int_equal(mmc_parse_dvd_physical(ans, sizeof(ans), &l0), 0);
	assert_true(mmc_dvd_ptp(&l0));
	assert_int_equal(l0.start_psn, MMC_DVD_FIRST_PSN);
	assert_int_equal(l0.end_psn, MMC_DVD_FIRST_PSN + 1600 - 1);
	assert_int_equal(mmc_dvd_layer0_blocks(&l0), 1600);
	ask(t, &cmd, 1);
	th_expect_good(&cmd);
	assert_int_equal(mmc_parse_dvd_physical(ans, sizeof(ans), &l1), 0);
	assert_true(mmc_dvd_ptp(&l1));
	/* layer 1's own data area, from 030000h too */
	assert_int_equal(l1.start_psn, MMC_DVD_FIRST_PSN);
	assert_int_equal(l1.end_psn, MMC_DVD_FIRST_PSN + 1400 - 1);
	assert_int_equal(mmc_dvd_ptp_blocks(&l0, &l1), 3000);
	/* no third layer */
	ask(t, &cmd, 2);
	th_expect_sense(&cmd, 5, 0x24, 0);
	t->ops->close(t);
}

static void test_layer1_refused(void **state)
{
	static const char *const keys[] = {
		"structure=3000:1600:ptp-l0only",	/* the drive answers layer 0 only */
		"structure=3000",			/* one layer */
		"structure=3000:1600",			/* opposite: one descriptor */
		"structure=3000:1600:otp",
	};
	struct cdt_cmd cmd;

	(void)state;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct cdt_transport *t = open_keys(keys[i]);

		ask(t, &cmd, 0);
		th_expect_good(&cmd);
		ask(t, &cmd, 1);
		th_expect_sense(&cmd, 5, 0x24, 0);
		t->ops->close(t);
	}
}

static void test_bad_keys(void **state)
{
	static const char *const keys[] = {
		"structure=3000:1600:",
		"structure=3000:1600:PTP",
		"structure=3000:1600:ptp:1",
		"structure=3000::ptp",
		"structure=3000:ptp",
		"structure=3000:3000:ptp",
	};
	struct cdt_transport *t;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		t = NULL;
		assert_int_not_equal(th_sim_open(&t, err, sizeof(err), "%s,%s",
						 fixture->img, keys[i]), 0);
		assert_non_null(strstr(err, "structure"));
		assert_null(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ptp_layers),
		cmocka_unit_test(test_layer1_refused),
		cmocka_unit_test(test_bad_keys),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
