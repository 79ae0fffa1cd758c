// SPDX-License-Identifier: MIT
/*
 * image --raw --subchannel (rawjob.h): OUT.sub beside the sheet, CloneCD's
 * layout (cd/subpw.h: 96 bytes a sector, channel by channel P, Q, R..W),
 * one record for every stored sector in the order of the stream, so
 * record k belongs to the map's stream sector k.  The raw reader reads
 * P-W in the same READ CD as the main channel (selection 001b) and keeps
 * it for the good sectors only: a record is written when its sector goes
 * into its track file, under the same save order (the book syncs OUT.sub
 * with the track files before the map is replaced), so a sector left
 * unreadable keeps the zeros the file was made with and no Q is ever made
 * up for it.  Its audio is not shifted by --offset: subchannel belongs to
 * the sector the drive read (redumper keeps its .subcode per sector too).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/device.h"
#include "book/lock.h"
#include "engine/sink.h"
#include "cd/sector.h"
#include "cd/subq.h"
#include "cd/subpw.h"
#include "jobs/rawjob.h"

/* records read back at once when counting */
#define COUNT_BATCH 1024u

int raw_sub_check(struct raw_job *j)
{
	j->sub_fd = -1;
	if (!j->opts->subchannel)
		return 0;
	if (!j->res->sum.probe->raw.subpw) {
		cdt_dev_seterr(j->dev, "the drive does not return the raw P-W subchannel with READ CD (selection 001b): --subchannel needs it, image without it");
		return CDT_EUSAGE;
	}
	j->pw = true;
	j->pw_buf = malloc((size_t)j->chunk * CD_PW_LEN);
	return j->pw_buf ? 0 : CDT_ENOMEM;
}

/*
 * OUT.sub stays consistent with the map: a resumed run goes on storing
 * the subchannel exactly when the run it continues did (else records
 * would be missing for sectors the map calls finished, or be left behind
 * stale); a new run without --subchannel leaves no OUT.sub of another
 * image beside its sheet (replaced with --force, as the BINs are).
 */
static int check_existing(struct raw_job *j, bool exists)
{
	if (!book_resumed(&j->book)) {
		if (!exists || j->opts->subchannel)
			return 0;
		if (j->opts->force && !unlink(j->sub_path))
			return 0;
		cdt_dev_seterr(j->dev, "%s exists: add --force to replace it with the new image (which stores no subchannel)",
			       j->sub_path);
		return CDT_EUSAGE;
	}
	if (exists == j->opts->subchannel)
		return 0;
	/* the map resumes the run it came from, not this one */
	book_decline(&j->book);
	if (exists)
		cdt_dev_seterr(j->dev, "%s exists: the map's run stored the subchannel; add --subchannel to go on with it",
			       j->sub_path);
	else
		cdt_dev_seterr(j->dev, "%s is missing: the map's run stored no subchannel; go on without --subchannel, or start afresh",
			       j->sub_path);
	return CDT_EUSAGE;
}

static int sub_open_error(struct raw_job *j)
{
	if (errno == EEXIST) {
		cdt_dev_seterr(j->dev, "%s exists: add --force to replace it, or give the map of its run",
			       j->sub_path);
		return CDT_EUSAGE;
	}
	cdt_dev_seterr(j->dev, "%s: %s", j->sub_path, strerror(errno));
	return CDT_EIO;
}

int raw_sub_open(struct raw_job *j, const char *base)
{
	bool resumed = book_resumed(&j->book);
	size_t cap = strlen(base) + 8;
	int flags, rc;

	j->sub_path = malloc(cap);
	if (!j->sub_path)
		return CDT_ENOMEM;
	snprintf(j->sub_path, cap, "%s.sub", base);
	rc = check_existing(j, access(j->sub_path, F_OK) == 0);
	if (rc || !j->opts->subchannel)
		return rc;
	flags = O_RDWR | O_CLOEXEC | (resumed ? 0 : O_CREAT | (j->opts->force ? O_TRUNC : O_EXCL));
	j->sub_fd = open(j->sub_path, flags, 0644);
	if (j->sub_fd < 0)
		return sub_open_error(j);
	rc = book_add_file(&j->book, j->sub_path, j->sub_fd, !resumed);
	if (rc) {
		close(j->sub_fd);
		j->sub_fd = -1;
		return rc;
	}
	rc = lock_fd(j->sub_fd);
	if (rc == CDT_EBUSY)
		cdt_dev_seterr(j->dev, "%s is in use by another run", j->sub_path);
	if (!rc && ftruncate(j->sub_fd, (off_t)(j->plan.total * CD_PW_LEN))) {
		cdt_dev_seterr(j->dev, "%s: %s", j->sub_path, strerror(errno));
		rc = CDT_EIO;
	}
	return rc;
}

