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

static void dvd_structure(struct cdt_probe_result *res, const uint8_t *buf,
			  uint32_t got)
{
	struct mmc_dvd_physical p;
	int64_t blocks;

	if (mmc_parse_dvd_physical(buf, got, &p))
		return;
	res->structure_layers = p.layers;
	res->structure_otp = p.otp;
	res->structure_version = p.version;
	set_type(res, mmc_dvd_category_name(p.category));
	/* LBA 0 is the data area's first PSN: a descriptor that starts it
	 * elsewhere below 030000h describes no data area cdtail can place */
	blocks = mmc_dvd_data_blocks(&p);
	if (blocks > 0 && p.start_psn >= MMC_DVD_FIRST_PSN)
		res->structure_blocks = blocks;
	if (p.layers > 1 && mmc_dvd_layer0_blocks(&p) > 0)
		res->structure_layer0 = mmc_dvd_layer0_blocks(&p);
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
					 MMC_STRUCT_FORMAT_PHYSICAL, buf, len, &got)) {
		if (bd)
			bd_structure(res, buf, got);
		else
			dvd_structure(res, buf, got);
	}
	free(buf);
}
