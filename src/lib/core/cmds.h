/* SPDX-License-Identifier: MIT */
/*
 * One function per SCSI/MMC command, as sg3_utils' lib/sg_cmds_basic.c
 * does: build the CDB (mmc/mmc.c), send it through the one exec path
 * (core/device.c), hand back the raw answer and how many bytes came.
 * Policy (which error is fatal, what a message says, which block size is
 * believable) is the caller's.  Each returns 0, CDT_ECHECK with *sense
 * decoded (sense may be NULL), or a negative transport error.
 *
 * INQUIRY is the exec path's own command (the allow-list needs the
 * peripheral type): cdt_dev_inquiry() in core/device.h.
 */
#ifndef CDT_CMDS_H
#define CDT_CMDS_H

#include "core/device.h"
#include "mmc/readcd.h"

int cdt_cmd_test_unit_ready(struct cdt_dev *dev, struct cdt_sense *sense);

/*
 * READ CAPACITY(10); READ CAPACITY(16) when (10) saturates at 0xFFFFFFFF
 * or is refused as an invalid opcode (05/20/00).  *blocks = last LBA + 1;
 * *block_len as the drive said it (0 and 2352 included).
 */
int cdt_cmd_read_capacity(struct cdt_dev *dev, uint64_t *blocks,
			  uint32_t *block_len, struct cdt_sense *sense);

/*
 * READ(10), READ(12) past 65535 blocks, READ(16) past LBA 0xFFFFFFFF, of
 * nblocks into buf (len bytes).  cmd keeps the residual and the duration.
 */
int cdt_cmd_read(struct cdt_dev *dev, uint64_t lba, uint32_t nblocks,
		 void *buf, uint32_t len, struct cdt_cmd *cmd,
		 struct cdt_sense *sense);

/*
 * READ CD (0xBE) of nblocks from lba (signed: a pregap before LBA 0 is
 * negative) with rq's sector type, fields and subchannel; READ CD MSF
 * (0xB9) the same by M:S:F.  len: the bytes buf holds; cmd keeps the
 * residual and the duration (MMC READ CD; sg3_utils has no wrapper).
 */
int cdt_cmd_read_cd(struct cdt_dev *dev, int64_t lba, uint32_t nblocks,
		    const struct mmc_read_cd *rq, void *buf, uint32_t len,
		    struct cdt_cmd *cmd, struct cdt_sense *sense);
/*
 * READ CD of nblocks from lba as the imaging passes take a read: its
 * answer classified into res as cdt_read_blocks() does (len: the bytes
 * asked for, the residual counted against it).  0, or an error that ends
 * the run.
 */
int cdt_read_cd_blocks(struct cdt_dev *dev, int64_t lba, uint32_t nblocks,
		       const struct mmc_read_cd *rq, void *buf, uint32_t len,
		       struct cdt_read_result *res);
int cdt_cmd_read_cd_msf(struct cdt_dev *dev, int64_t lba, uint32_t nblocks,
			const struct mmc_read_cd *rq, void *buf, uint32_t len,
			struct cdt_cmd *cmd, struct cdt_sense *sense);

/* READ TOC format 0/1/2 from track, LBA or M:S:F addresses. */
int cdt_cmd_read_toc(struct cdt_dev *dev, uint8_t format, bool msf,
		     uint8_t track, void *buf, uint16_t alloc, uint32_t *got);

/* READ TOC format 2 (full TOC) from session 1, M:S:F as MMC requires. */
int cdt_cmd_read_full_toc(struct cdt_dev *dev, void *buf, uint16_t alloc,
			  uint32_t *got);

/* READ TOC format 5: the CD-TEXT packs of the lead-in (cd/cdtext.h) */
int cdt_cmd_read_cd_text(struct cdt_dev *dev, void *buf, uint16_t alloc, uint32_t *got);

int cdt_cmd_read_disc_info(struct cdt_dev *dev, void *buf, uint16_t alloc,
			   uint32_t *got);

/* address type 1: by track number */
int cdt_cmd_read_track_info(struct cdt_dev *dev, uint32_t track, void *buf,
			    uint16_t alloc, uint32_t *got);

/* READ DISC STRUCTURE (mmc/structure.h) of media type, layer, format. */
int cdt_cmd_read_disc_structure(struct cdt_dev *dev, uint8_t media_type,
				uint8_t layer, uint8_t format, void *buf,
				uint16_t alloc, uint32_t *got);

int cdt_cmd_get_configuration(struct cdt_dev *dev, uint8_t rt, uint16_t start,
			      void *buf, uint16_t alloc, uint32_t *got);

/* READ SUB-CHANNEL of format MMC_SUBCH_MCN, or MMC_SUBCH_ISRC of track. */
int cdt_cmd_read_subchannel(struct cdt_dev *dev, uint8_t format, uint8_t track,
			    void *buf, uint16_t alloc, uint32_t *got,
			    struct cdt_sense *sense);

/* MODE SENSE(10) of page, current values. */
int cdt_cmd_mode_sense10(struct cdt_dev *dev, uint8_t page, void *buf,
			 uint16_t alloc, uint32_t *got, struct cdt_sense *sense);

#endif
