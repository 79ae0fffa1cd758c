// SPDX-License-Identifier: MIT
/*
 * READ DISC STRUCTURE (0xAD) format 00h on the emulated drive, and its
 * key structure=END[:L0[:PATH]] (issue 36).  A DVD answers its physical
 * format (ECMA-267 3.3; MMC-5 6.22.3.2.1): the data area from PSN 030000h
 * for END blocks, one layer, or with L0 two on an opposite track path
 * whose layer 1 runs from the bit inverse of layer 0's last PSN; PATH
 * ptp makes them parallel, each layer its own descriptor, and ptp-l0only
 * a parallel disc whose drive refuses layer 1's.  A BD answers one disc
 * information unit (MMC-5 6.22.3.1.1; the DI's fields as Aaru's
 * Bluray/DI.cs decodes them): its type by profile, one or two layers.
 * Without the key the drive refuses the command (05/24/00, as drives that
 * do not describe the medium do); on a CD, and for the other media type,
 * 05/30/02 CANNOT READ MEDIUM - INCOMPATIBLE FORMAT (MMC-5 6.22).
 */
#include <stdlib.h>
#include <string.h>
#include "cdtail.h"
#include "mmc/bytes.h"
#include "mmc/structure.h"
#include "sim/drive.h"

#define ASC_INCOMPATIBLE_MEDIUM 0x30
#define ASCQ_INCOMPATIBLE_FORMAT 0x02
/* PSNs are 24 bits: a data area from 030000h cannot be longer */
#define STRUCT_MAX_BLOCKS (0xffffffu - MMC_DVD_FIRST_PSN)

static int parse_blocks(const char *s, const char *end, uint64_t *out)
{
	char *stop;
	unsigned long long v;

	if (s == end || *s < '0' || *s > '9')
		return CDT_EUSAGE;
	v = strtoull(s, &stop, 10);
	if (stop != end || v == 0 || v > STRUCT_MAX_BLOCKS)
		return CDT_EUSAGE;
	*out = v;
	return 0;
}

static int parse_path(const char *s, enum sim_struct_path *out)
{
	if (!strcmp(s, "otp"))
		*out = SIM_STRUCT_OTP;
	else if (!strcmp(s, "ptp"))
		*out = SIM_STRUCT_PTP;
	else if (!strcmp(s, "ptp-l0only"))
		*out = SIM_STRUCT_PTP_L0ONLY;
	else
		return CDT_EUSAGE;
	return 0;
}

int sim_key_structure(struct sim_config *c, const char *v)
{
	const char *colon = strchr(v, ':');
	const char *path = colon ? strchr(colon + 1, ':') : NULL;
	const char *end = v + strlen(v);

	c->structure_l0 = 0;
	c->structure_path = SIM_STRUCT_OTP;
	if (parse_blocks(v, colon ? colon : end, &c->structure_end))
		return CDT_EUSAGE;
	if (colon && (parse_blocks(colon + 1, path ? path : end, &c->structure_l0) ||
		      c->structure_l0 >= c->structure_end))
		return CDT_EUSAGE;
	if (path && parse_path(path + 1, &c->structure_path))
		return CDT_EUSAGE;
	c->have_structure = true;
	return 0;
}

/*
 * opencap=: READ CAPACITY of an open DVD±R/BD-R as some drives answer it,
 * 1 block or the last recorded address (dvdisaster's documentation of
 * drives that misreport appendable discs; doc/disc-kinds.md); the track
 * information keeps the recorded extent.
 */
int sim_key_opencap(struct sim_config *c, const char *v)
{
	if (!strcmp(v, "one"))
		c->opencap = SIM_OPENCAP_ONE;
	else if (!strcmp(v, "lra"))
		c->opencap = SIM_OPENCAP_LRA;
	else
		return CDT_EUSAGE;
	return 0;
}

static bool profile_is_bd(uint16_t p)
{
	return p >= 0x0040 && p <= 0x0043;
}

/* MMC-5 table 400's book type of the DVD profiles the sim knows */
static uint8_t dvd_category(uint16_t p)
{
	switch (p) {
	case 0x0011:
		return 2;	/* DVD-R */
	case 0x001b:
		return 10;	/* DVD+R */
	case 0x0012:
		return 1;	/* DVD-RAM */
	case 0x001a:
		return 9;	/* DVD+RW */
	default:
		return 0;	/* DVD-ROM */
	}
}

static void put_psn(uint8_t *p, uint32_t psn)
{
	sg_put_unaligned_be32(psn & 0xffffffu, p);
}

/*
 * One layer's descriptor of a parallel-track-path disc: each layer has its
 * own data area from PSN 030000h (ECMA-267), layer 0 of L0 blocks, layer
 * 1 of END - L0; the LBAs run through layer 0, then layer 1 (redumper
 * dvd/dvd_dump.ixx reads one descriptor per layer of a parallel disc and
 * adds their lengths).  The layer-0 end field is left 0: cdtail takes a
 * parallel disc's layer 0 from its own data area, as redumper does.
 */
