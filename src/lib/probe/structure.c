// SPDX-License-Identifier: MIT
/*
 * The disc structure as a size source (see structure.h).  dvdisaster
 * (src/scsi-layer.c, query_size and the DVD media probe) asks the same
 * format 00h and takes the physical format's data area beside READ
 * CAPACITY on DVD, because drives misreport DVD+RW (formatted size) and
 * open DVD±R discs; on BD it keeps READ CAPACITY ("unformatted sectors can
 * always be read"), the disc information giving physical sector numbers
 * only: so here a BD's structure names its type and layers, never a size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/cmds.h"
#include "mmc/mmc.h"
#include "mmc/structure.h"
#include "probe/structure.h"

bool probe_dvd_profile(uint16_t profile)
{
	return (profile >= 0x0010 && profile <= 0x001b) ||
	       profile == 0x002a || profile == 0x002b;
}

bool probe_bd_profile(uint16_t profile)
{
	return profile >= 0x0040 && profile <= 0x0043;
}

static void set_type(struct cdt_probe_result *res, const char *name)
{
	snprintf(res->structure_type, sizeof(res->structure_type), "%s", name);
}

/*
 * A parallel-track-path disc of two layers describes layer 1 in its own
 * descriptor: format 00h again with LAYER NUMBER 1 (mmc/structure.h,
 * mmc_dvd_ptp_blocks).  A refusal, an answer that does not parse or whose
 * data area is not placed: -1, the size absent, never guessed.
 */
static int64_t ptp_blocks(struct cdt_dev *dev, const struct mmc_dvd_physical *l0,
			  uint8_t *buf)
{
	struct mmc_dvd_physical l1;
	uint32_t got = 0;

	memset(buf, 0, MMC_DVD_PHYSICAL_LEN);
	if (cdt_cmd_read_disc_structure(dev, MMC_STRUCT_MEDIA_DVD, 1,
					MMC_STRUCT_FORMAT_PHYSICAL, buf,
					MMC_DVD_PHYSICAL_LEN, &got) ||
	    mmc_parse_dvd_physical(buf, got, &l1))
		return -1;
	return mmc_dvd_ptp_blocks(l0, &l1);
}

static void dvd_structure(struct cdt_dev *dev, struct cdt_probe_result *res,
			  uint8_t *buf, uint32_t got)
{
	struct mmc_dvd_physical p;
	int64_t blocks;

	if (mmc_parse_dvd_physical(buf, got, &p))
		return;
	res->structure_layers = p.layers;
	res->structure_otp = p.otp;
	res->structure_version = p.version;
	set_type(res, mmc_dvd_category_name(p.category));
	if (p.layers > 1 && mmc_dvd_layer0_blocks(&p) > 0)
		res->structure_layer0 = mmc_dvd_layer0_blocks(&p);
	/* LBA 0 is the data area's first PSN: 030000h, or 0 where QEMU made
	 * the descriptor up; another start places no data area */
	blocks = mmc_dvd_ptp(&p) ? ptp_blocks(dev, &p, buf) : mmc_dvd_placed_blocks(&p);
	if (blocks > 0)
		res->structure_blocks = blocks;
}

static void bd_structure(struct cdt_probe_result *res, const uint8_t *buf,
			 uint32_t got)
{
	struct mmc_bd_disc_info di;

	if (mmc_parse_bd_disc_info(buf, got, &di))
		return;
	res->structure_layers = di.layers;
	res->structure_version = di.version;
	set_type(res, di.type);
}

void probe_structure(struct cdt_dev *dev, struct cdt_probe_result *res)
{
	uint16_t profile = res->sizes.profile;
	bool bd = probe_bd_profile(profile);
	uint16_t len = bd ? MMC_BD_DI_LEN : MMC_DVD_PHYSICAL_LEN;
	uint32_t got = 0;
	uint8_t *buf;

	res->structure_blocks = CDT_SIZE_ABSENT;
	res->structure_layer0 = CDT_SIZE_ABSENT;
	res->structure_layers = 0;
	res->structure_type[0] = '\0';
	if (!bd && !probe_dvd_profile(profile))
		return;
	buf = calloc(1, len);
	if (!buf)
		return;
	if (!cdt_cmd_read_disc_structure(dev, bd ? MMC_STRUCT_MEDIA_BD : MMC_STRUCT_MEDIA_DVD,
					 0, MMC_STRUCT_FORMAT_PHYSICAL, buf, len, &got)) {
		if (bd)
			bd_structure(res, buf, got);
		else
			dvd_structure(dev, res, buf, got);
	}
	free(buf);
}

bool probe_sequential_profile(uint16_t profile)
{
	switch (profile) {
	case 0x0011: case 0x0013: case 0x0014:	/* DVD-R, DVD-RW */
	case 0x0015: case 0x0016:		/* DVD-R DL */
	case 0x001b: case 0x002b:		/* DVD+R, DVD+R DL */
	case 0x0041: case 0x0042:		/* BD-R SRM, RRM */
		return true;
	default:
		return false;
	}
}

static int track_info(struct cdt_dev *dev, uint32_t track, struct mmc_track_info *ti)
{
	uint8_t buf[48];
	uint32_t got = 0;

	if (cdt_cmd_read_track_info(dev, track, buf, 36, &got))
		return -1;
	return mmc_parse_track_info(buf, got, ti);
}

/*
 * MMC-5 6.27 READ TRACK INFORMATION: an open disc's last track is its
 * invisible blank one, whose NWA is where writing goes on; the data's
 * track is the one before (the kernel's cdrom_get_last_written asks the
 * same way).  The recorded extent is the last recorded address + 1 where
 * LRA_V says it is valid, else the track's start + size.
 */
void probe_recorded_track(struct cdt_dev *dev, struct cdt_probe_result *res)
{
	struct mmc_disc_info di;
	struct mmc_track_info ti;
	uint32_t got = 0, track;
	uint8_t buf[48];

	res->recorded_track = res->recorded_start = res->recorded_size = CDT_SIZE_ABSENT;
	res->recorded_last = res->next_writable = res->recorded_end = CDT_SIZE_ABSENT;
	if (!probe_sequential_profile(res->sizes.profile))
		return;
	if (cdt_cmd_read_disc_info(dev, buf, 34, &got) || mmc_parse_disc_info(buf, got, &di) ||
	    !di.last_track_last_session)
		return;
	track = di.last_track_last_session;
	if (track_info(dev, track, &ti))
		return;
	if (ti.blank) {
		if (ti.nwa_valid && ti.next_writable >= 0)
			res->next_writable = ti.next_writable;
		if (track <= 1 || track_info(dev, track - 1, &ti) || ti.blank)
			return;
	} else if (ti.nwa_valid && ti.next_writable >= 0) {
		/* an incomplete track written on: writing goes on inside it */
		res->next_writable = ti.next_writable;
	}
	res->recorded_track = ti.track;
	res->recorded_start = ti.start;
	res->recorded_size = ti.size;
	if (ti.lra_valid && ti.last_recorded >= ti.start)
		res->recorded_last = ti.last_recorded;
	if (res->recorded_last >= 0)
		res->recorded_end = res->recorded_last + 1;
	else if (ti.start >= 0 && ti.size)
		res->recorded_end = ti.start + ti.size;
}
