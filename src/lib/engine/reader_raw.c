// SPDX-License-Identifier: MIT
/*
 * The raw reader (reader.h): READ CD of whole 2352-byte sectors, with
 * C2 pointers when asked, as pieces of at most the device's largest
 * transfer (2352 + 294 bytes a sector with C2: 24 sectors in 64 KiB, not
 * 26), each sector that arrived checked before the caller sees it.
 * Sectors are handed back 2352 bytes each, the pointers left out; with
 * pw the raw P-W subchannel comes in the same command (96 bytes after the
 * pointers, MMC-3 READ CD sub-channel selection 001b) and each good
 * sector's goes to pw_out.
 */
#include <stdlib.h>
#include <string.h>
#include "core/cmds.h"
#include "core/device.h"
#include "cd/sector.h"
#include "cd/subq.h"
#include "engine/reader.h"
#include "mmc/readcd.h"

/* the sense a sector that arrived GOOD but is not right is given: 03/11/00 */
#define SK_MEDIUM 0x03
#define ASC_UNRECOVERED 0x11

int reader_init_raw(struct reader *r, struct cdt_dev *dev, bool c2)
{
	return reader_init_raw_pw(r, dev, c2, false);
}

int reader_init_raw_pw(struct reader *r, struct cdt_dev *dev, bool c2, bool pw)
{
	uint32_t max;

	memset(r, 0, sizeof(*r));
	r->dev = dev;
	r->raw = true;
	r->c2 = c2;
	r->pw = pw;
	r->per = CD_RAW + (c2 ? MMC_C2_LEN : 0) + (pw ? CD_PW_LEN : 0);
	r->max = reader_raw_max;
	r->read_at = reader_read_raw;
	max = cdt_dev_max_bytes(dev) / r->per;
	r->cap = max ? max : 1;
	r->answer = malloc((size_t)r->cap * r->per);
	return r->answer ? 0 : CDT_ENOMEM;
}

void reader_fini(struct reader *r)
{
	free(r->answer);
	r->answer = NULL;
	r->cap = 0;
}

uint32_t reader_raw_max(const struct reader *r)
{
	uint32_t n = cdt_dev_max_bytes(r->dev) / r->per;

	if (n > r->cap)
		n = r->cap;
	return n ? n : 1;
}

static bool c2_clear(const uint8_t *c2)
{
	unsigned int i;

	for (i = 0; i < MMC_C2_LEN; i++)
		if (c2[i])
			return false;
	return true;
}

/*
 * A data sector at lba: sync and a header naming lba, EDC and ECC right.
 * *edc: it failed its EDC/ECC.  Before expect.gap_end a sector without
 * sync is a written gap of zeros (not data), which is stored as read.
 */
static bool data_sector_ok(const struct reader *r, int64_t lba, const uint8_t *s,
			   bool *edc)
{
	struct cd_sector_info info;
	struct cd_sector_check chk;

	if (cd_sector_parse(s, CD_RAW, &info))
		return false;
	if (info.kind == CD_SECTOR_NONE)
		return lba < r->expect.gap_end;
	if (!info.bcd_ok || info.lba != lba)
		return false;
	*edc = !cd_sector_check(s, info.kind, &chk);
	return !*edc;
}

static bool sector_ok(const struct reader *r, int64_t lba, const uint8_t *s,
		      bool *edc)
{
	*edc = false;
	if (r->expect.data && !data_sector_ok(r, lba, s, edc))
		return false;
	return !r->c2 || c2_clear(s + CD_RAW);
}

/* rr says: the read of n failed at its sector `at` (LBA lba), a bad block. */
static void bad_at(struct reader *r, struct cdt_read_result *rr, int64_t lba,
		   uint32_t at, uint32_t n, bool edc)
{
	size_t size = rr->size;

	memset(rr, 0, sizeof(*rr));
	rr->size = size;
	rr->cls = CDT_READ_MEDIUM;
	rr->sense_key = SK_MEDIUM;
	rr->asc = ASC_UNRECOVERED;
	rr->info_valid = lba >= 0;
	rr->info = lba >= 0 ? (uint64_t)lba : 0;
	rr->resid = (n - at) * CD_RAW;
	r->found_bad = true;
	r->bad_at = at;
	r->bad_edc = edc;
}

/*
 * One command of k sectors at lba into out (2352 bytes each); *got: how
 * many came good and right.  <0 an error; else piece says how it ended
 * (a sector not right: *bad set, its index *got).
 */
static int read_piece(struct reader *r, int64_t lba, uint32_t k, uint8_t *out,
		      uint8_t *pw, struct cdt_read_result *piece, uint32_t *got,
		      bool *bad, bool *edc)
{
	struct mmc_read_cd rq = { .type = MMC_ST_ANY,
				  .fields = MMC_RCD_RAW | (r->c2 ? MMC_RCD_C2 : 0),
				  .sub = r->pw ? MMC_SUB_RAW : MMC_SUB_NONE };
	uint32_t i, arrived;
	int rc;

	*bad = false;
	*got = 0;
	rc = cdt_read_cd_blocks(r->dev, lba, k, &rq, r->answer, k * r->per, piece);
	if (rc)
		return rc;
	arrived = piece->cls == CDT_READ_OK || piece->cls == CDT_READ_SHORT ?
		  reader_arrived(piece, k, r->per) : 0;
	for (i = 0; i < arrived; i++) {
		const uint8_t *s = r->answer + (size_t)i * r->per;

		if (!sector_ok(r, lba + i, s, edc)) {
			*bad = true;
			break;
		}
		memcpy(out + (size_t)i * CD_RAW, s, CD_RAW);
		if (pw)
			memcpy(pw + (size_t)i * CD_PW_LEN, s + r->per - CD_PW_LEN, CD_PW_LEN);
	}
	*got = i;
	return 0;
}

int reader_read_raw(struct reader *r, int64_t lba, uint32_t n, uint8_t *buf,
		    struct cdt_read_result *rr)
{
	size_t size = rr->size;
	uint32_t done = 0;
	double ms = 0;
	int rc;

	r->found_bad = false;
	if (!n || (uint64_t)n * CD_RAW > UINT32_MAX)
		return CDT_EUSAGE;
	while (done < n) {
		struct cdt_read_result piece = CDT_INIT(piece);
		uint32_t k = n - done, max = reader_raw_max(r), got;
		bool bad, edc;

		if (k > max)
			k = max;
		rc = read_piece(r, lba + done, k, buf + (size_t)done * CD_RAW,
				r->pw && r->pw_out ? r->pw_out + (size_t)done * CD_PW_LEN : NULL,
				&piece, &got, &bad, &edc);
		if (rc)
			return rc;
		ms += piece.ms;
		if (bad) {
			bad_at(r, rr, lba + done + got, done + got, n, edc);
			rr->ms = ms;
			return 0;
		}
		if (piece.cls != CDT_READ_OK) {
			*rr = piece;
			rr->size = size;
			rr->resid = (n - done - got) * CD_RAW;
			rr->ms = ms;
			return 0;
		}
		done += k;
	}
	memset(rr, 0, sizeof(*rr));
	rr->size = size;
	rr->cls = CDT_READ_OK;
	rr->ms = ms;
	return 0;
}