static void dvd_parallel(const struct sim_config *c, uint8_t *d, uint8_t layer)
{
	uint64_t blocks = layer ? c->structure_end - c->structure_l0 : c->structure_l0;

	d[2] = 1 << 5 | 0x01;	/* two layers, parallel track path */
	put_psn(d + 8, MMC_DVD_FIRST_PSN + (uint32_t)blocks - 1);
}

static void dvd_physical(const struct sim *s, uint8_t *ans, uint8_t layer)
{
	const struct sim_config *c = &s->cfg;
	uint8_t *d = ans + 4;
	uint32_t start = MMC_DVD_FIRST_PSN, end0, l1;

	sg_put_unaligned_be16(MMC_DVD_PHYSICAL_LEN - 2, ans);
	d[0] = (uint8_t)(dvd_category(sim_profile(s)) << 4 | 1);
	d[1] = 0x02;		/* 120 mm, 10.08 Mbit/s */
	d[3] = 0x10;
	put_psn(d + 4, start);
	if (!c->structure_l0) {
		d[2] = 0x01;	/* one layer, parallel, embossed */
		put_psn(d + 8, start + (uint32_t)c->structure_end - 1);
		return;
	}
	if (c->structure_path != SIM_STRUCT_OTP) {
		dvd_parallel(c, d, layer);
		return;
	}
	end0 = start + (uint32_t)c->structure_l0 - 1;
	l1 = ~end0 & 0xffffffu;
	d[2] = 1 << 5 | 0x10 | 0x01;	/* two layers, opposite track path */
	put_psn(d + 8, l1 + (uint32_t)(c->structure_end - c->structure_l0) - 1);
	put_psn(d + 12, end0);
}

/*
 * LAYER NUMBER (CDB byte 6, MMC-5 6.22): layer 0 always; layer 1 only of
 * a parallel dual-layer DVD that answers it.  A layer past the disc's is
 * an invalid field (05/24/00), as QEMU's ide-cd refuses any layer but 0
 * (hw/ide/atapi.c ide_dvd_read_structure); cdtail never asks layer 1 of
 * an opposite-path disc, whose one descriptor covers both, so the sim
 * refuses it too.
 */
static bool layer_answered(const struct sim_config *c, bool bd, uint8_t layer)
{
	return layer == 0 ||
	       (!bd && layer == 1 && c->structure_l0 && c->structure_path == SIM_STRUCT_PTP);
}

static void bd_disc_info(const struct sim *s, uint8_t *ans)
{
	uint8_t *u = ans + 4;

	sg_put_unaligned_be16(MMC_BD_DI_LEN - 2, ans);
	u[0] = 'D';
	u[1] = 'I';
	u[2] = 1;		/* DI format 1 */
	u[3] = 1 << 3;		/* one unit per block, layer 0 */
	u[6] = 64;		/* bytes of this unit */
	/* BD-R SRM (0041h) and RRM (0042h) are both BD-R media */
	memcpy(u + 8, sim_profile(s) == 0x0040 ? "BDO" :
		      sim_profile(s) <= 0x0042 ? "BDR" : "BDW", 3);
	u[11] = 0x01;		/* 120 mm, class 0, version 1 */
	u[12] = (uint8_t)((s->cfg.structure_l0 ? 2 : 1) << 4);
}

void sim_do_read_disc_structure(struct sim *s, struct cdt_cmd *cmd,
				struct sim_outcome *o)
{
	static uint8_t ans[MMC_BD_DI_LEN];
	uint16_t profile = sim_profile(s);
	uint8_t media = cmd->cdb[1] & 0x0f, format = cmd->cdb[7];
	bool bd = profile_is_bd(profile);

	if (sim_profile_is_cd(profile) ||
	    media != (bd ? MMC_STRUCT_MEDIA_BD : MMC_STRUCT_MEDIA_DVD)) {
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_INCOMPATIBLE_MEDIUM,
			  ASCQ_INCOMPATIBLE_FORMAT);
		return;
	}
	if (!s->cfg.have_structure || format != MMC_STRUCT_FORMAT_PHYSICAL ||
	    !layer_answered(&s->cfg, bd, cmd->cdb[6])) {
		sim_invalid_field(o);
		return;
	}
	memset(ans, 0, sizeof(ans));
	if (bd)
		bd_disc_info(s, ans);
	else
		dvd_physical(s, ans, cmd->cdb[6]);
	sim_put_answer(cmd, ans, bd ? MMC_BD_DI_LEN : MMC_DVD_PHYSICAL_LEN,
		       sg_get_unaligned_be16(cmd->cdb + 8));
}