int raw_sub_put(struct raw_job *j, uint64_t k, uint32_t n)
{
	uint8_t *rec;
	uint32_t i;
	int rc;

	if (j->sub_fd < 0)
		return 0;
	/* the engine hands the sink the span it has just read, whole */
	if (k < j->pw_k || k + n > j->pw_k + j->pw_n)
		return CDT_EUSAGE;
	rec = malloc((size_t)n * CD_PW_LEN);
	if (!rec)
		return CDT_ENOMEM;
	for (i = 0; i < n; i++)
		cd_pw_deinterleave(j->pw_buf + (size_t)(k - j->pw_k + i) * CD_PW_LEN,
				   rec + (size_t)i * CD_PW_LEN);
	rc = rescue_pwrite(j->sub_fd, rec, (size_t)n * CD_PW_LEN, k * CD_PW_LEN);
	if (rc)
		cdt_dev_seterr(j->dev, "cannot write %s: %s", j->sub_path, strerror(errno));
	free(rec);
	return rc;
}

/* The 12 Q bytes of a record hold their CRC (cd/subq.h: stored inverted). */
static bool q_crc_ok(const uint8_t *rec)
{
	const uint8_t *q = rec + CD_SUB_Q_AT;
	uint16_t want = (uint16_t)(cd_q_crc(q) ^ 0xffff), stored = (uint16_t)(q[10] << 8 | q[11]);

	return want == stored;
}

/* Records [a, b) of OUT.sub, all finished sectors: their Q CRC errors. */
static int count_finished(struct raw_job *j, uint64_t a, uint64_t b, uint8_t *buf)
{
	while (a < b) {
		uint32_t n = b - a < COUNT_BATCH ? (uint32_t)(b - a) : COUNT_BATCH, i;
		ssize_t got = pread(j->sub_fd, buf, (size_t)n * CD_PW_LEN, (off_t)(a * CD_PW_LEN));

		if (got != (ssize_t)n * CD_PW_LEN) {
			cdt_dev_seterr(j->dev, "%s: %s", j->sub_path,
				       got < 0 ? strerror(errno) : "shorter than written");
			return CDT_EIO;
		}
		for (i = 0; i < n; i++) {
			const struct raw_file *f = raw_plan_find(&j->plan, a + i);

			if (!q_crc_ok(buf + (size_t)i * CD_PW_LEN))
				j->res->q_crc_errors[f - j->plan.f]++;
		}
		a += n;
	}
	return 0;
}

/* Stream sectors [a, b) not finished: their records are zeros, counted. */
static void count_zeroed(struct raw_job *j, uint64_t a, uint64_t b)
{
	while (a < b) {
		const struct raw_file *f = raw_plan_find(&j->plan, a);
		uint64_t end = f->stream + f->n < b ? f->stream + f->n : b;

		j->res->sub_zeroed[f - j->plan.f] += end - a;
		a = end;
	}
}

int raw_sub_count(struct raw_job *j)
{
	struct cdt_raw_result *res = j->res;
	const struct cdt_map *m = &j->book.map;
	uint8_t *buf;
	size_t i;
	int rc = 0;

	if (j->sub_fd < 0)
		return 0;
	res->sub_file = strdup(j->sub_path);
	res->q_crc_errors = calloc(j->plan.n, sizeof(*res->q_crc_errors));
	res->sub_zeroed = calloc(j->plan.n, sizeof(*res->sub_zeroed));
	buf = malloc((size_t)COUNT_BATCH * CD_PW_LEN);
	if (!res->sub_file || !res->q_crc_errors || !res->sub_zeroed || !buf)
		rc = CDT_ENOMEM;
	for (i = 0; !rc && i < m->n; i++) {
		uint64_t a = m->runs[i].pos / CD_RAW, b = (m->runs[i].pos + m->runs[i].size) / CD_RAW;

		if (m->runs[i].status == MAP_FINISHED)
			rc = count_finished(j, a, b, buf);
		else
			count_zeroed(j, a, b);
	}
	free(buf);
	return rc;
}

void raw_sub_result_free(struct cdt_raw_result *res)
{
	free(res->sub_file);
	free(res->q_crc_errors);
	free(res->sub_zeroed);
	res->sub_file = NULL;
	res->q_crc_errors = res->sub_zeroed = NULL;
}

void raw_sub_free(struct raw_job *j)
{
	free(j->sub_path);
	free(j->pw_buf);
	j->sub_path = NULL;
	j->pw_buf = NULL;
}
