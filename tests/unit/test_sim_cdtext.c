// SPDX-License-Identifier: MIT
/*
 * CD-TEXT from a CUE sheet to the emulated drive and back: cd/cue.c keeps
 * the disc's and each track's TITLE .. MESSAGE lines, the drive answers
 * READ TOC format 5 with their packs (sim/cdtext.c), and cd/cdtext.c
 * reads them back as they were written in the sheet; cdtext=refuse, a
 * plain image and a sheet without text answer as the drive's man page
 * says; GET CONFIGURATION's CD Read feature declares CD-Text where the
 * sheet holds it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "mmc/bytes.h"
#include "mmc/mmc.h"
#include "cd/cdtext.h"
#include "cd/cue.h"
#include "transport/transport.h"
#include "th.h"

static char dir[64];

static const char sheet[] =
	"CATALOG 0123456789012\n"
	"PERFORMER \"The Band\"\n"
	"TITLE \"Caf\xc3\xa9 Songs\"\n"
	"SONGWRITER Some One\n"
	"FILE \"audio.bin\" BINARY\n"
	"  TRACK 01 AUDIO\n"
	"    TITLE \"First\"\n"
	"    PERFORMER \"The Band\"\n"
	"    COMPOSER \"A. Composer\"\n"
	"    INDEX 01 00:00:00\n"
	"  TRACK 02 AUDIO\n"
	"    TITLE \"Second\"\n"
	"    PERFORMER \"The Band\"\n"
	"    ARRANGER \"An Arranger\"\n"
	"    MESSAGE \"A message\"\n"
	"    INDEX 01 00:04:00\n";

static const char plain_sheet[] =
	"FILE \"audio.bin\" BINARY\n"
	"  TRACK 01 AUDIO\n"
	"    INDEX 01 00:00:00\n";

static int setup(void **state)
{
	char path[128];
	uint8_t *bin = calloc(600, 2352);

	(void)state;
	assert_int_equal(th_tmpdir(dir, sizeof(dir), "simcdtext"), 0);
	th_path(path, sizeof(path), dir, "audio.bin");
	th_write_file(path, bin, 600 * 2352);
	free(bin);
	th_path(path, sizeof(path), dir, "text.cue");
	th_write_file(path, sheet, strlen(sheet));
	th_path(path, sizeof(path), dir, "plain.cue");
	th_write_file(path, plain_sheet, strlen(plain_sheet));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return th_rmrf(dir);
}

static void test_cue_keeps_text(void **state)
{
	struct cue_sheet c;
	char err[128];

	(void)state;
	assert_int_equal(cue_parse(sheet, strlen(sheet), 0, &c, err, sizeof(err)), 0);
	assert_string_equal(c.text[0][CD_TEXT_TITLE], "Caf\xc3\xa9 Songs");
	assert_string_equal(c.text[0][CD_TEXT_PERFORMER], "The Band");
	/* unquoted: its words */
	assert_string_equal(c.text[0][CD_TEXT_SONGWRITER], "Some One");
	assert_string_equal(c.text[1][CD_TEXT_TITLE], "First");
	assert_string_equal(c.text[1][CD_TEXT_COMPOSER], "A. Composer");
	assert_string_equal(c.text[2][CD_TEXT_ARRANGER], "An Arranger");
	assert_string_equal(c.text[2][CD_TEXT_MESSAGE], "A message");
	assert_null(c.text[1][CD_TEXT_MESSAGE]);
	assert_null(c.text[3][CD_TEXT_TITLE]);
	cue_free(&c);
	assert_null(c.text[0][CD_TEXT_TITLE]);
}

/* READ TOC format 5 of sim:DIR/NAME[,KEYS] into buf; the command's end. */
static struct cdt_cmd read_text(const char *name, const char *keys, uint8_t *buf,
				uint32_t len)
{
	struct cdt_transport *t;
	struct cdt_cmd cmd;
	uint8_t cdb[16];
	char err[256];

	assert_int_equal(th_sim_open(&t, err, sizeof(err), "%s/%s,cost=0/0%s", dir, name,
				     keys), 0);
	th_exec(t, &cmd, cdb, mmc_cdb_read_toc(cdb, 5, false, 0, (uint16_t)len), buf, len);
	t->ops->close(t);
	return cmd;
}

static void test_drive_serves_text(void **state)
{
	uint8_t buf[4096];
	struct cdt_cmd cmd = read_text("text.cue", "", buf, sizeof(buf));
	struct cd_text t;
	struct cd_text_block *b;
	size_t len;

	(void)state;
	th_expect_good(&cmd);
	len = 2 + th_be16(buf);
	assert_true(len > 4 + 3 * CD_TEXT_PACK && len <= sizeof(buf));
	assert_int_equal((len - 4) % CD_TEXT_PACK, 0);
	assert_int_equal(cd_text_parse(buf, len, &t), 0);
	assert_int_equal(t.bad_crc, 0);
	b = t.block[0];
	assert_non_null(b);
	assert_true(b->size_info);
	assert_int_equal(b->charset, CD_TEXT_ISO8859_1);
	assert_int_equal(b->first_track, 1);
	assert_int_equal(b->last_track, 2);
	/* UTF-8 in the sheet, ISO 8859-1 on the disc, UTF-8 again */
	assert_string_equal(b->text[0][CD_TEXT_TITLE], "Caf\xc3\xa9 Songs");
	assert_string_equal(b->text[0][CD_TEXT_SONGWRITER], "Some One");
	assert_string_equal(b->text[1][CD_TEXT_PERFORMER], "The Band");
	/* the TAB the drive wrote for track 2 reads as track 1's */
	assert_string_equal(b->text[2][CD_TEXT_PERFORMER], "The Band");
	assert_string_equal(b->text[2][CD_TEXT_TITLE], "Second");
	assert_string_equal(b->text[1][CD_TEXT_COMPOSER], "A. Composer");
	assert_string_equal(b->text[2][CD_TEXT_ARRANGER], "An Arranger");
	assert_string_equal(b->text[2][CD_TEXT_MESSAGE], "A message");
	assert_null(b->text[1][CD_TEXT_ARRANGER]);
	assert_null(t.block[1]);
	cd_text_free(&t);

	/* an allocation of the header alone: the length of all of it */
	cmd = read_text("text.cue", "", buf, 4);
	th_expect_good(&cmd);
	assert_int_equal(2 + th_be16(buf), len);
}

