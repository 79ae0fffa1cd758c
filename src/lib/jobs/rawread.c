// SPDX-License-Identifier: MIT
/*
 * The reads of image --raw (rawjob.h): a span of the raw stream as one
 * raw read (engine/reader.h) per track file it touches, that file's
 * sectors at their LBAs.  The reader splits the commands to the drive's
 * largest transfer and checks each sector (C2 pointers, and a data
 * track's sync, header and EDC/ECC); the first one that is not right ends
 * the span as a bad block there: the engine then fails the span and the
 * passes narrow it down and retry it, as GNU ddrescue does with a bad
 * block.  What stays here is what is about the track files: which file
 * a stream sector is in, and what its track's sectors must be.
 */
#include <string.h>
#include "core/cmds.h"
#include "jobs/rawjob.h"
#include "cd/sector.h"
#include "cd/subq.h"
#include "engine/reader.h"
#include "mmc/subchan.h"

/*
 * What the raw reader demands of file f's sectors: a data track's are
 * data naming their address, except that its stored pregap may hold a
 * written gap of zeros; an audio track's only clear C2 pointers.
 */
static struct reader_expect expect_of(const struct raw_file *f)
{
	return (struct reader_expect){ .data = f->t->mode != CDT_TRACK_AUDIO,
				       .gap_end = (int64_t)f->t->start };
}

/*
 * n sectors of file f from stream sector k through the raw reader.  A
 * sector found not right leaves whether its EDC/ECC failed, for its
 * track's edc_errors.
 */
static int read_piece(struct raw_job *j, const struct raw_file *f, uint64_t k,
		      uint32_t n, uint8_t *buf, struct cdt_read_result *rr)
{
	uint64_t lba = f->first + (k - f->stream);
	int rc;

	j->reader.expect = expect_of(f);
	rc = reader_read_raw(&j->reader, (int64_t)lba, n, buf, rr);
	if (!rc && j->reader.found_bad)
		j->edc_failed[k + j->reader.bad_at] = j->reader.bad_edc;
	return rc;
}

int raw_read(void *ctx, uint64_t k, uint32_t n, uint8_t *buf,
	     struct cdt_read_result *rr)
{
	struct raw_job *j = ctx;
	uint32_t done = 0;
	double ms = 0;

	/* --subchannel: the span's P-W kept for the sink (rawsub.c) */
	j->pw_k = k;
	j->pw_n = j->pw_buf && n <= j->chunk ? n : 0;
	while (done < n) {
		const struct raw_file *f = raw_plan_find(&j->plan, k + done);
		uint64_t left = f ? f->stream + f->n - (k + done) : 0;
		uint32_t piece = n - done < left ? n - done : (uint32_t)left;
		int rc;

		if (!f)
			return CDT_EUSAGE;
		j->reader.pw_out = j->pw_n ? j->pw_buf + (size_t)done * CD_PW_LEN : NULL;
		rc = read_piece(j, f, k + done, piece, buf + (size_t)done * CD_RAW, rr);
		if (rc)
			return rc;
		ms += rr->ms;
		rr->ms = ms;
		if (rr->cls != CDT_READ_OK) {
			rr->resid += (n - done - piece) * CD_RAW;
			return 0;
		}
		done += piece;
	}
	return 0;
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
