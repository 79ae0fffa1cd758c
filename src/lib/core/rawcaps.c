// SPDX-License-Identifier: MIT
/*
 * What the drive reads raw (cdt_raw_caps, include/cdtail.h): GET
 * CONFIGURATION's CD Read feature (001Eh), then READ CD tried at one LBA
 * four ways: the raw 2352-byte sector, with C2 pointers, with formatted Q,
 * with raw P-W.  Trying settles it, because declarations and firmware
 * disagree (redumper decides by executing commands; REAL-DISCS: drives
 * may refuse C2 or subchannel, QEMU's ide-cd ignores the C2 and subchannel
 * selections and makes Mode 1 sectors up with zero EDC/ECC).
 *
 * Each try asks for exactly the bytes its CDB implies and never trusts the
 * residual alone: through libata (ATAPI on PIIX or AHCI) QEMU's ide-cd
 * moves 2352 bytes a block for a READ CD that asked for C2 pointers and
 * the kernel reports GOOD with residual 0 (measured, tests/vm/README.md).
 * So a try counts only when what came is believable where the fields
 * asked for must lie: the sector's header names the LBA, Q's CRC holds and
 * names it, and C2 is read over two blocks, the second sector's header
 * found where the 294 bytes of the first one's pointers end.
 */
#include <string.h>
#include "core/abi.h"
#include "core/cmds.h"
#include "core/rawcaps.h"
#include "mmc/readcd.h"
#include "cd/sector.h"
#include "cd/subq.h"

#define GETCONF_ALLOC 64
/* two blocks with C2 pointers, the largest try */
#define TRY_MAX (2 * (CD_RAW + MMC_C2_LEN))

void raw_caps_declared(struct cdt_dev *dev, struct cdt_raw_caps *caps)
{
	uint8_t buf[GETCONF_ALLOC];
	struct mmc_cd_read_feature f;
	uint32_t got = 0;

	/* RT 2: the one feature descriptor asked for */
	if (cdt_cmd_get_configuration(dev, 2, 0x001e, buf, sizeof(buf), &got))
		return;
	if (mmc_parse_cd_read_feature(buf, got, &f) || !f.present)
		return;
	caps->declared = f.current;
	caps->declared_c2 = f.c2;
	caps->declared_cdtext = f.cdtext;
}

/*
 * READ CD of n blocks of stride bytes each, exactly n * stride asked for:
 * true when GOOD and no residual is reported.  buf is zeroed first so
 * that what a drive leaves unwritten is never last try's bytes.
 */
static bool try_read(struct cdt_dev *dev, int64_t lba, uint32_t n, uint8_t fields,
		     uint8_t sub, uint8_t *buf, unsigned int stride)
{
	struct mmc_read_cd rq = { .type = MMC_ST_ANY, .fields = fields, .sub = sub };
	struct cdt_sense sense;
	struct cdt_cmd cmd;

	memset(buf, 0, TRY_MAX);
	if (cdt_cmd_read_cd(dev, lba, n, &rq, buf, n * stride, &cmd, &sense))
		return false;
	return cmd.resid == 0;
}

/* A data sector whose header says lba, or an audio one (no sync). */
static bool believable_sector(const uint8_t *s, int64_t lba, bool *edc_ok)
{
	struct cd_sector_info info;
	struct cd_sector_check chk;

	if (cd_sector_parse(s, CD_RAW, &info))
		return false;
	if (info.kind == CD_SECTOR_NONE)
		return true;
	if (!info.bcd_ok || info.lba != lba)
		return false;
	if (edc_ok)
		*edc_ok = cd_sector_check(s, info.kind, &chk) &&
			  (chk.edc == CD_CHECK_OK || chk.ecc_p == CD_CHECK_OK);
	return true;
}

/* A data sector (it has a sync) whose header says lba. */
static bool data_sector_at(const uint8_t *s, int64_t lba)
{
	struct cd_sector_info info;

	return !cd_sector_parse(s, CD_RAW, &info) && info.kind != CD_SECTOR_NONE &&
	       info.bcd_ok && info.lba == lba;
}

/*
 * Q that names lba (ADR 1), or a catalogue or ISRC Q (ADR 2, 3, which
 * take the place of the position now and then: ECMA-130 22.3) with its
 * CRC.  Sixteen bytes the drive never wrote (zeros: ADR 0, no CRC) are
 * neither.
 */
static bool believable_q(const uint8_t *q, int64_t lba)
{
	struct cd_subq sq;

	if (cd_subq_parse(q, CD_Q_LEN, &sq) || sq.crc == CD_Q_CRC_BAD)
		return false;
	if (sq.adr == 1)
		return sq.bcd_ok && sq.lba == lba;
	return (sq.adr == 2 || sq.adr == 3) && sq.crc == CD_Q_CRC_OK;
}

/*
 * C2 pointers: two blocks with 294 bytes each after the sector.  Where
 * the sector is data, the second one's header must lie at 2352 + 294 (a
 * drive that ignores the C2 field puts it at 2352).  An audio sector has
 * no header to find: there the reported residual is all there is.
 */
static bool try_c2(struct cdt_dev *dev, int64_t lba, uint8_t *buf)
{
	const unsigned int stride = CD_RAW + MMC_C2_LEN;
	struct cd_sector_info info;

	if (cd_sector_parse(buf, CD_RAW, &info))
		return false;
	if (info.kind == CD_SECTOR_NONE)
		return try_read(dev, lba, 1, MMC_RCD_RAW | MMC_RCD_C2, MMC_SUB_NONE, buf,
				stride);
	return try_read(dev, lba, 2, MMC_RCD_RAW | MMC_RCD_C2, MMC_SUB_NONE, buf,
			stride) &&
	       data_sector_at(buf, lba) && data_sector_at(buf + stride, lba + 1);
}

void raw_caps_try(struct cdt_dev *dev, int64_t lba, struct cdt_raw_caps *caps)
{
	uint8_t buf[TRY_MAX], q[CD_Q_LEN];

	caps->tried_lba = lba;
	caps->sectors = try_read(dev, lba, 1, MMC_RCD_RAW, MMC_SUB_NONE, buf, CD_RAW) &&
			believable_sector(buf, lba, &caps->edc_ok);
	if (!caps->sectors)
		return;
	caps->c2 = try_c2(dev, lba, buf);
	caps->subq = try_read(dev, lba, 1, MMC_RCD_RAW, MMC_SUB_Q, buf,
			      CD_RAW + CD_Q_FORMATTED) &&
		     believable_sector(buf, lba, NULL) && believable_q(buf + CD_RAW, lba);
	caps->subpw = try_read(dev, lba, 1, MMC_RCD_RAW, MMC_SUB_RAW, buf,
			       CD_RAW + CD_PW_LEN) &&
		      believable_sector(buf, lba, NULL) &&
		      !cd_pw_to_q(buf + CD_RAW, CD_PW_LEN, q) && believable_q(q, lba);
}

int cdt_raw_caps(struct cdt_dev *dev, int64_t lba, struct cdt_raw_caps *caps)
{
	struct cdt_raw_caps full;
	int rc;

	rc = cdt_abi_res(dev, caps, &full, sizeof(full), "struct cdt_raw_caps");
	if (rc)
		return rc;
	full.tried_lba = CDT_SIZE_ABSENT;
	raw_caps_declared(dev, &full);
	raw_caps_try(dev, lba, &full);
	cdt_abi_out(caps, &full, sizeof(full));
	return 0;
}