static void test_refused_or_empty(void **state)
{
	uint8_t buf[512];
	struct cdt_cmd cmd;

	(void)state;
	cmd = read_text("text.cue", ",cdtext=refuse", buf, sizeof(buf));
	th_expect_sense(&cmd, 0x05, 0x24, 0x00);
	/* a sheet without text: the header alone */
	cmd = read_text("plain.cue", "", buf, sizeof(buf));
	th_expect_good(&cmd);
	assert_int_equal(th_be16(buf), 2);
	/* a plain image: no lead-in to read */
	cmd = read_text("audio.bin", "", buf, sizeof(buf));
	th_expect_sense(&cmd, 0x05, 0x24, 0x00);
}

static void test_declared(void **state)
{
	struct cdt_raw_caps caps = CDT_INIT(caps);
	struct cdt_dev *dev;
	char img[128];

	(void)state;
	th_path(img, sizeof(img), dir, "text.cue");
	dev = th_open_sim(img, "");
	assert_int_equal(cdt_raw_caps(dev, 0, &caps), 0);
	assert_true(caps.declared && caps.declared_cdtext);
	cdt_close(dev);
	dev = th_open_sim(img, "cdtext=refuse");
	assert_int_equal(cdt_raw_caps(dev, 0, &caps), 0);
	assert_true(caps.declared && !caps.declared_cdtext);
	cdt_close(dev);
	th_path(img, sizeof(img), dir, "plain.cue");
	dev = th_open_sim(img, "");
	assert_int_equal(cdt_raw_caps(dev, 0, &caps), 0);
	assert_true(caps.declared && !caps.declared_cdtext);
	cdt_close(dev);
}

/* cdt_probe reads it on an audio CD; the handle keeps it for cdt_dev_cd_text. */
static void test_probe_keeps_text(void **state)
{
	struct cdt_probe_result res = CDT_INIT(res);
	struct cdt_cd_text t = CDT_INIT(t), u = CDT_INIT(u);
	struct cdt_dev *dev;
	char img[128];

	(void)state;
	th_path(img, sizeof(img), dir, "text.cue");
	dev = th_open_sim(img, "");
	/* no probe yet: nothing */
	assert_int_equal(cdt_dev_cd_text(dev, &t), 0);
	assert_false(t.answered);
	assert_int_equal(t.n_blocks, 0);
	assert_int_equal(cdt_probe(dev, NULL, &res), 0);
	assert_int_equal(cdt_dev_cd_text(dev, &t), 0);
	assert_true(t.answered);
	assert_int_equal(t.n_blocks, 1);
	assert_int_equal(t.blocks[0].number, 0);
	assert_int_equal(t.blocks[0].language, 0x09);
	assert_string_equal(t.blocks[0].text[0][CDT_TEXT_TITLE], "Caf\xc3\xa9 Songs");
	assert_string_equal(t.blocks[0].text[2][CDT_TEXT_MESSAGE], "A message");
	assert_string_equal(cdt_text_field_name(CDT_TEXT_MESSAGE), "MESSAGE");
	assert_string_equal(cdt_text_language_name(t.blocks[0].language), "English");
	assert_string_equal(cdt_text_charset_name(t.blocks[0].charset), "ISO-8859-1");
	/* a copy: a second one is its own */
	assert_int_equal(cdt_dev_cd_text(dev, &u), 0);
	assert_ptr_not_equal(u.blocks[0].text[0][CDT_TEXT_TITLE],
			     t.blocks[0].text[0][CDT_TEXT_TITLE]);
	cdt_cd_text_free(&u);
	/* what the drive answers directly is the same */
	assert_int_equal(cdt_read_cd_text(dev, &u), 0);
	assert_string_equal(u.blocks[0].text[1][CDT_TEXT_COMPOSER], "A. Composer");
	assert_int_equal(u.bad_crc, 0);
	cdt_cd_text_free(&u);
	cdt_cd_text_free(&t);
	assert_null(t.blocks);
	cdt_close(dev);
	/* refused: probe goes on, nothing kept */
	dev = th_open_sim(img, "cdtext=refuse");
	assert_int_equal(cdt_probe(dev, NULL, &res), 0);
	assert_int_equal(cdt_dev_cd_text(dev, &t), 0);
	assert_int_equal(t.n_blocks, 0);
	assert_int_equal(cdt_read_cd_text(dev, &t), 0);
	assert_false(t.answered);
	cdt_close(dev);
	/* a caller's struct without a size: refused */
	u.size = 0;
	assert_int_equal(cdt_dev_cd_text(NULL, &u), CDT_EUSAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cue_keeps_text),
		cmocka_unit_test(test_drive_serves_text),
		cmocka_unit_test(test_refused_or_empty),
		cmocka_unit_test(test_declared),
		cmocka_unit_test(test_probe_keeps_text),
	};

	return cmocka_run_group_tests_name("sim_cdtext", tests, setup, teardown);
}
