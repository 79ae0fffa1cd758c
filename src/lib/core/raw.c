// SPDX-License-Identifier: MIT
/*
 * What the drive reads raw (cdt_raw_caps, include/cdtail.h): GET
 * CONFIGURATION's CD Read feature (001Eh), then READ CD tried at one LBA
 * four ways: the raw 2352-byte sector, with C2 pointers, with formatted Q,
 * with raw P-W.  Trying settles it, because declarations and firmware
 * disagree (redumper decides by executing commands; REAL-DISCS: drives
 * may refuse C2 or subchannel, QEMU's ide-cd ignores the subchannel
 * selection and makes Mode 1 sectors up with zero EDC/ECC).  A try counts
 * only when exactly the bytes asked for came and they are believable.
 */
#include <string.h>
#include "core/abi.h"
#include "core/cmds.h"
#include "core/raw.h"
#include "scsi/readcd.h"
#include "scsi/sector.h"
#include "scsi/subq.h"

#define GETCONF_ALLOC 64
#define TRY_MAX (CD_RAW + MMC_C2_BLOCK_LEN + CD_PW_LEN)

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

/* One READ CD of 1 block: true when exactly want bytes came. */
static bool try_read(struct cdt_dev *dev, int64_t lba, uint8_t fields,
		     uint8_t sub, uint8_t *buf, unsigned int want)
{
	struct mmc_read_cd rq = { .type = MMC_ST_ANY, .fields = fields, .sub = sub };
	struct cdt_sense sense;
	struct cdt_cmd cmd;

	memset(buf, 0, TRY_MAX);
	if (cdt_cmd_read_cd(dev, lba, 1, &rq, buf, TRY_MAX, &cmd, &sense))
		return false;
	return TRY_MAX - cmd.resid == want;
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
	*edc_ok = cd_sector_check(s, info.kind, &chk) &&
		  (chk.edc == CD_CHECK_OK || chk.ecc_p == CD_CHECK_OK);
	return true;
}

static bool believable_q(const uint8_t *q, int64_t lba)
{
	struct cd_subq sq;

	if (cd_subq_parse(q, CD_Q_LEN, &sq) || sq.crc == CD_Q_CRC_BAD)
		return false;
	return sq.adr != 1 || (sq.bcd_ok && sq.lba == lba);
}

void raw_caps_try(struct cdt_dev *dev, int64_t lba, struct cdt_raw_caps *caps)
{
	uint8_t buf[TRY_MAX], q[CD_Q_LEN];

	caps->tried_lba = lba;
	caps->sectors = try_read(dev, lba, MMC_RCD_RAW, MMC_SUB_NONE, buf, CD_RAW) &&
			believable_sector(buf, lba, &caps->edc_ok);
	if (!caps->sectors)
		return;
	caps->c2 = try_read(dev, lba, MMC_RCD_RAW | MMC_RCD_C2, MMC_SUB_NONE, buf,
			    CD_RAW + MMC_C2_LEN);
	caps->subq = try_read(dev, lba, MMC_RCD_RAW, MMC_SUB_Q, buf,
			      CD_RAW + CD_Q_FORMATTED) &&
		     believable_q(buf + CD_RAW, lba);
	caps->subpw = try_read(dev, lba, MMC_RCD_RAW, MMC_SUB_RAW, buf,
			       CD_RAW + CD_PW_LEN) &&
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
