// SPDX-License-Identifier: MIT
/*
 * The reads of image --raw (rawjob.h): a span of the raw stream as READ
 * CD commands, one per track file it touches, each sector checked before
 * the engine sees it as read.  A sector is what was written when its C2
 * pointers (where the drive gives them) are all clear and, in a data
 * track, its sync and header name the address asked (some firmware
 * answers with a cached sector again: REAL-DISCS.md, redumper's PLEXTOR
 * notes) and its EDC and ECC hold (ECMA-130 14.3, 14.5).  The first one
 * that is not ends the span as a medium error there: the engine then
 * fails the span and the passes narrow it down and retry it, as GNU
 * ddrescue does with a bad block.
 */
#include <string.h>
#include <openssl/evp.h>
#include "core/cmds.h"
#include "jobs/rawjob.h"
#include "cd/edc.h"
#include "mmc/readcd.h"
#include "cd/sector.h"
#include "mmc/subchan.h"

/* the sense a sector that arrived GOOD but is not right is given: 03/11/00 */
#define SK_MEDIUM 0x03
#define ASC_UNRECOVERED 0x11

static unsigned int per_sector(const struct raw_job *j)
{
	return CD_RAW + (j->c2 ? MMC_C2_LEN : 0);
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
 * A data sector at lba of file f: sync and a header naming lba, EDC and
 * ECC right.  *edc: it failed its EDC/ECC.  A pregap's sector without
 * sync is a written gap of zeros (not data), which the sheet stores as read.
 */
static bool data_sector_ok(const struct raw_file *f, uint64_t lba, const uint8_t *s,
			   bool *edc)
{
	struct cd_sector_info info;
	struct cd_sector_check chk;

	if (cd_sector_parse(s, CD_RAW, &info))
		return false;
	if (info.kind == CD_SECTOR_NONE)
		return lba < f->t->start;
	if (!info.bcd_ok || info.lba != (int64_t)lba)
		return false;
	*edc = !cd_sector_check(s, info.kind, &chk);
	return !*edc;
}

static bool sector_ok(const struct raw_job *j, const struct raw_file *f, uint64_t lba,
		      const uint8_t *s, bool *edc)
{
	*edc = false;
	if (f->t->mode != CDT_TRACK_AUDIO && !data_sector_ok(f, lba, s, edc))
		return false;
	return !j->c2 || c2_clear(s + CD_RAW);
}

/* rr says: the span failed at its sector `at` of n, medium error. */
static void fail_at(struct cdt_read_result *rr, uint32_t at, uint32_t n)
{
	rr->cls = CDT_READ_MEDIUM;
	rr->sense_key = SK_MEDIUM;
	rr->asc = ASC_UNRECOVERED;
	rr->ascq = 0;
	rr->resid = (n - at) * CD_RAW;
}

/*
 * n sectors of file f from stream sector k: READ CD, the sectors checked
 * and compacted to 2352 bytes each into buf.  Returns <0 an error, else
 * how many came good (n: all; rr then says why not).
 */
static int read_piece(struct raw_job *j, const struct raw_file *f, uint64_t k,
		      uint32_t n, uint8_t *buf, struct cdt_read_result *rr)
{
	struct mmc_read_cd rq = { .type = MMC_ST_ANY,
				  .fields = MMC_RCD_RAW | (j->c2 ? MMC_RCD_C2 : 0) };
	uint64_t lba = f->first + (k - f->stream);
	unsigned int per = per_sector(j);
	uint32_t got, i;
	int rc;

	rc = cdt_read_cd_blocks(j->dev, (int64_t)lba, n, &rq, j->answer, n * per, rr);
	if (rc)
		return rc;
	got = rr->cls == CDT_READ_OK ? n - (rr->resid + per - 1) / per : 0;
	for (i = 0; i < got; i++) {
		const uint8_t *s = j->answer + (size_t)i * per;
		bool edc;

		if (!sector_ok(j, f, lba + i, s, &edc)) {
			j->edc_failed[k + i] = edc;
			fail_at(rr, i, n);
			return (int)i;
		}
		memcpy(buf + (size_t)i * CD_RAW, s, CD_RAW);
	}
	return (int)got;
}

int raw_read(void *ctx, uint64_t k, uint32_t n, uint8_t *buf,
	     struct cdt_read_result *rr)
{
	struct raw_job *j = ctx;
	uint32_t done = 0;

	rr->ms = 0;
	while (done < n) {
		const struct raw_file *f = raw_plan_find(&j->plan, k + done);
		uint64_t left = f ? f->stream + f->n - (k + done) : 0;
		uint32_t piece = n - done < left ? n - done : (uint32_t)left;
		int got;

		if (!f)
			return CDT_EUSAGE;
		got = read_piece(j, f, k + done, piece, buf + (size_t)done * CD_RAW, rr);
		if (got < 0)
			return got;
		if ((uint32_t)got < piece || rr->cls != CDT_READ_OK) {
			rr->resid = (n - done - (uint32_t)got) * CD_RAW;
			if (rr->cls == CDT_READ_OK)
				fail_at(rr, done + (uint32_t)got, n);
			return 0;
		}
		done += piece;
	}
	rr->resid = 0;
	return 0;
}

/* Stream sector k read and hashed: 1, 0 when it does not read, or an error. */
static int read_digest(struct raw_job *j, uint64_t k, uint8_t *md)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	uint8_t s[CD_RAW];
	unsigned int len = 32;
	int rc = raw_read(j, k, 1, s, &rr);

	if (rc)
		return rc;
	if (rr.cls == CDT_READ_CHANGED)
		return CDT_ECHANGED;
	if (rr.cls != CDT_READ_OK || rr.resid)
		return 0;
	return EVP_Digest(s, CD_RAW, md, &len, EVP_sha256(), NULL) == 1 ? 1 : CDT_ENOMEM;
}

