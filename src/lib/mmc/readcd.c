// SPDX-License-Identifier: MIT
/*
 * READ CD and READ CD MSF: see mmc/readcd.h.  Field sizes per sector
 * kind: MMC-3's table of READ CD data selections (sync 12, header 4,
 * subheader 8 only in the Mode 2 forms, user data 2048/2336/2048/2324,
 * EDC/ECC 288 in Mode 1 (EDC, 8 zero bytes, P and Q), 280 in Form 1, 4
 * in Form 2 (its EDC), none in formless Mode 2).
 */
#include <string.h>
#include "mmc/bytes.h"
#include "mmc/mmc.h"
#include "mmc/readcd.h"

static void put_fields(uint8_t *cdb, const struct mmc_read_cd *rq)
{
	cdb[1] = (uint8_t)((rq->type & 0x07) << 2 | (rq->dap ? 0x02 : 0));
	cdb[9] = rq->fields & 0xfe;
	cdb[10] = rq->sub & 0x07;
}

unsigned int mmc_cdb_read_cd(uint8_t *cdb, int32_t lba, uint32_t nblocks,
			     const struct mmc_read_cd *rq)
{
	memset(cdb, 0, 12);
	cdb[0] = MMC_READ_CD;
	put_fields(cdb, rq);
	sg_put_unaligned_be32((uint32_t)lba, cdb + 2);
	cdb[6] = (uint8_t)(nblocks >> 16);
	cdb[7] = (uint8_t)(nblocks >> 8);
	cdb[8] = (uint8_t)nblocks;
	return 12;
}

static void put_msf(uint8_t *p, int64_t lba)
{
	mmc_lba_to_msf(lba, &p[0], &p[1], &p[2]);
}

unsigned int mmc_cdb_read_cd_msf(uint8_t *cdb, int32_t lba, uint32_t nblocks,
				 const struct mmc_read_cd *rq)
{
	memset(cdb, 0, 12);
	cdb[0] = MMC_READ_CD_MSF;
	put_fields(cdb, rq);
	put_msf(cdb + 3, lba);
	put_msf(cdb + 6, (int64_t)lba + nblocks);
	return 12;
}

int mmc_parse_read_cd_cdb(const uint8_t *cdb, unsigned int len, int64_t *lba,
			  uint32_t *nblocks, struct mmc_read_cd *rq)
{
	int64_t end;

	if (len < 12 || (cdb[0] != MMC_READ_CD && cdb[0] != MMC_READ_CD_MSF))
		return -1;
	rq->type = (cdb[1] >> 2) & 0x07;
	rq->dap = cdb[1] & 0x02;
	rq->fields = cdb[9] & 0xfe;
	rq->sub = cdb[10] & 0x07;
	if (cdb[0] == MMC_READ_CD) {
		*lba = (int32_t)sg_get_unaligned_be32(cdb + 2);
		*nblocks = (uint32_t)cdb[6] << 16 | cdb[7] << 8 | cdb[8];
		return 0;
	}
	*lba = mmc_msf_to_lba(cdb[3], cdb[4], cdb[5]);
	end = mmc_msf_to_lba(cdb[6], cdb[7], cdb[8]);
	*nblocks = end > *lba ? (uint32_t)(end - *lba) : 0;
	return 0;
}

struct field_sizes {
	uint16_t sync, header, subheader, user, edc_ecc;
};

static const struct field_sizes sizes[] = {
	[MMC_ST_MODE1] = { 12, 4, 0, 2048, 288 },
	[MMC_ST_MODE2] = { 12, 4, 0, 2336, 0 },
	[MMC_ST_FORM1] = { 12, 4, 8, 2048, 280 },
	[MMC_ST_FORM2] = { 12, 4, 8, 2324, 4 },
};

unsigned int mmc_read_cd_main_size(const struct mmc_read_cd *rq, uint8_t kind)
{
	const struct field_sizes *z;
	unsigned int n = 0;

	if (kind == MMC_ST_CDDA)
		return rq->fields & MMC_RCD_USER ? 2352 : 0;
	if (kind < MMC_ST_MODE1 || kind > MMC_ST_FORM2)
		return 0;
	z = &sizes[kind];
	if (rq->fields & MMC_RCD_SYNC)
		n += z->sync;
	if (rq->fields & MMC_RCD_HEADER)
		n += z->header;
	if (rq->fields & MMC_RCD_SUBHEADER)
		n += z->subheader;
	if (rq->fields & MMC_RCD_USER)
		n += z->user;
	if (rq->fields & MMC_RCD_EDC_ECC)
		n += z->edc_ecc;
	return n;
}

unsigned int mmc_read_cd_extra_size(const struct mmc_read_cd *rq)
{
	unsigned int n = 0;

	if (rq->fields & MMC_RCD_C2_BLOCK)
		n += MMC_C2_BLOCK_LEN;
	else if (rq->fields & MMC_RCD_C2)
		n += MMC_C2_LEN;
	if (rq->sub == MMC_SUB_Q)
		n += 16;
	else if (rq->sub == MMC_SUB_RAW || rq->sub == MMC_SUB_RW)
		n += 96;
	return n;
}

#define FEATURE_CD_READ 0x001e

int mmc_parse_cd_read_feature(const uint8_t *buf, size_t len,
			      struct mmc_cd_read_feature *out)
{
	size_t end, off;

	memset(out, 0, sizeof(*out));
	if (len < 8)
		return -1;
	/* the data length counts the bytes after itself; trust no more than arrived */
	end = (size_t)sg_get_unaligned_be32(buf) + 4;
	if (end > len)
		end = len;
	for (off = 8; off + 4 <= end; off += 4 + (size_t)buf[off + 3]) {
		const uint8_t *d = buf + off;

		if (sg_get_unaligned_be16(d) != FEATURE_CD_READ)
			continue;
		out->present = true;
		out->current = d[2] & 0x01;
		if (d[3] >= 4 && off + 5 <= end) {
			out->dap = d[4] & 0x80;
			out->c2 = d[4] & 0x02;
			out->cdtext = d[4] & 0x01;
		}
		return 0;
	}
	return 0;
}
