// SPDX-License-Identifier: MIT
/* READ DISC STRUCTURE's CDB and its format 00h answers (see structure.h). */
#include <string.h>
#include "mmc/bytes.h"
#include "mmc/mmc.h"
#include "mmc/structure.h"

unsigned int mmc_cdb_read_disc_structure(uint8_t *cdb, uint8_t media_type,
					 uint8_t layer, uint8_t format,
					 uint16_t alloc)
{
	/* MMC-5 table 393: media type in byte 1, address 2-5 (0), layer 6 */
	memset(cdb, 0, 12);
	cdb[0] = MMC_READ_DVD_STRUCTURE;
	cdb[1] = media_type & 0x0f;
	cdb[6] = layer;
	cdb[7] = format;
	sg_put_unaligned_be16(alloc, cdb + 8);
	return 12;
}

/* The answer's length field (bytes after it) against what arrived. */
static size_t usable(const uint8_t *buf, size_t len)
{
	size_t claimed;

	if (len < 2)
		return 0;
	claimed = (size_t)sg_get_unaligned_be16(buf) + 2;
	return claimed < len ? claimed : len;
}

/* a PSN field: 24 bits after a reserved byte (ECMA-267 3.3) */
static uint32_t psn(const uint8_t *p)
{
	return (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int mmc_parse_dvd_physical(const uint8_t *buf, size_t len,
			   struct mmc_dvd_physical *out)
{
	const uint8_t *d = buf + 4;

	memset(out, 0, sizeof(*out));
	if (usable(buf, len) < 4 + 16)
		return -1;
	out->category = d[0] >> 4;
	out->version = d[0] & 0x0f;
	out->layers = ((d[2] >> 5) & 0x03) + 1;
	out->otp = d[2] & 0x10;
	out->start_psn = psn(d + 4);
	out->end_psn = psn(d + 8);
	out->end_psn_l0 = psn(d + 12);
	return 0;
}

bool mmc_dvd_ptp(const struct mmc_dvd_physical *p)
{
	return p->layers == 2 && !p->otp;
}

/*
 * One descriptor's own data area where LBA 0 can be put at its first PSN:
 * from 030000h and up, or from 0 with a non-zero end (QEMU), else -1.
 */
static int64_t placed_area(const struct mmc_dvd_physical *p)
{
	if (p->end_psn < p->start_psn)
		return -1;
	if (p->start_psn >= MMC_DVD_FIRST_PSN || (p->start_psn == 0 && p->end_psn > 0))
		return (int64_t)p->end_psn - p->start_psn + 1;
	return -1;
}

int64_t mmc_dvd_layer0_blocks(const struct mmc_dvd_physical *p)
{
	/* a parallel path's layer 0 is its descriptor's own data area */
	if (mmc_dvd_ptp(p))
		return placed_area(p);
	if (p->layers < 2 || p->end_psn_l0 < p->start_psn)
		return -1;
	return (int64_t)p->end_psn_l0 - p->start_psn + 1;
}

int64_t mmc_dvd_ptp_blocks(const struct mmc_dvd_physical *l0,
			   const struct mmc_dvd_physical *l1)
{
	int64_t blocks0, blocks1;

	/* both answers must describe the same kind of disc */
	if (!mmc_dvd_ptp(l0) || !mmc_dvd_ptp(l1))
		return -1;
	blocks0 = placed_area(l0);
	blocks1 = placed_area(l1);
	if (blocks0 <= 0 || blocks1 <= 0)
		return -1;
	return blocks0 + blocks1;
}

int64_t mmc_dvd_data_blocks(const struct mmc_dvd_physical *p)
{
	int64_t l0 = mmc_dvd_layer0_blocks(p);
	uint32_t l1_start;

	if (p->layers == 1)
		return p->end_psn >= p->start_psn ?
		       (int64_t)p->end_psn - p->start_psn + 1 : -1;
	/* a parallel path's layer 1 is described by its own descriptor */
	if (p->layers != 2 || !p->otp || l0 < 0)
		return -1;
	l1_start = ~p->end_psn_l0 & 0xffffffu;
	if (p->end_psn < l1_start)
		return -1;
	return l0 + (int64_t)(p->end_psn - l1_start) + 1;
}

int64_t mmc_dvd_placed_blocks(const struct mmc_dvd_physical *p)
{
	int64_t blocks = mmc_dvd_data_blocks(p);

	if (blocks <= 0)
		return -1;
	if (p->start_psn >= MMC_DVD_FIRST_PSN || (p->start_psn == 0 && p->end_psn > 0))
		return blocks;
	return -1;
}

const char *mmc_dvd_category_name(uint8_t category)
{
	/* MMC-5 table 400, book types */
	static const char *const names[16] = {
		[0] = "DVD-ROM", [1] = "DVD-RAM", [2] = "DVD-R", [3] = "DVD-RW",
		[4] = "HD DVD-ROM", [5] = "HD DVD-RAM", [6] = "HD DVD-R",
		[9] = "DVD+RW", [10] = "DVD+R", [13] = "DVD+RW DL",
		[14] = "DVD+R DL",
	};

	return category < 16 && names[category] ? names[category] : "DVD (other category)";
}

int mmc_parse_bd_disc_info(const uint8_t *buf, size_t len,
			   struct mmc_bd_disc_info *out)
{
	const uint8_t *u = buf + 4;

	memset(out, 0, sizeof(*out));
	/* the unit's header and body through the layers byte */
	if (usable(buf, len) < 4 + 13 || u[0] != 'D' || u[1] != 'I')
		return -1;
	memcpy(out->type, u + 8, 3);
	for (int i = 0; i < 3; i++)
		if (out->type[i] < 0x20 || out->type[i] > 0x7e)
			out->type[i] = '?';
	out->disc_class = (u[11] >> 4) & 0x03;
	out->version = u[11] & 0x0f;
	out->layers = u[12] >> 4;
	return out->layers ? 0 : -1;
}