int raw_id_check(struct raw_job *j, unsigned int *matched, uint64_t *k)
{
	uint8_t md[32];
	unsigned int i;
	int rc;

	*matched = 0;
	for (i = 0; i < j->book.rec.id.n; i++) {
		rc = read_digest(j, j->book.rec.id.lba[i], md);
		if (rc < 0)
			return rc;
		if (!rc)
			continue;	/* worn since: not a difference */
		if (memcmp(md, j->book.rec.id.sha256[i], sizeof(md))) {
			*k = j->book.rec.id.lba[i];
			return 1;
		}
		(*matched)++;
	}
	return *matched ? 0 : 2;
}

/* ---- the disc's MCN and the tracks' ISRCs ------------------------------- */

/*
 * What a drive gives is taken only when its valid bit is set and its
 * characters are an MCN's or an ISRC's (subchan.h): a drive that refuses
 * the command, or answers anything else, leaves the sheet without the
 * line, as an absent CATALOG or ISRC is no error (Redump's sheets have
 * them only where the disc does).
 */
static int read_id(struct raw_job *j, uint8_t format, uint8_t track, char *out)
{
	uint8_t ans[MMC_SUBCH_ANSWER_LEN];
	uint32_t got = 0;
	int rc;

	memset(ans, 0, sizeof(ans));
	rc = cdt_cmd_read_subchannel(j->dev, format, track, ans, sizeof(ans), &got, NULL);
	if (rc)
		return rc;
	if (format == MMC_SUBCH_MCN)
		mmc_parse_mcn(ans, got, out);
	else
		mmc_parse_isrc(ans, got, out);
	return 0;
}

void raw_read_ids(struct raw_job *j)
{
	size_t i;

	/* a drive without the command refuses it for the MCN already */
	if (read_id(j, MMC_SUBCH_MCN, 0, j->plan.catalog))
		return;
	for (i = 0; i < j->plan.n; i++)
		read_id(j, MMC_SUBCH_ISRC, (uint8_t)j->plan.f[i].t->number,
			j->plan.f[i].isrc);
}
