/* SPDX-License-Identifier: MIT */
/*
 * READ DISC STRUCTURE (0xAD, MMC-5 6.22; READ DVD STRUCTURE in MMC-2):
 * its CDB, and the two format 00h answers cdtail reads, pure parsers over
 * the bytes that arrived.  DVD (media type 0): the physical format
 * information of layer 0 (ECMA-267 3.3 / MMC-5 6.22.3.2.1: disc category
 * and version, number of layers, track path, first and last physical
 * sector of the data area and of layer 0).  BD (media type 1): the disc
 * information units (MMC-5 6.22.3.1.1, the BD DI of the Blu-ray books as
 * Aaru's Bluray/DI.cs decodes it): disc type, class, version, layers.
 */
#ifndef CDT_MMC_STRUCTURE_H
#define CDT_MMC_STRUCTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MMC_STRUCT_MEDIA_DVD 0x00
#define MMC_STRUCT_MEDIA_BD 0x01
#define MMC_STRUCT_FORMAT_PHYSICAL 0x00	/* DVD physical format; BD DI */
/* 4-byte header and the 2048-byte layer descriptor */
#define MMC_DVD_PHYSICAL_LEN 2052
/* 4-byte header and the DI block of up to 4096 bytes */
#define MMC_BD_DI_LEN 4100
/* a DVD's data area starts at PSN 030000h (ECMA-267: LBA 0) */
#define MMC_DVD_FIRST_PSN 0x030000u

unsigned int mmc_cdb_read_disc_structure(uint8_t *cdb, uint8_t media_type,
					 uint8_t layer, uint8_t format,
					 uint16_t alloc);

struct mmc_dvd_physical {
	uint8_t category;	/* book type: 0 DVD-ROM, 1 DVD-RAM, 2 DVD-R,
				 * 3 DVD-RW, 9 DVD+RW, 10 DVD+R, 13 DVD+RW DL,
				 * 14 DVD+R DL */
	uint8_t version;	/* part version */
	unsigned int layers;	/* 1 to 4 */
	bool otp;		/* opposite track path (else parallel) */
	uint32_t start_psn;	/* first PSN of the data area */
	uint32_t end_psn;	/* last PSN of the data area */
	uint32_t end_psn_l0;	/* last PSN of layer 0 */
};

/* 0, or -1: too short to hold the descriptor's first 16 bytes. */
int mmc_parse_dvd_physical(const uint8_t *buf, size_t len,
			   struct mmc_dvd_physical *out);

/*
 * Blocks of the data area (LBA 0 is the first PSN): one layer, end - start
 * + 1; two on an opposite track path, layer 0's and layer 1's, whose PSNs
 * are the bit inverse of layer 0's (ECMA-267: layer 1 starts at ~end0);
 * -1 where the fields do not make a data area (an end before its start,
 * a parallel dual-layer disc whose second layer has its own descriptor:
 * mmc_dvd_ptp_blocks).
 */
int64_t mmc_dvd_data_blocks(const struct mmc_dvd_physical *p);
/*
 * The data area's blocks where LBA 0 can be put at its first PSN, else -1.
 * ECMA-267 starts a DVD's data area at PSN 030000h (DVD-RAM at 031000h);
 * QEMU's ATAPI drive numbers the one it makes up from PSN 0 to blocks - 1
 * (hw/ide/atapi.c ide_dvd_read_structure: "FIXME: 0x30000 per spec?"),
 * still end - start + 1 blocks.  Any other start below 030000h, or an
 * all-zero descriptor, places no data area.
 */
int64_t mmc_dvd_placed_blocks(const struct mmc_dvd_physical *p);
/*
 * Blocks of layer 0 on a disc of more than one layer, else -1: up to the
 * layer-0 end on an opposite path; on a parallel one layer 0's own data
 * area (end - start + 1 of its descriptor, placed as above), as redumper
 * takes a parallel disc's layer break (dvd/dvd_dump.ixx,
 * get_dvd_layer_length of layer 0's descriptor).
 */
int64_t mmc_dvd_layer0_blocks(const struct mmc_dvd_physical *p);
/* Two layers on a parallel track path: layer 1 has its own descriptor. */
bool mmc_dvd_ptp(const struct mmc_dvd_physical *p);
/*
 * Blocks of a parallel-track-path dual-layer disc from layer 0's and
 * layer 1's descriptors (format 00h with LAYER NUMBER 0 and 1: MMC-5
 * 6.22, CDB byte 6, table 393; the kernel asks one layer per call so,
 * drivers/cdrom/cdrom.c dvd_read_physical, layer_num in cmd[6]).  Each
 * layer has its own data area from PSN 030000h (ECMA-267), and the LBAs
 * run through layer 0, then layer 1: the disc holds the two areas' sum,
 * as redumper adds the layers' lengths (dvd/dvd_dump.ixx: one descriptor
 * per layer of a parallel disc, sectors_count_physical their sum).  -1
 * where either is not a parallel dual-layer descriptor or its data area
 * is not placed (an end before its start, another start).
 */
int64_t mmc_dvd_ptp_blocks(const struct mmc_dvd_physical *l0,
			   const struct mmc_dvd_physical *l1);
/* "DVD-ROM", "DVD+R", ... by category, "DVD (category N)" otherwise. */
const char *mmc_dvd_category_name(uint8_t category);

struct mmc_bd_disc_info {
	char type[4];		/* "BDO" (ROM), "BDR", "BDW" (RE), NUL-ended */
	uint8_t disc_class, version;
	unsigned int layers;	/* 1 to 15 */
};

/* The first DI unit: 0, or -1 (no "DI" unit, or too short). */
int mmc_parse_bd_disc_info(const uint8_t *buf, size_t len,
			   struct mmc_bd_disc_info *out);

#endif
