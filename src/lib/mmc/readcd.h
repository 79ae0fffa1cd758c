/* SPDX-License-Identifier: MIT */
/*
 * READ CD (0xBE) and READ CD MSF (0xB9), MMC: the CDB builders, the
 * decoder of such a CDB (the emulated drive answers with it) and the
 * number of bytes a sector of each kind gives for a field selection.
 * Fields: byte 1 bits 4-2 the expected sector type, bit 1 DAP; READ CD
 * bytes 2-5 the LBA, 6-8 the number of blocks; READ CD MSF bytes 3-5 the
 * start M:S:F and 6-8 the end M:S:F (not read); byte 9 the fields (0x80
 * sync, 0x20 header, 0x40 subheader, 0x10 user data, 0x08 EDC/ECC,
 * bits 2-1 the C2 error field: 01 294 bytes of pointers, 10 296 with the
 * block error byte); byte 10 bits 2-0 the subchannel (000 none, 001 raw
 * P-W, 010 formatted Q, 100 R-W).  [MMC-3 6.1.15/6.1.16; the same
 * fields in redumper scsi/mmc.ixx and cdrdao GenericMMC.cc]
 */
#ifndef CDT_READCD_H
#define CDT_READCD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MMC_READ_CD_MSF 0xB9

enum mmc_sector_type {
	MMC_ST_ANY = 0,
	MMC_ST_CDDA = 1,
	MMC_ST_MODE1 = 2,
	MMC_ST_MODE2 = 3,	/* formless */
	MMC_ST_FORM1 = 4,
	MMC_ST_FORM2 = 5,
};

#define MMC_RCD_SYNC 0x80
#define MMC_RCD_SUBHEADER 0x40
#define MMC_RCD_HEADER 0x20
#define MMC_RCD_HEADERS_ALL 0x60
#define MMC_RCD_USER 0x10
#define MMC_RCD_EDC_ECC 0x08
#define MMC_RCD_C2 0x02		/* C2 field 01b: 294 bytes */
#define MMC_RCD_C2_BLOCK 0x04	/* C2 field 10b: 296 bytes */
#define MMC_RCD_RAW 0xF8	/* the whole 2352-byte sector */

enum mmc_subchannel {
	MMC_SUB_NONE = 0,
	MMC_SUB_RAW = 1,	/* raw P-W, 96 bytes */
	MMC_SUB_Q = 2,		/* formatted Q, 16 bytes */
	MMC_SUB_RW = 4,		/* de-interleaved R-W, 96 bytes */
};

#define MMC_C2_LEN 294
#define MMC_C2_BLOCK_LEN 296

struct mmc_read_cd {
	uint8_t type;		/* enum mmc_sector_type */
	uint8_t fields;		/* byte 9 */
	uint8_t sub;		/* enum mmc_subchannel */
	bool dap;
};

unsigned int mmc_cdb_read_cd(uint8_t *cdb, int32_t lba, uint32_t nblocks,
			     const struct mmc_read_cd *rq);
/* nblocks from lba: the end M:S:F is lba + nblocks (not read). */
unsigned int mmc_cdb_read_cd_msf(uint8_t *cdb, int32_t lba, uint32_t nblocks,
				 const struct mmc_read_cd *rq);

/* A READ CD or READ CD MSF CDB of len bytes back into its fields; -1 if not one. */
int mmc_parse_read_cd_cdb(const uint8_t *cdb, unsigned int len, int64_t *lba,
			  uint32_t *nblocks, struct mmc_read_cd *rq);

/*
 * Bytes of the main channel for one sector of MMC type `kind`
 * (MMC_ST_CDDA .. MMC_ST_FORM2) and the fields of rq: the sum of the
 * fields that sector has (CD-DA: 2352 when user data is asked, else 0).
 */
unsigned int mmc_read_cd_main_size(const struct mmc_read_cd *rq, uint8_t kind);
/* C2 and subchannel bytes that follow the main channel of each sector. */
unsigned int mmc_read_cd_extra_size(const struct mmc_read_cd *rq);

/*
 * GET CONFIGURATION's CD Read feature (001Eh, MMC-3 5.3.11): byte 2 bit 0
 * current; byte 4 bit 7 DAP, bit 1 C2 flags, bit 0 CD-Text.  Found among
 * whole descriptors of an answer of len bytes (header included).
 */
struct mmc_cd_read_feature {
	bool present, current;
	bool dap, c2, cdtext;
};
int mmc_parse_cd_read_feature(const uint8_t *buf, size_t len,
			      struct mmc_cd_read_feature *out);

#endif
